"""Escalation scoring: when is an agent stuck enough to call a reviewer?

Each agent has its own score (a worker's failures never add to its root's). Weighted signals —
a tool error, a non-zero exit, the same failure again, the same file edited over and over — add
up to a threshold, behind per-turn and per-problem caps and a cooldown. A genuine pass of a
check clears that check's signals; a masked "pass" clears nothing. Review watermarks keep a
problem that was reviewed quiet until it recurs after a structural change, one fingerprint at a
time: reviewing B never refreshes A.
"""

from __future__ import annotations

from collections import deque
from dataclasses import asdict, dataclass, field
from typing import Any

from ._config import EscalationConfig
from ._vocabulary import SignalKind


@dataclass(frozen=True, slots=True)
class Signal:
    """One reason to escalate."""

    kind: SignalKind
    """``tool-error``, ``nonzero-exit``, ``repeated-failure`` or ``repeated-mutation``."""
    weight: int
    """What it adds to the score."""
    tick: int
    """When it was raised."""
    fingerprint: str
    """The failure fingerprint (or the edited target's, for repeated mutation)."""
    key: str | None = None
    """The validation key of the failing check, when there is one (a pass of it clears this)."""
    target: str | None = None
    """The edited target, for repeated mutation."""


@dataclass(frozen=True, slots=True)
class Decision:
    """The answer to "should this agent consult a reviewer now?"."""

    escalate: bool
    """Yes, an automatic consultation is due."""
    score: int
    """The current score."""
    threshold: int
    """The score at which one is due."""
    fingerprint: str | None
    """The problem it is about (the last failure, or the newest signal)."""
    reason: str
    """Why (or why not), in a line."""


@dataclass(slots=True)
class Escalation:
    """One agent's score, evidence and review watermark."""

    signals: deque[Signal] = field(default_factory=deque)
    evidence: deque[dict[str, Any]] = field(default_factory=deque)
    observations: int = 0
    last_failure: str | None = None
    last_failure_key: str | None = None
    repeats: int = 0
    edits: dict[str, int] = field(default_factory=dict)
    penalised: set[str] = field(default_factory=set)
    turn: int = 0
    auto_turns: dict[int, int] = field(default_factory=dict)
    per_problem: dict[str, int] = field(default_factory=dict)
    last_auto_turn: int | None = None
    watermark: dict[str, int] = field(default_factory=dict)

    @property
    def score(self) -> int:
        """The sum of the active signals' weights."""
        return sum(signal.weight for signal in self.signals)

    def _add(self, signal: Signal, config: EscalationConfig) -> None:
        self.signals.append(signal)
        while len(self.signals) > config.evidence_rows:
            self.signals.popleft()

    def observe(self, row: dict[str, Any], config: EscalationConfig) -> None:
        """Keep an evidence row (the newest ``evidence_rows``; the count never stops)."""
        self.observations += 1
        self.evidence.append(row)
        while len(self.evidence) > config.evidence_rows:
            self.evidence.popleft()

    def failure(self, tick: int, fingerprint: str, key: str | None, is_error: bool,
                config: EscalationConfig) -> None:
        """A failed call: tool error or non-zero exit, and a repeat if it is the same failure again."""
        kind: SignalKind = "tool-error" if is_error else "nonzero-exit"
        weight = config.tool_error_weight if is_error else config.nonzero_exit_weight
        self._add(Signal(kind, weight, tick, fingerprint, key), config)
        if fingerprint == self.last_failure:
            self.repeats += 1
            self._add(Signal("repeated-failure", config.repeated_failure_weight, tick, fingerprint, key), config)
        else:
            self.repeats = 1
        self.last_failure, self.last_failure_key = fingerprint, key

    def edit(self, tick: int, targets: tuple[str, ...], fingerprint: str, config: EscalationConfig) -> None:
        """An edit of ``targets``: the third edit of one target raises one signal for it."""
        for target in targets:
            count = self.edits[target] = self.edits.get(target, 0) + 1
            if count >= config.repeated_mutation_count and target not in self.penalised:
                self.penalised.add(target)
                self._add(Signal("repeated-mutation", config.repeated_mutation_weight, tick, fingerprint,
                                 target=target), config)

    def passed(self, key: str, command: str) -> None:
        """A genuine pass of check ``key``: its signals clear, and so do repeated edits of files
        the passing command names."""
        words = set(command.replace("/", " ").replace("::", " ").split())
        named = {target for target in self.penalised if _named_in(target, command, words)}
        self.signals = deque(s for s in self.signals if s.key != key and s.target not in named)
        self.penalised -= named
        for target in named:
            self.edits.pop(target, None)
        if self.last_failure_key == key:
            self.last_failure, self.last_failure_key, self.repeats = None, None, 0

    def problem(self) -> str | None:
        """The fingerprint of the current problem: the last failure, else the newest signal."""
        if self.last_failure is not None:
            return self.last_failure
        return self.signals[-1].fingerprint if self.signals else None

    def decide(self, config: EscalationConfig, structural_epoch: int) -> Decision:
        """Whether an automatic consultation is due, with the gate that decided."""
        score, threshold, problem = self.score, config.score_threshold, self.problem()

        def no(reason: str) -> Decision:
            return Decision(False, score, threshold, problem, reason)

        if score < threshold:
            return no(f"score {score} is below the threshold {threshold}")
        if problem is None:
            return no("no problem to review")
        if self.auto_turns.get(self.turn, 0) >= config.max_auto_consults_per_turn:
            return no("this turn already had its automatic consultation")
        if self.per_problem.get(problem, 0) >= config.max_auto_consults_per_problem:
            return no("this problem already had its automatic consultation")
        if self.last_auto_turn is not None and self.turn - self.last_auto_turn <= config.cooldown_turns:
            return no("cooling down after the last automatic consultation")
        if self.watermark.get(problem) == structural_epoch:
            return no("this problem was reviewed and nothing structural changed since")
        return Decision(True, score, threshold, problem, f"score {score} reached the threshold {threshold}")

    def consulted(self, examined: list[str], structural_epoch: int, automatic: bool,
                  problem: str | None) -> None:
        """A delivered consultation: it covers exactly the problems it examined."""
        for fingerprint in examined:
            self.watermark[fingerprint] = structural_epoch
        if automatic:
            self.auto_turns[self.turn] = self.auto_turns.get(self.turn, 0) + 1
            self.last_auto_turn = self.turn
            if problem is not None:
                self.per_problem[problem] = self.per_problem.get(problem, 0) + 1

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON."""
        return {
            "score": self.score, "signals": [asdict(s) for s in self.signals], "evidence": list(self.evidence),
            "observations": self.observations, "last_failure": self.last_failure,
            "last_failure_key": self.last_failure_key, "repeats": self.repeats, "edits": self.edits,
            "penalised": sorted(self.penalised), "turn": self.turn,
            "auto_turns": {str(k): v for k, v in self.auto_turns.items()}, "per_problem": self.per_problem,
            "last_auto_turn": self.last_auto_turn, "watermark": self.watermark,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Escalation:
        """An escalation state from :meth:`to_dict` output."""
        return cls(
            signals=deque(Signal(**s) for s in data["signals"]), evidence=deque(data["evidence"]),
            observations=data["observations"], last_failure=data["last_failure"],
            last_failure_key=data["last_failure_key"], repeats=data["repeats"], edits=dict(data["edits"]),
            penalised=set(data["penalised"]), turn=data["turn"],
            auto_turns={int(k): v for k, v in data["auto_turns"].items()}, per_problem=dict(data["per_problem"]),
            last_auto_turn=data["last_auto_turn"], watermark=dict(data["watermark"]),
        )


def _named_in(target: str, command: str, words: set[str]) -> bool:
    """Whether a passing command names an edited file (its path or its stem)."""
    name = target.replace("\\", "/").rsplit("/", 1)[-1]
    stem = name.rsplit(".", 1)[0]
    return target in command or name in words or (len(stem) > 2 and stem in words)
