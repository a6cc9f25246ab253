"""What earlier statements did to the shell that later runs the check.

Statements before a check matter in three ways: where they move (``cd api &&`` is part of the
check's identity), what they switch on (``set -o pipefail``), and what can stop the check from
deciding the status at all — an ``exit`` that may end the script with 0 first, an EXIT or ERR
trap that exits, a function or alias that redefines the check's program. Everything here errs
on the side of "may": a shape that could hide the check's status masks it.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping
from types import MappingProxyType

from ._model import Command, Script, Span, Statement, Word
from ._reasons import reason
from ._results import Reason
from ._wrappers import is_wrapper, program_name, unwrap

_CD = frozenset({"cd", "chdir", "pushd", "set-location", "sl", "push-location"})
_POPD = frozenset({"popd", "pop-location"})
_EXITS = frozenset({"exit", "return", "logout", "throw"})
_PIPESTATUS = re.compile(r'^"?\$\{PIPESTATUS\[(\d+)\]\}"?$')
_RISKY_HEADS = frozenset({"exit", "return", "logout", "throw", "exec", "trap", "source", "."})
_EXITING_ACTION = re.compile(r"\b(exit|kill|exec)\b")
_DRIVE = re.compile(r"[A-Za-z]:")
POSIX_SH = frozenset({"sh", "dash", "ash", "busybox"})
"""Shells that may not know ``set -o pipefail`` (dash exits on it)."""


def excerpt(text: str, span: Span | None, limit: int = 60) -> str:
    """The text of ``span``, on one line, shortened for a message."""
    if span is None:
        return ""
    start, end = span
    if end - start > 4 * limit:
        # A long span (a here-document, the rest of a list): its first words decide the excerpt.
        head = " ".join(text[start : start + 4 * limit].split())
        if len(head) > limit:
            return head[: limit - 1] + "…"
    piece = " ".join(text[start:end].split())
    return piece if len(piece) <= limit else piece[: limit - 1] + "…"


class ShellState:
    """The shell as earlier statements left it.

    Every field starts at its class default and is replaced, never changed in place (the
    collections are immutable): a fresh state costs nothing, and a copy shares what it has not
    changed.
    """

    pipefail: bool = False
    """``pipefail`` is surely on (a pipeline fails when any command in it fails)."""
    maybe_pipefail: bool = False
    """``pipefail`` may be on (it was switched on somewhere that may not have run)."""
    errexit: bool = False
    """``set -e`` is surely on: a command that fails (outside a condition or an ``&&`` list) ends
    the script with its status."""
    exports: tuple[str, ...] = ()
    """``NAME=value`` exported to later commands (``export GOOS=windows``, PowerShell
    ``$env:GOOS = "windows"``): part of the identity of a check they run before."""
    dirs: tuple[str, ...] = ()
    """The ``cd`` targets so far, in order."""
    dir_stack: tuple[tuple[str, ...], ...] = ()
    """What ``pushd`` saved, for ``popd``."""
    shadowed: frozenset[str] = frozenset()
    """Names redefined as functions or aliases, or re-hashed: they may not run the program."""
    risky_functions: Mapping[str, Reason] = MappingProxyType({})
    """Functions whose body can end the script, with the reason why."""
    risk: Reason | None = None
    """The first earlier statement that can end the script before the check decides its status."""
    posix_sh: bool = False
    """The shell is a POSIX ``sh`` that may not know ``set -o pipefail``."""
    list_start: tuple[tuple[str, ...], bool, bool, bool] | None = None
    """Directory, pipefail and errexit before the first conditional change in the current `&&`/`||` list."""

    def __init__(self, pipefail: bool = False, dirs: tuple[str, ...] = (), posix_sh: bool = False):
        if pipefail:
            self.pipefail = self.maybe_pipefail = True
        if dirs:
            self.dirs = dirs
        if posix_sh:
            self.posix_sh = True

    def copy(self) -> ShellState:
        """The state a subshell or a substitution starts from."""
        other = ShellState(posix_sh=self.posix_sh)
        other.pipefail, other.maybe_pipefail, other.risk = self.pipefail, self.maybe_pipefail, self.risk
        other.errexit, other.exports = self.errexit, self.exports
        other.dirs, other.dir_stack = self.dirs, self.dir_stack
        other.shadowed, other.risky_functions = self.shadowed, self.risky_functions
        return other


def update(state: ShellState, statements: tuple[Statement, ...], index: int, end: int, *, shell: str,
           text: str) -> None:
    """Apply what ``statements[index]`` does to the shell for the statements after it; ``end`` is
    the index of the last statement of its ``&&``/``||`` list."""
    statement = statements[index]
    commands = statement.pipeline.commands
    after_or = index > 0 and statements[index - 1].op == "||"
    conditional = index > 0 and statements[index - 1].op in ("&&", "||")
    # In a pipeline or in the background a statement runs in a subshell: it changes nothing here.
    alone = len(commands) == 1 and statements[end].op != "&"
    if conditional and alone and state.list_start is None:
        state.list_start = (state.dirs, state.pipefail, state.maybe_pipefail, state.errexit)
    for command in commands:
        if command.kind == "simple" and command.words:
            _update_simple(state, command, shell, text, after_or, alone)
        elif command.kind == "function" and command.words:
            name = program_name(command.words[0].value or command.words[0].text)
            state.shadowed = state.shadowed | {name}
            risk = risk_inside(command.body, shell, text) if command.body is not None else None
            if risk is not None:
                state.risky_functions = {**state.risky_functions, name: risk}
        elif command.kind == "assignment" and shell == "pwsh" and alone:
            _pwsh_environment(state, command, text)
        elif command.kind not in ("subshell", "group") and command.body is not None and state.risk is None:
            state.risk = risk_inside(command.body, shell, text)
    if statement.op not in ("&&", "||") and state.list_start is not None:
        # `[ -d api ] && cd api; npm test`: a change made after `&&`/`||` holds for the rest of its
        # list (a check later in an `&&` chain runs only if it ran), but after the list it may or
        # may not have happened.
        dirs, pipefail, maybe_pipefail, errexit = state.list_start
        if state.dirs != dirs:
            state.dirs = (*dirs, "<maybe " + "/".join(state.dirs[len(dirs) :]) + ">")
        state.pipefail = state.pipefail and pipefail
        state.maybe_pipefail = state.maybe_pipefail or maybe_pipefail
        state.errexit = state.errexit and errexit
        state.list_start = None


def _update_simple(state: ShellState, command: Command, shell: str, text: str, after_or: bool,
                   alone: bool) -> None:
    words = command.words
    head = words[0].value
    if head is None:
        return
    name = head.lower() if shell == "pwsh" else head
    args = list(words[1:])
    if name in _CD and alone:
        if name in ("pushd", "push-location"):
            state.dir_stack = (*state.dir_stack, state.dirs)
        state.dirs = (*state.dirs, _cd_target(args, shell))
        return
    if name in _POPD and alone:
        if state.dir_stack:
            state.dirs, state.dir_stack = state.dir_stack[-1], state.dir_stack[:-1]
        else:
            state.dirs = (*state.dirs, "<popd>")
        return
    if name == "set" and shell == "bash":
        _set_options(state, command, text, alone)
        return
    if name in ("export", "declare", "typeset") and shell == "bash" and alone:
        _exports(state, command)
    if shell == "bash" and name == "alias":
        for word in args:  # `alias pytest=true`: an alias shadows the program when aliases expand
            state.shadowed = state.shadowed | {(word.value or word.text).split("=", 1)[0]}
    if shell == "bash" and name == "hash" and len(args) >= 3 and args[0].value == "-p":
        state.shadowed = state.shadowed.union(w.value or w.text for w in args[2:])
    if state.risk is None:
        state.risk = risk_of(command, shell, after_or, text, state)


def _set_options(state: ShellState, command: Command, text: str, alone: bool) -> None:
    """``set -o pipefail`` / ``set -euo pipefail`` / ``set +o pipefail`` (options end at ``--``
    or the first operand: ``set -- -o pipefail`` sets positional parameters)."""
    values = [w.value or "" for w in command.words[1:]]
    if not alone:
        return  # in a pipeline or in the background: a subshell's options
    for number, value in enumerate(values):
        if value == "--" or value[:1] not in ("-", "+"):
            return
        if value.endswith("o") and values[number + 1 : number + 2] == ["pipefail"]:
            on = value[0] == "-"
            if on and state.posix_sh and state.risk is None:
                state.risk = reason("early-exit", command.span, "dash", piece=excerpt(text, command.span))
            state.pipefail = on
            state.maybe_pipefail = on
        if (not value.startswith("--") and "e" in value[1:]) or (
                value.endswith("o") and values[number + 1 : number + 2] == ["errexit"]):
            state.errexit = value[0] == "-"


def _exports(state: ShellState, command: Command) -> None:
    """``export NAME=value`` (and ``declare -x``): the assignment reaches every later command."""
    words = [word.value for word in command.words[1:]]
    if (command.words[0].value or "") != "export" and "-x" not in words:
        return
    found = tuple(value for value in words if value is not None and "=" in value and not value.startswith("-"))
    if found:
        state.exports = (*state.exports, *found)


def _pwsh_environment(state: ShellState, command: Command, text: str) -> None:
    """``$env:NAME = "value"``: the variable reaches every later native command."""
    target = command.assignments[0].text if command.assignments else ""
    if not target.lower().startswith("$env:"):
        return
    value = text[command.assignments[0].span.end : command.span.end].strip().lstrip("=").strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        value = value[1:-1]
    state.exports = (*state.exports, f"{target[5:]}={value}")


def risk_of(command: Command, shell: str, after_or: bool, text: str, state: ShellState | None = None) -> Reason | None:
    """A reason if ``command`` can end the script before a later check decides the status."""
    head = command.words[0].value if command.words else None
    if head is None:
        return None
    head = program_name(head) if shell == "pwsh" else head
    if state is not None and head in state.risky_functions:
        return state.risky_functions[head]
    if head not in _RISKY_HEADS and not is_wrapper(head):
        return None  # the common case, decided without unwrapping
    unwrapped = unwrap(command.words, shell)
    argv = unwrapped.argv or command.words  # `command exit 0`, `builtin exit`
    if not argv or argv[0].value is None:
        return None
    if shell == "bash" and unwrapped.argv and any(w.value == "exec" for w in unwrapped.wrappers):
        return reason("early-exit", command.span, "exec", piece=excerpt(text, command.span))
    name = argv[0].value.lower() if shell == "pwsh" else argv[0].value
    if name in _EXITS:
        if after_or and _failure_exit(argv):
            return None  # `cd dir || exit 1`: ends the script only failing, when the check cannot run
        return reason("early-exit", command.span, "exit", piece=excerpt(text, command.span))
    if shell != "bash":
        return None
    if name == "trap" and len(argv) > 2:
        action = argv[1].value if argv[1].value is not None else argv[1].text
        if _EXITING_ACTION.search(action):
            return reason("exit-trap", command.span, piece=excerpt(text, command.span))
    if name in ("source", ".") and len(argv) > 1 and (command.opaque or argv[1].value in ("/dev/stdin", "-")):
        return reason("early-exit", command.span, "source", piece=excerpt(text, command.span))
    if state is not None and name in state.risky_functions:
        return state.risky_functions[name]
    return None


def _failure_exit(argv: tuple[Word, ...]) -> bool:
    """``exit 1`` (any literal non-zero), or a bare ``exit``/``exit $?``: the status stays non-zero."""
    if len(argv) == 1 or (argv[0].value or "").lower() == "throw":
        return True
    argument = argv[1].text
    if argument.isdigit():
        return int(argument) % 256 != 0
    return argument in ("$?", '"$?"', "${?}", "$LASTEXITCODE", "$lastexitcode")


def risk_inside(script: Script, shell: str, text: str) -> Reason | None:
    """The first risk in a compound command's body (subshells excepted: they exit only themselves)."""
    for index, statement in enumerate(script.statements):
        after_or = index > 0 and script.statements[index - 1].op == "||"
        for command in statement.pipeline.commands:
            if command.kind == "simple" and command.words:
                risk = risk_of(command, shell, after_or, text)
            elif command.kind != "subshell" and command.body is not None:
                risk = risk_inside(command.body, shell, text)
            else:
                risk = None
            if risk is not None:
                return risk
    return None


def exit_propagates(command: Command, shell: str) -> bool:
    """``exit $?`` / ``exit $LASTEXITCODE`` (or a bare ``exit`` in bash): leave with the last status."""
    if command.kind != "simple" or not command.words or (command.words[0].value or "").lower() != "exit":
        return False
    if len(command.words) > 2:
        return False
    argument = command.words[1].text if len(command.words) > 1 else None
    if shell == "pwsh":
        return argument is not None and argument.lower() == "$lastexitcode"
    return argument is None or argument in ("$?", '"$?"', "${?}")


def exits_with_status(statement: Statement, shell: str) -> bool:
    """A lone statement that leaves with the last status (see :func:`exit_propagates`)."""
    commands = statement.pipeline.commands
    return len(commands) == 1 and statement.pipeline.negation is None and exit_propagates(commands[0], shell)


def pipestatus_exit(command: Command) -> int | None:
    """``N`` for ``exit ${PIPESTATUS[N]}``: leave with the status of one command of the last pipeline."""
    if command.kind != "simple" or len(command.words) != 2 or command.words[0].value != "exit":
        return None
    match = _PIPESTATUS.match(command.words[1].text)
    return int(match.group(1)) if match else None


def word_text(word: Word) -> str:
    """A word's value, or its text when only run time knows it (outer double quotes dropped)."""
    if word.value is not None:
        return word.value
    text = word.text
    if len(text) >= 2 and text[0] == text[-1] == '"':
        return text[1:-1]  # `cd "$DIR"`: show the expansion, not the quoting
    return text


def directory(parts: tuple[str, ...]) -> str | None:
    """Where a sequence of ``cd`` targets leads, relative to the start (``None``: nowhere)."""
    path = ""
    for part in parts:
        piece = part.replace("\\", "/")
        if piece.startswith("<maybe "):
            path = path + "/" + piece if path else piece  # uncertain, but after where we were
        elif piece.startswith(("/", "~", "$", "<")) or _DRIVE.match(piece) or not path:
            path = piece
        else:
            path = path + "/" + piece
    if not path:
        return None
    if "<" in path or ("." not in path and "//" not in path and not path.endswith("/")):
        return path  # nothing for normpath to fold (the common `cd api`)
    normal = posixpath.normpath(path)
    return None if normal == "." else normal


def _cd_target(args: list[Word], shell: str) -> str:
    if shell == "pwsh":
        for number, word in enumerate(args):
            if (word.value or "").lower() in ("-path", "-literalpath") and number + 1 < len(args):
                return word_text(args[number + 1])
    operands = [a for a in args if not (a.value or a.text).startswith("-") or (a.value or "") == "-"]
    if not operands:
        return "~"
    return word_text(operands[0]) if (operands[0].value or "") != "-" else "<previous directory>"
