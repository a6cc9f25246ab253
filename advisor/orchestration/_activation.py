"""The activation gate: an advisor child is not an open prompt endpoint.

Every advisor turn needs an activation the host minted for it: a random nonce bound to the
exact requester, spent by one turn, bounded by a deadline, and revoked when that turn closes.
A step of an advisor child is admitted only under a live activation of that very child:

- before the delivered message is bound, admission rests on the nonce — the child the
  activation was published for (the window a transport without pre-allocated delivery ids
  needs; the host's own transport binds the delivery before the first step, closing it);
- once the delivery is bound, every message entering the step must be that delivery (an empty
  batch falls back to the turn binding), so a foreign message batched or claimed into the turn
  refuses the step before the model sees it;
- a claim that lands before the delivery is bound is buffered and replayed at binding, so the
  turn is still recorded; binding without a live activation fails closed;
- a second live activation on the same child refuses the overlapping turn instead of
  interleaving it; a follow-up names its child and admits no other.

Descendants of an advisor are never admitted: only the child the activation names.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from advisor.errors import StepRefused

DEFAULT_TTL = 600.0
"""Seconds an activation lives at most (the attempt deadline)."""

State = Literal["live", "closed", "revoked", "expired"]


@dataclass(slots=True)
class Activation:
    """The authority for one advisor turn."""

    nonce: str
    requester: str
    consultation_id: str
    child_id: str | None
    """The child it admits; a fresh consultation names none until its child is published."""
    expires_at: float
    follow_up: bool = False
    delivery: str | None = None
    """The delivered message's id, once bound."""
    turn: int | None = None
    """The child turn that claimed the delivery."""
    tainted: bool = False
    """A foreign message was claimed into the same turn."""
    state: State = "live"
    early_claims: list[tuple[str, int]] = field(default_factory=list)


class ActivationGate:
    """Mints, binds and checks activations. Not thread-safe by itself: the host locks around it."""

    def __init__(self, *, ttl: float = DEFAULT_TTL, clock: Callable[[], float] = time.monotonic) -> None:
        self.ttl = ttl
        self._clock = clock
        self._by_nonce: dict[str, Activation] = {}
        self.refusals = 0
        """Steps refused so far."""

    def _expire(self) -> None:
        now = self._clock()
        for activation in self._by_nonce.values():
            if activation.state == "live" and now >= activation.expires_at:
                activation.state = "expired"

    def live_for(self, child_id: str) -> Activation | None:
        """The live activation of a child, if it has one."""
        self._expire()
        return next((a for a in self._by_nonce.values() if a.state == "live" and a.child_id == child_id), None)

    def mint(self, requester: str, consultation_id: str, *, child_id: str | None = None,
             ttl: float | None = None) -> Activation:
        """A new activation for one turn; ``child_id`` names the child of a follow-up. Raises
        :class:`StepRefused` when that child already has a live activation (an overlapping turn)."""
        if child_id is not None and self.live_for(child_id) is not None:
            self.refusals += 1
            raise StepRefused(f"advisor child {child_id!r} already has a live turn; the overlapping turn is refused")
        activation = Activation(secrets.token_urlsafe(16), requester, consultation_id, child_id,
                                self._clock() + (self.ttl if ttl is None else ttl), follow_up=child_id is not None)
        self._by_nonce[activation.nonce] = activation
        return activation

    def _live(self, nonce: str, what: str) -> Activation:
        self._expire()
        activation = self._by_nonce.get(nonce)
        if activation is None or activation.state != "live":
            self.refusals += 1
            state = "unknown" if activation is None else activation.state
            raise StepRefused(f"cannot {what}: the activation is {state}")
        return activation

    def publish_child(self, nonce: str, child_id: str) -> None:
        """Bind a fresh activation to the child created for it (before that child's first step)."""
        activation = self._live(nonce, "publish a child")
        if activation.child_id not in (None, child_id):
            self.refusals += 1
            raise StepRefused(f"the activation admits child {activation.child_id!r}, not {child_id!r}")
        other = self.live_for(child_id)
        if other is not None and other is not activation:
            self.refusals += 1
            raise StepRefused(f"advisor child {child_id!r} already has a live turn")
        activation.child_id = child_id

    def bind_delivery(self, nonce: str, message_id: str) -> None:
        """Bind the delivered message; buffered claims of it are then replayed. Fails closed
        (:class:`StepRefused`) without a live activation."""
        activation = self._live(nonce, "bind a delivery")
        if activation.delivery not in (None, message_id):
            self.refusals += 1
            raise StepRefused("the activation is already bound to another delivery")
        activation.delivery = message_id
        pending, activation.early_claims = activation.early_claims, []
        for claimed, turn in pending:
            self._apply_claim(activation, claimed, turn)

    def claim(self, child_id: str, message_id: str, turn: int) -> None:
        """The turn observer: ``message_id`` was claimed into child turn ``turn``."""
        activation = self.live_for(child_id)
        if activation is None:
            return
        if activation.delivery is None:
            activation.early_claims.append((message_id, turn))  # claims belong to the activation they came under
            return
        self._apply_claim(activation, message_id, turn)

    @staticmethod
    def _apply_claim(activation: Activation, message_id: str, turn: int) -> None:
        if message_id == activation.delivery:
            if activation.turn is None:
                activation.turn = turn
        elif activation.turn is None or activation.turn == turn:
            activation.tainted = True

    def admit(self, child_id: str, batch: Sequence[str] = (), *, turn: int | None = None) -> Activation:
        """Admit one model step of an advisor child, or raise :class:`StepRefused` — before any
        model request, budget, lease or log is touched."""
        activation = self.live_for(child_id)
        if activation is None:
            self.refusals += 1
            raise StepRefused(f"advisor child {child_id!r} has no live activation: its steps are admitted only "
                              "inside a consultation the host started")
        if activation.tainted:
            self.refusals += 1
            raise StepRefused("a message that is not the authorised delivery was claimed into this turn")
        if activation.delivery is not None:
            foreign = [m for m in batch if m != activation.delivery]
            if foreign:
                self.refusals += 1
                raise StepRefused(f"message {foreign[0]!r} is not the authorised delivery of this turn")
        if activation.turn is not None and turn is not None and turn != activation.turn:
            self.refusals += 1
            raise StepRefused(f"turn {turn} is not the turn this activation was spent on ({activation.turn})")
        return activation

    def close_turn(self, child_id: str) -> Activation | None:
        """The child's turn closed: its activation is revoked (a later step needs a new one)."""
        activation = self.live_for(child_id)
        if activation is not None:
            activation.state = "closed"
        return activation

    def revoke(self, nonce: str) -> None:
        """Revoke an activation (a failed or aborted attempt)."""
        activation = self._by_nonce.get(nonce)
        if activation is not None and activation.state == "live":
            activation.state = "revoked"

    def forget_closed(self) -> None:
        """Drop activations that can never admit again (they are kept until then for audit)."""
        self._expire()
        self._by_nonce = {n: a for n, a in self._by_nonce.items() if a.state == "live"}
