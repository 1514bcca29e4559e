"""The official checker's side of the Week-0 run: a process that imports it once and checks many submissions.

Run as a script (``python child.py MEMORY_BYTES``) by the interpreter of an environment holding
``endpoints-submission-cli`` (ours, or a configured virtual environment): it imports the standard library
and the official ``submission_checker`` package only, never this project. It calls the official's library
entry point, ``SubmissionChecker(path).run()``, which is what both of its command lines run (they also ask
PyPI for a newer version, which is why they are never used).

Protocol: one JSON line out when the import is done (``{"ready": true, "version": ...}``, or ``false``
with the error), then one JSON line in per submission (``{"id", "path", "seed_sets", "approved_drafters"}``)
and one out (``{"id", "errors": [...], "crash": null | "Type: message", "kind", "network": [...]}``).
Guards, all here because the official has none (OFFICIAL-CHECKER.md §6.1):
- memory: RLIMIT_AS caps the address space, so a YAML alias bomb in a typed field ends in MemoryError
  (reported, then this process exits so that the next submission gets a fresh one);
- network: an audit hook refuses every socket connect, name lookup and new process, and records each
  attempt in the answer (a test proves the official never tries);
- time: the parent kills this process when a submission takes too long (a FIFO blocks forever in the
  official's read); a watchdog thread ends it when the parent is gone.
"""
from __future__ import annotations

import json
import os
import sys
import threading
import time

#: audit events that reach the network or start another program: refused and recorded
REFUSED_EVENTS = ("socket.connect", "socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyaddr",
                  "socket.sendto", "socket.sendmsg", "subprocess.Popen", "os.system", "os.exec", "os.posix_spawn",
                  "os.spawn", "os.fork", "os.forkpty")
_ATTEMPTS: list[str] = []


class NetworkRefused(PermissionError):
    """Raised inside the official where it tried to reach the network or start a program."""


def _audit(event: str, args: tuple) -> None:
    if event in REFUSED_EVENTS:
        what = f"{event} {args[1:2] if event.startswith('socket.') else args[:1]!r}"[:200]
        _ATTEMPTS.append(what)
        raise NetworkRefused(f"refused by endpoints-checker: {what}")


def _cap_memory(limit: int) -> None:
    if limit > 0:
        import resource

        try:
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        except (ValueError, OSError):
            pass  # a hard limit below ours already caps it


def _watch_parent(parent: int) -> None:
    """End this process when the parent that started it is gone (it may be blocked inside the official)."""
    while True:
        time.sleep(0.5)
        if os.getppid() != parent:
            os._exit(3)


def _say(obj: dict) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=True) + "\n")
    sys.stdout.flush()


def _text(exc: BaseException) -> str:
    first = str(exc).splitlines()[0][:300] if str(exc) else ""
    return f"{type(exc).__name__}: {first}" if first else type(exc).__name__


def _check(checker_cls, req: dict) -> dict:
    from pathlib import Path

    out = {"id": req.get("id"), "errors": [], "crash": None, "kind": None, "network": []}
    start = time.monotonic()
    try:
        kw = {k: Path(req[k]) for k in ("seed_sets", "approved_drafters") if req.get(k)}
        report = checker_cls(Path(req["path"]), seed_sets_path=kw.get("seed_sets"),
                             approved_drafters_path=kw.get("approved_drafters")).run()
        for r in report.errors:
            out["errors"].append({"rule": str(r.rule), "message": str(r.message),
                                  "path": str(r.path) if r.path is not None else "",
                                  "fix": str(r.fix) if getattr(r, "fix", None) else ""})
    except MemoryError:
        out["errors"], out["crash"], out["kind"] = [], "MemoryError: the check outgrew its memory cap", "memory"
    except BaseException as exc:  # noqa: BLE001 - any exception is the official's crash (its CLI exits 1)
        out["errors"], out["crash"], out["kind"] = [], _text(exc), "crash"
    out["network"], out["seconds"] = list(_ATTEMPTS), round(time.monotonic() - start, 3)
    _ATTEMPTS.clear()
    return out


def main(argv: list[str]) -> int:
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != here]  # this project's modules stay unseen
    _cap_memory(int(argv[0]) if argv else 0)
    threading.Thread(target=_watch_parent, args=(os.getppid(),), daemon=True).start()
    sys.addaudithook(_audit)
    try:
        from importlib import metadata

        from submission_checker import SubmissionChecker

        version = metadata.version("endpoints-submission-cli")
    except BaseException as exc:  # noqa: BLE001 - not installed, or broken: the parent falls back or says so
        _say({"ready": False, "error": _text(exc)})
        return 0
    _say({"ready": True, "version": version, "python": sys.executable})
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            req = json.loads(line)
        except ValueError:
            continue
        answer = _check(SubmissionChecker, req)
        _say(answer)
        if answer["kind"] == "memory":
            return 0  # whatever the blow-up left behind is not the next submission's
    return 0


if __name__ == "__main__":
    code = main(sys.argv[1:])
    sys.stdout.flush()
    os._exit(code)  # every answer is written: no interpreter teardown of the official's modules
