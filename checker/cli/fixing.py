"""``check --fix`` and ``check --diff`` around the ordinary check (click-free, like check_command.py).

The check runs as asked; the fix engine (``checker.fix.engine``) applies every certain fix in memory,
round by round. ``--diff`` prints the unified diff on standard output and reports the package as it is;
``--fix`` writes the files and reports the package checked again from disk. Either way the report's
``fix`` section lists each file, and a file that could not be fixed makes the exit code at least 1.
"""
from __future__ import annotations


def check_paths(paths, point_file) -> str | None:
    """Why --fix/--diff cannot work on these inputs (None: they can): local files only."""
    from checker.load.mirror import is_url

    for p in list(paths) + ([point_file] if point_file else []):
        if is_url(p) or str(p).endswith((".tar.gz", ".tgz", ".tar")):
            return f"{p}: --fix and --diff edit local files only (a URL or an archive is read through a copy)"
    return None


def run(mode: str, make_report, paths, point_file, write_bundle=None, before_rename=None):
    """(the report to emit, the diff text or None) for ``mode`` "fix" or "diff". ``make_report(bundle, reads)``
    runs the check (writing the assembled bundle to ``bundle`` when given; reading through ``reads``, a round's
    overlay): the rounds never write it, the check after --fix does."""
    from checker.fix import engine

    roots = engine.roots_of(list(paths), [point_file] if point_file else [])
    first, _last, states = engine.fix_rounds(lambda reads: make_report(None, reads), roots)
    before = len(engine.fixable(first.findings))
    if mode == "diff":
        text = engine.diff(states)
        first.sections["fix"] = engine.section("diff", states, before)
        return first, text
    _remove_leftovers(first)
    try:
        engine.write(states, before_rename)
    except KeyboardInterrupt as exc:  # an interrupt (checker.cli.interrupt): say which files were replaced
        if hasattr(exc, "fixed"):
            exc.fixed = [f["file"] for f in engine.section("fix", states, before)["files"] if f["status"] == "fixed"]
        raise
    written = any(st.written for st in states.values())
    report = make_report(write_bundle) if written or write_bundle else first
    report.sections["fix"] = engine.section("fix", states, before)
    return report, None


def tell(report, diff_text, text_on_stdout: bool) -> None:
    """The diff on standard output; on standard error every file left as it was, with the reason, and (unless
    the text report on standard output says it) what was fixed or would be."""
    from checker.cli.output import warn

    section = report.sections.get("fix")
    if section is None:
        return
    if diff_text:
        from checker.cli.output import write_stdout

        try:
            write_stdout("text", diff_text)
        except OSError as exc:
            warn(f"error: the diff could not be written to standard output ({exc.strerror or exc})")
    verb = "fixed" if section["mode"] == "fix" else "would fix"
    files = [f for f in section["files"] if f["status"] != "not-fixed"]
    if files and not text_on_stdout:
        warn(f"{verb} {section['findings']} problem(s) in {len(files)} file(s): "
             + ", ".join(f"{f['file']} ({f['edits']} edit(s))" for f in files))
    elif not files and not section["not_fixed"] and not text_on_stdout:
        warn("nothing to fix: no problem has a fix whose right value is certain")
    for f in section["files"]:
        if f["status"] == "not-fixed":
            warn(f"error: {f['file']} was not fixed: {f['reason']}; the file is as it was")


def leftovers(report) -> list[str]:
    """Temporary files of an interrupted --fix found in the checked points (checker.core.scratch) that no
    running --fix holds: never package entries, named in one line instead."""
    from checker.core import scratch

    found = list(getattr(report.package, "leftovers", None) or [])
    for digest in getattr(report.context, "cohort_units", None) or []:
        found += digest.get("leftovers", ())
    return [p for p in found if scratch.stale(p)]


def _remove_leftovers(report) -> None:
    from checker.cli.output import warn
    from checker.core import scratch

    removed = [p for p in leftovers(report) if scratch.remove_stale_fix_temp(p)]
    if removed:
        warn(f"removed {_files(removed)} left by an interrupted --fix")


def tell_leftovers(report) -> None:
    """One line naming the temporary files of an interrupted --fix still in the package."""
    from checker.cli.output import warn

    found = leftovers(report)
    if found:
        warn(f"note: {_files(found)} left by an interrupted --fix (not part of the package: check --fix "
             "removes it, or delete it)")


def _files(paths: list[str]) -> str:
    shown = ", ".join(paths[:3]) + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")
    return f"{'a temporary file' if len(paths) == 1 else f'{len(paths)} temporary files'} of endpoints-checker ({shown})"
