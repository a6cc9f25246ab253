"""SubagentStop judges a sub-agent by its own calls only: its own transcript, its entries in the parent's, or —
when they cannot be told apart — not at all (it is let stop, never held for its parent's work)."""

from __future__ import annotations

from pathlib import Path

from tests.advisor.hosts.hook_sessions import (
    CLEAN,
    OWN_FAILURE,
    agent_file,
    agent_id,
    decision,
    hook,
    lines,
    parent_while_delegating,
    subagent_stop,
    worker_failing,
)


def test_without_its_transcript_a_subagent_is_not_held_for_the_parents_failure(tmp_path: Path) -> None:
    """No `agent_transcript_path` and no entries of the sub-agent in the parent's file (the parent's own `npm test`
    failed): the sub-agent is let stop, and stderr says why."""
    code, answer, err = hook(subagent_stop(parent_while_delegating(tmp_path), agent_id(CLEAN), None), tmp_path)
    assert (code, decision(answer)) == (0, "allow")
    assert "holds no call of sub-agent" in err and "not held for its parent's work" in err


def test_a_subagents_sidechain_entries_in_the_parents_file_judge_it(tmp_path: Path) -> None:
    """Older Claude Code kept a sub-agent's entries in the parent's file (isSidechain, agentId): selected by
    `agent_id`, the failing sub-agent is blocked for its own `npm test`; the clean one is let stop though the
    parent's own `npm test` failed."""
    parent = tmp_path / "older-layout.jsonl"
    parent.write_text("".join(lines(parent_while_delegating(tmp_path)) + lines(worker_failing(tmp_path))
                              + lines(agent_file(CLEAN))), encoding="utf-8")
    _, answer, _ = hook(subagent_stop(parent, agent_id(OWN_FAILURE), None), tmp_path)
    assert decision(answer) == "block" and answer is not None and "`npm test`" in answer["reason"]
    _, answer, err = hook(subagent_stop(parent, agent_id(CLEAN), None, session="s-2"), tmp_path)
    assert decision(answer) == "allow", (answer, err)


def test_without_an_agent_id_or_a_transcript_nothing_is_judged(tmp_path: Path) -> None:
    """A SubagentStop naming neither the sub-agent's transcript nor its id cannot be judged: allowed, and why."""
    payload = subagent_stop(parent_while_delegating(tmp_path), "", None)
    del payload["agent_id"]
    code, answer, err = hook(payload, tmp_path)
    assert (code, decision(answer)) == (0, "allow") and "names neither" in err


def test_the_subagents_own_transcript_judges_it(tmp_path: Path) -> None:
    """With `agent_transcript_path` (Claude Code 2.1.x) the clean sub-agent is let stop and the failing one blocked,
    whatever the parent's own state."""
    parent = parent_while_delegating(tmp_path)
    assert decision(hook(subagent_stop(parent, agent_id(CLEAN), agent_file(CLEAN)), tmp_path)[1]) == "allow"
    _, answer, _ = hook(subagent_stop(parent, agent_id(OWN_FAILURE), worker_failing(tmp_path)), tmp_path)
    assert decision(answer) == "block"
