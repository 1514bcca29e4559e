"""Every path into a parsed tree (mapping keys and list indexes), the root's ``()`` first: what the
property tests use to put a wrong value at each place of a file."""
from __future__ import annotations


def tree_paths(node, prefix=()):
    """Yield ``prefix`` and the path of every value below ``node``, depth first."""
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from tree_paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from tree_paths(v, prefix + (i,))
