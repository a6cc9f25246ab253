"""The MCP server: the two tools over stdio, with the official ``mcp`` SDK.

Each tool's ``_meta`` asks Claude Code to list it up front (``anthropic/alwaysLoad``): Claude Code
2.1.332 otherwise defers MCP tools behind its ``ToolSearch`` tool, and a model that has not
searched for them does not know they exist. Both tools are marked read-only (``readOnlyHint``):
neither changes the workspace.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from importlib.metadata import PackageNotFoundError, version
from typing import Annotated, Any

from mcp.server.mcpserver import Context, MCPServer
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field

from ._answers import Caller, ToolAnswer, advisor_answer, obligations_answer
from ._wording import ADVISOR, INSTRUCTIONS, OBLIGATIONS, QUESTION, SERVER_NAME

ALWAYS_LOAD = {"anthropic/alwaysLoad": True}
"""Claude Code's per-tool opt-out of deferring a tool behind its tool search."""


def _version() -> str:
    try:
        return version("witness")
    except PackageNotFoundError:  # run from a checkout that is not installed
        return "0"


def _result(answer: ToolAnswer) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=answer.text)], is_error=answer.is_error)


def _meta(ctx: Context) -> dict[str, object]:
    meta = ctx.request_context.meta
    return dict(meta) if meta else {}


def build_server(model_flags: Mapping[str, Any] | None = None) -> MCPServer:
    """The server, with the ``advisor`` and ``obligations`` tools; ``model_flags`` choose the advisor model
    over the environment and the configuration file (``model``, ``provider``, ``base_url``)."""
    flags = dict(model_flags or {})

    async def advisor(ctx: Context, question: Annotated[str | None, Field(description=QUESTION)] = None
                      ) -> CallToolResult:
        return _result(await advisor_answer(Caller.here(_meta(ctx)), question, model_flags=flags))

    async def obligations(ctx: Context) -> CallToolResult:
        return _result(await asyncio.to_thread(obligations_answer, Caller.here(_meta(ctx))))

    server: MCPServer = MCPServer(name=SERVER_NAME, version=_version(), instructions=INSTRUCTIONS,
                                  log_level="WARNING")
    read_only = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=False)
    server.add_tool(advisor, name="advisor", title="Ask witness's advisor", description=ADVISOR,
                    annotations=read_only, meta=ALWAYS_LOAD, structured_output=False)
    server.add_tool(obligations, name="obligations", title="Open verification obligations",
                    description=OBLIGATIONS, annotations=read_only, meta=ALWAYS_LOAD, structured_output=False)
    return server


def serve_mcp(model_flags: Mapping[str, Any] | None = None) -> None:
    """Serve on standard input and output until the client closes them."""
    build_server(model_flags).run("stdio")
