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
  environment's, in a project whose Makefile targets and ``package.json`` scripts ``test``,
  ``check`` and ``lint`` and whose test module ``tests/test_body.py`` run the stub ``check-body``
  (pytest's plugins are not auto-loaded, for speed; npm asks no registry).

The judge holds a verdict to bash, per policy, with the policy's meaning of ``witness_eligible``:

* a ``check`` verdict, or a chain's "0 proves it passed": no run exits 0 unless the check ran and
  every call of it passed (a failed, retried or never-run check reported as a pass is a false
  witness), and where ``failure_attributable`` is claimed, every run exits with the status of the
  check's one call (stubs only: a real program has statuses of its own);
* a reporting pipe under ``seed``: the status is the pass-through consumer's (the residual the
  policy accepts), so only a run that exits 0 without the check having run exactly once refutes it.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

from shellparse import Analysis, analyze
from shellparse.strategies import REAL_SHAPES, Sample
from tests.shellparse.oracle_sandbox import Run, Sandbox, bash_label, sandbox

REAL_TOOLS = ("chmod", "cp", "ln", "flock", "script")
"""Programs that run for real in the fuzzer's sandbox (every generated path is relative)."""
TARGETS = ("test", "check", "lint")
MAKEFILE = "".join(f"{target}:\n\t@check-body\n" for target in TARGETS)
PACKAGE = json.dumps({"name": "project", "version": "1.0.0", "scripts": dict.fromkeys(TARGETS, "check-body")})
TEST_MODULE = "import subprocess\n\n\ndef test_body():\n    assert subprocess.call(['check-body']) == 0\n"


@contextmanager
def fuzz_sandbox(base: Path, command: str, program: str, *, real: bool) -> Iterator[Sandbox]:
    """A sandbox for one line whose check's status ``program``'s stub decides (see the module docstring)."""
    with sandbox(base, {program}, command, no_input=True) as box:
        for name in (*REAL_TOOLS, *(("make", "npm", "pytest") if real else ())):
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
    for place in (box.work, *box.work.rglob("*")):
        if place.is_dir() and ".venv" not in place.parts:
            (place / "Makefile").write_text(MAKEFILE, encoding="utf-8")
            (place / "package.json").write_text(PACKAGE + "\n", encoding="utf-8")
    (box.work / "tests").mkdir()
    (box.work / "tests" / "test_body.py").write_text(TEST_MODULE, encoding="utf-8")
    shim = box.stubs / "pytest"
    shim.write_text(f'#!/bin/sh\nexec {sys.executable} -m pytest "$@"\n', encoding="utf-8")
    shim.chmod(0o755)
    box.env.update(PYTEST_DISABLE_PLUGIN_AUTOLOAD="1", PYTHONDONTWRITEBYTECODE="1", npm_config_update_notifier="false",
                   npm_config_fund="false", npm_config_audit="false")


class Judgement(NamedTuple):
    """What bash did with a line, and where the analyzer's verdict on it does not hold."""

    label: str
    """``fakes``, ``follows`` or ``differs`` (oracle_sandbox.bash_label)."""
    runs: list[Run]
    seed: Analysis
    strict: Analysis
    refutations: tuple[str, ...]
    """One line per policy whose verdict a run refutes; empty when the verdict holds."""

    @property
    def eligible(self) -> bool:
        """Witness-eligible under either policy."""
        return self.seed.witness_eligible or self.strict.witness_eligible


def run_line(base: Path, sample: Sample) -> list[Run]:
    """Run a generated line for each of the oracle's status sequences."""
    real = sample.shape in REAL_SHAPES
    with fuzz_sandbox(base, sample.command, sample.program, real=real) as box:
        return box.runs(sample.command)


def judge(sample: Sample, runs: list[Run]) -> Judgement:
    """Hold the analyzer's verdict on ``sample`` to what bash did in ``runs``."""
    seed, strict = analyze(sample.command), analyze(sample.command, policy="strict")
    real = sample.shape in REAL_SHAPES
    refutations = tuple(found for analysis in (seed, strict) if (found := refutation(analysis, runs, real=real)))
    return Judgement(bash_label(runs), runs, seed, strict, refutations)


def refutation(analysis: Analysis, runs: list[Run], *, real: bool = False) -> str | None:
    """The first run that refutes ``analysis``'s witness claim under its policy, described; ``None``
    when every run agrees (see the module docstring)."""
    if not analysis.witness_eligible:
        return None
    for run in runs:
        calls = len(run.places)
        if analysis.exit_source == "reporting-pipe":
            if run.returncode == 0 and calls != 1:
                return f"{analysis.policy}: reporting pipe exits 0 with the check run {calls} times ({_told(run)})"
            continue
        if run.returncode == 0 and (calls == 0 or any(run.call_status(n) for n in range(calls))):
            return f"{analysis.policy}: exits 0 although the check failed or never ran ({_told(run)})"
        if analysis.failure_attributable and not real and not (calls == 1 and run.returncode == run.status):
            return f"{analysis.policy}: the failure is claimed as the check's, but {_told(run)}"
    return None


def _told(run: Run) -> str:
    return f"stub {'/'.join(map(str, run.statuses))} → bash {run.returncode}, {len(run.places)} calls"


def outcome(runs: list[Run]) -> str:
    """What bash did, run by run, in a few words."""
    return "; ".join(_told(run) for run in runs)


