"""Typed pydantic models of each submitter file, one module per file kind, and lenient validation into them.

``attach`` validates a loaded file into the model its kind names (``checker.load.file_kinds``), ``lenient``
collects every problem with its path (one bad field never hides the rest of the file), ``urls`` reads http(s)
links as ``urllib`` does. This package module holds nothing itself, so its modules never import it.
"""
