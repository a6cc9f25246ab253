"""Is building shellparse's named tuples without their generated constructor worth it, module by module?

A few of shellparse's modules build their named tuples with ``tuple.__new__(cls, values)``
(``_new``), skipping the generated ``__new__`` and its argument parsing; everywhere else values are
built by keyword. This prints, for each module that does, the time to analyse every command of the
corpus and the real agent commands (``analyze(..., cache=False)``) as shipped, against the same
with that one module's ``_new`` building by keyword (``cls(**dict(zip(cls._fields, values)))``),
best of ``--rounds`` runs each, interleaved, in CPU time (the machine is shared: a wall clock times the
neighbours too). A module whose ratio stays under ``--keep`` (default
1.02: 2 %) does not justify its positional construction.

    .venv/bin/python benchmarks/construct_bench.py [--rounds 7] [--keep 1.02]
"""

from __future__ import annotations

import argparse
import importlib
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import shellparse
from shellparse import Shell

ROOT = Path(__file__).resolve().parent.parent
MODULES = ("_analysis", "_bash", "_flat", "_identify", "_model", "_offsets", "_plain", "_reasons")
"""The modules that build named tuples with ``_new``."""


def commands() -> list[tuple[str, Shell]]:
    """Every command of the labelled corpus and of the real agent sessions, with its dialect."""
    rows: list[tuple[str, Shell]] = []
    for name in ("commands.jsonl", "real_commands.jsonl"):
        with (ROOT / "corpus" / name).open(encoding="utf-8") as handle:
            rows += [(row["command"], row["shell"]) for row in map(json.loads, handle)]
    return rows


def by_keyword(cls: type[Any], values: tuple[Any, ...]) -> Any:
    """What a keyword construction costs: the generated constructor, every field named."""
    return cls(**dict(zip(cls._fields, values, strict=True)))


def analyse_all(rows: list[tuple[str, Shell]]) -> float:
    """CPU seconds to analyse every row once, without the cache."""
    start = time.process_time()
    for command, shell in rows:
        shellparse.analyze(command, shell, cache=False)
    return time.process_time() - start


def best(rounds: int, run: Callable[[], float]) -> float:
    return min(run() for _ in range(rounds))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--keep", type=float, default=1.02)
    args = parser.parse_args()
    rows = commands()
    analyse_all(rows)  # warm: grammars loaded, tables built
    print(f"{len(rows):,} commands, best of {args.rounds} runs each, analyse without the cache (CPU time)")
    print(f"{'module':<12} {'positional ms':>14} {'keyword ms':>11} {'ratio':>7}  verdict")
    for name in MODULES:
        module: Any = importlib.import_module(f"shellparse.{name}")
        shipped = module._new
        positional, keyword = [], []
        for _ in range(args.rounds):
            positional.append(analyse_all(rows))
            module._new = by_keyword
            try:
                keyword.append(analyse_all(rows))
            finally:
                module._new = shipped
        ratio = min(keyword) / min(positional)
        verdict = "keep positional" if ratio >= args.keep else "keyword is as fast"
        print(f"{name:<12} {min(positional) * 1000:>14.1f} {min(keyword) * 1000:>11.1f} {ratio:>6.3f}x  {verdict}")


if __name__ == "__main__":
    main()
