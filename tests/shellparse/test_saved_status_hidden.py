"""Declarations that give a name the integer attribute, however they are spelled, keep a saved status
from witnessing once an assignment to that name could evaluate another (``m=y`` with ``y='rc=0'``).

Each shape is run by real bash in the oracle's sandbox: it exits 0 with a failing check, and the
analyser must refuse it; the honest neighbours bash follows keep witnessing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from shellparse import analyze
from tests.shellparse.oracle_sandbox import bash_label, label_runs

FAKES = [
    "y=rc=0; pytest; rc=$?; declare \\\n-i m=y; exit $rc",
    "declare \\\n-i m; y=rc=0; pytest; rc=$?; m=y; exit $rc",
    '"declare" -i m; y=rc=0; pytest; rc=$?; m=y; exit $rc',
    "\\declare -i m; y=rc=0; pytest; rc=$?; m=y; exit $rc",
    "y=rc=0; pytest; rc=$?; dec\\\nlare -i m=y; exit $rc",
    'declare "-i" n; y=rc=0; pytest; rc=$?; n=y; exit $rc',
    "y=rc=0; pytest; rc=$?; declare $'-i' n=y; exit $rc",
    "eval 'declare -i n'; y=rc=0; pytest; rc=$?; n=y; exit $rc",
    "y=rc=0; pytest; rc=$?; declare -i m=y; exit $rc",
]
HONEST = [
    "declare -i n; pytest; rc=$?; n=5; exit $rc",
    "pytest; rc=$?; declare -a seen; exit $rc",
    "pytest; rc=$?; typeset -i n=0; exit $rc",
]


@pytest.mark.parametrize("command", FAKES)
def test_a_hidden_integer_declaration_refuses_the_saved_status(tmp_path: Path, command: str) -> None:
    """Real bash exits 0 with the check failing, and the analyser does not call the status the check's."""
    assert bash_label(label_runs(tmp_path, command, "pytest")) == "fakes"
    assert analyze(command).exit_source != "check"


@pytest.mark.parametrize("command", HONEST)
def test_a_declaration_of_other_names_keeps_the_saved_status(tmp_path: Path, command: str) -> None:
    """Real bash follows the check, and the analyser witnesses it."""
    assert bash_label(label_runs(tmp_path, command, "pytest")) == "follows"
    assert analyze(command).exit_source == "check"
