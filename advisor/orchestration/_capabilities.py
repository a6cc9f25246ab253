"""What each tool can do, as far as the advisor's permissions are concerned — a table of rows.

Only read-only tools are granted by default. Delegation tools and the consult tool are reserved:
no policy can grant them to an advisor (an advisor that could spawn agents or consult itself
would escape every budget and ceiling). The verdict channel and the ledger expander are the
advisor's own internal channels: always declared, authorising nothing else. Every tool not in
the table is ``unknown`` and treated as mutating.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from advisor.orchestration._vocabulary import Effect


@dataclass(frozen=True, slots=True)
class ToolClass:
    """One row: a tool name, what it can do, and the permission that grants it."""

    name: str
    effect: Effect
    grants: str | None = None
    """The permission name that grants it (default: its own name)."""
    note: str = ""


TOOL_TABLE: tuple[ToolClass, ...] = (
    ToolClass("read", "read-only", note="read a file of the workspace"),
    ToolClass("read_image", "read-only", note="view an image of the workspace"),
    ToolClass("glob", "read-only", note="find files by pattern"),
    ToolClass("grep", "read-only", note="search file contents"),
    ToolClass("find", "read-only", "glob", "the investigation's file finder is the glob permission"),
    ToolClass("ls", "read-only", "glob", "listing a directory is a one-level glob"),
    ToolClass("git_diff", "read-only", note="the uncommitted change; read-only but not granted by default"),
    ToolClass("web_search", "read-only"),
    ToolClass("web_fetch", "read-only"),
    ToolClass("advisor_verdict", "internal", note="the verdict channel: always declared, grants nothing else"),
    ToolClass("advisor_expand", "internal", note="the requester's own redacted evidence behind a card"),
    ToolClass("structured_output", "internal"),
    ToolClass("edit", "mutating"), ToolClass("write", "mutating"), ToolClass("apply_patch", "mutating"),
    ToolClass("replace", "mutating"), ToolClass("delete", "mutating"), ToolClass("move", "mutating"),
    ToolClass("rename", "mutating"), ToolClass("bash", "mutating"), ToolClass("pwsh", "mutating"),
    ToolClass("shell", "mutating"), ToolClass("exec_command", "mutating"),
    ToolClass("consult_advisor", "delegation", note="an advisor never consults an advisor"),
    ToolClass("advisor_obligation", "delegation", note="obligations are the requester's, not the advisor's"),
    ToolClass("task", "delegation"), ToolClass("agent", "delegation"), ToolClass("subagent", "delegation"),
    ToolClass("spawn_agent", "delegation"), ToolClass("dispatch_agent", "delegation"),
    ToolClass("send_input", "delegation"), ToolClass("send_message", "delegation"),
    ToolClass("workflow", "delegation"), ToolClass("ralph", "delegation"), ToolClass("run_code", "delegation",
                                                                                   note="PTC transport"),
)
"""Tools by name (names compare case-insensitively)."""

DELEGATION_PREFIXES = ("subagent", "workflow", "transfer_to_", "handoff")
"""Name prefixes that are always delegation (sub-agent tools, workflows, SDK handoffs)."""

_BY_NAME = {row.name: row for row in TOOL_TABLE}


def tool_class(name: str, *, amplifiers: Iterable[str] = (), read_only: Iterable[str] = ()) -> ToolClass:
    """The row for ``name``; ``amplifiers`` are configured capability-amplifying tools (reserved
    like delegation), ``read_only`` host tools declared read-only."""
    key = name.lower()
    if key in {a.lower() for a in amplifiers} or key.startswith(DELEGATION_PREFIXES):
        return ToolClass(key, "delegation")
    row = _BY_NAME.get(key)
    if row is not None:
        return row
    if key in {r.lower() for r in read_only}:
        return ToolClass(key, "read-only")
    return ToolClass(key, "unknown")


def grant_name(name: str) -> str:
    """The permission that grants a tool (``find`` and ``ls`` are granted by ``glob``)."""
    row = _BY_NAME.get(name.lower())
    return (row.grants or row.name) if row is not None else name.lower()
