"""Traps: code the shell runs on its own, on a signal, an error, before every command or at exit.

A trap's action runs in the shell that set it, so it can ``exit`` with a status of its own, end
the shell from a DEBUG trap before the check runs, redefine a command, or (with ``extdebug``)
make a failing DEBUG trap skip the command it runs before. The analysis accepts a trap only when
its action is plainly harmless: a static string of simple commands from a short list (``echo``,
``rm -f tmp`` …), with no substitution, assignment or function call. Everything else — ``trap --
'exit 0' EXIT``, a function name, a variable, ``e\\xit``, a sourced file, ``eval``, ``$(…)`` — can
change the status, and masks.
"""

from __future__ import annotations

from ._bash import parse_bash
from ._model import Script, Word

HARMLESS = frozenset({"echo", "printf", ":", "true", "false", "rm", "rmdir", "cat", "touch", "mkdir", "date"})
"""Commands a trap may run without changing the status it leaves with."""
_LISTING = frozenset({"-p", "-l", "-P"})
_DEBUG = frozenset({"DEBUG", "SIGDEBUG"})


class Trap:
    """What one ``trap`` command sets."""

    __slots__ = ("debug", "harmful", "names")

    def __init__(self, harmful: bool = False, names: frozenset[str] = frozenset(), debug: bool = False):
        self.harmful = harmful
        """The action is not plainly harmless."""
        self.names = names
        """The commands the action runs (a later redefinition of one of them makes it harmful)."""
        self.debug = debug
        """It is set on DEBUG (which, with ``extdebug``, skips a command when it fails)."""


NOTHING = Trap()


def trap_of(args: tuple[Word, ...]) -> Trap:
    """What ``trap ARGS…`` sets (``args`` are the words after ``trap``)."""
    if not args or args[0].value in _LISTING:
        return NOTHING
    if args[0].value == "--":
        args = args[1:]
    if len(args) < 2:
        return NOTHING  # `trap`, `trap EXIT`: list, or reset one signal
    action = args[0].value
    if action is None:
        return Trap(harmful=True)
    if action in ("", "-") or action.isdigit():
        return NOTHING  # ignore or reset the signals (`trap 1 2`: all of them are signals)
    debug = any((word.value or "").upper() in _DEBUG for word in args[1:])
    names = harmless_action(action)
    if names is None:
        return Trap(harmful=True, debug=debug)
    return Trap(names=names, debug=debug)


def harmless_action(action: str) -> frozenset[str] | None:
    """The commands a trap action runs, when they are all plainly harmless; ``None`` otherwise."""
    script = parse_bash(action)
    if script.error is not None:
        return None
    return _harmless(script)


def _harmless(script: Script) -> frozenset[str] | None:
    names: set[str] = set()
    for statement in script.statements:
        for command in statement.pipeline.commands:
            if command.kind != "simple" or command.opaque or command.assignments or not command.words:
                return None
            head = command.words[0].value
            if head not in HARMLESS:
                return None
            names.add(head)
    return frozenset(names)
