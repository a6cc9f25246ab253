"""Text made safe to print on a terminal or hand to a host that shows it to a person.

Everything the project prints or hands a host — verdicts, audit reports, hook reasons and
messages, errors naming a path — passes :func:`printable`: a command or a transcript can hold
bytes that drive a terminal (``ESC [2J`` clears it, ``ESC ]0;…BEL`` retitles it, BEL rings) or
reorder what is shown (Unicode bidirectional overrides, the "Trojan Source" trick). Each such
character becomes one ``?``, character for character, so an escape sequence loses its
introducer and is left as inert text, and positions in the text (carets under a command) stay
where they were. Lone surrogates become U+FFFD, tabs a space; newlines are kept.
"""

from __future__ import annotations

_CONTROLS = [*range(0x0A), *range(0x0B, 0x20), *range(0x7F, 0xA0)]
"""C0 controls but the newline (ESC, BEL, CR, backspace …), DEL, and C1 controls (CSI 0x9B, OSC 0x9D …)."""
_BIDI = [0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]
"""Bidirectional marks, embeddings, overrides and isolates (ALM, LRM, RLM, LRE … RLO, LRI … PDI)."""
_TABLE = {**dict.fromkeys(_CONTROLS + _BIDI, "?"), **dict.fromkeys(range(0xD800, 0xE000), "\ufffd"), 0x09: " "}


def printable(text: str) -> str:
    """``text`` with every character that could drive a terminal or reorder its display replaced,
    one for one (see the module docstring)."""
    return text.translate(_TABLE)
