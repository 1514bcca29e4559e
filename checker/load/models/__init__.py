"""Typed pydantic models of each submitter file, one module per file kind, and lenient validation into them.

``kinds`` maps a file kind to its model, ``attach`` validates a loaded file into it, ``lenient`` collects
every problem with its path (one bad field never hides the rest of the file), ``urls`` reads http(s)
links as ``urllib`` does. This package module holds nothing itself, so its modules never import it.
"""
