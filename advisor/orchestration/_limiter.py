"""The task-tree limiter: every advisor run under one root task shares one concurrency cap and one
consultation budget; manual consultations also count against a per-agent cap.

Budgets are *reserved* when a consultation is admitted and *consumed* when its model call
actually starts: a call aborted while it waits in the FIFO queue, or failing before dispatch
(configuration, composition), returns its reservation; a call that started consumes its unit
even if the model then fails. A negative budget is never exhausted; ``0`` disables.
"""

from __future__ import annotations

import asyncio
import itertools
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from advisor.errors import BudgetRefused

ReservationState = Literal["reserved", "queued", "running", "started", "released", "refunded"]

UNLIMITED = -1


@dataclass(slots=True)
class Reservation:
    """One consultation's claim on the task's budget and, later, on a run slot."""

    id: int
    agent_id: str
    manual: bool
    state: ReservationState = "reserved"
    waiter: asyncio.Future[None] | None = field(default=None, repr=False)


@dataclass(slots=True)
class LimiterStats:
    """What the limiter has done (a copy)."""

    running: int
    queued: int
    peak_running: int
    consumed: int
    reserved: int
    refused: int


class TaskLimiter:
    """One task tree's limiter. All methods run on the host's event loop (or under its lock)."""

    def __init__(self, *, max_concurrent: int = 2, max_consults: int = UNLIMITED,
                 max_manual_per_agent: int = UNLIMITED) -> None:
        if max_concurrent < 1:
            raise ValueError("max_concurrent_advisor_runs must be at least 1")
        self.max_concurrent = max_concurrent
        self.max_consults = max_consults
        self.max_manual_per_agent = max_manual_per_agent
        self._ids = itertools.count(1)
        self._queue: deque[Reservation] = deque()
        self._running: set[int] = set()
        self.peak_running = 0
        self.consumed = 0
        self.reserved = 0
        self.refused = 0
        self.manual_consumed: dict[str, int] = {}
        self.manual_reserved: dict[str, int] = {}

    @staticmethod
    def _exhausted(limit: int, used: int) -> bool:
        return limit >= 0 and used >= limit

    def reserve(self, agent_id: str, *, manual: bool) -> Reservation:
        """Reserve one unit of the task budget (and of the agent's manual budget); raises
        :class:`BudgetRefused` with the reason when either is spent."""
        if self._exhausted(self.max_consults, self.consumed + self.reserved):
            self.refused += 1
            limit = "disabled" if self.max_consults == 0 else f"{self.max_consults} per task, all used"
            raise BudgetRefused(f"advisor consultations for this task are {limit}")
        if manual:
            used = self.manual_consumed.get(agent_id, 0) + self.manual_reserved.get(agent_id, 0)
            if self._exhausted(self.max_manual_per_agent, used):
                self.refused += 1
                limit = "disabled" if self.max_manual_per_agent == 0 else \
                    f"{self.max_manual_per_agent} per agent, all used"
                raise BudgetRefused(f"manual advisor consultations for this agent are {limit}")
            self.manual_reserved[agent_id] = self.manual_reserved.get(agent_id, 0) + 1
        self.reserved += 1
        return Reservation(next(self._ids), agent_id, manual)

    def _refund(self, reservation: Reservation) -> None:
        self.reserved -= 1
        if reservation.manual:
            self.manual_reserved[reservation.agent_id] -= 1
        reservation.state = "refunded"

    def request_slot(self, reservation: Reservation) -> bool:
        """Run now if a slot is free and nobody waits (``True``), else join the FIFO queue."""
        if len(self._running) < self.max_concurrent and not self._queue:
            self._grant(reservation)
            return True
        reservation.state = "queued"
        self._queue.append(reservation)
        return False

    def _grant(self, reservation: Reservation) -> None:
        reservation.state = "running"
        self._running.add(reservation.id)
        self.peak_running = max(self.peak_running, len(self._running))
        if reservation.waiter is not None and not reservation.waiter.done():
            reservation.waiter.set_result(None)

    def start(self, reservation: Reservation) -> None:
        """The model call is about to be sent: the reservation becomes consumed budget."""
        if reservation.state != "running":
            raise RuntimeError(f"reservation {reservation.id} starts without a slot ({reservation.state})")
        reservation.state = "started"
        self.reserved -= 1
        self.consumed += 1
        if reservation.manual:
            self.manual_reserved[reservation.agent_id] -= 1
            self.manual_consumed[reservation.agent_id] = self.manual_consumed.get(reservation.agent_id, 0) + 1

    def release(self, reservation: Reservation) -> None:
        """The run ended (or was aborted): free its slot, refund it if it never started, and
        let the next queued run go."""
        if reservation.state in ("released", "refunded"):
            return
        if reservation.state == "queued":
            self._queue.remove(reservation)
            self._refund(reservation)
            return
        started = reservation.state == "started"
        self._running.discard(reservation.id)
        if started:
            reservation.state = "released"
        else:
            self._refund(reservation)
        while self._queue and len(self._running) < self.max_concurrent:
            self._grant(self._queue.popleft())

    async def acquire(self, reservation: Reservation, on_queued: Callable[[], None] | None = None) -> None:
        """Wait (FIFO) for a run slot; cancelled while waiting, the reservation is refunded."""
        reservation.waiter = asyncio.get_running_loop().create_future()
        if self.request_slot(reservation):
            return
        if on_queued is not None:
            on_queued()
        try:
            await reservation.waiter
        except asyncio.CancelledError:
            self.release(reservation)
            raise

    def stats(self) -> LimiterStats:
        """The counters, as a copy."""
        return LimiterStats(len(self._running), len(self._queue), self.peak_running, self.consumed, self.reserved,
                            self.refused)
