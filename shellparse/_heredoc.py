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
    joins = not any(byte in b"'\"\\" for byte in _word(data, start))
    found = _end_line(data, wanted, strip_tabs, body) if not joins else _joined_end_line(data, wanted, strip_tabs, body)
    if found is not None and found[0] <= end[0] and found[1] == end[1]:
        return None
    shown = wanted.decode("utf-8", "replace")
    return (f"the here-document ends only at a line that is exactly `{shown}`; bash reads past the line the "
            "grammar ends it at")


def _word(data: bytes, start: int) -> bytes:
    """The delimiter word as written, up to the first metacharacter outside quotes."""
    index, size = start, len(data)
    while index < size and data[index] not in _METACHARACTERS:
        if data[index] in (0x27, 0x22):
            close = data.find(bytes((data[index],)), index + 1)
            index = size if close < 0 else close + 1
        else:
            index += 2 if data[index] == 0x5C else 1
    return data[start:index]


def _joined_end_line(data: bytes, wanted: bytes, strip_tabs: bool, body: int) -> tuple[int, int] | None:
    """Where bash ends a here-document whose delimiter is unquoted: it removes each backslash-newline
    from the body before it compares a line with the delimiter, so a line ending in an odd number of
    backslashes takes the next one with it (``x\\`` then ``EOF`` is the line ``xEOF``)."""
    position, size = body, len(data)
    continued = False
    while position < size:
        newline = data.find(b"\n", position)
        end = size if newline < 0 else newline
        line = data[position:end]
        if strip_tabs:
            line = line.lstrip(b"\t")
        if not continued and line == wanted:
            return position, end
        escapes = len(line) - len(line.rstrip(b"\\"))
        continued = escapes % 2 == 1 and newline >= 0
        position = end + 1
    return None


def _end_line(data: bytes, wanted: bytes, strip_tabs: bool, body: int) -> tuple[int, int] | None:
    """The first line from ``body`` on that is exactly ``wanted`` (after tabs, for ``<<-``): where
    bash ends the here-document, as ``(line start, delimiter end)``."""
    if not wanted:
        newline = data.find(b"\n\n", body - 1) if body else -1
        return (newline + 1, newline + 1) if newline >= 0 else None
    position = body
    while True:
        found = data.find(wanted, position)
        if found < 0:
            return None
        after = found + len(wanted)
        line = data.rfind(b"\n", 0, found) + 1
        lead = data[line:found]
        if line >= body and (not lead or (strip_tabs and not lead.strip(b"\t"))) \
                and (after == len(data) or data[after] == 0x0A):
            return line, after
        position = found + 1
