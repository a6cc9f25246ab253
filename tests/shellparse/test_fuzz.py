"""The differential fuzzer: generated lines run under real bash, and the analyzer held to what bash does.

``shellparse.strategies.fuzzed_commands`` composes a check with the constructs of the proven set
(statements before it, shapes that carry its status, containers around it) and, in every class but
``proven``, one construct from outside the set. Each line runs in the sandbox of fuzz_sandbox.py
for each status of the check (0, 1, 2, and "fail then pass"), and the property is:

    witness-eligible under a policy ⇒ bash's status follows the check in every run, with the
    policy's meaning (fuzz_sandbox.refutation): never 0 unless the check ran and passed, the
    check's own status wherever its failure is claimed as the check's, and under ``seed`` a
    reporting pipe's 0 only with the check run exactly once.

Every class must hold: a counter-example fails the test, and Hypothesis shrinks it. Each one the
fuzzer ever found is on record (``corpus/counterexamples.jsonl``) and replayed here, under bash and
the analysis both.

Environment:

``WITNESS_FUZZ_EXAMPLES=N``
    lines per class (default :data:`CI_EXAMPLES`; the real-program classes run ``pytest``, about
    half a second a run);
``WITNESS_FUZZ_TALLY=FILE``
    append each class's tally (lines, eligible under each policy, bash's labels, counter-examples,
    honest refusals) to ``FILE`` as JSON lines;
``WITNESS_FUZZ_FINDINGS=FILE``
    append every counter-example to ``FILE`` as a corpus entry (the format of
    ``corpus/counterexamples.jsonl``);
``WITNESS_FUZZ_LINES=FILE``
    append every line drawn to ``FILE`` with its class, bash's label and the verdicts (what another
    version of the analysis can be compared on: its honest refusals, line by line).
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shellparse.strategies import FUZZ_SHAPES, REAL_SHAPES, Sample, fuzzed_commands
from tests.shellparse.fuzz_sandbox import Judgement, judge, outcome, run_line
from tests.shellparse.oracle_sandbox import DENY

COUNTEREXAMPLES = Path(__file__).resolve().parents[2] / "corpus" / "counterexamples.jsonl"
CI_EXAMPLES = {"proven": 40, "proven-real": 2, "force-success": 3, "config-created": 3}
"""Lines per class in the suite; every other class draws :data:`CI_DANGER_EXAMPLES`."""
CI_DANGER_EXAMPLES = 10

def examples(shape: str) -> int:
    """Lines to draw for ``shape``: ``WITNESS_FUZZ_EXAMPLES`` or the suite's bound."""
    configured = os.environ.get("WITNESS_FUZZ_EXAMPLES")
    if configured:
        return int(configured)
    return CI_EXAMPLES.get(shape, CI_DANGER_EXAMPLES)


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One directory under which every line gets a fresh sandbox."""
    return tmp_path_factory.mktemp("fuzz")


TALLY: dict[str, Counter[str]] = {}


@pytest.fixture(scope="module", autouse=True)
def tally_file() -> Iterator[None]:
    """Append each class's tally to ``$WITNESS_FUZZ_TALLY`` when the module's tests are done."""
    yield
    path = os.environ.get("WITNESS_FUZZ_TALLY")
    if path and TALLY:
        with open(path, "a", encoding="utf-8") as handle:
            for shape, counts in sorted(TALLY.items()):
                handle.write(json.dumps({"shape": shape, **counts}) + "\n")


def count(sample: Sample, judgement: Judgement) -> None:
    """Add one line to its class's tally (and to ``$WITNESS_FUZZ_LINES``)."""
    counts = TALLY.setdefault(sample.shape, Counter())
    counts["lines"] += 1
    counts["eligible_seed"] += judgement.seed.witness_eligible
    counts["eligible_strict"] += judgement.strict.witness_eligible
    counts[f"bash_{judgement.label}"] += 1
    counts["counterexamples"] += bool(judgement.refutations)
    # A real program has statuses of its own (pytest reports 1 for a failing body's 2): there an
    # honest line is one bash never fakes with.
    carried = judgement.label != "fakes" if sample.shape in REAL_SHAPES else judgement.label == "follows"
    refused = sample.expect != "masked" and carried and not judgement.seed.witness_eligible
    counts["honest_refused"] += refused
    path = os.environ.get("WITNESS_FUZZ_LINES")
    if path:
        with open(path, "a", encoding="utf-8") as handle:
            line = {"shape": sample.shape, "command": sample.command, "program": sample.program,
                    "expect": sample.expect, "bash": judgement.label, "carried": carried,
                    "seed": judgement.seed.witness_eligible, "strict": judgement.strict.witness_eligible,
                    "honest_refused": refused}
            handle.write(json.dumps(line) + "\n")


def entry(sample: Sample, judgement: Judgement) -> dict[str, Any]:
    """A counter-example as a corpus entry (the format of corpus/counterexamples.jsonl)."""
    validation = judgement.seed.validation
    assert validation is not None  # a witness-eligible verdict names its check
    return {"command": sample.command, "shell": "bash", "expect": "masked", "kind": validation.kind,
            "statement": validation.statement, "directory": validation.directory, "source": f"fuzz:{sample.shape}",
            "note": f"bash: {outcome(judgement.observed)}", "bash": judgement.label, "program": sample.program}


def record_finding(sample: Sample, judgement: Judgement) -> None:
    path = os.environ.get("WITNESS_FUZZ_FINDINGS")
    if path:
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(entry(sample, judgement)) + "\n")


def described(sample: Sample, judgement: Judgement) -> str:
    reasons = ", ".join(f"{reason.code}:{reason.level}" for reason in judgement.seed.reasons)
    return (f"{sample.command!r} ({', '.join(sample.constructs)}; program {sample.program}): analyze says "
            f"{judgement.seed.exit_source} [{reasons}]; {'; '.join(judgement.refutations)}")


# --------------------------------------------------------------------------------------------
# The fuzzer
# --------------------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("shape", [*FUZZ_SHAPES, *REAL_SHAPES])
def test_eligible_lines_follow_bash(base: Path, shape: str) -> None:
    """Over generated lines of one class, a witness-eligible verdict (either policy) is never refuted by bash."""
    @settings(max_examples=examples(shape), deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(sample=fuzzed_commands(shape))
    def explore(sample: Sample) -> None:
        judgement = judge(sample, run_line(base, sample))
        count(sample, judgement)
        if judgement.refutations:
            record_finding(sample, judgement)
        assert not judgement.refutations, described(sample, judgement)

    explore()


# --------------------------------------------------------------------------------------------
# The counter-examples it found
# --------------------------------------------------------------------------------------------


@cache
def recorded() -> tuple[dict[str, Any], ...]:
    """The recorded counter-examples, in file order."""
    with COUNTEREXAMPLES.open(encoding="utf-8") as handle:
        return tuple(json.loads(line) for line in handle if line.strip())


def shape_of(found: dict[str, Any]) -> str:
    return str(found["source"]).removeprefix("fuzz:")


def as_sample(found: dict[str, Any]) -> Sample:
    return Sample(found["command"], found["program"], found["kind"], "masked", shape_of(found))


def test_the_counterexamples_are_well_formed() -> None:
    """Every recorded counter-example is a labelled corpus entry of a fuzzer class, and none is repeated."""
    entries = recorded()
    assert entries
    assert len({found["command"] for found in entries}) == len(entries)
    for found in entries:
        assert list(found) == ["command", "shell", "expect", "kind", "statement", "directory", "source", "note",
                               "bash", "program"], found
        assert found["shell"] == "bash" and found["expect"] == "masked" and found["bash"] in ("fakes", "differs")
        assert shape_of(found) in (*FUZZ_SHAPES, *REAL_SHAPES), found


def _ids(found: dict[str, Any]) -> str:
    return f"{shape_of(found)}:{found['command'][:50]}"


@pytest.mark.slow
@pytest.mark.parametrize("found", recorded(), ids=_ids)
def test_no_counterexample_refutes_the_analysis(base: Path, found: dict[str, Any]) -> None:
    """bash still does with each recorded counter-example what its label says, and the analysis of it
    holds against bash under both policies (it refuses the line, or claims only what bash does)."""
    sample = as_sample(found)
    judgement = judge(sample, run_line(base, sample))
    assert judgement.label == found["bash"], outcome(judgement.observed)
    assert not judgement.refutations, described(sample, judgement)


# --------------------------------------------------------------------------------------------
# What the generator may run
# --------------------------------------------------------------------------------------------

ALLOWED_ABSOLUTE = frozenset({"/dev/null", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0", "/bin/true", "/bin/sh"})
"""Absolute paths a line may name: devices, ``true`` to link or copy, and the interpreter of a script it writes."""
ABSOLUTE = re.compile(r"(?<![\w.$})~?])/[\w./-]*")
"""An absolute path: a slash not after a word, an expansion or ``~`` (``HOME`` is the sandbox)."""
ALLOWED_DENIED = frozenset({"chmod", "ln", "source", "hash", "builtin", "alias", "PATH", "HOME", "kill"})
"""Words the oracle's vetting refuses that fuzzed lines use on purpose, each only inside the sandbox."""


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_fuzzed_lines_stay_in_the_sandbox(data: st.DataObject) -> None:
    """Generated lines name no absolute path but a few harmless ones, no parent directory, no destructive
    tool, and signal only their own shell."""
    sample = data.draw(fuzzed_commands(data.draw(st.sampled_from([*FUZZ_SHAPES, *REAL_SHAPES]))))
    command = sample.command
    assert set(ABSOLUTE.findall(command)) <= ALLOWED_ABSOLUTE, command
    assert not re.search(r"(^|[\s/=:'\"])\.\.($|[\s/'\"])", command), command
    words = set(re.findall(r"(?<![\w.-])[A-Za-z_][\w.+-]*", command))
    assert not (words & DENY) - ALLOWED_DENIED, (sorted(words & DENY), command)
    for kill in re.findall(r"kill\b[^;\n]*", command):
        assert kill.strip() == "kill -USR1 $$", command
    assert sample.expect in ("witness", "reporting-pipe", "masked") and sample.constructs


@pytest.mark.parametrize("shape", [*FUZZ_SHAPES, *REAL_SHAPES])
@settings(max_examples=5, deadline=None)
@given(data=st.data())
def test_each_fuzzer_class_can_be_drawn_alone(shape: str, data: st.DataObject) -> None:
    """`fuzzed_commands(shape)` draws only that class, and a danger class always holds its danger."""
    sample = data.draw(fuzzed_commands(shape))
    assert sample.shape == shape
    if shape not in ("proven", "proven-real"):
        assert f"danger:{shape}" in sample.constructs and sample.expect == "masked"


def test_an_unknown_fuzzer_class_is_refused() -> None:
    """A class the fuzzer does not have is refused at once, with the classes it has."""
    with pytest.raises(ValueError, match="unknown shape"):
        fuzzed_commands("no-such-class")
