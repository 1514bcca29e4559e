"""RunConfig: everything one check is asked to do, fixed before it starts.

The CLI (or a test, or another program) builds one RunConfig and hands it to
``checker.engine.pipeline.check``. ``options`` holds only what rules read (the run-folder context,
the cohort under review); scheduling, outputs and gating stay here, never in the rules' view.
"""
from __future__ import annotations

from typing import Any

import msgspec

from checker.engine.official import DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT

#: --waiver-expiry-warning's default: a waiver 14 days or fewer from its last day is reported (waiver-expiring)
WAIVER_EXPIRY_WARNING_DAYS = 14


class RunConfig(msgspec.Struct, frozen=True):
    #: --select / --ignore: rule ids, family names or id prefixes
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    #: what makes the exit code 1 (checker.core.gate: a severity, week0, never, or several comma-separated)
    fail_on: str = "flag"
    #: a policy edition directory replacing the bundled one; single files replacing bundled ones
    policy_dir: str | None = None
    policy_overrides: dict[str, str] = msgspec.field(default_factory=dict)
    #: entries left out of discovery (--exclude globs: a name or the end of a path)
    exclude: tuple[str, ...] = ()
    #: --per-path-ignores: (glob, rule selectors) pairs; those rules' findings at matching files are deselected
    per_path_ignores: tuple = ()
    #: the largest YAML/JSON file read, in bytes
    max_bytes: int = 8 * 1024 * 1024
    #: what rules read: point, max_concurrency, seed_set, dataset_size, events, cohort
    options: dict[str, Any] = msgspec.field(default_factory=dict)
    #: worker processes for the units of a cohort (1: serial, in-process)
    jobs: int = 1
    #: worker processes for the run-folder events audits (None: in-process below 64 MiB of logs)
    audit_jobs: int | None = None
    waivers: str | None = None
    baseline: str | None = None
    fail_on_new: bool = False
    #: the date waivers expire against (None: today)
    today: Any = None
    #: a waiver this many days or fewer from its expiry is reported (waiver-expiring)
    waiver_expiry_warning: int = WAIVER_EXPIRY_WARNING_DAYS
    #: the URL of a published copy of docs/: rule links point under it (else at the installed pages)
    docs_url: str = ""
    #: draw progress bars on stderr
    progress: bool = False
    #: keep the loaded packages in the report (renderers that show the curve need them)
    keep_packages: bool = True
    #: per-unit time limit in worker processes, seconds (0: none)
    timeout: int = 600
    #: encode findings' JSON in the workers (the JSON report splices the text in)
    prerender_json: bool = False
    #: run folders: check the bundle they become (True/False force it; None: when they carry point.yaml
    #: and system_desc.json)
    assemble: bool | None = None
    #: write the assembled bundle tree here (an empty or new directory outside the inputs)
    write_bundle: str | None = None
    #: where units run: "local" (worker processes, the default) or "dask" (checker.engine.executors)
    executor: str = "local"
    #: with executor "dask": a scheduler address, or local:N (a LocalCluster of N workers); None: local:<jobs>
    scheduler: str | None = None
    #: who gives the Week-0 verdict (checker.core.week0.MODES): auto, model or official; None: the
    #: ENDPOINTS_CHECKER_WEEK0 environment variable, else auto
    week0: str | None = None
    #: the python of a virtual environment holding the official checker (None: ENDPOINTS_CHECKER_OFFICIAL_PYTHON,
    #: else this interpreter when it can import it)
    official_python: str | None = None
    #: the official's limits per submission: seconds, and MiB of address space
    week0_timeout: float = DEFAULT_TIMEOUT
    week0_memory_mb: int = DEFAULT_MEMORY_MB
    #: what the check reads besides the disk (``checker.load.reader.Reads``: an overlay of texts standing in for
    #: files, a parse cache kept between checks), given by the fixer and the language server; None: the disk
    reads: Any = None

    @classmethod
    def of(cls, **kw: Any) -> "RunConfig":
        """Build from keyword arguments, normalising lists and None the way the CLI gives them."""
        names = set(cls.__struct_fields__)  # (msgspec.structs.fields evaluates the type hints on each call)
        unknown = sorted(set(kw) - names)
        if unknown:
            raise TypeError(f"unknown RunConfig field(s): {', '.join(unknown)}")
        for key in ("select", "ignore", "exclude", "per_path_ignores"):
            if key in kw:
                kw[key] = tuple(kw[key] or ())
        for key in ("policy_overrides", "options"):
            if key in kw:
                kw[key] = dict(kw[key] or {})
        return cls(**kw)
