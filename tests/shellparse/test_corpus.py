"""Every labelled command in corpus/commands.jsonl agrees with `analyze`.

The labels were written from the rules in docs/shellparse.md, not from the analyzer's output
(corpus/README.md says how). A disagreement is either a bug in the analyzer or a label to
re-read against the rules; it is never silenced here.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from shellparse import analyze
from tests.shellparse.corpus_file import entries

EXPECT = {"witness": "check", "reporting-pipe": "reporting-pipe", "masked": "masked", "not-validation": None}


ENTRIES = entries()


def test_the_corpus_is_large_and_well_formed() -> None:
    """At least 600 labelled commands, unique, every label from the allowed set."""
    assert len(ENTRIES) >= 600
    assert len({(e["command"], e["shell"]) for e in ENTRIES}) == len(ENTRIES)
    for entry in ENTRIES:
        assert {"command", "shell", "expect", "kind", "statement", "source", "note"} <= set(entry)
        assert set(entry) <= {"command", "shell", "expect", "kind", "statement", "directory", "source", "note",
                              "witness_eligible", "identity", "failure_eligible", "bash"}
        assert entry["shell"] in ("bash", "pwsh") and entry["expect"] in EXPECT
        assert (entry["kind"] is None) == (entry["expect"] == "not-validation")
    groups = Counter(entry["source"].split(":")[0] for entry in ENTRIES)
    assert {"swebench-4.0.4", "transcript", "nl2bash", "handwritten"} <= set(groups)


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: f"{e['shell']}:{e['command'][:60]}")
def test_corpus_entry_agrees_with_analyze(entry: dict[str, Any]) -> None:
    """The analyzer's verdict, kind, statement and directory match the label."""
    result = analyze(entry["command"], entry["shell"])
    assert result.exit_source == EXPECT[entry["expect"]], (entry["note"], result.reasons)
    if entry["expect"] == "not-validation":
        return
    assert result.validation is not None
    assert result.validation.kind == entry["kind"]
    if entry.get("statement") is not None:
        assert result.validation.statement == entry["statement"]
    if "directory" in entry:
        assert result.validation.directory == entry["directory"]
    eligible = entry.get("witness_eligible", entry["expect"] in ("witness", "reporting-pipe"))
    assert result.witness_eligible is eligible
    if "identity" in entry:
        assert result.validation.identity == entry["identity"]
    if "failure_eligible" in entry:
        (check,) = [c for c in result.checks if c.validation == result.validation]
        assert check.failure_eligible is entry["failure_eligible"]
