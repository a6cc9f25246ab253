"""From an unwrapped argv to "this is check X of kind K", using the family table."""

import posixpath
from functools import lru_cache
from typing import NamedTuple

from ._families import (
    INTERPRETERS,
    PM_BUILTINS,
    PM_DIR_OPTIONS,
    PM_VALUE_OPTIONS,
    SCRIPT_RUNNERS,
    Family,
    family_for_module,
    family_for_program,
    is_test_script,
    kind_of,
    script_kind,
    strongest,
)
from ._model import Word
from ._patterns import lazy
from ._tasks import task_check
from ._vocabulary import CheckKind
from ._wrappers import program_name

# Subcommands that are checks only with one of these flags (a formatter that only reports).
_SUBCOMMAND_REQUIRES = {
    ("ruff", "format"): ("--check", "--diff"),
    ("dotnet", "format"): ("--verify-no-changes",),
    ("cargo", "fmt"): ("--check",),
    ("terraform", "fmt"): ("-check", "--check"),
}
# `test -z "$(gofmt -l .)"`: the listing formatters exit 0 either way, so a check of their output is the check.
_LISTING = lazy(r'^"?\$\((gofmt|goimports|gofumpt|shfmt|prettier)(\s+[^()`$;&|]*)?\)"?$')
_LISTING_FLAGS = {"gofmt": "-l", "goimports": "-l", "gofumpt": "-l", "shfmt": "-l", "prettier": "--list-different"}
# How a program is named in a statement when several names run the same tool.
ALIASES = {
    "py.test": "pytest", "pytest-3": "pytest", "gradlew": "gradle", "mvnw": "mvn", "mvnd": "mvn",
    "_mocha": "mocha", "gmake": "make", "bazelisk": "bazel", "bundler": "bundle",
    "invoke-pester": "Invoke-Pester", "invoke-scriptanalyzer": "Invoke-ScriptAnalyzer",
}
# `python -m unittest` has no program of its own to name it by.
MODULE_HEADS = {"unittest": ("python", "-m", "unittest")}
# Families whose "program" is a script of the project: the statement names it by its path.
SCRIPT_FAMILIES = frozenset({"runtests", "django", "artisan", "test-script"})
_new = tuple.__new__
_RUNNER_VALUE_OPTIONS = ("-r", "--require", "-I", "--import", "-e", "--eval", "-c", "--loader", "--conditions",
                         "-d", "--define")


class Identified(NamedTuple):
    """A recognised check."""

    family: str
    """Family name from the table."""
    kind: CheckKind
    """``test``, ``typecheck``, ``lint`` or ``build``."""
    statement: tuple[str, ...]
    """The canonical argv: program name from the table, then the remaining arguments."""
    directories: tuple[Word, ...]
    """Directory options of the check itself (``make -C api``)."""
    fixes: bool
    """A flag makes the check rewrite files (``eslint --fix``)."""


def _text(word: Word) -> str:
    return word.value if word.value is not None else word.text


@lru_cache(maxsize=1024)
def _is_python(name: str) -> bool:
    return INTERPRETERS.match(name) is not None


def identify(argv: tuple[Word, ...], shell: str) -> Identified | None:
    """Identify the check ``argv`` runs, if it runs one."""
    if not argv or argv[0].value is None:
        return None
    raw = argv[0].value
    name = program_name(raw)
    if name in SCRIPT_RUNNERS or _is_python(name):
        return _interpreter(name, argv, shell)
    if name in ("test", "[") and len(argv) >= 3 and argv[1].value == "-z":
        return _listing_test(argv)
    family = family_for_program(name)
    if family is None:
        if ("/" in raw or "\\" in raw) and is_test_script(raw):
            return Identified("test-script", "test", (_script_path(raw), *map(_text, argv[1:])), (), False)
        return None
    return _match(family, name, argv, shell)


def _listing_test(argv: tuple[Word, ...]) -> Identified | None:
    """``test -z "$(gofmt -l .)"`` / ``[ -z "$(gofmt -l .)" ]``: fails exactly when a file is unformatted."""
    closing = 1 if argv[0].value == "[" else 0
    if len(argv) != 3 + closing or (closing and argv[-1].value != "]"):
        return None
    found = _LISTING.match(argv[2].text)
    if found is None:
        return None
    program, words = found.group(1), (found.group(2) or "").split()
    if _LISTING_FLAGS[program] not in words and not (program == "prettier" and "-l" in words):
        return None
    return Identified("gofmt" if program.startswith("go") else program, "lint", (program, *words), (), False)


def _interpreter(name: str, argv: tuple[Word, ...], shell: str) -> Identified | None:
    index = 1
    python = _is_python(name)
    if name in ("deno", "bun"):
        family = family_for_program(name)
        return _match(family, name, argv, shell) if family is not None else None
    while index < len(argv):
        value = argv[index].value
        if value is None:
            return None
        if python and value.startswith("-m"):
            return _python_module(argv, index, shell)
        if value in ("-c", "-e", "--eval", "-") or (python and value.startswith("-c")):
            return None  # inline code
        if name == "node" and value == "--test":
            return Identified("node-test", "test", ("node", *map(_text, argv[1:])), (), False)
        if value.startswith("-"):
            takes_value = value in (("-W", "-X") if python else _RUNNER_VALUE_OPTIONS)
            index += 2 if takes_value else 1
            continue
        script = program_name(value)
        family = family_for_program(script)
        if family is not None:
            return _match(family, script, argv[index:], shell)
        if is_test_script(value):
            return Identified("test-script", "test", (_script_path(value), *map(_text, argv[index + 1 :])), (),
                              False)
        return None
    return None


def _python_module(argv: tuple[Word, ...], index: int, shell: str) -> Identified | None:
    """``python -m MODULE …`` (or ``-mMODULE``), the ``-m`` at ``argv[index]``."""
    value = argv[index].value or ""
    module = value[2:] or (argv[index + 1].value or "" if index + 1 < len(argv) else "")
    rest = argv[index + 1 :] if value[2:] else argv[index + 2 :]
    family = family_for_module(module)
    if family is None:
        return None
    head = MODULE_HEADS.get(module, (ALIASES.get(module, module),))
    return _match(family, module, (argv[index], *rest), shell, head)


def _has_flag(args: tuple[Word, ...], flags: tuple[str, ...]) -> bool:
    """Whether one of ``flags`` is among ``args`` (long flags also as ``--flag=value``)."""
    for word in args:
        value = word.value
        if value and value[0] == "-" and (value in flags or value.split("=", 1)[0] in flags):
            return True
    return False


def _script_path(value: str) -> str:
    """A project script named by its path, normalised (``./tests/runtests.py`` → ``tests/runtests.py``)."""
    return posixpath.normpath(value.replace("\\", "/"))


def _head(family: Family, name: str, argv0: Word) -> tuple[str, ...]:
    if family.name in SCRIPT_FAMILIES:
        return (_script_path(argv0.value or argv0.text),)
    return (ALIASES.get(name, name),)


class _Arguments(NamedTuple):
    """A check's arguments read by its family's options: what stays in the statement, which
    directories it moves into, and its non-option words."""

    kept: list[str]
    directories: list[Word]
    words: list[str]
    """Subcommands or goals, in order."""


def _match(family: Family, name: str, argv: tuple[Word, ...], shell: str,
           head: tuple[str, ...] | None = None) -> Identified | None:
    args = argv[1:]
    if head is None:
        head = _head(family, name, argv[0])
    fixes = _has_flag(args, family.fix) if family.fix else False
    if family.style == "program":
        if family.requires and not _has_flag(args, family.requires):
            return None
        return _new(Identified, (family.name, family.program_kind, (*head, *map(_text, args)), (), fixes))
    if family.style == "scripts":
        return _script(family, name, args)
    if family.style == "tasks":
        found = task_check(family, head, args)
        if found is None:
            return None
        return Identified(family.name, found.kind, found.statement, found.directories, found.fixes)
    arguments = _arguments(family, args)
    if family.style == "subcommand":
        kind = _subcommand_kind(family, args, arguments.words)
    else:
        kind = _goals_kind(family, arguments.words)
    if kind is None:
        return None
    return _new(Identified, (family.name, kind, (*head, *arguments.kept), tuple(arguments.directories), fixes))


def _arguments(family: Family, args: tuple[Word, ...]) -> _Arguments:
    """Read ``args`` by the family's options; a ``subcommand`` family stops at its first word."""
    kept: list[str] = []
    directories: list[Word] = []
    words: list[str] = []
    subcommand = family.style == "subcommand"
    index = 0
    while index < len(args):
        word = args[index]
        value = word.value if word.value is not None else word.text  # `_text`, inline: the hot loop
        if value == "--":
            kept.extend(map(_text, args[index:]))
            break
        if value.startswith("-") and len(value) > 1 and not (subcommand and value == "--build"):
            option, _, attached = value.partition("=")
            takes_value = (option in family.value_options or option in family.dir_options) and not attached
            if option in family.dir_options:
                target = args[index + 1] if takes_value and index + 1 < len(args) else None
                if target is not None:
                    directories.append(target)
            else:
                kept.append(value)
                if takes_value and index + 1 < len(args):
                    kept.append(_text(args[index + 1]))
            index += 2 if takes_value and (option in family.dir_options or index + 1 < len(args)) else 1
            continue
        kept.append(value)
        index += 1
        if subcommand and value.startswith("+"):  # cargo +nightly
            continue
        if family.style == "goals" and "=" in value and value.split("=", 1)[0].isidentifier():
            continue  # `make CC=clang test`: a variable, not a goal
        words.append(value)
        if subcommand:
            kept.extend(map(_text, args[index:]))
            break
    return _new(_Arguments, (kept, directories, words))


def _subcommand_kind(family: Family, args: tuple[Word, ...], words: list[str]) -> CheckKind | None:
    if not words:
        return kind_of("", family.kinds)
    sub = words[0]
    kind = kind_of(sub, family.kinds)
    if kind is None and family.name == "ruff" and ("/" in sub or "." in sub):
        kind = "lint"  # legacy `ruff path`: check
    required = _SUBCOMMAND_REQUIRES.get((family.name, sub))
    if kind is not None and required and not _has_flag(args, required):
        kind = None
    if kind is None and ("", "test") in family.kinds and family.name == "vitest":
        kind = "test" if sub.endswith((".ts", ".js", ".tsx", ".mts")) or "/" in sub else None
    return kind


def _goals_kind(family: Family, words: list[str]) -> CheckKind | None:
    """The most demanding goal's kind; the family's default when no goal is given."""
    kinds: list[CheckKind] = []
    for value in words:
        goal = value.rsplit(":", 1)[-1] if family.name == "gradle" else value
        goal_kind = kind_of(goal, family.kinds)
        if goal_kind is not None:
            kinds.append(goal_kind)
    chosen = strongest(kinds)
    if chosen is None and not words and family.default:
        chosen = family.default
    return chosen


class _ScriptCall(NamedTuple):
    """A package manager asked to run a script: which one, and the words around it."""

    script: str
    kept: list[str]
    """Options and workspace words before the script, as the statement keeps them."""
    directories: list[Word]
    rest: tuple[Word, ...]
    """The words after the script's name."""


def _script(family: Family, pm: str, args: tuple[Word, ...]) -> Identified | None:
    """``npm test``, ``pnpm --filter web run lint``, ``yarn workspace app build`` …"""
    call = _script_call(pm, args)
    if not isinstance(call, _ScriptCall):
        return call
    kind = script_kind(call.script)
    if kind is None:
        return None
    canonical_script = ("test",) if call.script in ("test", "t", "tst") else ("run", call.script)
    rest = [_text(word) for word in call.rest]
    fixes = any(word in ("--fix", "--write") for word in rest)
    return Identified(family.name, kind, (pm, *call.kept, *canonical_script, *rest), tuple(call.directories), fixes)


def _script_call(pm: str, args: tuple[Word, ...]) -> _ScriptCall | Identified | None:
    """The script ``pm`` is asked to run; or the check program pnpm, yarn or bun run directly."""
    kept: list[str] = []
    directories: list[Word] = []
    index = 0
    while index < len(args):
        value = _text(args[index])
        if value.startswith("-") and len(value) > 1:
            index = _pm_option(pm, args, index, kept, directories)
            continue
        if pm == "yarn" and value == "workspace" and index + 1 < len(args):
            kept.extend(("workspace", _text(args[index + 1])))
            index += 2
            continue
        if pm == "yarn" and value == "workspaces" and index + 1 < len(args) and args[index + 1].value == "foreach":
            kept.extend(("workspaces", "foreach"))
            index = _options_kept(args, index + 2, kept)
            continue
        if value in ("run", "run-script", "rum", "urn"):
            index = _options_kept(args, index + 1, kept)
            if index >= len(args):
                return None
            return _ScriptCall(_text(args[index]), kept, directories, args[index + 1 :])
        if (value in ("test", "t", "tst") and pm != "bun") or (pm == "bun" and value == "test"):
            return _ScriptCall("test", kept, directories, args[index + 1 :])
        if pm != "npm" and value not in PM_BUILTINS:
            binary = family_for_program(program_name(value))
            if binary is not None and binary.style != "scripts":
                # `pnpm vitest run`, `yarn jest`: pnpm, yarn and bun run a package binary directly.
                head = Word(value, value, args[index].span)
                found = _match(binary, program_name(value), (head, *args[index + 1 :]), "bash")
                if found is not None:
                    return found._replace(directories=tuple(directories) + found.directories)
            return _ScriptCall(value, kept, directories, args[index + 1 :])
        return None
    return None


def _pm_option(pm: str, args: tuple[Word, ...], index: int, kept: list[str], directories: list[Word]) -> int:
    """Read the package manager's option at ``args[index]``; the index after it (and its value)."""
    value = _text(args[index])
    option, _, attached = value.partition("=")
    takes_value = option in PM_VALUE_OPTIONS.get(pm, ()) and not attached
    if option in PM_DIR_OPTIONS.get(pm, ()):
        if takes_value and index + 1 < len(args):
            directories.append(args[index + 1])
        elif attached:
            directories.append(Word(attached, attached, args[index].span))
        return index + (2 if takes_value else 1)
    kept.append(value)
    if takes_value and index + 1 < len(args):
        kept.append(_text(args[index + 1]))
    return index + (2 if takes_value else 1)


def _options_kept(args: tuple[Word, ...], index: int, kept: list[str]) -> int:
    """Keep the options from ``args[index]`` on; the index of the first word that is not one."""
    while index < len(args) and _text(args[index]).startswith("-"):
        kept.append(_text(args[index]))
        index += 1
    return index
