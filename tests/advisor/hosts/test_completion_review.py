"""`witness hook claude-code --review` as a host runs it (a real process, JSON on stdin): after the obligations
check lets the agent stop, a completion review by the advisor model (the scripted server on loopback, a test
double for the remote model) blocks, informs or allows — once per state, failing open, logged."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from advisor.consult import ConsultationLog
from advisor.hosts import answer_hook
from tests.advisor.hosts.hook_sessions import decision
from tests.advisor.sessions import witness
from tests.support.model_server import ModelServer
from tests.support.script import Hang, Reply
from tests.support.transcripts import Action, Call, Step, User, write

pytestmark = pytest.mark.slow

DONE: list[Action] = [User("make the tests pass"),
                      Step("running the tests", calls=(Call("shell", "pytest -q", "3 passed in 0.1s", 0),)),
                      Step("All tests pass.")]
"""The check passes at once: nothing open, so the review decides."""
FAILING: list[Action] = [User("make the tests pass"),
                         Step("running", calls=(Call("shell", "pytest -q", "=== 1 failed in 0.1s ===", 1),)),
                         Step("Done.")]


def review(tmp_path: Path, actions: list[Action], server: ModelServer | None, *, process: bool = False,
           payload_fields: dict[str, Any] | None = None, **env: str) -> tuple[dict[str, Any] | None, str]:
    """One Stop call of `witness hook claude-code --review` on the session: the parsed answer and stderr. In this
    process by default (with the hook's environment); ``process``: as the installed `witness` script."""
    transcript = tmp_path / "session.jsonl"
    if not transcript.exists():
        write(transcript, "claude-code", actions)
    payload = json.dumps({"hook_event_name": "Stop", "session_id": "s-1", "transcript_path": str(transcript),
                          "cwd": str(tmp_path), "stop_hook_active": False, **(payload_fields or {})}).encode()
    model = {"WITNESS_ADVISOR_PROVIDER": "openai", "WITNESS_ADVISOR_MODEL": "scripted-test-double",
             "WITNESS_ADVISOR_BASE_URL": server.openai_base_url, "OPENAI_API_KEY": "sk-test"} if server else {}
    settings = {"WITNESS_HOME": str(tmp_path / "home"), "WITNESS_CONFIG": str(tmp_path / "none.toml"), **model, **env}
    if process:
        done = witness("hook", "claude-code", "--review", stdin=payload, env=settings)
        assert done.returncode == 0
        out, err = done.stdout.decode(), done.stderr.decode()
    else:
        with pytest.MonkeyPatch.context() as patch:
            for name in ("WITNESS_ADVISOR_PROVIDER", "WITNESS_ADVISOR_MODEL", "WITNESS_ADVISOR_BASE_URL",
                         "WITNESS_STOP_BLOCKS", "WITNESS_HOOK_DEADLINE"):
                patch.delenv(name, raising=False)
            for name, value in settings.items():
                patch.setenv(name, value)
            errors = io.StringIO()
            out, err = answer_hook("claude-code", payload, errors, review=True), errors.getvalue()
    return (json.loads(out) if out.strip() else None), err


def test_a_concern_blocks_with_the_advice(tmp_path: Path, model_server: ModelServer) -> None:
    """A `concern` holds the agent (the installed hook, as a host runs it): the reason carries the advice, marked
    so a later ledger replays it."""
    model_server.enqueue(Reply(text="Severity: concern\nOnly one test file ran; run the whole suite."))
    answer, _ = review(tmp_path, DONE, model_server, process=True)
    assert decision(answer) == "block" and answer is not None
    assert answer["reason"].startswith("witness completion review (reminder 1 of 3")
    assert "Only one test file ran; run the whole suite." in answer["reason"]
    (request,) = model_server.requests_to("chat")
    assert "Review the answer the executor has just delivered" in json.dumps(request.body)


def test_a_nit_is_shown_and_none_allows(tmp_path: Path, model_server: ModelServer) -> None:
    """A `nit` lets the agent stop with the advice shown to the user; `none` lets it stop silently."""
    model_server.enqueue(Reply(text="Severity: nit\nName the test."))
    (tmp_path / "a").mkdir()
    answer, _ = review(tmp_path / "a", DONE, model_server)
    assert decision(answer) == "release" and answer is not None and "Name the test." in answer["systemMessage"]
    model_server.enqueue(Reply(text="Severity: none\nThe answer stands."))
    (tmp_path / "b").mkdir()
    assert review(tmp_path / "b", DONE, model_server)[0] is None


def test_the_answer_the_transcript_does_not_hold_yet_is_reviewed(tmp_path: Path, model_server: ModelServer) -> None:
    """The host calls Stop before writing the final answer to the transcript: the review judges the answer the
    payload carries (`last_assistant_message`), not the step before it; one the file holds is shown once."""
    for folder, actions, final in (("lagging", DONE[:-1], "All 3 tests pass; the parser is fixed."),
                                   ("written", DONE, "All tests pass.")):
        model_server.enqueue(Reply(text="Severity: none\nFine."))
        (tmp_path / folder).mkdir()
        review(tmp_path / folder, actions, model_server, payload_fields={"last_assistant_message": final})
        request = model_server.requests_to("chat")[-1]
        assert json.dumps(request.body).count(final) == 1


def test_open_obligations_block_before_any_review(tmp_path: Path, model_server: ModelServer) -> None:
    """While a check is open the obligations reminder holds the agent, and no model is asked."""
    answer, _ = review(tmp_path, FAILING, model_server)
    assert decision(answer) == "block" and answer is not None and "pytest -q" in answer["reason"]
    assert model_server.requests_to("chat") == []


def test_an_unchanged_state_is_reviewed_once(tmp_path: Path, model_server: ModelServer) -> None:
    """A second stop with nothing new is not reviewed again (the host calling twice, a second hook copy)."""
    model_server.enqueue(Reply(text="Severity: nit\nName the test."))
    review(tmp_path, DONE, model_server)
    answer, err = review(tmp_path, DONE, model_server)
    assert answer is None and "already reviewed" in err
    assert len(model_server.requests_to("chat")) == 1


def test_reviews_are_logged(tmp_path: Path, model_server: ModelServer) -> None:
    """Each review is in the consultation log, as a completion review of the session."""
    model_server.enqueue(Reply(text="Severity: none\nFine."))
    review(tmp_path, DONE, model_server)
    (logged,) = ConsultationLog(tmp_path / "home" / "log").consultations()
    assert logged.lineage is not None and logged.lineage.trigger == "completion"
    assert logged.severity == "none" and logged.session_id == "s-claude"


@pytest.mark.parametrize("setting", ["no model", "unreachable", "over the deadline", "bad ledger setting"])
def test_a_review_that_cannot_run_allows(tmp_path: Path, model_server: ModelServer, setting: str) -> None:
    """No model configured, the model down, or the model slower than the hook's deadline: the stop is allowed,
    with a message saying the review did not run (fail open)."""
    if setting == "no model":
        answer, err = review(tmp_path, DONE, None)
    elif setting == "unreachable":
        with ModelServer() as gone:
            pass
        answer, err = review(tmp_path, DONE, gone)
    elif setting == "bad ledger setting":
        (tmp_path / "bad.toml").write_text("[ledger]\ntail_tool_calls = \"many\"\n", encoding="utf-8")
        answer, err = review(tmp_path, DONE, model_server, WITNESS_CONFIG=str(tmp_path / "bad.toml"))
    else:
        model_server.enqueue(Hang(60))
        answer, err = review(tmp_path, DONE, model_server, process=True, WITNESS_HOOK_DEADLINE="10")
    assert decision(answer) == "release" and answer is not None, (answer, err)
    assert "the completion review did not run" in answer["systemMessage"] and "allowing" in err


def test_the_review_gets_only_what_is_left_of_the_deadline(tmp_path: Path, model_server: ModelServer) -> None:
    """Time spent before the model is asked (here: 5 s waiting for another hook's lock on the review record) comes
    off the review's own time-out, so a slow model still gets the "did not run" message, not the hook killed."""
    from filelock import FileLock

    model_server.enqueue(Hang(60))
    (tmp_path / "home" / "hooks").mkdir(parents=True)
    with FileLock(tmp_path / "home" / "hooks" / "reviewed.lock"):  # another hook holds it throughout
        answer, err = review(tmp_path, DONE, model_server, process=True, WITNESS_HOOK_DEADLINE="20")
    assert decision(answer) == "release" and answer is not None, err
    assert "the completion review did not run" in answer["systemMessage"] and "timed out" in answer["systemMessage"]


def test_the_block_budget_caps_reviews(tmp_path: Path, model_server: ModelServer) -> None:
    """With the reminders spent, a concern lets the agent stop with the advice shown instead."""
    model_server.enqueue(Reply(text="Severity: blocker\nNothing was verified."))
    answer, _ = review(tmp_path, DONE, model_server, WITNESS_STOP_BLOCKS="0")
    assert decision(answer) == "release" and answer is not None
    assert "Nothing was verified." in answer["systemMessage"]


def test_a_claude_session_is_not_reviewed_by_its_own_model(tmp_path: Path, model_server: ModelServer) -> None:
    """Claude Code's Stop payload names no model; its transcript does, and an advisor of that same model is refused."""
    answer, err = review(tmp_path, DONE, model_server, WITNESS_ADVISOR_MODEL="claude-test")
    assert decision(answer) == "release" and answer is not None, (answer, err)
    assert "the completion review did not run" in answer["systemMessage"]
    assert model_server.requests == []
