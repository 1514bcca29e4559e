"""A bounded YAML 1.2 reader over ruamel.yaml's (C-accelerated) event parser.

Why not ``YAML(typ="rt").load``: round-trip construction costs ~10 ms per small file, which alone
would blow the 0.2 s budget for a 32-point package, and it expands alias bombs and recurses on deep
nesting. Here we build plain Python values straight from ruamel's parse events, enforce budgets
(depth, alias expansion, integer length, duplicate keys) as we go, and record the 1-based
line/column of every value so findings can point at ``file:line:col``.

What a scalar means (the YAML 1.2 core schema) is ``checker.load.yaml_scalars``, which also holds the
refusal every bound raises, ``YamlLoadError`` (imported from here by the reader's callers).
"""
from __future__ import annotations

from typing import Any

import msgspec

from checker.load.yaml_scalars import MAX_INT_DIGITS, YamlLoadError, resolve_plain, resolve_tagged  # noqa: F401

MAX_DEPTH = 64
MAX_ALIAS_NODES = 10_000
#: characters of scalar text aliases may expand to (a node budget alone lets 9,000 aliases of one
#: 700 KiB string through: 6 GB for whoever walks the values)
MAX_ALIAS_CHARS = 1 << 20
#: values (scalars, aliases, lists, mappings) one file may hold: far beyond any submission file (a
#: result summary holds about 800), and it keeps a file's parse under a second and ~50 MB
MAX_VALUES = 250_000
#: positions kept for file:line:col (a node past them reports its nearest recorded parent): the first
#: MAX_LIST_POSITIONS items of each list, MAX_POSITIONS in all, so an 8 MiB list costs kilobytes
MAX_LIST_POSITIONS = 1024
MAX_POSITIONS = 1 << 18

_PARSER = None


class YamlDoc(msgspec.Struct):
    """What ``parse_yaml`` read from one YAML document."""

    data: Any  #: the document as plain values
    positions: dict  #: data path -> 1-based (line, column); empty without ``want_positions``
    #: the path of every mapping key that is not text (``5:``, ``.inf:``, ``true:``, ``null:``: JSON, the
    #: report and the submission API hold text keys only)
    keys: list
    #: with ``styles``: the path of every string value not written as a plain scalar (quoted, block, or tagged
    #: ``!``/``!!str``), as the parser saw it, so nothing reads the text again to tell ``yes`` from ``'yes'``
    quoted: set
    values: int  #: values parsed (a loader's budget over many files)


def _parser(text: str):
    """ruamel's C parser over ``text``, driven directly through ``get_event`` (its Python wrapper costs
    ~40 %); the pure-Python parser behind the same method when the C library is missing."""
    global _PARSER
    if _PARSER is None:
        try:
            from _ruamel_yaml import CParser

            _PARSER = CParser
        except ImportError:  # pragma: no cover - clib missing: the pure parser, same events
            from ruamel.yaml import YAML

            pure = YAML(typ="safe", pure=True)
            _PARSER = lambda t: _PureAdapter(pure.parse(t))  # noqa: E731
    return _PARSER(text)


class _PureAdapter:  # pragma: no cover - only without ruamel.yaml.clib
    def __init__(self, gen):
        self._gen = gen

    def get_event(self):
        return next(self._gen, None)


class _Found(Exception):
    def __init__(self, pos):
        super().__init__()
        self.pos = pos


class _Finder(dict):
    """A position map that stops the parse as soon as one path is recorded (``locate_yaml``)."""

    def __init__(self, target: tuple):
        super().__init__()
        self.target = target

    def __setitem__(self, key, value):
        if key == self.target:
            raise _Found(value)
        dict.__setitem__(self, key, value)


def locate_yaml(text: str, path: tuple) -> tuple[int, int] | None:
    """(line, column) of the value at ``path`` in an already loaded YAML text, parsing only up to it
    (a large file need not be parsed whole, nor its position map built, for one finding); None when the
    path has no recorded position."""
    try:
        parse_yaml(text, _positions=_Finder(tuple(path)))
    except _Found as found:
        return found.pos
    except YamlLoadError:
        return None
    return None


_OTHER_BREAKS = ("\x85", "\u2028", "\u2029")


def _newline_positions(text: str):
    """None for most texts; for a text holding NEL, LS or PS (line breaks to the YAML parser, not to
    editors, grep or JSON), a function giving the (line, column) of a character index counted in
    newline-separated lines, so a finding points where the user's editor shows the value."""
    if not any(b in text for b in _OTHER_BREAKS):
        return None
    import bisect

    starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]

    def at(index: int) -> tuple[int, int]:
        n = bisect.bisect_right(starts, index)
        return n, index - starts[n - 1] + 1
    return at


def parse_yaml(text: str, want_positions: bool = True, max_values: int | None = MAX_VALUES, styles: bool = False,
               _positions: dict | None = None) -> YamlDoc:
    """Parse one YAML document (``YamlDoc``): its plain values, with ``want_positions`` a {path: (line, col)}
    map (1-based), the paths of its non-text keys, its value count and, with ``styles``, the paths of its
    strings not written plain. Refusals raise ``YamlLoadError``. (``_positions``: ``locate_yaml``'s map,
    which stops the parse at one path.)"""
    from ruamel.yaml.error import YAMLError

    events_mod = _events()
    positions: dict[tuple, tuple[int, int]] = {} if _positions is None else _positions
    keys: list = []
    quoted: set | None = set() if styles else None
    anchors: dict[str, tuple[Any, int]] = {}
    styled_anchors: set = set()  # anchors of strings written other than plain (``quoted``)
    alias_nodes = 0
    alias_chars = 0
    values = 0
    limit = max_values if max_values is not None else float("inf")
    # stack entries: [container, path, pending_key, key_pos, node_count, anchor, is_map, seen_keys, chars,
    #                 record: positions of its children are kept]
    stack: list[list] = []
    root: Any = None
    have_root = False
    docs = 0
    at = _newline_positions(text)
    # the event classes as locals, and the plain-scalar resolution memoised: this loop runs once per YAML
    # event (a 32-point package has ~23,000), so each attribute lookup and call in it counts
    scalar_event, alias_event = events_mod.ScalarEvent, events_mod.AliasEvent
    map_start, seq_start = events_mod.MappingStartEvent, events_mod.SequenceStartEvent
    map_end, seq_end, doc_start = events_mod.MappingEndEvent, events_mod.SequenceEndEvent, events_mod.DocumentStartEvent
    plain = _PLAIN
    try:
        get_event = _parser(text).get_event
        while (ev := get_event()) is not None:
            cls = type(ev)
            if cls is scalar_event or cls is alias_event or cls is map_start or cls is seq_start:
                mark = ev.start_mark
                line, col = (mark.line + 1, mark.column + 1) if at is None else at(mark.index)
                values += 1
                if values > limit:
                    raise YamlLoadError("file-too-large", f"more than {max_values} values (the limit per file)",
                                        line, col)
                size = 1
                chars = 0
                styled = False  # a string written other than as a plain scalar
                if cls is scalar_event:
                    raw = ev.value
                    chars = len(raw)
                    tag = ev.tag
                    if tag and tag not in ("!", "tag:yaml.org,2002:str"):
                        value = resolve_tagged(tag, raw, line, col)
                    elif not tag and ev.style in (None, "") and ev.implicit[0]:
                        # an untagged plain scalar is resolved; "! 8" (the non-specific tag) is the string "8"
                        value = plain.get(raw, _NOKEY)
                        if value is _NOKEY:
                            value = resolve_plain(raw, line, col)
                            if chars <= _PLAIN_CHARS and value == value:  # NaN: a new object each time
                                if len(plain) >= _PLAIN_SIZE:
                                    plain.clear()
                                plain[raw] = value
                    else:
                        value = raw
                        styled = quoted is not None
                    if ev.anchor:
                        anchors[ev.anchor] = (value, 1, chars)
                        if styled:
                            styled_anchors.add(ev.anchor)
                elif cls is alias_event:
                    if ev.anchor not in anchors:
                        raise YamlLoadError("parse-error", f"unknown alias *{ev.anchor}", line, col)
                    value, size, chars = anchors[ev.anchor]
                    styled = ev.anchor in styled_anchors  # an alias of a quoted string is that string
                    alias_nodes += size
                    alias_chars += chars
                    if alias_chars > MAX_ALIAS_CHARS:
                        raise YamlLoadError(
                            "alias-budget",
                            f"YAML aliases expand to more than {MAX_ALIAS_CHARS} characters of text "
                            f"(alias *{ev.anchor[:40]})",
                            line,
                            col,
                        )
                    if alias_nodes > MAX_ALIAS_NODES:
                        raise YamlLoadError(
                            "alias-budget",
                            f"YAML aliases expand to more than {MAX_ALIAS_NODES} nodes (alias *{ev.anchor[:40]})",
                            line,
                            col,
                        )
                else:
                    if len(stack) >= MAX_DEPTH:
                        raise YamlLoadError(
                            "nesting-too-deep", f"nesting deeper than {MAX_DEPTH} levels", line, col
                        )
                    is_map = cls is map_start
                    if ev.tag and ev.tag not in ("tag:yaml.org,2002:map", "tag:yaml.org,2002:seq", "!"):
                        raise YamlLoadError("parse-error", f"unsupported YAML tag {ev.tag[:60]!r}", line, col)
                    container: Any = {} if is_map else []
                    path = _child_path(stack, line, col)
                    record = want_positions and len(positions) < MAX_POSITIONS and (
                        not stack or (stack[-1][9] and (stack[-1][6] or len(stack[-1][0]) < MAX_LIST_POSITIONS)))
                    stack.append([container, path, _NOKEY, None, 1, ev.anchor, is_map, None, 0, record])
                    if record:
                        positions[path] = (line, col)
                    continue
                # a complete node (scalar or alias): attach it
                if not stack:
                    root, have_root = value, True
                    if want_positions:
                        positions[()] = (line, col)
                    continue
                top = stack[-1]
                if top[6] and top[2] is _NOKEY and type(value) is str and value not in top[0]:
                    # the usual event, a text key of a mapping: what _attach does for it, without the call
                    top[4] += size
                    top[8] += chars
                    top[2] = value
                    top[3] = (line, col)
                    continue
                _attach(stack, value, size, chars, line, col, positions, want_positions, keys=keys,
                        quoted=quoted if styled else None)
            elif cls is map_end or cls is seq_end:
                container, path, pending, _kp, count, anchor, _m, _s, chars, _r = stack.pop()
                if anchor:
                    anchors[anchor] = (container, count, chars)
                if not stack:
                    root, have_root = container, True
                else:
                    line, col = positions.get(path, (None, None)) if want_positions else (None, None)
                    _attach(stack, container, count, chars, line, col, positions, want_positions, is_container=True,
                            keys=keys)
            elif cls is doc_start:
                docs += 1
                if docs > 1:
                    m = ev.start_mark
                    raise YamlLoadError("parse-error", "more than one YAML document in the file",
                                        *((m.line + 1, m.column + 1) if at is None else at(m.index)))
    except YamlLoadError:
        raise
    except YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        line, col = (None, None) if mark is None else (mark.line + 1, mark.column + 1) if at is None else at(mark.index)
        raise YamlLoadError("parse-error", f"YAML syntax error: {problem}", line, col) from None
    except RecursionError:
        raise YamlLoadError("nesting-too-deep", f"nesting deeper than {MAX_DEPTH} levels") from None
    except (ValueError, OverflowError) as exc:
        raise YamlLoadError("parse-error", f"YAML value error: {str(exc)[:200]}") from None
    if not have_root:
        root = None
    return YamlDoc(root, positions, keys, quoted if quoted is not None else set(), values)


class _NoKey:
    __slots__ = ()


_NOKEY = _NoKey()
#: plain scalar text -> its resolved value (None, bool, int, float or the text itself: immutable, so shared),
#: for texts up to _PLAIN_CHARS characters; emptied when it holds _PLAIN_SIZE entries
_PLAIN: dict = {}
_PLAIN_CHARS = 64
_PLAIN_SIZE = 8192
_STARTS: tuple = ()
_EVENTS = None


def _events():
    global _EVENTS, _STARTS
    if _EVENTS is None:
        from ruamel.yaml import events

        _EVENTS = events
        _STARTS = (events.MappingStartEvent, events.SequenceStartEvent)
    return _EVENTS


def _child_path(stack: list, line: int, col: int) -> tuple:
    if not stack:
        return ()
    top = stack[-1]
    if top[6]:  # mapping
        if top[2] is _NOKEY:
            raise YamlLoadError("parse-error", "a mapping or list used as a mapping key", line, col)
        return top[1] + (top[2],)
    return top[1] + (len(top[0]),)


#: the one NaN a mapping key becomes: NaN equals nothing, not even itself, so one shared object (found by
#: identity) keeps a repeated ``.nan:`` a duplicate key and lets a data path find the value
NAN_KEY = float("nan")


def _attach(stack, value, size, chars, line, col, positions, want_positions, is_container=False, keys=None,
            quoted=None):
    top = stack[-1]
    container = top[0]
    top[4] += size
    top[8] += chars
    if top[6]:  # mapping
        if top[2] is _NOKEY:
            if is_container:
                raise YamlLoadError("parse-error", "a mapping or list used as a mapping key", line, col)
            key = value
            if type(key) is not str:
                if not isinstance(key, (int, float, bool)) and key is not None:
                    raise YamlLoadError("parse-error", "unsupported mapping key", line, col)
                if key != key:
                    key = NAN_KEY
                if keys is not None:
                    keys.append(top[1] + (key,))
            if key in container:
                kp = positions.get(top[1] + (key,)) if want_positions else None
                first = f" (first at line {kp[0]})" if kp else ""
                raise YamlLoadError("duplicate-key", f"duplicate key {str(key)[:60]!r}{first}", line, col)
            top[2] = key
            top[3] = (line, col)
        else:
            key = top[2]
            container[key] = value
            if quoted is not None:
                quoted.add(top[1] + (key,))
            if top[9] and not is_container and len(positions) < MAX_POSITIONS:
                positions[top[1] + (key,)] = (line, col)
            top[2] = _NOKEY
    else:
        if top[9] and not is_container and len(container) < MAX_LIST_POSITIONS and len(positions) < MAX_POSITIONS:
            positions[top[1] + (len(container),)] = (line, col)
        if quoted is not None:
            quoted.add(top[1] + (len(container),))
        container.append(value)
