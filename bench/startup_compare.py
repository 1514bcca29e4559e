"""Start-up of a plain check, this checkout against an older tree of the project, run on this venv.

    git worktree add --detach /tmp/old 3e3f5cb        # the last commit with the record copy
    python bench/startup_compare.py /tmp/old [RUNS]   # interleaved whole processes: wall and CPU
    python bench/startup_compare.py /tmp/old --parts  # per part, CPU in one process, 3 runs each

The older tree is put first on PYTHONPATH, so it must run on this venv's dependencies. Each run is
``python -m checker check fixtures/valid -f json -o /dev/null`` (bytecode caching on); ``uptime`` is
printed before and after, since the development machine is shared (judge by CPU).
"""
from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
PKG = os.path.join(REPO, "fixtures", "valid")


def _env(tree: str) -> dict:
    env = dict(os.environ, PYTHONPATH=tree)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def run(tree: str) -> tuple[float, float, int]:
    t0 = time.perf_counter()
    p = subprocess.Popen([sys.executable, "-m", "checker", "check", PKG, "-f", "json", "-o", os.devnull], cwd=tree,
                         env=_env(tree), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(p.pid, 0)
    return time.perf_counter() - t0, usage.ru_utime + usage.ru_stime, os.waitstatus_to_exitcode(status)


PARTS = r'''
import glob, os, sys, time
t = time.process_time
PKG, new = sys.argv[1], os.path.exists(os.path.join(sys.argv[2], "checker/core/models.py"))
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
from checker.load.reader import read_file
a = t()
if new:
    from checker.core.models import without_plugins; without_plugins()
    import checker.core.models
    from checker.load.models.lenient import validate_lenient
else:
    import checker.core.record, checker.core.record_checks
    from checker.load.models import validate_lenient
b = t()
import checker.load.models.spelling, checker.load.models.keys
from checker.load.models.point import PointYaml
from checker.load.models.summary import ResultSummary
from checker.load.models.system_desc import SystemDesc
c = t()
files = [(cls, read_file(kind, f, f, "/", 1 << 24)) for cls, kind, f in (
    (PointYaml, "point_yaml", glob.glob(PKG + "/**/point.yaml", recursive=True)[0]),
    (ResultSummary, "result_summary", glob.glob(PKG + "/**/result_summary.json", recursive=True)[0]),
    (SystemDesc, "system_desc", glob.glob(PKG + "/**/system_desc.json", recursive=True)[0]))]
d = t()
for cls, lf in files:
    validate_lenient(cls, lf.data)
e = t()
for cls, lf in files:
    validate_lenient(cls, lf.data)
f = t()
from checker.engine.policy import load_policy
pol = load_policy()
g = t()
pol.load_all()
h = t()
ms = lambda x: f"{x * 1000:6.1f}"
print(f"library import {ms(b - a)} | three models defined {ms(c - b)} | first validation (build) {ms(e - d)} | "
      f"second validation {ms(f - e)} | policy: index {ms(g - f)}, every other file {ms(h - g)} ms; "
      f"problems {sorted(pol.problems)}")
'''


def main() -> int:
    old = os.path.abspath(sys.argv[1])
    trees = {"before": old, "after": REPO}
    print("uptime before:", _uptime())
    if "--parts" in sys.argv:
        for name, tree in trees.items():
            for _ in range(3):
                out = subprocess.run([sys.executable, "-c", PARTS, PKG, tree], env=_env(tree), cwd=tree,
                                     capture_output=True, text=True)
                print(f"{name}: {out.stdout.strip() or out.stderr.strip()[-500:]}")
        print("uptime after:", _uptime())
        return 0
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    for tree in trees.values():  # warm the bytecode caches
        run(tree)
        run(tree)
    res: dict[str, list] = {k: [] for k in trees}
    for _ in range(runs):
        for name, tree in trees.items():
            res[name].append(run(tree))
    print("uptime after:", _uptime())
    for name, rows in res.items():
        walls, cpus = [r[0] for r in rows], [r[1] for r in rows]
        print(f"{name}: median wall {statistics.median(walls):.3f} s, median CPU {statistics.median(cpus):.3f} s, "
              f"least CPU {min(cpus):.3f} s, exit codes {sorted({r[2] for r in rows})}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
