"""MCP server: consecutive check_submission calls on the 32-point package, one long-running server.

Builds the 32-point curve (fixtures/make_valid.py, ``build(root, spread_points(32))``) in a temporary
directory, starts ``endpoints-checker mcp`` as a child and talks to it with the MCP SDK's own stdio client:
a warm-up of 20 calls, then N more (1,000 by default). Prints the server's RSS (VmRSS of the child,
/proc) after the warm-up and after the N calls, and the median and p90 call time (the client's round
trip: request, check, structured result). Fails when the server grew by more than the bound.

    python bench/mcp_bench.py                  # 1,000 calls
    BENCH_MCP_CALLS=200 python bench/mcp_bench.py

Target (issue 27): no growth beyond a small bound (here 32 MB) over 1,000 calls.
"""
from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(REPO, "fixtures"))

CALLS = int(os.environ.get("BENCH_MCP_CALLS", "1000"))
WARMUP = 20
BOUND_MB = 32.0


def _children_rss_mb(marker: str = "mcp") -> float:
    """VmRSS of this process's child running the server (the stdio client starts it)."""
    me = str(os.getpid())
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as fh:
                ppid = fh.read().rsplit(")", 1)[1].split()[1]
            if ppid != me:
                continue
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                if marker.encode() not in fh.read():
                    continue
            with open(f"/proc/{pid}/status") as fh:
                for line in fh:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1]) / 1024
        except (OSError, IndexError):
            continue
    raise RuntimeError("the server process was not found")


async def _bench(path: str) -> dict:
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    params = StdioServerParameters(command=sys.executable, args=["-m", "checker", "mcp"], cwd=os.path.dirname(path),
                                   env={"PYTHONPATH": REPO})
    times: list[float] = []
    samples: list[tuple[int, float]] = []
    async with Client(params, read_timeout_seconds=300) as client:
        first = None
        for i in range(WARMUP + CALLS):
            if i == WARMUP:
                before = _children_rss_mb()
            t0 = time.perf_counter()
            res = await client.call_tool("check_submission", {"path": path})
            dt = time.perf_counter() - t0
            if res.is_error:
                raise RuntimeError(res.content)
            first = first or res.structured_content
            if i >= WARMUP:
                times.append(dt)
                if (i - WARMUP + 1) % 100 == 0:
                    samples.append((i - WARMUP + 1, _children_rss_mb()))
        after = _children_rss_mb()
    return {"before": before, "after": after, "times": times, "first": first, "samples": samples}


def main() -> int:
    import anyio

    import make_valid

    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.join(tmp, "sub-32")
        make_valid.build(root, make_valid.spread_points(32))
        print(f"MCP check_submission on the 32-point package: {WARMUP} warm-up calls, then {CALLS}", flush=True)
        t0 = time.perf_counter()
        out = anyio.run(_bench, root)
        wall = time.perf_counter() - t0
    times = sorted(out["times"])
    grew = out["after"] - out["before"]
    print(f"verdict {out['first']['verdict']}, {out['first']['counts']['total']} findings per call")
    print(f"call time: median {statistics.median(times) * 1000:.0f} ms, p90 {times[int(0.9 * (len(times) - 1))] * 1000:.0f} ms, "
          f"min {times[0] * 1000:.0f} ms, max {times[-1] * 1000:.0f} ms ({wall:.0f} s in all)")
    print(f"server RSS: {out['before']:.1f} MB after the warm-up, {out['after']:.1f} MB after {CALLS} calls "
          f"({grew:+.1f} MB; bound {BOUND_MB:.0f} MB)")
    if out["samples"]:
        print("server RSS every 100 calls: " + ", ".join(f"{n}: {mb:.1f}" for n, mb in out["samples"]))
    if grew > BOUND_MB:
        print("FAILED: the server grew beyond the bound", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
