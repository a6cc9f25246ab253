"""What one statement does to the shell that runs it, applied to a :class:`ShellState`.

A statement runs in this shell only when it is alone (not in a pipeline, not backgrounded):
then ``cd``, ``set``, ``shopt``, ``alias``, ``trap``, ``hash``, ``enable``, ``unset``, ``export -f``
change what later lines mean. Anything that can end the script, or runs code that cannot be
read, is a *risk* wherever it runs (a pipeline's last command may run here under ``lastpipe``;
``kill $$`` reaches this shell from anywhere). Within an ``&&``/``||`` list, what an earlier
statement did is sure for a later one only when every operator between them is the same
(``a && cd api && check``); otherwise it may or may not have happened.
"""

from __future__ import annotations

import re
from types import MappingProxyType

from ._builtins import BASH_BUILTINS
from ._model import Command, Statement, Word
from ._options import set_changes, shopt_changes
from ._patterns import lazy
from ._prelude import activation, assignment_problem, unproven
from ._reasons import reason
from ._shellstate import ShellState, excerpt, word_text
from ._status import always_succeeds, keeps_saved, may_assign_ifs, may_be_unset, refers, zeroes
from ._traps import trap_of
from ._wrappers import program_name

_CD = frozenset({"cd", "chdir", "pushd", "set-location", "sl", "push-location"})
_POPD = frozenset({"popd", "pop-location"})
_EXITS = frozenset({"exit", "return", "logout", "throw"})
_SAME_SHELL = frozenset({"command", "builtin"})
_DECLARING = frozenset({"export", "declare", "typeset", "local", "readonly"})
_ASSIGNED = lazy(r"^[A-Za-z_][A-Za-z0-9_]*\+?=")
_INHERITED = lazy(r"(?:^|[\s'\"])(?:BASH_ENV|ENV|SHELLOPTS|BASHOPTS|BASH_FUNC_\w*)(?:[=+\[%\s'\"]|$)")
_INHERITED_NAMES = ("BASH_ENV", "ENV", "SHELLOPTS", "BASHOPTS", "BASH_FUNC_")
_INHERITED_STARTS = frozenset("BES'\"")
_SETTING = frozenset({"export", "declare", "typeset", "local", "readonly", "read", "printf", "mapfile", "readarray",
                      "getopts", "let", "unset"})
"""Builtins that set (or unset) the variables their arguments name."""
_SHADOWING_ARRAYS = lazy(r"^(BASH_ALIASES|BASH_CMDS)(?:\[([^]]*)\])?\+?=")
_JOB = lazy(r"^%\d*$|^%[%+-]$")
_ACTING = frozenset({"alias", "hash", "enable", "trap", "kill", "mapfile", "readarray", "source", ".", "suspend",
                     "eval", "exec", *_EXITS})
"""Commands :func:`_anywhere` has something to say about (the others neither redefine nor end anything)."""
_CHANGING = frozenset({"cd", "pushd", "popd", "set", "shopt", "unset", "export", "declare", "typeset", "local",
                       "readonly"})
"""Builtins :func:`_in_this_shell` has something to say about."""


def update(state: ShellState, statements: tuple[Statement, ...], index: int, end: int, *, shell: str,
           text: str) -> None:
    """Apply what ``statements[index]`` does to the shell for the statements after it; ``end`` is
    the index of the last statement of its ``&&``/``||`` list."""
    statement = statements[index]
    before = statements[index - 1].op if index > 0 else None
    after = statement.op
    conditional = before in ("&&", "||")
    if conditional and state.list_base is None:
        state.list_base = state.copy()
    commands = statement.pipeline.commands
    alone = len(commands) == 1 and statements[end].op != "&"
    if not state.ifs_changed and shell == "bash" and may_assign_ifs(statement, text):
        state.ifs_changed = True  # arithmetic may assign any variable its expressions or values name
    if state.zeroed:  # `rc=0` holds until a line may change `rc`
        state.zeroed = frozenset(name for name in state.zeroed
                                 if all(keeps_saved(c, frozenset({name}), state, text) for c in commands))
    if shell == "bash" and state.maybe_errexit and not state.errexit_ignored and state.fail_first is None \
            and not (len(commands) == 1 and (always_succeeds(commands[0], state) or _cannot_fail(commands[0]))):
        span = statement.pipeline.span  # under `set -e`, a failure here ends the script with its status
        state.fail_first = reason("may-not-run", span, "errexit", piece=excerpt(text, span))
    if state.nounset and shell == "bash" and state.fail_first is None:
        span = statement.pipeline.span  # under `set -u`, `echo $undefined` ends the script failing
        if may_be_unset(text[span.start : span.end]):
            state.fail_first = reason("may-not-run", span, "nounset", piece=excerpt(text, span))
    if index == end and state.jobs >= 0 and (statements[end].op == "&" or (
            len(commands) == 1 and commands[0].words and commands[0].words[0].text == "coproc")):
        state.jobs += 1  # a job of this shell: `wait %N` counts them
    last = len(commands) - 1
    for position, command in enumerate(commands):
        if command.kind == "simple":
            if not (command.words or command.assignments):
                continue
            if alone or position < last or not state.lastpipe or statements[end].op == "&":
                apply(state, command, shell=shell, text=text, here=alone, after_or=before == "||")
            else:
                _maybe(state, command, shell=shell, text=text, after_or=before == "||")
        elif command.kind == "function" and command.words:
            define(state, command, text)
        elif command.kind == "assignment" and shell == "pwsh" and alone:
            _pwsh_environment(state, command, text)
    base = state.list_base
    if base is None:
        return
    if after not in ("&&", "||"):
        state.list_base = None
        state.maybe(base)  # after the list, its conditional part may or may not have run
    elif after != before:
        # `a && b || c`: when `c` runs, `b` may not have run. (What the list did so far is sure for
        # a later statement only across one operator: `a && cd api && check`.)
        state.maybe(base)


def _cannot_fail(command: Command) -> bool:
    """``set``, ``shopt``, ``export`` with static words, and plain assignments: no failure to stop on."""
    if command.kind != "simple" or command.opaque or command.redirects:
        return False
    if not command.words:
        return True
    return command.words[0].value in ("set", "shopt", "export", "trap", "alias", "unset") \
        and all(word.value is not None for word in command.words)


def _maybe(state: ShellState, command: Command, *, shell: str, text: str, after_or: bool) -> None:
    """Apply ``command`` as code that may or may not run in this shell."""
    changed = state.copy()
    apply(changed, command, shell=shell, text=text, here=True, after_or=after_or)
    changed.maybe(state)
    state.assign(changed)


def define(state: ShellState, command: Command, text: str) -> None:
    """``name() { …; }``: calls to ``name`` now run this body."""
    name = command.words[0].value or command.words[0].text
    state.functions = MappingProxyType({**state.functions, name: command})
    if state.allexport:
        state.exported = state.exported | {name}
    if name == "command_not_found_handle":
        state.shadow({"*"})  # it decides the status of every program that is not installed
    if name in state.trap_names:
        state.flag(reason("exit-trap", command.span, "redefined", piece=excerpt(text, command.span)))


def apply(state: ShellState, command: Command, *, shell: str, text: str, here: bool, after_or: bool) -> None:
    """Apply one simple command to ``state`` (``here``: it runs in this shell)."""
    if shell != "bash":
        _apply_pwsh(state, command, text=text, here=here, after_or=after_or)
        return
    if command.assignments:
        _assignments(state, command, text)
    words = command.words
    if not words:
        return
    head = words[0].value
    if head is None:
        state.flag(reason("early-exit", command.span, "dynamic", piece=excerpt(text, command.span)))
        return
    if head in state.functions:
        if head in BASH_BUILTINS:  # `set() { :; }; set -o pipefail`: the builtin no longer runs
            state.flag(reason("shadowed", words[0].span, piece=head))
        return  # the analysis followed the call into the function's body, in this shell
    if state.redefines(head):
        state.flag(reason("shadowed", words[0].span, piece=head))
        return
    while len(words) > 1 and (head in _SAME_SHELL or (head == "time" and words[0].text == "time")):
        # `command cd x`, `builtin set -e`, `time set +o pipefail`: the builtin itself, in this shell
        rest = words[1:]
        while head == "time" and rest and rest[0].value in ("-p", "--"):
            rest = rest[1:]
        if not rest or rest[0].value is None or rest[0].value.startswith("-"):
            break
        words = rest
        head = words[0].value or ""
    if head in _SETTING:
        _named(state, command, words[1:], text)
    if here and head in _CHANGING:
        _in_this_shell(state, command, head, words[1:], text)
    if head in _ACTING:
        _anywhere(state, command, head, words[1:], text=text, after_or=after_or)
    if here and head in BASH_BUILTINS and state.risk is None:
        why = unproven(state, head, words[1:])
        if why is not None:
            state.flag(reason("unproven", command.span, piece=excerpt(text, command.span), why=why))


def _assignments(state: ShellState, command: Command, text: str) -> None:
    """``NAME=value`` words: the shell's alias and command tables, what child shells inherit, and
    which variables now hold a literal 0."""
    for word in command.assignments:
        if word.text.startswith("IFS"):
            state.ifs_changed = True
        if word.text.startswith("PATH") and not command.words:
            state.path_changed = True
        why = assignment_problem(word) if state.risk is None else None
        if why is not None:
            state.flag(reason("unproven", word.span, piece=excerpt(text, word.span), why=why))
        match = _SHADOWING_ARRAYS.match(word.text) if word.text.startswith("BASH_") else None
        if match is not None:
            _shadowing_array(state, match, word.text)
        elif _INHERITED.search(word.text):
            state.flag(reason("early-exit", word.span, "environment", piece=excerpt(text, word.span)))
    if command.words:
        return
    zero = zeroes(command)
    names = {word.text.partition("=")[0].partition("[")[0] for word in command.assignments}
    state.zeroed = (state.zeroed - names) | ({zero} if zero else set())


def _named(state: ShellState, command: Command, args: tuple[Word, ...], text: str) -> None:
    """``export BASH_ENV=…``, ``read SHELLOPTS``: a builtin that sets a variable child shells act on
    (or ``IFS``, which can split an unquoted ``exit $rc`` away, or the alias and command tables)."""
    if any("IFS" in word.text for word in args):
        state.ifs_changed = True
    if any("BASH_ALIASES" in word.text or "BASH_CMDS" in word.text for word in args):
        state.shadow({"*"})  # `declare -A BASH_ALIASES=([pytest]=true)`, `read -a BASH_CMDS`: any name
    for word in args:
        if word.text[:1] in _INHERITED_STARTS and word.text.lstrip("'\"").startswith(_INHERITED_NAMES) \
                and _INHERITED.search(word.text):
            state.flag(reason("early-exit", command.span, "environment", piece=excerpt(text, command.span)))
            return


def _shadowing_array(state: ShellState, match: re.Match[str], text: str) -> None:
    """``BASH_ALIASES[pytest]=true``, ``BASH_CMDS[pytest]=/bin/true``: an alias or a hashed path."""
    key = match.group(2)
    names = {key} if key and re.fullmatch(r"[\w.+-]+", key) else {"*"}
    if match.group(1) == "BASH_ALIASES" and "*" not in names:
        state.aliases = state.aliases | names
    else:
        state.shadow(names)
    if names & state.trap_names or ("*" in names and state.trap_names):
        state.flag(reason("exit-trap", None, "redefined", piece=text))


def _in_this_shell(state: ShellState, command: Command, head: str, args: tuple[Word, ...], text: str) -> None:
    """What a builtin changes in the shell it runs in: directory, options, names."""
    if head in ("cd", "pushd"):
        if head == "pushd":
            state.dir_stack = (*state.dir_stack, state.dirs)
        state.dirs = (*state.dirs, _cd_target(list(args), "bash"))
    elif head == "popd":
        _popd(state)
    elif head == "set":
        if state.positional is not None and any(word.value is None or not word.value.startswith(("-", "+"))
                                                or word.value in ("-", "--") for word in args):
            state.positional = None  # `set -- true`: the function's "$@" is no longer the call's words
        changes = set_changes(args)
        _options(state, command, text, changes, set_options=True)
    elif head == "shopt":
        found = shopt_changes(args)
        _options(state, command, text, found[0] if found else None, set_options=bool(found and found[1]))
    elif head == "unset" and not (args and args[0].value == "-v"):
        _unset(state, args)
    if head in ("export", "declare", "typeset"):
        _exports(state, head, args)
    if head in ("declare", "typeset", "local") and refers(args):
        state.references = True
    if head in _DECLARING and any((w.value or "").startswith("-") and "f" in (w.value or "") for w in args):
        exported = head == "export" or any("x" in (w.value or "") for w in args if (w.value or "").startswith("-"))
        if exported:
            state.exported = state.exported | {w.value for w in args if w.value and not w.value.startswith("-")}


def _exports(state: ShellState, head: str, args: tuple[Word, ...]) -> None:
    """``export NAME=value`` (and ``declare -x``): the assignment reaches every later command."""
    words = [word.value for word in args]
    if head != "export" and "-x" not in words:
        return
    if any(word.text.startswith("PATH=") for word in args):
        state.path_changed = True
    found = tuple(value for value in words if value is not None and "=" in value and not value.startswith("-"))
    # An assignment whose value only run time knows (`export TOK="$(cat .token)"`) is kept as written,
    # as `TOK="$(cat .token)" pytest` keeps it in front of the check: either way it is part of identity.
    hidden = tuple(word.text for word in args if word.value is None and _ASSIGNED.match(word.text))
    if found or hidden:
        state.exports = (*state.exports, *found, *hidden)


def _pwsh_environment(state: ShellState, command: Command, text: str) -> None:
    """``$env:NAME = "value"``: the variable reaches every later native command."""
    target = command.assignments[0].text if command.assignments else ""
    if not target.lower().startswith("$env:"):
        return
    value = text[command.assignments[0].span.end : command.span.end].strip().lstrip("=").strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        value = value[1:-1]
    state.exports = (*state.exports, f"{target[5:]}={value}")


def _unset(state: ShellState, args: tuple[Word, ...]) -> None:
    """``unset -f NAME`` removes a function; ``unset NAME`` removes a variable NAME, or the function
    when there is no such variable: then the name may or may not still be one."""
    surely = bool(args) and args[0].value == "-f"
    names = {word.value for word in args if word.value and not word.value.startswith("-")}
    gone = names & set(state.functions)
    if gone:
        state.functions = MappingProxyType({n: d for n, d in state.functions.items() if n not in gone})
        if not surely:
            state.shadow(gone)


def _options(state: ShellState, command: Command, text: str, changes: list[tuple[str, bool]] | None, *,
             set_options: bool) -> None:
    piece = excerpt(text, command.span)
    if changes is None:  # `set $opts`: anything, `noexec` included
        state.maybe_pipefail = True
        state.pipefail = False
        state.flag(reason("early-exit", command.span, "source", piece=piece))
        return
    for name, on in changes:
        if name == "pipefail" and set_options:
            if on and state.posix_sh:
                state.flag(reason("early-exit", command.span, "dash", piece=piece))
            state.pipefail = state.maybe_pipefail = on
        elif name == "errexit" and set_options:
            state.errexit = on
            state.maybe_errexit = state.maybe_errexit or on
        elif name in ("noexec", "onecmd") and on and set_options:
            state.flag(reason("early-exit", command.span, name, piece=piece))
        elif name == "nounset" and on and set_options:
            state.nounset = True
        elif name == "allexport" and on and set_options:
            state.allexport = True
        elif on and not set_options and name in ("expand_aliases", "extdebug", "lastpipe"):
            setattr(state, name, True)
            if name == "extdebug" and state.debug_trap:
                state.flag(reason("exit-trap", command.span, "extdebug", piece=piece))


def _popd(state: ShellState) -> None:
    if state.dir_stack:
        state.dirs, state.dir_stack = state.dir_stack[-1], state.dir_stack[:-1]
    else:
        state.dirs = (*state.dirs, "<popd>")


def _anywhere(state: ShellState, command: Command, head: str, args: tuple[Word, ...], *, text: str,
              after_or: bool) -> None:
    """What a command does wherever it runs: names it redefines, ways it can end the script."""
    piece = excerpt(text, command.span)
    values = [word.value for word in args]
    if head == "alias":
        names = {(w.value or "*").split("=", 1)[0] for w in args if not _option(w)}
        state.aliases = state.aliases | names
        if names & state.trap_names or ("*" in names and state.trap_names):
            state.flag(reason("exit-trap", command.span, "redefined", piece=piece))
    elif head == "hash":
        state.shadow(hashed(args))
    elif head == "enable":
        state.shadow({v if v is not None else "*" for v in values if v is None or not v.startswith("-")})
    elif head == "trap":
        _trap(state, command, args, piece)
    elif head == "kill" and not _signals_jobs(values):
        found = reason("early-exit", command.span, "kill", piece=piece)
        state.escape = state.escape or found
        state.flag(found)
    elif head in ("mapfile", "readarray") and any(v is None or v.startswith("-C") for v in values):
        state.flag(reason("early-exit", command.span, "source", piece=piece))
    elif head in ("source", ".") and activation(args) is not None:
        state.activated = (*state.activated, str(activation(args)))  # a virtual environment's own script
    elif head in ("source", ".", "suspend") or (head == "eval" and None in values):
        state.flag(reason("early-exit", command.span, "source" if head != "suspend" else "exit", piece=piece))
    elif head == "exec" and any(not _option(w) for w in args):
        state.flag(reason("early-exit", command.span, "exec", piece=piece))
    elif head in _EXITS:
        _exit(state, command, head, args, piece=piece, after_or=after_or)


def hashed(args: tuple[Word, ...]) -> set[str]:
    """The names ``hash ARGS`` binds to a path of its choosing (``-p PATH``, also attached and in a
    cluster: ``-p/bin/true``, ``-tp PATH``); ``*`` when an option is known only at run time."""
    index, path = 0, False
    while index < len(args):
        value = args[index].value
        if value is None:
            return {"*"}
        if value == "--" or not value.startswith("-") or len(value) == 1:
            index += value == "--"
            break
        letters = value[1:]
        if "p" in letters:
            path = True
            index += 1 if letters.index("p") < len(letters) - 1 else 2  # the path attached, or the next word
        else:
            index += 1
    if not path:
        return set()
    return {word.value or "*" for word in args[index:]}


def _signals_jobs(values: list[str | None]) -> bool:
    """``kill [-SIG] %1 …``: only job specs are signalled (a pid may be this shell's own, ``$$``)."""
    rest = list(values)
    if rest[:1] in (["-l"], ["-L"]):
        return True
    if rest[:1] in (["-s"], ["-n"]):
        rest = rest[2:]
    elif rest and rest[0] is not None and rest[0].startswith("-") and rest[0] != "--":
        rest = rest[1:]
    if rest[:1] == ["--"]:
        rest = rest[1:]
    return bool(rest) and all(value is not None and _JOB.match(value) for value in rest)


def _option(word: Word) -> bool:
    return (word.value or "").startswith("-")


def _trap(state: ShellState, command: Command, args: tuple[Word, ...], piece: str) -> None:
    trap = trap_of(args)
    if trap.harmful or any(state.redefines(name) for name in trap.names):
        state.flag(reason("exit-trap", command.span, piece=piece))
    state.trap_names = state.trap_names | trap.names
    if trap.debug:
        state.debug_trap = True
        if state.extdebug:
            state.flag(reason("exit-trap", command.span, "extdebug", piece=piece))


def _exit(state: ShellState, command: Command, head: str, args: tuple[Word, ...], *, piece: str,
          after_or: bool) -> None:
    if after_or and failure_exit(head, args):
        # `cd dir || exit 1`: ends the script only failing, when the check could not run anyway
        if state.fail_first is None:
            state.fail_first = reason("may-not-run", command.span, "exit", piece=piece)
        return
    state.flag(reason("early-exit", command.span, "exit", piece=piece))


def failure_exit(head: str, args: tuple[Word, ...]) -> bool:
    """``exit 1`` (any literal non-zero), or a bare ``exit``/``exit $?``: the status stays non-zero."""
    if not args or head.lower() == "throw":
        return True
    argument = args[0].text
    if argument.isdigit():
        return int(argument) % 256 != 0
    return argument in ("$?", '"$?"', "${?}", "$LASTEXITCODE", "$lastexitcode")


def _apply_pwsh(state: ShellState, command: Command, *, text: str, here: bool, after_or: bool) -> None:
    """PowerShell: ``Set-Location``/``Push-Location``/``Pop-Location``, and ``exit``/``throw``."""
    if command.kind != "simple" or not command.words or command.words[0].value is None:
        return
    name = program_name(command.words[0].value)
    args = command.words[1:]
    if here and name in _CD:
        if name in ("pushd", "push-location"):
            state.dir_stack = (*state.dir_stack, state.dirs)
        state.dirs = (*state.dirs, _cd_target(list(args), "pwsh"))
    elif here and name in _POPD:
        _popd(state)
    elif name in _EXITS:
        _exit(state, command, name, args, piece=excerpt(text, command.span), after_or=after_or)


def _cd_target(args: list[Word], shell: str) -> str:
    if shell == "pwsh":
        for number, word in enumerate(args):
            if (word.value or "").lower() in ("-path", "-literalpath") and number + 1 < len(args):
                return word_text(args[number + 1])
    operands = [a for a in args if not (a.value or a.text).startswith("-") or (a.value or "") == "-"]
    if not operands:
        return "~"
    return word_text(operands[0]) if (operands[0].value or "") != "-" else "<previous directory>"
