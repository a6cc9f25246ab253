"""Property tests: every sample of ``shellparse.strategies`` analyses the way its label says.

The strategies encode the rule book (docs/shellparse.md, "Exit attribution"); these tests hold
the analyzer to it. What real bash does with the same samples is tested in test_oracle.py.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import find, given, settings
from hypothesis import strategies as st

from shellparse import Analysis, Script, analyze, parse
from shellparse.strategies import (
    EXPECTATIONS,
    FALSE_WITNESS_SHAPES,
    HONEST_SHAPES,
    Sample,
    attributed_commands,
    checks,
    commands,
    false_witness_commands,
    fuzzed_commands,
    honest_commands,
    masked_commands,
    reporting_commands,
    residual_commands,
    unattributed_commands,
    wrapped_checks,
)

EXIT_SOURCE = {"witness": "check", "reporting-pipe": "reporting-pipe", "masked": "masked", "not-validation": None}

# Every program or builtin the strategies may put in command position, besides the check's own
# program (`Sample.program`).
VOCABULARY = frozenset({
    ":", "[", "bash", "cat", "cd", "command", "echo", "env", "exec", "exit", "export", "grep", "head", "ls",
    "mkdir", "nice", "nohup", "printf", "pushd", "set", "sort", "stdbuf", "tail", "tee", "time", "timeout", "trap",
    "true", "unset", "wait", "wc",
})  # fmt: skip


def judged(sample: Sample, policy: str = "seed") -> Analysis:
    """Analyse a sample and check what every sample must satisfy: it parses and its check is found."""
    analysis = analyze(sample.command, "bash", policy)
    assert analysis.parse_error is None, (sample, analysis.parse_error)
    assert analysis.validation is not None, (sample, analysis.reasons)
    assert analysis.validation.kind == sample.kind, (sample, analysis.validation)
    return analysis


def explain(sample: Sample, analysis: Analysis) -> str:
    reasons = ", ".join(f"{reason.code}:{reason.level}" for reason in analysis.reasons)
    return f"{sample.command!r} (program {sample.program}) → {analysis.exit_source} [{reasons}]"


@given(checks())
def test_checks_are_found_with_their_kind(sample: Sample) -> None:
    """A bare check is identified with the kind the strategy gives it, and witnesses."""
    analysis = judged(sample)
    assert (analysis.exit_source, analysis.witness_eligible) == ("check", True), explain(sample, analysis)


@given(wrapped_checks())
def test_wrapped_checks_keep_kind_and_status(sample: Sample) -> None:
    """Env prefixes, wrappers and package runners change neither the kind nor the attribution."""
    analysis = judged(sample)
    assert (analysis.exit_source, analysis.witness_eligible) == ("check", True), explain(sample, analysis)


@given(attributed_commands())
def test_attributed_commands_report_the_checks_status(sample: Sample) -> None:
    """Every attributed shape has exit source `check` and witnesses under both policies."""
    analysis = judged(sample)
    assert analysis.exit_source == "check", explain(sample, analysis)
    assert analysis.witness_eligible
    assert judged(sample, "strict").witness_eligible, explain(sample, analysis)


@given(reporting_commands())
def test_reporting_commands_are_reporting_pipes(sample: Sample) -> None:
    """One pass-through pipe without pipefail is `reporting-pipe`: it witnesses under seed, not strict."""
    analysis = judged(sample)
    assert analysis.exit_source == "reporting-pipe", explain(sample, analysis)
    assert analysis.witness_eligible
    assert not judged(sample, "strict").witness_eligible, explain(sample, analysis)


@given(masked_commands())
def test_masked_commands_never_witness(sample: Sample) -> None:
    """Every masking shape is `masked` and witnesses under neither policy."""
    analysis = judged(sample)
    assert analysis.exit_source == "masked", explain(sample, analysis)
    assert not analysis.witness_eligible
    assert not judged(sample, "strict").witness_eligible


@given(commands())
def test_labels_match_the_analysis(sample: Sample) -> None:
    """For any sample, the analysis gives exactly the exit source its label names."""
    assert sample.expect in EXPECTATIONS
    analysis = judged(sample)
    assert analysis.exit_source == EXIT_SOURCE[sample.expect], explain(sample, analysis)


def command_words(script: Script) -> list[tuple[str | None, ...]]:
    """The argv of every simple command, inside compound commands, substitutions and `bash -c`."""
    found: list[tuple[str | None, ...]] = []
    for statement in script.statements:
        for command in statement.pipeline.commands:
            values = tuple(word.value for word in command.words)
            if command.kind == "simple" and values:
                found.append(values)
                if values[0] == "bash" and "-c" in values[1:-1]:
                    string = values[values.index("-c") + 1]
                    assert string is not None
                    found.extend(command_words(parse(string)))
            if command.body is not None:
                found.extend(command_words(command.body))
            for opaque in command.opaque:
                assert opaque.body is not None
                found.extend(command_words(opaque.body))
    return found


@given(commands())
def test_samples_stay_in_the_safe_vocabulary(sample: Sample) -> None:
    """Samples run only vocabulary programs or the stubbed check program, on relative paths or /dev/null."""
    script = parse(sample.command)
    assert script.error is None
    runs = command_words(script)
    assert runs
    for argv in runs:
        head = argv[0]
        assert head is not None, sample
        assert head in VOCABULARY or head == sample.program, (head, sample)
        for value in argv:
            if value is None:
                continue
            assert not value.startswith(("/", "~")) or value == "/dev/null", (value, sample)
            assert ".." not in value.split("/"), (value, sample)
    assert sample.program not in VOCABULARY


# The words of VOCABULARY that run the rest of their argv as a command.
WRAPPERS = frozenset({"command", "env", "exec", "nice", "nohup", "stdbuf", "time", "timeout"})


def _runs_as_program(program: str, argv: tuple[str | None, ...]) -> bool:
    """``program`` is the command ``argv`` runs: its first word, or the first after wrappers and their options."""
    if program not in argv:
        return False
    before = argv[:argv.index(program)]
    return not before or (before[0] in WRAPPERS and not any(word in VOCABULARY - WRAPPERS for word in before))


@given(commands())
def test_program_is_a_word_of_the_command(sample: Sample) -> None:
    """The stub target is run as a program (first word, or after wrappers), so a PATH stub can intercept it."""
    assert any(_runs_as_program(sample.program, argv) for argv in command_words(parse(sample.command))), sample


def test_commands_draw_every_expectation() -> None:
    """`commands()` reaches all three labels of the rule book's shapes."""
    for expect in ("witness", "reporting-pipe", "masked"):

        def labelled(sample: Sample, expect: str = expect) -> bool:
            return sample.expect == expect

        assert find(commands(), labelled).expect == expect


@pytest.mark.parametrize("factory", [checks, wrapped_checks, attributed_commands, reporting_commands,
                                     masked_commands, commands, false_witness_commands, honest_commands,
                                     unattributed_commands, residual_commands, fuzzed_commands])
@settings(max_examples=5)
@given(data=st.data())
def test_strategies_are_search_strategies(factory: Any, data: st.DataObject) -> None:
    """Every public strategy function returns a Hypothesis strategy whose examples are samples."""
    strategy = factory()
    assert isinstance(strategy, st.SearchStrategy)
    assert isinstance(data.draw(strategy), Sample)


ATTRIBUTION_STRATEGIES = {"false-witness": false_witness_commands, "honest": honest_commands,
                          "unattributed": unattributed_commands, "residual": residual_commands}
# Besides VOCABULARY and the check's program: the builtins and tools the exit-attribution classes use.
ATTRIBUTION_VOCABULARY = frozenset({
    ".", "[[", "alias", "break", "builtin", "case", "cat", "check", "continue", "coproc", "declare", "echo", "enable",
    "eval", "f", "false", "for", "hash", "head", "if", "kill", "local", "mapfile", "popd", "read", "readarray",
    "return", "rm", "run", "sh", "shopt", "sleep", "source", "t", "tail", "tee", "test", "touch", "typeset", "unset",
    "wait",
})  # fmt: skip
ALLOWED_PATHS = frozenset({"/dev/null", "/dev/fd/0", "/proc/self/fd/0", "/bin/true"})


@pytest.mark.parametrize("kind", sorted(ATTRIBUTION_STRATEGIES))
@given(data=st.data())
def test_attribution_samples_analyse_as_labelled(kind: str, data: st.DataObject) -> None:
    """Every sample of the exit-attribution strategies gets the exit source its label names."""
    sample = data.draw(ATTRIBUTION_STRATEGIES[kind]())
    assert sample.shape
    analysis = analyze(sample.command)
    expected = EXIT_SOURCE.get(sample.expect)
    assert analysis.exit_source == expected, explain(sample, analysis)
    if kind == "false-witness":
        assert not analysis.witness_eligible and not analyze(sample.command, policy="strict").witness_eligible
    if kind == "unattributed":
        assert not analysis.failure_attributable, explain(sample, analysis)


@pytest.mark.parametrize("kind", sorted(ATTRIBUTION_STRATEGIES))
@given(data=st.data())
def test_attribution_samples_stay_in_their_vocabulary(kind: str, data: st.DataObject) -> None:
    """Exit-attribution samples run only known builtins and tools or the stubbed program, on relative paths."""
    sample = data.draw(ATTRIBUTION_STRATEGIES[kind]())
    script = parse(sample.command)
    if sample.shape == "heredoc-end":
        script = parse(sample.command.split("\n", 1)[0])  # bash runs the first line: the rest is body text
    defined = {word.split("(")[0].split()[-1] for word in sample.command.split("()")[:-1]}
    for argv in command_words(script):
        head = argv[0]
        if head is None:
            continue  # the classes' run-time command names (`$x 0`) are the point of the class
        assert head in VOCABULARY | ATTRIBUTION_VOCABULARY | defined or head == sample.program, (head, sample)
        for value in argv:
            if value is not None and value.startswith(("/", "~")):
                assert value in ALLOWED_PATHS, (value, sample)
            assert value is None or ".." not in value.split("/"), (value, sample)


@pytest.mark.parametrize(("factory", "shape"), [(false_witness_commands, shape) for shape in FALSE_WITNESS_SHAPES]
                         + [(honest_commands, shape) for shape in HONEST_SHAPES])
@settings(max_examples=5)
@given(data=st.data())
def test_each_class_can_be_drawn_alone(factory: Any, shape: str, data: st.DataObject) -> None:
    """`shape=` draws only that class."""
    assert data.draw(factory(shape)).shape == shape


def test_an_unknown_class_is_refused() -> None:
    """A shape that is not a class of the strategy is refused at once, with the classes it has."""
    with pytest.raises(ValueError, match="unknown shape"):
        false_witness_commands("no-such-shape")
