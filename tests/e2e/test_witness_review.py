"""`witness hook … --review` as the Stop hook of the real Claude Code and Codex CLIs: a completion review (a
second scripted server standing in for the advisor model) holds an unverified "fixed" with its advice, the host
feeds the advice back, and the next review — which sees the first as past advice — lets the agent stop."""

from __future__ import annotations

import json
import subprocess

import pytest

from advisor.consult import ConsultationLog
from tests.e2e.conftest import advisor_env, play
from tests.e2e.host_base import Hooks, Host
from tests.e2e.host_claude import ClaudeCode
from tests.e2e.host_codex import Codex
from tests.e2e.observe import jsonl, stop_feedback
from tests.e2e.sandbox import WITNESS, Sandbox
from tests.support.model_server import ModelServer
from tests.support.script import Reply

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

CONCERN = "Severity: concern\nThe fix is unverified: run `npm test` before saying it is fixed."


@pytest.fixture(params=["claude-code", "codex"])
def host(request: pytest.FixtureRequest, claude: ClaudeCode, codex: Codex) -> Host:
    """Each host that runs Stop hooks."""
    return claude if request.param == "claude-code" else codex


def test_a_concern_holds_the_stop_and_the_advice_reaches_the_model(host: Host, sandbox: Sandbox,
                                                                   model_server: ModelServer,
                                                                   advisor_server: ModelServer) -> None:
    """The review blocks the unverified stop with its advice, the host sends the advice to its model, the agent
    re-runs the test, and the second review, seeing the first as its own earlier turn, lets it stop."""
    advisor_server.enqueue(Reply(text=CONCERN), Reply(text="Severity: none\nVerified by the passing run."))
    sandbox.extra_env.update(advisor_env(sandbox, advisor_server))
    played = play(host, "review_concern", sandbox, model_server, Hooks.reviewing(host.name))
    assert played.agent.played_through("main"), played.explain()
    (transcript,) = played.run.transcripts
    (feedback,) = stop_feedback(transcript)
    assert "witness completion review (reminder 1 of 3" in feedback and "run `npm test` before" in feedback
    asked = [json.dumps(r.body) for r in model_server.requests if r.api in ("messages", "responses")]
    assert any("run `npm test` before saying it is fixed" in body for body in asked[-2:]), played.explain()
    first, second = advisor_server.requests_to("chat")
    assert "Review the answer the executor has just delivered" in json.dumps(first.body)
    assert "Fixed: sum.js adds now." in json.dumps(first.body)
    replayed = [m for m in second.body["messages"] if m["role"] == "assistant"]
    assert [m["content"] for m in replayed] == [CONCERN]
    logged = ConsultationLog(sandbox.witness_home / "log").consultations()
    assert [(c.severity, c.lineage.trigger if c.lineage else None) for c in logged] == \
        [("concern", "completion"), ("none", "completion")]
    shown = subprocess.run([str(WITNESS), "log"], env=sandbox.env(), capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0, shown.stderr
    assert [line.split()[-5:-3] for line in shown.stdout.splitlines()[1:]] == [["severity", "concern"],
                                                                               ["severity", "none"]], shown.stdout


def test_an_unreachable_advisor_lets_the_agent_stop(host: Host, sandbox: Sandbox, model_server: ModelServer) -> None:
    """With the advisor model down, the review fails open: the agent stops where its script ends, unblocked; Claude
    Code records the message that the review did not run (`codex exec` 0.171.0 shows a Stop hook's message nowhere)."""
    with ModelServer() as gone:
        sandbox.extra_env.update(advisor_env(sandbox, gone))
    played = play(host, "genuine_rerun", sandbox, model_server, Hooks.reviewing(host.name))
    assert played.agent.played_through("main"), played.explain()
    (transcript,) = played.run.transcripts
    assert stop_feedback(transcript) == []
    (stop,) = played.run.hook_calls()
    assert stop["payload"]["hook_event_name"] == "Stop"
    if host.name == "claude-code":
        shown = [entry["attachment"]["content"] for entry in jsonl(transcript)
                 if (entry.get("attachment") or {}).get("type") == "hook_system_message"]
        assert [text.startswith("witness: the completion review did not run (Advisor call failed") for text in shown] \
            == [True], shown
