"""``endpoints-checker draft``: a point.yaml for each run folder, from what the folder proves.

The folders are read by the ordinary loader (config.yaml, result_summary.json, system_desc.json) and
their events.jsonl by the events audit, once each. C_min for the regions is the lowest concurrency
of the folders drafted together (capped at 32; system_desc.json's c_min_override wins). Each draft
is read back with the check's YAML reader before it is written; it goes into the run folder (or
``-o DIR/<folder>/point.yaml``), never over an existing point.yaml unless ``force``, never through a
symlink, and atomically.
"""
from __future__ import annotations

import os
import secrets
from typing import Any

import msgspec

from checker.draft.facts import Context, accuracy_only, concurrency_of, draft_entries
from checker.draft.render import count, render


class Drafted(msgspec.Struct):
    folder: str
    target: str | None = None
    written: bool = False
    values: int = 0
    fills: int = 0
    reason: str | None = None


def _expected(entries) -> dict:
    out: dict = {}
    for e in entries:
        if e.kind == "block":
            kids = _expected(e.children)
            if kids:
                out[e.key] = kids
        elif e.kind in ("value", "fill"):
            out[e.key] = e.value
    return out


def draft_text(rf, audit, ctx: Context) -> tuple[str, tuple[int, int]]:
    """The point.yaml text for ``rf`` and its (values, placeholders) counts; it reads back as drafted."""
    from checker.core.version import __version__
    from checker.fix.locate import same
    from checker.load.yaml_reader import parse_yaml

    entries = draft_entries(rf, audit, ctx)
    header = [f"point.yaml drafted by endpoints-checker {__version__} from the run folder {rf.name}",
              "(config.yaml, performance/result_summary.json, events.jsonl, system_desc.json when present).",
              "Each value says where it comes from. Each FILL placeholder is a disclosure only you can make:",
              "write it in (uncomment a commented field once filled), then check the run folders:",
              "  endpoints-checker check RUN_FOLDER... --fix", ""]
    text = render(entries, header)
    data = parse_yaml(text, want_positions=False).data
    if not same(data, _expected(entries)):  # a draft that would not read as drafted is never written
        raise ValueError("the drafted text does not read back as drafted")
    return text, count(entries)


def load(paths: list[str], max_bytes: int, events: bool = True) -> list[tuple[str, Any, Any, str | None]]:
    """(path, RunFolder or None, events audit or None, why it is no run folder) per path."""
    from checker.load.layout import is_run_folder
    from checker.load.run_folder import audit_job
    from checker.load.run_folder_files import load_run_folder
    from checker.load.layout import Options

    out = []
    for p in paths:
        if not os.path.isdir(p) or not is_run_folder(p):
            out.append((p, None, None, "not a run folder (no performance/result_summary.json, accuracy/ or "
                                       "config.yaml with events.jsonl)"))
            continue
        rf = load_run_folder(p, os.path.normpath(p), Options(max_bytes=max_bytes))
        audit = None
        ev = os.path.join(rf.abspath, "events.jsonl")
        if events and os.path.isfile(ev) and not os.path.islink(ev):
            audit, _idx = audit_job((ev, None, os.path.realpath(rf.abspath)))
        out.append((p, rf, audit, None))
    return out


def run(paths: list[str], policy, out_dir: str | None = None, force: bool = False, c_max: int | None = None,
        dataset_size: int | None = None, template: dict | None = None, max_bytes: int = 8 << 20,
        events: bool = True) -> list[Drafted]:
    loaded = load(paths, max_bytes, events)
    lows = [c for _p, rf, _a, _w in loaded if rf is not None and (c := concurrency_of(rf)) is not None]
    ctx = Context(policy=policy, c_max=c_max, c_min=min(lows) if lows else None, dataset_size=dataset_size,
                  template=template)
    results = []
    for p, rf, audit, why in loaded:
        if rf is None:
            results.append(Drafted(p, reason=why))
            continue
        target = (os.path.join(out_dir, rf.name, "point.yaml") if out_dir else os.path.join(rf.abspath, "point.yaml"))
        res = Drafted(p, target=target)
        try:
            text, (res.values, res.fills) = draft_text(rf, audit, ctx)
            write(target, text, force, make_parent=bool(out_dir))
            res.written = True
        except FileExistsError:
            res.reason = f"{target} exists: give --force to replace it"
        except (OSError, ValueError) as exc:
            res.reason = f"cannot write {target}: {getattr(exc, 'strerror', None) or exc}"
        results.append(res)
    return results


def write(target: str, text: str, force: bool, make_parent: bool = False) -> None:
    """Write ``text`` to ``target`` atomically: a new file only (FileExistsError), or with ``force`` a regular
    file replaced whole; never through a symlink."""
    directory = os.path.dirname(os.path.abspath(target))
    if make_parent:
        os.makedirs(directory, exist_ok=True)
    if os.path.islink(target):
        raise OSError(f"{target} is a symlink: not written through")
    if os.path.lexists(target) and not force:
        raise FileExistsError(target)
    tmp = os.path.join(directory, f".{os.path.basename(target)}.{secrets.token_hex(6)}.draft-tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(text.encode("utf-8"))
            fh.flush()
            os.fsync(fh.fileno())
        if force:
            os.replace(tmp, target)
        else:
            try:
                os.link(tmp, target)  # fails if the name appeared meanwhile: an existing file is never replaced
            except FileExistsError:
                raise
            except OSError:  # a file system without hard links: create the name exclusively instead
                _write_new(target, text)
            os.unlink(tmp)
        tmp = None
    finally:
        if tmp is not None and os.path.lexists(tmp):
            os.unlink(tmp)


def _write_new(target: str, text: str) -> None:
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
    with os.fdopen(fd, "wb") as fh:
        fh.write(text.encode("utf-8"))
        fh.flush()
        os.fsync(fh.fileno())


__all__ = ["run", "draft_text", "Drafted", "accuracy_only"]
