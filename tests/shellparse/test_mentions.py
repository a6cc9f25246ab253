"""Mentions of check programs in words that run nothing (``echo run pytest first``)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from shellparse import analyze
from shellparse._families import mentions

# Pieces that make mentions, and the characters around them that decide whether one counts.
_PIECES = st.sampled_from(["pytest", "npm", "npm test", "go test", "tsc", "vitest", "cargo", " test", "test", "make",
                           "./pytest", "pytest.ini", "x-pytest", "pytest-x", "-", "/", ".", " ", "\n", "a", "_",
                           "é", "\t"])
_WORDS = st.lists(st.lists(_PIECES, max_size=6).map("".join), max_size=6)


@given(_WORDS)
def test_words_joined_by_a_newline_mention_what_each_mentions(words: list[str]) -> None:
    """The words joined by a newline mention exactly what the words mention one by one, in order
    (the analysis looks at all the words of a command at once before looking at each)."""
    assert mentions("\n".join(words)) == [found for word in words for found in mentions(word)]


def test_mentions_are_reported_from_every_word() -> None:
    """A command without a check reports the family names its words mention, in order, up to three."""
    result = analyze("echo run pytest; echo then 'npm test' and tsc; echo vitest", cache=False)
    assert [reason.code for reason in result.reasons] == ["mention-only"] * 3
    assert [reason.message.split("`")[1] for reason in result.reasons] == ["pytest", "npm test", "tsc"]
    assert [reason.span for reason in result.reasons] == [(9, 15), (27, 37), (42, 45)]
