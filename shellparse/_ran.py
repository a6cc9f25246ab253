"""Whether a test run ran any test: the lines each runner prints when it ran none, and when it ran some.

A run that selected nothing (``pytest -k typo``, ``cargo test nomatch``, ``jest --passWithNoTests
gone.test.ts``) exits 0 on many runners, yet it says nothing about the tests a failure reported:
it does not witness them. :func:`none_ran_evidence` finds the line that shows a run ran no test,
:func:`ran_evidence` the line that shows tests ran (a failure that reported failing
tests). Like the failure markers, these lines only ever take a pass away, never grant one.

Some runners print one section per test binary or package (cargo, ``go test ./...``): a ``running 0
tests`` line speaks for its section only. Their rows are ``sections``: a run ran nothing only when
no section ran a test, which an output cut by the command (``| tail -5`` keeps the doc-tests'
``running 0 tests`` and drops the unit tests before it) cannot show — such an output is not read.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, NamedTuple

from ._markers import _ANSI, _EOL, FAMILY_MARKERS, SCAN_HEAD, SCAN_TAIL, _arranged, _Markers, _raw_line, _regions

if TYPE_CHECKING:
    from ._results import Validation

_N = r"[1-9]\d*"  # a count that is not zero


class RanRow(NamedTuple):
    """How one test runner shows whether it ran a test."""

    none: tuple[str, ...]
    """Lines that show the run (or, for ``sections``, one section of it) ran no test."""
    ran: tuple[str, ...]
    """Lines that show at least one test ran, passing or failing."""
    sample: str
    """An output of a run that ran no test, the runner's own lines trimmed: captured from real runs for
    pytest, unittest, jest, vitest, mocha and cargo; for go, rspec, PHPUnit, ExUnit, ctest and dotnet, the
    lines their sources print."""
    sections: bool = False
    """The output has one section per test binary or package, and a ``none`` line speaks for its own."""


RAN: dict[str, RanRow] = {
    "pytest": RanRow(
        none=(r"^=*[ \t]*no tests ran in [\d.]+s", r"^collected \d+ items?(?: / \d+ deselected)? / 0 selected",
              r"^=*[ \t]*(?:\d+ (?:deselected|skipped|warnings?)(?:, )?)+ in [\d.]+s"),
        ran=(rf"^=*[ \t]*(?:\d+ \w+, )*{_N} (?:passed|failed|errors?|xfailed|xpassed)\b.* in [\d.]+s",
             r"^(?:FAILED|ERROR|PASSED) \S+::"),
        sample="collected 1 item / 1 deselected / 0 selected\n\n"
               "============================ 1 deselected in 1.36s ============================="),
    "unittest": RanRow(none=(r"^Ran 0 tests in ",), ran=(rf"^Ran {_N} tests? in ",),
                       sample="-" * 70 + "\nRan 0 tests in 0.000s\n\nOK"),
    "jest": RanRow(none=(r"^No tests found, exiting with code \d+", r"^Tests:\s+(?:\d+ (?:skipped|todo), )*\d+ total"),
                   ran=(rf"^Tests:\s+.*\b{_N} (?:passed|failed)\b",),
                   sample="Test Suites: 1 skipped, 0 of 1 total\nTests:       1 skipped, 1 total\n"
                          "Snapshots:   0 total\nTime:        0.438 s\n"
                          "Ran all test suites with tests matching \"nomatch\"."),
    "vitest": RanRow(none=(r"^No test files found, exiting with code \d+",
                           r"^[ \t]*Tests\s+(?:no tests|(?:\d+ (?:skipped|todo)(?: \| )?)+ \(\d+\))"),
                     ran=(rf"^[ \t]*Tests?\s+.*\b{_N} (?:passed|failed)\b",),
                     sample=" Test Files  1 skipped (1)\n      Tests  1 skipped (1)\n   Start at  23:19:06\n"
                            "   Duration  222ms (transform 31ms, setup 0ms, import 41ms, tests 0ms, environment 0ms)"),
    "mocha": RanRow(none=(r"^[ \t]*0 passing\b",), ran=(rf"^[ \t]*{_N} (?:passing|failing)\b",),
                    sample="\n\n  0 passing (1ms)\n"),
    "cargo": RanRow(none=(rf"^running 0 tests{_EOL}",), ran=(rf"^running {_N} tests?{_EOL}",), sections=True,
                    sample="    Finished `test` profile [unoptimized + debuginfo] target(s) in 1.85s\n"
                           "     Running unittests src/lib.rs (target/debug/deps/rs-a35a48c092d3f767)\n\n"
                           "running 0 tests\n\ntest result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; "
                           "1 filtered out; finished in 0.00s\n"),
    # `go test ./...` prints a line per package; `-run` that matches nothing prints the warning.
    "go": RanRow(none=(r"^ok\s+\S+\s+.*\[no tests to run\]", r"^\?\s+\S+\s+\[no test files\]",
                       r"^testing: warning: no tests to run"),
                 ran=(r"^ok\s+\S+\s+(?:[\d.]+s|\(cached\))(?!.*\[no tests to run\])", r"^--- (?:PASS|FAIL|SKIP): ",
                      r"^FAIL\s+\S+\s+[\d.]+s"),
                 sections=True,
                 sample="testing: warning: no tests to run\nPASS\n"
                        "ok  \texample.com/app/parse\t0.002s [no tests to run]"),
    "rspec": RanRow(none=(r"^0 examples, 0 failures",), ran=(rf"^{_N} examples?, \d+ failures?",),
                    sample="\nFinished in 0.00031 seconds (files took 0.06 seconds to load)\n0 examples, 0 failures\n"),
    "phpunit": RanRow(none=(r"^No tests executed!",), ran=(rf"^OK \({_N} tests?, ", rf"^Tests: {_N}, Assertions: "),
                      sample="Time: 00:00.003, Memory: 6.00 MB\n\nNo tests executed!"),
    "mix": RanRow(none=(r"^(?:\d+ doctests?, )?0 tests, 0 failures",),
                  ran=(rf"^(?:\d+ (?:doctests?|propert(?:y|ies)), )*{_N} tests?, \d+ failures?",),
                  sample="Finished in 0.01 seconds (0.00s async, 0.01s sync)\n0 tests, 0 failures\n"),
    "ctest": RanRow(none=(r"^No tests were found!!!",), ran=(rf"tests passed, \d+ tests? failed out of {_N}",),
                    sample="Test project /repo/build\nNo tests were found!!!"),
    "dotnet": RanRow(none=(r"^No test is available in ", r"^No test matches the given testcase filter "),
                     ran=(rf"^(?:Passed|Failed)!\s+-\s+Failed:\s+\d+,\s+Passed:\s+\d+,.*Total:\s+{_N}",),
                     sample="No test matches the given testcase filter `FullyQualifiedName~Golden` in "
                            "/repo/tests/bin/Debug/net8.0/App.Tests.dll"),
}
"""For each test runner: how its output shows it ran no test, and that it ran some. A family that runs
others (``npm test``, ``make test``) reads the rows of the runners it may run (``FAMILY_MARKERS``)."""


class _Rows(NamedTuple):
    none: _Markers | None
    ran: _Markers | None
    sections: bool


@cache
def _rows(family: str) -> _Rows:
    rows = [RAN[group] for group in FAMILY_MARKERS.get(family, (family,)) if group in RAN]
    # Arranged as the failure markers are (anchored ones in one search from line starts): a runner of
    # runners reads a score of patterns, and one alternation of them tried at every character is slow.
    return _Rows(_arranged(p for row in rows for p in row.none), _arranged(p for row in rows for p in row.ran),
                 any(row.sections for row in rows))


def _family(check: str | Validation) -> str:
    return check if isinstance(check, str) else check.family


def _search(markers: _Markers, output: str) -> str | None:
    """The first line of ``output``'s head or tail that one of ``markers`` matches (colour codes ignored)."""
    for start, end in _regions(output):
        text = output[start:end]
        plain = _ANSI.sub("", text) if "\x1b" in text else text
        found = markers.first(plain)
        if found is not None:
            return _raw_line(text, plain, found)
    return None


def ran_evidence(check: str | Validation, output: str) -> str | None:
    """The first line of ``output`` that shows ``check`` (a :class:`Validation` or a family) ran at least
    one test, if one does."""
    ran = _rows(_family(check)).ran
    return _search(ran, output) if ran is not None and output else None


def none_ran_evidence(check: str | Validation, output: str, *, whole: bool) -> str | None:
    """The line of ``output`` that shows ``check`` ran no test, when it shows that and no line shows a
    test ran. ``whole``: the output is the check's own, not cut by the command (``| tail``); a runner
    that prints one section per binary or package is read only then (see the module docstring)."""
    rows = _rows(_family(check))
    if rows.none is None or not output:
        return None
    if rows.sections and (not whole or len(output) > SCAN_HEAD + SCAN_TAIL):
        return None
    evidence = _search(rows.none, output)
    if evidence is None or (rows.ran is not None and _search(rows.ran, output) is not None):
        return None
    return evidence
