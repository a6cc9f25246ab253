"""The differential fuzzer's sandbox and its judge: runs a line of ``fuzzed_commands`` under real
bash and says whether the analyzer's verdict holds.

The sandbox is the oracle's (oracle_sandbox.py: ``/bin/bash -c`` in a throw-away directory, a stub
for the check's program whose status the run controls call by call, a 0-stub for every other
unknown word), furnished as a project is:

* ``chmod``, ``cp``, ``ln``, ``flock`` and ``script`` are the real programs (a line that writes a
  program must be able to make it runnable);
* ``~/.profile`` (``HOME`` is the sandbox) puts the stubs first on ``PATH``, as a user's own
  profile puts their tools there: a login shell resets ``PATH`` in ``/etc/profile``;
* ``.venv/bin/activate`` is a virtual environment's activation script (it puts ``.venv/bin``
  first on ``PATH``);
* the check's stub leaves its standard input alone (a check that does not read it is the one
  whose later lines a shell reading its script from stdin still runs);
* for the classes of ``REAL_SHAPES``, ``make`` and ``npm`` are the real ones and ``pytest`` this
  environment's, and every directory is a project whose Makefile targets and ``package.json``
  scripts ``test``, ``check`` and ``lint`` and whose test module (``tests/test_body.py``,
  ``sub/tests/test_sub_body.py`` …) run the stub ``check-body`` (pytest's plugins are not
  auto-loaded, for speed; npm asks no registry).

The judge holds a verdict to bash, per policy, with the policy's meaning of ``witness_eligible``:

* a ``check`` verdict, or a chain's "0 proves it passed": no run exits 0 unless the check ran and
  every call of it passed (a failed, retried or never-run check reported as a pass is a false
  witness), and where ``failure_attributable`` is claimed, every run exits with the status of the
  check's one call (stubs only: a real program has statuses of its own);
* a reporting pipe under ``seed``: the status is the pass-through consumer's (the residual the
  policy accepts), so only a run that exits 0 without the check having run exactly once refutes
  it — or, for a real program, one in which the program itself exited 0 without its body passing
  (``pytest --co | tee log``: the pipe hides nothing there, the program claims a pass).

Run as a script on the tallies the fuzzer wrote (``WITNESS_FUZZ_TALLY``), it prints them per class,
runs of the same class added up::

    .venv/bin/python -m tests.shellparse.fuzz_sandbox tally.jsonl
"""

from __future__ import annotations

import argparse
import json
import shlex
import shutil
import sys
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from shellparse import Analysis, analyze
from shellparse.strategies import REAL_SHAPES, Sample
from tests.shellparse.oracle_sandbox import RUNS, SYSTEM_PATH, Run, Sandbox, bash_label, sandbox

REAL_TOOLS = ("chmod", "cp", "ln", "flock", "script")
"""Programs that run for real in the fuzzer's sandbox (every generated path is relative)."""
TARGETS = ("test", "check", "lint")
MAKEFILE = "".join(f"{target}:\n\t@check-body\n" for target in TARGETS)
PACKAGE = json.dumps({"name": "project", "version": "1.0.0", "scripts": dict.fromkeys(TARGETS, "check-body")})
TEST_MODULE = "import subprocess\n\n\ndef test_body():\n    assert subprocess.call(['check-body']) == 0\n"
_FOUND = {name: shutil.which(name, path=SYSTEM_PATH) for name in ("make", "npm")}
REAL_PROGRAMS = {**{name: shlex.quote(path) for name, path in _FOUND.items() if path},
                 "pytest": f"{shlex.quote(sys.executable)} -m pytest"}
"""The real programs of ``REAL_SHAPES``, each behind a shim that records its own exit status."""
MISSING = sorted(name for name, path in _FOUND.items() if path is None)
"""Real programs this machine does not have: the lines that need them are skipped."""
OWN = "own-statuses"
"""The file, in the sandbox's root, to which those shims append their statuses."""


@contextmanager
def fuzz_sandbox(base: Path, command: str, program: str, *, real: bool) -> Iterator[Sandbox]:
    """A sandbox for one line whose check's status ``program``'s stub decides (see the module docstring)."""
    with sandbox(base, {program}, command, no_input=True) as box:
        for name in (*REAL_TOOLS, *(REAL_PROGRAMS if real else ())):
            (box.stubs / name).unlink(missing_ok=True)
        (box.work / ".profile").write_text(f'PATH="{box.stubs}:$PATH"; export PATH\n', encoding="utf-8")
        activate = box.work / ".venv" / "bin" / "activate"
        activate.parent.mkdir(parents=True)
        activate.write_text(f'VIRTUAL_ENV="{box.work}/.venv"; export VIRTUAL_ENV\n'
                            'PATH="$VIRTUAL_ENV/bin:$PATH"; export PATH\n', encoding="utf-8")
        if real:
            _furnish_project(box)
        yield box


def _furnish_project(box: Sandbox) -> None:
    """Every directory a line may move into is a project: a Makefile, a package.json, and a test module
    that pytest collects there alone (``testpaths``, in the setup.cfg a line's own pytest.ini or
    pyproject.toml overrides)."""
    places = [place for place in (box.work, *box.work.rglob("*")) if place.is_dir() and ".venv" not in place.parts]
    for place in places:
        (place / "Makefile").write_text(MAKEFILE, encoding="utf-8")
        (place / "package.json").write_text(PACKAGE + "\n", encoding="utf-8")
        (place / "setup.cfg").write_text("[tool:pytest]\ntestpaths = tests\n", encoding="utf-8")
        name = "_".join(("test", *place.relative_to(box.work).parts, "body"))  # one basename per module
        (place / "tests").mkdir()
        (place / "tests" / f"{name}.py").write_text(TEST_MODULE, encoding="utf-8")
    for name, program in REAL_PROGRAMS.items():
        shim = box.stubs / name
        shim.write_text(f'#!/bin/sh\n{program} "$@"\nstatus=$?\necho "$status" >> {shlex.quote(str(box.root / OWN))}\n'
                        'exit "$status"\n', encoding="utf-8")
        shim.chmod(0o755)
    box.env.update(PYTEST_DISABLE_PLUGIN_AUTOLOAD="1", PYTHONDONTWRITEBYTECODE="1", npm_config_update_notifier="false",
                   npm_config_fund="false", npm_config_audit="false")


class Observed(NamedTuple):
    """What happened in each run of a line."""

    runs: list[Run]
    own: list[tuple[int, ...]]
    """Per run, the exit statuses of the real program (``make``, ``npm``, ``pytest``) the check ran;
    empty for a stub check, whose status is the stub's."""


class Judgement(NamedTuple):
    """What bash did with a line, and where the analyzer's verdict on it does not hold."""

    label: str
    """``fakes``, ``follows`` or ``differs`` (oracle_sandbox.bash_label)."""
    observed: Observed
    seed: Analysis
    strict: Analysis
    refutations: tuple[str, ...]
    """One line per policy whose verdict a run refutes; empty when the verdict holds."""

    @property
    def eligible(self) -> bool:
        """Witness-eligible under either policy."""
        return self.seed.witness_eligible or self.strict.witness_eligible


def run_line(base: Path, sample: Sample) -> Observed:
    """Run a generated line for each of the oracle's status sequences."""
    real = sample.shape in REAL_SHAPES
    if real and MISSING:
        pytest.skip(f"the real {' and '.join(MISSING)} of the project's checks is not installed")
    observed = Observed([], [])
    with fuzz_sandbox(base, sample.command, sample.program, real=real) as box:
        own = box.root / OWN
        for statuses in RUNS:
            own.write_text("", encoding="utf-8")
            observed.runs.append(box.run(sample.command, statuses))
            observed.own.append(tuple(int(status) for status in own.read_text(encoding="utf-8").split()))
    return observed


def judge(sample: Sample, observed: Observed) -> Judgement:
    """Hold the analyzer's verdict on ``sample`` to what bash did."""
    seed, strict = analyze(sample.command), analyze(sample.command, policy="strict")
    real = sample.shape in REAL_SHAPES
    refutations = tuple(found for analysis in (seed, strict)
                        if (found := refutation(analysis, observed, real=real)))
    return Judgement(bash_label(observed.runs), observed, seed, strict, refutations)


def refutation(analysis: Analysis, observed: Observed, *, real: bool = False) -> str | None:
    """The first run that refutes ``analysis``'s witness claim under its policy, described; ``None``
    when every run agrees (see the module docstring)."""
    if not analysis.witness_eligible:
        return None
    for run, own in zip(observed.runs, observed.own, strict=True):
        calls = len(run.places)
        passed = calls > 0 and not any(run.call_status(n) for n in range(calls))
        if analysis.exit_source == "reporting-pipe":
            # The consumer's 0 hides the check's status; the check still ran, once, and a real
            # program's own 0 still means its body passed.
            ran = len(own) == 1 if real else calls == 1
            claimed = real and 0 in own and not passed
            if run.returncode == 0 and (not ran or claimed):
                return f"{analysis.policy}: reporting pipe exits 0, the check ran {calls} times ({_told(run, own)})"
            continue
        if run.returncode == 0 and not passed:
            return f"{analysis.policy}: exits 0 although the check failed or never ran ({_told(run, own)})"
        if analysis.failure_attributable and not real and not (calls == 1 and run.returncode == run.status):
            return f"{analysis.policy}: the failure is claimed as the check's, but {_told(run, own)}"
    return None


def _told(run: Run, own: tuple[int, ...] = ()) -> str:
    program = f" (the program exited {'/'.join(map(str, own))})" if own else ""
    return f"stub {'/'.join(map(str, run.statuses))} → bash {run.returncode}, {len(run.places)} calls{program}"


def outcome(observed: Observed) -> str:
    """What bash did, run by run, in a few words."""
    return "; ".join(_told(run, own) for run, own in zip(observed.runs, observed.own, strict=True))




TALLY_COLUMNS = ("lines", "eligible_seed", "eligible_strict", "bash_follows", "bash_fakes", "bash_differs",
                 "counterexamples", "honest_refused")
"""The columns of a class's tally, as the fuzzer counts them (``count`` in test_fuzz.py)."""


def tally_table(rows: list[dict[str, Any]]) -> str:
    """The fuzzer's tallies, one line per class (runs of a class added up) and a total."""
    by: dict[str, Counter[str]] = {}
    for row in rows:
        counts = by.setdefault(str(row["shape"]), Counter())
        counts.update({key: int(value) for key, value in row.items() if key != "shape"})
    total: Counter[str] = Counter()
    lines = [f"{'class':<22}" + "".join(f"{column:>17}" for column in TALLY_COLUMNS)]
    for shape, counts in sorted(by.items()):
        total.update(counts)
        lines.append(f"{shape:<22}" + "".join(f"{counts[column]:>17}" for column in TALLY_COLUMNS))
    lines.append(f"{'total':<22}" + "".join(f"{total[column]:>17}" for column in TALLY_COLUMNS))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description="Print the differential fuzzer's tallies per class.")
    parser.add_argument("tally", help="the file WITNESS_FUZZ_TALLY named")
    options = parser.parse_args()
    with open(options.tally, encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle if line.strip()]
    sys.stdout.write(tally_table(rows) + "\n")


if __name__ == "__main__":
    main()
