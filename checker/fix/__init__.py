"""Automatic fixes: locate a rule's edit in the file's text (locate), apply and verify it in memory
(edits), write it safely (write), and run a whole --fix or --diff (engine). docs/fixes.md lists what is fixed."""
