"""Patterns compiled on first use answer as compiled patterns do, also once copied or pickled."""

from __future__ import annotations

import copy
import pickle
import re

from shellparse._patterns import lazy


def test_a_lazy_pattern_matches_as_the_compiled_one() -> None:
    """A lazy pattern finds, substitutes and reports flags exactly as `re.compile` of the same source."""
    pattern, compiled = lazy(r"(?P<word>te+st)", re.I), re.compile(r"(?P<word>te+st)", re.I)
    assert pattern.search("a TEEST b").group("word") == compiled.search("a TEEST b").group("word")  # type: ignore[union-attr]
    assert pattern.sub("x", "test test") == "x x" and pattern.flags == compiled.flags


def test_a_lazy_pattern_survives_copy_and_pickle() -> None:
    """Copies and pickled round trips of a lazy pattern, used or not, still match (no recursion on a bare instance)."""
    used, unused = lazy(r"\d+"), lazy(r"\d+")
    assert used.match("42")
    for pattern in (used, unused):
        for twin in (copy.copy(pattern), copy.deepcopy(pattern), pickle.loads(pickle.dumps(pattern))):
            assert twin.match("42") is not None and twin.match("x") is None
