"""Failure markers refute a reported pass; a passing run's output never matches them."""

from __future__ import annotations

import pytest

from shellparse import failure_evidence

FLAKE8 = ("src/app.py:1:1: F401 'os' imported but unused\nsrc/app.py:2:1: E302 expected 2 blank lines, found 0\n"
          "src/app.py:2:7: E201 whitespace after '('\nsrc/app.py:2:9: E202 whitespace before ')'\n"
          "src/app.py:3:80: E501 line too long (92 > 79 characters)\n")
PYLINT = ("************* Module app\n"
          "src/app.py:1:0: C0114: Missing module docstring (missing-module-docstring)\n"
          "src/app.py:2:0: C0116: Missing function or method docstring (missing-function-docstring)\n"
          "src/app.py:1:0: W0611: Unused import os (unused-import)\n\n"
          "-----------------------------------\nYour code has been rated at 0.00/10\n\n")
PYLINT_COLOURED = ("\x1b[7;33m************* Module app\x1b[0m\n"
                   "src/app.py:1:0: C0114: \x1b[1mMissing module docstring\x1b[0m"
                   " (\x1b[1mmissing-module-docstring\x1b[0m)\n"
                   "src/app.py:1:0: W0611: \x1b[35mUnused import os\x1b[0m (\x1b[35munused-import\x1b[0m)\n\n"
                   "------------------------------------------------------------------\n"
                   "Your code has been rated at 0.00/10 (previous run: 0.00/10, +0.00)\n")
"""Real outputs of `flake8 src`, `pylint src` and `pylint --output-format=colorized src/app.py` (flake8 7.5.0,
pylint 4.1.4) on a module with an unused import, a function without blank lines or docstrings and a long line."""

FAILING = [
    ("npm-script", "> check\n> biome check && tsc\n\nnpm error command failed\nnpm error command sh -c tsc",
     "npm error command failed"),
    ("npm-script", "npm ERR! code ELIFECYCLE\nnpm ERR! errno 1", "npm ERR! code ELIFECYCLE"),
    ("pytest", "tests/test_a.py F.\n==== 1 failed, 1 passed in 0.12s ====", "==== 1 failed, 1 passed in 0.12s ===="),
    ("pytest", "2 failed, 10 passed in 3.40s", "2 failed, 10 passed in 3.40s"),
    ("pytest", "FAILED tests/test_a.py::test_x - assert 1 == 2", "FAILED tests/test_a.py::test_x - assert 1 == 2"),
    ("unittest", "Ran 4 tests in 0.001s\n\nFAILED (failures=1)", "FAILED (failures=1)"),
    ("jest", "Tests:       1 failed, 3 passed, 4 total", "Tests:       1 failed, 3 passed, 4 total"),
    ("vitest", " Test Files  1 failed | 2 passed (3)\n      Tests  2 failed | 9 passed (11)",
     "Test Files  1 failed | 2 passed (3)"),
    ("cargo", "test result: FAILED. 3 passed; 1 failed; 0 ignored",
     "test result: FAILED. 3 passed; 1 failed; 0 ignored"),
    ("go", "--- FAIL: TestX (0.00s)\nFAIL\tgithub.com/a/b\t0.01s", "--- FAIL: TestX (0.00s)"),
    ("tsc", "src/a.ts(3,7): error TS2322: Type 'string' is not assignable", "src/a.ts(3,7): error TS2322: Type "
     "'string' is not assignable"),
    ("mypy", "Success: 0 errors before\nFound 1 error in 1 file (checked 3 source files)",
     "Found 1 error in 1 file (checked 3 source files)"),
    ("mypy", "a.py:1: error: Incompatible types\nFound 1 error in 1 file (checked 3 source files)",
     "a.py:1: error: Incompatible types"),
    ("ruff", "a.py:1:1: F401 unused\nFound 1 error.", "Found 1 error."),
    ("eslint", "✖ 3 problems (2 errors, 1 warning)", "✖ 3 problems (2 errors, 1 warning)"),
    ("dotnet", "Failed!  - Failed:     2, Passed:    10, Skipped:     0", "Failed!  - Failed:     2, Passed:    10, "
     "Skipped:     0"),
    ("maven", "[ERROR] BUILD FAILURE", "[ERROR] BUILD FAILURE"),
    ("gradle", "BUILD FAILED in 3s", "BUILD FAILED in 3s"),
    ("make", "make: *** [Makefile:3: test] Error 1", "make: *** [Makefile:3: test] Error 1"),
    ("rspec", "12 examples, 2 failures", "12 examples, 2 failures"),
    ("phpunit", "FAILURES!\nTests: 3, Assertions: 5, Failures: 1.", "FAILURES!"),
    ("pester", "Tests Passed: 3, Failed: 1, Skipped: 0", "Tests Passed: 3, Failed: 1, Skipped: 0"),
    ("runtests", "FAILED (failures=2, errors=1)", "FAILED (failures=2, errors=1)"),
    # flake8 7.5.0 and pylint 4.1.4 on one file, as printed: no line names a failure in words.
    ("flake8", FLAKE8, "src/app.py:1:1: F401 'os' imported but unused"),
    ("flake8", "stdin:3:80: E501 line too long (92 > 79 characters)\n",
     "stdin:3:80: E501 line too long (92 > 79 characters)"),
    ("pylint", PYLINT, "src/app.py:1:0: C0114: Missing module docstring (missing-module-docstring)"),
    ("pylint", PYLINT_COLOURED,
     "src/app.py:1:0: C0114: \x1b[1mMissing module docstring\x1b[0m (\x1b[1mmissing-module-docstring\x1b[0m)"),
    ("pre-commit", "flake8...................................................................Failed\n"
     "- hook id: flake8\n- exit code: 1\n\n" + FLAKE8, "src/app.py:1:1: F401 'os' imported but unused"),
    ("pre-commit", "\n".join(FLAKE8.splitlines()[-2:]), "src/app.py:2:9: E202 whitespace before ')'"),  # `| tail -2`
]


@pytest.mark.parametrize(("family", "output", "line"), FAILING)
def test_a_failure_summary_is_found(family: str, output: str, line: str) -> None:
    """The refuting line is returned as printed."""
    assert failure_evidence(family, output) == line


PASSING = [
    ("npm-script", "> test\n> vitest run\n\n Test Files  3 passed (3)\n      Tests  12 passed (12)"),
    ("pytest", "==== 12 passed, 1 skipped in 0.50s ===="),
    ("pytest", "12 passed, 0 failed in 0.50s"),
    ("pytest", "test_errors_are_reported PASSED"),
    ("jest", "Tests:       0 failed, 4 passed, 4 total"),
    ("cargo", "test result: ok. 4 passed; 0 failed"),
    ("go", "ok  \tgithub.com/a/b\t0.01s"),
    ("tsc", ""),
    ("mypy", "Success: no issues found in 3 source files"),
    ("ruff", "All checks passed!"),
    ("eslint", ""),
    ("dotnet", "Passed!  - Failed:     0, Passed:    10"),
    ("maven", "[INFO] BUILD SUCCESS\nTests run: 4, Failures: 0, Errors: 0"),
    ("rspec", "12 examples, 0 failures"),
    ("make", "make: Nothing to be done for 'all'."),
    ("flake8", ""),
    ("pylint", ""),  # pylint 4 prints nothing for a module without messages
    ("pylint", "------------------------------------------------------------------\n"
               "Your code has been rated at 10.00/10 (previous run: 6.67/10, +3.33)\n"),
    ("pre-commit", "flake8...................................................................Passed\n"),
]


@pytest.mark.parametrize(("family", "output"), PASSING)
def test_passing_output_is_never_evidence(family: str, output: str) -> None:
    """A passing run's summary does not refute it."""
    assert failure_evidence(family, output) is None


def test_unknown_families_have_no_markers() -> None:
    """A family without markers refutes nothing."""
    assert failure_evidence("no-such-family", "FAILED everything") is None
