"""The real-bash oracle for failures: a non-zero status is a check's failure only if it is the check's.

In the sandbox of oracle_sandbox.py (stubs whose status the test controls, real /bin/bash), for every
generated shape and the hand-written ones below:

(e) wherever `analyze` says a non-zero exit proves the check failed (`Check.failure_eligible`),
    every run in which bash exited non-zero is a run in which the check's stub ran and failed;
(f) the shapes whose status is another command's (`| grep`, `; false`, `&& ls nope`) really do
    exit non-zero when the check passed — so their exit proves nothing, and `analyze` says so;
(g) an `&&` chain or a `set -e` script exits 0 only when every check in it ran and passed, which
    is what `witness_eligible` claims for each of them.

A failing command *before* the check in its `&&` list (`cd missing && npm test`) is judged by the
exit-attribution rules (the check never ran); these properties do not generate one.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given

from shellparse import Analysis, Check, analyze
from shellparse.strategies import Sample, commands
from tests.shellparse.oracle_sandbox import Run, sandbox, vet
from tests.shellparse.test_oracle import ORACLE, base, describe, run_sample

pytestmark = pytest.mark.slow
__all__ = ["base"]  # the fixture, used by name


def _own(analysis: Analysis) -> Check | None:
    return next((check for check in analysis.checks if check.validation == analysis.validation), None)


def _ran_and_failed(run: Run) -> bool:
    return bool(run.places) and run.status != 0


@ORACLE
@given(sample=commands())
def test_e_a_failure_eligible_status_is_the_checks_own_failure(base: Path, sample: Sample) -> None:
    """(e) Bash exits non-zero for a failure-eligible shape only when the check ran and failed."""
    analysis = analyze(sample.command)
    check = _own(analysis)
    if check is None or not check.failure_eligible:
        return
    runs = run_sample(base, sample)
    for run in runs:
        if run.returncode != 0:
            assert _ran_and_failed(run), describe(sample.command, analysis, runs)


MASKED_FAILURES = [
    ("pytest | grep -i fail", "pytest"),
    ("pytest 2>&1 | grep -q passed", "pytest"),
    ("npm test; false", "npm"),
    ("pytest -q; ls nope", "pytest"),
    ("pytest && ls nope", "pytest"),
    ("npm test | wc -l | grep -q 5", "npm"),
    ("set -e; pytest; false", "pytest"),
]


@pytest.mark.parametrize(("command", "program"), MASKED_FAILURES)
def test_f_a_masked_status_fails_when_the_check_passed(base: Path, command: str, program: str) -> None:
    """(f) With the check passing (stub 0), bash still exits non-zero: that status proves no failure of it."""
    assert vet(command, {program}).problem is None
    analysis = analyze(command)
    check = _own(analysis)
    assert check is not None and not check.failure_eligible, analysis.reasons
    with sandbox(base, {program}, command) as box:
        run = box.run(command, (0,))
    assert run.returncode != 0 and run.places, describe(command, analysis, [run])


CHAINS = [
    ("mypy src && pytest -q", ("mypy", "pytest")),
    ("ruff check . && mypy src && pytest", ("ruff", "mypy", "pytest")),
    ("set -e; mypy src; pytest -q", ("mypy", "pytest")),
    ("set -euo pipefail\nruff check .\npytest | tail -3", ("ruff", "pytest")),
]


@pytest.mark.parametrize(("command", "programs"), CHAINS)
def test_g_a_chain_exits_0_only_when_every_member_passed(base: Path, command: str, programs: tuple[str, ...]) -> None:
    """(g) Exit 0 proves each member passed (each was run, each with status 0); a failing status is no
    single member's (`failure_eligible` is false for all, `witness_eligible` true for all)."""
    assert vet(command, set(programs)).problem is None
    analysis = analyze(command)
    assert all(check.witness_eligible and not check.failure_eligible for check in analysis.checks), analysis
    for failing in programs:
        # One member fails (2), the others pass: the stubs share one status file, so a stub per member.
        with sandbox(base, set(), command) as box:
            for name in programs:
                status = 2 if name == failing else 0
                (box.stubs / name).write_text(f"#!/bin/sh\ncat > /dev/null 2>&1\nexit {status}\n", encoding="utf-8")
                (box.stubs / name).chmod(0o755)
            run = box.run(command, (0,))
        assert run.returncode != 0, (command, failing)
    with sandbox(base, set(), command) as box:
        for name in programs:
            (box.stubs / name).write_text("#!/bin/sh\ncat > /dev/null 2>&1\nexit 0\n", encoding="utf-8")
            (box.stubs / name).chmod(0o755)
        assert box.run(command, (0,)).returncode == 0


ERREXIT_IGNORED = ["set -e; cd missing && pytest; echo done", "set -e; cd missing && pytest; exit 0",
                   "set -e\ncd missing && mypy src\npytest -q"]


@pytest.mark.parametrize("command", ERREXIT_IGNORED)
def test_g_set_e_ignores_a_failure_before_and_so_no_chain_forms(base: Path, command: str) -> None:
    """(g) Under `set -e` a failing `cd` before `&&` does not end the script: bash exits 0 with the check never
    run, so the check after it is not witnessed by a zero status (no chain through an ignored failure)."""
    programs = {"pytest"} if "mypy" not in command else {"mypy", "pytest"}
    assert vet(command, programs).problem is None
    analysis = analyze(command)
    first = analysis.checks[0]
    assert not first.witness_eligible and not first.failure_eligible, analysis
    with sandbox(base, programs, command) as box:
        run = box.run(command, (0,))
    calls = 1 if "mypy" in command else 0  # only the check after the list runs (`pytest -q`)
    assert run.returncode == 0 and len(run.places) == calls, describe(command, analysis, [run])
