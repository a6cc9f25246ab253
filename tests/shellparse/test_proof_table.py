"""The table of shapes that carry a check's exit status, held to real bash row by row.

Eligibility is positive proof: a check witnesses only when every construct between it and the
command's exit status is a row of the table (``docs/shellparse.md``, "The table of shapes"); every
other shape refuses. Each row here is an oracle class: its honest instances run under real bash
with the check's stub at 0, 1, 2 and "fail then pass" (a real tool's project passing and failing
for the tool rows), and bash follows the check in every run while the analysis witnesses them; its
neighbours are refused, and bash shows why (it reports 0 for a check that failed or never ran, or a
status that is not the check's).

The adversarial set of :mod:`tests.shellparse.proof_cases` runs here too, class by class: every
command that fakes a pass is refused, every honest one witnessed (but the few listed in
``HONEST_REFUSED``, with why).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from shellparse import analyze
from tests.shellparse.corpus_file import entries as corpus_entries
from tests.shellparse.proof_cases import CASES, HONEST_REFUSED, Case, needs_project
from tests.shellparse.proof_sandbox import label, run_case
from tests.shellparse.proof_table import ROWS, TOOL_ROWS

DOC = Path(__file__).resolve().parents[2] / "docs" / "shellparse.md"
ALL_ROWS = {**ROWS, **TOOL_ROWS}
INSTANCES = [(name, command, honest) for name, row in ALL_ROWS.items()
             for honest, commands in ((True, row.honest), (False, row.refused)) for command in commands]


def _case(name: str, command: str, honest: bool) -> Case:
    row = ALL_ROWS[name]
    return Case(name, honest, command, program=row.program, files=row.files, real=row.real)


def _eligible(command: str) -> tuple[bool, bool]:
    return analyze(command).witness_eligible, analyze(command, policy="strict").witness_eligible


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One directory under which every run gets a fresh sandbox."""
    return tmp_path_factory.mktemp("proof")


@pytest.mark.parametrize(("name", "command", "honest"), INSTANCES, ids=lambda value: str(value)[:50])
def test_the_analysis_follows_the_table(name: str, command: str, honest: bool) -> None:
    """A row's instances witness under both policies, its neighbours under neither (no bash needed)."""
    assert _eligible(command) == (honest, honest), analyze(command).reasons


@pytest.mark.slow
@pytest.mark.parametrize(("name", "command", "honest"), INSTANCES, ids=lambda value: str(value)[:50])
def test_bash_follows_each_row_and_not_its_neighbours(base: Path, name: str, command: str, honest: bool) -> None:
    """Real bash follows the check through every instance of a row, and not through a refused neighbour."""
    case = _case(name, command, honest)
    found = label(case, run_case(base, case))
    assert (found == "follows") == honest, f"{command!r}: bash {found}"


@pytest.mark.parametrize("case", CASES, ids=lambda case: f"{case.group}:{case.command[:40]}")
def test_the_adversarial_set_is_refused_and_its_neighbours_witnessed(case: Case) -> None:
    """Every command of the set that fakes a pass is refused under both policies, every honest one
    witnessed, but for the listed shapes the analysis cannot prove."""
    expected = case.honest and case.command not in HONEST_REFUSED
    assert _eligible(case.command) == (expected, expected), analyze(case.command).reasons


LABELLED_IN_CORPUS = {entry["command"] for entry in corpus_entries() if "bash" in entry}
"""Commands of the corpus with their `bash` label, which `test_oracle.py` runs under bash."""


@pytest.mark.slow
@pytest.mark.parametrize("case", [case for case in CASES if needs_project(case) or case.command not in
                                  LABELLED_IN_CORPUS], ids=lambda case: f"{case.group}:{case.command[:40]}")
def test_the_adversarial_set_is_labelled_by_bash(base: Path, case: Case) -> None:
    """Each command of the set does under real bash what its label says (a command the corpus holds
    with its `bash` label is run there): the fakes report 0 for a check that failed or never ran, the
    honest ones follow the check in every run."""
    found = label(case, run_case(base, case))
    assert found == ("follows" if case.honest else "fakes"), f"{case.command!r}: bash {found}"


def test_honest_refusals_are_honest_cases_of_the_set() -> None:
    """Every shape listed as an honest refusal is an honest case of the set, with a reason."""
    honest = {case.command for case in CASES if case.honest}
    assert set(HONEST_REFUSED) <= honest
    assert all(HONEST_REFUSED.values())


def test_the_documentation_shows_every_row() -> None:
    """`docs/shellparse.md` has a row for every oracle class here, and none other."""
    text = DOC.read_text(encoding="utf-8")
    begin, end = "<!-- table of shapes: begin -->", "<!-- table of shapes: end -->"
    table = text.split(begin, 1)[1].split(end, 1)[0]
    shown = set(re.findall(r"^\| `([a-z-]+)` \|", table, re.M))
    assert shown == set(ROWS), sorted(shown ^ set(ROWS))
