"""Each runner's lines that show a run ran no test, and that it ran some (``shellparse._ran.RAN``): every
row's real sample is read as a run of no test, a line of a test that ran always outweighs it, and an output
of a runner with one section per binary or package is read only whole."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shellparse import none_ran_evidence, ran_evidence
from shellparse._ran import RAN

RAN_SAMPLES: dict[str, tuple[str, ...]] = {
    "pytest": ("========================= 1 failed, 12 passed in 0.53s =========================",
               "FAILED tests/test_api.py::test_login - AssertionError: assert 401 == 200"),
    "unittest": ("Ran 12 tests in 0.004s",),
    "jest": ("Tests:       1 failed, 12 passed, 13 total",),
    "vitest": ("      Tests  1 passed (1)",),
    "mocha": ("  3 passing (12ms)",),
    "cargo": ("running 3 tests",),
    "go": ("ok  \texample.com/app/parse\t0.004s", "--- FAIL: TestParse (0.00s)", "FAIL\texample.com/app/parse\t0.012s"),
    "rspec": ("12 examples, 2 failures",),
    "phpunit": ("OK (12 tests, 30 assertions)", "Tests: 12, Assertions: 30, Failures: 1."),
    "mix": ("1 doctest, 12 tests, 1 failure",),
    "ctest": ("75% tests passed, 1 tests failed out of 4",),
    "dotnet": ("Failed!  - Failed:     2, Passed:    10, Skipped:     0, Total:    12, Duration: 1 s - App.Tests.dll",),
}
"""One line per ``ran`` pattern of each row, in its order, as the runner prints it."""


def test_every_row_has_a_line_for_each_of_its_ran_patterns() -> None:
    """A row added without sample lines of its `ran` patterns (or with lines for another row) fails here."""
    assert {family: len(row.ran) for family, row in RAN.items()} == \
           {family: len(lines) for family, lines in RAN_SAMPLES.items()}


@pytest.mark.parametrize("family", sorted(RAN))
def test_every_rows_real_sample_shows_a_run_of_no_test(family: str) -> None:
    """The row's own sample of a run that selected nothing is found, whole, and shows no test ran."""
    sample = RAN[family].sample
    evidence = none_ran_evidence(family, sample, whole=True)
    assert evidence is not None and evidence in sample
    assert any(re.search(pattern, evidence) for pattern in RAN[family].none)
    assert ran_evidence(family, sample) is None


@pytest.mark.parametrize(("family", "line"), [(f, line) for f, lines in RAN_SAMPLES.items() for line in lines])
def test_a_line_of_a_test_that_ran_outweighs_a_run_of_none(family: str, line: str) -> None:
    """Beside a line that shows a test ran, the sample's none-ran line proves nothing (a section of its own)."""
    output = f"{RAN[family].sample}\n{line}\n"
    assert ran_evidence(family, line) == line.strip()
    assert none_ran_evidence(family, output, whole=True) is None


def test_cargo_doc_tests_that_ran_none_after_unit_tests_that_ran_are_not_a_run_of_none() -> None:
    """`cargo test` prints `running 0 tests` for its doc-tests after unit tests that ran: it ran tests;
    and the doc-tests section alone, as `| tail -5` leaves it, is not read at all."""
    whole = ("     Running unittests src/lib.rs (target/debug/deps/app-1)\n\nrunning 3 tests\ntest a ... ok\n\n"
             "test result: ok. 3 passed; 0 failed\n\n   Doc-tests app\n\nrunning 0 tests\n\n"
             "test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n")
    assert none_ran_evidence("cargo", whole, whole=True) is None
    tail = "\n".join(whole.splitlines()[-5:])
    assert none_ran_evidence("cargo", tail, whole=False) is None
    assert none_ran_evidence("cargo", tail, whole=True) == "running 0 tests"


def test_a_runner_of_runners_reads_the_rows_of_what_it_runs() -> None:
    """`npm test` running jest with --passWithNoTests, or `make test` running pytest, shows no test ran."""
    assert none_ran_evidence("npm-script", "> app@1.0.0 test\n> jest --passWithNoTests\n\n"
                                           "No tests found, exiting with code 0\n", whole=True) == \
        "No tests found, exiting with code 0"
    assert none_ran_evidence("make", "pytest -q tests\n\nno tests ran in 0.01s\n", whole=True) == \
        "no tests ran in 0.01s"


def test_a_family_without_rows_and_an_empty_output_show_nothing() -> None:
    """A linter has no tests to run, and an empty output shows nothing either way."""
    assert none_ran_evidence("ruff", "no tests ran in 0.01s", whole=True) is None
    assert none_ran_evidence("pytest", "", whole=True) is None
    assert ran_evidence("pytest", "") is None


@given(st.sampled_from(sorted(RAN)), st.data())
def test_no_interleaving_of_lines_of_tests_that_ran_reads_as_a_run_of_none(family: str, data: st.DataObject) -> None:
    """Wherever the lines of tests that ran sit among a run's lines of none, the run ran tests."""
    lines = [*RAN[family].sample.splitlines(), *data.draw(st.lists(st.sampled_from(RAN_SAMPLES[family]), min_size=1))]
    output = "\n".join(data.draw(st.permutations(lines)))
    assert none_ran_evidence(family, output, whole=True) is None
    assert ran_evidence(family, output) is not None
