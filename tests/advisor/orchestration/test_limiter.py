"""The task-tree limiter: a cap on runs, a FIFO queue, budgets reserved, refunded or consumed."""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from advisor.errors import BudgetRefused
from advisor.orchestration import Reservation, TaskLimiter


def test_calls_above_the_cap_queue_fifo() -> None:
    """With two slots, the third and fourth wait and start in the order they came."""
    limiter = TaskLimiter(max_concurrent=2)
    reservations = [limiter.reserve(f"a{i}", manual=False) for i in range(4)]
    granted = [limiter.request_slot(r) for r in reservations]
    assert granted == [True, True, False, False]
    limiter.release(reservations[0])
    assert [r.state for r in reservations] == ["refunded", "running", "running", "queued"]


def test_a_queued_call_aborted_before_start_returns_its_reservation() -> None:
    """Cancelling a waiting call refunds its budget unit; a started one keeps it consumed."""
    async def scenario() -> TaskLimiter:
        limiter = TaskLimiter(max_concurrent=1, max_consults=2)
        first = limiter.reserve("a", manual=False)
        await limiter.acquire(first)
        limiter.start(first)
        second = limiter.reserve("b", manual=False)
        waiting = asyncio.ensure_future(limiter.acquire(second))
        await asyncio.sleep(0)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        limiter.release(first)
        return limiter

    limiter = asyncio.run(scenario())
    assert (limiter.consumed, limiter.reserved) == (1, 0)
    limiter.reserve("c", manual=False)  # the refunded unit is available again


def test_a_started_call_consumes_budget_even_if_the_model_fails() -> None:
    """Once started, a run's unit is spent whatever happens next."""
    limiter = TaskLimiter(max_consults=1)
    reservation = limiter.reserve("a", manual=False)
    limiter.request_slot(reservation)
    limiter.start(reservation)
    limiter.release(reservation)
    with pytest.raises(BudgetRefused, match="1 per task"):
        limiter.reserve("a", manual=False)


def test_minus_one_is_unlimited_and_zero_disables() -> None:
    """A negative budget is never exhausted; 0 refuses the first consultation."""
    assert all(TaskLimiter().reserve("a", manual=True) for _ in range(100))
    with pytest.raises(BudgetRefused, match="disabled"):
        TaskLimiter(max_consults=0).reserve("a", manual=False)
    with pytest.raises(BudgetRefused, match=r"manual .* disabled"):
        TaskLimiter(max_manual_per_agent=0).reserve("a", manual=True)
    TaskLimiter(max_manual_per_agent=0).reserve("a", manual=False)  # automatic ones are not manual


def test_the_manual_cap_is_per_agent() -> None:
    """One agent's manual budget does not spend another's."""
    limiter = TaskLimiter(max_manual_per_agent=1)
    limiter.reserve("a", manual=True)
    with pytest.raises(BudgetRefused):
        limiter.reserve("a", manual=True)
    limiter.reserve("b", manual=True)


class LimiterMachine(RuleBasedStateMachine):
    """Never more than the cap running, grants in FIFO order, and budget units conserved:
    reserved + consumed + refunded = reservations made."""

    def __init__(self) -> None:
        super().__init__()
        self.limiter = TaskLimiter(max_concurrent=2, max_consults=6, max_manual_per_agent=3)
        self.made: list[Reservation] = []
        self.order: list[int] = []

    @rule(agent=st.sampled_from(["a", "b"]), manual=st.booleans())
    def reserve(self, agent: str, manual: bool) -> None:
        try:
            reservation = self.limiter.reserve(agent, manual=manual)
        except BudgetRefused:
            return
        self.made.append(reservation)
        if not self.limiter.request_slot(reservation):
            self.order.append(reservation.id)

    @precondition(lambda self: any(r.state == "running" for r in self.made))
    @rule(data=st.data())
    def start(self, data: st.DataObject) -> None:
        running = [r for r in self.made if r.state == "running"]
        self.limiter.start(data.draw(st.sampled_from(running)))

    @precondition(lambda self: any(r.state in ("running", "started", "queued") for r in self.made))
    @rule(data=st.data())
    def release(self, data: st.DataObject) -> None:
        active = [r for r in self.made if r.state in ("running", "started", "queued")]
        chosen = data.draw(st.sampled_from(active))
        queued_before = [r for r in self.made if r.state == "queued"]
        self.limiter.release(chosen)
        if chosen in queued_before:
            self.order.remove(chosen.id)
        newly = [r.id for r in queued_before if r.state == "running"]
        assert newly == self.order[:len(newly)]  # FIFO
        del self.order[:len(newly)]

    @invariant()
    def within_cap_and_conserved(self) -> None:
        running = sum(1 for r in self.made if r.state in ("running", "started"))
        assert running <= 2 and self.limiter.stats().running == running
        refunded = sum(1 for r in self.made if r.state == "refunded")
        assert self.limiter.reserved + self.limiter.consumed + refunded == len(self.made)
        assert self.limiter.consumed + self.limiter.reserved <= 6


TestLimiterMachine = LimiterMachine.TestCase
