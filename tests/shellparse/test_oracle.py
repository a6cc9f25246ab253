"""The real-bash oracle: what the analyzer says about a command's exit status, checked by running it.

Commands run in the sandbox of :mod:`tests.shellparse.oracle_sandbox`: ``/bin/bash -c`` in a
throw-away directory, with a stub for the check's program whose status the test controls call
by call. Each command runs four times: the stub always exits 0, always 1, always 2, and "the
first call fails, later calls pass" (``1`` then ``0``), the run that exposes a retry hiding a
failure. bash's own statuses label every command; the analyzer's verdict is then held to them.

**The differential property.** A ``check`` verdict is a claim about every run, and a run
*contradicts* it when

* bash exits 0 although the check's stub did not run exactly once and pass (a false witness: a
  failed, retried or never-run check reported as a pass), or
* the verdict says the failure is the check's own (``failure_attributable``) and bash's status is
  not that one call's status.

(``cd missing && check`` and ``set -o pipefail; check | head`` make no failure claim: their
non-zero status may be ``cd``'s or SIGPIPE's, never a 0.) Over every generated command the
analyzer calls ``check`` there are no contradictions.

Properties:

(a) The rule book's attributed shapes (``attributed_commands()``) and the honest shapes of every
    class of :data:`~shellparse.strategies.HONEST_SHAPES` witness, and bash follows the stub in
    every run.
(b) No generated command whose bash status diverges is called ``check`` (``commands()``), and no
    generated command contradicts its ``check`` verdict (every class).
(c) The residual check. The reporting-pipe residual is real: without pipefail a failing check
    (1 or 2) behind one pass-through pipe still gives bash status 0 — the risk the specification
    accepts under the ``seed`` policy, and the reason ``strict`` refuses it. With
    ``set -o pipefail;`` in front the status follows the check, except where the pipe runs in a
    child ``bash -c``, which does not inherit the option (the analyzer agrees: still a reporting
    pipe there).
(d) An attributed check runs exactly once, in the directory its identity names.
(e) Every class of :data:`~shellparse.strategies.FALSE_WITNESS_SHAPES` is refused under both
    policies, and bash shows what it can fake; the pipefail residual classes are reporting pipes
    (never ``check``); the classes whose failure is not the check's own witness a pass and say
    so (``failure_attributable`` is false).

With ``WITNESS_ORACLE_TALLY=FILE`` set, each class's count of generated cases, contradictions and
runs in which bash reported 0 for a check that failed or never ran is appended to ``FILE`` as JSON
lines (one per test process).

The corpus (``corpus/commands.jsonl``) is run too: its bash commands labelled ``witness``,
``masked`` or ``reporting-pipe`` that pass the sandbox's vetting and that ``analyze`` calls
``check``; and every entry of the exit-attribution group, whose ``bash`` label (what bash did with
it) must come out the same.

Hand-written shapes that disagree with the rule book or with bash are marked ``xfail(strict=True)``
with the reason; each is a finding about the analyzer, not about this test.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shellparse import Analysis, analyze
from shellparse.strategies import (
    FALSE_WITNESS_SHAPES,
    HONEST_SHAPES,
    RESIDUAL_SHAPES,
    UNATTRIBUTED_SHAPES,
    Sample,
    attributed_commands,
    commands,
    false_witness_commands,
    honest_commands,
    reporting_commands,
    residual_commands,
    unattributed_commands,
)
from tests.shellparse.corpus_file import commands as corpus_commands
from tests.shellparse.corpus_file import entries as corpus_file_entries
from tests.shellparse.oracle_sandbox import (
    BUILTINS,
    FOLLOWS,
    NAME,
    RUNS,
    SAFE,
    STUBBABLE,
    Run,
    Vetting,
    bash_label,
    label_runs,
    sandbox,
    statuses,
    vet,
)

pytestmark = pytest.mark.slow

ORACLE = settings(max_examples=80, deadline=None)
CLASS = settings(max_examples=40, deadline=None)
"""Generated cases per exit-attribution class."""
SIGPIPE_LINES = 50_000
"""Lines the stub prints for the SIGPIPE class: far more than a pipe holds."""


def vetted(sample: Sample) -> Vetting:
    """The vetting of a generated sample, which must be in the safe vocabulary."""
    vetting = vet(sample.command, {sample.program})
    assert vetting.problem is None, f"the strategy generated an unsafe command: {sample.command!r}: {vetting.problem}"
    return vetting


def run_sample(base: Path, sample: Sample) -> list[Run]:
    """Vet a generated sample (it must be in the safe vocabulary) and run it for each status."""
    vetting = vetted(sample)
    with sandbox(base, {sample.program}, sample.command, vetting.directories) as box:
        return box.runs(sample.command)


def run_shaped(base: Path, sample: Sample) -> list[Run]:
    """Run an exit-attribution sample (built from its class's fixed vocabulary; the strategies'
    own test keeps that vocabulary safe): only `sub` is moved into, `missing` never exists."""
    with sandbox(base, {sample.program}, sample.command, lines=SIGPIPE_LINES if sample.shape == "sigpipe" else 0,
                 no_input=sample.shape == "waited") as box:
        return box.runs(sample.command)


def contradiction(analysis: Analysis, runs: list[Run]) -> Run | None:
    """The first run that contradicts a `check` verdict (see the module docstring), if any."""
    if analysis.exit_source != "check":
        return None
    for run in runs:
        once = len(run.places) == 1
        if run.returncode == 0 and not (once and run.status == 0):
            return run
        if analysis.failure_attributable and not (once and run.returncode == run.status):
            return run
    return None


def fakes(runs: list[Run]) -> int:
    """Runs in which bash reported 0 although the check failed (on some call) or never ran."""
    return sum(1 for run in runs if run.returncode == 0 and (not run.places or any(
        run.call_status(number) != 0 for number in range(len(run.places)))))


def describe(command: str, analysis: Analysis, runs: list[Run]) -> str:
    reasons = ", ".join(f"{reason.code}:{reason.level}" for reason in analysis.reasons)
    outcome = ", ".join(f"stub {'/'.join(map(str, run.statuses))} → bash {run.returncode} ({len(run.places)} calls)"
                        for run in runs)
    errors = "; ".join(run.stderr.strip() for run in runs if run.stderr.strip())[:300]
    return f"{command!r}: analyze says {analysis.exit_source} [{reasons}]; {outcome}" + (
        f"; stderr: {errors}" if errors else "")


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One directory under which every example gets a fresh sandbox."""
    return tmp_path_factory.mktemp("oracle")


TALLY: dict[str, Counter[str]] = {}


@pytest.fixture(scope="module", autouse=True)
def tally_file() -> Iterator[None]:
    """Append each class's tally to ``$WITNESS_ORACLE_TALLY`` when the module's tests are done."""
    yield
    path = os.environ.get("WITNESS_ORACLE_TALLY")
    if path and TALLY:
        with open(path, "a", encoding="utf-8") as handle:
            for shape, counts in sorted(TALLY.items()):
                handle.write(json.dumps({"shape": shape, **counts}) + "\n")


def record(sample: Sample, analysis: Analysis, runs: list[Run]) -> Run | None:
    """Count one generated case of its class; return the run contradicting the verdict, if any."""
    found = contradiction(analysis, runs)
    counts = TALLY.setdefault(sample.shape or sample.expect, Counter())
    counts["cases"] += 1
    counts["contradictions"] += found is not None
    counts["bash_fake_runs"] += fakes(runs)
    counts["witnessed_seed"] += analysis.witness_eligible
    return found




# --------------------------------------------------------------------------------------------
# Properties over generated samples
# --------------------------------------------------------------------------------------------


@ORACLE
@given(sample=attributed_commands())
def test_a_attributed_shapes_keep_the_stubs_status(base: Path, sample: Sample) -> None:
    """(a) Every attributed shape of the rule book exits with the check's own status in real bash."""
    runs = run_sample(base, sample)
    assert statuses(runs) == FOLLOWS, describe(sample.command, analyze(sample.command), runs)


@ORACLE
@given(sample=commands())
def test_b_diverging_status_is_never_called_check(base: Path, sample: Sample) -> None:
    """(b) A command whose bash status does not follow the stub for some value is never `check`."""
    runs = run_sample(base, sample)
    analysis = analyze(sample.command)
    assert record(sample, analysis, runs) is None, describe(sample.command, analysis, runs)
    if statuses(runs) != FOLLOWS:
        assert analysis.exit_source != "check", describe(sample.command, analysis, runs)


@settings(max_examples=60, deadline=None)
@given(sample=reporting_commands())
def test_c_reporting_pipe_residual_and_pipefail(base: Path, sample: Sample) -> None:
    """(c) A reporting pipe hides failures (bash reports 0) until `set -o pipefail;` is prefixed."""
    plain = run_sample(base, sample)
    assert statuses(plain) == [0] * len(RUNS), describe(sample.command, analyze(sample.command), plain)
    prefixed = sample._replace(command="set -o pipefail; " + sample.command)
    analysis = analyze(prefixed.command)
    runs = run_sample(base, prefixed)
    # A pipe inside a child `bash -c` escapes the option: the child does not inherit it.
    expected = [0] * len(RUNS) if "bash -c" in sample.command else FOLLOWS
    assert statuses(runs) == expected, describe(prefixed.command, analysis, runs)
    # The soundness rule itself, whatever the expectation above: a `check` verdict must follow the stub
    # (under `bash -c` it would not, so there the analysis must not say `check`).
    if analysis.exit_source == "check":
        assert statuses(runs) == FOLLOWS, describe(prefixed.command, analysis, runs)


# Options with which the (stubbed) check program would move itself; the stub does not.
_STUB_MOVES = re.compile(r"\s(-C|--prefix|--directory|--dir|--cwd)\s")


@ORACLE
@given(sample=attributed_commands())
def test_d_check_runs_once_in_its_directory(base: Path, sample: Sample) -> None:
    """(d) An attributed check runs exactly once, in the directory its identity names."""
    analysis = analyze(sample.command)
    if analysis.validation is None or _STUB_MOVES.search(sample.command.replace("env -C ", "env --chdir=")):
        return
    if "<" in (analysis.validation.directory or ""):
        return  # a directory the analysis reports as uncertain (`<maybe sub>`) names no single place
    with sandbox(base, {sample.program}, sample.command, vetted(sample).directories) as box:
        run = box.run(sample.command, (0,))
        expected = (box.work / (analysis.validation.directory or ".")).resolve()
    assert run.returncode == 0, describe(sample.command, analysis, [run])
    assert len(run.places) == 1, (sample.command, run.places)
    assert Path(run.places[0]) == expected, (sample.command, analysis.validation.directory, run.places)


# --------------------------------------------------------------------------------------------
# The exit-attribution classes
# --------------------------------------------------------------------------------------------


def judged_run(base: Path, sample: Sample) -> tuple[Analysis, list[Run], str]:
    """Run a class's sample under bash, count it, and hold its verdict to the differential property."""
    runs = run_shaped(base, sample)
    analysis = analyze(sample.command)
    told = describe(sample.command, analysis, runs)
    assert record(sample, analysis, runs) is None, told
    return analysis, runs, told


@pytest.mark.parametrize("shape", FALSE_WITNESS_SHAPES)
@CLASS
@given(data=st.data())
def test_e_false_witness_classes_never_witness(base: Path, shape: str, data: st.DataObject) -> None:
    """(e) A shape that can fake a pass never witnesses, under either policy, whatever bash does with it."""
    sample = data.draw(false_witness_commands(shape))
    analysis, _, told = judged_run(base, sample)
    assert not analysis.witness_eligible and not analyze(sample.command, policy="strict").witness_eligible, told


@pytest.mark.parametrize("shape", RESIDUAL_SHAPES)
@CLASS
@given(data=st.data())
def test_e_pipefail_that_does_not_reach_is_a_reporting_pipe(base: Path, shape: str, data: st.DataObject) -> None:
    """(e) One pass-through pipe whose pipefail is off is a reporting pipe: bash reports 0 for a failure."""
    analysis, runs, told = judged_run(base, data.draw(residual_commands(shape)))
    assert analysis.exit_source == "reporting-pipe" and statuses(runs) == [0] * len(RUNS), told
    assert not analyze(analysis.command, policy="strict").witness_eligible


@pytest.mark.parametrize("shape", UNATTRIBUTED_SHAPES)
@CLASS
@given(data=st.data())
def test_e_a_failure_that_may_not_be_the_checks_is_not_claimed(base: Path, shape: str, data: st.DataObject) -> None:
    """(e) `cd missing && check`, `check | head` under pipefail: a 0 is a pass, a failure not claimed as the check's."""
    analysis, runs, told = judged_run(base, data.draw(unattributed_commands(shape)))
    assert (analysis.exit_source, analysis.failure_attributable) == ("check", False), told
    assert statuses(runs) != FOLLOWS, f"bash followed the stub, so the class shows nothing: {told}"


@pytest.mark.parametrize("shape", HONEST_SHAPES)
@CLASS
@given(data=st.data())
def test_a_honest_classes_witness_and_follow_bash(base: Path, shape: str, data: st.DataObject) -> None:
    """(a) A shape that provably carries the check's status witnesses, and bash follows the stub in every run."""
    analysis, runs, told = judged_run(base, data.draw(honest_commands(shape)))
    assert analysis.exit_source == "check" and analysis.witness_eligible, told
    assert analyze(analysis.command, policy="strict").witness_eligible
    assert not analysis.failure_attributable or statuses(runs) == FOLLOWS, told


# --------------------------------------------------------------------------------------------
# Hand-written shapes
# --------------------------------------------------------------------------------------------


# (command, program whose stub sets the status, the rule book's exit source)
HAND_WRITTEN: list[Any] = [
    # Kept shapes: bash follows the stub.
    ("pytest -q", "pytest", "check"),
    ("grep x input.txt; npm test", "npm", "check"),
    ("cd sub && npm test", "npm", "check"),
    ("CI=1 FOO='a b' npm test", "npm", "check"),
    ("export CI=1; npm test", "npm", "check"),
    ("time -p timeout 300 env CI=1 nice -n 5 nohup stdbuf -oL pytest -q", "pytest", "check"),
    ("uv run --with pytest-xdist -- pytest -n 4", "uv", "check"),
    ("npx --yes jest --ci", "npx", "check"),
    ("npm test > out.log 2>&1", "npm", "check"),
    ("pytest &>/dev/null", "pytest", "check"),
    ("cat input.txt | pytest -q -", "pytest", "check"),
    ("(cd api && npm test)", "npm", "check"),
    ("{ npm test; }", "npm", "check"),
    ("bash -c 'cd sub && npm test'", "npm", "check"),
    ("eval 'pytest -q'", "pytest", "check"),
    ("pytest; exit $?", "pytest", "check"),
    ("pytest\nexit $?", "pytest", "check"),
    ("pytest || exit", "pytest", "check"),
    ('pytest || exit "$?"', "pytest", "check"),
    ("[ -d node_modules ] || npm ci; npm test", "npm", "check"),
    ("cd sub || exit 1; npm test", "npm", "check"),
    ("npm run lint && npm test", "npm", "check"),
    ("set -o pipefail; npm test | tee log.txt", "npm", "check"),
    ("set -euo pipefail; npm test 2>&1 | tee log.txt | tail -5", "npm", "check"),
    ("bash -o pipefail -c 'npm test | tail -5'", "npm", "check"),
    ("set -o pipefail; eval 'pytest | tee log.txt'", "pytest", "check"),
    ("pytest -k 'a or b'", "pytest", "check"),
    ("echo '$(x)'; npm test", "npm", "check"),
    ("npm test # ; true", "npm", "check"),
    ("cat <<'EOF' > notes.txt\nnpm test; true\nEOF\nnpm test", "npm", "check"),
    ("pytest -q - <<EOF\ninput\nEOF", "pytest", "check"),
    ("pytest > >(tee log.txt)", "pytest", "check"),
    ("(exit 0); pytest", "pytest", "check"),
    ("bash -c 'exit 0'; pytest", "pytest", "check"),
    ("npm test | tee log.txt; exit ${PIPESTATUS[0]}", "npm", "check"),
    ("echo x | npm test 2>&1 | tail -5; exit \"${PIPESTATUS[1]}\"", "npm", "check"),
    ("trap 'echo bye' EXIT; pytest", "pytest", "check"),
    # Reporting pipes: bash reports the consumer's 0.
    ("cd api && npm test 2>&1 | tail -20", "npm", "reporting-pipe"),
    ("pytest |& tee log.txt", "pytest", "reporting-pipe"),
    ("(pytest) | tail -5", "pytest", "reporting-pipe"),
    ("set -o pipefail; bash -c 'pytest | tee log.txt'", "pytest", "reporting-pipe"),
    # `${PIPESTATUS[0]}` is the producer's status here, not the check's nor the consumer's.
    ("echo x | npm test | tee log.txt; exit ${PIPESTATUS[0]}", "npm", "masked"),
    # Masked shapes.
    ("npm test; echo done", "npm", "masked"),
    ("pytest || exit 1", "pytest", "masked"),
    ("pytest | tee log.txt | tail -5", "pytest", "masked"),
    ("npm test &", "npm", "masked"),
    ("! npm test", "npm", "masked"),
    ('echo "$(npm test)"', "npm", "masked"),
    ("if npm test; then echo ok; fi", "npm", "masked"),
    ("npm test | grep ok", "npm", "masked"),
    ("npm test; > out.log", "npm", "masked"),
    ("exit 0; npm test", "npm", "masked"),
    ("[ -f x ] || exit 0; pytest", "pytest", "masked"),
    ("exec true; pytest", "pytest", "masked"),
    ("trap 'exit 0' EXIT; pytest", "pytest", "masked"),
    ("npm() { true; }; npm test", "npm", "masked"),
    ("{ exit 0; }; pytest", "pytest", "masked"),
    ("[ -f x ] || { echo skip; exit 0; }; pytest", "pytest", "masked"),
    ("eval 'exit 0'; pytest", "pytest", "masked"),
    ("{ pytest() { true; }; }; pytest", "pytest", "masked"),
    ("pytest <<EOF; echo done\ninput\nEOF", "pytest", "masked"),
    ("set -o pipefail; false | pytest", "pytest", "masked"),
    # Found by this oracle and fixed: each used to be `check` while bash reported 0 whatever the check did.
    ("set -o pipefail | true; pytest | tee log.txt", "pytest", "reporting-pipe"),
    ("set -o pipefail & pytest | tee log.txt", "pytest", "reporting-pipe"),
    ("false && set -o pipefail; pytest | tee log.txt", "pytest", "reporting-pipe"),
    ("set -- -o pipefail; pytest | tee log.txt", "pytest", "reporting-pipe"),
    ("command exit 0; pytest", "pytest", "masked"),
    ("builtin exit 0; pytest", "pytest", "masked"),
    ("f() { exit 0; }; f; pytest", "pytest", "masked"),
    ("trap 'exit 0' ERR; pytest", "pytest", "masked"),
    ("trap 'exit 0' DEBUG; pytest", "pytest", "masked"),
    ("npx() { true; }; npx jest", "npx", "masked"),
    ("timeout() { true; }; timeout 300 pytest", "pytest", "masked"),
    ("shopt -s expand_aliases\nalias pytest=true\npytest", "pytest", "masked"),
    ("exit 1; pytest", "pytest", "masked"),
    ("sh -c 'set -o pipefail; pytest | tee log.txt'", "pytest", "masked"),
    # A command's unwrapping used to be remembered by the command object's id(), which a later
    # command string's command could take over once the first string's parse was freed: the
    # first string's check was found again in the last one, whose status bash reports.
    ("bash -c 'pytest'; bash -c 'true'", "pytest", "masked"),
    ("sh -c 'npm test'\nsh -c 'echo done'", "npm", "masked"),
    ("{ exec pytest; }", "pytest", "check"),
    ("{ pytest; exit $?; }", "pytest", "check"),
    ("time CI=1 pytest", "pytest", "check"),
    ("time (pytest)", "pytest", "check"),
    # Groups after `time` and `!`, which tree-sitter-bash reads as words (see shellparse._misread).
    ("time { pytest; }", "pytest", "check"),
    ("time -p -- { cd sub && pytest; }", "pytest", "check"),
    ("cd sub && time { npm test; } 2>&1", "npm", "check"),
    ("time { pytest; echo done; }", "pytest", "masked"),
    ("! { pytest; }", "pytest", "masked"),
    ("! { true; }; pytest", "pytest", "check"),
    ("if ! { pytest; }; then exit 1; fi", "pytest", "masked"),
    ("time ! true | pytest", "pytest", "masked"),
    ("time -p ! { true; } | pytest", "pytest", "masked"),
    # A newline before a word that starts with a backslash, which tree-sitter-bash joins to the
    # command before it (shellparse._misread): bash runs the word as the next command.
    ("pytest -q\n\\true", "pytest", "masked"),
    ("pytest\n\\\ntrue", "pytest", "masked"),
    ("npm test\n  \\echo done", "npm", "masked"),
    ("pytest -q \\\n\\true", "pytest", "check"),
    # A line continuation inside a word, which tree-sitter-bash reads as a break between two words.
    ("np\\\nm test", "npm", "check"),
    ("npm test; e\\\nxit 0", "npm", "masked"),
]


@pytest.mark.parametrize(("command", "program", "expected"), HAND_WRITTEN)
def test_hand_written_shape(tmp_path: Path, command: str, program: str, expected: str) -> None:
    """A tricky hand-written shape gets the rule book's exit source, and a `check` verdict matches bash."""
    analysis = analyze(command)
    with sandbox(tmp_path, {program}, command) as box:  # only `sub` and `api`: `cd missing` must fail
        runs = box.runs(command)
    assert analysis.exit_source == expected, describe(command, analysis, runs)
    if analysis.exit_source == "check":
        # The program may run more than the check (`npm ci; npm test`): the retry run counts only
        # where the stub was called once.
        compared = [run for run in runs if len(run.statuses) == 1 or len(run.places) == 1]
        assert statuses(compared) == [run.status for run in compared], describe(command, analysis, runs)
    if expected == "reporting-pipe":
        assert statuses(runs) == [0] * len(RUNS), describe(command, analysis, runs)


# A command before the check that fails stops the line with its own status: the seed keeps
# these shapes (`cd sub && check`, `cd sub || exit 1; check`), so their status is the check's
# whenever the check runs, and is never 0 when it does not.
RUN_DEPENDENT = ["cd missing && pytest", "[ -d missing ] || exit; pytest", "cd missing || exit 1; pytest"]


@pytest.mark.parametrize("command", RUN_DEPENDENT)
def test_a_failing_prefix_never_reports_a_pass(tmp_path: Path, command: str) -> None:
    """With a prefix that fails, a `check` verdict still means: bash never reports 0 for a check that did not pass."""
    analysis = analyze(command)
    with sandbox(tmp_path, {"pytest"}, command) as box:
        runs = box.runs(command)
    assert analysis.exit_source == "check", describe(command, analysis, runs)
    assert 0 not in statuses(runs), describe(command, analysis, runs)


def test_hand_written_shapes_are_distinct() -> None:
    """The hand-written list has no duplicate command (a stale copy would hide a fix)."""
    texts = [entry.values[0] if hasattr(entry, "values") else entry[0] for entry in HAND_WRITTEN]
    assert len(texts) == len(set(texts))


# --------------------------------------------------------------------------------------------
# The corpus
# --------------------------------------------------------------------------------------------


class Entry(NamedTuple):
    """A corpus command the oracle can run, with what to stub and which directories to create."""

    command: str
    programs: frozenset[str]
    directories: frozenset[str]
    analysis: Analysis


def corpus_entries() -> tuple[list[Entry], int]:
    """The safe, runnable bash corpus commands `analyze` calls `check` (labelled witness, masked or
    reporting-pipe), and how many labelled commands were read."""
    seen = corpus_commands("bash", ("witness", "masked", "reporting-pipe"))
    entries = [entry for entry in map(_runnable, seen) if entry is not None]
    return entries, len(seen)


def _runnable(command: str) -> Entry | None:
    analysis = analyze(command)
    validation = analysis.validation
    if validation is None or analysis.parse_error is not None or analysis.exit_source != "check":
        return None  # a masked verdict is conservative by the rules; only `check` makes a claim bash can refute
    programs = {_first_word(command[validation.span.start : validation.span.end])}
    for reason in analysis.reasons:
        if reason.code in ("wrapper", "nested") and reason.span is not None:
            programs.add(_first_word(command[reason.span.start : reason.span.end]))
    programs -= SAFE
    if not programs or any(not STUBBABLE.match(name) or name in BUILTINS for name in programs):
        return None  # dynamic, absolute or builtin: no stub can control it
    vetting = vet(command, programs)
    if vetting.problem is not None:
        return None
    directories = {d for d in vetting.directories if NAME.match(d.split("/")[0])}
    if validation.directory is not None and not validation.directory.startswith(("/", "~", "<", "$")):
        directories.add(validation.directory)
    return Entry(command, frozenset(programs), frozenset(directories), analysis)


def _first_word(text: str) -> str:
    word = text.split(maxsplit=1)[0] if text.strip() else ""
    return word.strip("'\"\\")


def _oracle_failure(base: Path, entry: Entry) -> str | None:
    """`analyze` says `check`: each run in which the check ran must exit with its status, and a
    run in which it never ran must not exit 0 (the corpus's commands expect a project the sandbox
    does not have, so a setup step may fail first). Their program may also run commands that are
    not the check (`npm ci && npm test`), so only the constant runs count: the stub cannot tell the
    check's call from the others. Returns a description of a violation."""
    with sandbox(base, entry.programs, entry.command, entry.directories) as box:
        runs = [box.run(entry.command, (status,)) for status in (0, 1, 2)]
    for run in runs:
        ran = bool(run.places)
        if (ran and run.returncode != run.status) or (not ran and run.returncode == 0):
            return describe(entry.command, entry.analysis, runs) + f" (stubs: {sorted(entry.programs)})"
    return None


def test_corpus_commands_agree_with_bash(base: Path) -> None:
    """(a)+(b) on the corpus: no safe corpus command called `check` reports a status that is not the check's."""
    entries, read = corpus_entries()
    assert len(entries) >= 400, f"only {len(entries)} of {read} corpus commands can be run against bash"
    with ThreadPoolExecutor(max_workers=min(8, os.cpu_count() or 1)) as pool:
        failures = [failure for failure in pool.map(lambda e: _oracle_failure(base, e), entries) if failure]
    assert failures == [], f"{len(failures)} of {len(entries)} runnable corpus commands (of {read}) disagree:\n" + (
        "\n".join(failures[:20]))


ATTRIBUTION_ENTRIES = [entry for entry in corpus_file_entries() if "bash" in entry]


def test_the_attribution_group_covers_every_class() -> None:
    """The corpus's exit-attribution group has commands bash fakes with, follows and differs on."""
    assert len(ATTRIBUTION_ENTRIES) >= 100
    assert {entry["bash"] for entry in ATTRIBUTION_ENTRIES} == {"fakes", "follows", "differs"}


@pytest.mark.parametrize("entry", ATTRIBUTION_ENTRIES, ids=lambda e: e["command"][:60])
def test_attribution_corpus_entry_behaves_as_labelled(base: Path, entry: dict[str, Any]) -> None:
    """An exit-attribution corpus command does in bash what its label says, a command bash fakes
    with never witnesses, and no run contradicts a `check` verdict."""
    analysis = analyze(entry["command"])
    validation = analysis.validation
    program = _program_of(entry) if validation is None else \
        _first_word(entry["command"][validation.span.start : validation.span.end])
    runs = label_runs(base, entry["command"], program)
    assert bash_label(runs) == entry["bash"], describe(entry["command"], analysis, runs)
    if entry["bash"] == "fakes":
        for policy in ("seed", "strict"):
            assert not analyze(entry["command"], policy=policy).witness_eligible or entry["expect"] == "reporting-pipe"
    assert contradiction(analysis, runs) is None, describe(entry["command"], analysis, runs)


def _program_of(entry: dict[str, Any]) -> str:
    """The check program of an entry whose check is not run as a command (`bash -n -c 'npm test'`)."""
    words = re.findall(r"[\w.-]+", entry["command"])
    known = ("pytest", "npm", "cargo", "go", "make", "ruff", "tsc")
    return str(next(word for word in words if word in known))
