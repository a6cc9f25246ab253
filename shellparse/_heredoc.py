"""Where bash ends a here-document, checked against where the grammar ends it.

bash ends a here-document only at a line that is exactly its delimiter (after quote removal;
with ``<<-``, after leading tabs are stripped). tree-sitter-bash is laxer: it also ends one at
``EOF `` (a trailing space), `` EOF``, ``EOF\\r``, ``EOF<tab>``, ``EOF; cmd`` and, for ``<<-``, at a
delimiter indented with spaces. bash reads on past such a line, so the commands the grammar
sees after it are body text that never runs: a check there would be a witness bash never gives.
A here-document the two disagree about is reported as a syntax problem (fail-closed).
"""

from __future__ import annotations

_METACHARACTERS = frozenset(b" \t\n;&|<>()")


def delimiter(data: bytes, start: int) -> bytes:
    """The delimiter bash reads from the word at ``data[start:]``, quotes and escapes removed."""
    out = bytearray()
    index, size = start, len(data)
    while index < size:
        byte = data[index]
        if byte in _METACHARACTERS:
            break
        if byte == 0x5C:  # backslash: the next byte is literal
            if index + 1 < size:
                out.append(data[index + 1])
            index += 2
        elif byte in (0x27, 0x22):  # a quoted run: literal up to the matching quote
            close = data.find(bytes((byte,)), index + 1)
            if close < 0:
                close = size
            out += data[index + 1 : close]
            index = close + 1
        else:
            out.append(byte)
            index += 1
    return bytes(out)


def end_problem(data: bytes, *, strip_tabs: bool, start: int, body: int, end: tuple[int, int]) -> str | None:
    """Why bash does not end the here-document where the grammar does, or ``None`` when they agree.

    ``start`` is where the delimiter word begins, ``body`` where the body's first line begins,
    ``end`` the span of the grammar's end line (its delimiter, without leading tabs).
    """
    wanted = delimiter(data, start)
    position = body
    while True:
        newline = data.find(b"\n", position)
        line_end = newline if newline >= 0 else len(data)
        line = data[position:line_end]
        if (line.lstrip(b"\t") if strip_tabs else line) == wanted:
            if position <= end[0] and end[1] == line_end:
                return None
            break
        if newline < 0 or line_end >= end[1]:
            break  # bash has read past the grammar's end line without ending the here-document
        position = newline + 1
    shown = wanted.decode("utf-8", "replace")
    return (f"the here-document ends only at a line that is exactly `{shown}`; bash reads past the line the "
            "grammar ends it at")
