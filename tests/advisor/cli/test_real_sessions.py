"""`witness audit` on real sessions from other projects (tests/fixtures/transcripts/real/, with their
attribution): what a careful reviewer reads in each, verdict by verdict.

Each test names the session and the lines of it that decide the verdict, so a change of a rule
that moves a verdict shows here as a reading that changed."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest

from tests.advisor.sessions import ROOT, witness

REAL = ROOT / "tests" / "fixtures" / "transcripts" / "real"

pytestmark = pytest.mark.slow


@cache
def _document() -> dict[str, Any]:
    done = witness("audit", "--json", str(REAL))
    assert done.returncode == 1, done.stderr
    document: dict[str, Any] = json.loads(done.stdout)
    return document


@cache
def _text() -> str:
    done = witness("audit", str(REAL))
    assert done.returncode == 1, done.stderr
    return done.stdout.decode()


def session(name: str) -> dict[str, Any]:
    """The audit of the session whose file name starts with ``name``."""
    (found,) = [s for s in _document()["sessions"] if s["path"].rsplit("/", 1)[-1].startswith(name)]
    return dict(found)


def checks(found: dict[str, Any], section: str) -> list[str]:
    return [row["check"] for row in found[section]]


def row(found: dict[str, Any], section: str, check: str) -> dict[str, Any]:
    (hit,) = [r for r in found[section] if r["check"] == check]
    return dict(hit)


def report_of(name: str) -> str:
    """The text report of one session."""
    blocks = _text().split("\n== ")
    (block,) = [b for b in blocks if f"/{name}" in b.split("\n", 1)[0]]
    return block


def test_every_real_session_is_read_whole() -> None:
    """All sixteen sessions are read in their own formats, with no line skipped."""
    document = _document()
    assert document["summary"]["sessions"] == 16
    formats = sorted(s["format"] for s in document["sessions"])
    assert formats == ["claude-code"] * 6 + ["codex"] * 6 + ["copilot"] + ["pi"] * 3
    assert all(s["skipped_lines"] == 0 and s["read_error"] is None for s in document["sessions"])


def test_flutter_the_failing_mise_lint_is_caught_and_left_unverified() -> None:
    """flutter-docker-image: `mise run lint | tail -20` prints `[lint] ERROR task failed` with exit 0 (:124);
    later rounds pass only behind `; echo` or before an edit — the last genuine pass (:586) was undone by the
    Edit at :594, never by the commits, and the final run (:737) is masked."""
    found = session("flutter-docker-image")
    assert checks(found, "earlier") == ["mise run lint"] and found["open"] == [] and found["resolved"] == []
    lint = row(found, "earlier", "mise run lint")
    assert lint["first_failed_at"].endswith(":124") and "[lint] ERROR task failed" in lint["summary"]
    assert lint["reopened"]["at"].endswith(":594") and lint["reopened"]["detail"].startswith("Edit ")
    assert lint["reopened"]["witness"]["at"].endswith(":586") and lint["reopened"]["witness"]["later"]
    assert lint["last_attempt"]["origin"].endswith(":737") and lint["last_attempt"]["reason"].startswith("masked")


def test_fnox_the_mise_bats_task_stays_open_the_direct_bats_run_is_witnessed() -> None:
    """fnox: `mise run test:bats -- test/daemon.bats` fails twice (:242, :294) and is never re-run; the
    path-named `test/bats/bin/bats test/daemon.bats` is `bats`, fails (:300) and passes (:367)."""
    found = session("fnox")
    task = row(found, "open", "mise run test:bats -- test/daemon.bats")
    assert task["failures"] == 2 and "[test:bats] ERROR task failed" in task["summary"]
    assert task["first_failed_at"].endswith(":242") and task["last_failed_at"].endswith(":294")
    bats = row(found, "resolved", "bats test/daemon.bats")
    assert bats["first_failed_at"].endswith(":300") and bats["witness"]["at"].endswith(":367")


def test_mise_commits_after_the_fmt_check_reopen_nothing() -> None:
    """mise: `cargo fmt --all -- --check` fails (:1837) and passes (:1894); the `git commit`, `git push` and
    `gh pr comment` after it leave it witnessed."""
    fmt = row(session("mise"), "resolved", "cargo fmt --all -- --check")
    assert fmt["first_failed_at"].endswith(":1837") and fmt["witness"]["at"].endswith(":1894")
    assert not fmt["witness"]["later"]


def test_mise_a_wider_test_run_in_a_later_task_witnesses_the_single_test() -> None:
    """mise: the single test failed five times; `cargo fmt --all && cargo test -q monorepo && git diff --check`
    exiting 0 (:1588) is a genuine pass of the chain's test, whose filter covers the single test's name."""
    found = session("mise")
    single = row(found, "resolved",
                 "cargo test -q test_monorepo_union_tool_request_set_preserves_matching_tools -- --nocapture")
    assert single["failures"] == 5
    assert single["witness"] == {**single["witness"], "check": "cargo test -q monorepo", "covering": True,
                                 "later": True}
    assert single["witness"]["at"].endswith(":1588")
    assert row(found, "resolved", "cargo test -q monorepo")["witness"]["covering"] is False


def test_mise_a_failing_chain_fails_only_the_member_its_output_proves() -> None:
    """mise: `cargo fmt --all && cargo test -q lockfile && cargo test -q monorepo` exits 101 (:1185) with a
    lockfile test failing: `cargo test -q monorepo` never ran and gains no failure there."""
    found = session("mise")
    lockfile = row(found, "earlier", "cargo test -q lockfile")
    assert lockfile["first_failed_at"].endswith(":1185")
    monorepo = row(found, "resolved", "cargo test -q monorepo")
    assert monorepo["last_failed_at"].endswith(":974")
    assert lockfile["last_attempt"]["origin"].endswith(":1565")  # `cargo test -q lockfile && mise run lint-fix`
    assert "may edit the workspace runs after the check" in lockfile["last_attempt"]["reason"]


def test_mise_a_fixing_task_reopens_the_tests_before_it() -> None:
    """mise: the e2e task's pass (:1445) is undone by `mise run lint-fix` (:1461), a fixing task."""
    e2e = row(session("mise"), "earlier", "mise run test:e2e test_lockfile_monorepo")
    assert e2e["reopened"]["at"].endswith(":1461") and e2e["reopened"]["detail"].startswith("`mise run lint-fix`")
    assert e2e["reopened"]["witness"]["at"].endswith(":1445")


def test_nomos_ruffs_failures_are_ruffs_and_the_full_suites_errors_stay_open() -> None:
    """nomos: `ruff check` inside a heredoc chain fails (:583, :638) and its re-run (:715) comes after a
    `python - <<'PYEOF'` that edits files in the same command (code whose writes cannot be listed: it may have
    written ruff's configuration), and so does the pytest after it, neither a witness; `ruff check src/` (:717)
    covers the earlier `ruff check src/nomos/experiments/`; the full suite's errors (:717) stay open."""
    found = session("nomos")
    ruff = row(found, "earlier", "ruff check tests/test_provenance.py")
    assert ruff["failures"] == 2 and ruff["summary"].startswith("its output shows a failure (the exit status 1")
    assert "runs code (or writes files) the analysis cannot list" in ruff["last_attempt"]["reason"]
    provenance = row(found, "earlier", "pytest tests/test_provenance.py -q")["last_attempt"]
    assert "runs code (or writes files) the analysis cannot list" in provenance["reason"]
    covered = row(found, "resolved", "ruff check src/nomos/experiments/")["witness"]
    assert (covered["check"], covered["covering"], covered["later"]) == ("ruff check src/", True, True)
    suite = row(found, "open", "pytest tests/ -q")
    assert suite["failures"] == 3 and suite["last_failed_at"].endswith(":717")
    assert "29 files would be reformatted" in row(found, "earlier", "ruff format --check src/ tests/")["summary"]


def test_numwordify_turkish_dotnet_output_and_a_wrong_directory() -> None:
    """numwordify: compiler errors in Turkish output are read by their codes; `cd C:/…/numwordify && dotnet
    test` is the same place as `dotnet test` there; `dotnet test` from a directory without the project
    (MSB1009, :925) never ran; an approval variable makes another check; rewound branches are not replayed."""
    found = session("numwordify")
    assert found["abandoned"] == 7
    build = row(found, "earlier", "dotnet build -c Debug")
    assert build["failures"] == 9 and "error CS0117" in build["summary"]
    suite = "dotnet test tests/NumWordify.Tests/NumWordify.Tests.csproj -c Debug --nologo"
    assert [r["cwd"] for r in found["earlier"] if r["check"] == suite] == [
        "C:/Users/empad/Desktop/Development/entire/numwordify"]
    assert row(found, "earlier", suite)["last_failed_at"].endswith(":929")
    approval = [r["check"] for r in found["earlier"] if r["check"].startswith("NUMWORDIFY_APPROVE=1 ")]
    assert approval == [f"NUMWORDIFY_APPROVE=1 {suite} -f net9.0 --filter 'FullyQualifiedName~GoldenSnapshot'"]
    assert not any("MSB1009" in r["summary"] for r in found["earlier"])


def test_entirecontext_a_later_tasks_wider_run_resolves_the_failed_tests() -> None:
    """entirecontext (Claude Code): `pytest tests/test_decision_verify.py -v` failed (:596); its passes were
    undone by edits and project CLI runs, and a later task's `UV_CACHE_DIR=.uv-cache uv run pytest … -q`
    over two files (:1257) resolves it; `ruff format --check` was answered by `ruff format`, never re-checked."""
    found = session("entirecontext--da81b1d5")
    tests = row(found, "resolved", "pytest tests/test_decision_verify.py -v")
    assert tests["witness"]["at"].endswith(":1257")
    assert (tests["witness"]["covering"], tests["witness"]["later"]) == (True, True)
    assert "ruff format --check" in " ".join(checks(found, "earlier"))
    assert found["open"] == []


def test_hk_code_mode_failures_are_read_from_the_cells_and_no_pass_without_an_exit_code() -> None:
    """hk (code mode): results reach the agent through cells and polls without exit codes, so failures
    shown in the output count and nothing is witnessed; `cargo test --lib` in a package without a library
    never ran; a multi-line cell script is shown on one line."""
    found = session("hk--019f5cfd")
    assert found["without_exit_code"] >= 150 and found["resolved"] == []
    fmt = row(found, "open", "cargo fmt --all -- --check")
    assert fmt["first_failed_at"].endswith(":673") and "Diff in" in fmt["summary"]
    assert "cargo test structured_argv --lib" not in checks(found, "earlier")
    assert row(found, "earlier", "cargo test structured_argv")["failures"] == 3
    assert "last re-run `cargo fmt; cargo fmt --check; mise run test:cargo; git diff --check`" in report_of(
        "hk--019f5cfd.jsonl")


def test_communique_the_sandboxs_refusals_never_ran_and_the_escalated_rerun_witnesses() -> None:
    """communique: `cargo test --no-run` could not download crates, then met too old a toolchain: it never ran;
    `cargo +1.96.0 test` failed in the sandbox (:114) and the identical escalated re-run passed (:118)."""
    found = session("communique")
    assert found["earlier"] == [] and found["open"] == []
    (passed,) = found["resolved"]
    assert (passed["check"], passed["witness"]["at"].rsplit(":", 1)[-1]) == ("cargo +1.96.0 test", "118")


def test_prsui_typecheck_refuted_then_witnessed() -> None:
    """prsui (Pi): `pnpm typecheck | tail -20` prints `error TS2614` with no error flag (:27), and the
    re-run after two edits passes (:33)."""
    (typecheck,) = session("prsui--019f7638")["resolved"]
    assert typecheck["check"] == "pnpm run typecheck" and "error TS2614" in typecheck["summary"]
    assert typecheck["witness"]["at"].endswith(":33")


def test_wakil_failures_in_the_text_of_semicolon_chains_stay_open() -> None:
    """wakil: every check runs in a `; echo`/`| tail` chain, so failures are read from the text (ruff's "Found 1
    error.", ty's "Found 1 diagnostic", pytest's FAILED lines); a `ty check .` at the end of a chain (:1727) is
    a reporting-pipe pass, undone by the Write at :1751; selections the full run covered (:1486) are re-opened
    with it by the edit at :1493 (the later full runs come after `python3 - <<'PYEOF'` edits in their own
    command, code whose writes cannot be listed, so they witness nothing)."""
    found = session("wakil--31220796")
    assert found["earlier"] == [] and found["resolved"] == [] and len(found["open"]) == 14
    ty = row(found, "open", "ty check .")
    assert ty["failures"] == 10 and "Found 1 diagnostic" in ty["summary"]
    assert ty["reopened"]["at"].endswith(":1751") and ty["reopened"]["witness"]["at"].endswith(":1727")
    assert "Found 1 error." in row(found, "open", "ruff check")["summary"]
    migrations = row(found, "open", "pytest -q tests/unit/test_migrations.py")["reopened"]
    assert migrations["at"].endswith(":1493") and migrations["witness"]["at"].endswith(":1486")
    assert (migrations["witness"]["check"], migrations["witness"]["covering"]) == ("pytest -q", True)


def test_wakil_a_plain_pytest_is_never_tried_as_a_witness_of_its_live_evals() -> None:
    """wakil: `pytest -m eval -q -k …` (:1632, :1679, :1691, :1703) runs the live evals a plain `pytest` leaves
    out (its pyproject: `addopts = "-m 'not eval'"`): the later `uv run pytest -q …; uv run ruff check` is no attempt
    at witnessing them, and they stay open with no attempt at all."""
    found = session("wakil--31220796")
    evals = [item for item in found["open"] if item["check"].startswith("pytest -m eval")]
    assert len(evals) == 4
    assert all(item["last_attempt"] is None and item["witness"] is None for item in evals)


def test_preloop_a_test_binary_that_died_is_no_witness_and_masked_runs_prove_nothing() -> None:
    """preloop (Oh My Pi): `git commit … && cargo test -p preloop-gha-expressions | tail -3` exits 0 (:85) but its
    tail shows cargo's `process didn't exit successfully … SIGABRT` (a stack overflow): a failure, not a pass of
    the package's tests; every later cargo run is behind `| grep`, so nothing closes."""
    found = session("preloop")
    assert found["earlier"] == [] and found["resolved"] == []
    package = row(found, "open", "cargo test -p preloop-gha-expressions")
    assert package["first_failed_at"].endswith(":85") and package["failures"] == 3
    single = row(found, "open", "cargo test -p preloop-gha-expressions format_bounds_container_serialization")
    assert "reopened" not in single or single["reopened"] is None
    assert row(found, "open", "cargo build --workspace")["last_attempt"]["reason"].startswith("masked")


@pytest.mark.parametrize("name", ["hk--019f5d4f", "entirecontext--01a00ba5", "prsui--019f8412", "wakil--77205d86"])
def test_sessions_without_a_failing_check_report_none(name: str) -> None:
    """A flaky-test fix whose runs carry no exit code, a read-only review by sub-agents, `pnpm fix` rounds
    (a fixer, not a check) and a short session whose every check passed leave nothing to report."""
    found = session(name)
    assert (found["open"], found["earlier"], found["resolved"]) == ([], [], [])
    assert "no checks failed in this session" in report_of(f"{name}.jsonl")


def test_copilot_every_check_passes_and_is_read_with_its_exit_code() -> None:
    """azure-dev (Copilot CLI 1.0.72-1): 108 tool calls, the 19 `bash` results each ending `<shellId: … completed
    with exit code 0>`; every check (`go test … -run`, `GOOS=windows go test -c`, `golangci-lint run`) passes."""
    found = session("azure-dev")
    assert found["format"] == "copilot" and found["tool_calls"] == 108 and found["without_exit_code"] == 0
    assert found["open"] == [] and found["earlier"] == [] and found["resolved"] == []
    assert "(copilot, 634 lines, 108 tool calls)" in report_of("azure-dev--45f1a36c.jsonl")
