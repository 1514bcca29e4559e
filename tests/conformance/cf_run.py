"""Run both checkers on built variants and reduce each run to a verdict plus the rule ids behind it.

Ours runs as a user runs it: the ``endpoints-checker`` console script of this interpreter's
environment (else ``python -m checker``), ``check PATHS -f json -o FILE``, twelve packages per
process (each its own unit; a test compares a few with one-package runs), twice: with ``--week0
model`` (the rules and the model of the official, compared with the official below) and with
``--week0 official --official-python`` the official's own interpreter (its verdict taken from the
official checker itself: summary.week0 must be the official's result, by construction). The official
runs through official_driver.py inside its own virtual environment, half the packages per process.
All go through one pool of 2 workers (the machine has 2 cores). Nothing is cached.

Verdicts:
- ours: ``reject`` when a FAIL has severity ``reject`` or ``reject-points`` (what Week-0 rejects,
  README "Severities and statuses"); ``flag``/``warn`` FAILs do not reject. ``rules`` are the
  rejecting rule ids, ``flags`` and ``warns`` the rule ids of flag- and warn-severity FAILs.
- official: ``reject`` when any result is an ERROR, or the run crashed (the CLI exits 1 either way,
  OFFICIAL-CHECKER.md §1.3). ``rules`` are the ERROR rule ids (``crash:<ExceptionType>`` for a crash).
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
OFFICIAL_VERSION = "1.5.3.0"
OFFICIAL_PACKAGE = f"endpoints-submission-cli=={OFFICIAL_VERSION}"
#: env var naming the python of a virtual environment with the official checker (default .venv-official)
OFFICIAL_ENV = "ENDPOINTS_CHECKER_OFFICIAL_PYTHON"
#: set to 1 (as .ci/run does; CI=true too) to make a missing official checker a failure, not a skip
REQUIRE_ENV = "ENDPOINTS_CHECKER_REQUIRE_OFFICIAL"
REJECTING = ("reject", "reject-points")
WORKERS = 2
TIMEOUT_S = 300
#: one line for the end of the pytest run (how many variants, how long), set by the test fixture
STATS: dict[str, str] = {}


def official_required() -> bool:
    """True where a missing official checker must fail the suite (CI), not skip it."""
    return os.environ.get(REQUIRE_ENV, "") not in ("", "0") or os.environ.get("CI", "").lower() == "true"


def clean_env() -> dict:
    """The environment both tools run in: no registry overrides, no CI annotations, fixed date."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("MLPERF_ENDPOINTS_", "GITHUB_", "ENDPOINTS_CHECKER_"))}
    env.update({"NO_COLOR": "1", "ENDPOINTS_CHECKER_TODAY": "2026-11-01", "PYTHONDONTWRITEBYTECODE": "1"})
    return env


def find_official() -> tuple[str | None, str]:
    """(python of the official checker's venv, "") or (None, why it cannot be used)."""
    python = os.environ.get(OFFICIAL_ENV) or os.path.join(REPO, ".venv-official", "bin", "python")
    if not os.path.exists(python):
        return None, (f"the official checker ({OFFICIAL_PACKAGE}) is not installed: {python} does not exist "
                      f"(`make official` installs it into .venv-official; {OFFICIAL_ENV} names another)")
    try:
        out = subprocess.run([python, os.path.join(HERE, "official_driver.py"), "--version"], capture_output=True,
                             text=True, timeout=60, env=clean_env())
    except (OSError, subprocess.SubprocessError) as exc:
        return None, f"the official checker at {python} cannot be run: {exc}"
    version = out.stdout.strip()
    if out.returncode != 0 or version != OFFICIAL_VERSION:
        return None, (f"{python} does not provide {OFFICIAL_PACKAGE} (got {version or out.stderr.strip()[-200:]!r})")
    return python, ""


def ours_command() -> list[str]:
    """This interpreter's console script, else the repository's .venv one, else ``python -m checker``."""
    for script in (os.path.join(os.path.dirname(sys.executable), "endpoints-checker"),
                   os.path.join(REPO, ".venv", "bin", "endpoints-checker")):
        if os.path.exists(script):
            return [script]
    return [sys.executable, "-m", "checker"]


#: our rule that echoes the Week-0 verdict (the official's, or the model's): not a verdict of the rules
WEEK0_ECHO = "week0-check"


def reduce_ours(doc: dict) -> dict:
    """Our JSON report -> verdict, rejecting rule ids, flag rule ids (the rules' own: week0-check left out),
    the Week-0 verdict, and (``explained``) what the report says for each Week-0 ERROR."""
    fails = [f for f in doc["findings"] if f["status"] == "FAIL" and f["rule_id"] != WEEK0_ECHO]
    rules = sorted({f["rule_id"] for f in fails if f["severity"] in REJECTING})
    flags = sorted({f["rule_id"] for f in fails if f["severity"] == "flag"})
    warns = sorted({f["rule_id"] for f in fails if f["severity"] == "warn"})
    out = {"verdict": "reject" if rules else "accept", "rules": rules, "flags": flags, "warns": warns, "error": None,
           "messages": sorted({f"{f['rule_id']}: {f['message'][:160]}" for f in fails
                               if f["severity"] in REJECTING + ("flag",)})[:12]}
    summary = doc.get("summary", {})
    out["week0"] = summary.get("week0")
    out["explained"] = sorted({(f["extra"].get("official_rule") if f["rule_id"] == WEEK0_ECHO else f["rule_id"],
                                "/".join(x for x in (f["subject"]["system"], f["subject"]["model"],
                                                     f["subject"]["point"]) if x))
                               for f in doc["findings"] if f["status"] == "FAIL" and f.get("week0")})
    if out["week0"] is None:
        out["error"] = "summary.week0 is missing: no Week-0 prediction for a submission"
    elif summary.get("week0_reject") != (out["week0"]["verdict"] != "accept"):
        out["error"] = f"summary.week0_reject={summary.get('week0_reject')} contradicts summary.week0 {out['week0']}"
    return out


def week0_args(official_python: str | None = None) -> list[str]:
    """``--week0 model``, or the official checker itself from ``official_python``."""
    return ["--week0", "official", "--official-python", official_python] if official_python else ["--week0", "model"]


def _ours_process(paths: list[str], report: str, cwd: str, official_python: str | None = None
                  ) -> tuple[dict | None, str | None]:
    """Run ``endpoints-checker check PATHS -f json -o REPORT``: (report, None) or (None, what went wrong)."""
    cmd = ours_command() + ["check", *paths, "-f", "json", "-o", report, "--jobs", "1", *week0_args(official_python)]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT_S, env=clean_env(), cwd=cwd)
    except subprocess.TimeoutExpired:
        return None, f"timed out after {TIMEOUT_S} s"
    if proc.returncode not in (0, 1) or not os.path.exists(report):
        return None, f"exit {proc.returncode}: {(proc.stderr or proc.stdout).strip()[-400:]}"
    with open(report, encoding="utf-8") as fh:
        return json.load(fh), None


def run_ours(path: str, report: str, official_python: str | None = None) -> dict:
    """One package, one process: exactly what a user runs."""
    doc, error = _ours_process([path], report, os.path.dirname(path), official_python)
    if error:
        return {"verdict": "error", "rules": [], "flags": [], "warns": [], "error": error}
    return reduce_ours(doc)


def run_ours_batch(paths: list[str], report: str, official_python: str | None = None) -> dict[str, dict]:
    """Several packages in one process (cohort mode, serial): {path: reduced unit}.

    Each package is its own unit with its own findings (subject.submission = the unit's label).
    The cross-submission (cohort-scope) rules compare the variants with each other, which a
    single-package run never does: their findings are left out (``submission-checked``, a unit that
    could not be checked, is kept). A package the batch does not list as a unit is re-run alone."""
    cwd = os.path.dirname(paths[0])
    doc, error = _ours_process([os.path.relpath(p, cwd) for p in paths], report, cwd, official_python)
    if error:
        return {p: {"verdict": "error", "rules": [], "flags": [], "warns": [], "error": error} for p in paths}
    rows = {os.path.normpath(os.path.join(cwd, row["path"])): row for row in doc.get("cohort", {}).get("submissions", [])}
    cross = {r["id"] for r in doc.get("rules", []) if r.get("scope") == "cohort"} - {"submission-checked"}
    by_label: dict[str, list] = {}
    for finding in doc["findings"]:
        if finding["rule_id"] not in cross:
            by_label.setdefault(finding["subject"]["submission"], []).append(finding)
    out = {}
    for p in paths:
        row = rows.get(os.path.normpath(p))
        if row is None or not row.get("checked", True):
            out[p] = run_ours(p, report + f".{len(out)}.json", official_python)
            continue
        out[p] = reduce_ours({"findings": by_label.get(row["label"], []),
                              "summary": {"week0_reject": row.get("week0_reject"), "week0": row.get("week0")}})
    return out


def reduce_official(row: dict) -> dict:
    """One official_driver.py row -> verdict, ERROR rule ids (a crash rejects, as its exit 1 does), the
    points its ERRORs name (``points``: system/model/r<N> when every ERROR names a point, else None) and
    ``errors``: (rule, system/model/r<N> or the directory its path names below results/, "" above)."""
    if row.get("crash"):
        return {"verdict": "reject", "rules": [f"crash:{row['crash'].split(':', 1)[0]}"], "error": None,
                "messages": [row["crash"]], "points": None, "errors": [("crash", "")]}
    rules = sorted({e["rule"] for e in row["errors"]})
    named = [point_of(e.get("path") or "") for e in row["errors"]]
    points = sorted(set(named)) if named and all(named) else None
    errors = sorted({(e["rule"], place_of(e.get("path") or "", row["path"])) for e in row["errors"]})
    return {"verdict": "accept" if row["passed"] else "reject", "rules": rules, "error": None,
            "messages": sorted({f"{e['rule']}: {e['message'][:160]}" for e in row["errors"]})[:12], "points": points,
            "errors": errors}


def place_of(path: str, root: str) -> str:
    """system[/model[/r<N>]] of a path under root/results/ (directories only), else ''."""
    rel = os.path.relpath(path, root).replace(os.sep, "/") if path else ""
    parts = rel.split("/")
    if len(parts) < 2 or parts[0] != "results":
        return ""
    dirs = parts[1:-1] if "." in parts[-1].lstrip(".") else parts[1:]
    return "/".join(dirs[:3])


_POINT_PATH = re.compile(r"/results/([^/]+)/([^/]+)/(r[0-9]+)(?:/|$)")


def point_of(path: str) -> str:
    """system/model/r<N> of an official result's path inside a point directory, else ''."""
    m = _POINT_PATH.search(path.replace(os.sep, "/"))
    return "/".join(m.groups()) if m else ""


def week0_problem(ours: dict, official: dict) -> str:
    """'' when our Week-0 prediction is what the official decided, else what differs.

    accept must be accept both ways; a reject-points prediction must name every point the official's
    ERRORs name (it reports a curve-wide defect at one point's file, so ours may name more)."""
    w = ours.get("week0")
    if w is None:
        return "no Week-0 prediction"
    if (w["verdict"] == "accept") != (official["verdict"] == "accept"):
        return f"predicted {w['verdict']} {w['rules']}, the official decides {official['verdict']} {official['rules']}"
    if w["verdict"] == "reject-points" and official.get("points") is not None:
        missing = sorted(set(official["points"]) - set(w["points"]))
        if missing:
            return f"predicted reject-points {w['points']}, the official also rejects {missing}"
    return ""


def official_problem(ours: dict, official: dict) -> str:
    """'' when our report, the official run inside it, says exactly what the official decided on its own:
    the verdict, the rule ids (its crash as ``crash``), the points of a reject-points verdict, and a
    finding marked week0 for each ERROR (its rule id, or week0-check naming it, at its place or around it)."""
    w = ours.get("week0")
    if w is None:
        return "no Week-0 verdict"
    if w.get("source") != "official":
        return f"the Week-0 verdict is {w.get('source')!r}, not the official's"
    crashed = official["rules"][:1] and official["rules"][0].startswith("crash:")
    want_rules = ["crash"] if crashed else official["rules"]
    if (w["verdict"] == "accept") != (official["verdict"] == "accept") or w["rules"] != want_rules:
        return f"summary.week0 {w['verdict']} {w['rules']}, the official decided {official['verdict']} {official['rules']}"
    if official.get("points") is not None and not crashed and sorted(w["points"]) != official["points"]:
        return f"summary.week0 points {w['points']}, the official's ERRORs name {official['points']}"
    said = ours.get("explained") or []
    unsaid = [(rule, place) for rule, place in official.get("errors", [])
              if not any(r in (rule,) + tuple(ALSO_FROM.get(rule, ())) and _around(p, place) for r, p in said)]
    if unsaid:
        return f"ERRORs of the official no finding marked week0 says: {unsaid[:5]}"
    return ""


def _around(a: str, b: str) -> bool:
    """One place (system/model/r<N>) lies inside the other."""
    x, y = a.split("/") if a else [], b.split("/") if b else []
    return x[:len(y)] == y or y[:len(x)] == x


def _also_from() -> dict:
    """official id -> our rule ids that say the same ERROR (rules/policy/v1.0/week0.yaml's also_from)."""
    import yaml

    with open(os.path.join(REPO, "rules", "policy", "v1.0", "week0.yaml"), encoding="utf-8") as fh:
        return dict(yaml.safe_load(fh).get("also_from") or {})


ALSO_FROM = _also_from()


def run_official(python: str, paths: list[str]) -> dict[str, dict]:
    """Check packages with the official checker in one process: {path: reduced row}."""
    try:
        proc = subprocess.run([python, os.path.join(HERE, "official_driver.py"), *paths], capture_output=True,
                              text=True, timeout=TIMEOUT_S, env=clean_env())
    except subprocess.TimeoutExpired:
        return {p: {"verdict": "error", "rules": [], "error": "official driver timed out"} for p in paths}
    rows = {}
    for line in proc.stdout.splitlines():
        row = json.loads(line)
        rows[row["path"]] = reduce_official(row)
    for p in paths:
        rows.setdefault(p, {"verdict": "error", "rules": [],
                            "error": f"official driver exit {proc.returncode}: {proc.stderr.strip()[-400:]}"})
    return rows


def run_all(built: dict[str, str], official_python: str | None, workdir: str, batch: int = 12,
            inside_every: int = 1) -> dict[str, dict]:
    """{variant: package path} -> {variant: {"ours": ..., "official": ... or None, "ours_official": ... or
    None}}, 2 workers.

    Ours checks ``batch`` packages per process (one process per package with batch=1), once predicting
    (``ours``) and, with the official, once with the official inside (``ours_official``) on every
    ``inside_every``-th variant in name order (that run passes the official's own result through, so a
    sample proves it; the others get None); the official checks half of them per process. Package paths
    must share one parent directory."""
    names = sorted(built)
    reports = os.path.join(workdir, "_reports")
    shutil.rmtree(reports, ignore_errors=True)
    os.makedirs(reports)
    paths = [built[n] for n in names]
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        official_jobs = []
        if official_python:
            half = (len(paths) + 1) // 2
            official_jobs = [pool.submit(run_official, official_python, chunk) for chunk in (paths[:half], paths[half:])
                             if chunk]
        chunks = [paths[i:i + batch] for i in range(0, len(paths), batch)]
        ours_jobs = [pool.submit(run_ours_batch, chunk, os.path.join(reports, f"batch-{i}.json"))
                     for i, chunk in enumerate(chunks)]
        sample = paths[::inside_every]
        inside_jobs = [pool.submit(run_ours_batch, sample[i:i + batch], os.path.join(reports, f"official-{i}.json"),
                                   official_python)
                       for i in range(0, len(sample), batch)] if official_python else []
        ours: dict[str, dict] = {}
        for job in ours_jobs:
            ours.update(job.result())
        inside: dict[str, dict] = {}
        for job in inside_jobs:
            inside.update(job.result())
        official: dict[str, dict] = {}
        for job in official_jobs:
            official.update(job.result())
    return {n: {"ours": ours[built[n]], "official": official.get(built[n]) if official_python else None,
                "ours_official": inside.get(built[n]) if official_python else None}
            for n in names}
