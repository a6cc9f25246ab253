"""The task tree's workspace lease: an advisor that can edit works alone.

An advisor whose tools include a mutating or unknown tool takes the *exclusive* side and always
blocks; read-only advisors and ordinary mutating tool bodies share the other side. While an
exclusive lease is pending or held, further conflicting admissions (a mutating tool, another
advisor) are refused instead of queued behind it. An exclusive request from an agent that itself
holds the shared side (its mutating tool is what asked for the review) would wait for itself:
it is reported unavailable instead of deadlocking. This coordinates the tools the host reports,
not unrelated processes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Side = Literal["shared", "exclusive"]


@dataclass(slots=True)
class Lease:
    """One task tree's lease. The host locks around it."""

    shared: dict[str, str] = field(default_factory=dict)
    """Holder id → the agent holding it."""
    exclusive: str | None = None
    pending: str | None = None
    """An exclusive request waiting for the shared side to drain."""

    def try_shared(self, holder: str, agent_id: str) -> str | None:
        """Take the shared side; the reason it cannot, if it cannot."""
        if self.exclusive is not None or self.pending is not None:
            return "an editing advisor review holds the workspace; wait for it to finish"
        self.shared[holder] = agent_id
        return None

    def release_shared(self, holder: str) -> None:
        """Give the shared side back."""
        self.shared.pop(holder, None)

    def request_exclusive(self, holder: str, requester_line: tuple[str, ...]) -> str | None:
        """Ask for the exclusive side (granted at once or pending); the reason it is unavailable,
        if an ancestor of the requester holds the shared side or another exclusive is there."""
        if self.exclusive is not None or self.pending is not None:
            return "another editing advisor review holds the workspace"
        if any(agent in requester_line for agent in self.shared.values()):
            return "the requester is inside a mutating tool call: an editing review would wait for itself"
        self.pending = holder
        self.promote()
        return None

    def promote(self) -> bool:
        """Grant the pending exclusive request once nothing shares the workspace."""
        if self.pending is not None and not self.shared:
            self.exclusive, self.pending = self.pending, None
            return True
        return False

    def release_exclusive(self, holder: str) -> None:
        """Give the exclusive side back (or withdraw the request)."""
        if self.exclusive == holder:
            self.exclusive = None
        if self.pending == holder:
            self.pending = None
