"""A shell that reads its script from standard input: ``bash <<'EOF' … EOF``, ``bash -s <<< '…'``.

The script is what the shell reads, and three things can make that differ from the text of the
here-document: with an unquoted delimiter this shell expands ``$?``, ``$(…)``, backquotes and
variables in the body first (``bash <<EOF`` + ``pytest; exit $?`` exits with *this* shell's
``$?``); a later redirect replaces standard input (``bash <<'EOF' </dev/null``); and a command
in the script that reads standard input (``read``, ``cat``, anything not known to leave it alone)
swallows the lines after it, which then never run.
"""

from __future__ import annotations

from ._builtins import BASH_BUILTINS, FILTERS, QUIET_PROGRAMS, STDIN_PATHS, STDIN_READERS
from ._model import Command, Redirect, Script, Span, Word
from ._offsets import Frame
from ._patterns import lazy
from ._quoting import bash_unquote
from ._reasons import reason
from ._results import Reason
from ._shellstate import excerpt
from ._wrappers import Nested, program_name, unwrap

_STDIN_OPS = frozenset({"<", "<<", "<<-", "<<<", "<&", "<>"})
_QUIET_BUILTINS = BASH_BUILTINS - STDIN_READERS - {"command", "builtin", "trap"}
"""Builtins that never read standard input (``command`` and ``builtin`` run another, judged apart)."""


def stdin_script(command: Command, shell: Nested, text: str, frame: Frame | None = None
                 ) -> tuple[Nested, Reason | None] | None:
    """The script ``shell`` reads from the command's standard input, and a reason when what it
    reads can differ from that text; ``None`` when the script is not in the command line. ``frame``:
    the command string the command is in, when it is in one (its text is not the outer text's)."""
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
        if frame is not None:
            body, positions = frame.piece(redirect.body)
        else:
            body, positions = text[start:end], [*range(start, end), end]
        quoted = any(char in redirect.target.text for char in "'\"\\")
        if problem is None and not quoted and any(char in body for char in "$`\\"):
            span = Span(redirect.span.start, end)
            problem = reason("stdin-script", span, "expanded", piece=excerpt(text, redirect.span))
        return _read(shell, body, positions), problem
    if redirect.op == "<<<" and redirect.target is not None:
        unquoted = bash_unquote(redirect.target.text, redirect.target.span.start)
        if unquoted is not None:
            string, positions = unquoted
            if frame is not None:
                positions = frame.located(positions, (redirect.target.span.start,))
            return _read(shell, string, positions), problem
    return None


def _read(shell: Nested, text: str, positions: list[int]) -> Nested:
    """``shell`` reading ``text`` instead of its standard input."""
    return Nested(text=text, positions=positions, shell=shell.shell, via=shell.via, options=shell.options, stdin=False)


def _feeds_stdin(redirect: Redirect) -> bool:
    return redirect.op in _STDIN_OPS and redirect.fd in (None, "0")


def readers(script: Script, links: frozenset[str] = frozenset()) -> list[Command]:
    """The commands of ``script`` that may read its standard input (and so the rest of a script
    read from there): every first command of a pipeline not proven to leave it alone. ``links``: the
    paths the line made links at before (``ln -s /dev/stdin in.txt``), which a program may read."""
    found: list[Command] = []
    stack = [script]
    while stack:
        current = stack.pop()
        for statement in current.statements:
            for position, command in enumerate(statement.pipeline.commands):
                stack.extend(opaque.body for opaque in command.opaque if opaque.body is not None)
                reads = _input(command.redirects)
                if reads == "other":
                    continue  # its input is a file or a here-document: nothing it runs reads the script
                if reads == "script" or (position == 0 and _may_read(command, stack, links)):
                    found.append(command)
    return found


def _input(redirects: tuple[Redirect, ...]) -> str:
    """Where a command's input comes from: ``other`` (a file, a here-document, closed),
    ``script`` (a copy of standard input: ``3<&0``, ``cat </dev/stdin``, ``<&3``), or ``inherited``."""
    verdict = "inherited"
    for redirect in redirects:
        target = redirect.target.value if redirect.target is not None else None
        feeds = _feeds_stdin(redirect)
        if not feeds and redirect.op in ("<&", ">&", "<", "<>") and (target == "0" or target in STDIN_PATHS):
            return "script"  # another descriptor made a copy of standard input, which can be read later
        if not feeds:
            continue
        closed = redirect.op in ("<<", "<<-", "<<<") or (redirect.op == "<&" and target == "-")
        if not closed and not (redirect.op in ("<", "<>") and target is not None and target not in STDIN_PATHS):
            return "script"
        verdict = "other"
    return verdict


def _may_read(command: Command, stack: list[Script], links: frozenset[str]) -> bool:
    """Whether ``command`` (first in its pipeline, its input inherited) may read it."""
    if command.kind == "function":
        return False  # a definition runs nothing; a call is a command name this module does not know
    if command.body is not None:
        stack.append(command.body)
        return False
    if command.kind != "simple" or not command.words:
        return False
    argv = unwrap(command.words, "bash")
    if argv.nested is not None or argv.problem is not None:
        return True  # another shell, reading the same input
    words = argv.argv
    head = words[0].value if words else None
    if head is None:
        return bool(words)
    name = program_name(head)
    if name == "trap" and head == "trap":
        return _trap_reads(words[1:])
    if name in _QUIET_BUILTINS and head == name:
        return False
    if name in QUIET_PROGRAMS and not (name == "date" and any(
            (word.value or "-").startswith(("-f", "--file")) for word in words[1:])):
        # `cp /dev/stdin copy.txt`, `ln -s /dev/stdin x` (then `cat x`): a word naming the input
        return any(word.value == "-" or may_name_input(word.value, links) for word in words[1:])
    rule = FILTERS.get(name)
    return rule is None or not _named_files(rule, words[1:], links)


def _trap_reads(args: tuple[Word, ...]) -> bool:
    """A trap set in a script read from standard input: its action may read it too."""
    action = next((word for word in args if word.value != "--"), None)
    if action is None or action.value is None:
        return action is not None
    from ._bash import parse_bash  # only a script read from standard input with a trap in it needs it

    return bool(readers(parse_bash(action.value)))


def _named_files(rule: tuple[tuple[str, ...], int], args: tuple[Word, ...], links: frozenset[str]) -> bool:
    """Whether a filter (``cat``, ``grep PATTERN``, ``sed SCRIPT``) is given files to read, none of
    them standard input: then it does not read its own."""
    value_options, leading = rule
    operands: list[str | None] = []
    skip = False
    for word in args:
        value = word.value
        if skip:
            skip = False
            continue
        if value is None:
            operands.append(None)
        elif value.startswith("-") and value != "-":
            option = value if value.startswith("--") else value[:2]
            if option.partition("=")[0] in value_options:
                skip = value == option  # the value is the next word unless attached (`-n1`, `--lines=1`)
                if option in ("-e", "-f", "--expression", "--file", "--regexp"):
                    leading = 0  # the script or pattern came with the option: every operand is a file
        else:
            operands.append(value)
    files = operands[leading:]
    return bool(files) and not any(may_name_input(value, links) for value in files)


_DEVICE = lazy(r"(?:^|/)(?:dev|proc)(?:/|$)")
"""A path through ``/dev`` or ``/proc``, where standard input has names (``/dev/./stdin``, ``/proc/self/fd/0``)."""


def may_name_input(value: str | None, links: frozenset[str] = frozenset()) -> bool:
    """Whether a program's word may name its standard input: a path in :data:`STDIN_PATHS`, any other
    path through ``/dev`` or ``/proc`` but ``/dev/null``, a link the line made (``links``), or a word
    only run time knows."""
    if value is None or value in STDIN_PATHS:
        return True
    if links and (value.removeprefix("./") in links or value.rsplit("/", 1)[-1] in links):
        return True
    return value != "/dev/null" and _DEVICE.search(value) is not None
