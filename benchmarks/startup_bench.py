"""How long a `witness check` or `witness hook` process takes to start, against a bare `python -c pass`.

Hooks and scripts start one process per tool call, so start-up is most of what they cost. For
each command below it prints the median wall time of interleaved runs and its ratio to a bare
interpreter (`python -c pass`, target for `witness check`: at most 3x), in three conditions:

- **bytecode cached**: the project's modules compiled once (as an installed package has them);
- **no bytecode**, twice: an editable install under ``PYTHONDONTWRITEBYTECODE`` (a fresh copy of the
  three packages, without ``__pycache__``, first on ``PYTHONPATH``; the standard library and the
  dependencies keep their bytecode), with the modules compiled from source every run
  (``WITNESS_BYTECODE_CACHE=0``), and as the ``witness`` command runs by default there, reading the
  compiled copies of its own modules it keeps under ``$WITNESS_HOME/bytecode``
  (``advisor/cli/_bytecode.py``), with the time of the first run, which writes them, apart.

Every run uses a temporary ``WITNESS_HOME``.

The commands: `witness check -- 'cd api && npm test 2>&1 | tail -20'`; `witness hook claude-code`
answering a `PostToolUse` call (what a host sends after every tool call); and a `Stop` call
that replays `examples/session.jsonl`. Beside them, the floor no analysing process goes below:
an interpreter that loads tree-sitter (whose package imports ``typing``, and its binding ``re``)
and the bash grammar, and parses the command. With ``--importtime`` it also lists the modules
whose import costs the check and PostToolUse processes most (``python -X importtime``).

Compiled every run, most of the check's time is compiling its modules: the report says how
long that takes (every module the check loads, compiled from source in this process, the best
of several rounds), per thousand lines, against what 3x leaves for it.

    .venv/bin/python benchmarks/startup_bench.py [--runs 40] [--importtime]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("shellparse", "obligations", "advisor")
WITNESS = str(Path(sys.executable).with_name("witness"))
POST_TOOL_USE = json.dumps({"hook_event_name": "PostToolUse", "session_id": "bench", "tool_name": "Bash",
                            "tool_input": {"command": "npm test"}, "tool_use_id": "toolu_1",
                            "transcript_path": "/nonexistent.jsonl"}).encode()
STOP = json.dumps({"hook_event_name": "Stop", "session_id": "bench", "stop_hook_active": False,
                   "transcript_path": str(ROOT / "examples" / "session.jsonl")}).encode()
FLOOR = """
import importlib.machinery, os, tree_sitter
spec = importlib.machinery.PathFinder.find_spec("tree_sitter_bash")
path = next(os.path.join(folder, "_binding" + suffix) for folder in spec.submodule_search_locations
            for suffix in importlib.machinery.EXTENSION_SUFFIXES
            if os.path.exists(os.path.join(folder, "_binding" + suffix)))
loader = importlib.machinery.ExtensionFileLoader("tree_sitter_bash._binding", path)
grammar = loader.create_module(importlib.machinery.ModuleSpec(loader.name, loader, origin=path))
loader.exec_module(grammar)
tree_sitter.Parser(tree_sitter.Language(grammar.language())).parse(b"cd api && npm test 2>&1 | tail -20")
"""
"""tree-sitter and the bash grammar, loaded as ``shellparse`` loads them, parsing the check's command."""
COMMANDS: dict[str, tuple[list[str], bytes | None]] = {
    "python -c pass": ([sys.executable, "-c", "pass"], None),
    "floor: tree-sitter + grammar": ([sys.executable, "-c", FLOOR], None),
    "witness check": ([WITNESS, "check", "--", "cd api && npm test 2>&1 | tail -20"], None),
    "witness hook (PostToolUse)": ([WITNESS, "hook", "claude-code"], POST_TOOL_USE),
    "witness hook (Stop)": ([WITNESS, "hook", "claude-code"], STOP),
}


def medians(env: dict[str, str], runs: int) -> dict[str, float]:
    """Median milliseconds per command, the commands' runs interleaved so load affects them alike."""
    times: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for _ in range(3):  # warm the page cache (and, where allowed, write bytecode)
        for argv, stdin in COMMANDS.values():
            subprocess.run(argv, input=stdin, env=env, capture_output=True, check=False)
    for _ in range(runs):
        for name, (argv, stdin) in COMMANDS.items():
            start = time.perf_counter()
            subprocess.run(argv, input=stdin, env=env, capture_output=True, check=False)
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(values) * 1000 for name, values in times.items()}


def source_only_copy(folder: Path) -> None:
    """The three packages, copied without bytecode."""
    for package in PACKAGES:
        shutil.copytree(ROOT / package, folder / package, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


def report(title: str, env: dict[str, str], runs: int) -> float:
    """Print the medians and their ratios; return the bare interpreter's median."""
    found = medians(env, runs)
    bare = found["python -c pass"]
    print(title)
    for name, milliseconds in found.items():
        ratio = "" if name == "python -c pass" else f"  {milliseconds / bare:5.2f}x"
        print(f"  {name:<28} {milliseconds:7.1f} ms{ratio}")
    return bare


def compile_cost(env: dict[str, str], bare: float, rounds: int = 5) -> None:
    """How long compiling the modules of ours that `witness check` loads takes, in this process."""
    argv, _ = COMMANDS["witness check"]
    listing = ("import sys; from advisor.cli import main; main(sys.argv[1:]); "
               "sys.stderr.write('\\n'.join(m.__file__ for m in list(sys.modules.values()) "
               f"if getattr(m, '__file__', None) and m.__name__.split('.')[0] in {PACKAGES!r}))")
    done = subprocess.run([sys.executable, "-c", listing, *argv[1:]], env=env, capture_output=True, check=False)
    files = [line for line in done.stderr.decode().splitlines() if line.endswith(".py")]
    sources = [(path, Path(path).read_text(encoding="utf-8")) for path in files]
    lines = sum(text.count("\n") for _, text in sources)
    best = min(_compile_all(sources) for _ in range(rounds)) * 1000
    print(f"  compiling the {len(sources)} modules of ours `witness check` loads ({lines:,} lines): {best:.1f} ms, "
          f"{best / lines * 1000:.2f} ms per 1,000 lines; 3x a bare interpreter leaves {2 * bare:.1f} ms for all "
          "that is not the bare interpreter")


def first_run(env: dict[str, str], copies: Path, runs: int = 7) -> None:
    """The median `witness check` process that finds no copies yet, and so writes them."""
    argv, _ = COMMANDS["witness check"]
    times = []
    for _ in range(runs):
        shutil.rmtree(copies, ignore_errors=True)
        start = time.perf_counter()
        subprocess.run(argv, env=env, capture_output=True, check=False)
        times.append(time.perf_counter() - start)
    written = sum(1 for _ in copies.rglob("*.pyc"))
    print(f"  the first `witness check` (no copies yet; it writes {written}): "
          f"{statistics.median(times) * 1000:.1f} ms")


def _compile_all(sources: list[tuple[str, str]]) -> float:
    start = time.perf_counter()
    for path, text in sources:
        compile(text, path, "exec", dont_inherit=True)
    return time.perf_counter() - start


def importtime(env: dict[str, str], argv: list[str], stdin: bytes | None, top: int = 12) -> None:
    """The modules with the largest cumulative import time in one process (nested ones indented)."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-c",
                           "import sys; from advisor.cli import main; sys.exit(main(sys.argv[1:]))", *argv[1:]],
                          input=stdin, env=env, capture_output=True, check=False)
    rows = []
    for line in done.stderr.decode(errors="replace").splitlines():
        if not line.startswith("import time:") or "cumulative" in line:
            continue
        _, total, module = line.removeprefix("import time:").split("|", 2)
        rows.append((int(total), module.rstrip()))
    print(f"  largest imports of `witness {' '.join(argv[1:3])}` (cumulative µs):")
    for microseconds, module in sorted(rows, reverse=True)[:top]:
        print(f"    {microseconds:>8}  {module}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=40, help="process starts per command and condition")
    parser.add_argument("--importtime", action="store_true", help="also list the costliest imports")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="witness-startup-") as folder:
        home = Path(folder) / "home"
        cached = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
        cached["WITNESS_HOME"] = str(home)  # the Stop hook's counts, and the copies below, stay in here
        report("bytecode cached:", cached, options.runs)
        source_only_copy(Path(folder))
        uncached = {**cached, "PYTHONDONTWRITEBYTECODE": "1",
                    "PYTHONPATH": os.pathsep.join(filter(None, (folder, os.environ.get("PYTHONPATH"))))}
        compiling = {**uncached, "WITNESS_BYTECODE_CACHE": "0"}
        bare = report("no bytecode, compiled every run (WITNESS_BYTECODE_CACHE=0):", compiling, options.runs)
        compile_cost(compiling, bare)
        report("no bytecode, witness's own copies under $WITNESS_HOME/bytecode (the default):", uncached,
               options.runs)
        first_run(uncached, home / "bytecode")
        if options.importtime:
            for name in ("witness check", "witness hook (PostToolUse)"):
                argv, stdin = COMMANDS[name]
                importtime(compiling, argv, stdin)
    print("target: `witness check` at most 3x a bare `python -c pass`, with bytecode cached and without it")


if __name__ == "__main__":
    main()
