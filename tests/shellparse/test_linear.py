"""Analysis is linear in the length of the line, and its work per command is capped.

`pytest && pytest && … && true` with thousands of checks once took quadratic time and memory (a
reason per earlier statement of the list, for every check of it). No timing here: the tests count
what the analysis builds and visits, and hold its memory under a limit in a child process.
"""

from __future__ import annotations

import resource
import subprocess
import sys

import pytest

from shellparse import analyze, parse
from shellparse._analysis import WORK_BASE, WORK_PER_CHARACTER, Analyzer

OPERATORS = ("&&", "||", ";", "\n")


def chain(checks: int, op: str) -> str:
    """``checks`` checks joined by ``op``, ending with ``true``."""
    return (f" {op} " if op != "\n" else op).join(["pytest"] * checks + ["true"])


@pytest.mark.parametrize("op", OPERATORS)
def test_reasons_per_check_stay_constant_along_a_chain(op: str) -> None:
    """Each check of a long chain carries a few reasons, however many statements come before it."""
    for checks in (100, 1_000):
        analysis = analyze(chain(checks, op), cache=False)
        assert len(analysis.checks) == checks
        assert max(len(check.reasons) for check in analysis.checks) <= 4, op


@pytest.mark.parametrize("op", OPERATORS)
def test_a_chain_visits_each_statement_once(op: str) -> None:
    """The analysis visits every statement of a chain once: its work grows as the chain does."""
    command = chain(3_000, op)
    analyzer = Analyzer(command, "bash", "seed")
    analyzer.run(parse(command))
    assert analyzer.work == 3_001


def test_a_long_chain_fits_in_little_memory() -> None:
    """6,000 checks joined by `&&` (once 5 GB) are analysed by a process limited to 300 MB of address space."""
    code = ("import shellparse\n"
            "analysis = shellparse.analyze(' && '.join(['pytest'] * 6000 + ['true']), cache=False)\n"
            "print(len(analysis.checks), analysis.witness_eligible)")
    limit = 300 << 20

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    done = subprocess.run([sys.executable, "-c", code], preexec_fn=limited, capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["6000", "False"]


def test_work_beyond_the_budget_is_refused() -> None:
    """A line that would make the analysis visit far more than its length allows (thousands of
    function definitions, each copying the table of the others) is refused, fail-closed."""
    command = "".join(f"f{number}() {{ :; }}; " for number in range(3_000)) + "pytest"
    analysis = analyze(command, cache=False)
    assert not analysis.witness_eligible and analysis.effect == "unknown"
    assert [(reason.code, "work" in reason.message or "analyse" in reason.message) for reason in analysis.reasons] \
        == [("unreadable", True)]


def test_the_budget_is_linear_in_the_length() -> None:
    """An analysis may visit a fixed number of statements per character (plus a constant), so any
    command line is answered in time linear in its length."""
    command = "f() { g; g; g; g; }; g() { pytest; }; " + "f; " * 200
    analyzer = Analyzer(command, "bash", "seed")
    analyzer.run(parse(command))
    assert analyzer.work <= WORK_BASE + WORK_PER_CHARACTER * len(command)
