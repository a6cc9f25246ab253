"""Runs the adversarial set of :mod:`tests.shellparse.proof_cases` under real bash, and tallies it.

Each run gets a fresh sandbox of :mod:`tests.shellparse.oracle_sandbox` (a case may write files, and
the next run must not see them), with the case's project files and with the programs it names in
``real`` left unstubbed (``pytest`` and ``ruff`` from this environment, the rest from the system). A
stubbed check runs with the statuses of :data:`~tests.shellparse.oracle_sandbox.RUNS`; a real
tool's project passes or fails by ``CHECK_STATUS`` (0, 1, 2), and then "fail then pass" has no
meaning.

Run as a script, it prints the per-class tally of false witnesses and honest refusals::

    .venv/bin/python -m tests.shellparse.proof_sandbox [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import Counter
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from shellparse import analyze
from tests.shellparse.oracle_sandbox import RUNS, Run, Sandbox, bash_label
from tests.shellparse.proof_cases import CASES, Case

REAL_RUNS: tuple[tuple[int, ...], ...] = ((0,), (1,), (2,))
"""A real tool's project passes, fails, fails (with another status where the tool can give one)."""
_TOOLS = Path(sys.executable).parent
"""Where this environment's `pytest` and `ruff` are."""


def _lint(status: int) -> str:
    return "import os\n" if status else ""


def _prepare(box: Sandbox, case: Case, status: int) -> None:
    for path, content in case.files:
        target = box.work / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content.replace("{lint}", _lint(status)), encoding="utf-8")
        if path.endswith(".sh"):
            target.chmod(0o755)
    for name in case.real:
        (box.stubs / name).unlink(missing_ok=True)
    if case.real:
        box.env["PATH"] = f"{box.stubs}:{_TOOLS}:{box.env['PATH'].split(':', 1)[1]}"
    box.env["CHECK_STATUS"] = str(status)


def run_case(base: Path, case: Case) -> list[Run]:
    """The case's runs, each in a sandbox of its own."""
    real_check = case.program in case.real
    runs: list[Run] = []
    for statuses in REAL_RUNS if real_check else RUNS:
        with tempfile.TemporaryDirectory(dir=base, ignore_cleanup_errors=True) as root:
            programs = () if real_check else (case.program,)
            box = Sandbox(Path(root), programs, case.command, ("missing",),
                          lines=0, no_input="&" in case.command or "coproc" in case.command)
            _prepare(box, case, statuses[0])
            runs.append(box.run(case.command, statuses))
    return runs


def label(case: Case, runs: list[Run]) -> str:
    """``fakes``, ``follows`` or ``differs``, as :func:`~tests.shellparse.oracle_sandbox.bash_label`
    says for a stub; a real tool follows when bash exits 0 exactly in the runs its project passes."""
    if case.program not in case.real:
        return bash_label(runs)
    if any(run.returncode == 0 and run.status != 0 for run in runs):
        return "fakes"
    return "follows" if all((run.returncode == 0) == (run.status == 0) for run in runs) else "differs"


def tally(base: Path, cases: Iterable[Case], jobs: int = 2) -> list[dict[str, object]]:
    """Each case with its bash label and the analyzer's verdict under both policies."""
    cases = list(cases)
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        labels = list(pool.map(lambda case: label(case, run_case(base, case)), cases))
    rows = []
    for case, found in zip(cases, labels, strict=True):
        seed = analyze(case.command, cache=False)
        strict = analyze(case.command, policy="strict", cache=False)
        rows.append({"group": case.group, "honest": case.honest, "command": case.command, "bash": found,
                     "seed": seed.witness_eligible, "strict": strict.witness_eligible,
                     "exit_source": seed.exit_source,
                     "masks": [r.code for r in seed.reasons if r.level == "masks"][:3]})
    return rows


def summary(rows: list[dict[str, object]]) -> str:
    """Per class: cases, false witnesses (eligible under a policy although bash fakes) and honest
    refusals (bash follows, not eligible), and the cases whose label is not the intended one."""
    by: dict[str, Counter[str]] = {}
    lines = []
    for row in rows:
        counts = by.setdefault(str(row["group"]), Counter())
        counts["fake cases" if not row["honest"] else "honest cases"] += 1
        if row["bash"] == "fakes" and row["seed"]:
            counts["false witnesses (seed)"] += 1
        if row["bash"] == "fakes" and row["strict"]:
            counts["false witnesses (strict)"] += 1
        if row["bash"] == "follows" and not row["seed"]:
            counts["honest refusals"] += 1
        if (row["bash"] == "follows") != row["honest"]:
            lines.append(f"  label differs from intent: {row['bash']} {row['command']!r}")
    columns = ("fake cases", "false witnesses (seed)", "false witnesses (strict)", "honest cases", "honest refusals")
    out = [f"{'class':<22}" + "".join(f"{c:>26}" for c in columns)]
    total: Counter[str] = Counter()
    for group, counts in by.items():
        total.update(counts)
        out.append(f"{group:<22}" + "".join(f"{counts[c]:>26}" for c in columns))
    out.append(f"{'total':<22}" + "".join(f"{total[c]:>26}" for c in columns))
    return "\n".join(out + lines)


def main() -> None:
    parser = argparse.ArgumentParser(description="Tally the adversarial set against real bash.")
    parser.add_argument("--json", help="also write every row to this file")
    parser.add_argument("--group", help="only this class")
    parser.add_argument("--jobs", type=int, default=2)
    options = parser.parse_args()
    cases = [case for case in CASES if options.group in (None, case.group)]
    with tempfile.TemporaryDirectory() as base:
        rows = tally(Path(base), cases, options.jobs)
    if options.json:
        Path(options.json).write_text("\n".join(json.dumps(row) for row in rows) + "\n", encoding="utf-8")
    lines = [summary(rows)]
    for row in rows:
        wrong = (row["bash"] == "fakes" and row["seed"]) or (row["bash"] == "follows" and not row["seed"])
        if wrong:
            kind = "FALSE WITNESS" if row["seed"] else "honest refusal"
            lines.append(f"  {kind:<14} {row['masks']} {row['command']!r}")
    sys.stdout.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
