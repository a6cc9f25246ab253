"""Which open items a pass may witness, and why a pass does not witness one.

A pass is a candidate witness of the root's open items of the same check in the same directory
— or, for a test run, of the items whose selection its own covers (``go test ./...`` over
``go test ./pkg -run X``). Items left unresolved when an earlier task ended are candidates too:
a genuine pass in a later task resolves them *later*. The witness rule itself (dispatched after
the latest failure, the check's own status, nothing edited in flight, since, or after it in the
same command line, and for an item whose failure showed tests running, an output that does not
show that no test ran) is :func:`why_not`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import shellparse

from ._events._tool_completed import ToolCompleted
from ._items import Item
from ._location import location
from ._redact import redact_line as redact
from ._reports import EndedTask
from ._state import Pending, Scope


def candidates(items: Iterable[Item], ended: Iterable[EndedTask], root: str, pending: Pending,
               validation: shellparse.Validation) -> Iterator[tuple[Item, bool]]:
    """The open items ``validation``'s pass may witness, each with whether it is an earlier task's."""
    for item in items:
        if item.agent_id == root and item.state == "open" and _same_or_covered(item, pending, validation):
            yield item, False
    for task in ended:
        if task.agent_id != root:
            continue
        for item in task.unresolved:
            if item.state == "open" and _same_or_covered(item, pending, validation):
                yield item, True


def _same_or_covered(item: Item, pending: Pending, validation: shellparse.Validation) -> bool:
    if item.cwd != location(pending.cwd, validation.directory):
        return False
    if item.key == validation.check_key:
        return True
    return item.kind == "validation-failure" and item.selection is not None and validation.selection is not None \
        and shellparse.covers(validation.selection, item.selection)


def why_not(item: Item, pending: Pending, event: ToolCompleted, check: shellparse.Check, scope: Scope) -> str | None:
    """Why this run does not witness ``item`` (``None`` when it does)."""
    if event.exit_code is None:
        return "no exit code was reported (a result without one is never a pass)"
    if not check.witness_eligible:
        masks = [r for r in check.reasons if r.level == "masks"]
        if masks:
            return f"{check.exit_source}: {masks[0].message}"
        policy = pending.call.analysis.policy if pending.call.analysis is not None else "seed"
        return f"{check.exit_source}: the exit status is not the check's own under policy {policy}"
    if pending.tick <= item.latest_failure_tick:
        return "it was dispatched before the latest failure completed"
    others = sorted(call for call in scope.inflight if call != pending.call_id)
    if others:
        return f"a potential edit ({others[0]}) was still running when it completed"
    later = scope.completed_after(pending.tick, pending.call_id)
    if later is not None:
        return f"a potential edit ({later}) completed while it ran"
    if check.mutates_after:
        return "something that may edit the workspace runs after the check in the same command"
    if item.kind == "claim-contradicted" and (item.correction is None or pending.tick <= item.correction.tick):
        return "a claim closes only by a run after its correction"
    if item.tests_ran:  # refuted like a failure its output shows: tests failed, and this run ran none
        none = shellparse.none_ran_evidence(check.validation, event.output or "", whole=check.exit_source == "check")
        if none is not None:
            return redact(f"its output shows no test ran: {none}")
    return None
