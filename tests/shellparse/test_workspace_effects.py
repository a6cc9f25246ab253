"""Only what changes the working tree is a mutation: git's history, index and refs, and a forge's
API, are not the workspace a check reads."""

from __future__ import annotations

import pytest

from shellparse import analyze

READ_ONLY = [
    "git add -A", "git add src/a.py && git commit -m 'fix: x'", "git commit -am x", "git commit --amend --no-edit",
    "git push -u origin feature", "git push --force-with-lease origin HEAD", "git tag v1.2.0", "git fetch origin",
    "git log --oneline -5", "git show HEAD", "git diff --stat", "git branch -D old", "git checkout -b feature",
    "git switch -c codex/fix", "git reset --soft HEAD~1", "git reset -q --soft 6cffc57", "git reset HEAD a.py",
    "git stash list", "git submodule status", "git remote add upstream https://example.com/r.git",
    "git update-index --chmod=+x script.sh", "git config user.name x", "git notes add -m x",
    "gh pr create --title x --body y", "gh pr view 12 --json url", "gh api repos/o/r/pulls", "gh run view 3 --log",
    "gh pr comment 3 --body ok", "gh discussion comment 577 --repo o/r --body x",
]


@pytest.mark.parametrize("command", READ_ONLY)
def test_history_index_and_forge_commands_change_no_file_under_test(command: str) -> None:
    """`git commit` after the final pass re-opens nothing: the working tree is as the pass saw it."""
    assert analyze(command).effect == "read-only", command


MUTATING = [
    "git stash", "git stash pop", "git checkout main", "git checkout -- src/a.py", "git checkout -b x origin/main",
    "git switch main", "git restore src/a.py", "git reset --hard", "git reset --hard origin/main", "git pull",
    "git merge feature", "git rebase main", "git cherry-pick abc123", "git revert HEAD", "git apply fix.patch",
    "git am < 0001.patch", "git clean -fd", "git rm src/a.py", "git mv a.py b.py", "git submodule update --init",
    "git worktree add ../x", "gh pr checkout 12", "gh repo clone o/r",
]


@pytest.mark.parametrize("command", MUTATING)
def test_commands_that_change_the_working_tree_are_mutations(command: str) -> None:
    """`git stash`, `git checkout`, `git reset --hard`, `git pull`, `git merge`, `git rebase`, `git apply` … do."""
    assert analyze(command).effect == "mutating", command
