"""The tracker's public surface: questions answered with values, events left as they were given,
snapshots that refuse what they cannot read, errors with their standard-library bases, and error
codes read from a table."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from pydantic import ValidationError

import obligations
import obligations.errors
from obligations import (
    ERROR_CODES,
    OUTCOMES,
    AgentInfo,
    AgentSpawned,
    AssistantMessage,
    EndedTask,
    ObligationsError,
    SnapshotError,
    SnapshotVersionError,
    Task,
    ToolCompleted,
    ToolDispatched,
    Tracker,
    TrackerConfig,
    UserMessage,
    classify,
)


def run(tracker: Tracker, call_id: str, command: str, exit_code: int, agent: str = "root") -> None:
    tracker.handle(ToolDispatched(call_id=call_id, tool="Bash", arguments={"command": command}, agent_id=agent))
    tracker.handle(ToolCompleted(call_id=call_id, exit_code=exit_code, is_error=exit_code != 0, agent_id=agent))


def test_events_are_left_as_they_were_given() -> None:
    """Handling an event changes nothing in it (the tick is the tracker's), and events are immutable."""
    event = ToolDispatched(call_id="c1", tool="Bash", arguments={"command": "npm test"})
    before = event.model_dump()
    tracker = Tracker()
    assert tracker.handle(event) == 1 and tracker.tick == 1
    assert event.model_dump() == before and "tick" not in before
    with pytest.raises(ValidationError):
        event.call_id = "c2"
    assert event.model_copy(update={"agent_id": "w"}).agent_id == "w" and event.agent_id == "root"


def test_an_event_that_carries_an_old_tick_still_loads() -> None:
    """Events written when the tick was stamped into them are read; the stamp is ignored."""
    event = obligations.event_from_json('{"type": "user_message", "text": "hi", "tick": 7}')
    assert isinstance(event, UserMessage) and "tick" not in event.model_dump()


def test_root_agents_and_their_tasks() -> None:
    """The tree and its tasks are asked about, never read out of the tracker's state."""
    tracker = Tracker()
    assert tracker.root_agents() == [] and tracker.current_task("root") is None
    tracker.handle(UserMessage(text="fix it"))
    tracker.handle(AgentSpawned(agent_id="w", parent_id="root", role="local-subagent"))
    assert tracker.root_agents() == [AgentInfo("root", None, "root", "root", 1)]
    assert tracker.agent_info("w") == AgentInfo("w", "root", "local-subagent", "root", 1)
    assert tracker.agent_info("nobody") is None and tracker.root_agents() == [tracker.agent_info("root")]
    assert tracker.current_task("w") == Task("root", 1, 0, 3)
    tracker.stop()
    assert tracker.current_task("root") == Task("root", 1, 0, 3)  # nothing was due: no reminder spent
    run(tracker, "c1", "npm test", 1)
    tracker.stop()
    assert tracker.current_task("root") == Task("root", 1, 1, 2)


def test_ended_tasks_are_copies_with_their_unresolved_items() -> None:
    """A new task archives the open items of the last; what is handed out cannot change the tracker."""
    tracker = Tracker()
    tracker.handle(UserMessage(text="fix it"))
    run(tracker, "c1", "npm test", 1)
    tracker.handle(UserMessage(text="now something else"))
    (ended,) = tracker.ended_tasks()
    assert isinstance(ended, EndedTask)
    assert (ended.agent_id, ended.task, ended.ended_tick) == ("root", 1, 4)
    assert [item.check for item in ended.unresolved] == ["npm test"]
    ended.unresolved[0].summary = "changed by the caller"
    assert tracker.ended_tasks()[0].unresolved[0].summary != "changed by the caller"
    assert tracker.snapshot()["ended_tasks"] == [task.to_dict() for task in tracker.ended_tasks()]


def test_items_handed_out_are_copies() -> None:
    """Changing an item read from the tracker changes nothing in the tracker."""
    tracker = Tracker()
    run(tracker, "c1", "npm test", 1)
    (item,) = tracker.open_items()
    item.state = "resolved"
    assert [i.state for i in tracker.open_items()] == ["open"]


def test_a_snapshot_of_another_version_or_shape_is_refused() -> None:
    """Restoring refuses, with a ValueError that says why, what it cannot read."""
    tracker = Tracker()
    run(tracker, "c1", "npm test", 1)
    data = json.loads(json.dumps(tracker.snapshot()))
    with pytest.raises(SnapshotVersionError, match=r"unsupported snapshot version 1 \(this tracker reads 2\)"):
        Tracker.restore({**data, "version": 1})
    with pytest.raises(SnapshotError, match="no 'agents' field"):
        Tracker.restore({key: value for key, value in data.items() if key != "agents"})
    with pytest.raises(ValueError, match="a snapshot is a JSON object"):
        Tracker.restore([data])  # type: ignore[arg-type]
    assert Tracker.restore(data).snapshot() == data


def test_every_exception_is_in_the_errors_module_and_its_drawing() -> None:
    """Each exception subclasses ObligationsError and a standard-library base, and the docstring's
    drawing names every one of them."""
    classes = [value for value in vars(obligations.errors).values()
               if isinstance(value, type) and issubclass(value, Exception)]
    assert sorted(cls.__name__ for cls in classes) == sorted(obligations.errors.__all__)
    doc = obligations.errors.__doc__ or ""
    for cls in classes:
        assert cls.__name__ in doc
        assert issubclass(cls, ObligationsError)
        if cls is not ObligationsError:
            assert issubclass(cls, (ValueError, TypeError))


def test_nothing_else_in_the_package_defines_an_exception() -> None:
    """No module but `errors` declares an exception class."""
    for path in Path(obligations.__file__).parent.rglob("*.py"):
        if path.name == "errors.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef):
                bases = {ast.unparse(base) for base in node.bases}
                assert not bases & {"Exception", "ValueError", "TypeError", "RuntimeError"}, (path, node.name)


@pytest.mark.parametrize(("code", "outcome"), [
    ("permission_denied", "permission-denial"), ("EACCES", "permission-denial"),
    ("sandbox-denied", "permission-denial"),
    ("interrupted", "cancelled"), ("Cancelled", "cancelled"), ("timeout", "timeout"), ("ETIMEDOUT", "timeout"),
    ("deadline_exceeded", "timeout"), ("ECONNRESET", "tool-infrastructure-error"),
    ("rate_limited", "tool-infrastructure-error"),
])
def test_error_codes_are_looked_up(code: str, outcome: str) -> None:
    """A known code decides the outcome whatever the exit status, in any case, with `-` or `_`."""
    assert classify(None, 1, True, code, None) == outcome


def test_an_unknown_error_code_says_nothing() -> None:
    """A code not in the table leaves the outcome to the exit status and the message."""
    assert classify(None, 1, True, "ENOENT", None) == "unknown-failure"
    assert classify(None, 0, False, "some_warning", None) == "success"


def test_the_error_code_table_names_only_excluded_outcomes() -> None:
    """Every code means an outcome that neither opens nor closes anything."""
    assert set(ERROR_CODES.values()) <= set(OUTCOMES) - {"validation-failure", "unknown-failure", "success"}
    assert all(code == code.lower() and " " not in code and "-" not in code for code in ERROR_CODES)


def test_the_notice_and_the_item_say_the_same_about_what_closes_it() -> None:
    """An item's `closes_by` is the sentence its notice ends with."""
    tracker = Tracker()
    run(tracker, "c1", "npm test", 1)
    (notice,) = tracker.notices()
    (item,) = tracker.open_items()
    assert notice.text.endswith(f"closes only through: {item.closes_by}")
    assert obligations.closes_by(item) == item.closes_by


def test_a_turn_is_an_assistant_message() -> None:
    """An assistant message is handled as one turn of its agent (and changes no item)."""
    tracker = Tracker()
    run(tracker, "c1", "npm test", 1)
    before = tracker.open_items()
    tracker.handle(AssistantMessage(text="All tests pass."))
    assert tracker.open_items() == before


def test_without_a_score_the_obligations_are_the_same() -> None:
    """`TrackerConfig(escalation=None)` keeps no escalation score and changes no item (what an audit
    and a Stop hook replay with)."""
    scored, unscored = Tracker(), Tracker(TrackerConfig(escalation=None))
    for tracker in (scored, unscored):
        for number in range(3):
            run(tracker, f"f{number}", "npm test", 1)
        run(tracker, "p", "npm test 2>&1 | tail -3; echo done", 0)
    assert unscored.all_items() == scored.all_items()
    assert scored.should_escalate().escalate
    decision = unscored.should_escalate()
    assert not decision.escalate and decision.reason == "escalation scoring is off (TrackerConfig.escalation is None)"


@pytest.mark.parametrize(("tool", "arguments", "expected"), [
    ("Bash", {"command": "pytest -q"}, False), ("Bash", {"command": "ls -la"}, False),
    ("Bash", {"command": "rm -rf build"}, True), ("Bash", {}, True), ("Edit", {"file_path": "a.py"}, True),
    ("Read", {"file_path": "a.py"}, False), ("frobnicate", {"path": "a.py"}, True),
])
def test_mutates_is_the_records_mutates_and_the_dispatch_takes_that_reading(
        tool: str, arguments: dict[str, object], expected: bool) -> None:
    """Asking whether a dispatched call may change the workspace answers as its record does, and the
    dispatch taken afterwards is the same as one taken without asking."""
    event = ToolDispatched(call_id="c1", tool=tool, arguments=arguments, agent_id="root")
    asked, plain = Tracker(), Tracker()
    assert asked.mutates(event) is expected
    assert asked.interpret(event).mutates is expected
    for tracker in (asked, plain):
        tracker.handle(event)
        tracker.handle(ToolCompleted(call_id="c1", exit_code=1, output="1 failed", agent_id="root"))
    assert asked.snapshot() == plain.snapshot()
