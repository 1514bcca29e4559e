"""Command line: ``check``, ``rules``, ``explain``, ``docs``, ``regions``. Exit 0 pass, 1 failures, 2 usage/input."""
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

    from checker.core.rule import all_rules

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
@click.option("--fail-on", type=click.Choice(["reject", "flag", "warn", "never"]), default="flag", show_default=True,
              help="Lowest severity of a FAIL that makes the exit code 1.")
@click.option("-q", "--quiet", is_flag=True, help="Hide PASS findings in the text output.")
@click.option("--policy", "policy_dir", type=click.Path(file_okay=False), default=None,
              help="Use this policy directory instead of the bundled rules/policy/v1.0.")
@click.option("--max-file-size", type=click.IntRange(1), default=8 * 1024 * 1024, show_default=True,
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
@click.option("-j", "--jobs", type=click.IntRange(1), default=None, metavar="N",
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
@click.option("--timeout", type=click.IntRange(0), default=600, show_default=True, metavar="SECONDS",
              help="Per-submission time limit in worker processes (0 = none); a submission over it is a FAIL.")
def check(paths, formats, outputs, select, ignore, fail_on, quiet, policy_dir, max_file_size, seed_sets,
          approved_drafters, point_file, max_concurrency, seed_set, dataset_size, no_events, jobs, waivers, baseline,
          fail_on_new, cohort, today, timeout) -> None:
    """Check submission packages, organisation directories, cohorts or run folders at PATHS."""
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
    overrides = {k: v for k, v in (("seed_sets", seed_sets), ("approved_drafters", approved_drafters)) if v}
    options = _run_folder_options(point_file, max_concurrency, seed_set, dataset_size, no_events, jobs)
    if cohort:
        options["cohort"] = cohort
    report = _run(paths, select, ignore, fail_on, policy_dir, max_file_size, pairs, overrides, options,
                  jobs=jobs, waivers=waivers, baseline=baseline, fail_on_new=fail_on_new, today=today, timeout=timeout)
    _emit(report, pairs, quiet)
    if report.input_error:
        for p in report.package.missing_paths:
            click.echo(f"error: path does not exist: {p}", err=True)
        for p, why in report.package.unusable_paths:
            click.echo(f"error: nothing to check at {p}: {why}", err=True)
    sys.exit(report.exit_code())


def _run(paths, select, ignore, fail_on, policy_dir, max_file_size, pairs, overrides, options, jobs, **kw):
    """Run the check; bad --waivers/--baseline/--today input is a usage error (exit 2)."""
    from checker.engine.api import run_check
    from checker.engine.pool import default_jobs

    simple = {"text", "json", "sarif", "junit", "github", "auto"}
    try:
        return run_check(list(paths), select=_split(select), ignore=_split(ignore), fail_on=fail_on,
                         policy_dir=policy_dir, max_bytes=max_file_size, policy_overrides=overrides,
                         options=options,
                         jobs=jobs or default_jobs(), progress=sys.stderr.isatty(),
                         keep_packages=any(fmt not in simple for fmt, _ in pairs),
                         prerender_json=any(fmt == "json" for fmt, _ in pairs), **kw)
    except ValueError as exc:
        from checker.engine.baseline import BaselineError
        from checker.engine.waivers import WaiverError

        if isinstance(exc, (WaiverError, BaselineError)):
            raise InputError(str(exc)) from exc
        raise


def _run_folder_options(point_file, max_concurrency, seed_set, dataset_size, no_events, jobs) -> dict:
    """The optional run-folder context; only given values are set, so rules can say what is missing."""
    opts = {"events": not no_events}
    for key, value in (("point", point_file), ("max_concurrency", max_concurrency), ("seed_set", seed_set),
                       ("dataset_size", dataset_size), ("jobs", jobs)):
        if value is not None:
            opts[key] = value
    return opts


def _split(values) -> list[str]:
    return [t.strip() for v in values for t in v.split(",") if t.strip()]


def _emit(report, pairs, quiet: bool) -> None:
    from checker.render import render, resolve_auto

    for fmt, out in pairs:
        if fmt == "auto":
            fmt = resolve_auto()
        if out == "-":
            text = render(fmt, report, quiet=quiet)
            if text:
                sys.stdout.write(text)
                sys.stdout.flush()
        elif fmt == "html" and _is_dir_output(out):
            from checker.render.cohort_html import write_cohort

            write_cohort(report, out)
        else:
            text = render(fmt, report, quiet=quiet, tty=False)
            with open(out, "w", encoding="utf-8") as fh:
                fh.write(text)
    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if summary and os.environ.get("GITHUB_ACTIONS") == "true":
        from checker.render.github import step_summary

        try:
            with open(summary, "a", encoding="utf-8") as fh:
                fh.write(step_summary(report))
        except OSError as exc:
            click.echo(f"warning: cannot append to GITHUB_STEP_SUMMARY: {exc}", err=True)


@main.command("rules")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text")
def rules_cmd(fmt: str) -> None:
    """List every rule: id, family, severity, clause, title."""
    from checker.cli.rule_docs import rules_table
    from checker.core.rule import all_rules

    rs = sorted(all_rules(), key=lambda r: (r.family, r.id))
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
@click.argument("rule_id", shell_complete=_complete_rules)
def explain(rule_id: str) -> None:
    """Print a rule's documentation: what it checks, why, how to fix."""
    from checker.cli.rule_docs import explain_text
    from checker.core.rule import all_rules

    rs = {r.id: r for r in all_rules()}
    if rule_id not in rs:
        close = [r for r in rs if rule_id in r]
        hint = f" Did you mean: {', '.join(sorted(close)[:5])}?" if close else ""
        raise InputError(f"no rule {rule_id!r}.{hint}")
    click.echo(explain_text(rs[rule_id]))


@main.command()
@click.option("--check", "check_only", is_flag=True, help="Exit 1 if README.md's rule list is stale.")
@click.option("--readme", default="README.md", show_default=True)
def docs(check_only: bool, readme: str) -> None:
    """Regenerate the rule list in README.md from the registry."""
    from checker.cli.rule_docs import update_readme

    changed = update_readme(readme, write=not check_only)
    if check_only and changed:
        click.echo(f"{readme}: rule list is stale; run `make docs`", err=True)
        sys.exit(1)


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
