"""The language server: time from a change of the buffer to its published diagnostics, and memory over a
long session.

Builds a 32-point package (fixtures/make_valid.py) in a temporary directory, starts ``python -m checker
lsp`` as an editor would (stdio) and opens one point.yaml. Then:

- latency: LSP_BENCH_EDITS (200) edits, each a new buffer (alternately `concurrency: 8.0`, a value-spelling
  warning, and `concurrency: 8`, none), each timed from the didChange sent to the publishDiagnostics of
  that version received; median and p95. Each edit waits for its diagnostics, so every one is checked
  (no debounce in play: an edit that finds the server idle is checked at once). Target (issue 26):
  median under 300 ms.
- memory: LSP_BENCH_MEMORY_EDITS (3,000) more edits the same way, the server's resident memory
  (/proc/<pid>/status VmRSS) every 100 edits; flat means the second half of the samples grows by at most
  3 % (the first edits warm caches and the allocator: a server that keeps growing grows there too).
"""
from __future__ import annotations

import asyncio
import os
import shutil
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(REPO, "fixtures"))
EDITS = int(os.environ.get("LSP_BENCH_EDITS", "200"))
MEMORY_EDITS = int(os.environ.get("LSP_BENCH_MEMORY_EDITS", "3000"))


def rss_kb(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as fh:
            return next((int(line.split()[1]) for line in fh if line.startswith("VmRSS:")), None)
    except OSError:
        return None


async def session(root: str) -> dict:
    from lsprotocol import types
    from pygls.lsp.client import LanguageClient
    from pygls.uris import from_fs_path

    client = LanguageClient("lsp-bench", "1")
    published: dict[int, float] = {}
    arrived = asyncio.Event()

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_publish(params: types.PublishDiagnosticsParams):
        if params.uri == uri and params.version is not None:
            published[params.version] = time.perf_counter()
            arrived.set()

    path = os.path.join(root, "results", "H200-SXM-141GBx8_TRT", "llama3_1-8b", "r8", "point.yaml")
    uri = from_fs_path(path)
    text = open(path, encoding="utf-8").read()
    env = {**os.environ, "PYTHONPATH": REPO}
    await client.start_io(sys.executable, "-m", "checker", "lsp", env=env)
    pid = client._server.pid
    await client.initialize_async(types.InitializeParams(capabilities=types.ClientCapabilities()))
    client.initialized(types.InitializedParams())
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=text)))
    await wait_for(published, arrived, 1)

    version = 1
    latencies = []
    samples = []

    async def edit() -> float:
        nonlocal version
        version += 1
        body = text.replace("concurrency: 8\n", "concurrency: 8.0\n", 1) if version % 2 else text
        sent = time.perf_counter()
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=body + f"# edit {version}\n")]))
        await wait_for(published, arrived, version)
        return published.pop(version) - sent

    for _ in range(EDITS):
        latencies.append(await edit())
    for i in range(1, MEMORY_EDITS + 1):
        await edit()
        if i % 100 == 0:
            samples.append((i, rss_kb(pid)))
    stats = await client.workspace_execute_command_async(types.ExecuteCommandParams(command="endpointsChecker.stats"))
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return {"latencies": latencies, "rss": samples, "stats": stats}


async def wait_for(published: dict, arrived: asyncio.Event, version: int, timeout: float = 120.0) -> None:
    end = time.perf_counter() + timeout
    while version not in published:
        arrived.clear()
        left = end - time.perf_counter()
        if left <= 0:
            raise TimeoutError(f"no diagnostics for version {version} within {timeout} s")
        try:
            await asyncio.wait_for(arrived.wait(), left)
        except asyncio.TimeoutError:
            pass


def main() -> int:
    import make_valid

    tmp = tempfile.mkdtemp(prefix="ec-lsp-bench-")
    try:
        root = os.path.join(tmp, "sub-32")
        make_valid.build(root, make_valid.spread_points(32))
        out = asyncio.run(session(root))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    lat = sorted(out["latencies"])
    med = statistics.median(lat)
    p95 = lat[min(len(lat) - 1, int(round(0.95 * (len(lat) - 1))))]
    print(f"lsp: change -> published diagnostics, 32-point package, {len(lat)} edits: "
          f"median {med * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms (target: median < 300 ms)"
          f"  [load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores]")
    rss = out["rss"]
    if rss:
        print("lsp: server RSS over " + f"{MEMORY_EDITS} more edits (MB): " +
              ", ".join(f"{i}: {kb / 1024:.0f}" for i, kb in rss if kb))
        first, mid, last = rss[0][1], rss[len(rss) // 2][1], rss[-1][1]
        if first and mid and last:
            print(f"lsp: memory {'flat' if last <= mid * 1.03 else 'GROWING'} over the second half: "
                  f"{first / 1024:.0f} MB after 100 edits, {mid / 1024:.0f} MB after {rss[len(rss) // 2][0]}, "
                  f"{last / 1024:.0f} MB after {rss[-1][0]}")
    print(f"lsp: server counters {out['stats']}")
    return 0 if med < 0.300 else 1


if __name__ == "__main__":
    sys.exit(main())
