"""`failure_evidence` and `not_run_evidence` read only the head and the tail of an output, and find
exactly what reading all of it with one alternation of the markers finds, for every output of at
most that size."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from shellparse import failure_evidence, not_run_evidence
from shellparse._markers import FAMILY_MARKERS, MARKERS, NOT_RUN_MARKERS, SCAN_HEAD, SCAN_TAIL
from tests.shellparse.test_markers import FAILING, PASSING

REAL = [json.loads(line) for line in (Path(__file__).resolve().parents[1] / "fixtures" / "failing_outputs"
                                      / "real.jsonl").read_text(encoding="utf-8").splitlines()]
"""Real failing outputs of checks, with the failure line each shows (see that folder's README)."""
FAMILIES = sorted({*MARKERS, *FAMILY_MARKERS, "no-such-family"})


@cache
def _alternation(family: str) -> re.Pattern[str] | None:
    groups = FAMILY_MARKERS.get(family, (family,))
    alternatives = [marker for group in groups for marker in MARKERS.get(group, ())]
    return re.compile("|".join(f"(?:{m})" for m in alternatives), re.MULTILINE) if alternatives else None


def _first_line(output: str, at: int) -> str:
    start = output.rfind("\n", 0, at) + 1
    end = output.find("\n", at)
    line = output[start : end if end >= 0 else len(output)].strip()
    return line if len(line) <= 200 else line[:199] + "…"


def whole_output_not_run(family: str, output: str) -> str | None:
    """The reference for `not_run_evidence`: the family's markers as one alternation over the whole output."""
    markers = NOT_RUN_MARKERS.get(family, ())
    match = re.search("|".join(f"(?:{m})" for m in markers), output, re.MULTILINE) if markers else None
    return _first_line(output, match.start()) if match is not None else None


def whole_output_evidence(family: str, output: str) -> str | None:
    """The reference: every marker of the family as one alternation, over the whole output (no cue words
    looked for first: they may make the search faster, never change what it finds)."""
    pattern = _alternation(family)
    if pattern is None:
        return None
    match = pattern.search(output)
    return _first_line(output, match.start()) if match is not None else None


LINES = st.sampled_from([line for _, output, _ in FAILING for line in output.splitlines()]
                        + [line for _, output in PASSING for line in output.splitlines()]
                        + [line for row in REAL[:12] for line in row["output"].splitlines()[:30]]
                        + ["", "   ", "\t", "FAIL", "fail", "FAİLED", "offenſe", "✖", "npm", "npm error", "====",
                           "main.go:12:5: undefined: x", "src/app.py:3:1: E302 expected 2 blank lines"])
TEXT = st.text(alphabet=st.characters(codec="utf-8") | st.sampled_from("\n \t=:F"),
               max_size=40)
OUTPUTS = st.lists(LINES | TEXT, max_size=40).map("\n".join) | st.lists(LINES, max_size=60).map("\r\n".join)


NOT_RUN_LINES = st.sampled_from(["npm error Missing script: test", "npm ERR! missing script: lint",
                                 " ERR_PNPM_NO_SCRIPT  Missing script: test", 'error Command "jest" not found.',
                                 "make: *** No rule to make target 'tests'.  Stop.", "error: No justfile found",
                                 "error: no test target named `api`", "ERROR: file or directory not found: t.py",
                                 "no Go files in /src", "MSBUILD : error MSB1009: Project file does not exist.",
                                 "xERR_PNPM_NO_SCRIPT", "ok error MSB1003: x", " error: No justfile found"])


@given(st.sampled_from(sorted({*NOT_RUN_MARKERS, "pytest", "no-such-family"})),
       st.lists(NOT_RUN_LINES | LINES | TEXT, max_size=30).map("\n".join))
def test_not_run_finds_what_one_alternation_over_all_of_it_finds(family: str, output: str) -> None:
    """For any output under the bound, the not-run line is the one a single `re.MULTILINE` alternation finds."""
    assume("\x1b" not in output)  # colour codes are read past, which the plain reference does not do
    assert not_run_evidence(family, output) == whole_output_not_run(family, output)


@pytest.mark.parametrize(("family", "line"), [("npm-script", "npm error Missing script: test"),
                                              ("cargo", "error: no test target named `api`"),
                                              ("dotnet", "MSBUILD : error MSB1009: Project file does not exist.")])
def test_not_run_is_found_at_either_end_of_a_long_output_and_past_colour_codes(family: str, line: str) -> None:
    """A not-run line after or before a megabyte of other output is found; a coloured one is shown as printed."""
    filler = "   Compiling crate v0.1.0\n" * 50_000
    assert not_run_evidence(family, filler + line) == line
    assert not_run_evidence(family, line + "\n" + filler) == line
    assert not_run_evidence(family, filler + line + "\n" + filler) is None  # the middle is not read
    coloured = f"\x1b[31m{line}\x1b[0m"
    assert not_run_evidence(family, f"ok\n{coloured}\n") == coloured


@given(st.sampled_from(FAMILIES), OUTPUTS)
def test_under_the_bound_it_finds_what_reading_all_of_it_finds(family: str, output: str) -> None:
    """For any output of at most SCAN_HEAD + SCAN_TAIL characters, the same line or the same None."""
    assert len(output) <= SCAN_HEAD + SCAN_TAIL
    assert failure_evidence(family, output) == whole_output_evidence(family, output)


@pytest.mark.parametrize("output", ["main.go:12:5: undefined: x\nFAİLED", "main.go:12:5: undefined: x\noffenſe",
                                    "main.go:12:5: undefined: x\nall good ✔", "main.go:12:5: undefined: x\n✖ 1"])
def test_cues_read_case_insensitively_beyond_ascii(output: str) -> None:
    """The cheap check for cue words agrees with the case-insensitive one outside ASCII too (`İ`, `ſ`)."""
    for family in ("go", "npm-script"):
        assert failure_evidence(family, output) == whole_output_evidence(family, output)


@pytest.mark.parametrize(("family", "output", "line"), FAILING)
def test_every_family_still_finds_its_marker_in_a_long_output(family: str, output: str, line: str) -> None:
    """A family's failure line is found after a megabyte of passing lines (a summary at the end) and
    before one (an error at the start)."""
    filler = "PASSED tests/test_ok.py::test_fine\n" * 30_000
    assert len(filler) > 1_000_000
    assert failure_evidence(family, filler + output) == line
    assert failure_evidence(family, output + "\n" + filler) == line


@pytest.mark.parametrize("row", REAL, ids=lambda row: row["source"])
def test_real_failing_outputs_show_the_same_line(row: dict[str, Any]) -> None:
    """Every real failing output gives the line reading all of it gives, also when padded to megabytes."""
    family, output, line = row["family"], row["output"], row["evidence"]
    assert failure_evidence(family, output) == line == whole_output_evidence(family, output)
    filler = "".join(f"   Compiling crate{n} v0.1.{n}\n" for n in range(40_000))
    assert failure_evidence(family, filler + output) == line
    if output.index(line) < SCAN_HEAD:
        assert failure_evidence(family, output + "\n" + filler) == line


def test_the_middle_of_a_long_output_is_not_read() -> None:
    """Past the bound, a failure line only in the middle is not looked for (the cost stays bounded)."""
    filler = "ok\n" * (SCAN_HEAD + SCAN_TAIL)
    assert failure_evidence("pytest", filler + "1 failed in 0.2s\n" + filler) is None
    assert whole_output_evidence("pytest", filler + "1 failed in 0.2s\n" + filler) == "1 failed in 0.2s"


def test_an_output_that_is_one_long_line() -> None:
    """A line longer than the tail window is read from inside it, never taken for a line start."""
    line = "x" * (SCAN_HEAD + SCAN_TAIL)
    assert failure_evidence("pytest", line + " 1 failed in 0.2s") is None  # not at a line start
    tail = line + " error TS2322: bad"
    assert failure_evidence("tsc", tail) == whole_output_evidence("tsc", tail)
