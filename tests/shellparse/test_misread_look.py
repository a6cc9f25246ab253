"""The quick look for shapes tree-sitter-bash misreads finds exactly what its one-pattern form finds."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from shellparse._misread import _candidates, _may_misread

# The look as one alternation (a boundary or a class at the start of two of its branches).
_ONE_PATTERN = re.compile(rb"\btime[ \t]+(?:-p[ \t]+)?(?:--[ \t]+)?[{!]\s|![ \t]+\{\s|\n[ \t]*\\|\S\\\n\S")
# Pieces that make the shapes, and the bytes around them that decide whether one counts.
_PIECES = st.sampled_from([b"time", b"runtime", b"-p", b"--", b"!", b"{", b"}", b"\\", b"\n", b" ", b"\t", b"\r",
                           b"x", b"_", b"1", b";", b"|", b"t", b"ime", b"\xc3\xa9"])


@given(st.lists(_PIECES, max_size=14).map(b"".join))
def test_the_four_searches_find_what_the_alternation_finds(data: bytes) -> None:
    """Searching the four literal-led patterns in turn answers as one search of their alternation
    does (the word boundary before `time` and the non-blank before a backslash checked behind)."""
    assert any(candidate.search(data) for candidate in _candidates()) == (_ONE_PATTERN.search(data) is not None)


def test_a_boundary_at_the_start_and_after_a_word_character() -> None:
    """`time {` counts at the very start and after a blank, not inside a word; a backslash-newline
    needs a non-blank before it, so at the very start it does not count."""
    found = [any(candidate.search(data) for candidate in _candidates())
             for data in (b"time { x", b"a; time { x", b"runtime { x", b"\\\nx", b"a\\\nx", b" \\\nx")]
    assert found == [True, True, False, False, True, False]


@given(st.lists(_PIECES, max_size=14).map(b"".join))
def test_the_quick_look_finds_what_the_alternation_finds(data: bytes) -> None:
    """Looking only where the bytes each shape needs are answers as the alternation does, on a text
    and on the text with the newline the parse adds after it."""
    assert _may_misread(data) == (_ONE_PATTERN.search(data) is not None)
    assert _may_misread(data + b"\n") == (_ONE_PATTERN.search(data + b"\n") is not None)
