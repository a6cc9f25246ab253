"""Which tool calls are consultations of an advisor (a reviewer model), in any host's transcript.

A consultation is neither evidence nor a mutation for the tracker, and the advisor's ledger
replays its advice as the advisor's own earlier turn. Reading the open obligations through
witness's MCP tool (``mcp__witness__obligations``) is neither either: it changes nothing.
"""

from __future__ import annotations

ADVISOR_TOOLS = frozenset({"advisor", "witness_advisor"})
"""Tool names that are advisor consultations (lower case): Pi's and Claude Code's ``advisor``
(a server tool there), and witness's own."""


def is_advisor_tool(name: str) -> bool:
    """Whether a call of ``name`` consults an advisor: ``advisor``, ``witness_advisor``, or an MCP
    tool whose name ends in ``advisor`` (``mcp__witness__advisor``, ``mcp__team__consult_advisor``)."""
    return advisor_named(name.lower())


def advisor_named(lowered: str) -> bool:
    """:func:`is_advisor_tool` for a name already in lower case."""
    return lowered in ADVISOR_TOOLS or (lowered.endswith("advisor") and lowered.startswith("mcp"))


def obligations_named(lowered: str) -> bool:
    """Whether a call of ``lowered`` (a name in lower case) reads the open obligations: an MCP tool
    whose name ends in ``obligations`` (``mcp__witness__obligations``, as Claude Code names it and
    witness reads Codex's namespaced call)."""
    return lowered.startswith("mcp") and lowered.endswith("obligations")
