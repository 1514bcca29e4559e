"""The ``check`` command: its options (click parses them), then validate the values, run the check and write
the outputs. A usage problem raises ``InputError``, click's usage error (exit 2, with the usage text).
"""
from __future__ import annotations

import gc
import os
import sys

import click
import msgspec

from checker.cli.usage import CohortId, InputError, complete_rules
from checker.core.gate import DEFAULT_FAIL_ON, FAIL_ON_VALUES
from checker.core.week0 import MODES as WEEK0_MODES
from checker.engine.official import OFFICIAL_PYTHON_ENV, WEEK0_ENV

# A check is a short process that allocates many small objects (parse events, model instances,
# findings): the default GC threshold (700) runs collections thousands of times for nothing and costs
# ~15 % of a 32-point check. A higher threshold keeps memory bounded (cycles are still collected).
gc.set_threshold(100_000, 50, 1000)

#: option bounds (docs/robustness.md): beyond them a value is a usage error, never an overflow deep inside
MAX_FILE_SIZE = 1 << 30  # --max-file-size: a YAML/JSON file is read whole, so 1 GiB at most
MAX_JOBS = 256  # --jobs
MAX_TIMEOUT = 1_000_000  # --timeout, seconds (about 11.6 days; SIGALRM takes a C int)

FORMATS = ("auto", "text", "json", "html", "markdown", "sarif", "junit", "github")
#: --junit-warnings: how JUnit writes a problem below --fail-on (checker.render.junit)
JUNIT_WARNINGS = ("output", "skipped", "failure")
MAX_WARN_DAYS = 3650  # --waiver-expiry-warning: ten years
#: --waiver-expiry-warning's default (the engine's)
WAIVER_EXPIRY_WARNING_DAYS = 14


def _fail_on_value(ctx, param, values) -> str:
    """--fail-on's values (comma-separated and/or repeated) as the gate's one canonical text."""
    from checker.core.gate import FailOnError, parse_fail_on

    try:
        return parse_fail_on(values)
    except FailOnError as exc:
        raise click.BadParameter(str(exc), ctx=ctx, param=param) from None


def _complete_fail_on(ctx, param, incomplete: str):
    head, _, last = incomplete.rpartition(",")
    prefix = head + "," if head else ""
    return [click.shell_completion.CompletionItem(prefix + v) for v in FAIL_ON_VALUES if v.startswith(last)]


@click.command("check")
@click.argument("paths", nargs=-1, required=True)
@click.option("-f", "--format", "formats", multiple=True, type=click.Choice(FORMATS, case_sensitive=False),
              help="Output format; repeat for several (pair each with -o, in order).")
@click.option("-o", "--output", "outputs", multiple=True, metavar="FILE",
              help="Write the matching --format to FILE ('-' = stdout). Repeatable. With --format html, "
                   "a directory (DIR/) gets index.html plus one page per submission.")
@click.option("--select", "select", multiple=True, metavar="RULES", shell_complete=complete_rules,
              help="Only evaluate these rules: ids, families or id prefixes (comma-separated or repeated).")
@click.option("--ignore", "ignore", multiple=True, metavar="RULES", shell_complete=complete_rules,
              help="Skip these rules (ids, families, prefixes).")
@click.option("--exclude", "exclude", multiple=True, metavar="GLOB",
              help="Leave out entries whose name or path end matches GLOB (e.g. r8_old, 'docs/drafts/*'). "
                   "Repeatable. .git, CI files and a README above the submission roots are always left out.")
@click.option("--extend-exclude", "extend_exclude", multiple=True, metavar="GLOB",
              help="Like --exclude, in addition to the configured exclude (repeatable).")
@click.option("--per-path-ignores", "per_path_ignores", multiple=True, metavar="GLOB:RULES",
              shell_complete=complete_rules,
              help="Skip these rules (ids, families, prefixes) at files matching GLOB, e.g. 'r8/point.yaml:seeds'. "
                   "Repeatable.")
@click.option("--fail-on", "fail_on", multiple=True, default=(DEFAULT_FAIL_ON,), show_default=True,
              metavar="[" + "|".join(FAIL_ON_VALUES) + "]", callback=_fail_on_value, shell_complete=_complete_fail_on,
              help="What makes the exit code 1: the lowest severity (reject = errors, flag, warn = warnings), week0 "
                   "(the Week-0 automated check would reject) or never; several, comma-separated or repeated, trip "
                   "when any does (e.g. flag,week0).")
@click.option("--week0", "week0", type=click.Choice(WEEK0_MODES), envvar=WEEK0_ENV, show_envvar=True,
              help="Who gives the Week-0 verdict: the official checker run here where it is installed, else a "
                   "prediction (auto, the default), always the prediction (model), or the official, an error "
                   "without it (official).")
@click.option("--official-python", "official_python", metavar="PYTHON", envvar=OFFICIAL_PYTHON_ENV, show_envvar=True,
              help="The python of a virtual environment holding the official checker (endpoints-submission-cli), "
                   "when this one cannot import it.")
@click.option("--fix", "fix", is_flag=True,
              help="Apply every fix whose right value is certain (marked [*]), then check again and report what "
                   "remains. Only hand-written files (point.yaml, system_desc.json) are edited; docs/fixes.md.")
@click.option("--diff", "diff", is_flag=True,
              help="Print the fixes --fix would apply as a unified diff on standard output; write nothing.")
@click.option("-q", "--quiet", "quiet", is_flag=True, help="Text: only the problem lines and the summary.")
@click.option("-v", "--verbose", "verbose", is_flag=True,
              help="Text: also list the checks that passed or were skipped.")
@click.option("--statistics", "statistics", is_flag=True, help="Text: count the problems per rule.")
@click.option("--policy", "policy_dir", type=click.Path(file_okay=False),
              help="Use this policy directory instead of the bundled rules/policy/v1.0.")
@click.option("--max-file-size", "max_file_size", type=click.IntRange(1, MAX_FILE_SIZE), default=8 * 1024 * 1024,
              show_default=True, help="Refuse YAML/JSON files larger than this many bytes.")
@click.option("--seed-sets", "seed_sets", metavar="FILE", envvar="MLPERF_ENDPOINTS_SEED_SETS", show_envvar=True,
              help="Seed-set registry replacing the bundled seed_sets.yaml (published `cohort:` "
                   "shape or a bare `seed_sets:` list). Missing or malformed: seed-set-registry rejects.")
@click.option("--approved-drafters", "approved_drafters", metavar="FILE", envvar="MLPERF_ENDPOINTS_APPROVED_DRAFTERS",
              show_envvar=True,
              help="Approved-drafter list replacing the bundled "
                   "approved_drafters.yaml. Missing or malformed: drafter-list-registry rejects.")
@click.option("--point", "point_file", type=click.Path(exists=True, dir_okay=False),
              help="Run folders: the point.yaml that describes them (else a point.yaml beside the folder).")
@click.option("--max-concurrency", "max_concurrency", type=click.IntRange(1), metavar="N",
              help="Run folders: the system's declared C_max, to place the point in a region.")
@click.option("--seed-set", "seed_set", metavar="ID", help="Run folders: the bound seed set (e.g. A).")
@click.option("--dataset-size", "dataset_size", type=click.IntRange(1), metavar="N",
              help="Run folders: the performance dataset's size (one full pass).")
@click.option("--no-events", "no_events", is_flag=True, help="Run folders: skip the events.jsonl audit.")
@click.option("--assemble/--no-assemble", "assemble", default=None,
              help="Run folders: check the bundle they become (default: when two or more carry point.yaml and "
                   "system_desc.json).")
@click.option("--write-bundle", "write_bundle", type=click.Path(file_okay=False), metavar="OUT",
              help="Run folders: also write the assembled bundle to OUT (a new or empty directory outside the "
                   "inputs).")
@click.option("-j", "--jobs", "jobs", type=click.IntRange(1, MAX_JOBS), metavar="N",
              help="Worker processes: submissions of a cohort, run-folder audits (default: the core count; "
                   "1 = serial).")
@click.option("--waivers", "waivers", type=click.Path(dir_okay=False), metavar="FILE",
              help="Reviewed waivers (YAML): a matching FAIL becomes a SKIP counted as waived.")
@click.option("--waiver-expiry-warning", "waiver_expiry_warning", type=click.IntRange(0, MAX_WARN_DAYS),
              default=WAIVER_EXPIRY_WARNING_DAYS, show_default=True, metavar="DAYS",
              help="Report a waiver this many days or fewer before its last day (waiver-expiring, a warning).")
@click.option("--baseline", "baseline", type=click.Path(dir_okay=False), metavar="FILE",
              help="A --write-baseline file or an earlier JSON report: mark each problem new or unchanged, "
                   "waived ones waived, and list the resolved ones.")
@click.option("--write-baseline", "write_baseline", metavar="FILE",
              help="Also write this run's problems (failing or waived) to FILE as a small baseline file to "
                   "commit: their fingerprints by submission and rule. --baseline reads it.")
@click.option("--fail-on-new", "fail_on_new", is_flag=True, help="With --baseline: only new FAILs set the exit code.")
@click.option("--junit-warnings", "junit_warnings", type=click.Choice(JUNIT_WARNINGS), default="output",
              show_default=True,
              help="JUnit: a problem below --fail-on (a warning, by default) as a passed test with its text in "
                   "system-out (output), a skipped test (skipped), or a failed test (failure).")
@click.option("--docs-url", "docs_url", metavar="URL", envvar="ENDPOINTS_CHECKER_DOCS_URL", show_envvar=True,
              help="The URL of a published copy of endpoints-checker's docs/ folder: rule links point there "
                   "(default: the rule pages installed with the package, as file:// links).")
@click.option("--cohort", "cohort", type=CohortId(), metavar="YYYY-MM-C0|C1",
              help="The cohort under review: every point's target_cohort must match it.")
@click.option("--today", "today", metavar="YYYY-MM-DD", envvar="ENDPOINTS_CHECKER_TODAY",
              help="Date for waiver expiry (default: today; env ENDPOINTS_CHECKER_TODAY).")
@click.option("--timeout", "timeout", type=click.IntRange(0, MAX_TIMEOUT), default=600, show_default=True,
              metavar="SECONDS",
              help="Per-submission time limit in worker processes (0 = none); a submission over it is a FAIL.")
@click.option("--executor", "executor", type=click.Choice(("local", "dask")),
              help="Where submissions and run-folder audits run: local worker processes (default) or a Dask "
                   "cluster (needs the [dask] extra).")
@click.option("--scheduler", "scheduler", metavar="ADDRESS|local:N",
              help="With --executor dask: a running scheduler's address, or local:N to start N workers here "
                   "(default: $DASK_SCHEDULER_ADDRESS, else local:<jobs>). Implies --executor dask.")
@click.option("--config", "config_file", type=click.Path(dir_okay=False), metavar="FILE",
              help="Read the settings from FILE (endpoints-checker.toml, or a pyproject.toml's "
                   "[tool.endpoints-checker]) instead of the one found above each PATH.")
@click.option("--isolated", "isolated", is_flag=True,
              help="Read no configuration file: only the command line and the defaults.")
def command(**values) -> None:
    """Check submission packages, organisation directories, cohorts or run folders at PATHS."""
    values.update(resolve_settings(click.get_current_context(), values).values)
    from checker.cli.interrupt import Interrupted, signals_end_the_run

    with signals_end_the_run():  # SIGINT/SIGTERM: a prompt stop, workers taken down, exit 130/143
        try:
            code = check(values)
        except Interrupted as exc:
            from checker.cli.interrupt import stopped

            code = stopped(exc)
    sys.exit(code)


def resolve_settings(ctx: click.Context, values: dict):
    """The settings of a parsed ``check`` (or ``config``) command line with the configuration file read in,
    where each came from (checker.engine.check_settings.Resolved); pops --config and --isolated. A bad file
    or value is a usage error (exit 2)."""
    from checker.engine.check_settings import CheckSettings, SettingsError

    config, isolated = values.pop("config_file", None), values.pop("isolated", False)
    settings = CheckSettings(ctx.command)
    try:
        return settings.resolve(values["paths"] or (".",), base=settings.from_context(ctx, values),
                                config=config, isolated=isolated)
    except SettingsError as exc:
        raise InputError(str(exc)) from None


def check(values: dict) -> int:
    """The check with click's values (the options of ``command``, the configuration file read in); return the
    exit code. The RunConfig is built once from them (``_run_config``)."""
    paths, point_file, write_bundle = values["paths"], values["point_file"], values["write_bundle"]
    formats, outputs = values["formats"], values["outputs"]
    if values["quiet"] and values["verbose"]:
        raise InputError("--quiet and --verbose contradict each other: give one")
    pairs = _pair_outputs(tuple(f.lower() for f in formats), outputs)
    if values.get("write_baseline") is not None:
        pairs = _with_baseline_file(pairs, values["write_baseline"])
    mode = _fix_mode(values.get("fix"), values.get("diff"), paths, point_file, pairs, formats, values["executor"],
                     values["scheduler"], write_bundle)
    if mode == "diff" and not formats and not outputs:
        pairs = []  # the diff is standard output's
    from checker.cli import interrupt

    interrupt.begin(pairs)  # what an interrupt would leave unwritten
    for fmt, out in pairs:
        if out != "-" and _is_dir_output(out) and fmt != "html":
            raise InputError(f"{out!r} is a directory: only --format html writes a folder (index + one page per submission)")
        if out != "-" and _is_dir_output(out):
            from checker.cli.folder import problem

            why = problem(out)  # the folder is replaced whole: never one holding anything but report pages
            if why:
                raise InputError(f"cannot write the HTML folder {out}: {why}")
        if out != "-":
            parent = os.path.dirname(os.path.abspath(out))
            if not os.path.isdir(parent):
                raise InputError(f"output directory does not exist: {parent}")
    if values["fail_on_new"] and not values["baseline"]:
        raise InputError("--fail-on-new needs --baseline FILE")
    _check_assembly(paths, point_file, values["assemble"], write_bundle)
    _start_official(values["week0"], values["official_python"], paths,
                    values["executor"] == "dask" or bool(values["scheduler"]))
    config = _run_config(values, pairs)

    def make_report(bundle=write_bundle, reads=None):
        return _run(paths, msgspec.structs.replace(config, write_bundle=bundle, reads=reads))

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
        report = _crashed_report(paths, config.fail_on, exc)
    if mode:
        from checker.cli import fixing

        fixing.tell(report, diff_text, _text_on_stdout(pairs))
    _emit(report, pairs, {"quiet": values["quiet"], "verbose": values["verbose"], "statistics": values["statistics"],
                          "junit_warnings": values.get("junit_warnings") or "output"})
    _tell_bundle(report, write_bundle)
    from checker.cli.fixing import tell_leftovers

    tell_leftovers(report)
    if report.input_error and report.package is not None:
        from checker.cli.output import warn

        for p in report.package.missing_paths:
            warn(f"error: path does not exist: {p}")
        for p, why in report.package.unusable_paths:
            warn(f"error: nothing to check at {p}: {why}")
    return report.exit_code()  # the one the reports carry: an output that failed is in report.output_problems


def _run_config(values: dict, pairs):
    """The RunConfig of this command line (``check_settings.run_config``, as the servers and the library build
    theirs), with what only the CLI decides: the jobs, the progress bar and what its outputs need. An unknown
    rule, seed set or malformed value is a usage error (exit 2)."""
    from checker.core.option_values import UsageProblem
    from checker.engine.check_settings import run_config
    from checker.engine.pool import default_jobs

    simple = {"text", "json", "sarif", "junit", "github", "auto"}
    jobs, scheduler = values["jobs"], values["scheduler"]
    try:
        config = run_config(values, jobs=jobs or default_jobs(), audit_jobs=jobs, progress=_isatty(sys.stderr),
                            keep_packages=any(fmt not in simple for fmt, _ in pairs),
                            prerender_json=any(fmt == "json" for fmt, _ in pairs),
                            docs_url=_docs_url(values.get("docs_url")),
                            per_path_ignores=_path_ignores(values.get("per_path_ignores")),
                            executor=values["executor"] or ("dask" if scheduler else "local"))
    except UsageProblem as exc:
        raise InputError(str(exc)) from None
    _check_values(list(config.select), list(config.ignore), values["seed_set"], config.policy_dir,
                  config.policy_overrides)
    return config


def _start_official(week0, official_python, paths, remote) -> None:
    """Start the official checker's child first thing when PATH is one submission root: it imports the
    official while this process imports the engine and the rules and loads the package (the pipeline takes
    the same child). A cohort's units get theirs in the workers, which the pipeline decides."""
    from checker.engine.official import OfficialUnavailable, resolve

    try:
        spec = resolve(week0, official_python)
    except OfficialUnavailable as exc:
        raise InputError(str(exc)) from None
    if spec is not None and not remote and len(paths) == 1 and os.path.isdir(os.path.join(paths[0], "results")):
        from checker.engine.official.client import child_for

        child_for(spec)


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


def _with_baseline_file(pairs, path: str) -> list[tuple[str, str]]:
    """--write-baseline FILE: one more output, the baseline file (checker.render.baseline_file)."""
    if path == "" or "\0" in path:
        raise InputError(f"--write-baseline {path!r} names no file")
    if _is_dir_output(path):
        raise InputError(f"--write-baseline {path!r} is a directory: give a file name")
    if path == "-":
        pairs = [p for p in pairs if p != ("auto", "-")]  # the terminal's report gives way to the file's text
        if any(out == "-" for _, out in pairs):
            raise InputError("only one format can go to standard output; give --write-baseline a file name")
    return pairs + [("baseline", path)]


def _docs_url(value) -> str:
    """--docs-url: an http(s) or file URL of a copy of docs/ ("" when not given)."""
    if not value:
        return ""
    if not value.startswith(("https://", "http://", "file://")) or any(c.isspace() for c in value):
        raise InputError(f"--docs-url {value!r} is not an http(s):// or file:// URL of a copy of docs/")
    return value.rstrip("/")


def _is_dir_output(out: str) -> bool:
    """``-o DIR/`` (trailing slash) or an existing directory: a folder of HTML pages."""
    return out != "-" and (out.endswith(("/", os.sep)) or os.path.isdir(out))


def _check_assembly(paths, point_file, assemble, write_bundle) -> None:
    """--assemble contradicts --point (each run folder carries its own point.yaml); OUT must be writable."""
    if (assemble or write_bundle) and point_file:
        which = "--assemble" if assemble else "--write-bundle (which assembles the run folders)"
        raise InputError(f"{which} and --point contradict each other: an assembled run folder uses its own point.yaml")
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
        warn(f"warning: --write-bundle {write_bundle}: the inputs were not assembled (no run folders among them, or "
             "the bundle view could not be staged); nothing written")
    else:
        warn(f"wrote the assembled bundle to {section['written']} ({len(section['points'])} point(s))")


def _check_values(select, ignore, seed_set, policy_dir, overrides) -> None:
    """Unknown --select/--ignore/--seed-set values are usage errors (exit 2), with a did-you-mean."""
    from checker.engine.catalogue import rules_for
    from checker.core.option_values import UsageProblem, check_seed_set, check_selectors

    try:
        rules = rules_for(select, ignore)  # ids and families; with --select, unselected families stay unimported
        check_selectors("--select", select, rules)
        check_selectors("--ignore", ignore, rules)
        if seed_set:
            from checker.engine.policy import load_policy

            check_seed_set(seed_set, load_policy(policy_dir, overrides))
    except UsageProblem as exc:
        raise InputError(str(exc)) from None


def _path_ignores(items):
    """--per-path-ignores GLOB:RULES as (glob, selectors) pairs; a malformed one is a usage error."""
    if not items:
        return ()
    from checker.core.option_values import UsageProblem
    from checker.engine.catalogue import all_rules
    from checker.engine.path_ignores import parse

    try:
        return parse(items, all_rules())
    except UsageProblem as exc:
        raise InputError(str(exc)) from None


def _run(paths, config):
    """Run the check; bad --waivers/--baseline/--today input is a usage error (exit 2)."""
    from checker.engine.executors import ExecutorUnavailable
    from checker.engine.pipeline import check as run_pipeline

    try:
        return run_pipeline(list(paths), config)
    except ExecutorUnavailable as exc:
        raise InputError(str(exc)) from None
    except ValueError as exc:
        from checker.engine.baseline import BaselineError
        from checker.engine.official import OfficialUnavailable
        from checker.engine.waivers import WaiverError

        if isinstance(exc, (WaiverError, BaselineError, OfficialUnavailable)):
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


def _split(values) -> list[str]:
    from checker.core.option_values import split

    return list(split(values))


def _text_on_stdout(pairs) -> bool:
    from checker.render import resolve_auto

    return any(out == "-" and (resolve_auto() if fmt == "auto" else fmt) == "text" for fmt, out in pairs)


def _emit(report, pairs, text_options: dict) -> None:
    """Write every output (checker.cli.output): each problem is one error line on stderr (and in the report,
    exit 2); with -o FILE the written paths and (unless text is on stdout) the verdict go to stderr."""
    from checker.cli.output import emit, warn

    done = emit(report, pairs, text_options, _is_dir_output)
    from checker.cli import interrupt

    interrupt.delivered()
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
