"""What ``set`` and ``shopt`` switch on or off, read the way bash reads their arguments.

``set`` takes grouped letters (``-euo pipefail``: ``o`` takes the next word), several ``±o NAME``
pairs (``set -o errexit -o pipefail``), and stops at ``--``, ``-`` or the first operand (``set --
-o pipefail`` sets positional parameters). ``shopt -s|-u [-o] NAME…`` sets shell options, or
with ``-o`` the options of ``set -o`` (``shopt -so pipefail``). An argument known only at run
time makes the change unknown (``None``): it may be anything, ``noexec`` included.
"""

from __future__ import annotations

from ._model import Word

Change = tuple[str, bool]
"""An option's name (as ``set -o`` or ``shopt`` names it) and whether it is switched on."""

_SET_LETTERS = {"e": "errexit", "n": "noexec", "t": "onecmd", "u": "nounset", "a": "allexport"}


def set_changes(words: tuple[Word, ...]) -> list[Change] | None:
    """The options ``set`` changes, its arguments ``words`` (``None``: unknown)."""
    changes: list[Change] = []
    index = 0
    while index < len(words):
        value = words[index].value
        if value is None:
            return None
        if value in ("--", "-") or value[:1] not in ("-", "+") or len(value) == 1:
            break
        on = value[0] == "-"
        index += 1
        for letter in value[1:]:
            if letter == "o":
                if index >= len(words):
                    break  # `set -o` alone lists the options
                name = words[index].value
                if name is None:
                    return None
                changes.append((name, on))
                index += 1
            elif letter in _SET_LETTERS:
                changes.append((_SET_LETTERS[letter], on))
    return changes


def shopt_changes(words: tuple[Word, ...]) -> tuple[list[Change], bool] | None:
    """The options ``shopt`` changes (``None``: unknown), and whether they are ``set -o`` options."""
    on: bool | None = None
    set_options = False
    index = 0
    while index < len(words):
        value = words[index].value
        if value is None:
            return None
        if value == "--":
            index += 1
            break
        if not value.startswith("-") or len(value) == 1:
            break
        for letter in value[1:]:
            if letter in "su":
                on = letter == "s"
            elif letter == "o":
                set_options = True
        index += 1
    names = [word.value for word in words[index:]]
    if any(name is None for name in names):
        return None
    if on is None:
        return [], set_options  # a query: nothing changes
    return [(name, on) for name in names if name is not None], set_options
