"""`witness hook … --review` as the Stop hook of the real Claude Code and Codex CLIs: a completion review (a
second scripted server standing in for the advisor model) holds an unverified "fixed" with its advice, the host
feeds the advice back, and the next review — which sees the first as past advice — lets the agent stop."""

from __future__ import annotations

import json

import pytest

from advisor.consult import ConsultationLog
from tests.e2e.conftest import advisor_env, play
from tests.e2e.host_base import Hooks, Host
from tests.e2e.host_claude import ClaudeCode
from tests.e2e.host_codex import Codex
from tests.e2e.observe import stop_feedback
from tests.e2e.sandbox import Sandbox
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
