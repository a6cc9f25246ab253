"""Byte offsets map to the characters that hold them, in the outermost text."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from shellparse._offsets import OffsetMap

# ASCII, two-, three- and four-byte characters, and lone surrogates (nested strings keep them).
_WIDE = st.sampled_from("é—€😀\udc80")
_TEXT = st.text(st.sampled_from("ab \n\"'é—€😀\udc80"), max_size=40) | st.text(max_size=40) | st.tuples(
    st.text("ab \n", max_size=60), _WIDE, st.text("ab \n", max_size=60), _WIDE, st.text("ab", max_size=9)).map("".join)


def _holders(text: str) -> list[int]:
    """For each byte of ``text`` in UTF-8, the index of its character; one more entry for the end."""
    return [index for index, char in enumerate(text) for _ in char.encode("utf-8", "surrogatepass")] + [len(text)]


@given(_TEXT, st.integers(0, 50))
def test_every_byte_maps_to_its_character(text: str, base: int) -> None:
    """Each byte offset of a text, mostly ASCII or not, maps to the offset of the character holding it,
    at top level and inside an outer text (each character at its own outer offset)."""
    data = text.encode("utf-8", "surrogatepass")
    holders = _holders(text)
    top = OffsetMap(text, data)
    assert [top(offset) for offset in range(len(data) + 1)] == holders
    outer = [base + 2 * index for index in range(len(text) + 1)]  # as if each character were escaped
    inner = OffsetMap(text, data, outer=outer)
    assert [inner(offset) for offset in range(len(data) + 1)] == [outer[char] for char in holders]
