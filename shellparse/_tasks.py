"""Task runners: ``mise run test``, ``just lint``, ``task build``, ``turbo run test``, ``nx run app:test``.

A task runner is a check when the task it is asked for names one, read like a package-manager
script's name (``test``, ``test:e2e``, ``lint``, ``check``, ``typecheck``, ``build`` …; see
:func:`._families.script_kind`). Formatting and fixing tasks (``fmt``, ``format``, ``lint-fix``)
are not checks; run together with a check (``just fmt lint``) they make it rewrite files.

The grammar of each runner is its row in the family table: the options that take a value, the
options that move it into a directory, the words that ask for a task (``run``), the program's
own commands (which are never tasks), and whether every word names a task.
"""

from typing import NamedTuple

from ._families import Family, rewrites, script_kind, strongest
from ._model import Word
from ._vocabulary import CheckKind

_SEPARATOR = ":::"
"""mise's separator between tasks run together (``mise run lint ::: test``)."""
_NX_TARGET_OPTIONS = ("-t", "--target", "--targets")


class TaskCheck(NamedTuple):
    """A task runner asked for a check."""

    kind: CheckKind
    statement: tuple[str, ...]
    """The runner's name, its options, ``run`` where it has a runner word, the tasks and their arguments."""
    directories: tuple[Word, ...]
    fixes: bool
    """A formatting or fixing task runs with it (``just fmt lint``)."""


def task_check(family: Family, head: tuple[str, ...], args: tuple[Word, ...]) -> TaskCheck | None:
    """The check a task runner's ``args`` ask for, if they ask for one."""
    kept: list[str] = []
    directories: list[Word] = []
    index = _options(family, args, 0, kept, directories)
    runner: tuple[str, ...] = ()
    if index < len(args):
        runner = _runner(family, args, index)
        index += len(runner)
    if family.name == "nx" and not runner:
        return _nx(family, head, args, index, kept, directories)
    if not runner and family.runner and index < len(args) and args[index].literal in family.builtins:
        return None  # `mise install`: the program's own command
    index = _options(family, args, index, kept, directories)
    tasks, rest = _tasks(family, args[index:])
    return _checked(tasks, (*head, *kept, *(("run",) if family.runner else ()), *rest), directories)


def _checked(tasks: list[str], statement: tuple[str, ...], directories: list[Word]) -> TaskCheck | None:
    kinds = [kind for kind in map(script_kind, tasks) if kind is not None]
    kind = strongest(kinds)
    if kind is None:
        return None
    return TaskCheck(kind, statement, tuple(directories), any(map(rewrites, tasks)))


def _options(family: Family, args: tuple[Word, ...], index: int, kept: list[str], directories: list[Word]) -> int:
    """Read the runner's options from ``args[index]``; the index of the first word that is not one."""
    while index < len(args):
        value = args[index].literal
        if not value.startswith("-") or value == "--" or len(value) == 1:
            return index
        option, _, attached = value.partition("=")
        takes_value = (option in family.value_options or option in family.dir_options) and not attached
        if option in family.dir_options:
            if takes_value and index + 1 < len(args):
                directories.append(args[index + 1])
            elif attached:
                directories.append(Word(attached, attached, args[index].span))
        else:
            kept.append(value)
            if takes_value and index + 1 < len(args):
                kept.append(args[index + 1].literal)
        index += 2 if takes_value else 1
    return index


def _runner(family: Family, args: tuple[Word, ...], index: int) -> tuple[str, ...]:
    """The runner words at ``args[index]`` (``run``, ``tasks run``), or ``()``."""
    for sequence in family.runner:
        if tuple(word.literal for word in args[index : index + len(sequence)]) == sequence:
            return sequence
    return ()


def _tasks(family: Family, words: tuple[Word, ...]) -> tuple[list[str], tuple[str, ...]]:
    """The task names among ``words`` (the words after the options), and every word as the statement keeps it."""
    values = tuple(word.literal for word in words)
    if not values or values[0].startswith("-"):
        return [], values
    if family.several:
        end = values.index("--") if "--" in values else len(values)
        return [value for value in values[:end] if not value.startswith("-") and "=" not in value], values
    tasks = [values[0]]
    for number, value in enumerate(values[:-1]):
        if value == _SEPARATOR:
            tasks.append(values[number + 1])
    return tasks, values


def _nx(family: Family, head: tuple[str, ...], args: tuple[Word, ...], index: int, kept: list[str],
        directories: list[Word]) -> TaskCheck | None:
    """``nx TARGET PROJECT``, ``nx run PROJECT:TARGET[:CONFIG]``, ``nx run-many -t T…``, ``nx affected -t T``."""
    if index >= len(args):
        return None
    values = tuple(word.literal for word in args[index:])
    command = values[0]
    statement = (*head, *kept, *values)
    if command == "run":
        target = next((value for value in values[1:] if not value.startswith("-")), "")
        parts = target.split(":")
        return _checked([parts[1]] if len(parts) > 1 else [], statement, directories)
    if command in ("run-many", "affected"):
        return _checked(_nx_targets(values[1:]), statement, directories)
    if command.startswith("affected:"):
        return _checked([command.partition(":")[2]], statement, directories)
    if command in family.builtins:
        return None
    return _checked([command], statement, directories)


def _nx_targets(values: tuple[str, ...]) -> list[str]:
    """The targets of ``-t a b``, ``--target=a``, ``--targets=a,b``."""
    targets: list[str] = []
    reading = False
    for value in values:
        option, _, attached = value.partition("=")
        if option in _NX_TARGET_OPTIONS:
            targets.extend(part for part in attached.split(",") if part)
            reading = not attached
        elif reading and not value.startswith("-"):
            targets.extend(part for part in value.split(",") if part)
        else:
            reading = False
    return targets
