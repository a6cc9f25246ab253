"""Case packets: what an advisor is told about the requester's task, as bounded UTF-8 JSON.

Sections in priority order, each with its cap (omitted counts go to ``truncation``, never
silently dropped): the trigger and the question; the objective and up to 12 success criteria;
up to 8 evidence items the requester attached; up to 8 failed attempts; validation rows (all
related to the trigger, then at most 3 unrelated failures and 1 success) with
``validation_summary`` counting every run before the cap; at most 4 unrelated other failures;
the open obligations; ``tool_activity`` (the canonical tool-result store — other rows refer to
it by ``call_id``); changed paths derived from retained activity; ``prior_advice``; and the
``recent_tail`` of user and assistant framing. Every string passes the shared redactor before it
is cut to its budget (the host keeps each agent's activity redacted as it records it, so the
outputs it keeps the head and tail of, and the checks read from its commands, are clean too).
The consult tool's own calls are left out: the current consultation is pending by construction.
Activity before the task's start is never included.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from advisor.ledger import primary_argument
from advisor.orchestration._activity import Activity
from advisor.orchestration._verdict_budget import truncate_utf8
from obligations import CallRecord, CheckVerdict, ItemReport, ObligationsReport, redact

PACKET_VERSION = 1
CAPS = {"success_criteria": 12, "requester_evidence": 8, "failed_attempts": 8, "validation": 10,
        "unrelated_validation_failures": 3, "unrelated_validation_successes": 1, "failures": 4, "obligations": 8,
        "tool_activity": 16, "changed_paths": 24, "prior_advice": 4, "recent_tail": 12}
"""How many rows each section keeps when built."""
TEXT_BYTES = {"question": 4096, "objective": 2048, "criterion": 512, "evidence": 1024, "argument": 400,
              "summary": 600, "tail": 800, "advice": 1200, "label": 200, "reason": 400}
"""Budgets of single strings, in UTF-8 bytes."""
TRANSPORT_TOOLS = frozenset({"consult_advisor"})
"""The consultation's own transport: never evidence."""


@dataclass(frozen=True, slots=True)
class TriggerInfo:
    """Why the consultation runs, as the packet states it."""

    kind: str
    fingerprint: str | None = None
    validation_key: str | None = None
    reason: str | None = None


@dataclass(frozen=True, slots=True)
class PriorAdvice:
    """A consultation already delivered to this requester."""

    consultation_id: str
    severity: str
    summary: str


@dataclass(slots=True)
class PacketInput:
    """Everything a packet is built from (the requester's own history only)."""

    requester: dict[str, Any]
    trigger: TriggerInfo
    question: str
    activity: Sequence[Activity]
    objective: str | None = None
    success_criteria: Sequence[str] = ()
    requester_evidence: Sequence[str] = ()
    obligations: ObligationsReport | None = None
    """The requester's obligations as the tracker reports them (the rows open in its current task are shown)."""
    prior_advice: Sequence[PriorAdvice] = ()
    since: int | None = None
    """Continuous review: only activity after this tick."""


def shared_redactor() -> Callable[[str], str]:
    """``obligations.redact``, the one redactor the project has (whole texts, never cut: the packet
    cuts by its own byte budgets, after redacting)."""
    return redact


class Redactor:
    """The shared redactor, then a byte budget (redaction first, so no cut exposes a secret)."""

    def __init__(self, redact: Callable[[str], str]) -> None:
        self.redact = redact
        """The redactor itself (for what is compared, not shown)."""

    def __call__(self, text: str, limit: int) -> str:
        return truncate_utf8(self.redact(text), limit)

    def tail(self, text: str, chars: int, limit: int) -> str:
        """The last ``chars`` characters of ``text`` redacted (redacted whole, then cut), in ``limit`` bytes."""
        return truncate_utf8(self.redact(text)[-chars:], limit)


@dataclass(frozen=True, slots=True)
class _Call:
    """A completed call of the task: what the host kept of it, and the tracker's record."""

    row: Activity
    record: CallRecord

    @property
    def check(self) -> CheckVerdict | None:
        return self.record.primary_check

    @property
    def key(self) -> str | None:
        """The primary check's validation key (kind, directory and identity)."""
        check = self.check
        return check.check.validation.key if check is not None else None


def _row(c: _Call, clean: Redactor) -> dict[str, Any]:
    row, record = c.row, c.record
    argument = primary_argument(row.arguments or {}, limit=TEXT_BYTES["argument"])
    line: dict[str, Any] = {"call_id": row.call_id, "tool": row.tool,
                            "argument": clean(argument, TEXT_BYTES["argument"]), "outcome": record.outcome,
                            "exit_code": record.exit_code}
    if record.outcome != "success":
        detail = row.error_message or (row.tail or row.head)
        line["result"] = clean.tail(detail, 2000, TEXT_BYTES["summary"])
    if record.fingerprint:
        line["fingerprint"] = record.fingerprint
    return line


def _validation_row(c: _Call, related: bool) -> dict[str, Any]:
    check = c.check
    assert check is not None
    validation = check.check.validation
    return {"call_id": c.row.call_id, "check": validation.statement, "kind": validation.kind,
            "outcome": c.record.outcome, "exit_source": check.check.exit_source,
            "witness_eligible": check.witness_eligible, "trigger_related": related,
            **({"fingerprint": c.record.fingerprint} if c.record.fingerprint else {})}


def _obligation(row: ItemReport, clean: Redactor) -> dict[str, Any]:
    return {"id": row.id, "check": clean(row.check, TEXT_BYTES["summary"]) if row.check else row.check,
            "cwd": clean(row.cwd, TEXT_BYTES["argument"]) if row.cwd else row.cwd, "state": row.state,
            "summary": clean(row.summary, TEXT_BYTES["summary"]), "failures": row.failures}


def _obligations(report: ObligationsReport | None, clean: Redactor) -> list[dict[str, Any]]:
    """The tracker's rows of the obligations open in the current task (an earlier task's are behind the
    packet's floor, like its activity)."""
    return [_obligation(row, clean) for row in report.open] if report is not None else []


def _capped(rows: list[Any], cap: int, name: str, omitted: dict[str, int]) -> list[Any]:
    if len(rows) > cap:
        omitted[name] = omitted.get(name, 0) + len(rows) - cap
    return rows[:cap]


def build_packet(data: PacketInput, redact: Callable[[str], str] | None = None) -> dict[str, Any]:
    """The packet at its build-time caps (fit it with :func:`~._packet_fit.fit_packet`);
    ``redact`` defaults to the shared redactor."""
    clean = Redactor(redact or shared_redactor())
    omitted: dict[str, int] = {}
    calls = [_Call(a, a.record) for a in data.activity
             if a.kind == "tool" and a.record is not None and (a.tool or "").lower() not in TRANSPORT_TOOLS
             and (data.since is None or a.seq > data.since)]
    trigger = data.trigger
    # The rows' checks are read from redacted commands: the trigger's key is compared (and shown) so too.
    trigger_key = clean.redact(trigger.validation_key) if trigger.validation_key is not None else None

    def related(c: _Call) -> bool:
        return (trigger.fingerprint is not None and c.record.fingerprint == trigger.fingerprint) or \
            (trigger_key is not None and c.key == trigger_key)

    failures = [c for c in calls if c.record.failed]
    attempts = [c for c in failures if related(c)] if trigger.fingerprint or trigger.validation_key else failures
    validations = [c for c in calls if c.check is not None]
    rows = _validation_rows(validations, related, omitted)
    other_failures = [c for c in reversed(failures) if c.check is None and not related(c)]
    activity = _capped(list(reversed(calls)), CAPS["tool_activity"], "tool_activity", omitted)
    retained = {c.row.call_id for c in activity}
    changed = sorted({t for c in calls if c.record.mutates and c.row.call_id in retained for t in c.record.targets})
    tail = [a for a in data.activity if a.kind in ("user", "assistant") and (data.since is None or a.seq > data.since)]
    packet: dict[str, Any] = {
        "version": PACKET_VERSION,
        "requester": {k: clean(v, TEXT_BYTES["label"]) if isinstance(v, str) else v
                      for k, v in data.requester.items()},
        "trigger": {"kind": trigger.kind, "fingerprint": trigger.fingerprint,
                    "validation_key": trigger_key,
                    "reason": clean(trigger.reason, TEXT_BYTES["reason"]) if trigger.reason else None},
        "question": clean(data.question, TEXT_BYTES["question"]),
        "objective": clean(data.objective, TEXT_BYTES["objective"]) if data.objective else None,
        "success_criteria": [clean(c, TEXT_BYTES["criterion"]) for c in _capped(
            list(data.success_criteria), CAPS["success_criteria"], "success_criteria", omitted)],
        "requester_evidence": [clean(e, TEXT_BYTES["evidence"]) for e in _capped(
            list(data.requester_evidence), CAPS["requester_evidence"], "requester_evidence", omitted)],
        "failed_attempts": [_row(c, clean) for c in _capped(list(reversed(attempts)), CAPS["failed_attempts"],
                                                             "failed_attempts", omitted)],
        "validation": _capped(rows, CAPS["validation"], "validation", omitted),
        "validation_summary": _summary(validations),
        "failures": [_row(c, clean) for c in _capped(other_failures, CAPS["failures"], "failures", omitted)],
        "obligations": _capped(_obligations(data.obligations, clean), CAPS["obligations"], "obligations", omitted),
        "tool_activity": [_row(c, clean) for c in activity],
        "changed_paths": [clean(p, TEXT_BYTES["argument"]) for p in _capped(changed, CAPS["changed_paths"],
                                                                            "changed_paths", omitted)],
        "prior_advice": [{"consultation_id": p.consultation_id, "severity": p.severity,
                          "summary": clean(p.summary, TEXT_BYTES["advice"])}
                         for p in _capped(list(data.prior_advice)[::-1], CAPS["prior_advice"], "prior_advice",
                                          omitted)],
        "recent_tail": [{"role": a.kind, "seq": a.seq, "text": clean(a.text, TEXT_BYTES["tail"])}
                        for a in _capped(tail[::-1], CAPS["recent_tail"], "recent_tail", omitted)][::-1],
        "truncation": {"omitted": omitted},
    }
    return packet


def _validation_rows(validations: list[_Call], related: Callable[[_Call], bool],
                     omitted: dict[str, int]) -> list[dict[str, Any]]:
    """Every row related to the trigger, then at most 3 unrelated failures and 1 success, newest first."""
    rows = [_validation_row(c, True) for c in reversed(validations) if related(c)]
    unrelated_failed = [c for c in reversed(validations) if not related(c) and c.record.outcome == "validation-failure"]
    unrelated_passed = [c for c in reversed(validations) if not related(c) and c.record.outcome == "success"]
    rows += [_validation_row(c, False) for c in _capped(unrelated_failed, CAPS["unrelated_validation_failures"],
                                                         "validation_failures", omitted)]
    rows += [_validation_row(c, False) for c in _capped(unrelated_passed, CAPS["unrelated_validation_successes"],
                                                         "validation_successes", omitted)]
    return rows


def _summary(validations: list[_Call]) -> dict[str, int]:
    """Counts over every validation run of the task, before any cap."""
    return {"runs": len(validations),
            "failed": sum(1 for c in validations if c.record.outcome == "validation-failure"),
            "passed": sum(1 for c in validations if c.record.outcome == "success"),
            "not_witnessing": sum(1 for c in validations if c.record.outcome == "success"
                                  and not (c.check is not None and c.check.witness_eligible)),
            "distinct_checks": len({c.key for c in validations})}
