"""The labelled command corpus (`corpus/commands.jsonl`), read once for the tests that use it.

`test_corpus.py` checks that every entry is well formed; the other readers rely on that.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

CORPUS = Path(__file__).resolve().parents[2] / "corpus" / "commands.jsonl"


@cache
def entries() -> tuple[dict[str, Any], ...]:
    """Every entry of the corpus, in file order."""
    with CORPUS.open(encoding="utf-8") as handle:
        return tuple(json.loads(line) for line in handle if line.strip())


def commands(shell: str, expect: tuple[str, ...] | None = None) -> list[str]:
    """The distinct commands of one dialect, in file order; only those labelled ``expect`` when given."""
    found = {entry["command"]: None for entry in entries()
             if entry["shell"] == shell and (expect is None or entry["expect"] in expect)}
    return list(found)
