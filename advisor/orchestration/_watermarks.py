"""Which problems a delivered consultation covered, attributed strictly from the fitted packet.

Candidates come from the packet as it was sent (after the 48 KB degradation, so dropped evidence
never counts): with a trigger, the trigger's fingerprint and the retained rows related to it;
without one, the retained failures. The trigger's fingerprint always counts (the host put it in
scope); any other candidate counts only when the verdict names it — a delivered row's
``call_id`` in ``examined_calls``, or its fingerprint in ``examined_fingerprints``, checked
against the candidates. Anything else, an empty verdict included, marks nothing. The tracker
then records each covered fingerprint at the current structural epoch on its own, so reviewing
B never refreshes A.
"""

from __future__ import annotations

from typing import Any

from advisor.orchestration._verdict_channel import AdvisorVerdict

_ROW_SECTIONS = ("failed_attempts", "validation", "failures")


def candidates(packet: dict[str, Any]) -> dict[str, str]:
    """Candidate rows of the fitted packet: ``call_id`` → fingerprint."""
    trigger = packet.get("trigger") or {}
    triggered = bool(trigger.get("fingerprint") or trigger.get("validation_key"))
    found: dict[str, str] = {}
    for section in _ROW_SECTIONS:
        for row in packet.get(section) or ():
            fingerprint, call_id = row.get("fingerprint"), row.get("call_id")
            if not fingerprint or not call_id:
                continue
            if section == "validation" and triggered and not row.get("trigger_related"):
                continue
            if section == "failures" and triggered:
                continue
            found[call_id] = fingerprint
    return found


def covered(packet: dict[str, Any], verdict: AdvisorVerdict | None) -> list[str]:
    """The fingerprints a delivered consultation covered, in a stable order."""
    if verdict is None:
        return []
    trigger = (packet.get("trigger") or {}).get("fingerprint")
    rows = candidates(packet)
    prints = set(rows.values())
    result = {trigger} if trigger else set()
    result |= {rows[call] for call in verdict.examined_calls if call in rows}
    result |= {fp for fp in verdict.examined_fingerprints if fp in prints}
    return sorted(result)
