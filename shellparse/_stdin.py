"""A shell that reads its script from standard input: ``bash <<'EOF' … EOF``, ``bash -s <<< '…'``.

The script is what the shell reads, and three things can make that differ from the text of the
here-document: with an unquoted delimiter this shell expands ``$?``, ``$(…)``, backquotes and
variables in the body first (``bash <<EOF`` + ``pytest; exit $?`` exits with *this* shell's
``$?``); a later redirect replaces standard input (``bash <<'EOF' </dev/null``); and a command
in the script that reads standard input (``read``, ``cat``, anything not known to leave it alone)
swallows the lines after it, which then never run.
"""

from __future__ import annotations

from ._builtins import BASH_BUILTINS, QUIET_PROGRAMS, STDIN_READERS
from ._model import Command, Redirect, Script, Span
from ._quoting import bash_unquote
from ._reasons import reason
from ._results import Reason
from ._shellstate import excerpt
from ._wrappers import Nested

_STDIN_OPS = frozenset({"<", "<<", "<<-", "<<<", "<&", "<>"})
_QUIET_BUILTINS = BASH_BUILTINS - STDIN_READERS


def stdin_script(command: Command, shell: Nested, text: str) -> tuple[Nested, Reason | None] | None:
    """The script ``shell`` reads from the command's standard input, and a reason when what it
    reads can differ from that text; ``None`` when the script is not in the command line."""
    feeding = [redirect for redirect in command.redirects if _feeds_stdin(redirect)]
    if not feeding:
        return None
    redirect = feeding[0]
    problem = None
    if len(feeding) > 1:
        later = feeding[1]
        problem = reason("stdin-script", later.span, "replaced", piece=excerpt(text, later.span))
    if redirect.body is not None and redirect.op in ("<<", "<<-") and redirect.target is not None:
        start, end = redirect.body
        body = text[start:end]
        quoted = any(char in redirect.target.text for char in "'\"\\")
        if problem is None and not quoted and any(char in body for char in "$`\\"):
            span = Span(redirect.span.start, end)
            problem = reason("stdin-script", span, "expanded", piece=excerpt(text, redirect.span))
        return _read(shell, body, [*range(start, end), end]), problem
    if redirect.op == "<<<" and redirect.target is not None:
        unquoted = bash_unquote(redirect.target.text, redirect.target.span.start)
        if unquoted is not None:
            string, positions = unquoted
            return _read(shell, string, positions), problem
    return None


def _read(shell: Nested, text: str, positions: list[int]) -> Nested:
    """``shell`` reading ``text`` (``shell._replace(text=…, positions=…, stdin=False)``, built directly)."""
    return tuple.__new__(Nested, (text, positions, shell.shell, shell.via, shell.options, False))


def _feeds_stdin(redirect: Redirect) -> bool:
    return redirect.op in _STDIN_OPS and redirect.fd in (None, "0")


def readers(script: Script) -> list[Command]:
    """The commands of ``script`` that may read its standard input (and so the rest of a script
    read from there): every first command of a pipeline that is not a quiet builtin or program,
    and has no standard input of its own."""
    found: list[Command] = []
    stack = [script]
    while stack:
        current = stack.pop()
        for statement in current.statements:
            for position, command in enumerate(statement.pipeline.commands):
                if any(_feeds_stdin(redirect) for redirect in command.redirects):
                    continue
                stack.extend(opaque.body for opaque in command.opaque if opaque.body is not None)
                if command.body is not None and command.kind != "function":
                    stack.append(command.body)
                elif position == 0 and command.kind == "simple" and command.words and _may_read(command):
                    found.append(command)
    return found


def _may_read(command: Command) -> bool:
    head = command.words[0].value
    return head is None or (head not in _QUIET_BUILTINS and head not in QUIET_PROGRAMS)
