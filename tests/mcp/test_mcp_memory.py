"""A long-running server answers call after call without growing: fifty check_submission calls after a
warm-up stay within a loose bound (bench/mcp_bench.py holds the small bound over 1,000 calls)."""
import pytest

from mcp_session import VALID, run, server, server_rss_mb

pytestmark = pytest.mark.slow  # the whole module (a subprocess, a server, a browser or a large input)


def test_fifty_calls_keep_the_server_flat():
    async def body():
        async with server() as client:
            for _ in range(10):
                await client.call_tool("check_submission", {"path": VALID})
            before = server_rss_mb()
            verdicts = set()
            for _ in range(50):
                res = await client.call_tool("check_submission", {"path": VALID, "levels": ["passed"]})
                verdicts.add((res.is_error, res.structured_content["verdict"], len(res.structured_content["findings"])))
            return before, server_rss_mb(), verdicts

    before, after, verdicts = run(body)
    assert len(verdicts) == 1 and next(iter(verdicts))[:2] == (False, "PASSED")
    assert after - before < 32, (before, after)
