"""The activation gate: no advisor step without a live, matching activation."""

from __future__ import annotations

import pytest
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from advisor.errors import StepRefused
from advisor.orchestration import ActivationGate


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def gate(ttl: float = 10.0) -> tuple[ActivationGate, Clock]:
    clock = Clock()
    return ActivationGate(ttl=ttl, clock=clock), clock


def test_a_child_without_an_activation_is_refused() -> None:
    """A step of an advisor child that no consultation activated is refused."""
    g, _ = gate()
    with pytest.raises(StepRefused, match="no live activation"):
        g.admit("advisor-1", ["m1"])


def test_the_authorised_delivery_is_admitted_and_a_foreign_message_is_not() -> None:
    """Once the delivery is bound, a batch holding anything else refuses the step (batch purity)."""
    g, _ = gate()
    activation = g.mint("root", "c1")
    g.publish_child(activation.nonce, "advisor-1")
    g.bind_delivery(activation.nonce, "delivery")
    assert g.admit("advisor-1", ["delivery"], turn=1) is activation
    assert g.admit("advisor-1", [], turn=1) is activation  # an empty batch falls back to the turn binding
    with pytest.raises(StepRefused, match="not the authorised delivery"):
        g.admit("advisor-1", ["delivery", "sneaked-in"], turn=1)


def test_before_binding_the_nonce_bearing_child_is_admitted_and_no_other() -> None:
    """Before the delivery binds, admission rests on the child the activation was published for."""
    g, _ = gate()
    activation = g.mint("root", "c1")
    g.publish_child(activation.nonce, "advisor-1")
    assert g.admit("advisor-1", ["anything"]) is activation
    with pytest.raises(StepRefused):
        g.admit("advisor-2", [])


def test_an_early_claim_is_replayed_when_the_delivery_binds() -> None:
    """A claim that lands before binding still records its turn; a foreign early claim taints the turn."""
    g, _ = gate()
    activation = g.mint("root", "c1")
    g.publish_child(activation.nonce, "advisor-1")
    g.claim("advisor-1", "delivery", 3)
    g.bind_delivery(activation.nonce, "delivery")
    assert activation.turn == 3
    with pytest.raises(StepRefused, match="turn 4"):
        g.admit("advisor-1", [], turn=4)
    other = g.mint("root", "c2")
    g.publish_child(other.nonce, "advisor-2")
    g.claim("advisor-2", "foreign", 1)
    g.bind_delivery(other.nonce, "delivery-2")
    with pytest.raises(StepRefused, match="claimed into this turn"):
        g.admit("advisor-2", ["delivery-2"], turn=1)


def test_binding_without_a_live_activation_fails_closed() -> None:
    """A delivery cannot be bound to an expired, revoked or unknown activation."""
    g, clock = gate(ttl=5)
    activation = g.mint("root", "c1")
    clock.now = 6
    with pytest.raises(StepRefused, match="expired"):
        g.bind_delivery(activation.nonce, "delivery")
    with pytest.raises(StepRefused, match="unknown"):
        g.bind_delivery("forged-nonce", "delivery")


def test_an_overlapping_turn_is_refused_and_a_closed_turn_needs_a_new_activation() -> None:
    """A second live activation on one child is refused; closing the turn revokes the first."""
    g, _ = gate()
    first = g.mint("root", "c1")
    g.publish_child(first.nonce, "advisor-1")
    with pytest.raises(StepRefused, match="overlapping"):
        g.mint("root", "c1", child_id="advisor-1")
    g.close_turn("advisor-1")
    with pytest.raises(StepRefused):
        g.admit("advisor-1", [])
    follow = g.mint("root", "c1", child_id="advisor-1")
    assert g.admit("advisor-1", []) is follow


class GateMachine(RuleBasedStateMachine):
    """Any interleaving of mints, bindings, claims, steps, expiry and closes: a step is admitted
    only for a child holding a live, unexpired activation, and never with a foreign message once
    the delivery is bound."""

    def __init__(self) -> None:
        super().__init__()
        self.gate, self.clock = gate(ttl=5)
        self.live: dict[str, tuple[str, float, str | None, bool]] = {}  # child -> nonce, expiry, delivery, tainted
        self.turns: dict[str, int | None] = {}
        self.buffered: dict[str, list[tuple[bool, int]]] = {}

    def _expire(self) -> None:
        self.live = {c: v for c, v in self.live.items() if v[1] > self.clock.now}

    @rule(child=st.sampled_from(["a", "b"]))
    def mint(self, child: str) -> None:
        self._expire()
        if child in self.live:
            with pytest.raises(StepRefused):
                self.gate.mint("root", "c", child_id=child)
            return
        activation = self.gate.mint("root", "c", child_id=child)
        self.live[child] = (activation.nonce, self.clock.now + 5, None, False)
        self.turns[child] = None
        self.buffered[child] = []

    @precondition(lambda self: bool(self.live))
    @rule(data=st.data())
    def bind(self, data: st.DataObject) -> None:
        self._expire()
        if not self.live:
            return
        child = data.draw(st.sampled_from(sorted(self.live)))
        nonce, expiry, delivery, tainted = self.live[child]
        if delivery is None:
            self.gate.bind_delivery(nonce, f"d-{child}")
            self.live[child] = (nonce, expiry, f"d-{child}", tainted)
            for foreign, turn in self.buffered.pop(child, []):  # early claims are replayed at binding
                self._apply(child, foreign, turn)

    @rule(child=st.sampled_from(["a", "b"]), foreign=st.booleans(), turn=st.integers(1, 2))
    def claim(self, child: str, foreign: bool, turn: int) -> None:
        self._expire()
        self.gate.claim(child, "x" if foreign else f"d-{child}", turn)
        if child not in self.live:
            return
        if self.live[child][2] is None:
            self.buffered.setdefault(child, []).append((foreign, turn))
        else:
            self._apply(child, foreign, turn)

    def _apply(self, child: str, foreign: bool, turn: int) -> None:
        nonce, expiry, delivery, _ = self.live[child]
        claimed = self.turns[child]
        if not foreign and claimed is None:
            self.turns[child] = turn
        elif foreign and (claimed is None or claimed == turn):
            self.live[child] = (nonce, expiry, delivery, True)

    @rule(child=st.sampled_from(["a", "b", "c"]), foreign=st.booleans())
    def step(self, child: str, foreign: bool) -> None:
        self._expire()
        entry = self.live.get(child)
        batch = ["x"] if foreign else []
        if entry is None or entry[3] or (foreign and entry[2] is not None):
            with pytest.raises(StepRefused):
                self.gate.admit(child, batch)
        else:
            self.gate.admit(child, batch)

    @rule(child=st.sampled_from(["a", "b"]))
    def close(self, child: str) -> None:
        self.gate.close_turn(child)
        self.live.pop(child, None)
        self.buffered.pop(child, None)

    @rule(seconds=st.floats(0, 4))
    def wait(self, seconds: float) -> None:
        self.clock.now += seconds

    @invariant()
    def live_matches(self) -> None:
        self._expire()
        for child in ("a", "b", "c"):
            assert (self.gate.live_for(child) is not None) == (child in self.live)


TestGateMachine = GateMachine.TestCase
