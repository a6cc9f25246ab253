"""What around a check's own command decides what runs: the name lookups of its words, the job a
``wait`` after it waits for, the arguments a function call hands its body, the environment a
child shell starts with, and the commands of a script read from standard input that read it too.
"""

from __future__ import annotations

from ._configs import STARTUP_FILES
from ._findings import Finding
from ._model import Command, Script, Statement, Word
from ._patterns import lazy
from ._prelude import assignment_problem
from ._reasons import reason
from ._results import Reason
from ._shellstate import ShellState, excerpt
from ._status import keeps_saved
from ._stdin import readers
from ._wrappers import Unwrapped

STARTUP_MENTIONS = (*sorted(STARTUP_FILES), "HOME=", "ZDOTDIR")
"""What a command line naming may write a startup file a login shell or zsh reads: the files, and
what moves them."""
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


def waited(statements: tuple[Statement, ...], index: int, end: int, env: ShellState, text: str) -> int | None:
    """The statement that waits for the check's background job (or coprocess) and returns its
    status, if one does: ``check & wait $!``, ``wait %%`` or ``%+`` right after it; ``wait %1``,
    ``wait %-`` and ``wait -n`` when it is the only job this shell started; ``check & pid=$!; …; wait
    $pid`` with nothing in between that touches ``pid``; ``coproc check; wait $COPROC_PID``."""
    background = statements[end].op == "&"
    coproc = not background and index == end and _is_coproc(statements[index])
    if not (background or coproc) or end + 1 >= len(statements):
        return None
    saved = _saved_pid(statements[end + 1]) if background else None
    if saved is not None:
        return _wait_for(statements, end + 2, saved, env, text)
    target = _wait_target(statements[end + 1], env)
    if target is None:
        return None
    if target in (("$COPROC_PID", "${COPROC_PID}") if coproc else ("$!", "${!}", "%%", "%+")):
        return end + 1
    # No other job of this shell started before: `%1`, `%-` and `-n` can only be the check's. After
    # another job, the check's number depends on whether bash has cleaned the job table up since.
    if env.jobs == 0 and target in ("%1", "%-", "-n"):
        return end + 1
    return None


def _wait_target(statement: Statement, env: ShellState) -> str | None:
    """What ``wait TARGET`` (a statement of its own, the builtin itself) waits for."""
    wait = statement.pipeline
    if len(wait.commands) != 1 or wait.negation is not None or statement.op == "&":
        return None
    command = wait.commands[0]
    if command.kind != "simple" or len(command.words) != 2 or command.words[0].value != "wait" \
            or env.redefines("wait") or command.redirects or command.assignments:
        return None
    return command.words[1].text.strip('"')


def _saved_pid(statement: Statement) -> str | None:
    """``pid=$!``: the variable the job's process id is saved in."""
    commands = statement.pipeline.commands
    if len(commands) != 1 or statement.op in ("&", "&&", "||") or statement.pipeline.negation is not None:
        return None
    command = commands[0]
    if command.kind != "simple" or command.words or command.redirects or len(command.assignments) != 1:
        return None
    name, equals, value = command.assignments[0].text.partition("=")
    return name if equals and name.isidentifier() and value in ("$!", '"$!"', "${!}") else None


def _wait_for(statements: tuple[Statement, ...], start: int, name: str, env: ShellState, text: str) -> int | None:
    """The index of ``wait $name`` among ``statements[start:]``, every statement before it leaving
    ``name`` alone and unable to end the shell."""
    for index in range(start, len(statements)):
        target = _wait_target(statements[index], env)
        if target in (f"${name}", f"${{{name}}}"):
            return index
        statement = statements[index]
        if statement.op in ("&&", "||") or statement.pipeline.negation is not None or not all(
                keeps_saved(command, frozenset({name}), env, text) for command in statement.pipeline.commands):
            return None
    return None


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
        why = assignment_problem(word)
        if why is not None:  # `PS4='$((rc=0))' bash -xc '…'`: the child shell expands it
            return reason("unproven", word.span, piece=excerpt(text, word.span), why=why)
    return None


def consumed(script: Script, findings: list[Finding], text: str, links: frozenset[str] = frozenset()
             ) -> Reason | None:
    """A command of a script read from standard input, other than the check itself, that may read
    the rest of the script from there (``links``: the paths the line made links at before it)."""
    own = [finding.span for finding in findings]
    for command in readers(script, links):
        if not any(command.span.start <= span.start and span.end <= command.span.end for span in own):
            return reason("stdin-script", command.span, "consumed", piece=excerpt(text, command.span))
    return None
