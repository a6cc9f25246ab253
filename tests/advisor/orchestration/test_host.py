"""AdvisorHost as an API: sync over an async core, thread-safe events, snapshots, watermarks."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

import advisor
from advisor.models import ScriptedModel
from advisor.orchestration import AdvisorVerdict, FittedPacket, covered, fit_packet
from tests.advisor.orchestration.helpers import fail, make_host, tree, verdict


def test_advisor_host_is_exported_from_advisor() -> None:
    """`advisor.AdvisorHost` is the orchestration's host."""
    from advisor.orchestration import AdvisorHost

    assert advisor.AdvisorHost is AdvisorHost


def test_events_from_many_threads_lose_nothing(tmp_path: Path) -> None:
    """Eight threads reporting tool calls at once: every call reaches the tracker and the packets."""
    host = make_host(tmp_path)
    tree(host, workers=8)

    def work(agent: str) -> None:
        for number in range(50):
            call = f"{agent}-{number}"
            host.on_tool_dispatched(agent, call, "bash", {"command": f"ls dir{number}"})
            host.on_tool_result(agent, call, exit_code=0, output="x")

    threads = [threading.Thread(target=work, args=(f"w{n}",)) for n in range(1, 9)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    counts = [host.packet(f"w{n}").packet["truncation"]["omitted"].get("tool_activity", 0) + 16 for n in range(1, 9)]
    host.close()
    assert counts == [50] * 8
    assert host.tracker.tick == 1 + 8 * 2 + 8 * 100  # the root's task, each worker's spawn and task, every call


def test_the_async_twins_run_on_the_core_from_a_host_loop(tmp_path: Path) -> None:
    """aconsult and aon_pre_step are awaited from another event loop; the sync form there is refused clearly."""
    host = make_host(tmp_path, verdict() * 2)
    tree(host)

    async def from_a_host_loop() -> tuple[str, int]:
        report = await host.aconsult("root", "Review.")
        fail(host, "w1")
        steers = await host.aon_pre_step("w1")
        with pytest.raises(RuntimeError, match="await the `a…` variant"):
            host.consult("root", "blocking here would stall the loop")
        return report.outcome, len([s for s in steers if s.kind == "advice"])

    assert asyncio.run(from_a_host_loop()) == ("delivered", 1)
    host.close()


def test_a_snapshot_restores_agents_policies_budgets_and_continuations_not_authorisations(tmp_path: Path) -> None:
    """A restored host knows the tree, the policy, the budget used and the delivered consultation; no activation."""
    host = make_host(tmp_path, verdict(), max_advisor_consults_per_task=2)
    tree(host)
    host.set_policy("root", {"version": 3, "allowTools": ["git_diff"]})
    report = host.consult("w1", "Review.")
    snapshot = host.snapshot()
    host.close()
    model = ScriptedModel(verdict())
    again = make_host(tmp_path / "again", model, max_advisor_consults_per_task=2)
    again.restore(snapshot)
    assert again.agent("w1").parent == "root" and again.policy("root").allow_tools == ("git_diff",)
    assert again.limiter_stats("root")["consumed"] == 1
    assert again.continuable("w1") == [report.consultation_id]
    continued = again.consult("w1", "And now?", report.consultation_id)
    assert continued.turn == 2 and "Review." in model.requests[0].messages[0].text
    assert again.consult("root", "one more").outcome == "refused"  # the task budget of 2 is spent
    again.close()


def test_coverage_is_attributed_strictly_from_the_fitted_packet() -> None:
    """The trigger always counts; other rows only when the verdict names them; dropped rows never."""
    packet = {"trigger": {"kind": "escalation", "fingerprint": "A"},
              "failed_attempts": [{"call_id": "c1", "fingerprint": "A"}, {"call_id": "c2", "fingerprint": "B"}],
              "validation": [{"call_id": "c3", "fingerprint": "C", "trigger_related": False}],
              "failures": [{"call_id": "c4", "fingerprint": "D"}], "truncation": {"omitted": {}}}
    plain = AdvisorVerdict(severity="none", summary="ok")
    named = AdvisorVerdict(severity="none", summary="ok", examined_calls=("c2", "c3", "c9"),
                           examined_fingerprints=("D", "Z"))
    assert covered(packet, None) == []
    assert covered(packet, plain) == ["A"]
    assert covered(packet, named) == ["A", "B"]  # C is unrelated to the trigger, D not a candidate, c9 not sent
    untriggered = {**packet, "trigger": {"kind": "manual"}}
    assert covered(untriggered, named) == ["B", "C", "D"]


def test_a_fitted_packet_is_what_coverage_reads() -> None:
    """Rows dropped by the 48 KB fit are not candidates, whatever the verdict claims."""
    rows = [{"call_id": f"c{n}", "fingerprint": f"F{n}", "tool": "x", "result": "\x01" * 600} for n in range(8)]
    packet = {"version": 1, "requester": {}, "trigger": {"kind": "manual"}, "question": "q",
              "validation_summary": {}, "failed_attempts": rows, "truncation": {"omitted": {}}}
    fitted: FittedPacket = fit_packet(packet, limit=9000)
    kept = {row["call_id"] for row in fitted.packet["failed_attempts"]}
    claim = AdvisorVerdict(severity="none", summary="ok", examined_calls=tuple(f"c{n}" for n in range(8)))
    assert set(covered(fitted.packet, claim)) == {f"F{c[1:]}" for c in kept} and len(kept) < 8
