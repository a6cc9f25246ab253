"""Whose failure a status is, and which passes a zero status proves.

A failure is the check's only if its exit status is (a masked command's exit proves nothing either
way); an `&&` chain or a `set -e` script that exits 0 passed every member; of the checks in one
chain, a failing run failed at most one. The real-bash oracle holds `failure_eligible` to bash
(tests/shellparse/test_oracle_failures.py).
"""

from __future__ import annotations

import pytest

from shellparse import Check, analyze


def checks(command: str) -> list[Check]:
    return list(analyze(command).checks)


@pytest.mark.parametrize(
    "command",
    ["go test ./... | grep -i fail", "pytest; echo done", "npm test || true", "pytest | grep -q passed",
     "if npm test; then echo ok; fi", "npm test &", "! pytest", "echo $(pytest)", "cargo test | tee a | tail"],
)
def test_a_masked_status_is_no_failure_of_the_check(command: str) -> None:
    """`go test ./… | grep -i fail` exiting 1 is grep finding nothing; its exit proves nothing about the tests."""
    (check,) = checks(command)
    assert not check.failure_eligible, command


@pytest.mark.parametrize(
    "command",
    ["pytest", "npm test 2>&1 | tail -20", "cd api; npm test", "timeout 300 cargo test", "bash -c 'pytest -q'",
     "set -o pipefail; cargo test | tee log", "pytest; exit $?"],
)
def test_the_checks_own_status_is_its_failure(command: str) -> None:
    """Its own status — or one pass-through pipe's, which the host's pipefail carries — proves a failure."""
    (check,) = checks(command)
    assert check.failure_eligible, command


@pytest.mark.parametrize("command", ["cd api && npm test", "set -e; cd api; npm test", "pushd api && npm test"])
def test_a_failure_before_the_check_is_not_its_failure(command: str) -> None:
    """`cd api && npm test` exiting 1 may be `cd`'s failure (the tests never ran): no failure of the check."""
    (check,) = checks(command)
    assert not check.failure_eligible and check.witness_eligible, command


@pytest.mark.parametrize(
    "command",
    ["mise run lint && mise run test", "npm run lint && npm test", "cargo fmt --all && cargo test -q lockfile && "
     "cargo test -q monorepo", "cargo build && cargo test && cargo clippy", "set -e; ruff check .; pytest -q",
     "set -euo pipefail\nmypy src\npytest | tail -5"],
)
def test_a_chain_that_exits_0_passed_every_member(command: str) -> None:
    """Every check of an `&&` chain or a `set -e` script: exit 0 proves it passed; a non-zero exit proves
    a failure of none (the output decides whose), and they share one chain."""
    found = checks(command)
    assert len(found) >= 2
    assert all(check.witness_eligible for check in found), [(c.validation.statement, c.reasons) for c in found]
    assert not any(check.failure_eligible for check in found)
    assert len({check.chain for check in found}) == 1 and found[0].chain is not None


@pytest.mark.parametrize(
    ("command", "eligible"),
    [("npm test && deploy || true", [False]), ("pytest | grep ok && ruff check .", [False, True]),
     ("npm run lint; npm test", [False, True]), ("ruff check . && pytest | tail -3", [True, True])],
)
def test_only_what_runs_after_a_pass_keeps_a_zero_status_its_own(command: str, eligible: list[bool]) -> None:
    """An `||` in the list, a deciding pipe or a plain `;` (without `set -e`) breaks the chain."""
    assert [check.witness_eligible for check in checks(command)] == eligible


def test_under_set_e_a_failing_status_is_no_single_checks_own() -> None:
    """`set -e; a; b`: a failing status may be `a`'s (and `b` never ran), so neither check's alone."""
    first, second = checks("set -e; ruff check .; pytest")
    assert not first.failure_eligible and not second.failure_eligible
    assert first.chain == second.chain


@pytest.mark.parametrize(
    ("command", "after"),
    [("cargo test && mise run lint-fix", [True]), ("pytest && sed -i s/a/b/ src/x.py", [True]),
     ("cargo fmt --all && cargo test", [False]), ("npm test 2>&1 | tee test.log", [False]),
     ("pytest > out.log", [False]), ("pytest && git add -A && git commit -m x", [False]),
     ("ruff check . && ruff format -q . && pytest", [True, False])],
)
def test_what_may_edit_after_a_check_is_noted(command: str, after: list[bool]) -> None:
    """A mutation in a later statement runs after the check; a redirect or `tee` in its own is part of it."""
    assert [check.mutates_after for check in checks(command)] == after
