"""Drive the checker as a real process through what a machine does to it (issue 38): signals to the parent,
its workers, temporary files caught in the act, processes left behind.

Each run starts in a session of its own, so whatever it leaves alive is found by session id (zombies, dead
processes waiting for a reaper that the container's init may never be, are not alive).
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time

from casefixtures import FIXTURES, REPO

VALID = os.path.join(FIXTURES, "valid")
CURVE = "results/H200-SXM-141GBx8_TRT/llama3_1-8b"


def command(*args) -> list[str]:
    return [sys.executable, "-m", "checker", *args]


def start(args, stdout=subprocess.DEVNULL, **kw) -> subprocess.Popen:
    env = dict(os.environ)
    env.pop("NO_COLOR", None)
    return subprocess.Popen(command(*args), stdout=stdout, stderr=subprocess.PIPE, start_new_session=True,
                            cwd=REPO, env=env, **kw)


def _processes():
    """(pid, state, parent pid, session id) of every process, from /proc."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        yield int(entry), fields[0], int(fields[1]), int(fields[3])


def children(pid: int) -> list[int]:
    """Live (not zombie) child processes of ``pid``."""
    return [p for p, state, ppid, _sid in _processes() if ppid == pid and state != "Z"]


def alive_in_session(sid: int) -> list[int]:
    """Processes of session ``sid`` still running (zombies excluded)."""
    return [p for p, state, _ppid, s in _processes() if s == sid and state != "Z"]


def wait_for(predicate, proc: subprocess.Popen, timeout: float = 60.0, every: float = 0.0005):
    """Poll ``predicate()`` until it returns something true (returned) or ``proc`` ends (None)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = predicate()
        if got:
            return got
        if proc.poll() is not None:
            return None
        time.sleep(every)
    raise AssertionError(f"nothing happened within {timeout} s")


def finish(proc: subprocess.Popen, timeout: float = 30.0) -> tuple[int, str, float]:
    """``communicate`` as a caller would (it hangs while any process holds stderr open): (exit code, stderr,
    seconds it took)."""
    t0 = time.monotonic()
    try:
        _out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        kill_session(proc.pid)
        raise AssertionError(f"communicate() still waiting after {timeout} s: a process holds stderr open")
    return proc.returncode, err.decode(errors="replace"), time.monotonic() - t0


def kill_session(sid: int) -> None:
    for pid in alive_in_session(sid):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def cohort(root, subs: int, name: str = "cohort") -> str:
    """``subs`` copies of fixtures/valid under ``root/name/org<k>/sub<i>``."""
    path = os.path.join(str(root), name)
    for i in range(subs):
        shutil.copytree(VALID, os.path.join(path, f"org{i % 3}", f"sub{i:02d}"))
    return path


def spoil_for_fix(package: str) -> list[str]:
    """Give every point.yaml under ``package`` a certain fix (concurrency written as an integral float);
    the files' paths."""
    files = []
    for d, _dirs, names in os.walk(package):
        if "point.yaml" in names:
            path = os.path.join(d, "point.yaml")
            with open(path) as fh:
                text = fh.read()
            n = os.path.basename(d)[1:]
            fixed = text.replace(f"concurrency: {n}\n", f"concurrency: {n}.0\n", 1)
            assert fixed != text, path
            with open(path, "w") as fh:
                fh.write(fixed)
            files.append(path)
    return sorted(files)


def temporaries(root, suffix: str) -> list[str]:
    """Every file or folder under ``root`` whose name ends with ``suffix`` (ours: .part, .fix-tmp)."""
    found = []
    for d, dirs, names in os.walk(str(root)):
        found += [os.path.join(d, n) for n in names + dirs if n.endswith(suffix)]
    return found


def written_temporaries(root, suffix: str) -> list[str]:
    """``temporaries`` that hold something already (a file with bytes, a folder with entries)."""
    found = []
    for path in temporaries(root, suffix):
        try:
            if os.listdir(path) if os.path.isdir(path) else os.path.getsize(path):
                found.append(path)
        except OSError:  # gone meanwhile
            pass
    return found


def handles_sigterm(pid: int) -> bool:
    """Has ``pid`` installed its own SIGTERM handler (Python catches SIGINT from the start, SIGTERM only when
    told): the check has started, past the interpreter's start-up and the command line's parsing."""
    try:
        with open(f"/proc/{pid}/status") as fh:
            caught = [ln.split()[1] for ln in fh if ln.startswith("SigCgt:")]
    except OSError:
        return False
    return bool(caught) and bool(int(caught[0], 16) & (1 << (signal.SIGTERM - 1)))
