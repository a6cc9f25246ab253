"""``witness mcp``: the advisor and the open verification obligations as MCP tools (stdio).

Claude Code and Codex start the server and call its tools as the executor decides:

- ``advisor`` (optional ``question``) consults the advisor on the live session's ledger and answers
  with the verdict line and the advice;
- ``obligations`` lists the session's open obligations and what would close each.

The calling session is found from what the host sends with each call (:mod:`advisor.hosts`); when
it cannot be told, the answer says so and uses no session's transcript. Needs the ``mcp`` extra
(the official ``mcp`` SDK).
"""

from advisor.mcp._answers import Caller, ToolAnswer, advisor_answer, listing, obligations_answer
from advisor.mcp._server import ALWAYS_LOAD, build_server, serve_mcp
from advisor.mcp._wording import ADVISOR, INSTRUCTIONS, OBLIGATIONS, QUESTION, SERVER_NAME, UNKNOWN_SESSION

__all__ = [
    "ADVISOR",
    "ALWAYS_LOAD",
    "INSTRUCTIONS",
    "OBLIGATIONS",
    "QUESTION",
    "SERVER_NAME",
    "UNKNOWN_SESSION",
    "Caller",
    "ToolAnswer",
    "advisor_answer",
    "build_server",
    "listing",
    "obligations_answer",
    "serve_mcp",
]
