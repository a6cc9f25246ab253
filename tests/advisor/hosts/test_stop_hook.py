"""`witness hook claude-code|codex`: Stop and SubagentStop answered as the hosts read them, run as real processes."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from advisor.hosts import answer_hook
from tests.advisor.sessions import EXAMPLE, FIXTURES, ROOT, codex_rollout, disk_fault_after, witness
from tests.obligations.test_sources_formats import bash, claude, result
from tests.obligations.test_sources_verdicts import chained
from tests.obligations.transcript_files import codex_run


def stop(transcript: Path | None, home: Path, host: str = "claude-code", **extra: Any) -> tuple[int, Any, str]:
    payload = {"hook_event_name": "Stop", "session_id": "s-1", "cwd": "/home/dev/sum-app",
               "permission_mode": "default", "stop_hook_active": False, **extra}
    if transcript is not None:
        payload["transcript_path"] = str(transcript)
    done = witness("hook", host, stdin=json.dumps(payload).encode(), env={"WITNESS_HOME": str(home)})
    out = done.stdout.decode().strip()
    return done.returncode, json.loads(out) if out else None, done.stderr.decode()


def test_stop_hook_blocks_while_an_obligation_is_open(tmp_path: Path) -> None:
    """Claude Code Stop with an open obligation: exit 0, `decision: block`, the check and what closes it."""
    code, answer, _ = stop(EXAMPLE, tmp_path, last_assistant_message="All tests pass.")
    assert code == 0
    assert answer["decision"] == "block"
    assert "`npm test`" in answer["reason"] and "closes only through" in answer["reason"]
    assert "npm run lint" not in answer["reason"]


def test_stop_hook_gives_up_after_its_cap(tmp_path: Path) -> None:
    """Three blocks per task, then the stop is allowed with a message for the user."""
    answers = [stop(EXAMPLE, tmp_path, stop_hook_active=n > 0)[1] for n in range(5)]
    assert [a.get("decision") for a in answers] == ["block", "block", "block", None, None]
    assert "unresolved verification obligation" in answers[3]["systemMessage"]


def test_stop_hook_cap_is_configurable(tmp_path: Path) -> None:
    """`WITNESS_STOP_BLOCKS=1` allows after one block."""
    payload = json.dumps({"hook_event_name": "Stop", "session_id": "s-9", "transcript_path": str(EXAMPLE)})
    answers = [witness("hook", "claude-code", stdin=payload.encode(),
                       env={"WITNESS_HOME": str(tmp_path), "WITNESS_STOP_BLOCKS": "1"}).stdout for _ in range(2)]
    assert json.loads(answers[0])["decision"] == "block"
    assert "decision" not in json.loads(answers[1])


def test_codex_stop_hook_blocks_then_allows_after_a_genuine_pass(tmp_path: Path) -> None:
    """Codex: a masked re-run keeps the block; once the session goes on to a genuine re-run, the stop is allowed."""
    session = codex_rollout(tmp_path / "rollout.jsonl", passes=False)
    code, answer, _ = stop(session, tmp_path, host="codex", turn_id="t1", model="gpt-5")
    assert code == 0 and answer["decision"] == "block"
    assert "`npm test`" in answer["reason"]
    session.write_text(session.read_text() + "".join(
        json.dumps(entry) + "\n" for entry in codex_run("c4", "npm test", 0, "Tests:  3 passed, 3 total")))
    assert stop(session, tmp_path, host="codex", turn_id="t1", model="gpt-5") == (0, None, "")


def test_subagent_stop_uses_the_agents_transcript(tmp_path: Path) -> None:
    """SubagentStop reads `agent_transcript_path` when it is given."""
    payload = {"hook_event_name": "SubagentStop", "session_id": "s-2", "stop_hook_active": False,
               "agent_id": "a1", "agent_type": "general-purpose", "transcript_path": "/nonexistent.jsonl",
               "agent_transcript_path": str(EXAMPLE)}
    done = witness("hook", "claude-code", stdin=json.dumps(payload).encode(), env={"WITNESS_HOME": str(tmp_path)})
    assert done.returncode == 0 and json.loads(done.stdout)["decision"] == "block"


def test_subagent_stop_holds_the_subagent_to_its_own_checks(tmp_path: Path) -> None:
    """A sub-agent's own transcript (a sidechain) is judged as if the sub-agent were the root."""
    sidechain = tmp_path / "agent-a7f3.jsonl"
    lines = [json.loads(line) for line in EXAMPLE.read_text().splitlines()]
    sidechain.write_text("".join(json.dumps({**line, "isSidechain": True, "agentId": "a7f3"}) + "\n"
                                 for line in lines))
    payload = {"hook_event_name": "SubagentStop", "session_id": "s-3", "stop_hook_active": False,
               "agent_id": "a7f3", "transcript_path": str(EXAMPLE), "agent_transcript_path": str(sidechain)}
    done = witness("hook", "claude-code", stdin=json.dumps(payload).encode(), env={"WITNESS_HOME": str(tmp_path)})
    assert done.returncode == 0 and json.loads(done.stdout)["decision"] == "block"


def test_stop_hook_allows_when_nothing_is_open(tmp_path: Path) -> None:
    """A session without failed checks stops freely, with no output."""
    assert stop(FIXTURES / "claude" / "convo.jsonl", tmp_path) == (0, None, "")


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [(["hook", "claude-code"], b"not json", "not JSON"), (["hook", "claude-code"], b"[1, 2]", "not a JSON object"),
     (["hook", "nonsense"], b"{}", "unknown host"), (["hook"], b"{}", "no host named"),
     (["hook", "claude-code"], b'{"hook_event_name": "Stop"}', "no transcript_path"),
     (["hook", "codex"], b'{"hook_event_name": "Stop", "transcript_path": null}', "no transcript_path"),
     (["hook", "claude-code"], b'{"hook_event_name": "Stop", "transcript_path": "/no/such.jsonl"}',
      "cannot read the transcript")],
)
def test_hooks_fail_open_and_never_exit_2(tmp_path: Path, args: list[str], stdin: bytes, message: str) -> None:
    """Bad input, a bad host or a missing transcript allow the stop: exit 0, a message on stderr (and for a
    transcript it cannot read, a word to the user that nothing was checked)."""
    done = witness(*args, stdin=stdin, env={"WITNESS_HOME": str(tmp_path)})
    assert done.returncode == 0
    if message == "cannot read the transcript":
        assert json.loads(done.stdout)["systemMessage"].startswith("witness checked nothing at this stop")
    else:
        assert done.stdout.strip() == b""
    assert message in done.stderr.decode() and b"Traceback" not in done.stderr


def test_tool_events_are_accepted_without_reading_anything(tmp_path: Path) -> None:
    """PostToolUse and PostToolUseFailure return at once, even with a transcript that does not exist."""
    for event in ("PostToolUse", "PostToolUseFailure", "PreToolUse"):
        payload = {"hook_event_name": event, "session_id": "s", "transcript_path": "/no/such.jsonl",
                   "tool_name": "Bash", "tool_input": {"command": "npm test"}, "tool_use_id": "toolu_1"}
        done = witness("hook", "claude-code", stdin=json.dumps(payload).encode(), env={"WITNESS_HOME": str(tmp_path)})
        assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")


def test_without_its_counter_the_hook_falls_back_on_stop_hook_active(tmp_path: Path) -> None:
    """If the block counter cannot be saved, a first stop is blocked once and a stop that follows a block is let go."""
    home = tmp_path / "file-not-dir"
    home.write_text("x")
    code, answer, err = stop(EXAMPLE, home)
    assert (code, answer["decision"]) == (0, "block")
    assert "cannot keep the block count" in err and "blocking once" in err
    code, answer, err = stop(EXAMPLE, home, stop_hook_active=True)
    assert code == 0 and "decision" not in answer
    assert "`npm test`" in answer["systemMessage"] and "allowing a stop that already follows a block" in err


def test_stop_hook_allows_when_the_transcript_cannot_be_read_to_its_end(monkeypatch: pytest.MonkeyPatch,
                                                                      tmp_path: Path) -> None:
    """An obligation seen before a read error may be closed after it: the hook allows and says why."""
    monkeypatch.setenv("WITNESS_HOME", str(tmp_path))
    payload = {"hook_event_name": "Stop", "session_id": "s-1", "transcript_path": str(EXAMPLE),
               "stop_hook_active": False}
    err = io.StringIO()
    assert json.loads(answer_hook("claude-code", json.dumps(payload).encode(), err))["decision"] == "block"
    disk_fault_after(monkeypatch, 6)
    monkeypatch.setenv("WITNESS_HOME", str(tmp_path / "other"))  # no kept replay: the whole file is read again
    err = io.StringIO()
    assert answer_hook("claude-code", json.dumps(payload).encode(), err) == ""
    assert "could not be read to its end (reading stopped after line 6: Input/output error); allowing" in err.getvalue()


def test_codex_block_count_goes_on_after_its_own_hook_prompt(tmp_path: Path) -> None:
    """Codex records the hook's block as a user message `<hook_prompt …>`; the next stop, after a masked re-run, is
    reminder 2 of 3 (not a new task's reminder 1, nor let go), and the budget ends the blocks."""
    real = (ROOT / "tests" / "fixtures" / "hosts" / "codex-fixed-after-block.jsonl").read_text().splitlines(True)
    (cut,) = [index for index, line in enumerate(real) if "<hook_prompt" in line and '"response_item"' in line]
    session = tmp_path / "rollout.jsonl"
    session.write_text("".join(real[:cut]))
    answers = [stop(session, tmp_path, host="codex", turn_id="t1")[1]]
    session.write_text("".join(real[: cut + 1]) + "".join(
        json.dumps(entry) + "\n" for entry in codex_run("c9", "npm test; echo done", 0, "done")))
    answers += [stop(session, tmp_path, host="codex", turn_id="t1", stop_hook_active=True)[1] for _ in range(3)]
    assert [a.get("decision") for a in answers] == ["block", "block", "block", None]
    assert [("reminder 1 of 3" in a["reason"]) for a in answers[:1]] == [True]
    assert "reminder 2 of 3" in answers[1]["reason"] and "`npm test`" in answers[1]["reason"]
    assert "unresolved verification obligation" in answers[3]["systemMessage"]


def test_what_the_hook_hands_the_host_cannot_drive_a_terminal(tmp_path: Path) -> None:
    """A failing check whose output clears the screen, retitles it, rings and flips text: the block reason and the
    release message (Claude Code shows it to the user) hold none of it."""
    from tests.obligations.transcript_files import codex, write_jsonl

    evil = "Tests: 1 failed \x1b[2J\x1b]0;pwned\x07\u202eevil\x9b31m\r"
    session = write_jsonl(tmp_path / "rollout.jsonl", [
        codex("session_meta", {"id": "t", "cwd": "/repo"}),
        codex("event_msg", {"type": "user_message", "message": "go"}),
        *codex_run("c1", "npm test", 1, evil)])
    answers = [stop(session, tmp_path, host="codex", turn_id="t1")[1] for _ in range(4)]
    texts = [answers[0]["reason"], answers[3]["systemMessage"]]
    assert all("`npm test`" in text and not any(c in text for c in "\x1b\x07\x9b\u202e\r") for text in texts)


def test_root_stop_names_the_failed_check_it_inherited_from_a_worker(tmp_path: Path) -> None:
    """A worker's `npm run build` that failed four times and never passed blocks the root's Stop, which
    names the check."""
    side = {"isSidechain": True, "agentId": "w1"}
    runs = [entry for n in range(4) for entry in (
        bash(f"b{n}", "npm run build", **side),
        result(f"b{n}", "Exit code 1\nnpm error code 2", is_error=True, **side))]
    path = tmp_path / "session.jsonl"
    path.write_text("".join(json.dumps(entry) + "\n" for entry in chained([claude("user", "fix the build"), *runs])))
    code, answer, _ = stop(path, tmp_path)
    assert code == 0 and answer["decision"] == "block"
    assert "`npm run build`" in answer["reason"]
