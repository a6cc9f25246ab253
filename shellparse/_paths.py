"""Compound statements that surely take one path: a one-iteration ``for``, a ``case`` arm that
surely matches, an ``if`` whose condition surely succeeds (or whose ``else`` surely fails).

Such a statement's status is the status of the last command on that path, so a check alone
there keeps its status. Anything that can take another path stays masked: a loop over several
words (or a glob, which may match any number of files) can hide an earlier failure; a ``case``
that matches nothing, and an ``if`` whose condition fails with no ``else``, report 0 without
running the check at all (bash: ``if [ -d missing ]; then pytest; fi`` exits 0).
"""

from typing import NamedTuple

from ._inert import plain_expansions
from ._model import Command, Span, Statement, Word
from ._shellstate import ShellState
from ._status import always_succeeds, exit_form

_GLOB = frozenset("*?[{\\")
_TRUE = frozenset({"true", ":"})
_TESTS = frozenset({"[", "test", "[["})
_TERMINATORS = frozenset({";;", ";&", ";;&"})


class Path(NamedTuple):
    """The statements a compound statement surely runs, and why."""

    statements: tuple[Statement, ...]
    """The statements on the path, in order; the last one's status is the construct's."""
    where: str
    """What kind of path it is, for the reason."""
    otherwise: Span | None = None
    """Where the ``else`` branch that runs instead (and fails) is, when there is one."""
    replaces: tuple[Statement, ...] = ()
    """The statements of the body the path stands for, when they are not its own statements (``if
    check; then :; else exit $?; fi`` runs as ``check || exit $?``)."""


def single_path(command: Command, state: ShellState) -> Path | None:
    """The one path ``command`` surely takes, or ``None``."""
    if command.body is None:
        return None
    if command.kind == "for":
        return _for(command)
    if command.kind == "case":
        return _case(command)
    if command.kind == "if":
        return _if(command, state)
    return None


def _between(command: Command, start: int, end: int) -> tuple[Statement, ...]:
    assert command.body is not None
    return tuple(s for s in command.body.statements if start <= s.pipeline.span.start < end)


def _for(command: Command) -> Path | None:
    words = command.words[1:]  # after the loop variable
    if len(words) != 2 or words[0].text != "in" or words[1].value is None or _GLOB & set(words[1].text):
        return None  # no `in` (the positional parameters), several words, or a word that may expand to many
    assert command.body is not None
    return Path(command.body.statements, "a `for` over one word")


def _case(command: Command) -> Path | None:
    """The arm a ``case`` surely takes: the first whose pattern surely matches, every earlier one
    surely not. A subject only run time knows (``"$CI"``, plain parameters only) surely matches
    ``*`` alone."""
    words = command.words
    if not words or (words[0].value is None and not plain_expansions(words[0].text)):
        return None
    subject = words[0].value
    for patterns, opening, terminator in _arms(words[1:]):
        matches = [_matches(pattern, subject) for pattern in patterns]
        if True not in matches and None in matches:
            return None  # a pattern the analysis does not evaluate: the arm taken is unknown
        if any(matches):
            if terminator is not None and terminator.text != ";;":
                return None  # `;&` and `;;&` go on into the next arm
            end = terminator.span.start if terminator is not None else command.span.end
            return Path(_between(command, opening.span.end, end), "a `case` arm that surely matches")
    return None  # no arm matches: `case` reports 0 and runs nothing


def _arms(words: tuple[Word, ...]) -> list[tuple[list[Word], Word, Word | None]]:
    arms: list[tuple[list[Word], Word, Word | None]] = []
    patterns: list[Word] = []
    opening: Word | None = None
    for word in words:
        if word.text == ")" and opening is None:
            opening = word
        elif word.text in _TERMINATORS and opening is not None:
            arms.append((patterns, opening, word))
            patterns, opening = [], None
        elif opening is None:
            patterns.append(word)
    if opening is not None:
        arms.append((patterns, opening, None))
    return arms


def _matches(pattern: Word, subject: str | None) -> bool | None:
    if pattern.text == "*":
        return True
    if pattern.value is None or subject is None or _GLOB & set(pattern.text):
        return None
    return pattern.value == subject


def _if(command: Command, state: ShellState) -> Path | None:
    keywords = [word for word in command.words if word.text in ("if", "then", "elif", "else", "fi")]
    texts = [word.text for word in keywords]
    if texts[:2] != ["if", "then"] or "elif" in texts or texts[-1] != "fi":
        return None
    condition = _between(command, keywords[0].span.end, keywords[1].span.start)
    branch_end = keywords[2].span.start
    branch = _between(command, keywords[1].span.end, branch_end)
    if texts == ["if", "then", "else", "fi"]:
        leaving = _leaving_on_failure(command, condition, branch, keywords, state)
        if leaving is not None:
            return leaving
    if _surely_true(condition, state):
        return Path(branch, "an `if` whose condition surely succeeds")
    if texts[2] != "else" or not _read_only(condition, state):
        return None  # without `else`, a failing condition reports 0 and the check never runs
    otherwise = _between(command, keywords[2].span.end, keywords[3].span.start)
    if not _surely_fails(otherwise, state):
        return None
    span = Span(keywords[2].span.start, keywords[3].span.start)
    return Path(branch, "an `if` whose `else` surely fails", span)


def _leaving_on_failure(command: Command, condition: tuple[Statement, ...], branch: tuple[Statement, ...],
                        keywords: list[Word], state: ShellState) -> Path | None:
    """``if check; then :; else exit $?; fi``: a condition of one command, a ``then`` branch that
    surely succeeds and an ``else`` that leaves with the condition's status run as ``check || exit
    $?`` — the status is the check's either way."""
    otherwise = _between(command, keywords[2].span.end, keywords[3].span.start)
    leave = _simple(otherwise)
    succeed = _simple(branch)
    if len(condition) != 1 or len(condition[0].pipeline.commands) != 1 or condition[0].pipeline.negation is not None \
            or condition[0].op not in (";", "\n", None) or leave is None or len(leave) != 1 or succeed is None:
        return None
    form = exit_form(leave[0], state=state)
    if form is None or form.kind != "last" or state.redefines("exit") or not all(
            always_succeeds(item, state) and item.words[0].value != "exit" for item in succeed):
        return None
    check = condition[0]._replace(op="||", op_span=keywords[2].span)
    exit_statement = otherwise[0]._replace(op=None, op_span=None)
    return Path((check, exit_statement), "an `if` that leaves with its condition's failing status",
                replaces=(*condition, *branch, *otherwise))


def _simple(statements: tuple[Statement, ...]) -> list[Command] | None:
    commands = [s.pipeline.commands[0] for s in statements if len(s.pipeline.commands) == 1
                and s.pipeline.negation is None and s.op in (";", "\n", None)]
    if len(commands) != len(statements) or any(c.kind != "simple" or not c.words for c in commands):
        return None
    return commands


def _surely_true(condition: tuple[Statement, ...], state: ShellState) -> bool:
    commands = _simple(condition)
    return commands is not None and len(commands) == 1 and not commands[0].opaque \
        and commands[0].words[0].value in _TRUE and not state.redefines(commands[0].words[0].value or "")


def _read_only(condition: tuple[Statement, ...], state: ShellState) -> bool:
    """Tests (``[ -d api ]``, ``[[ -f x ]]``, ``test -n "$CI"``) that change nothing."""
    commands = _simple(condition)
    if not commands:
        return False
    return all(c.words[0].value in _TESTS and not c.opaque and not c.redirects and not c.assignments
               and not state.redefines(c.words[0].value or "") for c in commands)


def _surely_fails(otherwise: tuple[Statement, ...], state: ShellState) -> bool:
    """``else exit 1; fi`` (messages before it allowed): the branch ends the script failing."""
    commands = _simple(otherwise)
    if not commands:
        return False
    *before, last = commands
    form = exit_form(last)
    head = last.words[0].value or ""
    if state.redefines(head) or not ((form is not None and form.kind == "code") or (head == "false" and
                                                                                    len(last.words) == 1)):
        return False
    return all(always_succeeds(command, state) and command.words[0].value != "exit" for command in before)
