"""The verdicts a careful reviewer agrees with, at the tracker: each rule with the shapes real
sessions show (tests/advisor/cli/test_real_sessions.py replays the sessions themselves)."""

from __future__ import annotations

import pytest

from obligations import AgentSpawned, UserMessage
from tests.obligations.test_tracker_scenarios import Session


def states(s: Session) -> list[tuple[str | None, str | None, str]]:
    return [(item.check, item.cwd, item.state) for item in s.items()]


# -- 1. task runners ----------------------------------------------------------------------------


def test_a_failing_mise_lint_opens_and_its_passing_tests_reopen_nothing() -> None:
    """A mise-driven repository: the failing lint is reported, and passing test runs are evidence, not edits."""
    s = Session()
    s.run("mise run lint 2>&1 | tail -20", 0, "sh: ./script/validate.sh: Permission denied\n[lint] ERROR task failed")
    s.run("mise run test", 0, "ok")
    assert states(s) == [("mise run lint", None, "open")]
    s.run("chmod +x script/validate.sh", 0)
    s.run("mise run lint 2>&1 | tail -20", 0, " INFO: Config validated successfully")
    s.run("mise run test:e2e test_lockfile", 0, "Finished in 5.96s")
    assert states(s) == [("mise run lint", None, "resolved")]
    s.run("mise run fmt", 0)  # a formatting task rewrites files
    assert states(s) == [("mise run lint", None, "open")]


# -- 2. a check that never ran --------------------------------------------------------------------


def test_exit_126_or_127_of_the_checks_own_program_is_no_failure() -> None:
    """`go: command not found` (127) and a non-executable script (126) are tool infrastructure, not failures."""
    s = Session()
    s.run("go test ./...", 127, "bash: go: command not found")
    s.run("./run-tests.sh", 126, "bash: ./run-tests.sh: Permission denied")
    assert s.items() == []
    outcomes = [row["outcome"] for row in s.tracker.snapshot()["agents"]["root"]["escalation"]["evidence"]]
    assert outcomes == ["tool-infrastructure-error", "tool-infrastructure-error"]
    s.run("go test ./...", 1, "--- FAIL: TestX (0.00s)")
    assert states(s) == [("go test ./...", None, "open")]


def test_127_behind_a_mask_is_not_the_checks_own() -> None:
    """`pytest; missing-tool` exiting 127 says nothing about pytest: no failure, and no infrastructure verdict."""
    s = Session()
    s.run("pytest; missing-tool", 127, "bash: missing-tool: command not found")
    assert s.items() == []
    outcomes = [row["outcome"] for row in s.tracker.snapshot()["agents"]["root"]["escalation"]["evidence"]]
    assert outcomes == ["unknown-failure"]


@pytest.mark.parametrize(("command", "exit_code", "output"), [
    ("cargo test structured_argv --lib", 101, "error: no library targets found in package `hk`"),
    ("dotnet test tests/A.Tests/A.Tests.csproj | grep -E 'error [A-Z]'", 0,
     "MSBUILD : error MSB1009: Proje dosyası yok."),
    ("npm run typecheck", 1, 'npm error Missing script: "typecheck"'),
    ("make check", 2, "make: *** No rule to make target 'check'.  Stop."),
    ("pytest tests/test_gone.py -q", 4, "ERROR: file or directory not found: tests/test_gone.py"),
    ("cargo test --no-run", 101, "error: rustc 1.93.0 is not supported by the following package:\n"
                                 "  kdl@6.7.1 requires rustc 1.95"),
    ("cargo test --no-run", 101, "warning: spurious network error (1 try remaining)\n"
                                 "error: failed to download from `https://static.crates.io/crates/a/0.1.4/download`"),
])
def test_a_runner_that_found_nothing_to_run_is_no_failure(command: str, exit_code: int, output: str) -> None:
    """A check whose runner says there is nothing to run as asked (no library target, no project file,
    no such script or target) or stopped before building (toolchain too old, no network) never ran."""
    s = Session()
    s.run(command, exit_code, output)
    assert s.items() == []


def test_a_missing_target_inside_a_runners_recipe_is_the_runners_failure() -> None:
    """`make test` whose recipe runs a `cargo test --lib` that finds no library did run, and failed."""
    s = Session()
    s.run("make test", 2, "error: no library targets found in package `hk`\nmake: *** [test] Error 101")
    assert states(s) == [("make test", None, "open")]


# -- 3. cosmetic options and semantic environment -------------------------------------------------


def test_a_verbose_failure_closes_by_a_plain_pass() -> None:
    """`go test ./pkg -v` failing and `go test ./pkg` passing are one check."""
    s = Session()
    s.run("go test ./pkg -v", 1, "--- FAIL: TestX (0.00s)")
    s.run("go test -count=1 ./pkg", 0, "ok")
    assert states(s) == [("go test ./pkg -v", None, "resolved")]


def test_a_pass_in_another_environment_never_closes() -> None:
    """A pass of `go test ./...` does not close a failure of `GOOS=windows go test ./...`: no false witness."""
    s = Session()
    s.run("GOOS=windows go test ./...", 1, "--- FAIL: TestPath (0.00s)")
    s.run("go test ./...", 0, "ok")
    s.run("CI=1 go test ./...", 0, "ok")
    assert states(s) == [("GOOS=windows go test ./...", None, "open")]
    s.run("export GOOS=windows; go test ./... -v", 0, "ok")
    assert states(s) == [("GOOS=windows go test ./...", None, "resolved")]


# -- 5. a failure is the check's only if its exit status is ----------------------------------------


def test_grep_finding_nothing_is_no_test_failure() -> None:
    """`go test ./… | grep -i fail` exiting 1 means the tests did not fail; grep's usage error (2) is not one either."""
    s = Session()
    s.run("go test ./... | grep -i fail", 1, "")
    s.run("go test ./... | grep -i [fail", 2, "grep: Unmatched [")
    assert s.items() == []


def test_a_masked_commands_output_still_proves_a_failure() -> None:
    """The markers that refute false passes prove failures behind a mask, whatever the exit."""
    s = Session()
    s.run("go test ./... 2>&1 | grep -v '^ok'", 0, "--- FAIL: TestX (0.00s)\nFAIL\tgithub.com/a/b\t0.01s")
    s.run("pytest -q; echo done", 0, "1 failed, 3 passed in 0.2s\ndone")
    s.run("npm test | head -5", None, "Tests:  2 failed, 8 passed, 10 total")
    assert [(check, state) for check, _, state in states(s)] == [
        ("go test ./...", "open"), ("pytest -q", "open"), ("npm test", "open")]
    summaries = [item.summary for item in s.items()]
    assert summaries[0].startswith("reported exit 0, but its output shows a failure")
    assert summaries[2].startswith("no exit code was reported, but its output shows a failure")


# -- 8. a worker's unverified failure ---------------------------------------------------------------


def test_a_workers_unwitnessed_failure_is_inherited_and_either_can_close_it() -> None:
    """A sub-agent's failing `npm run build` (four times, never passing) is the root's obligation."""
    s = Session()
    s.tracker.handle(AgentSpawned(agent_id="w1", parent_id="root", role="local-subagent"))
    for _ in range(4):
        s.run("npm run build", 1, "npm error Lifecycle script `build` failed with error", agent="w1")
    (item,) = s.tracker.open_items("root")
    assert (item.check, item.failed_by, item.repeat_count) == ("npm run build", "w1", 4)
    assert s.tracker.stop("root") is not None  # the root's Stop names it
    s.run("npm run build", 0, agent="w1")
    assert s.tracker.open_items() == []
    s.run("npm run build", 1, "npm error", agent="w1")
    s.run("npm run build", 0)  # or the root's own genuine pass
    assert s.tracker.open_items() == []


# -- 9. a later task can verify an earlier one ------------------------------------------------------


def test_a_later_tasks_genuine_pass_resolves_an_earlier_tasks_item_later() -> None:
    """An item left when the user moved on is resolved later by a genuine pass, re-opened by an edit after it."""
    s = Session()
    s.run("npm test", 1, "Tests: 1 failed")
    s.tracker.handle(UserMessage(text="now update the docs"))
    (ended,) = s.tracker.ended_tasks()
    assert [item.state for item in ended.unresolved] == ["open"]
    s.run("npm test; echo done", 0)
    assert s.tracker.ended_tasks()[0].resolved_later == ()
    s.run("npm test", 0, "Tests: 5 passed")
    (ended,) = s.tracker.ended_tasks()
    assert ended.unresolved == () and ended.resolved_later[0].resolution is not None
    assert ended.resolved_later[0].resolution.kind == "reverified-later"
    s.edit()
    (ended,) = s.tracker.ended_tasks()
    assert [item.state for item in ended.unresolved] == ["open"] and ended.resolved_later == ()


def test_an_item_resolved_later_stays_resolved_once_that_task_ends_too() -> None:
    """Resolved in the second task, an earlier task's item is not re-opened by an edit in the third."""
    s = Session()
    s.run("npm test", 1, "Tests: 1 failed")
    s.tracker.handle(UserMessage(text="now update the docs"))
    s.run("npm test", 0, "Tests: 5 passed")
    s.tracker.handle(UserMessage(text="and the changelog"))
    s.edit()
    first = s.tracker.ended_tasks()[0]
    assert first.unresolved == () and [item.check for item in first.resolved_later] == ["npm test"]


def test_an_ended_tasks_resolved_items_are_kept_for_the_report() -> None:
    """A task whose `go test` failed, re-opened and was then resolved still shows it when the next task begins."""
    s = Session()
    s.run("go test ./...", 1, "--- FAIL: TestA (0.00s)")
    s.run("go test ./...", 0)
    s.edit()
    s.run("go test ./...", 0)
    s.tracker.handle(UserMessage(text="thanks, next"))
    (ended,) = s.tracker.ended_tasks()
    assert ended.unresolved == () and [item.check for item in ended.resolved] == ["go test ./..."]


# -- 10. only what changes the workspace re-opens ----------------------------------------------------


def test_committing_after_the_final_pass_reopens_nothing() -> None:
    """`git add`, `git commit`, `git push`, `gh pr create` change no file under test; `git stash` does."""
    s = Session()
    s.run("cargo fmt --all -- --check", 1, "Diff in /repo/src/a.rs:9:")
    s.run("cargo fmt --all", 0)
    s.run("cargo fmt --all -- --check", 0)
    for command in ("git add -A && git commit -m 'fix: fmt'", "git push -u origin fix", "gh pr create --fill",
                    "git log --oneline -3", "git fetch origin", "git tag v1"):
        s.run(command, 0)
    assert states(s) == [("cargo fmt --all -- --check", None, "resolved")]
    s.run("git stash", 0)
    assert states(s) == [("cargo fmt --all -- --check", None, "open")]


def test_the_hosts_bookkeeping_tools_reopen_nothing() -> None:
    """Claude Code's `ToolSearch` and task list, Codex's terminal reader, question and sub-agent messages
    edit no file: a witnessed check stays witnessed."""
    s = Session()
    s.run("pytest tests/test_a.py -v", 1, "3 failed, 19 passed in 2.55s")
    s.run("pytest tests/test_a.py -v", 0, "22 passed in 2.1s")
    for tool in ("ToolSearch", "TaskCreate", "TaskUpdate", "read_thread_terminal", "request_user_input",
                 "send_message", "followup_task"):
        s.complete(s.dispatch(tool=tool, arguments={"query": "select:Read"}), None)
    assert states(s) == [("pytest tests/test_a.py -v", None, "resolved")]


def test_a_check_whose_output_shows_it_rewrote_files_is_a_mutation_too() -> None:
    """`npm run check` running a formatter with `--write` ("Fixed 2 files") witnesses itself and re-opens the rest."""
    s = Session()
    s.run("pytest", 1, "1 failed in 0.1s")
    s.run("pytest", 0, "3 passed in 0.1s")
    s.run("npm run check", 1, "npm error")
    s.run("npm run check", 0, "Checked 12 files in 3ms. Fixed 2 files.")
    assert [(check, state) for check, _, state in states(s)] == [("pytest", "open"), ("npm run check", "resolved")]
    assert "rewrote files" in s.items()[0].history[-1].detail


# -- 11. an && chain that exits 0 passed every member -------------------------------------------------


def test_a_chain_exiting_0_witnesses_each_check_in_it() -> None:
    """`mise run lint && mise run test` exiting 0 is a genuine pass of both."""
    s = Session()
    s.run("mise run lint", 1, "[lint] ERROR task failed")
    s.run("mise run test", 1, "[test] ERROR task failed")
    s.run("mise run lint && mise run test", 0, "Finished in 9.1s")
    assert [state for _, _, state in states(s)] == ["resolved", "resolved"]


def test_a_failing_chain_fails_only_the_member_its_output_proves() -> None:
    """`ruff check … && pytest … | tail -5` exiting 1 with ruff's "Found 4 errors." fails ruff, not pytest."""
    s = Session()
    s.run("ruff check tests/test_p.py && ruff format -q tests/test_p.py && pytest tests/test_p.py -q 2>&1 | tail -5",
          1, "tests/test_p.py:3:1: F401 unused\nFound 4 errors.")
    assert [(check, state) for check, _, state in states(s)] == [("ruff check tests/test_p.py", "open")]
    s.run("cargo test -q lockfile && cargo test -q monorepo", 101,
          "test result: FAILED. 70 passed; 1 failed; 0 ignored; 0 measured; 1411 filtered out")
    assert [check for check, _, _ in states(s)][1:] == ["cargo test -q lockfile"]


def test_a_pass_followed_by_a_mutation_in_the_same_command_does_not_witness() -> None:
    """`cargo test -q lockfile && mise run lint-fix`: the fixer may rewrite what the tests judged."""
    s = Session()
    s.run("cargo test -q lockfile", 101, "test result: FAILED. 1 failed")
    s.run("cargo test -q lockfile && mise run lint-fix", 0)
    (item,) = s.items()
    assert item.state == "open" and item.last_attempt is not None
    assert "runs after the check in the same command" in item.last_attempt.reason


# -- the place a check runs in ------------------------------------------------------------------------


def test_a_cd_into_the_working_directory_is_the_same_place() -> None:
    """`cd /repo/api && npm test`, `cd api && npm test` (in `/repo`) and `npm test` in `/repo/api` are one check."""
    s = Session()
    s.run("cd api && npm test", 1, "Tests: 1 failed", cwd="/repo")
    s.run("npm test", 0, cwd="/repo/api")
    assert states(s) == [("npm test", "/repo/api", "resolved")]
    s.run('cd "/c/work/app" && pytest', 1, "1 failed in 0.1s", cwd="C:\\work\\app")
    s.run("pytest", 0, cwd="C:\\work\\app")
    assert states(s)[1] == ("pytest", "C:/work/app", "resolved")

