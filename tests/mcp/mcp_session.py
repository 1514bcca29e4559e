"""tests/mcp: the MCP server as a child process, driven by the SDK's own client over stdio (the SDK is in
the test extra: a missing one fails here, as CI must)."""
import contextlib
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VALID = os.path.join(REPO, "fixtures", "valid")


@contextlib.asynccontextmanager
async def server(cwd: str = REPO, roots: list[str] | None = None, mode: str = "auto"):
    """A connected Client of ``endpoints-checker mcp`` started in ``cwd``; ``roots``: directories the client
    declares (roots/list), None for a client without the roots capability."""
    import mcp_types as t
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    params = StdioServerParameters(command=sys.executable, args=["-m", "checker", "mcp"], cwd=cwd,
                                   # the suite's Week-0 source (tests/conftest.py: predicted) reaches the server too
                                   env={"PYTHONPATH": REPO, "ENDPOINTS_CHECKER_WEEK0": os.environ["ENDPOINTS_CHECKER_WEEK0"]})
    kw = {}
    if roots is not None:
        async def list_roots(_ctx):
            return t.ListRootsResult(roots=[t.Root(uri=f"file://{r}") for r in roots])

        kw["list_roots_callback"] = list_roots
    async with Client(params, mode=mode, read_timeout_seconds=120, **kw) as client:
        yield client


def run(coro_fn, *args):
    """Run an async test body (anyio, the SDK's own event-loop layer)."""
    import anyio

    return anyio.run(coro_fn, *args)


def server_rss_mb() -> float:
    """VmRSS of this process's child running ``checker mcp`` (the stdio client started it)."""
    me = str(os.getpid())
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as fh:
                if fh.read().rsplit(")", 1)[1].split()[1] != me:
                    continue
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                if b"mcp" not in fh.read():
                    continue
            with open(f"/proc/{pid}/status") as fh:
                return next(int(line.split()[1]) / 1024 for line in fh if line.startswith("VmRSS:"))
        except (OSError, IndexError, StopIteration):
            continue
    raise AssertionError("the server process was not found")
