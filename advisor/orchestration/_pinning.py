"""Consultation pinning: a consultation keeps the identity of its first turn.

The pin holds the advisor profile, the model route (provider and model), the reasoning effort,
the persona, the mutation policy and the tool ceiling, with the reason the route was chosen and
the ceiling's hash. Continuations reuse it; asking for a different profile is refused before
dispatch. The tools a turn may use are always the pinned ceiling ∩ the root's *current* policy ∩
the requester's *current* visibility: removing a permission revokes it at once, adding one never
widens an old child. Records from before pinning existed stay continuable only as fresh
consultations.
"""

from __future__ import annotations

from typing import Literal

from advisor._values import Frozen
from advisor.models import Effort
from advisor.orchestration._permissions import ceiling_hash


class Pin(Frozen):
    """What a consultation pinned at its first turn."""

    version: Literal[1] = 1
    profile: str
    """The advisor profile."""
    provider: str
    """The model route's provider."""
    model: str
    """The model route's model."""
    effort: Effort | None = None
    """Reasoning effort."""
    persona: str = "reviewer"
    """The advisor's persona (its system prompt's name)."""
    mutating: bool = False
    """Whether its tools may edit (forcing blocking and the exclusive lease)."""
    ceiling: tuple[str, ...]
    """The tool ceiling, sorted."""
    routing_reason: str = "configured"
    """Why this route was chosen."""
    ceiling_hash: str
    """A hash of the ceiling, for records."""

    @classmethod
    def make(cls, *, profile: str, provider: str, model: str, granted: frozenset[str], effort: Effort | None = None,
             persona: str = "reviewer", mutating: bool = False, routing_reason: str = "configured") -> Pin:
        """A pin for a first turn."""
        return cls(profile=profile, provider=provider, model=model, effort=effort, persona=persona,
                   mutating=mutating, ceiling=tuple(sorted(granted)), routing_reason=routing_reason,
                   ceiling_hash=ceiling_hash(granted))

    @property
    def granted(self) -> frozenset[str]:
        """The ceiling as a set."""
        return frozenset(self.ceiling)


def continuation_refusal(pin: Pin | None, profile: str | None) -> str | None:
    """Why a continuation asking for ``profile`` cannot reuse ``pin`` (``None``: it can)."""
    if pin is None:
        return "this consultation predates pinning: start a fresh consultation instead"
    if profile is not None and profile != pin.profile:
        return f"this consultation is pinned to profile {pin.profile!r}; {profile!r} needs a fresh consultation"
    return None
