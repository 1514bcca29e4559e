"""Where an edit goes: the exact span of a key, a scalar or a mapping's end in a YAML/JSON text.

The file is parsed again with the loader's event parser (ruamel.yaml's C parser), this time keeping
each node's character span, its quoting style, its anchor and tag, and each mapping's layout (block
or flow, indentation, where its last entry ends). ``resolve`` turns a rule's ``Edit`` into a
``TextEdit`` only when the span is certain: the value there still reads as the rule saw it, it is no
alias, tag or block scalar, a renamed key does not exist already, an inserted key is new. Anything
else resolves to None (the finding then offers no automatic fix).
"""
from __future__ import annotations

import hashlib
import re
from typing import Any

from checker.core.fixes import Edit, TextEdit
from checker.core.spellings import PLAIN_UNSAFE_WORDS

#: texts longer than this are never edited (a hand-written point.yaml is a few kilobytes)
MAX_FIX_CHARS = 1 << 20
_PLAIN_SAFE = re.compile(r"^[A-Za-z_][A-Za-z0-9_.\-/]*$")


class Node:
    """One parsed node: its kind, token span (properties excluded), style, and for a mapping its layout."""

    __slots__ = ("kind", "start", "end", "style", "text", "tagged", "anchored", "flow", "content_end", "key",
                 "keys", "first_key_start", "target")

    def __init__(self, kind: str, start: int, end: int) -> None:
        self.kind = kind  # scalar | alias | map | seq
        self.start, self.end = start, end
        self.style = None
        self.text = None  # a scalar's value as written (before resolution)
        self.tagged = self.anchored = self.flow = False
        self.content_end = end  # where the node's last token ends
        self.key = None  # as a mapping value: the key's Node
        self.keys: list = []  # a mapping's keys, in order
        self.first_key_start = None
        self.target = None  # an alias: the path of the node its anchor names


def _skip_properties(text: str, i: int, end: int) -> int:
    """Index of a node's token after its anchor (&a) and tag (!t) properties."""
    while i < end and text[i] in "&!":
        while i < end and text[i] not in " \t\r\n":
            i += 1
        while i < end and text[i] in " \t\r\n":
            i += 1
    return i


def node_map(text: str) -> dict | None:
    """{data path: Node} for every node of a YAML/JSON document; None when it does not parse."""
    from ruamel.yaml import events as ev_mod
    from ruamel.yaml.error import YAMLError

    from checker.load.yaml_reader import _parser

    nodes: dict = {}
    anchors: dict = {}  # anchor name -> path of the node it names (the latest definition, as YAML reads it)
    stack: list = []  # [path, Node, pending key node or None, is_map, index]
    try:
        parser = _parser(text)
        while (ev := parser.get_event()) is not None:
            cls = type(ev)
            if cls in (ev_mod.ScalarEvent, ev_mod.AliasEvent, ev_mod.MappingStartEvent, ev_mod.SequenceStartEvent):
                start, end = ev.start_mark.index, ev.end_mark.index
                is_scalar = cls is ev_mod.ScalarEvent
                kind = "scalar" if is_scalar else "alias" if cls is ev_mod.AliasEvent else (
                    "map" if cls is ev_mod.MappingStartEvent else "seq")
                tok = _skip_properties(text, start, end) if is_scalar else start
                node = Node(kind, tok, end)
                node.anchored = bool(getattr(ev, "anchor", None)) and kind != "alias"
                tag = getattr(ev, "tag", None)
                node.tagged = bool(tag) and tag not in ("!", "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq") and not (
                    is_scalar and ev.implicit[0] and tag == "tag:yaml.org,2002:str")
                if is_scalar:
                    node.style, node.text = ev.style or "", ev.value
                elif kind in ("map", "seq"):
                    node.flow = bool(ev.flow_style)
                if stack and stack[-1][3] and stack[-1][2] is None:  # a mapping key
                    if kind != "scalar":
                        return None
                    stack[-1][2] = node
                    parent = stack[-1][1]
                    if parent.first_key_start is None:
                        parent.first_key_start = node.start
                    _grow(stack, node.end)
                    continue
                path = _child_path(stack)
                if path is None:
                    return None
                if stack and stack[-1][3]:
                    node.key = stack[-1][2]
                    stack[-1][1].keys.append(path[-1])
                    stack[-1][2] = None
                elif stack:
                    stack[-1][4] += 1
                nodes[path] = node
                if kind == "alias":
                    node.target = anchors.get(ev.anchor)
                elif node.anchored:
                    anchors[ev.anchor] = path
                if kind in ("map", "seq"):
                    stack.append([path, node, None, kind == "map", 0])
                else:
                    _grow(stack, node.end)
            elif cls in (ev_mod.MappingEndEvent, ev_mod.SequenceEndEvent):
                _path, node, _k, _m, _i = stack.pop()
                if node.flow:
                    node.content_end = ev.end_mark.index
                _grow(stack, node.content_end)
    except (YAMLError, ValueError, RecursionError):
        return None
    return nodes


def _grow(stack: list, end: int) -> None:
    for entry in stack:
        if end > entry[1].content_end:
            entry[1].content_end = end


def _child_path(stack: list):
    if not stack:
        return ()
    path, _node, key, is_map, index = stack[-1]
    if not is_map:
        return path + (index,)
    k = _key_value(key)
    return None if k is _BAD else path + (k,)


_BAD = object()


def _key_value(node: Node) -> Any:
    """A key as the loader reads it (plain scalars resolved by the YAML 1.2 core schema)."""
    from checker.load.yaml_scalars import YamlLoadError, resolve_plain

    if node.tagged:
        return _BAD
    if node.style:
        return node.text
    try:
        k = resolve_plain(node.text, 0, 0)
    except YamlLoadError:
        return _BAD
    if isinstance(k, float) and k != k:
        return "nan"
    return k


def scalar_value(node: Node) -> Any:
    """A scalar value as the loader reads it; _BAD for what a fix never touches."""
    if node.kind != "scalar" or node.tagged:
        return _BAD
    return _key_value(node)


def same(a: Any, b: Any) -> bool:
    """Equal values of equal types (8 is not 8.0, True is not 1), through lists and mappings."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return len(a) == len(b) and all(k in b and same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and a != a:
        return b != b
    return a == b


def quote_like(value: str, style: str, is_json: bool) -> str:
    """A string token in the style the file used for the old one (plain only where it reads back as text)."""
    if style == "'" and not is_json:
        return "'" + value.replace("'", "''") + "'"
    if style == "" and not is_json and _PLAIN_SAFE.match(value) and value.lower() not in PLAIN_UNSAFE_WORDS \
            and not re.match(r"^[-+.0-9]", value):
        return value
    import json

    return json.dumps(value, ensure_ascii=False)


def digest_of(lf) -> str:
    cached = _DIGESTS.get(id(lf))
    if cached is not None and cached[0] is lf:
        return cached[1]
    full = ("\ufeff" if getattr(lf, "bom", False) else "") + (lf.text or "")
    d = hashlib.sha256(full.encode("utf-8")).hexdigest()
    _DIGESTS[id(lf)] = (lf, d)
    if len(_DIGESTS) > 64:  # bounded like _MAPS: a long-running server (lsp, mcp) checks thousands of buffers
        _DIGESTS.pop(next(iter(_DIGESTS)))
    return d


_DIGESTS: dict = {}
_MAPS: dict = {}


def _nodes_of(lf):
    hit = _MAPS.get(id(lf))
    if hit is None or hit[0] is not lf:
        hit = _MAPS[id(lf)] = (lf, node_map(lf.text))
        if len(_MAPS) > 64:  # a few files per check carry fixes; never a cache of the whole package
            _MAPS.pop(next(iter(_MAPS)))
    return hit[1]


def _line_col(text: str, i: int) -> tuple[int, int]:
    return text.count("\n", 0, i) + 1, i - (text.rfind("\n", 0, i) + 1) + 1


def _newline(text: str, at: int | None = None) -> str:
    if at is not None and at > 0 and text[at - 1] == "\r":
        return "\r\n"
    return "\r\n" if text.count("\r\n") * 2 > text.count("\n") else "\n"


def resolve(lf, edit: Edit) -> TextEdit | None:
    """The certain text edit ``edit`` asks for in the loaded file ``lf``, or None."""
    text = getattr(lf, "text", None)
    if text is None or not getattr(lf, "ok", False) or len(text) > MAX_FIX_CHARS or edit.part not in _PARTS:
        return None
    span = _PARTS[edit.part](lf, text, edit)
    if span is None:
        return None
    start, end, new = span
    shift = 1 if getattr(lf, "bom", False) else 0
    sl, sc = _line_col(text, max(start - shift, 0) if edit.part != "bom" else 0)
    el, ec = _line_col(text, max(end - shift, 0))
    full = ("\ufeff" if shift else "") + text
    return TextEdit(file=lf.rel, abspath=lf.abspath, start=start, end=end, old=full[start:end], new=new,
                    start_line=sl, start_column=sc, end_line=el, end_column=ec, digest=digest_of(lf),
                    path=tuple(edit.path), part=edit.part, value=edit.value,
                    intent=Edit(None, tuple(edit.path), edit.part, edit.new, edit.old, edit.value, edit.plain, edit.after))


def alias_target(lf, path: tuple) -> tuple | None:
    """The path of the anchored node the alias at ``path`` repeats, or None when ``path`` is no alias."""
    nodes = _nodes_of(lf)
    node = None if nodes is None else nodes.get(tuple(path))
    return node.target if node is not None and node.kind == "alias" else None


def _value_span(lf, text: str, edit: Edit):
    nodes = _nodes_of(lf)
    node = None if nodes is None else nodes.get(tuple(edit.path))
    if node is None or node.kind != "scalar" or node.style in ("|", ">"):
        return None
    if not same(scalar_value(node), edit.old):
        return None
    new = edit.new if edit.plain else quote_like(edit.new, node.style, lf.is_json)
    shift = 1 if getattr(lf, "bom", False) else 0
    return node.start + shift, node.end + shift, new


def _key_span(lf, text: str, edit: Edit):
    nodes = _nodes_of(lf)
    path = tuple(edit.path)
    node = None if nodes is None or not path else nodes.get(path)
    parent = None if nodes is None or not path else nodes.get(path[:-1])
    if node is None or parent is None or parent.kind != "map" or node.key is None:
        return None
    key = node.key
    if key.tagged or key.anchored or key.style in ("|", ">") or not same(_key_value(key), edit.old):
        return None
    if edit.new in parent.keys or not edit.new:
        return None  # renaming onto an existing key would make a duplicate
    new = quote_like(edit.new, key.style, lf.is_json)
    if not key.style and new != edit.new:
        return None
    shift = 1 if getattr(lf, "bom", False) else 0
    return key.start + shift, key.end + shift, new


def _insert_span(lf, text: str, edit: Edit):
    nodes = _nodes_of(lf)
    path = tuple(edit.path)
    parent = None if nodes is None or not path else nodes.get(path[:-1])
    name = path[-1] if path else None
    if parent is None or parent.kind != "map" or not isinstance(name, str) or name in parent.keys or not parent.keys:
        return None
    quoted = lf.is_json or (parent.keys and nodes[path[:-1] + (parent.keys[0],)].key.style == '"')
    key = quote_like(name, '"' if quoted else "", lf.is_json)
    if not quoted and key != name:
        return None
    anchor_key = edit.after if edit.after in parent.keys else parent.keys[-1]
    after = nodes[path[:-1] + (anchor_key,)]
    shift = 1 if getattr(lf, "bom", False) else 0
    if parent.flow:
        at = after.content_end
        return at + shift, at + shift, f", {key}: {edit.new}"
    line_start = text.rfind("\n", 0, parent.first_key_start) + 1
    indent = text[line_start:parent.first_key_start]
    if indent.strip(" "):  # a block mapping that starts after "- " or on a key line: indent by its column
        indent = " " * len(indent)
    at = after.content_end
    if at > 0 and text[at - 1] == "\n":
        nl = _newline(text, at - 1)
        return at + shift, at + shift, f"{indent}{key}: {edit.new}{nl}"
    brk = text.find("\n", at)
    if brk < 0:
        nl = _newline(text)
        return len(text) + shift, len(text) + shift, f"{nl}{indent}{key}: {edit.new}"
    nl = _newline(text, brk)
    return brk + 1 + shift, brk + 1 + shift, f"{indent}{key}: {edit.new}{nl}"


def _bom_span(lf, text: str, edit: Edit):
    if not getattr(lf, "bom", False):
        return None
    return 0, 1, ""


_PARTS = {"value": _value_span, "key": _key_span, "insert": _insert_span, "bom": _bom_span}
