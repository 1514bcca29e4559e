"""Hover: on a key, its field's description and allowed values from the schema; on a diagnostic, the
rule's ``explain`` text.

The key under the cursor is found by parsing the buffer's YAML/JSON events up to the cursor (never
building the values, so an alias bomb costs nothing; a buffer over the size cap gets no key hover).
"""
from __future__ import annotations

from typing import Any

MAX_HOVER_CHARS = 1 << 20
_NOKEY = object()


def key_at(text: str, line0: int, ch: int) -> tuple | None:
    """The data path of the mapping key at (0-based line, code-point column), or None."""
    if len(text) > MAX_HOVER_CHARS:
        return None
    from ruamel.yaml import YAML
    from ruamel.yaml import events as ev

    stack: list[list] = []  # [is_map, path, pending key or _NOKEY, next index]
    try:
        for e in YAML(typ="safe", pure=True).parse(text):
            sm = e.start_mark
            if sm is not None and sm.line > line0:
                return None
            if isinstance(e, (ev.ScalarEvent, ev.AliasEvent, ev.MappingStartEvent, ev.SequenceStartEvent)):
                if stack and stack[-1][0] and stack[-1][2] is _NOKEY:  # a key
                    if not isinstance(e, ev.ScalarEvent):
                        return None
                    top = stack[-1]
                    top[2] = e.value
                    em = e.end_mark
                    if (sm.line, sm.column) <= (line0, ch) <= (em.line, em.column) and sm.line == line0:
                        return tuple(top[1]) + (e.value,)
                    continue
                path = _child(stack)
                if isinstance(e, (ev.MappingStartEvent, ev.SequenceStartEvent)):
                    stack.append([isinstance(e, ev.MappingStartEvent), path, _NOKEY, 0])
                else:
                    _done(stack)
            elif isinstance(e, (ev.MappingEndEvent, ev.SequenceEndEvent)):
                stack.pop()
                _done(stack)
    except Exception:  # noqa: BLE001  (a buffer that does not parse past here: no key found)
        return None
    return None


def _child(stack) -> tuple:
    if not stack:
        return ()
    top = stack[-1]
    return tuple(top[1]) + ((top[2],) if top[0] else (top[3],))


def _done(stack) -> None:
    if not stack:
        return
    top = stack[-1]
    if top[0]:
        top[2] = _NOKEY
    else:
        top[3] += 1


def field_schema(schema: dict, path: tuple) -> tuple[dict, dict] | None:
    """(the property's own entry, the same with its $ref resolved) at ``path``, or None."""
    node: Any = schema
    own: Any = schema
    for step in path:
        node = _resolve(schema, node)
        nxt = _step(schema, node, step)
        if nxt is None:
            return None
        own, node = nxt, nxt
    return own, _resolve(schema, node)


def _resolve(root: dict, node: Any, depth: int = 0) -> Any:
    while isinstance(node, dict) and isinstance(node.get("$ref"), str) and node["$ref"].startswith("#/") and depth < 16:
        target: Any = root
        for part in node["$ref"][2:].split("/"):
            target = target.get(part) if isinstance(target, dict) else None
        if not isinstance(target, dict):
            return node
        merged = dict(target)
        merged.update({k: v for k, v in node.items() if k != "$ref"})
        node, depth = merged, depth + 1
    return node


def _step(root: dict, node: Any, step: Any) -> Any:
    if not isinstance(node, dict):
        return None
    if isinstance(step, int):
        items = node.get("items")
        if isinstance(items, dict):
            return items
        for alt in node.get("anyOf") or node.get("oneOf") or ():  # Optional[list[...]]: the list member
            found = _step(root, _resolve(root, alt), step)
            if found is not None:
                return found
        return None
    props = node.get("properties")
    if isinstance(props, dict) and isinstance(props.get(step), dict):
        return props[step]
    for key in ("anyOf", "oneOf", "allOf"):
        for alt in node.get(key) or ():
            found = _step(root, _resolve(root, alt), step)
            if found is not None:
                return found
    extra = node.get("additionalProperties")
    return extra if isinstance(extra, dict) else None


def describe_field(schema: dict, path: tuple) -> str | None:
    """Markdown for the field at ``path``: title, description, type and allowed values."""
    found = field_schema(schema, path)
    if found is None:
        return None
    own, node = found
    name = ".".join(str(p) for p in path)
    lines = [f"**`{name}`**" + (f" — {own.get('title') or node.get('title')}" if (own.get("title") or node.get("title"))
                                 else "")]
    desc = own.get("description") or node.get("description")
    if desc:
        lines.append("")
        lines.append(str(desc))
    facts = []
    types_ = node.get("type") or [_resolve(schema, a).get("type") for a in node.get("anyOf") or () if isinstance(a, dict)]
    if types_:
        facts.append("type: " + (", ".join(str(t) for t in types_ if t) if isinstance(types_, list) else str(types_)))
    allowed = _allowed(schema, node)
    if allowed:
        facts.append("allowed: " + ", ".join(f"`{a}`" for a in allowed[:30]) + (" …" if len(allowed) > 30 else ""))
    for key, word in (("minimum", "minimum"), ("maximum", "maximum"), ("exclusiveMinimum", "greater than"),
                      ("pattern", "pattern")):
        if key in node:
            facts.append(f"{word}: `{node[key]}`")
    if facts:
        lines.append("")
        lines.append(" · ".join(facts))
    return "\n".join(lines)


def _allowed(schema: dict, node: dict) -> list:
    import json

    out = []
    if isinstance(node.get("enum"), list):
        out += node["enum"]
    if "const" in node:
        out.append(node["const"])
    for key in ("anyOf", "oneOf"):
        for alt in node.get(key) or ():
            alt = _resolve(schema, alt)
            if isinstance(alt, dict):
                out += _allowed(schema, alt)
    return [a if isinstance(a, str) else json.dumps(a) for a in out]


def explain_markdown(rule_ids: list[str]) -> str | None:
    """``explain``'s text of each rule, as fenced text (its layout kept)."""
    from checker.render.explain import explain_rule
    from checker.engine.catalogue import all_rules

    rules = {r.id: r for r in all_rules()}
    parts = []
    for rid in dict.fromkeys(rule_ids):
        r = rules.get(rid)
        if r is not None:
            parts.append(f"**{rid}**\n\n```text\n{explain_rule(r).rstrip()}\n```")
    return "\n\n---\n\n".join(parts) or None
