"""Every marker of every marker table has a sample line of its runner's own shape, and is found in it
whether or not the cue words are looked for first: the look for cues only ever saves time."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shellparse import failure_evidence, not_run_evidence, rewrite_evidence
from shellparse._markers import (
    _REWRITE_WORDS,
    FAMILY_MARKERS,
    MARKER_CUES,
    MARKERS,
    NOT_RUN_MARKERS,
    REWRITE_MARKERS,
    _cued,
    _markers,
)
from tests.shellparse.test_markers_bounded import whole_output_evidence, whole_output_not_run

SAMPLES: dict[str, tuple[str, ...]] = {
    "npm": ("npm error Lifecycle script `test` failed with error:",
            " ERR_PNPM_RECURSIVE_RUN_FIRST_FAIL  app@1.0.0 test: `vitest run`",
            " ELIFECYCLE  Test failed. See above for more details.",
            "error Command failed with exit code 1.", 'error: script "test" exited with code 1'),
    "pytest": ("========================= 1 failed, 12 passed in 0.53s =========================",
               "1 failed, 12 passed in 0.53s",
               "FAILED tests/test_api.py::test_login - AssertionError: assert 401 == 200"),
    "unittest": ("FAILED (failures=1, errors=1)",),
    "jest": ("Tests:       1 failed, 12 passed, 13 total", "Test Suites: 1 failed, 3 passed, 4 total"),
    "vitest": ("      Tests  2 failed | 9 passed (11)", " Test Files  1 failed | 2 passed (3)"),
    "mocha": ("  1 failing",),
    "cargo": ("test result: FAILED. 3 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s",
              "error[E0425]: cannot find value `x` in this scope",
              "error: could not compile `app` (lib) due to 1 previous error",
              "  process didn't exit successfully: `/repo/target/debug/deps/app-7fd7a1` (exit status: 101)"),
    "cargo-fmt": ("Diff in /repo/src/main.rs:12:",),
    "go": ("FAIL\tgithub.com/acme/app/pkg\t0.012s", "--- FAIL: TestParse (0.00s)",
           "pkg/parse.go:12:5: undefined: tokenize"),
    "tsc": ("src/index.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.",
            "Found 2 errors in 1 file."),
    "mypy": ("Found 1 error in 1 file (checked 12 source files)",
             'src/app.py:3: error: Incompatible return value type (got "str", expected "int")  [return-value]'),
    "ruff": ("Found 3 errors.",),
    "ruff-format": ("Would reformat: src/app.py", "1 file would be reformatted, 11 files already formatted"),
    "ty": ("Found 2 diagnostics",),
    "eslint": ("✖ 3 problems (2 errors, 1 warning)", "3 problems (2 errors, 1 warning)"),
    "pyright": ("2 errors, 0 warnings, 0 informations ",
                '  /repo/src/app.py:3:5 - error: "x" is not defined (reportUndefinedVariable)'),
    "golangci-lint": ("2 issues:", 'level=error msg="Running error: context loading failed: no go files to analyze"',
                      "main.go:12:3: Error return value of `f.Close` is not checked (errcheck)"),
    "staticcheck": ("pkg/cache/cache.go:42:2: this value of err is never used (SA4006)",),
    "mise": ("[test] ERROR task failed", "mise ERROR no task test found"),
    "bats": ("not ok 2 parses a config file",),
    "rustfmt": ("Diff in /repo/src/main.rs:12:",),
    "dotnet-format": ("/repo/src/Program.cs(12,5): error WHITESPACE: Fix whitespace formatting. [/repo/App.csproj]",
                      "/repo/src/Program.cs(3,1): warning IDE0005: Using directive is unnecessary. [/repo/App.csproj]"),
    "dotnet": ("Failed!  - Failed:     2, Passed:    10, Skipped:     0, Total:    12, Duration: 1 s - App.Tests.dll",
               "Build FAILED.",
               "/repo/src/Program.cs(12,5): error CS0103: The name 'x' does not exist in the current context",
               "Başarısız! - Başarısız:     2, Başarılı:   219, Atlanan:     0, Toplam:   221",
               "Fehler!     - Fehler:     1, erfolgreich:    10, übersprungen:     0, gesamt:    11",
               "Échec !   - Échec :     1, Réussite :    10, Ignorée(s) :     0, Total :    11",
               "Test run summary: Failed! - bin/Debug/net9.0/App.Tests.dll (net9.0|x64)"),
    "maven": ("[ERROR] BUILD FAILURE", "[INFO] BUILD FAILURE",
              "[ERROR] Tests run: 12, Failures: 1, Errors: 0, Skipped: 0",
              "[ERROR] Tests run: 12, Failures: 0, Errors: 2, Skipped: 0"),
    "gradle": ("BUILD FAILED in 4s", "FAILURE: Build failed with an exception.", "12 tests completed, 1 failed"),
    "make": ("make: *** [Makefile:12: test] Error 2",),
    "rspec": ("12 examples, 2 failures",),
    "phpunit": ("FAILURES!", "ERRORS!", "  Tests:    1 failed, 11 passed (14 assertions)"),
    "ctest": ("The following tests FAILED:", "75% tests passed, 1 tests failed out of 4"),
    "tox": ("ERROR:   py38: commands failed", "  py311: FAIL code 1 (2.31=setup[1.20]+cmd[1.11] seconds)",
            "  py38: commands failed"),
    "nox": ("nox > Session tests-3.11 failed.",),
    "swift": ("Executed 12 tests, with 1 failure (0 unexpected) in 0.041 (0.043) seconds",
              "error: emit-module command failed with exit code 1 (use -v to see invocation)"),
    "swift-testing": ("✘ Test run with 3 tests in 1 suite failed after 0.010 seconds with 1 issue.",),
    "xcodebuild": ("** TEST FAILED **",
                   "/Users/dev/App/Sources/App/Parser.swift:12:5: error: cannot find 'tokenize' in scope"),
    "mix": ("1 doctest, 12 tests, 1 failure",
            "** (CompileError) lib/app.ex: cannot compile module App (errors have been logged)"),
    "deno": ("FAILED | 2 passed | 1 failed (18ms)", "error: Test failed"),
    "bun": (" 1 fail",),
    "pester": ("Tests Passed: 3, Failed: 1, Skipped: 0, Pending: 0, Inconclusive: 0",
               "Passed: 3 Failed: 1 Skipped: 0 Pending: 0 Inconclusive: 0"),
    "rubocop": ("12 files inspected, 3 offenses detected, 2 offenses autocorrectable",),
    "flake8": ("src/app.py:3:80: E501 line too long (92 > 79 characters)",),
    "pylint": ("src/app.py:1:0: C0114: Missing module docstring (missing-module-docstring)",),
    "black": ("would reformat /repo/src/app.py", "Oh no! 💥 💔 💥"),
    "prettier": ("[warn] Code style issues found in 2 files. Run Prettier with --write to fix.",
                 "[error] src/app.ts: SyntaxError: ';' expected. (3:7)"),
}
"""One line per marker of :data:`MARKERS`, in its order, as the family's runner prints it."""

NOT_RUN_SAMPLES: dict[str, tuple[str, ...]] = {
    "npm-script": ('npm error Missing script: "tset"', " ERR_PNPM_NO_SCRIPT  Missing script: tset",
                   'error Command "tset" not found.'),
    "make": ("make: *** No rule to make target 'tset'.  Stop.",
             "make: *** No targets specified and no makefile found.  Stop."),
    "just": ("error: Justfile does not contain recipe `tset`.", "error: No justfile found"),
    "cargo": ("error: no library targets found in package `app`", "error: no test target named `api`",
              "error: package ID specification `nope` did not match any packages",
              "error: could not find `Cargo.toml` in `/repo` or any parent directory",
              "error: rustc 1.74.0 is not supported by the following packages:",
              "error: failed to download from `https://example.com/api/v1/crates/serde/1.0.200/download`"),
    "pytest": ("ERROR: file or directory not found: tests/test_nope.py",
               "ERROR: not found: /repo/tests/test_api.py::test_nope"),
    "go": ("no Go files in /repo/cmd", "go: cannot find main module, but found .git/config in /repo"),
    "dotnet": ("MSBUILD : error MSB1009: Project file does not exist.",
               "MSBUILD : error MSB1003: Specify a project or solution file. The current working directory does not "
               "contain a project or solution file."),
}
"""One line per marker of :data:`NOT_RUN_MARKERS`, in its order."""

REWRITE_SAMPLES = ("[This command modified 1 file you've previously read: src/x.py. Call Read before editing.]",
                   "Checked 12 files in 3ms. Fixed 2 files.", "Found 3 errors (3 fixed, 0 remaining).",
                   "2 files reformatted, 5 files left unchanged.", "reformatted /repo/src/app.py",
                   "       Fixed src/main.rs (2 fixes)", "Formatted 3 files")
"""One line per marker of :data:`REWRITE_MARKERS`, in its order."""

BEFORE = "   Compiling app v0.1.0 (/repo)\nrunning 12 tests\n"
AFTER = "\nDone in 1.2s.\n"
"""Lines around a sample, with no cue word in them (a sample is found where it is)."""

FAILURE_CASES = [(family, marker, sample) for family, markers in MARKERS.items()
                 for marker, sample in zip(markers, SAMPLES.get(family, ()), strict=False)]
NOT_RUN_CASES = [(family, marker, sample) for family, markers in NOT_RUN_MARKERS.items()
                 for marker, sample in zip(markers, NOT_RUN_SAMPLES.get(family, ()), strict=False)]


@pytest.mark.parametrize(("table", "samples"), [(MARKERS, SAMPLES), (NOT_RUN_MARKERS, NOT_RUN_SAMPLES),
                                                ({"": REWRITE_MARKERS}, {"": REWRITE_SAMPLES})],
                         ids=["failure", "not-run", "rewrite"])
def test_every_marker_has_a_sample_line(table: dict[str, tuple[str, ...]],
                                        samples: dict[str, tuple[str, ...]]) -> None:
    """A marker added to a table without a sample line (or a sample without its marker) fails here."""
    assert {family: len(markers) for family, markers in table.items()} == \
           {family: len(lines) for family, lines in samples.items()}


@pytest.mark.parametrize(("family", "marker", "sample"), FAILURE_CASES)
def test_every_failure_marker_is_found_in_its_sample_with_and_without_the_cues(
        family: str, marker: str, sample: str) -> None:
    """The sample matches its marker; its family finds it among other lines as the whole-output alternation
    (which looks for no cue) does; and a family that looks for cues first sees one in it."""
    assert re.search(marker, sample) is not None
    output = BEFORE + sample + AFTER
    assert failure_evidence(family, output) == whole_output_evidence(family, output) == sample.strip()
    markers = _markers(family)  # a family's own, with those of the families it runs (`make`, `mise`)
    assert markers is not None
    if MARKER_CUES[family]:
        assert _cued(sample, MARKER_CUES[family]) and _cued(sample, markers.cues)
    else:
        assert markers.cues == ()


@pytest.mark.parametrize("family", sorted(FAMILY_MARKERS))
def test_a_family_reading_other_families_markers_finds_each_of_their_samples(family: str) -> None:
    """`pre-commit` finds flake8's line, `make` and an npm script every runner's: the families they read
    lend them their markers and, with them, their need to be read without cues."""
    for group in FAMILY_MARKERS[family]:
        for sample in SAMPLES[group]:
            output = BEFORE + sample + AFTER
            assert failure_evidence(family, output) == whole_output_evidence(family, output) == sample.strip()


def test_every_family_with_markers_declares_its_cues() -> None:
    """A family added to the markers without its cue words (or with words not in lower case) fails here."""
    assert set(MARKER_CUES) == set(MARKERS)
    assert all(word == word.lower() for words in MARKER_CUES.values() for word in words)


def test_the_families_without_cues_need_to_be_read_without_them() -> None:
    """Each family that is read without cues has a real line that holds none of the other families' words
    (else it would not need to be), and a runner of anything that may run it is read without cues too."""
    every_word = tuple({word for words in MARKER_CUES.values() for word in words})
    cueless = {family for family, words in MARKER_CUES.items() if not words}
    assert cueless == {"flake8", "pylint"}
    for family in cueless:
        assert any(not _cued(sample, every_word) for sample in SAMPLES[family]), family
    for family, groups in FAMILY_MARKERS.items():
        markers = _markers(family)
        if markers is not None and not cueless.isdisjoint(groups):
            assert markers.cues == (), family


@pytest.mark.parametrize(("family", "marker", "sample"), NOT_RUN_CASES)
def test_every_not_run_marker_is_found_in_its_sample(family: str, marker: str, sample: str) -> None:
    """A not-run line is found among other lines, as the whole-output alternation finds it."""
    assert re.search(marker, sample) is not None
    output = BEFORE + sample + AFTER
    assert not_run_evidence(family, output) == whole_output_not_run(family, output) == sample.strip()


@pytest.mark.parametrize(("marker", "sample"), list(zip(REWRITE_MARKERS, REWRITE_SAMPLES, strict=True)))
def test_every_rewrite_marker_is_found_in_its_sample_with_and_without_the_cheap_look(marker: str,
                                                                                    sample: str) -> None:
    """A rewrite line is found among other lines, holds an admitting word, and the markers' own search finds it."""
    assert re.search(marker, sample) is not None
    assert rewrite_evidence(BEFORE + sample + AFTER) == sample.strip()
    assert any(word in sample for word in _REWRITE_WORDS)


_MATCHES = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                           HealthCheck.filter_too_much])


@pytest.mark.parametrize(("family", "marker"), [(family, marker) for family, markers in MARKERS.items()
                                                if MARKER_CUES[family] for marker in markers])
@_MATCHES
@given(data=st.data())
def test_every_match_of_a_cued_marker_holds_a_cue(family: str, marker: str, data: st.DataObject) -> None:
    """Any text a marker matches (not only the sample) holds one of its family's cue words, so skipping
    text without one skips no failure (a marker without one — `Fehler!` once — fails here, with the text)."""
    match = data.draw(st.from_regex(re.compile(marker, re.MULTILINE), fullmatch=True))
    assert _cued(match, MARKER_CUES[family])


@pytest.mark.parametrize("marker", REWRITE_MARKERS)
@_MATCHES
@given(data=st.data())
def test_every_match_of_a_rewrite_marker_holds_an_admitting_word(marker: str, data: st.DataObject) -> None:
    """Any text a rewrite marker matches holds one of the words that let an output be read at all."""
    match = data.draw(st.from_regex(re.compile(marker, re.MULTILINE), fullmatch=True))
    assert any(word in match for word in _REWRITE_WORDS)


@pytest.mark.parametrize(("family", "line"), [("pytest", "\x1b[31mF\x1b[1mAILED\x1b[0m tests/test_a.py::test_x"),
                                              ("dotnet", "Fe\x1b[31mhler!\x1b[0m - Fehler:     1, erfolgreich:    3")])
def test_a_colour_code_inside_a_cue_word_does_not_hide_the_failure(family: str, line: str) -> None:
    """The cue words are looked for in the output without its colour codes, as the markers are."""
    assert failure_evidence(family, f"collected 4 items\n{line}\n") == line
