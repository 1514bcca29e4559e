"""Benchmark the events.jsonl audit against a bare msgspec decode loop, on a generated 1 GB log.

    python bench/events_bench.py [--size-mb 1024] [--dir DIR] [--keep]

Generates a log shaped like the client's (RUN-FOLDER.md §1.4: concurrency 64, stream_all_chunks,
20 intermediate chunks per sample, a salted warmup), then runs, each in a fresh process (so peak
RSS is per measurement):

- ``bare-lines``: ``for line in file: decoder.decode(line)`` with a Struct of event_type,
  timestamp_ns and sample_uuid (the baseline the issue names);
- ``bare-chunks``: the same Struct decoded a 4 MB chunk at a time with ``decode_lines`` (the
  fastest bare msgspec loop; our audit reads the log this way);
- ``audit``: ``checker.load.events.audit_events``.

Times are CPU seconds of the measuring process (robust against other load on the machine; one
core, no threads). Prints MB/s, the audit's throughput as a fraction of each baseline, and the audit's extra peak
memory per tracked sample (audit peak RSS minus each baseline's, divided by the samples), and
the audit's peak Python heap under tracemalloc (a separate, slower run) per tracked sample.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def generate(path: str, size_mb: int, concurrency: int = 64, chunks: int = 20, warmup: int = 256) -> int:
    """Write a client-shaped events.jsonl of about ``size_mb`` MB; return the tracked sample count."""
    target = size_mb << 20
    ts = 1_000_000_000
    out = []
    written = 0
    n = 0

    def ev(kind, uuid="", data="null", extra=""):
        nonlocal ts
        ts += 997
        return (f'{{"event_type":"{kind}","timestamp_ns":{ts},"sample_uuid":"{uuid}","conversation_id":"",'
                f'"turn":null,"data":{data}{extra}}}\n')

    def prompt(i, salt=None):
        text = f"Summarize the following article about topic {i % 13368} in three sentences, please."
        if salt is not None:
            text = f"[{salt:016x}] {text}"
        return f'["PromptData",{json.dumps(text)},null,null,null,null,null,null]'

    with open(path, "w", encoding="utf-8") as fh:
        fh.write(ev("session.started"))
        for w in range(warmup):
            u = f"{w:032x}"
            fh.write(ev("sample.issued", u, prompt(w, salt=w * 7919 + 1)))
            fh.write(ev("sample.recv_first", u))
        fh.write(ev("session.start_performance_tracking"))
        active = []
        seq = 1 << 100
        output = json.dumps(["lorem ipsum dolor sit amet " * 3] * (chunks + 1))
        while written < target:
            while len(active) < concurrency:
                u = f"{seq:032x}"
                seq += 1
                out.append(ev("sample.issued", u, prompt(seq)))
                active.append([u, 0])
                n += 1
            for slot in active:
                u, k = slot
                if k == 0:
                    out.append(ev("sample.recv_first", u))
                elif k <= chunks:
                    out.append(ev("sample.recv_non_first", u))
                else:
                    out.append(ev("sample.complete", u, f'["TextModelOutput",{output},null,null]',
                                  ',"finish_reason":"stop","worker_id":0'))
                slot[1] = k + 1
            active = [s for s in active if s[1] <= chunks + 1]
            if len(out) > 20000:
                block = "".join(out)
                fh.write(block)
                written += len(block)
                out = []
        fh.write("".join(out))
        # drain what is in flight, then stop tracking
        for u, k in active:
            for j in range(k, chunks + 2):
                fh.write(ev("sample.recv_first" if j == 0 else "sample.recv_non_first" if j <= chunks else
                            "sample.complete", u, "null" if j <= chunks else
                            f'["TextModelOutput",{output},null,null]'))
        fh.write(ev("session.stop_performance_tracking"))
        fh.write(ev("session.ended"))
    return n


_BARE_LINES = """
import msgspec, sys
class E(msgspec.Struct):
    event_type: str
    timestamp_ns: int
    sample_uuid: str = ""
dec = msgspec.json.Decoder(E)
n = 0
with open(sys.argv[1], "rb") as fh:
    for line in fh:
        dec.decode(line)
        n += 1
print(n)
"""

_BARE_CHUNKS = """
import msgspec, sys
class E(msgspec.Struct):
    event_type: str
    timestamp_ns: int
    sample_uuid: str = ""
dec = msgspec.json.Decoder(E)
n = 0
rest = b""
with open(sys.argv[1], "rb", buffering=0) as fh:
    while True:
        chunk = fh.read(4 << 20)
        if not chunk:
            break
        buf = rest + chunk
        cut = buf.rfind(b"\\n") + 1
        rest = buf[cut:]
        n += len(dec.decode_lines(buf[:cut]))
print(n)
"""

_AUDIT = """
import sys
sys.path.insert(0, sys.argv[2])
from checker.load.events import audit_events
a = audit_events(sys.argv[1])
assert a.error is None and not a.problems, (a.error, a.problems)
print(a.lines, a.issued, a.completed)
"""

_TRACED = """
import sys, tracemalloc
sys.path.insert(0, sys.argv[2])
from checker.load.events import audit_events
tracemalloc.start()
a = audit_events(sys.argv[1])
cur, peak = tracemalloc.get_traced_memory()
print(peak)
"""

_WRAP = """
import resource, runpy, sys, time
code = sys.argv.pop(1)
t = time.process_time()
exec(compile(code, "bench", "exec"), {"__name__": "__main__"})
dt = time.process_time() - t
print("SECONDS", dt)
print("MAXRSS_KB", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def measure(name: str, code: str, path: str) -> dict:
    proc = subprocess.run([sys.executable, "-c", _WRAP, code, path, REPO], capture_output=True, text=True, check=True)
    lines = proc.stdout.strip().splitlines()
    secs = float(next(x for x in lines if x.startswith("SECONDS")).split()[1])
    rss = int(next(x for x in lines if x.startswith("MAXRSS_KB")).split()[1]) * 1024
    return {"name": name, "seconds": secs, "rss": rss, "out": lines[0]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size-mb", type=int, default=1024)
    ap.add_argument("--dir", default=None, help="where to write the generated log (default: a temp dir)")
    ap.add_argument("--keep", action="store_true", help="keep the generated log")
    ap.add_argument("--repeat", type=int, default=3, help="best of N runs per measurement")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="events-bench-", dir=args.dir)
    path = os.path.join(tmp, "events.jsonl")
    t = time.perf_counter()
    samples = generate(path, args.size_mb)
    size = os.path.getsize(path)
    print(f"generated {size / 1e6:.0f} MB, {samples} tracked samples in {time.perf_counter() - t:.1f} s: {path}")
    try:
        results = {}
        for _ in range(args.repeat):  # interleaved, best of N: fair against a noisy machine
            for name, code in (("bare-lines", _BARE_LINES), ("bare-chunks", _BARE_CHUNKS), ("audit", _AUDIT)):
                r = measure(name, code, path)
                best = results.get(name)
                if best is None or r["seconds"] < best["seconds"]:
                    results[name] = r
        traced = int(measure("traced", _TRACED, path)["out"])
        for r in results.values():
            print(f"{r['name']:<12} {r['seconds']:7.2f} s  {size / 1e6 / r['seconds']:7.1f} MB/s  "
                  f"peak RSS {r['rss'] / 1e6:6.1f} MB")
        a = results["audit"]["seconds"]
        for base in ("bare-lines", "bare-chunks"):
            print(f"audit throughput = {results[base]['seconds'] / a * 100:.0f} % of {base}")
        for base in ("bare-lines", "bare-chunks"):
            extra = results["audit"]["rss"] - results[base]["rss"]
            print(f"audit extra peak memory over {base}: {extra / 1e6:.1f} MB = {extra / samples:.0f} bytes per "
                  "tracked sample")
        print(f"audit peak Python heap (tracemalloc, chunk buffers included): {traced / 1e6:.1f} MB = "
              f"{traced / samples:.0f} bytes per tracked sample")
    finally:
        if not args.keep:
            os.unlink(path)
            os.rmdir(tmp)


if __name__ == "__main__":
    main()
