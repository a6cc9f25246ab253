"""`witness hook claude-code` as the SubagentStop hook of the real Claude Code: a sub-agent is
judged by its own work, in the transcript Claude Code keeps for it
(``<session>/subagents/agent-<id>.jsonl``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.conftest import Played, play
from tests.e2e.host_base import Hooks
from tests.e2e.host_claude import ClaudeCode
from tests.e2e.observe import audit, stop_feedback, stop_payloads
from tests.e2e.sandbox import Sandbox
from tests.support.model_server import ModelServer

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def split(played: Played) -> tuple[Path, Path]:
    """The main session's transcript and its one sub-agent's."""
    (main,) = [p for p in played.run.transcripts if p.parent.name != "subagents"]
    (worker,) = [p for p in played.run.transcripts if p.parent.name == "subagents"]
    return main, worker


def test_subagent_blocked_for_its_own_failure(claude: ClaudeCode, sandbox: Sandbox,
                                              model_server: ModelServer) -> None:
    """A sub-agent stopping with its own failed check open is reminded once; after its fix and re-run both stop."""
    played = play(claude, "subagent_own_failure", sandbox, model_server, Hooks.witness("claude-code"))
    main, worker = split(played)
    worker_feedback = stop_feedback(worker)
    assert len(worker_feedback) == 1 and "npm test" in worker_feedback[0], played.explain()
    assert stop_feedback(main) == [], played.explain()
    assert played.agent.played_through("worker") and played.agent.played_through("main"), played.explain()


def test_subagent_not_blocked_for_parent_failure(claude: ClaudeCode, sandbox: Sandbox,
                                                 model_server: ModelServer) -> None:
    """A sub-agent that ran no check is let stop though its parent's test failed; the parent, after its re-run, too."""
    played = play(claude, "subagent_clean", sandbox, model_server, Hooks.witness("claude-code"))
    main, worker = split(played)
    assert stop_feedback(worker) == [] and stop_feedback(main) == [], played.explain()
    assert played.agent.played_through("worker") and played.agent.played_through("main"), played.explain()
    (payload,) = stop_payloads(played.run, "SubagentStop")
    assert Path(payload["agent_transcript_path"]) == worker


def test_subagent_transcript_audits_its_checks(claude: ClaudeCode, sandbox: Sandbox,
                                               model_server: ModelServer) -> None:
    """`witness audit` of the sub-agent's transcript shows its failed check, resolved by its genuine re-run."""
    played = play(claude, "subagent_own_failure", sandbox, model_server, Hooks.witness("claude-code"))
    _, worker = split(played)
    assert audit(worker).checks("resolved") == ["npm test"]
