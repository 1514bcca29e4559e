"""The MCP server: the tools and resources of checker.mcp on the SDK's MCPServer, served over stdio.

Every tool is read-only and closed-world (readOnlyHint, openWorldHint false); each path argument is checked
against the client's roots (roots/list; the working directory when it declares none) before anything is
opened. Checks run one at a time in a worker thread, so the server keeps answering pings meanwhile.
"""
from __future__ import annotations

import functools
import gc
from typing import Annotated

import anyio
from mcp.server.mcpserver import Context, ListRoots, MCPServer, Resolve
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp_types import ListRootsResult, ToolAnnotations
from pydantic import Field, ValidationError

from checker.core.gate import FAIL_ON_HELP, fail_on_pattern
from checker.core.version import __version__
from checker.mcp import models, resources, tools
from checker.mcp.arguments import argument_problem
from checker.mcp.roots import PathRefused, roots_of

READ_ONLY = ToolAnnotations(readOnlyHint=True, openWorldHint=False, destructiveHint=False, idempotentHint=True)
INSTRUCTIONS = (
    "endpoints-checker checks MLPerf Endpoints submission packages, inference-endpoint run folders and client "
    "configs before the Week-0 automated check does. check_submission gives the verdicts and the problems, each "
    "with file:line:column, what was found, what the rules expect and how to fix it; explain_rule tells what a "
    "rule means. A failing package is a normal result. Paths must lie inside the client's roots.")

LevelList = Annotated[list[models.Level] | None, Field(
    description="levels of the findings to list: error, flag, warning (the default: every problem), skipped, passed")]
FailOn = Annotated[str | None, Field(
    description=f"what makes the verdict FAILED, as the command line's --fail-on (default: the project's "
                f"configuration file's, else flag): {FAIL_ON_HELP}",
    json_schema_extra={"pattern": fail_on_pattern()})]
MaxConcurrency = Annotated[int | None, Field(ge=1, description="C_max of the curve, when system_desc.json does not tell it")]
SeedSet = Annotated[str | None, Field(description="the seed set the run used (A, B, ... of the seed-set registry)")]
DatasetSize = Annotated[int | None, Field(ge=1, description="the performance dataset's size, when the model does not tell it")]


async def _client_roots(ctx: Context) -> ListRoots | None:
    """Ask the client for its roots when it declares the capability; None means the working directory."""
    caps = ctx.client_capabilities
    if caps is not None and caps.roots is not None:
        return ListRoots()
    return None


Roots = Annotated[ListRootsResult | None, Resolve(_client_roots)]

_lock: anyio.Lock | None = None


async def _call(fn, *args, **kwargs):
    """Run one tool function in a worker thread, one at a time; its refusals become tool errors."""
    global _lock
    if _lock is None:
        _lock = anyio.Lock()
    async with _lock:
        try:
            return await anyio.to_thread.run_sync(functools.partial(fn, *args, **kwargs))
        except (PathRefused, tools.ToolUsage) as exc:
            raise ToolError(str(exc)) from None


def _roots(result: ListRootsResult | None) -> list[str]:
    return roots_of([str(r.uri) for r in result.roots] if result is not None else None)


class _Server(MCPServer):
    """The SDK's server, with refused arguments told in our words (checker.mcp.arguments), not the validation
    library's text and links."""

    async def call_tool(self, name, arguments, context=None):
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            cause = exc.__cause__
            if isinstance(cause, ToolError) and not isinstance(exc, UnexpectedToolError):
                raise ToolError(f"{name}: {cause}") from None  # our refusal in our words, not the SDK's wrapper
            if isinstance(exc, UnexpectedToolError) or not isinstance(cause, ValidationError):
                raise
            raise ToolError(argument_problem(name, self._tool_input_schema(name), arguments or {},
                                             cause.errors(include_url=False))) from cause


def build() -> MCPServer:
    app = _Server("endpoints-checker", title="endpoints-checker", version=__version__, instructions=INSTRUCTIONS)

    @app.tool(title="Check a submission package", annotations=READ_ONLY)
    async def check_submission(
        path: Annotated[str, Field(description="a submission root (holding results/ and docs/), an organisation "
                                               "directory or a package, inside the client's roots")],
        select: Annotated[list[str] | None, Field(description="only these rule ids, families or id prefixes")] = None,
        ignore: Annotated[list[str] | None, Field(description="leave out these rule ids, families or id prefixes")] = None,
        fail_on: FailOn = None,
        levels: LevelList = None,
        max_findings: Annotated[int | None, Field(ge=0, description="list at most this many findings")] = None,
        roots: Roots = None,
    ) -> models.CheckResult:
        """Check a submission package as `endpoints-checker check PATH` does: the --fail-on verdict, the Week-0
        prediction, counts, and the findings at the asked levels (location, observed, expected, fix, fixable)."""
        return await _call(tools.check_submission, _roots(roots), path, select, ignore, fail_on, levels, max_findings)

    @app.tool(title="Check a run folder", annotations=READ_ONLY)
    async def check_run_folder(
        path: Annotated[str, Field(description="a run folder the inference-endpoint client wrote")],
        max_concurrency: MaxConcurrency = None,
        seed_set: SeedSet = None,
        dataset_size: DatasetSize = None,
        levels: LevelList = None,
        fail_on: FailOn = None,
        roots: Roots = None,
    ) -> models.CheckResult:
        """Check one run folder (its config, results and events log) before it becomes a point of a submission."""
        return await _call(tools.check_run_folder, _roots(roots), path, max_concurrency, seed_set, dataset_size,
                           levels, fail_on)

    @app.tool(title="Pre-flight client configs", annotations=READ_ONLY)
    async def preflight_config(
        path: Annotated[str, Field(description="a client config (.yaml) or a directory of them, before the runs")],
        max_concurrency: MaxConcurrency = None,
        seed_set: SeedSet = None,
        dataset_size: DatasetSize = None,
        levels: LevelList = None,
        fail_on: FailOn = None,
        roots: Roots = None,
    ) -> models.CheckResult:
        """Check inference-endpoint client configs against the binding run constraints before anything runs."""
        return await _call(tools.preflight_config, _roots(roots), path, max_concurrency, seed_set, dataset_size,
                           levels, fail_on)

    @app.tool(title="Explain a rule", annotations=READ_ONLY)
    async def explain_rule(
        rule_id: Annotated[str, Field(description="a rule id, as findings name it (e.g. seed-runtime-match)")],
    ) -> models.RuleExplanation:
        """What a rule checks, why, how to fix a FAIL, where it lives, its policy files and examples."""
        return await _call(tools.explain_rule, rule_id)

    @app.tool(title="List the rules", annotations=READ_ONLY)
    async def list_rules(
        family: Annotated[str | None, Field(description="only this family's rules (e.g. power, seeds)")] = None,
    ) -> models.RuleList:
        """Every rule (or one family's): id, title, family, severity, scope, clause, official id or not."""
        return await _call(tools.list_rules, family)

    @app.tool(title="Compute the R§5.5 regions", annotations=READ_ONLY)
    async def compute_regions(
        max_concurrency: Annotated[int, Field(description="C_max of the curve (greater than 32)")],
        c_min_override: Annotated[int | None, Field(description="C_min (1..32); default 32")] = None,
    ) -> models.RegionsResult:
        """The concurrency regions (low latency, low, medium, high, margin) for C_max and C_min, as the reference
        computes them."""
        return await _call(tools.compute_regions, max_concurrency, c_min_override)

    @app.tool(title="Draft a point.yaml", annotations=READ_ONLY)
    async def draft_point(
        run_folder: Annotated[str, Field(description="a run folder the inference-endpoint client wrote")],
        max_concurrency: MaxConcurrency = None,
        dataset_size: DatasetSize = None,
        roots: Roots = None,
    ) -> models.DraftResult:
        """The point.yaml text `endpoints-checker draft` would write for a run folder, written nowhere: each value
        says where it comes from, each <FILL: ...> is a disclosure only the submitter makes."""
        return await _call(tools.draft_point, _roots(roots), run_folder, max_concurrency, dataset_size)

    _add_resources(app)
    return app


def _add_resources(app: MCPServer) -> None:
    app.resource(f"{resources.SCHEME}://rules", name="rules", title="Rule catalogue", mime_type="application/json",
                 description="every rule and family of this endpoints-checker")(resources.catalogue_json)
    app.resource(f"{resources.SCHEME}://policy", name="policy", title="Policy edition in use",
                 mime_type="application/json",
                 description="the policy edition and version checks use, with the text of each policy file")(
        resources.policy_json)
    for rel in resources.schema_files():
        app.resource(resources.schema_uri(rel), name=f"schema {rel}", title=f"JSON Schema {rel}",
                     mime_type="application/schema+json", description=f"schemas/{rel}")(
            functools.partial(resources.schema_text, rel))


#: Python's own collector thresholds. ``check`` raises them for one short process (checker.cli.check_command,
#: imported with the command line); a server that checks call after call must collect its cycles as it goes, or
#: it grows by about 0.15 MB a call on the 32-point package (bench/mcp_bench.py: +114 MB over 1,000 calls).
GC_THRESHOLDS = (700, 10, 10)


def main() -> None:
    """Serve over stdio until the client closes the connection."""
    gc.set_threshold(*GC_THRESHOLDS)
    build().run("stdio")
