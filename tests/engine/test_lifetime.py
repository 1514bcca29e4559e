"""Worker lifetime (checker.engine.lifetime): a child dies with the process that started it, by the kernel's
parent-death signal or, where that is not offered, by watching its parent's pid; the reusable pieces other
children (a command run per submission) use."""
import os
import signal
import subprocess
import sys
import textwrap
import time

from casefixtures import REPO

from checker.engine import lifetime


def _gone(pid: int, within: float = 5.0) -> bool:
    """``pid`` has ended (a zombie waiting for its reaper counts as ended)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat") as fh:
                if fh.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return True
        except OSError:
            return True
        time.sleep(0.05)
    return False


def _orphan(child_code: str) -> int:
    """Start a parent that starts a child running ``child_code`` and is then SIGKILLed; the child's pid."""
    parent_code = textwrap.dedent(f"""
        import os, subprocess, sys, time
        sys.path.insert(0, {REPO!r})
        from checker.engine import lifetime
        child = subprocess.Popen([sys.executable, "-c", {child_code!r}], **KW)
        print(child.pid, flush=True)
        time.sleep(60)
    """)
    return parent_code


def _run_parent(kw: str, child_code: str) -> int:
    code = _orphan(child_code).replace("**KW", kw)
    parent = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    pid = int(parent.stdout.readline())
    time.sleep(0.8)  # the child has bound itself to its parent
    assert not _gone(pid, 0.1)
    parent.kill()
    parent.wait()
    return pid


def test_a_command_started_with_die_with_parent_is_killed_with_its_parent():
    pid = _run_parent("preexec_fn=lifetime.die_with_parent()", "import time; time.sleep(60)")
    try:
        assert _gone(pid)
    finally:
        _kill(pid)


def test_the_portable_fallback_watches_the_parent_pid():
    child = textwrap.dedent(f"""
        import sys, time
        sys.path.insert(0, {REPO!r})
        from checker.engine import lifetime
        lifetime._prctl_fn = False  # as where the kernel offers no parent-death signal
        lifetime.bind_to_parent(watch=0.1)
        time.sleep(60)
    """)
    pid = _run_parent("", child)
    try:
        assert _gone(pid, 3.0)
    finally:
        _kill(pid)


def test_pool_workers_ignore_ctrl_c_and_die_with_the_parent():
    with lifetime.process_pool(2) as pool:
        pids = set(pool.map(_pid_and_handlers, range(4)))
    for pid, sigint, sigterm in pids:
        assert sigint == signal.SIG_IGN and sigterm == signal.SIG_DFL


def _pid_and_handlers(_):
    time.sleep(0.05)
    return os.getpid(), signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)


def test_an_abandoned_pool_kills_its_workers_and_cancels_the_queue():
    t0 = time.monotonic()
    try:
        with lifetime.process_pool(2) as pool:
            futures = [pool.submit(time.sleep, 5) for _ in range(8)]
            time.sleep(0.5)
            pids = list(pool._processes)
            raise KeyboardInterrupt
    except KeyboardInterrupt:
        pass
    assert time.monotonic() - t0 < 3.0
    assert all(_gone(pid, 1.0) for pid in pids)
    assert sum(f.cancelled() for f in futures) >= 4  # all but those running and the one the pool pre-queued


def test_owned_kills_its_child_when_the_block_is_left_by_an_exception():
    proc = subprocess.Popen(["sleep", "60"])
    try:
        with lifetime.owned(proc):
            raise KeyboardInterrupt
    except KeyboardInterrupt:
        pass
    assert proc.poll() == -signal.SIGKILL


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass
