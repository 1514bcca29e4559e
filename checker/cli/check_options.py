"""The options of ``endpoints-checker check``, declared once: main.py builds the click command from this
table and fast_check.py parses a plain invocation with it without importing click. Standard library only.
"""
from __future__ import annotations

#: option bounds (docs/robustness.md): beyond them a value is a usage error, never an overflow deep inside
MAX_FILE_SIZE = 1 << 30  # --max-file-size: a YAML/JSON file is read whole, so 1 GiB at most
MAX_JOBS = 256  # --jobs
MAX_TIMEOUT = 1_000_000  # --timeout, seconds (about 11.6 days; SIGALRM takes a C int)

FORMATS = ("auto", "text", "json", "html", "markdown", "sarif", "junit", "github")

#: the kinds of option: ``flag`` (is_flag), ``pair`` (``--x/--no-x``), ``str``, ``int`` (an IntRange),
#: ``choice`` and ``path`` (a click.Path with ``exists``/``file_okay``/``dir_okay``)
KINDS = ("flag", "pair", "str", "int", "choice", "path")


class Opt:
    """One option: what click declares (flags, type, default, envvar, help) in plain values.

    ``default`` is given to click for every kind but ``flag`` and ``multiple`` options (which default to
    False and ``()``); ``secondary`` holds the ``--no-x`` flags of a ``pair``; ``complete`` asks for the
    rule-id shell completion."""

    __slots__ = ("flags", "dest", "kind", "help", "multiple", "default", "choices", "case_sensitive", "min", "max",
                 "envvar", "metavar", "show_default", "show_envvar", "exists", "file_okay", "dir_okay", "secondary",
                 "complete")

    def __init__(self, flags: tuple[str, ...], dest: str, kind: str = "str", *, help: str, multiple: bool = False,
                 default=None, choices: tuple[str, ...] = (), case_sensitive: bool = True, min: int | None = None,
                 max: int | None = None, envvar: str | None = None, metavar: str | None = None,
                 show_default: bool = False, show_envvar: bool = False, exists: bool = False, file_okay: bool = True,
                 dir_okay: bool = True, secondary: tuple[str, ...] = (), complete: bool = False) -> None:
        if kind not in KINDS:
            raise ValueError(f"unknown option kind {kind!r}")
        self.flags, self.dest, self.kind, self.help, self.multiple = flags, dest, kind, help, multiple
        self.default = False if kind == "flag" else default
        self.choices, self.case_sensitive, self.min, self.max = choices, case_sensitive, min, max
        self.envvar, self.metavar, self.show_default, self.show_envvar = envvar, metavar, show_default, show_envvar
        self.exists, self.file_okay, self.dir_okay = exists, file_okay, dir_okay
        self.secondary, self.complete = secondary, complete

    def __repr__(self) -> str:
        return f"Opt({'/'.join(self.flags + self.secondary)} -> {self.dest})"


#: the ``check`` command's options, in the order ``check --help`` lists them
OPTIONS = (
    Opt(("-f", "--format"), "formats", "choice", multiple=True, choices=FORMATS, case_sensitive=False,
        help="Output format; repeat for several (pair each with -o, in order)."),
    Opt(("-o", "--output"), "outputs", multiple=True, metavar="FILE",
        help="Write the matching --format to FILE ('-' = stdout). Repeatable. With --format html, "
             "a directory (DIR/) gets index.html plus one page per submission."),
    Opt(("--select",), "select", multiple=True, metavar="RULES", complete=True,
        help="Only evaluate these rules: ids, families or id prefixes (comma-separated or repeated)."),
    Opt(("--ignore",), "ignore", multiple=True, metavar="RULES", complete=True,
        help="Skip these rules (ids, families, prefixes)."),
    Opt(("--exclude",), "exclude", multiple=True, metavar="GLOB",
        help="Leave out entries whose name or path end matches GLOB (e.g. r8_old, 'docs/drafts/*'). "
             "Repeatable. .git, CI files and a README above the submission roots are always left out."),
    Opt(("--fail-on",), "fail_on", "choice", choices=("reject", "flag", "warn", "never"), default="flag",
        show_default=True,
        help="Lowest severity that makes the exit code 1 (reject = errors, flag, warn = warnings)."),
    Opt(("--fix",), "fix", "flag",
        help="Apply every fix whose right value is certain (marked [*]), then check again and report what "
             "remains. Only hand-written files (point.yaml, system_desc.json) are edited; docs/fixes.md."),
    Opt(("--diff",), "diff", "flag",
        help="Print the fixes --fix would apply as a unified diff on standard output; write nothing."),
    Opt(("-q", "--quiet"), "quiet", "flag", help="Text: only the problem lines and the summary."),
    Opt(("-v", "--verbose"), "verbose", "flag", help="Text: also list the checks that passed or were skipped."),
    Opt(("--statistics",), "statistics", "flag", help="Text: count the problems per rule."),
    Opt(("--policy",), "policy_dir", "path", file_okay=False,
        help="Use this policy directory instead of the bundled rules/policy/v1.0."),
    Opt(("--max-file-size",), "max_file_size", "int", min=1, max=MAX_FILE_SIZE, default=8 * 1024 * 1024,
        show_default=True, help="Refuse YAML/JSON files larger than this many bytes."),
    Opt(("--seed-sets",), "seed_sets", metavar="FILE", envvar="MLPERF_ENDPOINTS_SEED_SETS", show_envvar=True,
        help="Seed-set registry replacing the bundled seed_sets.yaml (published `cohort:` "
             "shape or a bare `seed_sets:` list). Missing or malformed: seed-set-registry rejects."),
    Opt(("--approved-drafters",), "approved_drafters", metavar="FILE", envvar="MLPERF_ENDPOINTS_APPROVED_DRAFTERS",
        show_envvar=True,
        help="Approved-drafter list replacing the bundled "
             "approved_drafters.yaml. Missing or malformed: drafter-list-registry rejects."),
    Opt(("--point",), "point_file", "path", exists=True, dir_okay=False,
        help="Run folders: the point.yaml that describes them (else a point.yaml beside the folder)."),
    Opt(("--max-concurrency",), "max_concurrency", "int", min=1, metavar="N",
        help="Run folders: the system's declared C_max, to place the point in a region."),
    Opt(("--seed-set",), "seed_set", metavar="ID", help="Run folders: the bound seed set (e.g. A)."),
    Opt(("--dataset-size",), "dataset_size", "int", min=1, metavar="N",
        help="Run folders: the performance dataset's size (one full pass)."),
    Opt(("--no-events",), "no_events", "flag", help="Run folders: skip the events.jsonl audit."),
    Opt(("--assemble",), "assemble", "pair", secondary=("--no-assemble",),
        help="Run folders: check the bundle they become (default: when two or more carry point.yaml and "
             "system_desc.json)."),
    Opt(("--write-bundle",), "write_bundle", "path", file_okay=False, metavar="OUT",
        help="Run folders: also write the assembled bundle to OUT (a new or empty directory outside the inputs)."),
    Opt(("-j", "--jobs"), "jobs", "int", min=1, max=MAX_JOBS, metavar="N",
        help="Worker processes: submissions of a cohort, run-folder audits (default: the core count; "
             "1 = serial)."),
    Opt(("--waivers",), "waivers", "path", dir_okay=False, metavar="FILE",
        help="Reviewed waivers (YAML): a matching FAIL becomes a SKIP counted as waived."),
    Opt(("--baseline",), "baseline", "path", dir_okay=False, metavar="FILE",
        help="An earlier JSON report: mark each FAIL new or unchanged and list resolved ones."),
    Opt(("--fail-on-new",), "fail_on_new", "flag", help="With --baseline: only new FAILs set the exit code."),
    Opt(("--cohort",), "cohort", metavar="YYYY-MM-C0|C1",
        help="The cohort under review: every point's target_cohort must match it."),
    Opt(("--today",), "today", metavar="YYYY-MM-DD", envvar="ENDPOINTS_CHECKER_TODAY",
        help="Date for waiver expiry (default: today; env ENDPOINTS_CHECKER_TODAY)."),
    Opt(("--timeout",), "timeout", "int", min=0, max=MAX_TIMEOUT, default=600, show_default=True, metavar="SECONDS",
        help="Per-submission time limit in worker processes (0 = none); a submission over it is a FAIL."),
    Opt(("--executor",), "executor", "choice", choices=("local", "dask"),
        help="Where submissions and run-folder audits run: local worker processes (default) or a Dask "
             "cluster (needs the [dask] extra)."),
    Opt(("--scheduler",), "scheduler", metavar="ADDRESS|local:N",
        help="With --executor dask: a running scheduler's address, or local:N to start N workers here "
             "(default: $DASK_SCHEDULER_ADDRESS, else local:<jobs>). Implies --executor dask."),
)

#: the positional argument (click: ``nargs=-1, required=True``) and the command's help
PATHS = "paths"
HELP = "Check submission packages, organisation directories, cohorts or run folders at PATHS."
