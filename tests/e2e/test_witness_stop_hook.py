"""`witness hook` as the Stop hook of the real Claude Code and Codex CLIs, through issue-sized
scenarios: what the host does with each answer, and what `witness audit` makes of the transcript
the host wrote.
"""

from __future__ import annotations

import pytest

from tests.e2e.conftest import Played, play
from tests.e2e.host_base import Hooks, Host
from tests.e2e.host_claude import ClaudeCode
from tests.e2e.host_codex import Codex
from tests.e2e.observe import audit, stop_feedback
from tests.e2e.sandbox import Sandbox
from tests.support.model_server import ModelServer

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


@pytest.fixture(params=["claude-code", "codex"])
def host(request: pytest.FixtureRequest, claude: ClaudeCode, codex: Codex) -> Host:
    """Each host that runs Stop hooks."""
    return claude if request.param == "claude-code" else codex


def main_feedback(played: Played) -> list[str]:
    """The Stop-hook feedback in the main session's transcript."""
    (main,) = [path for path in played.run.transcripts if path.parent.name != "subagents"]
    return stop_feedback(main)


def test_genuine_rerun_is_let_stop(host: Host, sandbox: Sandbox, model_server: ModelServer) -> None:
    """After a fix and a plain re-run that passes, the agent stops at once and the audit calls the check resolved."""
    played = play(host, "genuine_rerun", sandbox, model_server, Hooks.witness(host.name))
    assert main_feedback(played) == [], played.explain()
    assert played.agent.played_through("main"), played.explain()
    report = audit(*played.run.transcripts)
    assert report.exit_code == 0 and report.checks("resolved") == ["npm test"], report.report


def test_masked_rerun_is_blocked(host: Host, sandbox: Sandbox, model_server: ModelServer) -> None:
    """A re-run with its status masked (`npm test; echo done`) ends no reminder: the stop after it is blocked too."""
    played = play(host, "masked_rerun", sandbox, model_server, Hooks.witness(host.name))
    feedback = main_feedback(played)
    assert len(feedback) >= 2, played.explain()
    assert "reminder 2 of 3" in feedback[1] and "npm test" in feedback[1], feedback


def test_masked_rerun_audits_open(host: Host, sandbox: Sandbox, model_server: ModelServer) -> None:
    """The audit of the host's transcript keeps the check open: the masked re-run witnessed nothing."""
    played = play(host, "masked_rerun", sandbox, model_server, Hooks.witness(host.name))
    report = audit(*played.run.transcripts)
    assert report.exit_code == 1 and report.checks("open") == ["npm test"], report.report


def test_block_budget_holds(host: Host, sandbox: Sandbox, model_server: ModelServer) -> None:
    """An agent that never re-runs its failed check is reminded three times, then let stop: never held forever."""
    played = play(host, "cap_holds", sandbox, model_server, Hooks.witness(host.name))
    feedback = main_feedback(played)
    assert [f"reminder {n} of 3" in text for n, text in enumerate(feedback, 1)] == [True] * 3, feedback
    assert played.agent.played_through("main"), played.explain()


def test_fix_after_a_block_audits_resolved(host: Host, sandbox: Sandbox, model_server: ModelServer) -> None:
    """A fix and a genuine re-run after one reminder let the agent stop, and the audit calls the check resolved:
    the host's record of the reminder is its feedback, not a new task that left the check behind."""
    played = play(host, "fixed_after_block", sandbox, model_server, Hooks.witness(host.name))
    feedback = main_feedback(played)
    assert len(feedback) == 1 and "reminder 1 of 3" in feedback[0], feedback
    assert played.agent.played_through("main"), played.explain()
    report = audit(*played.run.transcripts)
    assert report.exit_code == 0, report.report
    assert (report.checks("resolved"), report.checks("earlier"), report.checks("open")) == (["npm test"], [], [])


def test_edit_after_pass_reopens(host: Host, sandbox: Sandbox, model_server: ModelServer) -> None:
    """An edit after the passing re-run re-opens the check: one reminder; a plain re-run then lets the agent stop."""
    played = play(host, "edit_after_pass", sandbox, model_server, Hooks.witness(host.name))
    feedback = main_feedback(played)
    assert len(feedback) == 1 and "npm test" in feedback[0], feedback
    assert played.agent.played_through("main"), played.explain()
    assert audit(*played.run.transcripts).checks("open") == []


def test_unwritable_state_folder_blocks_once(host: Host, sandbox: Sandbox, model_server: ModelServer) -> None:
    """When witness cannot write its state folder, the host's stop_hook_active is the guard: one block, then stop."""
    blocker = sandbox.root / "not-a-folder"
    blocker.write_text("a file where witness expects its state folder\n", encoding="utf-8")
    sandbox.extra_env["WITNESS_HOME"] = str(blocker / "state")  # cannot be created, even by root
    played = play(host, "unwritable_state", sandbox, model_server, Hooks.witness(host.name))
    feedback = main_feedback(played)
    assert len(feedback) == 1 and "npm test" in feedback[0], feedback
    assert played.agent.played_through("main"), played.explain()
