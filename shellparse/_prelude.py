"""The judge of a builtin that runs in the shell before a check: proven inert, or not.

:mod:`._inert` holds the tables; this module reads a builtin's words against its row. A builtin
outside the table, or with a word its row does not allow, is *unproven*: the checks after it are
refused (reason ``unproven``). Programs are not judged here: they run in a child process and
change nothing in this shell (what they write is :mod:`._writes`' business).
"""

from __future__ import annotations

from ._inert import BUILTINS, SET_OPTIONS, SHOPT_OPTIONS, plain_expansions, variable_rule
from ._model import Word
from ._patterns import lazy
from ._shellstate import ShellState
from ._traps import trap_of

_ACTIVATE = lazy(r"(?:^|.*/)(?:bin|Scripts)/activate")
"""A virtual environment's activation script (``.venv/bin/activate``, ``venv/Scripts/activate``)."""
_NAME = lazy(r"[A-Za-z_][A-Za-z0-9_]*")
_ASSIGNED = lazy(r"([A-Za-z_][A-Za-z0-9_]*)(\[[0-9]*\])?\+?=")
_DECLARE_LETTERS: dict[str, frozenset[str]] = {
    "declare": frozenset("aAilurxgfFp"), "typeset": frozenset("aAilurxgfFp"), "local": frozenset("aAilurxgfFp"),
    "readonly": frozenset("aAfp"), "export": frozenset("fnp"), "unset": frozenset("fvn"),
}
"""The options a declaration may take: none gives a name a reference (``-n``, but ``export -n`` and
``unset -n`` undo) or the trace attribute (``-t``: DEBUG and RETURN traps then reach a function)."""
_READ_VALUES: dict[str, frozenset[str]] = {
    "read": frozenset("dinNptu"), "mapfile": frozenset("dnOsuc"), "readarray": frozenset("dnOsuc"),
    "getopts": frozenset(),
}
"""The options of the builtins that read into names which take a value (``read -p PROMPT``)."""


def unproven(state: ShellState, head: str, args: tuple[Word, ...]) -> str | None:
    """Why the builtin ``head`` with ``args`` is not proven inert before a check (``None``: it is)."""
    rule = BUILTINS.get(head)
    if rule is None:
        return "not among the builtins proven inert"
    if rule in ("any", "directory", "tracked", "kill", "exec", "hash"):
        return None  # `kill` and `exec` with a command are risks the analysis names; `hash -p` it follows
    if rule == "no-v":
        first = args[0] if args else None
        return "`printf -v` assigns a variable" if first is not None and _option_word(first, "v") else None
    if rule == "set":
        return _set(args)
    if rule == "shopt":
        return _shopt(args)
    if rule == "names":
        return _declaration(head, args)
    if rule == "read":
        return _reader(head, args)
    if rule == "trap":
        return "its action is not proven inert" if trap_of(args).harmful else None
    if rule == "source":
        return _source(args)
    return "an alias named at run time" if any(word.value is None for word in args) else None


def unproven_options(head: str, args: tuple[Word, ...]) -> str | None:
    """Why ``set``/``shopt`` with ``args`` switch an option not proven inert (``None``: they do not)."""
    return _set(args) if head == "set" else _shopt(args)


def _option_word(word: Word, letters: str) -> bool:
    """Whether ``word`` is (or may be) an option cluster holding one of ``letters``."""
    value = word.value
    if value is None:
        return not word.text.startswith(('"', "'"))  # an unquoted expansion may split into options
    return value.startswith("-") and value != "--" and any(letter in value[1:] for letter in letters)


def _set(args: tuple[Word, ...]) -> str | None:
    index = 0
    while index < len(args):
        value = args[index].value
        if value is None:
            return "`set` with an argument known only at run time"
        if value in ("--", "-") or value[:1] not in "-+" or len(value) == 1:
            return None  # the rest are positional parameters
        index += 1
        for letter in value[1:]:
            if letter == "o":
                name = args[index].value if index < len(args) else ""
                if name and name not in SET_OPTIONS:
                    return f"`set -o {name}` is not among the options proven inert"
                index += 1
            elif letter not in SET_OPTIONS:
                return f"`set -{letter}` is not among the options proven inert"
    return None


def _shopt(args: tuple[Word, ...]) -> str | None:
    switching = set_names = False
    for word in args:
        value = word.value
        if value is None:
            return "`shopt` with an argument known only at run time"
        if value.startswith("-") and len(value) > 1 and value != "--":
            switching = switching or "s" in value or "u" in value
            set_names = set_names or "o" in value
            continue
        if value == "--":
            continue
        if switching and value not in (SET_OPTIONS if set_names else SHOPT_OPTIONS):
            return f"`shopt {value}` is not among the options proven inert"
    return None


def _declaration(head: str, args: tuple[Word, ...]) -> str | None:
    options = True
    for word in args:
        value = word.value
        text = word.text
        if options and value is not None and value[:1] in "-+" and len(value) > 1 and value != "--":
            if not set(value[1:]) <= _DECLARE_LETTERS[head]:
                return f"`{head} {value}` is not among the options proven inert"
            continue
        options = options and value != "--"
        if value == "--":
            continue
        options = False
        found = _ASSIGNED.match(text) or (_NAME.fullmatch(text) if head != "unset" or value else None)
        if found is None:
            if head == "unset" and value is not None and _NAME.fullmatch(value):
                continue
            return f"`{head}` of a name known only at run time"
        problem = assignment_problem(word)
        if problem is not None:
            return problem
    return None


def _reader(head: str, args: tuple[Word, ...]) -> str | None:
    """``read``, ``mapfile``, ``getopts``: the names they assign take any value, so none may be a
    variable bash acts on; ``mapfile -C`` runs a callback."""
    values = _READ_VALUES[head]
    index, names = 0, []
    if head == "getopts":
        names = [word.value for word in args[1:2]]
    else:
        while index < len(args):
            value = args[index].value
            if value is None:
                return f"`{head}` with an argument known only at run time"
            if value.startswith("-") and len(value) > 1 and value != "--":
                if "C" in value:
                    return f"`{head} -C` runs a callback"
                letters = value[1:]
                taking = next((at for at, letter in enumerate(letters) if letter in values), None)
                index += 2 if taking is not None and taking == len(letters) - 1 else 1
                continue
            names.append(value)
            index += 1
    for name in names:
        if name is None or variable_rule(name.partition("[")[0]) is not None:
            return f"`{head}` assigns a variable bash acts on"
    return None


def assignment_problem(word: Word) -> str | None:
    """Why the assignment ``word`` (``NAME=value``, in front of a command, alone, or declared) is not
    proven inert: it sets a variable bash acts on, to a value :data:`._inert.SHELL_VARIABLES` does
    not allow. A prompt (``PS4``, expanded again before each line ``set -x`` prints) must be static
    and hold plain parameters only (``$x``, ``${x}``, ``$?``): no arithmetic, subscript or
    substitution, which would run or assign when it is expanded."""
    found = _ASSIGNED.match(word.text)
    if found is None:
        return None
    name = found.group(1)
    rule = variable_rule(name)
    if rule == "refused":
        return f"`{name}` changes what bash (or the loader) runs"
    if rule == "prompt" and (word.value is None or not plain_expansions(word.value.partition("=")[2])):
        return f"`{name}` is expanded again when used, and this value runs code or assigns"
    return None


def _source(args: tuple[Word, ...]) -> str | None:
    if activation(args) is not None:
        return None
    return "only a virtual environment's activation script is proven inert to source"


def activation(args: tuple[Word, ...]) -> str | None:
    """The activation script ``source ARGS`` runs, when it is a virtual environment's own
    (``.venv/bin/activate``): part of the toolchain, trusted as much as the check's program."""
    if len(args) == 1 and args[0].value is not None and _ACTIVATE.fullmatch(args[0].value):
        return args[0].value
    return None

