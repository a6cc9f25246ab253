"""Block budgets per agent and task, kept under a lock: a sub-agent never spends its parent's
reminders, and hooks running at once never grant more blocks than the budget."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from advisor.hosts import BlockCounter, BlockKey
from obligations import ROOT_AGENT
from tests.advisor.hosts.hook_sessions import (
    OWN_FAILURE,
    agent_id,
    decision,
    hook,
    parent_while_delegating,
    stop,
    subagent_stop,
    worker_failing,
)
from tests.advisor.sessions import WITNESS


def test_subagent_stops_do_not_spend_the_parents_budget(tmp_path: Path) -> None:
    """Three blocked sub-agent stops, then the parent stops with its own check open: the parent gets its own first
    reminder, not a release."""
    parent, worker = parent_while_delegating(tmp_path), worker_failing(tmp_path)
    agent = agent_id(OWN_FAILURE)
    answers = [hook(subagent_stop(parent, agent, worker), tmp_path)[1] for _ in range(4)]
    assert [decision(a) for a in answers] == ["block", "block", "block", "release"]
    _, answer, _ = hook(stop(parent), tmp_path)
    assert decision(answer) == "block" and answer is not None and "reminder 1 of 3" in answer["reason"]


def test_alternating_stops_in_different_tasks_keep_separate_counts(tmp_path: Path) -> None:
    """A parent and a sub-agent in different tasks stopping in turn never reset each other's count: each is
    blocked three times, then let go (the blocks end without the host's own cap)."""
    parent, worker = parent_while_delegating(tmp_path), worker_failing(tmp_path)
    agent = agent_id(OWN_FAILURE)
    seen = []
    for _ in range(5):
        seen.append(("main", decision(hook(stop(parent), tmp_path)[1])))
        seen.append(("sub", decision(hook(subagent_stop(parent, agent, worker), tmp_path)[1])))
    for who in ("main", "sub"):
        assert [d for w, d in seen if w == who] == ["block"] * 3 + ["release"] * 2, seen


def test_two_subagents_have_a_budget_each(tmp_path: Path) -> None:
    """Two sub-agents of one session, each with its own failed check, are each reminded three times."""
    worker = worker_failing(tmp_path)
    parent = parent_while_delegating(tmp_path)
    answers = {name: [decision(hook(subagent_stop(parent, name, worker), tmp_path)[1]) for _ in range(4)]
               for name in ("a1", "a2")}
    assert answers == {"a1": ["block"] * 3 + ["release"], "a2": ["block"] * 3 + ["release"]}


COUNT_BLOCKS = """
import sys, time
from pathlib import Path
import pytest

from advisor.hosts import BlockCounter, BlockKey
from obligations import ROOT_AGENT
start = float(sys.argv[2])
time.sleep(max(0.0, start - time.time()))
for _ in range(100):
    granted = BlockCounter(Path(sys.argv[1])).count(BlockKey("claude-code", "s", "root", "t"), 3)
    if granted is not None:
        print(granted)
"""


@pytest.mark.slow
def test_concurrent_updates_never_grant_more_blocks_than_the_budget(tmp_path: Path) -> None:
    """Twenty-four processes each counting a hundred blocks of one agent, all starting at the same instant:
    exactly three blocks are granted in all, numbered 1, 2 and 3."""
    start = time.time() + 3  # every process is up and waiting by then; they all count at once
    processes = [subprocess.Popen([sys.executable, "-c", COUNT_BLOCKS, str(tmp_path), str(start)],
                                  stdout=subprocess.PIPE) for _ in range(24)]
    granted = sorted(out.decode().split() for out, _ in (p.communicate(timeout=120) for p in processes))
    assert sorted(number for numbers in granted for number in numbers) == ["1", "2", "3"]


def test_hooks_installed_twice_and_run_at_once_block_within_the_budget(tmp_path: Path) -> None:
    """Twelve `witness hook` processes answering the same stop at once (as a host does for a hook installed
    several times): at most three blocks among them, and every process exits 0."""
    payload = json.dumps(stop(parent_while_delegating(tmp_path))).encode()
    hooks = [subprocess.Popen([WITNESS, "hook", "claude-code"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, env={"WITNESS_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"})
             for _ in range(12)]
    outs = [process.communicate(payload, timeout=120) for process in hooks]
    assert [process.returncode for process in hooks] == [0] * 12
    blocks = [json.loads(out) for out, _ in outs if out.strip() and '"block"' in out.decode()]
    assert 1 <= len(blocks) <= 3
    assert sorted(int(b["reason"].split("reminder ")[1][0]) for b in blocks) == list(range(1, len(blocks) + 1))


def test_a_corrupt_count_file_counts_from_zero(tmp_path: Path) -> None:
    """A state file that is not JSON (or of an older layout) is read as no blocks yet, never as an error."""
    counter = BlockCounter(tmp_path)
    key = BlockKey("codex", "s", "root", "t")
    counter.path(key).write_text('{"task": "t", "blocks": 2}')
    assert counter.count(key, 3) == 1
    counter.path(key).write_text("{not json")
    assert counter.count(key, 3) == 1


def test_a_count_kept_before_the_root_agent_was_named_root_still_counts(tmp_path: Path) -> None:
    """A version-2 file named the session's agent `main`; read now, its count is the root agent's, so an
    upgrade in the middle of a task neither resets the budget nor lets the agent stop early."""
    counter = BlockCounter(tmp_path)
    key = BlockKey("claude-code", "s", ROOT_AGENT, "root:3")
    counter.path(key).write_text(json.dumps({"version": 2, "agents": {"main": {"task": "root:3", "blocks": 2}}}))
    assert counter.count(key, 3) == 3
    assert counter.count(key, 3) is None
    assert json.loads(counter.path(key).read_text())["agents"] == {ROOT_AGENT: {"task": "root:3", "blocks": 3}}


def test_the_hook_path_names_the_root_agent_as_the_tracker_does() -> None:
    """The constants the click-free hook path reads are the ones the Stop logic and the tracker use."""
    from advisor.hosts import _constants, _settings

    assert _constants.ROOT_AGENT == ROOT_AGENT
    assert _settings.deadline({}) == _constants.DEFAULT_DEADLINE
    assert _settings.deadline({}, _constants.REVIEW_DEADLINE) == _constants.REVIEW_DEADLINE


def test_counts_kept_by_either_older_layout_still_count(tmp_path: Path) -> None:
    """A version-3 file (named by the hash of the session id, the session's agent `main`) and a version-2 file
    (named after the id made safe) are read as the root agent's count while the session has no current file; once
    it has one, that file alone is read, and it is version 4 under the hashed name."""
    from advisor.hosts._blocks import legacy_file

    counter = BlockCounter(tmp_path)
    hashed = BlockKey("claude-code", "s-3", ROOT_AGENT, "root:3")
    counter.path(hashed).write_text(json.dumps({"version": 3, "agents": {"main": {"task": "root:3", "blocks": 2}}}))
    assert counter.count(hashed, 3) == 3
    named = BlockKey("codex", "s/2", ROOT_AGENT, "root:1")
    legacy_file(tmp_path, named).write_text(json.dumps({"version": 2, "agents": {"main": {"task": "root:1",
                                                                                            "blocks": 1}}}))
    assert counter.count(named, 3) == 2
    legacy_file(tmp_path, named).write_text(json.dumps({"version": 2, "agents": {"main": {"task": "root:1",
                                                                                            "blocks": 0}}}))
    assert counter.count(named, 3) == 3
    assert json.loads(counter.path(named).read_text()) == {"version": 4,
                                                           "agents": {ROOT_AGENT: {"task": "root:1", "blocks": 3}}}
