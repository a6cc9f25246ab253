"""The Stop hook's state files do not pile up: a session's files go once no hook has changed them
for the kept days (when a new session writes its first file of that kind), and nothing else in the
folder is touched."""

from __future__ import annotations

import os
import time
from pathlib import Path

from advisor.hosts import KEPT_DAYS, BlockCounter, BlockKey, ReviewedStates
from tests.advisor.hosts.hook_sessions import decision, hook, parent_while_delegating, stop

DAY = 86_400


def _age(path: Path, days: float) -> Path:
    then = time.time() - days * DAY
    os.utime(path, (then, then))
    return path


def _old_session_files(folder: Path) -> tuple[Path, Path]:
    old = BlockKey("claude-code", "old", "root", "t")
    BlockCounter(folder).count(old, 3)
    ReviewedStates(folder).claim(old, "digest")
    return (_age(BlockCounter(folder).path(old), KEPT_DAYS + 1),
            _age(ReviewedStates(folder).path(old), KEPT_DAYS + 1))


def test_a_new_sessions_first_file_removes_its_kinds_stale_files(tmp_path: Path) -> None:
    """A new session's first block count removes other sessions' counts unchanged for longer than the kept days
    (not a session changed within them, nor a reviewed state: each kind prunes its own, under its own lock); its
    first reviewed state removes the stale reviewed states."""
    counts, reviewed = _old_session_files(tmp_path)
    recent = BlockKey("codex", "recent", "root", "t")
    BlockCounter(tmp_path).count(recent, 3)
    recent_file = _age(BlockCounter(tmp_path).path(recent), KEPT_DAYS - 1)
    new = BlockKey("claude-code", "new", "root", "t")
    BlockCounter(tmp_path).count(new, 3)
    assert not counts.exists() and reviewed.exists() and recent_file.exists()
    ReviewedStates(tmp_path).claim(new, "digest")
    assert not reviewed.exists() and recent_file.exists()


def test_only_state_files_are_removed(tmp_path: Path) -> None:
    """Locks, other files and folders in the state folder are left alone however old they are; an old
    temporary copy (a hook killed while writing) goes with the stale state files."""
    _old_session_files(tmp_path)
    abandoned = tmp_path / "tmpa1b2c3.tmp"
    abandoned.write_text("{")
    _age(abandoned, KEPT_DAYS + 1)
    others = [tmp_path / "counts.lock", tmp_path / "notes.txt", tmp_path / "kept.json.bak"]
    for path in others:
        if not path.exists():
            path.write_text("x")
        _age(path, KEPT_DAYS * 10)
    (tmp_path / "folder.json").mkdir()
    ReviewedStates(tmp_path).claim(BlockKey("codex", "new", "root", "t"), "digest")
    assert all(path.exists() for path in others) and (tmp_path / "folder.json").is_dir()
    assert not abandoned.exists()
    kept = [BlockCounter(tmp_path).path(BlockKey("claude-code", "old", "main", "t")).name, "folder.json",
            ReviewedStates(tmp_path).path(BlockKey("codex", "new", "main", "t")).name]
    assert sorted(p.name for p in tmp_path.glob("*.json")) == sorted(kept)


def test_a_sessions_own_old_file_is_read_before_it_could_go(tmp_path: Path) -> None:
    """A session resumed after a long pause keeps counting in its own file (it is only replaced, never
    removed first): its next block is the one after those already counted."""
    key = BlockKey("claude-code", "paused", "root", "t")
    counter = BlockCounter(tmp_path)
    assert counter.count(key, 3) == 1
    _age(counter.path(key), KEPT_DAYS + 5)
    assert counter.count(key, 3) == 2


def test_the_stop_hook_prunes_as_it_counts(tmp_path: Path) -> None:
    """A real `witness hook` Stop that blocks a new session removes the stale block counts of an old one."""
    counts, reviewed = _old_session_files(tmp_path / "hooks")
    _, answer, _ = hook(stop(parent_while_delegating(tmp_path)), tmp_path)
    assert decision(answer) == "block"
    assert not counts.exists() and reviewed.exists()  # no review ran: the reviewed states wait for one
    folder = tmp_path / "hooks"
    kept = [BlockCounter(folder).path(BlockKey("claude-code", "s-1", "main", "t")).name,
            ReviewedStates(folder).path(BlockKey("claude-code", "old", "main", "t")).name]
    assert sorted(p.name for p in folder.glob("*.json")) == sorted(kept)
