"""Traps: code the shell runs on its own, on a signal, an error, before every command or at exit.

A trap's action runs in the shell that set it, so it can ``exit`` with a status of its own, end
the shell from a DEBUG trap before the check runs, redefine a command, assign the variable a
status was saved in (a DEBUG, ERR or CHLD trap fires between saving and leaving: ``printf -v rc``,
``$((rc=0))``, ``${a[rc=0]}``), or (with ``extdebug``) make a failing DEBUG trap skip the command it
runs before. The analysis accepts a trap only when its action is proven inert: a static string of
simple commands from :data:`INERT` whose every word is literal or a plain parameter (``$x``,
``$?``), with no assignment, no option that assigns (``printf -v``), no arithmetic, subscript or
default, and substitutions only of such commands. It may write files (``echo done >> log``): a
trap's redirects are writes the line makes before its check. Everything else — ``trap -- 'exit
0' EXIT``, a function name, a variable, ``e\\xit``, a sourced file, ``eval`` — masks.
"""

from __future__ import annotations

from ._bash import parse_bash
from ._effects import redirect_writes
from ._inert import plain_expansions
from ._model import Opaque, Script, Word

INERT = frozenset({"echo", "printf", ":", "true", "false", "rm", "rmdir", "cat", "touch", "mkdir", "date"})
"""Commands a trap may run without changing the status it leaves with (``printf`` without ``-v``,
``cat`` of named files only: a trap reading standard input swallows a script read from there)."""
_LISTING = frozenset({"-p", "-l", "-P"})
_DEBUG = frozenset({"DEBUG", "SIGDEBUG"})


class Trap:
    """What one ``trap`` command sets."""

    __slots__ = ("debug", "harmful", "names", "writes")

    def __init__(self, harmful: bool = False, names: frozenset[str] = frozenset(), debug: bool = False,
                 writes: tuple[Word, ...] = ()):
        self.harmful = harmful
        """The action is not proven inert."""
        self.names = names
        """The commands the action runs (a later redefinition of one of them makes it harmful)."""
        self.debug = debug
        """It is set on DEBUG (which, with ``extdebug``, skips a command when it fails)."""
        self.writes = writes
        """The files its redirects write (relative to the action's own text)."""


NOTHING = Trap()


_LAST: list[tuple[tuple[Word, ...], Trap]] = []
"""The trap read last, by its words themselves: the analysis reads one ``trap`` command several
times (what it changes, whether it is inert, what it writes), and its action is parsed once."""


def trap_of(args: tuple[Word, ...]) -> Trap:
    """What ``trap ARGS…`` sets (``args`` are the words after ``trap``)."""
    if _LAST:
        words, trap = _LAST[0]
        if len(words) == len(args) and all(word is arg for word, arg in zip(words, args, strict=True)):
            return trap  # the same words (the same objects): the same command of the same analysis
    trap = _trap_of(args)
    _LAST[:] = [(args, trap)]
    return trap


def _trap_of(args: tuple[Word, ...]) -> Trap:
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
    script = parse_bash(action)
    names: set[str] = set()
    writes: list[Word] = []
    if script.error is not None or not inert_action(script, names, writes):
        return Trap(harmful=True, debug=debug)
    return Trap(names=frozenset(names), debug=debug, writes=tuple(writes))


def inert_action(script: Script, names: set[str], writes: list[Word]) -> bool:
    """Whether every command of ``script`` (a trap's action) is proven inert; collects the
    commands it runs in ``names`` and the targets its redirects write in ``writes``."""
    for statement in script.statements:
        for command in statement.pipeline.commands:
            if command.kind != "simple" or command.assignments or not command.words:
                return False
            head = command.words[0].value
            if head not in INERT or not all(_plain(word, command.opaque) for word in command.words):
                return False
            args = [word.value for word in command.words[1:]]
            if head == "printf" and (not args or (args[0] or "-").startswith("-")):
                return False  # `printf -v rc 0` assigns; a format first is the only inert form
            if head == "cat" and not any(arg and arg not in ("-", "/dev/stdin") and not arg.startswith("-")
                                         for arg in args):
                return False
            for redirect in command.redirects:
                if redirect.target is None or not _plain(redirect.target, command.opaque):
                    return False
                if redirect_writes(redirect):
                    writes.append(redirect.target)
            for opaque in command.opaque:
                if opaque.body is None or not inert_action(opaque.body, names, writes):
                    return False
            names.add(head)
    return True


def _plain(word: Word, opaque: tuple[Opaque, ...]) -> bool:
    """A word whose value is literal, or expands plain parameters and substitutions only (no
    arithmetic, subscript, default or indirection, which could assign); the substitutions' own
    commands are judged apart."""
    if word.value is not None:
        return True
    text = word.text
    start = word.span.start
    for inner in sorted(opaque, key=lambda found: -found.span.start):  # cut the substitutions out, last first
        if start <= inner.span.start and inner.span.end <= word.span.end:
            text = text[: inner.span.start - start] + text[inner.span.end - start :]
    return plain_expansions(text)
