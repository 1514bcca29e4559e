"""Where a rule is documented: its family page ``docs/rules/<family>.md`` and, on it, the rule's own anchor.

Shared by the page generator (``checker.cli.rule_docs``) and everything that links to a rule (the language
server's ``codeDescription.href``), so a link and the anchor it names can never disagree.
"""
from __future__ import annotations

#: where the generated pages live, relative to the checkout
RULE_PAGES_DIR = "docs/rules"


def rule_anchor(rule_id: str) -> str:
    """The fragment naming a rule on its family page: its id (each row carries it as an explicit ``<a id>``;
    GitHub resolves ``#id`` to it)."""
    return rule_id


def rule_page_ref(family: str, rule_id: str) -> str:
    """``<family>.md#<anchor>``: the rule's row, relative to the pages' directory."""
    return f"{family}.md#{rule_anchor(rule_id)}"
