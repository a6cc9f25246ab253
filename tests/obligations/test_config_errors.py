"""Configuration errors are loud and early: a bad TrackerConfig fails when it is made, tool sets add to the
defaults unless told to replace them, and the tracker says what it was handed when it is not an event."""

from __future__ import annotations

import pytest

from obligations import (
    InvalidConfig,
    NotAnEvent,
    ToolCompleted,
    ToolDispatched,
    Tracker,
    TrackerConfig,
    event_from_dict,
)


@pytest.mark.parametrize("settings", [{"policy": "lax"}, {"reminder_budget": -1}, {"history": "3"},
                                      {"max_command_chars": 0}, {"shell_tools": "bash"}, {"escalation": 3}])
def test_a_bad_setting_fails_when_the_config_is_made(settings: dict[str, object]) -> None:
    """`TrackerConfig(policy="lax")` and the like raise InvalidConfig (a ValueError) at once, naming the setting."""
    with pytest.raises(InvalidConfig, match=next(iter(settings))):
        TrackerConfig(**settings)  # type: ignore[arg-type]


def failing(tracker: Tracker, tool: str) -> None:
    tracker.handle(ToolDispatched(call_id=tool, tool=tool, arguments={"command": "pytest"}))
    tracker.handle(ToolCompleted(call_id=tool, exit_code=1, output="1 failed"))


def test_a_hosts_own_shell_tool_is_added_to_the_defaults() -> None:
    """Naming a host's own shell tool keeps `Bash` analysed; `replace_default_tools` makes the set the whole set."""
    tracker = Tracker(TrackerConfig(shell_tools=frozenset({"RunShell"})))
    failing(tracker, "Bash")
    failing(tracker, "runshell")
    assert len(tracker.open_items()) == 1 and tracker.open_items()[0].repeat_count == 2
    only = Tracker(TrackerConfig(shell_tools=frozenset({"RunShell"}), replace_default_tools=True))
    failing(only, "Bash")
    assert only.open_items() == []
    failing(only, "RunShell")
    assert [item.check for item in only.open_items()] == ["pytest"]


def test_handle_given_a_dict_points_to_event_from_dict() -> None:
    """`handle({...})` raises NotAnEvent (a TypeError) that names `event_from_dict`, which reads the dict."""
    tracker = Tracker()
    data = {"type": "tool_dispatched", "call_id": "1", "tool": "Bash", "arguments": {"command": "pytest"}}
    with pytest.raises(NotAnEvent, match="event_from_dict"):
        tracker.handle(data)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not a str"):
        tracker.handle("pytest")  # type: ignore[arg-type]
    assert tracker.tick == 0
    tracker.handle(event_from_dict(data))
    assert tracker.tick == 1


def test_a_result_for_an_unknown_call_is_counted() -> None:
    """A `ToolCompleted` whose dispatch was never seen is counted (and treated as a possible edit)."""
    tracker = Tracker()
    tracker.handle(ToolCompleted(call_id="ghost", exit_code=0))
    assert tracker.lost_results == 1
