"""What around a check's own command decides what runs: the name lookups of its words, the job a
``wait`` after it waits for, the arguments a function call hands its body, the environment a
child shell starts with, and the commands of a script read from standard input that read it too.
"""

from __future__ import annotations

from ._findings import Finding
from ._model import Command, Script, Statement, Word
from ._patterns import lazy
from ._reasons import reason
from ._results import Reason
from ._shellstate import ShellState, excerpt
from ._stdin import readers
from ._wrappers import Unwrapped

STARTUP_FILES = (".profile", ".bash_profile", ".bash_login", ".bashrc", ".zshenv", ".zprofile", ".zlogin", ".zshrc",
                  "HOME=", "ZDOTDIR")
"""Startup files a login shell or zsh reads, and what moves them: a command line naming one may write it."""
INHERITED = lazy(r"(?:BASH_ENV|ENV|SHELLOPTS|BASHOPTS|BASH_FUNC_\w*)[+]?=")




def redefined(unwrapped: Unwrapped, env: ShellState) -> list[Word]:
    """The words of a check's command that may not run what they name: the shell looks up the first
    one (and the one after the `time` keyword) among functions, aliases, `hash -p` and `enable`;
    after `command`, `builtin` or `exec` only `hash -p` and `enable` count; a program in front
    (`timeout`, `env` …) runs the next one itself, past all of them."""
    found: list[Word] = []
    if not (env.functions or env.shadowed or env.aliases):
        return found  # nothing is redefined (the common case)
    lookup = "shell"
    for word in (*unwrapped.wrappers, *unwrapped.argv[:1]):
        name = word.value
        if name is None or lookup == "none":
            break
        if (lookup == "shell" and env.redefines(name)) or (lookup == "path" and name in env.shadowed):
            found.append(word)
        if name in ("command", "builtin", "exec"):
            lookup = "path"
        elif name != "time":
            lookup = "none"
    return found


def waited(statements: tuple[Statement, ...], index: int, end: int, env: ShellState) -> bool:
    """``check & wait $!`` (or ``wait %N`` for its job), ``coproc check; wait $COPROC_PID``: the
    statement after the check's list waits for it and returns its status."""
    background = statements[end].op == "&"
    coproc = not background and index == end and _is_coproc(statements[index])
    if not (background or coproc) or end + 1 >= len(statements):
        return False
    wait = statements[end + 1].pipeline
    if len(wait.commands) != 1 or wait.negation is not None:
        return False
    command = wait.commands[0]
    if command.kind != "simple" or len(command.words) != 2 or command.words[0].value != "wait" \
            or env.redefines("wait") or command.redirects:
        return False
    target = command.words[1].text.strip('"')
    if target in (("$COPROC_PID", "${COPROC_PID}") if coproc else ("$!", "${!}", "%%", "%+")):
        return True
    return target == f"%{env.jobs + 1}" and env.jobs >= 0


def _is_coproc(statement: Statement) -> bool:
    commands = statement.pipeline.commands
    return len(commands) == 1 and commands[0].kind == "simple" and bool(commands[0].words) \
        and commands[0].words[0].text == "coproc" and statement.pipeline.negation is None


def spliced(argv: tuple[Word, ...], positional: tuple[Word, ...]) -> tuple[Word, ...]:
    """A function body's ``"$@"`` replaced by the call's arguments."""
    if not any(word.text in ('"$@"', "$@", '"${@}"') for word in argv):
        return argv
    out: list[Word] = []
    for word in argv:
        out.extend(positional if word.text in ('"$@"', "$@", '"${@}"') else (word,))
    return tuple(out)


def inherited(command: Command, unwrapped: Unwrapped, text: str) -> Reason | None:
    """``BASH_ENV=./x.sh bash -c …``, ``env SHELLOPTS=… bash``: the child shell starts by running
    something else."""
    shell = unwrapped.nested.via if unwrapped.nested is not None else None
    words = [*command.assignments, *(w for w in command.words if shell is None or w.span.start < shell.span.start)]
    for word in words:
        if INHERITED.match(word.value or word.text):
            return reason("early-exit", word.span, "environment", piece=excerpt(text, word.span))
    return None


def consumed(script: Script, findings: list[Finding], text: str) -> Reason | None:
    """A command of a script read from standard input, other than the check itself, that may read
    the rest of the script from there."""
    own = [finding.span for finding in findings]
    for command in readers(script):
        if not any(command.span.start <= span.start and span.end <= command.span.end for span in own):
            return reason("stdin-script", command.span, "consumed", piece=excerpt(text, command.span))
    return None
