"""The advisor's tool permissions: defaults plus the session's deltas, under a ceiling.

::

    effective root policy = (global default tools + session allow) - session deny
    advisor tools         = pinned ceiling ∩ effective root policy ∩ requester's visible tools

The shipped default enables only ``read``, ``read_image``, ``glob`` and ``grep``; every other
tool (mutating, unknown, MCP, plugin) is off until a user allows it. The root policy is a
ceiling, not a grant: a worker that cannot see ``bash`` cannot obtain it by consulting an
advisor. Delegation tools and the consult tool are refused to advisors whatever the policy
says; the verdict channel is always declared and authorises nothing else. The check runs when
the child is composed and again at every tool execution, against the policy as it is *then*:
removing a permission revokes it at once, and adding one never widens a pinned ceiling.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass

from advisor.errors import ToolNotPermitted
from advisor.orchestration._capabilities import grant_name, tool_class
from advisor.orchestration._policy_records import PolicyRecord

DEFAULT_ENABLED_TOOLS: frozenset[str] = frozenset({"read", "read_image", "glob", "grep"})
"""The global default: the tools an advisor may use unless a session says otherwise."""


@dataclass(frozen=True, slots=True)
class PermissionSettings:
    """The global part of the permission model."""

    default_enabled: frozenset[str] = DEFAULT_ENABLED_TOOLS
    amplifiers: frozenset[str] = frozenset()
    """Custom or MCP tools that delegate or amplify capability (reserved like delegation)."""
    read_only: frozenset[str] = frozenset()
    """Host tools known to be read-only (for the mutation policy)."""


def effective_root_policy(record: PolicyRecord, settings: PermissionSettings) -> frozenset[str]:
    """The permissions a root session grants its advisors (lower case, reserved tools removed)."""
    base = {t.lower() for t in settings.default_enabled} if record.inherit_default_tools else set()
    granted = (base | {t.lower() for t in record.allow_tools}) - {t.lower() for t in record.deny_tools}
    return frozenset(t for t in granted if not reserved(t, settings))


def reserved(tool: str, settings: PermissionSettings) -> bool:
    """Whether no policy can grant ``tool`` to an advisor (delegation, the consult tool)."""
    return tool_class(tool, amplifiers=settings.amplifiers).effect == "delegation"


def visible_grants(visible: Iterable[str]) -> frozenset[str]:
    """The permissions the requester's own tools amount to (its tool names, lower case)."""
    return frozenset(grant_name(t) for t in visible)


def ceiling(root_policy: frozenset[str], visible: frozenset[str] | None) -> frozenset[str]:
    """The advisor's ceiling when its child is composed: the root policy ∩ what the requester
    sees (``None``: a root whose host did not list its tools — the root policy alone)."""
    return root_policy if visible is None else root_policy & visible_grants(visible)


def ceiling_hash(granted: frozenset[str]) -> str:
    """A short, stable hash of a ceiling, for records."""
    return hashlib.sha256("\n".join(sorted(granted)).encode()).hexdigest()[:16]


def check_tool(tool: str, *, pinned: frozenset[str], root_policy: frozenset[str],
               visible: frozenset[str] | None, settings: PermissionSettings) -> None:
    """Raise :class:`ToolNotPermitted` unless ``tool`` is allowed to this advisor now."""
    row = tool_class(tool, amplifiers=settings.amplifiers, read_only=settings.read_only)
    if row.effect == "internal":
        return
    if row.effect == "delegation":
        raise ToolNotPermitted(f"{tool} is never available to an advisor (delegation and consultation are reserved)")
    permission = grant_name(tool)
    if permission not in pinned:
        raise ToolNotPermitted(f"{tool} is outside this consultation's pinned tool ceiling")
    if permission not in root_policy:
        raise ToolNotPermitted(f"{tool} is not allowed by the root session's advisor policy")
    if visible is not None and permission not in visible_grants(visible):
        raise ToolNotPermitted(f"{tool} is not a tool the requesting agent can see")


def mutating(granted: Iterable[str], settings: PermissionSettings) -> bool:
    """Whether a tool surface holds a mutating or unknown tool (forcing blocking and an
    exclusive workspace lease)."""
    return any(tool_class(t, read_only=settings.read_only).effect in ("mutating", "unknown") for t in granted)
