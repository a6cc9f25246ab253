"""Names that merely contain "test" are not tests: a path-named script is a test only with a test
runner's name, as a test module, or under `scripts/test…`."""

from __future__ import annotations

import pytest

from shellparse import analyze


@pytest.mark.parametrize(
    "command",
    ["./test", "bin/test -C --verbose", "./tests", "./run-tests.sh", "./run_tests.py", "scripts/runtests",
     "./runtest --single unit/acl", "./run-tests.js", "tools/run_test.rb", "sh ./scripts/test.sh",
     "./scripts/test-e2e.sh", "scripts/tests/unit.sh", "bash scripts/test_all.sh", "python tests/test_api.py",
     "ruby -I test test/test_utils.rb", "node src/parser.test.js", "python tests/parser_test.py",
     "./tests/runtests.py --verbosity 2", "run_tests.sh"],
)
def test_a_test_runner_name_is_a_test(command: str) -> None:
    """`test`, `tests`, `run-tests`, `run_tests`, `runtests` with any extension, test modules, `scripts/test…`."""
    validation = analyze(command).validation
    assert validation is not None and validation.kind == "test", command


@pytest.mark.parametrize(
    "command",
    ["/tmp/app-test bad-argument", "./test-harness.sh configure", "bash tests/fixtures/test-harness.sh configure",
     "./build/tests/test-udt_cpp11 -s", "./bin/contest", "./latest.sh", "./scripts/deploy-test-env.sh",
     "target/debug/loadtest", "./tests/fixtures/make_fixture.py", "python tests/conftest_helper.py",
     "./attest.sh", "python test-harness.py"],
)
def test_a_name_that_merely_contains_test_is_not_a_test(command: str) -> None:
    """A product binary built as `/tmp/app-test`, a fixture helper, a test binary named only by its path."""
    result = analyze(command)
    assert result.validation is None, (command, result.validation)
