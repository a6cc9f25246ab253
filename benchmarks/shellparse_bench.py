"""How fast is `shellparse.analyze`, against named baselines, in one run.

Prints, over the corpus (corpus/commands.jsonl):

- the median time of one `analyze` call with the cache off, per command;
- its ratio to a bare tree-sitter parse of the same commands (the floor: parsing alone);
- the ratio of `bashlex.parse` to it, on the commands bashlex parses (target: at least 4);
- the whole-process time of `witness check` on one command against `python -c pass` (target:
  under 4), each the median of interleaved runs.

Absolute times on a shared machine are noise; the ratios are what to compare. Run:

    .venv/bin/python benchmarks/shellparse_bench.py [--rounds N] [--processes N]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import shellparse

ROOT = Path(__file__).resolve().parent.parent


def load_commands() -> list[tuple[str, str]]:
    path = ROOT / "corpus" / "commands.jsonl"
    commands = []
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            item = json.loads(line)
            commands.append((item["command"], item["shell"]))
    return commands


def per_command_median(commands: list[str], call: Callable[[str], object], rounds: int) -> float:
    """Median over commands of the best-of-`rounds` time of `call(command)`, in microseconds."""
    timer = time.perf_counter_ns
    times = []
    for command in commands:
        best = None
        for _ in range(rounds):
            start = timer()
            call(command)
            elapsed = timer() - start
            best = elapsed if best is None or elapsed < best else best
        assert best is not None
        times.append(best / 1000)
    return statistics.median(times)


def bashlex_parses(commands: list[str]) -> list[str]:
    import bashlex

    ok = []
    for command in commands:
        try:
            bashlex.parse(command)
        except Exception:  # bashlex raises many kinds: ParsingError, NotImplementedError, …
            continue
        ok.append(command)
    return ok


def process_ratio(runs: int) -> tuple[float, float, float]:
    """Median wall time of `witness check` and of `python -c pass`, interleaved; and their ratio."""
    witness = str(Path(sys.executable).with_name("witness"))
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    check = [witness, "check", "--", "cd api && npm test 2>&1 | tail -20"]
    bare = [sys.executable, "-c", "pass"]
    for _ in range(3):  # warm the page cache and write bytecode, as an installed tool has it
        subprocess.run(check, env=env, stdout=subprocess.DEVNULL, check=False)
        subprocess.run(bare, env=env, check=True)
    check_times: list[float] = []
    bare_times: list[float] = []
    for _ in range(runs):
        for command, sink in ((check, check_times), (bare, bare_times)):
            start = time.perf_counter()
            subprocess.run(command, env=env, stdout=subprocess.DEVNULL, check=False)
            sink.append(time.perf_counter() - start)
    check_ms, bare_ms = statistics.median(check_times) * 1000, statistics.median(bare_times) * 1000
    return check_ms, bare_ms, check_ms / bare_ms


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="timings per command (best is kept)")
    parser.add_argument("--processes", type=int, default=40, help="process starts per side")
    options = parser.parse_args()

    corpus = load_commands()
    bash = [command for command, shell in corpus if shell == "bash"]
    print(f"corpus: {len(corpus)} commands ({len(bash)} bash, {len(corpus) - len(bash)} PowerShell)")

    import tree_sitter
    import tree_sitter_bash

    parser_ts = tree_sitter.Parser(tree_sitter.Language(tree_sitter_bash.language()))
    analyze_us = per_command_median(bash, lambda c: shellparse.analyze(c, cache=False), options.rounds)
    parse_us = per_command_median(bash, lambda c: parser_ts.parse(c.encode()), options.rounds)
    floor_us = per_command_median(bash, lambda c: None, options.rounds)
    print(f"analyze (cache off), bash:      median {analyze_us:8.1f} µs per command")
    print(f"bare tree-sitter parse:         median {parse_us:8.1f} µs per command")
    print(f"  analyze / tree-sitter parse:  {analyze_us / parse_us:6.1f}x  (the cost of the analysis itself)")

    import bashlex

    parsed = bashlex_parses(bash)
    bashlex_us = per_command_median(parsed, bashlex.parse, options.rounds)
    analyze_parsed_us = per_command_median(parsed, lambda c: shellparse.analyze(c, cache=False), options.rounds)
    print(f"bashlex.parse ({len(parsed)} of {len(bash)} it parses): median {bashlex_us:8.1f} µs per command")
    print(f"  bashlex parse / analyze:      {bashlex_us / analyze_parsed_us:6.1f}x  (target: at least 4x)")

    pwsh = [command for command, shell in corpus if shell == "pwsh"]
    if pwsh:
        pwsh_us = per_command_median(pwsh, lambda c: shellparse.analyze(c, "pwsh", cache=False), options.rounds)
        print(f"analyze (cache off), PowerShell: median {pwsh_us:7.1f} µs per command")
    cached_us = per_command_median(bash, shellparse.analyze, options.rounds)
    print(f"analyze (cache hit):            median {cached_us:8.2f} µs per command (an empty call: {floor_us:.2f})")

    check_ms, bare_ms, ratio = process_ratio(options.processes)
    print(f"`witness check` process:        median {check_ms:8.1f} ms")
    print(f"`python -c pass` process:       median {bare_ms:8.1f} ms")
    print(f"  witness check / bare python:  {ratio:6.2f}x  (target: under 4x)")


if __name__ == "__main__":
    main()
