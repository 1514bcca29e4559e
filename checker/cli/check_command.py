"""The ``check`` command after parsing: validate the values, run the check, write the outputs.

Click-free, so a plain ``check`` need not import click (checker.cli.fast_check); main.py's click command
calls the same ``run``. A usage problem raises ``InputError``, which each caller turns into click's usage
error (exit 2).
"""
from __future__ import annotations

import gc
import os
import sys

# A check is a short process that allocates many small objects (parse events, model instances,
# findings): the default GC threshold (700) runs collections thousands of times for nothing and costs
# ~15 % of a 32-point check. A higher threshold keeps memory bounded (cycles are still collected).
gc.set_threshold(100_000, 50, 1000)


class InputError(Exception):
    """Usage or input problem: the caller shows it as a click usage error, exit code 2."""


def run(values: dict) -> int:
    """Run ``check`` with the parsed values (the click command's params); return the exit code."""
    return check(**values)


def check(paths, formats, outputs, select, ignore, exclude, fail_on, quiet, verbose, statistics, policy_dir,
          max_file_size, seed_sets, approved_drafters, point_file, max_concurrency, seed_set, dataset_size, no_events,
          assemble, write_bundle, jobs, waivers, baseline, fail_on_new, cohort, today, timeout, executor,
          scheduler, fix=False, diff=False) -> int:
    """Check submission packages, organisation directories, cohorts or run folders at PATHS."""
    if quiet and verbose:
        raise InputError("--quiet and --verbose contradict each other: give one")
    pairs = _pair_outputs(tuple(f.lower() for f in formats), outputs)
    mode = _fix_mode(fix, diff, paths, point_file, pairs, formats, executor, scheduler, write_bundle)
    if mode == "diff" and not formats and not outputs:
        pairs = []  # the diff is standard output's
    for fmt, out in pairs:
        if out != "-" and _is_dir_output(out) and fmt != "html":
            raise InputError(f"{out!r} is a directory: only --format html writes a folder (index + one page per submission)")
        if out != "-":
            parent = os.path.dirname(os.path.abspath(out))
            if not os.path.isdir(parent):
                raise InputError(f"output directory does not exist: {parent}")
    if fail_on_new and not baseline:
        raise InputError("--fail-on-new needs --baseline FILE")
    _check_assembly(paths, point_file, assemble, write_bundle)
    overrides = {k: v for k, v in (("seed_sets", seed_sets), ("approved_drafters", approved_drafters)) if v}
    _check_values(_split(select), _split(ignore), seed_set, policy_dir, overrides)
    options = _run_folder_options(point_file, max_concurrency, seed_set, dataset_size, no_events)
    if cohort:
        options["cohort"] = cohort
    def make_report(bundle=write_bundle):
        return _run(paths, select, ignore, fail_on, policy_dir, max_file_size, pairs, overrides, options,
                    jobs=jobs, exclude=tuple(exclude), waivers=waivers, baseline=baseline, fail_on_new=fail_on_new,
                    today=today, timeout=timeout, assemble=assemble, write_bundle=bundle,
                    executor=executor or ("dask" if scheduler else "local"), scheduler=scheduler)

    diff_text = None
    try:
        if mode:
            from checker.cli import fixing

            report, diff_text = fixing.run(mode, make_report, paths, point_file, write_bundle)
        else:
            report = make_report()
    except InputError:
        raise
    except Exception as exc:  # noqa: BLE001  (a bug: exit 2, still write the JSON report)
        report = _crashed_report(paths, fail_on, exc)
    if mode:
        from checker.cli import fixing

        fixing.tell(report, diff_text, _text_on_stdout(pairs))
    _emit(report, pairs, {"quiet": quiet, "verbose": verbose, "statistics": statistics})
    _tell_bundle(report, write_bundle)
    if report.input_error and report.package is not None:
        from checker.cli.output import warn

        for p in report.package.missing_paths:
            warn(f"error: path does not exist: {p}")
        for p, why in report.package.unusable_paths:
            warn(f"error: nothing to check at {p}: {why}")
    return report.exit_code()  # the one the reports carry: an output that failed is in report.output_problems


def _fix_mode(fix, diff, paths, point_file, pairs, formats, executor, scheduler, write_bundle) -> str | None:
    """"fix", "diff" or None; the combinations that cannot work are usage errors."""
    if not (fix or diff):
        return None
    if fix and diff:
        raise InputError("--fix writes the fixes and --diff only shows them: give one")
    flag = "--fix" if fix else "--diff"
    if executor == "dask" or scheduler:
        raise InputError(f"{flag} runs the check on this machine: drop --executor dask/--scheduler")
    from checker.cli.fixing import check_paths

    why = check_paths(paths, point_file)
    if why:
        raise InputError(why)
    if diff and formats and any(out == "-" for _, out in pairs):
        raise InputError("--diff prints the diff on standard output: write the report with -o FILE")
    if diff and write_bundle:
        raise InputError("--diff writes nothing: drop --write-bundle (or fix first with --fix)")
    return "fix" if fix else "diff"


def _pair_outputs(formats: tuple[str, ...], outputs: tuple[str, ...]) -> list[tuple[str, str]]:
    """Pair -f/-o by position; an -o with no -f takes its format from the file extension."""
    from checker.render import EXTENSIONS

    pairs: list[tuple[str, str]] = []
    formats = list(formats)
    outputs = list(outputs)
    for i, out in enumerate(outputs):
        if out == "" or "\0" in out:
            raise InputError(f"-o {out!r} names no file: give a path, or '-' for standard output")
        if i < len(formats):
            pairs.append((formats[i], out))
        elif _is_dir_output(out):
            pairs.append(("html", out))  # a folder: the cohort index plus one page per submission
        else:
            ext = os.path.splitext(out)[1].lower()
            if ext not in EXTENSIONS:
                raise InputError(f"cannot tell the format of {out!r}: add --format")
            pairs.append((EXTENSIONS[ext], out))
    for fmt in formats[len(outputs):]:
        pairs.append((fmt, "-"))
    if not pairs:
        pairs.append(("auto", "-"))
    stdout_count = sum(1 for _, o in pairs if o == "-")
    if stdout_count > 1:
        raise InputError("only one format can go to standard output; give the others -o FILE")
    return pairs


def _is_dir_output(out: str) -> bool:
    """``-o DIR/`` (trailing slash) or an existing directory: a folder of HTML pages."""
    return out != "-" and (out.endswith(("/", os.sep)) or os.path.isdir(out))


def _check_assembly(paths, point_file, assemble, write_bundle) -> None:
    """--assemble contradicts --point (each run folder carries its own point.yaml); OUT must be writable."""
    if assemble and point_file:
        raise InputError("--assemble and --point contradict each other: an assembled run folder uses its own point.yaml")
    if write_bundle:
        if assemble is False:
            raise InputError("--write-bundle needs the run folders assembled: drop --no-assemble")
        from checker.engine.assemble import check_output

        why = check_output(write_bundle, list(paths))
        if why:
            raise InputError(f"cannot write the bundle to {write_bundle}: {why}")


def _tell_bundle(report, write_bundle) -> None:
    """Say where the assembled bundle went (stderr), or that nothing was assembled."""
    from checker.cli.output import warn

    if not write_bundle:
        return
    section = report.sections.get("bundle")
    if section is None or not section.get("written"):
        warn(f"warning: --write-bundle {write_bundle}: the inputs were not assembled (no run folders "
             "carrying point.yaml and system_desc.json); nothing written")
    else:
        warn(f"wrote the assembled bundle to {section['written']} ({len(section['points'])} point(s))")


def _check_values(select, ignore, seed_set, policy_dir, overrides) -> None:
    """Unknown --select/--ignore/--seed-set values are usage errors (exit 2), with a did-you-mean."""
    from checker.engine.catalogue import rules_for
    from checker.cli.usage import UsageProblem, check_seed_set, check_selectors

    try:
        rules = rules_for(select, ignore)  # ids and families; with --select, unselected families stay unimported
        check_selectors("--select", select, rules)
        check_selectors("--ignore", ignore, rules)
        if seed_set:
            from checker.engine.policy import load_policy

            check_seed_set(seed_set, load_policy(policy_dir, overrides))
    except UsageProblem as exc:
        raise InputError(str(exc)) from None


def _run(paths, select, ignore, fail_on, policy_dir, max_file_size, pairs, overrides, options, jobs, **kw):
    """Run the check; bad --waivers/--baseline/--today input is a usage error (exit 2)."""
    from checker.engine.config import RunConfig
    from checker.engine.executors import ExecutorUnavailable
    from checker.engine.pipeline import check as run_pipeline
    from checker.engine.pool import default_jobs

    simple = {"text", "json", "sarif", "junit", "github", "auto"}
    try:
        config = RunConfig.of(select=_split(select), ignore=_split(ignore), fail_on=fail_on, policy_dir=policy_dir,
                              max_bytes=max_file_size, policy_overrides=overrides, options=options,
                              jobs=jobs or default_jobs(), audit_jobs=jobs, progress=_isatty(sys.stderr),
                              keep_packages=any(fmt not in simple for fmt, _ in pairs),
                              prerender_json=any(fmt == "json" for fmt, _ in pairs), **kw)
        return run_pipeline(list(paths), config)
    except ExecutorUnavailable as exc:
        raise InputError(str(exc)) from None
    except ValueError as exc:
        from checker.engine.baseline import BaselineError
        from checker.engine.waivers import WaiverError

        if isinstance(exc, (WaiverError, BaselineError)):
            raise InputError(str(exc)) from exc
        raise


def _crashed_report(paths, fail_on, exc: BaseException):
    """The report of a check that raised (a bug): one FAIL naming the error, exit code 2 (also on stderr)."""
    from checker.cli.output import warn
    from checker.engine.request import crashed_report

    text = str(exc).splitlines()[0][:200] if str(exc) else ""
    why = f"internal error: {type(exc).__name__}" + (f": {text}" if text else "")
    warn(f"error: the check did not complete ({why}); please report this to the endpoints-checker maintainers")
    if os.environ.get("ENDPOINTS_CHECKER_DEBUG"):
        import traceback

        traceback.print_exception(exc)
    return crashed_report(list(paths), fail_on, exc)


def _isatty(stream) -> bool:
    """False for a closed stream (None when the process started without it)."""
    try:
        return bool(stream is not None and stream.isatty())
    except (OSError, ValueError, AttributeError):
        return False


def _run_folder_options(point_file, max_concurrency, seed_set, dataset_size, no_events) -> dict:
    """The optional run-folder context; only given values are set, so rules can say what is missing."""
    opts = {"events": not no_events}
    for key, value in (("point", point_file), ("max_concurrency", max_concurrency), ("seed_set", seed_set),
                       ("dataset_size", dataset_size)):
        if value is not None:
            opts[key] = value
    return opts


def _split(values) -> list[str]:
    return [t.strip() for v in values for t in v.split(",") if t.strip()]


def _text_on_stdout(pairs) -> bool:
    from checker.render import resolve_auto

    return any(out == "-" and (resolve_auto() if fmt == "auto" else fmt) == "text" for fmt, out in pairs)


def _emit(report, pairs, text_options: dict) -> None:
    """Write every output (checker.cli.output): each problem is one error line on stderr (and in the report,
    exit 2); with -o FILE the written paths and (unless text is on stdout) the verdict go to stderr."""
    from checker.cli.output import emit, warn

    done = emit(report, pairs, text_options, _is_dir_output)
    for fmt, out in done.written:
        warn(f"wrote {out} ({fmt})")
    text_on_stdout = _text_on_stdout(pairs)
    if done.written and not text_on_stdout:
        try:
            from checker.render.levels import verdict_line

            warn(verdict_line(report))
        except Exception as exc:  # noqa: BLE001  (a courtesy after the reports: they are written and say the code)
            warn(f"warning: internal error: the verdict line could not be rendered ({type(exc).__name__})")
    for line in done.problems:
        warn(f"error: {line}")
