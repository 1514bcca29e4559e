"""The official checker's answer for one submission as the ``Week0`` the report carries.

Each ERROR becomes a ``Hit`` at the subject its path names (the point, curve or system directory it lies
in, else the submission), with the file our loader read there (so the engine finds line:col) and the data
path its message names (``field `a.b```, walked as far as the file holds it). A crash, a hang or a memory
blow-up is one hit at the submission: the automated check fails on the package, whatever it holds.
"""
from __future__ import annotations

import os
import re

from checker.core.findings import Subject
from checker.core.week0 import Hit, Week0

#: the official's field-located messages name the field as ``field `a.b.c```
_FIELD = re.compile(r"field `([^`]+)`")
#: a point directory's name (R§8.1)
_POINT_DIR = re.compile(r"r[0-9]+")
#: official "rule" ids of an answer without a report (the hit's rule; extra.official_rule of the finding)
CRASH_RULES = {"crash": "crash", "timeout": "timeout", "memory": "memory"}
_CRASH_FIX = {
    "crash": "The automated check stops with this exception instead of a report: find the file it names (or the "
             "one the rules report as unreadable), make it well-formed, and check again.",
    "timeout": "The automated check never finishes on this package: look for a file it cannot read to its end "
               "(a FIFO or device where a file should be, or a file far larger than a measurement writes), "
               "replace it with the regular file, and check again.",
    "memory": "The automated check runs out of memory on this package: look for YAML aliases that expand to a huge "
              "value (an alias bomb) or a file far larger than a measurement writes, write the values out plainly, "
              "and check again.",
}


def week0_of(answer: dict, sub) -> Week0:
    """The Week0 (source "official") of one submission from its answer (``client.OfficialChild.collect``)."""
    version = str(answer.get("version") or "")
    tool = f"endpoints-submission-cli {version}".strip()
    kind = answer.get("kind")
    if answer.get("crash"):
        rule = CRASH_RULES.get(kind or "crash", "crash")
        why = {"crash": "the automated check crashes on this package",
               "timeout": "the automated check hangs on this package",
               "memory": "the automated check runs out of memory on this package"}.get(rule, "")
        hit = Hit(rule, sub.subject, f"{why}: {answer['crash']}", "", (), _CRASH_FIX.get(rule, ""))
        return Week0(hits=[hit], tool=tool, source="official", version=version)
    files = _file_index(sub)
    root = os.path.abspath(sub.abspath)
    hits = {_hit(e, sub, root, files) for e in answer.get("errors") or ()}
    return Week0(hits=sorted(hits, key=lambda h: (h.rule, h.subject, h.why)), tool=tool, source="official",
                 version=version)


def _file_index(sub) -> dict[str, object]:
    out: dict[str, object] = {}
    for _subject, lf in sub.all_files():
        out[os.path.normpath(lf.abspath)] = lf
        try:
            out.setdefault(os.path.realpath(lf.abspath), lf)
        except OSError:
            pass
    return out


def _hit(error: dict, sub, root: str, files: dict) -> Hit:
    path = str(error.get("path") or "")
    absolute = os.path.normpath(path if os.path.isabs(path) else os.path.join(root, path)) if path else root
    rel = os.path.relpath(absolute, root) if absolute.startswith(root + os.sep) or absolute == root else ""
    parts = [p for p in rel.replace(os.sep, "/").split("/") if p and p != "."]
    subject = _subject(sub, parts)
    lf = files.get(absolute)
    where, data_path = "", ()
    if lf is not None:
        where = lf.rel
        data_path = _data_path(lf, str(error.get("message") or ""))
    elif path:
        where = os.path.join(sub.rel, rel) if rel else path
    return Hit(str(error.get("rule") or "unknown"), subject, str(error.get("message") or ""), where, data_path,
               str(error.get("fix") or ""))


def _subject(sub, parts: list[str]) -> Subject:
    """results/<system>/<model>/r<N>/... -> the deepest of point, curve, system; else the submission. A
    directory below the model that is not named r<N> is no point (the ERROR is the curve's)."""
    if len(parts) >= 2 and parts[0] == "results":
        dirs = parts[1:-1] if _looks_like_file(parts[-1]) else parts[1:]
        system, model, point = (dirs[:3] + ["", "", ""])[:3]
        if point and not _POINT_DIR.fullmatch(point):
            point = ""
        if system:
            return Subject(sub.name, system, model, point)
    return sub.subject


def _looks_like_file(name: str) -> bool:
    return "." in name.lstrip(".")


def _data_path(lf, message: str) -> tuple:
    """The longest prefix of the message's ``field `a.b``` that the file's data holds."""
    m = _FIELD.search(message)
    data = getattr(lf, "data", None)
    if not m or data is None:
        return ()
    out: list = []
    for step in m.group(1).split("."):
        if isinstance(data, dict) and step in data:
            data = data[step]
        elif isinstance(data, list) and step.isdigit() and int(step) < len(data):
            data = data[int(step)]
            step = int(step)
        else:
            break
        out.append(step)
    return tuple(out)
