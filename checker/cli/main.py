"""Command line: ``check``, ``rules``, ``explain``, ``regions``. Exit 0 pass, 1 failures, 2 usage/input.

Maintainer commands (the rule pages under docs/rules/, the JSON Schemas) live in ``python -m checker.cli.maintainer``.
"""
from __future__ import annotations

import gc
import os
import sys

# A check is a short process that allocates many small objects (parse events, model instances,
# findings): the default GC threshold (700) runs collections thousands of times for nothing and costs
# ~15 % of a 32-point check. A higher threshold keeps memory bounded (cycles are still collected).
gc.set_threshold(100_000, 50, 1000)

import click  # noqa: E402

from checker import __version__

#: option bounds (docs/robustness.md): beyond them a value is a usage error, never an overflow deep inside
MAX_FILE_SIZE = 1 << 30  # --max-file-size: a YAML/JSON file is read whole, so 1 GiB at most
MAX_JOBS = 256  # --jobs
MAX_TIMEOUT = 1_000_000  # --timeout, seconds (about 11.6 days; SIGALRM takes a C int)

FORMATS = ["auto", "text", "json", "html", "markdown", "sarif", "junit", "github"]


class InputError(click.UsageError):
    """Usage or input problem: exit code 2."""

    exit_code = 2


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


def _complete_rules(ctx, param, incomplete: str):
    """Shell completion for rule ids and families (click's built-in completion)."""
    from click.shell_completion import CompletionItem

    from checker.engine.catalogue import all_rules

    head, _, last = incomplete.rpartition(",")
    prefix = head + "," if head else ""
    rules = all_rules()
    names = sorted({r.id for r in rules} | {r.family for r in rules})
    return [CompletionItem(prefix + n) for n in names if n.startswith(last)]
def _is_dir_output(out: str) -> bool:
    """``-o DIR/`` (trailing slash) or an existing directory: a folder of HTML pages."""
    return out != "-" and (out.endswith(("/", os.sep)) or os.path.isdir(out))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="endpoints-checker")
def main() -> None:
    """Check MLPerf Endpoints submission packages and inference-endpoint run folders."""


@main.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("-f", "--format", "formats", multiple=True, type=click.Choice(FORMATS, case_sensitive=False),
              help="Output format; repeat for several (pair each with -o, in order).")
@click.option("-o", "--output", "outputs", multiple=True, metavar="FILE",
              help="Write the matching --format to FILE ('-' = stdout). Repeatable. With --format html, "
                   "a directory (DIR/) gets index.html plus one page per submission.")
@click.option("--select", "select", multiple=True, metavar="RULES", shell_complete=_complete_rules,
              help="Only evaluate these rules: ids, families or id prefixes (comma-separated or repeated).")
@click.option("--ignore", "ignore", multiple=True, metavar="RULES", shell_complete=_complete_rules, help="Skip these rules (ids, families, prefixes).")
@click.option("--exclude", "exclude", multiple=True, metavar="GLOB",
              help="Leave out entries whose name or path end matches GLOB (e.g. r8_old, 'docs/drafts/*'). "
                   "Repeatable. .git, CI files and a README above the submission roots are always left out.")
@click.option("--fail-on", type=click.Choice(["reject", "flag", "warn", "never"]), default="flag", show_default=True,
              help="Lowest severity that makes the exit code 1 (reject = errors, flag, warn = warnings).")
@click.option("-q", "--quiet", is_flag=True, help="Text: only the problem lines and the summary.")
@click.option("-v", "--verbose", is_flag=True, help="Text: also list the checks that passed or were skipped.")
@click.option("--statistics", is_flag=True, help="Text: count the problems per rule.")
@click.option("--policy", "policy_dir", type=click.Path(file_okay=False), default=None,
              help="Use this policy directory instead of the bundled rules/policy/v1.0.")
@click.option("--max-file-size", type=click.IntRange(1, MAX_FILE_SIZE), default=8 * 1024 * 1024, show_default=True,
              help="Refuse YAML/JSON files larger than this many bytes.")
@click.option("--seed-sets", "seed_sets", metavar="FILE", envvar="MLPERF_ENDPOINTS_SEED_SETS", show_envvar=True,
              default=None, help="Seed-set registry replacing the bundled seed_sets.yaml (published `cohort:` "
              "shape or a bare `seed_sets:` list). Missing or malformed: seed-set-registry rejects.")
@click.option("--approved-drafters", "approved_drafters", metavar="FILE", envvar="MLPERF_ENDPOINTS_APPROVED_DRAFTERS",
              show_envvar=True, default=None, help="Approved-drafter list replacing the bundled "
              "approved_drafters.yaml. Missing or malformed: drafter-list-registry rejects.")
@click.option("--point", "point_file", type=click.Path(exists=True, dir_okay=False), default=None,
              help="Run folders: the point.yaml that describes them (else a point.yaml beside the folder).")
@click.option("--max-concurrency", type=click.IntRange(1), default=None, metavar="N",
              help="Run folders: the system's declared C_max, to place the point in a region.")
@click.option("--seed-set", default=None, metavar="ID", help="Run folders: the bound seed set (e.g. A).")
@click.option("--dataset-size", type=click.IntRange(1), default=None, metavar="N",
              help="Run folders: the performance dataset's size (one full pass).")
@click.option("--no-events", is_flag=True, help="Run folders: skip the events.jsonl audit.")
@click.option("--assemble/--no-assemble", "assemble", default=None,
              help="Run folders: check the bundle they become (default: when two or more carry point.yaml and "
                   "system_desc.json).")
@click.option("--write-bundle", "write_bundle", type=click.Path(file_okay=False), default=None, metavar="OUT",
              help="Run folders: also write the assembled bundle to OUT (a new or empty directory outside the inputs).")
@click.option("-j", "--jobs", type=click.IntRange(1, MAX_JOBS), default=None, metavar="N",
              help="Worker processes: submissions of a cohort, run-folder audits (default: the core count; "
                   "1 = serial).")
@click.option("--waivers", "waivers", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Reviewed waivers (YAML): a matching FAIL becomes a SKIP counted as waived.")
@click.option("--baseline", "baseline", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="An earlier JSON report: mark each FAIL new or unchanged and list resolved ones.")
@click.option("--fail-on-new", is_flag=True, help="With --baseline: only new FAILs set the exit code.")
@click.option("--cohort", "cohort", default=None, metavar="YYYY-MM-C0|C1",
              help="The cohort under review: every point's target_cohort must match it.")
@click.option("--today", default=None, metavar="YYYY-MM-DD", envvar="ENDPOINTS_CHECKER_TODAY",
              help="Date for waiver expiry (default: today; env ENDPOINTS_CHECKER_TODAY).")
@click.option("--timeout", type=click.IntRange(0, MAX_TIMEOUT), default=600, show_default=True, metavar="SECONDS",
              help="Per-submission time limit in worker processes (0 = none); a submission over it is a FAIL.")
@click.option("--executor", type=click.Choice(["local", "dask"]), default=None,
              help="Where submissions and run-folder audits run: local worker processes (default) or a Dask "
                   "cluster (needs the [dask] extra).")
@click.option("--scheduler", default=None, metavar="ADDRESS|local:N",
              help="With --executor dask: a running scheduler's address, or local:N to start N workers here "
                   "(default: $DASK_SCHEDULER_ADDRESS, else local:<jobs>). Implies --executor dask.")
def check(paths, formats, outputs, select, ignore, exclude, fail_on, quiet, verbose, statistics, policy_dir,
          max_file_size, seed_sets, approved_drafters, point_file, max_concurrency, seed_set, dataset_size, no_events,
          assemble, write_bundle, jobs, waivers, baseline, fail_on_new, cohort, today, timeout, executor, scheduler) -> None:
    """Check submission packages, organisation directories, cohorts or run folders at PATHS."""
    if quiet and verbose:
        raise InputError("--quiet and --verbose contradict each other: give one")
    pairs = _pair_outputs(tuple(f.lower() for f in formats), outputs)
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
    try:
        report = _run(paths, select, ignore, fail_on, policy_dir, max_file_size, pairs, overrides, options,
                      jobs=jobs, exclude=tuple(exclude), waivers=waivers, baseline=baseline, fail_on_new=fail_on_new,
                      today=today, timeout=timeout, assemble=assemble, write_bundle=write_bundle,
                      executor=executor or ("dask" if scheduler else "local"), scheduler=scheduler)
    except (click.ClickException, click.exceptions.Exit, click.Abort):
        raise
    except Exception as exc:  # noqa: BLE001  (a bug: exit 2, still write the JSON report)
        report = _crashed_report(paths, fail_on, exc)
    emitted = _emit(report, pairs, {"quiet": quiet, "verbose": verbose, "statistics": statistics})
    _tell_bundle(report, write_bundle)
    if report.input_error and report.package is not None:
        for p in report.package.missing_paths:
            click.echo(f"error: path does not exist: {p}", err=True)
        for p, why in report.package.unusable_paths:
            click.echo(f"error: nothing to check at {p}: {why}", err=True)
    sys.exit(report.exit_code() if emitted else 2)


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
    if not write_bundle:
        return
    section = report.sections.get("bundle")
    if section is None or not section.get("written"):
        click.echo(f"warning: --write-bundle {write_bundle}: the inputs were not assembled (no run folders "
                   "carrying point.yaml and system_desc.json); nothing written", err=True)
    else:
        click.echo(f"wrote the assembled bundle to {section['written']} ({len(section['points'])} point(s))", err=True)


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
    """The report of a check that raised (a bug): one FAIL naming the error, exit code 2."""
    from checker.cli.output import warn
    from checker.core.findings import Finding, Severity, Status, Subject
    from checker.engine.catalogue import all_rules
    from checker.engine.report import Report

    text = str(exc).splitlines()[0][:200] if str(exc) else ""
    why = f"internal error: {type(exc).__name__}" + (f": {text}" if text else "")
    warn(f"error: the check did not complete ({why}); please report this to the endpoints-checker maintainers")
    if os.environ.get("ENDPOINTS_CHECKER_DEBUG"):
        import traceback

        traceback.print_exception(exc)
    finding = Finding(rule_id="submission-checked", status=Status.FAIL, severity=Severity.REJECT, subject=Subject(),
                      message=f"the check did not complete ({why}); the report holds no other findings",
                      family="cohort", title="Every submission was checked", clause="R§9.1",
                      reason="rule-error", fix="Report this to the endpoints-checker maintainers.")
    return Report(findings=[finding], rules=all_rules(), paths=list(paths), policy_edition="unknown",
                  policy_version="unknown", fail_on=fail_on, input_error=True)


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


def _emit(report, pairs, text_options: dict) -> bool:
    """Write every output (checker.cli.output): each problem is one error line on stderr; with -o FILE the
    written paths and (unless text is on stdout) the verdict go to stderr. True when every output was written."""
    from checker.cli.output import emit, warn
    from checker.render import resolve_auto

    done = emit(report, pairs, text_options, _is_dir_output)
    for fmt, out in done.written:
        warn(f"wrote {out} ({fmt})")
    text_on_stdout = any(out == "-" and (resolve_auto() if fmt == "auto" else fmt) == "text" for fmt, out in pairs)
    if done.written and not text_on_stdout:
        try:
            from checker.render.words import verdict_line

            warn(verdict_line(report))
        except Exception as exc:  # noqa: BLE001  (the verdict line is a courtesy; the reports are written)
            done.problems.append(f"internal error: the verdict line could not be rendered ({type(exc).__name__})")
    for line in done.problems:
        warn(f"error: {line}")
    return done.ok


@main.command("rules")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text")
@click.option("--family", "families", multiple=True, metavar="NAME", help="Only this family (repeatable).")
@click.option("--severity", "severities", multiple=True, metavar="LEVEL",
              help="Only this severity: reject, reject-points, flag, warn (repeatable).")
def rules_cmd(fmt: str, families: tuple, severities: tuple) -> None:
    """List every rule: id, family, severity, clause, title."""
    from checker.cli.rule_docs import rules_table
    from checker.core.findings import SEVERITY_ORDER
    from checker.engine.catalogue import all_rules
    from checker.cli.usage import UsageProblem, check_choice

    rs = sorted(all_rules(), key=lambda r: (r.family, r.id))
    try:
        for f in _split(families):
            check_choice("--family", f, {r.family for r in rs}, "rule family")
        for v in _split(severities):
            check_choice("--severity", v, SEVERITY_ORDER, "severity")
    except UsageProblem as exc:
        raise InputError(str(exc)) from None
    if families:
        rs = [r for r in rs if r.family in _split(families)]
    if severities:
        rs = [r for r in rs if r.severity.value in _split(severities)]
    if fmt == "json":
        import json

        click.echo(json.dumps([r.catalogue_entry() for r in rs], indent=2))
    elif fmt == "markdown":
        click.echo(rules_table(rs))
    else:
        w = max(len(r.id) for r in rs)
        for r in rs:
            click.echo(f"{r.id:<{w}}  {r.family:<18} {r.severity.value:<13} {r.clause:<14} {r.title}")


@main.command()
@click.argument("name", metavar="RULE_OR_FAMILY", shell_complete=_complete_rules)
def explain(name: str) -> None:
    """Explain a rule (what, why, how to fix, where it lives, examples) or list a family's rules."""
    from checker.cli.explain import explain_family, explain_rule
    from checker.engine.catalogue import all_rules
    from checker.cli.usage import did_you_mean

    rules = all_rules()
    rs = {r.id: r for r in rules}
    families = {r.family for r in rules}
    if name in rs:
        click.echo(explain_rule(rs[name]), nl=False)
    elif name in families:
        click.echo(explain_family(name, rules), nl=False)
    else:
        raise InputError(f"no rule or family {name!r}.{did_you_mean(name, set(rs) | families)}")


@main.command("regions")
@click.option("-M", "--max-concurrency", "c_max", type=int, required=True, help="C_max (> 32).")
@click.option("-m", "--min-concurrency", "c_min", type=int, default=32, show_default=True, help="C_min (1..32).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def regions_cmd(c_max: int, c_min: int, fmt: str) -> None:
    """Print the R§5.5 region table for C_max and C_min (exactly as the reference computes it)."""
    from checker.domain.regions import RegionInputError, as_dict, as_text, compute_regions

    try:
        regions = compute_regions(c_max, c_min)
    except RegionInputError as exc:
        raise InputError(f"{exc} (R§5.5 needs 1 <= C_min <= 32 < C_max)") from None
    except (OverflowError, ValueError) as exc:
        shown = str(c_max) if len(str(c_max)) <= 24 else f"{str(c_max)[:20]}... ({len(str(c_max))} digits)"
        raise InputError(f"C_max {shown} is too large to compute regions for: {exc}") from None
    if fmt == "json":
        import json

        click.echo(json.dumps(as_dict(regions), indent=2))
    else:
        click.echo(as_text(regions), nl=False)
