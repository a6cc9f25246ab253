"""Which tool calls are consultations of an advisor (a reviewer model), in any host's transcript.

A consultation is neither evidence nor a mutation for the tracker, and the advisor's ledger
replays its advice as the advisor's own earlier turn.
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
