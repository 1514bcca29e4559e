"""Write the tree `submissions create` assembles from a plan (``checker.load.bundle``), file by file.

What the builder computes is computed the same way: shared_src/shared_docs appended to point.yaml
when absent, tps_utilization in each point's system_desc.json (system_tps over the curve's peak),
an accuracy run's file given the performance run's inline entry. Everything else is copied
verbatim. ``full=False`` (the checker's own staging) writes src/ and docs/ files as sparse placeholders of
their sizes and leaves out the point files no rule reads (report.txt, sample_idx_map.json, metrics/, server_configs/).
"""
from __future__ import annotations

import json
import os
import shutil
from typing import Any, Callable

from checker.core.values import loaded_mapping
from checker.load.bundle import Assembly, PointPlan, Run, inside
from checker.load.reader import DISK, Reads

#: run-folder files the builder copies into a point besides its four (the extra files it keeps)
EXTRA_FILES = ("results.json", "sample_idx_map.json", "serving_config.json", "report.txt", "metrics/final_snapshot.json")


def _noop(*_a: Any, **_k: Any) -> None:
    return None


def write_tree(a: Assembly, root: str, full: bool, max_bytes: int, note: Callable = _noop, reads: Reads = DISK) -> int:
    """Write the bundle under ``root`` (new or empty); ``note(rel, origin, lf, transformed, is_dir)`` records
    where each written path comes from; ``reads``: the check's overlay (a --fix/--diff round writes the fixed
    texts). Returns the number of files written."""
    os.makedirs(root, exist_ok=True)
    if os.listdir(root):
        raise FileExistsError(f"{root} is not empty")
    n = 0
    for top, tree, src_name in (("src", a.src, "src"), ("docs", a.docs, "documentation")):
        os.makedirs(os.path.join(root, top))  # the builder creates both, empty or not
        first = tree.roots[0][1] if tree.roots else (a.runs[0].path(src_name) if a.runs else a.display)
        note(top, first, None, False, True)
        for rel in sorted(tree.file_dirs()):
            os.makedirs(os.path.join(root, top, *rel.split("/")), exist_ok=True)
            note(f"{top}/{rel}", tree.origin(rel), None, False, True)
        for rel, e in tree.entries.items():
            if e.kind != "file":
                continue
            dst = os.path.join(root, top, *rel.split("/"))
            if full:
                shutil.copyfile(e.sources[-1][1], dst, follow_symlinks=False)
            else:  # a sparse placeholder of the file's size: an empty one stays empty (empty-file, src-readme)
                with open(dst, "wb") as fh:
                    try:
                        fh.truncate(os.lstat(e.sources[-1][1]).st_size)
                    except OSError:
                        pass
            n += 1
            note(f"{top}/{rel}", e.sources[-1][2], None, False, False)
    note("results", a.display, None, False, True)
    curves = a.curves()
    for name, sp in a.systems.items():
        if not any(s == name for s, _m in curves):
            continue
        sysdir = os.path.join(root, "results", name)
        os.makedirs(sysdir)
        note(f"results/{name}", a.display, None, False, True)
        lifted = sp.lifted
        lf = lifted.file("power") if lifted is not None else None
        note(f"results/{name}/system_power.json", lf.rel if lf is not None else sp.runs[0].path("system_power.json"),
             lf, False, False)
        if lf is not None and _copy_bytes(lf.abspath, os.path.join(sysdir, "system_power.json"), max_bytes, reads):
            n += 1
    for (system, model), pps in curves.items():
        note(f"results/{system}/{model}", a.display, None, False, True)
        peak = _peak_tps([r for pp in pps for r in pp.perf + pp.acc])
        for pp in pps:
            n += _write_point(a, pp, os.path.join(root, *pp.rel.split("/")), full, max_bytes, peak, note, reads)
    return n


def _write_point(a: Assembly, pp: PointPlan, pdir: str, full: bool, max_bytes: int, peak, note, reads: Reads) -> int:
    os.makedirs(pdir)
    run = pp.primary
    note(pp.rel, run.rel, None, False, True)
    n = 0
    point = run.file("point_yaml")
    inject = {f: sp.value for f in ("shared_docs", "shared_src")
              for sp in [a.shared.get(((pp.system, pp.model, pp.n), f))]
              if sp is not None and sp.declared in (None, "") and sp.value is not None}
    raw = _read(point.abspath, max_bytes, reads)
    if raw is not None:
        _write(os.path.join(pdir, "point.yaml"), _inject(raw, point.data, inject) if inject else raw)
        n += 1
    note(f"{pp.rel}/point.yaml", point.rel, point, bool(inject), False)
    for name, kind in (("result_summary.json", "result_summary"), ("config.yaml", "config")):
        lf = run.file(kind)
        if _copy_bytes(lf.abspath, os.path.join(pdir, name), max_bytes, reads):
            n += 1
        note(f"{pp.rel}/{name}", lf.rel, lf, False, False)
    sd = run.file("system_desc")
    util = _utilization(run, peak)
    if util is None:
        n += _copy_bytes(sd.abspath, os.path.join(pdir, "system_desc.json"), max_bytes, reads)
    else:
        _write(os.path.join(pdir, "system_desc.json"), (json.dumps(dict(sd.data, tps_utilization=util), indent=2)
                                                         + "\n").encode("utf-8"))
        n += 1
    note(f"{pp.rel}/system_desc.json", sd.rel, sd, util is not None, False)
    n += _write_accuracy(pp, pdir, max_bytes, note, reads)
    for inner in EXTRA_FILES:
        src = os.path.join(run.rf.abspath, inner)
        if (full or inner == "results.json") and inside(run.rf.abspath, src) and not os.path.islink(src):
            os.makedirs(os.path.dirname(os.path.join(pdir, inner)), exist_ok=True)
            n += _copy_bytes(src, os.path.join(pdir, inner), max_bytes if inner == "results.json" else None, reads)
            note(f"{pp.rel}/{inner}", run.path(inner), None, False, False)
    if full:
        n += _copy_server_configs(run, pdir, reads)
    return n


def _write_accuracy(pp: PointPlan, pdir: str, max_bytes: int, note, reads: Reads) -> int:
    """r<N>/accuracy_results.json: the accuracy run's file (with the performance run's inline entry)."""
    acc = pp.accuracy_run
    target = f"{pp.rel}/accuracy_results.json"
    if acc is None:
        owner = pp.acc[0] if pp.acc else pp.primary
        note(target, owner.path("accuracy/accuracy_results.json"), None, False, False)
        return 0
    raw = _read(os.path.join(acc.rf.abspath, acc.accuracy), max_bytes, reads)
    lf = acc.file("accuracy") if acc.accuracy == "accuracy/accuracy_results.json" else None
    merged = _with_inline(raw, pp) if raw is not None and pp.acc and pp.perf else None
    if raw is not None:
        _write(os.path.join(pdir, "accuracy_results.json"), merged if merged is not None else raw)
    note(target, acc.path(acc.accuracy), lf, merged is not None, False)
    return 1 if raw is not None else 0


def _with_inline(raw: bytes, pp: PointPlan) -> bytes | None:
    """The accuracy run's scores plus the performance run's inline entry (dataset_type performance), when
    the first has none and the second has one of another name; None when nothing is added."""
    perf = pp.perf[0]
    donor = perf.file("accuracy")
    try:
        target = json.loads(raw)
    except ValueError:
        return None
    have = target.get("accuracy_scores") if isinstance(target, dict) else None
    donor = loaded_mapping(donor)
    give = donor.data.get("accuracy_scores") if donor is not None else None
    inline = lambda e: isinstance(e, dict) and e.get("dataset_type") == "performance"  # noqa: E731
    if not isinstance(have, list) or not isinstance(give, list) or any(map(inline, have)):
        return None
    entry = next(filter(inline, give), None)
    if entry is None or entry.get("dataset_name") in {e.get("dataset_name") for e in have if isinstance(e, dict)}:
        return None
    have.append(entry)
    return json.dumps(target, indent=2).encode("utf-8")


def run_tps(run: Run) -> float | None:
    """system_tps as the builder derives it: output tokens over the tracked seconds (None when underivable)."""
    s = run.data("result_summary")
    osl = s.get("output_sequence_lengths")
    try:
        duration = float(s.get("duration_ns") or 0.0)
        tokens = float((osl if isinstance(osl, dict) else {}).get("total") or 0.0)
    except (TypeError, ValueError):
        return None
    return tokens / (duration / 1e9) if duration > 0 else None


def _peak_tps(runs: list) -> float | None:
    values = [t for t in (run_tps(r) for r in runs) if t is not None]
    return max(values) if values else None


def _utilization(run: Run, peak: float | None) -> float | None:
    """tps_utilization the builder writes into the point's system_desc.json (None: it keeps the file's)."""
    if not peak or peak <= 0 or not isinstance(run.file("system_desc").data, dict):
        return None
    tps = run_tps(run)
    return tps / peak if tps is not None else None


def _read(path: str, max_bytes: int | None, reads: Reads) -> bytes | None:
    fixed = reads.overlaid(path)  # a --fix/--diff round checks the fixed text before it is written
    if fixed is not None:
        return fixed
    try:
        with open(path, "rb") as fh:
            return fh.read() if max_bytes is None else fh.read(max_bytes + 1)
    except OSError:
        return None


def _write(dst: str, raw: bytes) -> None:
    with open(dst, "wb") as fh:
        fh.write(raw)


def _copy_bytes(src: str, dst: str, max_bytes: int | None, reads: Reads) -> int:
    """Copy a file (read once, at most max_bytes + 1 bytes; None: streamed whole); 1 when written."""
    if max_bytes is None:
        try:
            shutil.copyfile(src, dst, follow_symlinks=False)
            return 1
        except OSError:
            return 0
    raw = _read(src, max_bytes, reads)
    if raw is None:
        return 0
    _write(dst, raw)
    return 1


def _copy_server_configs(run: Run, pdir: str, reads: Reads) -> int:
    """server_configs/ (point-specific, submitter-defined): regular files only, never through a symlink."""
    top = os.path.join(run.rf.abspath, "server_configs")
    if os.path.islink(top) or not os.path.isdir(top):
        return 0
    n = 0
    for dirpath, dirnames, files in os.walk(top):
        dirnames[:] = sorted(d for d in dirnames if not os.path.islink(os.path.join(dirpath, d)))
        for f in sorted(files):
            src = os.path.join(dirpath, f)
            if os.path.islink(src) or not inside(run.rf.abspath, src):
                continue
            dst = os.path.join(pdir, os.path.relpath(src, run.rf.abspath))
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            n += _copy_bytes(src, dst, None, reads)
    return n


def _inject(raw: bytes, data: Any, inject: dict) -> bytes:
    """Append the injected keys to a block-mapping point.yaml (every original line keeps its number);
    a flow-style or multi-document file is rewritten whole, as the builder falls back to."""
    text = raw.decode("utf-8")
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    block = lines and not lines[0].lstrip().startswith("{") and not any(ln.startswith(("---", "...")) for ln in lines[1:])
    if block:
        tail = "" if text.endswith("\n") or not text else "\n"
        return (text + tail + "".join(f"{k}: {json.dumps(v)}\n" for k, v in sorted(inject.items()))).encode("utf-8")
    merged = dict(data) if isinstance(data, dict) else {}
    merged.update(inject)
    return (json.dumps(merged, indent=2, default=str) + "\n").encode("utf-8")


__all__ = ["write_tree", "run_tps", "EXTRA_FILES"]
