"""The seed's "Verification obligations" rules, one event script each."""

from __future__ import annotations

import itertools
import json
from typing import Any

from obligations import (
    NO_RECORD,
    AgentDisposed,
    AgentSpawned,
    AssistantMessage,
    Claim,
    Compaction,
    Item,
    ToolCompleted,
    ToolDispatched,
    Tracker,
    TrackerConfig,
    UserMessage,
    block_reason,
    release_message,
)
from shellparse import Policy


class Session:
    """A small driver: shell runs, edits and messages as events for one tracker."""

    def __init__(self, config: TrackerConfig | None = None) -> None:
        self.tracker = Tracker(config)
        self.ids = (f"c{n}" for n in itertools.count(1))
        self.tracker.handle(UserMessage(text="fix the tests"))

    def dispatch(self, command: str | None = None, tool: str = "Bash", agent: str = "root", cwd: str | None = None,
                 arguments: dict[str, Any] | None = None) -> str:
        call = next(self.ids)
        self.tracker.handle(ToolDispatched(call_id=call, tool=tool, agent_id=agent, cwd=cwd,
                                           arguments=arguments if arguments is not None else {"command": command}))
        return call

    def complete(self, call: str, exit_code: int | None, output: str = "", agent: str = "root",
                 is_error: bool | None = None, error_code: str | None = None) -> None:
        failed = exit_code not in (0, None) if is_error is None else is_error
        self.tracker.handle(ToolCompleted(call_id=call, exit_code=exit_code, output=output, agent_id=agent,
                                          is_error=failed, error_code=error_code))

    def run(self, command: str, exit_code: int | None, output: str = "", agent: str = "root",
            cwd: str | None = None) -> str:
        call = self.dispatch(command, agent=agent, cwd=cwd)
        self.complete(call, exit_code, output, agent=agent)
        return call

    def edit(self, path: str = "src/app.py", agent: str = "root") -> str:
        call = self.dispatch(tool="Edit", agent=agent, arguments={"file_path": path, "old_string": "a",
                                                                   "new_string": "b"})
        self.complete(call, None, agent=agent)
        return call

    def turns(self, count: int) -> None:
        """The agent speaks ``count`` times: as many turns pass."""
        for _ in range(count):
            self.tracker.handle(AssistantMessage(text="working on it"))

    def items(self) -> list[Item]:
        return self.tracker.all_items()

    def states(self) -> list[tuple[str | None, str]]:
        return [(item.check, item.state) for item in self.items()]


def test_the_full_lifecycle() -> None:
    """Fail, edit, masked pass (stays open), genuine pass (closes), later edit (re-opens)."""
    s = Session()
    s.run("npm test", 1, "Tests:  1 failed, 2 passed, 3 total")
    assert s.states() == [("npm test", "open")]
    s.edit()
    s.run("npm test; echo done", 0)
    assert s.states() == [("npm test", "open")]
    attempt = s.items()[0].last_attempt
    assert attempt is not None and "`; echo done`" in attempt.reason
    witness = s.run("npm test", 0, "Tests:  3 passed, 3 total")
    item = s.items()[0]
    assert item.state == "resolved" and item.resolution is not None
    assert item.resolution.witness_call_id == witness
    s.edit()
    item = s.items()[0]
    assert item.state == "open"
    assert [t.change for t in item.history] == ["opened", "resolved", "reopened"]


def test_a_recurrence_reopens_the_same_item() -> None:
    """A second failure of the same check is the same item, seen twice."""
    s = Session()
    s.run("pytest -q", 1)
    s.run("python -m pytest -q", 1, "2 failed, 3 passed in 0.4s")
    (item,) = s.items()
    assert item.repeat_count == 2 and item.revision == 2
    assert item.summary == "exited 1: 2 failed, 3 passed in 0.4s"


def test_output_plumbing_does_not_change_the_item() -> None:
    """A failure through a reporting pipe and a bare pass are the same check."""
    s = Session()
    s.run("npx tsc -p tsconfig.json --noEmit 2>&1 | tail -40", 2)
    s.run("npx tsc -p tsconfig.json --noEmit > out.log 2>&1", 0)
    assert s.states() == [("tsc -p tsconfig.json --noEmit", "resolved")]


def test_a_pass_in_another_task_does_not_close() -> None:
    """A new user message starts a new task; the old task's items are archived, not closed."""
    s = Session()
    s.run("npm test", 1)
    s.tracker.handle(UserMessage(text="now do something else"))
    s.run("npm test", 0)
    assert s.items() == []
    (ended,) = [task for task in s.tracker.snapshot()["ended_tasks"] if task["unresolved"]]
    assert ended["unresolved"][0]["check"] == "npm test"


def test_a_goal_continuation_keeps_the_task() -> None:
    """A "keep going" continuation is not a new task."""
    s = Session()
    s.run("npm test", 1)
    s.tracker.handle(UserMessage(text="continue", goal=True))
    s.run("npm test", 0)
    assert s.states() == [("npm test", "resolved")]


def test_a_run_dispatched_before_the_failure_completed_does_not_close() -> None:
    """Dispatch and completion must both come after the latest failure."""
    s = Session()
    failing = s.dispatch("npm test")
    passing = s.dispatch("npm test")
    s.complete(failing, 1)
    s.complete(passing, 0)
    (item,) = s.items()
    assert item.state == "open"
    assert item.last_attempt is not None and "before the latest failure" in item.last_attempt.reason


def test_a_mutation_during_the_run_prevents_the_witness() -> None:
    """An edit that completes while the re-run runs means the pass proves nothing."""
    s = Session()
    s.run("npm test", 1)
    rerun = s.dispatch("npm test")
    s.edit()
    s.complete(rerun, 0)
    assert s.states() == [("npm test", "open")]


def test_a_mutation_in_flight_prevents_the_witness() -> None:
    """An edit still running when the re-run completes prevents the witness too."""
    s = Session()
    s.run("npm test", 1)
    edit = s.dispatch(tool="Write", arguments={"file_path": "a.txt", "content": "x"})
    s.run("npm test", 0)
    assert s.states() == [("npm test", "open")]
    s.complete(edit, None)
    s.run("npm test", 0)
    assert s.states() == [("npm test", "resolved")]


def test_a_mutating_shell_command_counts_as_an_edit() -> None:
    """`sed -i` and unknown scripts re-open; read-only commands and check re-runs do not."""
    s = Session()
    s.run("npm test", 1)
    s.run("npm test", 0)
    s.run("git diff && ls -la && grep -r foo src", 0)
    s.run("npm run lint", 0)
    assert s.states() == [("npm test", "resolved")]
    s.run("sed -i s/a/b/ src/app.py", 0)
    assert s.states() == [("npm test", "open")]
    s.run("npm test", 0)
    s.run("python scripts/gen.py", 0)
    assert s.states() == [("npm test", "open")]


def test_a_lost_dispatch_closes_nothing_and_counts_as_a_mutation() -> None:
    """A result whose dispatch was never seen cannot witness; it may have written, so it re-opens."""
    s = Session()
    s.run("npm test", 1)
    s.complete("never-dispatched", 0, "Tests: 3 passed")
    assert s.states() == [("npm test", "open")]
    s.run("npm test", 0)
    assert s.states() == [("npm test", "resolved")]
    s.complete("also-never-dispatched", 0)
    assert s.states() == [("npm test", "open")]
    assert s.tracker.lost_results == 2


def test_no_exit_code_is_never_a_pass() -> None:
    """A success without an exit code does not witness."""
    s = Session()
    s.run("npm test", 1)
    s.run("npm test", None)
    (item,) = s.items()
    assert item.state == "open"
    assert item.last_attempt is not None and "no exit code" in item.last_attempt.reason


def test_a_reported_pass_refuted_by_its_output_is_another_failure() -> None:
    """`npm run check 2>&1 | tail -5` reported 0 but printed `npm error command failed`."""
    s = Session()
    output = "> check\n> biome check && tsgo --noEmit\n\nnpm error command failed\nnpm error command sh -c biome check"
    # Exit 1 alone would not do: after `cd … &&` it may be `cd`'s failure; the output proves the check's.
    s.run("cd packages/coding-agent && npm run check 2>&1 | tail -5", 1, output)
    s.run("cd packages/coding-agent && npm run check 2>&1 | tail -5", 0, output)
    (item,) = s.items()
    assert item.state == "open" and item.repeat_count == 2
    assert item.summary == "reported exit 0, but its output shows a failure: npm error command failed"


def test_the_strict_policy_refuses_reporting_pipes() -> None:
    """Under `strict`, `npm test | tail -5` exiting 0 does not witness; under `seed` it does."""
    cases: tuple[tuple[Policy, str], ...] = (("seed", "resolved"), ("strict", "open"))
    for policy, state in cases:
        s = Session(TrackerConfig(policy=policy))
        s.run("npm test", 1)
        s.run("npm test 2>&1 | tail -5", 0)
        assert s.states() == [("npm test", state)]


def test_the_working_directory_is_part_of_the_identity() -> None:
    """A pass in another directory, or after `cd` elsewhere, is another check."""
    s = Session()
    s.run("npm test", 1, cwd="/repo/api")
    s.run("npm test", 0, cwd="/repo/web")
    s.run("cd web && npm test", 0, cwd="/repo/api")
    assert [item.state for item in s.items()] == ["open"]
    s.run("npm test", 0, cwd="/repo/api")
    assert [item.state for item in s.items()] == ["resolved"]


def test_excluded_outcomes_and_unknown_failures_open_nothing() -> None:
    """Denied, cancelled, timed-out calls, lone grep misses and non-check failures open nothing."""
    s = Session()
    call = s.dispatch("npm test")
    s.complete(call, None, is_error=True, error_code="permission_denied")
    call = s.dispatch("pytest")
    s.complete(call, None, is_error=True, error_code="cancelled")
    call = s.dispatch("cargo test")
    s.complete(call, None, is_error=True, error_code="ETIMEDOUT")
    s.run("grep -q TODO src/app.py", 1)
    s.run("./deploy.sh", 3)
    assert s.items() == []
    outcomes = [row["outcome"] for row in s.tracker.snapshot()["agents"]["root"]["escalation"]["evidence"]]
    assert outcomes == ["permission-denial", "cancelled", "timeout", "expected-negative", "unknown-failure"]


def test_dispositions_never_close() -> None:
    """A disposition is recorded and shown; the item stays open (corrections: see the claim tests)."""
    s = Session()
    s.run("npm test", 1)
    (item,) = s.items()
    assert s.tracker.dispose(item.id, "accept-risk", "flaky network test, tracked in #12").accepted
    assert not s.tracker.dispose(item.id, "ignore", "x").accepted  # type: ignore[arg-type]  # a caller's mistake
    assert not s.tracker.dispose(item.id, "accept-risk", " ").accepted
    (item,) = s.items()
    assert item.state == "open" and item.disposition is not None and item.disposed
    assert s.tracker.stop() is None  # a disposition covering the revision is not re-reminded
    s.run("npm test", 1)
    (item,) = s.items()
    assert not item.disposed  # later evidence outruns it
    assert s.tracker.stop() is not None


def test_a_claim_needs_a_known_keyed_call() -> None:
    """An unknown call id or a call that ran no check is refused; nothing is created."""
    s = Session()
    s.run("ls -la", 0)
    assert not s.tracker.register_claim("all-pass", "all tests pass", "no-such-call").accepted
    result = s.tracker.register_claim("all-pass", "all tests pass", "c1")
    assert not result.accepted and "unknown validation_call_id" in result.message
    assert s.items() == []


def test_a_claim_closes_only_with_a_correction_and_a_later_witness() -> None:
    """Register against an observed check, correct, then a genuine re-run closes it."""
    s = Session()
    passing = s.run("npm test", 0)
    assert s.tracker.register_claim("all-pass", "README says all tests pass", passing).accepted
    (claim,) = s.items()
    assert claim.kind == "claim-contradicted" and claim.check == "npm test"
    s.run("npm test", 0)
    assert s.items()[0].state == "open"  # no correction yet
    assert s.tracker.correct("all-pass", "README.md", "removed the claim", "CI run #3").accepted
    assert s.items()[0].state == "open"  # a correction alone closes nothing
    s.run("npm test", 0)
    (claim,) = s.items()
    assert claim.state == "resolved" and claim.resolution is not None
    assert claim.resolution.kind == "reverified-and-corrected"


def test_a_claim_keeps_its_first_key() -> None:
    """Re-binding a claim to another check is refused as a conflict."""
    s = Session()
    tests = s.run("npm test", 1)
    lint = s.run("npm run lint", 1)
    assert s.tracker.register_claim("green", "all green", tests).accepted
    refused = s.tracker.register_claim("green", "all green", lint)
    assert not refused.accepted and "keeps its first check" in refused.message


def test_a_keyless_claim_never_closes_until_bound() -> None:
    """Without a validation call the claim cannot close; binding it later gives it a key."""
    s = Session()
    assert s.tracker.register_claim("done", "everything works").accepted
    s.run("npm test", 0)
    assert s.tracker.correct("done", "notes.md", "qualified the claim", "see run").accepted
    s.run("npm test", 0)
    (claim,) = [item for item in s.items() if item.kind == "claim-contradicted"]
    assert claim.state == "open" and claim.key is None
    assert "register the claim again" in claim.closes_by
    bound_to = s.run("npm test", 0)
    assert s.tracker.register_claim("done", "everything works", bound_to).accepted
    s.run("npm test", 0)
    (claim,) = [item for item in s.items() if item.kind == "claim-contradicted"]
    assert claim.state == "resolved"


def test_a_claim_in_an_assistant_message_is_registered() -> None:
    """The host may pass a claim with the assistant's message."""
    s = Session()
    call = s.run("npm test", 0)
    s.tracker.handle(AssistantMessage(text="All tests pass.", claim=Claim(claim_id="c", summary="all pass",
                                                                           validation_call_id=call)))
    assert [item.kind for item in s.items()] == ["claim-contradicted"]


def test_correct_without_an_id_needs_a_unique_open_item() -> None:
    """`correct` resolves the unique open item of the claim, and refuses when there is none or it is incomplete."""
    s = Session()
    assert not s.tracker.correct("nope", "a", "b", "c").accepted
    assert s.tracker.register_claim("green", "all green", s.run("npm test", 0)).accepted
    assert not s.tracker.correct("green", "", "b", "c").accepted
    (claim,) = s.items()
    result = s.tracker.correct("green", "README.md", "qualified it", "run c2")
    assert result.accepted and result.item_id == claim.id
    (claim,) = s.items()
    assert claim.correction is not None and claim.correction.document == "README.md"


def test_reminders_one_per_revision_within_the_budget() -> None:
    """At most one reminder per revision, three per task, the last one final, always a reminder."""
    s = Session()
    s.run("npm test", 1)
    reminders = []
    for _ in range(6):
        reminder = s.tracker.stop()
        if reminder is not None:
            reminders.append(reminder)
        s.run("npm test", 1)  # a new revision each round
    assert len(reminders) == 3
    assert [r.final for r in reminders] == [False, False, True]
    assert all("block" not in r.text.lower().replace("not a block", "") for r in reminders)
    assert "STILL UNRESOLVED" in reminders[-1].text
    assert s.tracker.reminders_left() == 0
    assert s.items()[0].repeat_count == 7
    assert s.tracker.stop() is None


def test_an_unchanged_revision_is_not_reminded_twice() -> None:
    """Stopping twice without new evidence gives one reminder."""
    s = Session()
    s.run("pytest", 1)
    assert s.tracker.stop() is not None
    assert s.tracker.stop() is None


def test_notices_follow_changes_and_never_say_all_clear() -> None:
    """A notice lists open items with what closes them; when none are open it says "no current-run record"."""
    s = Session()
    assert s.tracker.notices() == []
    s.run("npm test", 1)
    (notice,) = s.tracker.notices()
    assert "closes only through" in notice.text and "npm test" in notice.text
    assert s.tracker.notices() == []
    s.run("npm test", 0)
    (notice,) = s.tracker.notices()
    assert notice.items == () and NO_RECORD in notice.text


def test_stale_task_results_are_quarantined_but_their_edits_count() -> None:
    """A check from the previous task opens nothing; an edit from it still counts as an edit."""
    s = Session()
    old_check = s.dispatch("npm test")
    old_edit = s.dispatch(tool="Edit", arguments={"file_path": "a.py"})
    s.tracker.handle(UserMessage(text="next task"))
    s.complete(old_check, 1)
    assert s.items() == []
    s.run("pytest", 1)
    s.run("pytest", 0)
    assert s.states() == [("pytest", "open")]  # the old task's edit is still running
    s.complete(old_edit, None)
    s.run("pytest", 0)
    assert s.states() == [("pytest", "resolved")]


def test_the_root_is_told_whose_failed_run_it_answers_for() -> None:
    """A Stop hook's reason and its release message name the worker whose failed run the root inherited,
    and say nothing of workers for the root's own failures."""
    s = Session()
    s.tracker.handle(AgentSpawned(agent_id="w1", parent_id="root", role="local-subagent"))
    s.run("cargo build", 101, "error[E0308]: mismatched types", agent="w1")
    s.run("npm test", 1, "1 failing")
    inherited, own = sorted(s.items(), key=lambda item: item.check or "")
    reason = block_reason([inherited, own], 1, 3)
    assert "- `cargo build` (run by worker `w1`): " in reason and "- `npm test`: " in reason
    assert "`cargo build` (run by worker `w1`)" in release_message([inherited], 3)
    assert "worker" not in release_message([own], 3)


def test_worker_signals_stay_with_the_worker_and_its_edits_reach_the_root() -> None:
    """A worker's failures score for the worker only; its edits re-open the root's items."""
    s = Session()
    s.tracker.handle(AgentSpawned(agent_id="w1", parent_id="root", role="local-subagent"))
    for _ in range(3):
        s.run("cargo build", 101, "error[E0308]: mismatched types", agent="w1")
    assert s.tracker.should_escalate("w1").escalate
    assert s.tracker.should_escalate("root").score == 0
    (inherited,) = s.items()  # the root inherits its worker's unverified failure
    assert (inherited.agent_id, inherited.failed_by, inherited.repeat_count) == ("root", "w1", 3)
    s.run("cargo build", 0)
    s.run("npm test", 1)
    s.run("npm test", 0)
    s.edit(agent="w1")
    assert s.states() == [("cargo build", "open"), ("npm test", "open")]


def test_advisor_edits_are_mirrored_into_the_root_scope() -> None:
    """An advisor's edit re-opens its requester's root items too."""
    s = Session()
    s.tracker.handle(AgentSpawned(agent_id="adv", parent_id="root", role="advisor"))
    s.run("npm test", 1)
    s.run("npm test", 0)
    s.edit(agent="adv")
    assert s.states() == [("npm test", "open")]


def test_escalation_scores_and_gates() -> None:
    """Errors and repeats add up to the threshold; one consultation per turn and per problem."""
    s = Session()
    s.run("pytest", 1, "E   assert 1 == 2\n1 failed in 0.12s")
    assert not s.tracker.should_escalate().escalate  # a tool error: 2
    s.run("pytest", 1, "E   assert 1 == 2\n1 failed in 0.31s")
    decision = s.tracker.should_escalate()
    assert decision.escalate and decision.score == 2 + 2 + 3  # the timing is volatile: the same failure again
    ticket = s.tracker.begin_review()
    assert s.tracker.finish_review(ticket, automatic=True) == "delivered"
    assert not s.tracker.should_escalate().escalate  # per-turn cap, per-problem cap, watermark
    s.run("pytest", 0)
    assert s.tracker.should_escalate().score == 0  # a genuine pass clears its signals


def test_a_masked_pass_clears_nothing() -> None:
    """`pytest || true` exiting 0 leaves the score where it was."""
    s = Session()
    s.run("pytest", 1, "boom")
    s.run("pytest || true", 0)
    assert s.tracker.should_escalate().score == 2


def test_repeated_edits_of_one_file_raise_one_signal() -> None:
    """The third edit of the same target adds one repeated-mutation signal."""
    s = Session()
    for _ in range(4):
        s.edit("src/parser.py")
    kinds = [signal["kind"] for signal in s.tracker.snapshot()["agents"]["root"]["escalation"]["signals"]]
    assert kinds == ["repeated-mutation"]


def test_watermarks_are_per_problem_and_rearm_on_structural_change() -> None:
    """Reviewing B never refreshes A; an edit re-arms a reviewed problem; a bare repeat does not."""
    config = TrackerConfig()
    s = Session(config)
    s.run("pytest -k a", 1, "A broke")
    s.run("pytest -k a", 1, "A broke")
    problem_a = s.tracker.should_escalate().fingerprint
    assert problem_a is not None
    assert s.tracker.finish_review(s.tracker.begin_review(), examined=[problem_a]) == "delivered"
    s.turns(5)  # later turns: cooldown over
    s.run("pytest -k a", 1, "A broke")
    decision = s.tracker.should_escalate()
    assert decision.fingerprint == problem_a and not decision.escalate  # a bare repeat: still covered
    assert "reviewed" in decision.reason
    s.edit()  # a structural change re-arms A
    s.run("pytest -k b", 1, "B broke")
    s.run("pytest -k b", 1, "B broke")
    problem_b = s.tracker.should_escalate().fingerprint
    assert problem_b not in (None, problem_a)
    assert s.tracker.finish_review(s.tracker.begin_review(), examined=[problem_b]) == "delivered"
    s.turns(5)
    s.run("pytest -k a", 1, "A broke")
    decision = s.tracker.should_escalate()
    assert decision.fingerprint == problem_a and decision.escalate, decision  # B's review did not cover A again
    s.run("pytest -k b", 1, "B broke")
    decision = s.tracker.should_escalate()
    assert decision.fingerprint == problem_b and not decision.escalate  # B is covered at this epoch


def test_a_review_that_raced_an_edit_is_stale() -> None:
    """A workspace change during a review makes its result stale (recorded, not delivered)."""
    s = Session()
    ticket = s.tracker.begin_review()
    s.edit()
    assert s.tracker.finish_review(ticket) == "stale"
    ticket = s.tracker.begin_review()
    pending = s.dispatch(tool="Write", arguments={"file_path": "x"})
    assert s.tracker.finish_review(ticket) == "stale"
    s.complete(pending, None)


def test_commands_come_from_the_command_argument_only() -> None:
    """A description mentioning the tests is not a test run; an argv `shell` call is read as a command."""
    s = Session()
    call = s.dispatch(arguments={"description": "run npm test", "command": "ls"})
    s.complete(call, 1)
    call = s.dispatch(tool="shell", arguments={"command": ["bash", "-lc", "npm test"]})
    s.complete(call, 1)
    assert s.states() == [("npm test", "open")]


def test_the_snapshot_is_plain_json_and_restores() -> None:
    """`snapshot()` survives JSON, and a restored tracker goes on exactly where it left off."""
    s = Session()
    s.run("npm test", 1)
    pending = s.dispatch("npm test")
    data = json.loads(json.dumps(s.tracker.snapshot()))
    restored = Tracker.restore(data)
    assert restored.snapshot() == data
    restored.handle(ToolCompleted(call_id=pending, exit_code=0))
    assert [(item.check, item.state) for item in restored.all_items()] == [("npm test", "resolved")]


def test_events_round_trip_through_json() -> None:
    """Every event type serialises to JSON and back unchanged; unknown fields are ignored."""
    from obligations import event_from_json

    events = [UserMessage(text="hi"), AssistantMessage(text="ok", claim=Claim(claim_id="c")),
              ToolDispatched(call_id="1", tool="Bash", arguments={"command": "pytest"}, shell="bash", cwd="/r"),
              ToolCompleted(call_id="1", exit_code=0, output="ok"),
              AgentSpawned(agent_id="w", parent_id="root"), AgentDisposed(agent_id="w"),
              Compaction(summary="earlier work, summarised")]
    for event in events:
        assert event_from_json(event.model_dump_json()) == event
    assert event_from_json('{"type": "user_message", "text": "x", "unknown": 1}') == UserMessage(text="x")


def test_a_check_that_writes_a_file_does_not_hide_an_edit_during_it() -> None:
    """`pytest -q > out.log` is itself a write; an Edit completing while it runs still counts."""
    s = Session()
    s.run("pytest -q", 1)
    rerun = s.dispatch("pytest -q > out.log")
    s.edit()
    s.complete(rerun, 0)
    assert s.states() == [("pytest -q", "open")]


def test_a_reused_call_id_keeps_both_edits_running() -> None:
    """Two dispatches with one id: one completion leaves the other still in flight."""
    s = Session()
    s.run("npm test", 1)
    s.tracker.handle(ToolDispatched(call_id="dup", tool="Edit", arguments={"file_path": "a.py"}))
    s.tracker.handle(ToolDispatched(call_id="dup", tool="Edit", arguments={"file_path": "b.py"}))
    s.tracker.handle(ToolCompleted(call_id="dup"))
    s.run("npm test", 0)
    assert ("npm test", "open") in s.states()


def test_a_disposed_agents_late_result_is_not_a_new_agents() -> None:
    """A result of a disposed agent's call does not open an item for a new agent of that name."""
    s = Session()
    call = s.dispatch("pytest -q", agent="other")
    s.tracker.handle(AgentDisposed(agent_id="other"))
    s.tracker.handle(AssistantMessage(text="hello", agent_id="other"))
    s.complete(call, 1, agent="other")
    assert s.tracker.open_items("other") == []


def test_a_disposed_workers_later_edits_still_count_for_its_root() -> None:
    """A worker acting after its disposal is still in its root's tree."""
    s = Session()
    s.tracker.handle(AgentSpawned(agent_id="w", parent_id="root", role="local-subagent"))
    s.tracker.handle(AgentDisposed(agent_id="w"))
    s.run("npm test", 1)
    s.run("npm test", 0)
    s.edit(agent="w")
    assert s.states() == [("npm test", "open")]


def test_a_root_that_becomes_a_worker_leaves_its_items_to_the_archive() -> None:
    """Items of an agent that acted as a root are archived when it is spawned as a worker."""
    s = Session()
    s.run("npm test", 1, agent="x")
    s.tracker.handle(AgentSpawned(agent_id="x", parent_id="root", role="local-subagent"))
    assert s.tracker.open_items("x") == []
    assert any(task["agent_id"] == "x" for task in s.tracker.snapshot()["ended_tasks"])


def test_restore_keeps_the_policy() -> None:
    """A strict tracker restored from its snapshot is still strict."""
    s = Session(TrackerConfig(policy="strict"))
    s.run("npm test", 1)
    pending = s.dispatch("npm test | tail -5")
    restored = Tracker.restore(json.loads(json.dumps(s.tracker.snapshot())))
    restored.handle(ToolCompleted(call_id=pending, exit_code=0))
    assert [(item.state) for item in restored.all_items()] == ["open"]
