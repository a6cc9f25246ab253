"""From an unwrapped argv to "this is check X of kind K", using the family table."""

from __future__ import annotations

import posixpath
from typing import NamedTuple

from ._families import (
    INTERPRETERS,
    PM_BUILTINS,
    PM_DIR_OPTIONS,
    PM_VALUE_OPTIONS,
    SCRIPT_RUNNERS,
    TEST_FILE,
    Family,
    family_for_module,
    family_for_program,
    kind_of,
    script_kind,
    strongest,
)
from ._model import Word
from ._wrappers import program_name

# Subcommands that are checks only with one of these flags (a formatter that only reports).
_SUBCOMMAND_REQUIRES = {
    ("ruff", "format"): ("--check", "--diff"),
    ("dotnet", "format"): ("--verify-no-changes",),
    ("cargo", "fmt"): ("--check",),
}
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
_RUNNER_VALUE_OPTIONS = ("-r", "--require", "-I", "--import", "-e", "--eval", "-c", "--loader", "--conditions",
                         "-d", "--define")


class Identified(NamedTuple):
    """A recognised check."""

    family: str
    """Family name from the table."""
    kind: str
    """``test``, ``typecheck``, ``lint`` or ``build``."""
    statement: tuple[str, ...]
    """The canonical argv: program name from the table, then the remaining arguments."""
    directories: tuple[Word, ...]
    """Directory options of the check itself (``make -C api``)."""
    fixes: bool
    """A flag makes the check rewrite files (``eslint --fix``)."""


def _text(word: Word) -> str:
    return word.value if word.value is not None else word.text


def identify(argv: tuple[Word, ...], shell: str) -> Identified | None:
    """Identify the check ``argv`` runs, if it runs one."""
    if not argv or argv[0].value is None:
        return None
    raw = argv[0].value
    name = program_name(raw)
    path_qualified = "/" in raw or "\\" in raw
    if INTERPRETERS.match(name) or name in SCRIPT_RUNNERS:
        return _interpreter(name, argv, shell)
    family = family_for_program(name)
    if family is None:
        if path_qualified and TEST_FILE.match(name):
            return Identified("test-script", "test", (_script_path(raw), *map(_text, argv[1:])), (), False)
        return None
    return _match(family, name, argv, shell)


def _interpreter(name: str, argv: tuple[Word, ...], shell: str) -> Identified | None:
    index = 1
    python = bool(INTERPRETERS.match(name))
    if name in ("deno", "bun"):
        family = family_for_program(name)
        return _match(family, name, argv, shell) if family is not None else None
    while index < len(argv):
        value = argv[index].value
        if value is None:
            return None
        if python and value.startswith("-m"):
            module = value[2:] or (argv[index + 1].value or "" if index + 1 < len(argv) else "")
            rest = argv[index + 1 :] if value[2:] else argv[index + 2 :]
            family = family_for_module(module)
            if family is None:
                return None
            head = MODULE_HEADS.get(module, (ALIASES.get(module, module),))
            return _match(family, module, (argv[index], *rest), shell, head)
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
        if TEST_FILE.match(script):
            return Identified("test-script", "test", (_script_path(value), *map(_text, argv[index + 1 :])), (),
                              False)
        return None
    return None


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


def _match(family: Family, name: str, argv: tuple[Word, ...], shell: str,
           head: tuple[str, ...] | None = None) -> Identified | None:
    args = argv[1:]
    if head is None:
        head = _head(family, name, argv[0])
    fixes = _has_flag(args, family.fix) if family.fix else False
    if family.style == "program":
        if family.requires and not _has_flag(args, family.requires):
            return None
        return Identified(family.name, family.kinds[0][1], (*head, *map(_text, args)), (), fixes)
    if family.style == "scripts":
        return _script(family, name, args)
    kept: list[str] = []
    directories: list[Word] = []
    words: list[tuple[str, int]] = []
    index = 0
    while index < len(args):
        word = args[index]
        value = _text(word)
        if value == "--":
            kept.extend(_text(w) for w in args[index:])
            break
        if value.startswith("-") and len(value) > 1 and not (family.style == "subcommand" and value == "--build"):
            option, _, attached = value.partition("=")
            takes_value = (option in family.value_options or option in family.dir_options) and not attached
            if option in family.dir_options:
                target = args[index + 1] if takes_value and index + 1 < len(args) else None
                if target is not None:
                    directories.append(target)
                index += 2 if takes_value else 1
                continue
            kept.append(value)
            if takes_value and index + 1 < len(args):
                kept.append(_text(args[index + 1]))
                index += 2
            else:
                index += 1
            continue
        if family.style == "subcommand" and value.startswith("+"):  # cargo +nightly
            kept.append(value)
            index += 1
            continue
        if family.style == "goals" and "=" in value and value.split("=", 1)[0].isidentifier():
            kept.append(value)  # `make CC=clang test`: a variable, not a goal
            index += 1
            continue
        words.append((value, len(kept)))
        kept.append(value)
        index += 1
        if family.style == "subcommand":
            kept.extend(_text(w) for w in args[index:])
            break
    kind: str | None
    if family.style == "subcommand":
        if not words:
            kind = kind_of("", family.kinds)
        else:
            sub = words[0][0]
            kind = kind_of(sub, family.kinds)
            if kind is None and family.name == "ruff" and ("/" in sub or "." in sub):
                kind = "lint"  # legacy `ruff path`: check
            required = _SUBCOMMAND_REQUIRES.get((family.name, sub))
            if kind is not None and required and not _has_flag(args, required):
                kind = None
            if kind is None and ("", "test") in family.kinds and family.name == "vitest":
                kind = "test" if sub.endswith((".ts", ".js", ".tsx", ".mts")) or "/" in sub else None
        if kind is None:
            return None
        return Identified(family.name, kind, (*head, *kept), tuple(directories), fixes)
    # goals
    kinds: list[str] = []
    for value, _ in words:
        goal = value.rsplit(":", 1)[-1] if family.name == "gradle" else value
        goal_kind = kind_of(goal, family.kinds)
        if goal_kind is not None:
            kinds.append(goal_kind)
    chosen = strongest(kinds)
    if chosen is None and not words and family.default:
        chosen = family.default
    if chosen is None:
        return None
    return Identified(family.name, chosen, (*head, *kept), tuple(directories), fixes)


def _script(family: Family, pm: str, args: tuple[Word, ...]) -> Identified | None:
    """``npm test``, ``pnpm --filter web run lint``, ``yarn workspace app build`` …"""
    value_options = PM_VALUE_OPTIONS.get(pm, ())
    dir_options = PM_DIR_OPTIONS.get(pm, ())
    kept: list[str] = []
    directories: list[Word] = []
    index = 0
    script: str | None = None
    while index < len(args):
        value = _text(args[index])
        if value.startswith("-") and len(value) > 1:
            option, _, attached = value.partition("=")
            takes_value = option in value_options and not attached
            if option in dir_options:
                if takes_value and index + 1 < len(args):
                    directories.append(args[index + 1])
                elif attached:
                    directories.append(Word(attached, attached, args[index].span))
                index += 2 if takes_value else 1
                continue
            kept.append(value)
            if takes_value and index + 1 < len(args):
                kept.append(_text(args[index + 1]))
            index += 2 if takes_value else 1
            continue
        if pm == "yarn" and value == "workspace" and index + 1 < len(args):
            kept.extend(("workspace", _text(args[index + 1])))
            index += 2
            continue
        if pm == "yarn" and value == "workspaces" and index + 1 < len(args) and args[index + 1].value == "foreach":
            kept.extend(("workspaces", "foreach"))
            index += 2
            while index < len(args) and _text(args[index]).startswith("-"):
                kept.append(_text(args[index]))
                index += 1
            continue
        if value in ("run", "run-script", "rum", "urn"):
            index += 1
            while index < len(args) and _text(args[index]).startswith("-"):
                kept.append(_text(args[index]))
                index += 1
            if index < len(args):
                script = _text(args[index])
                index += 1
            break
        if (value in ("test", "t", "tst") and pm != "bun") or (pm == "bun" and value == "test"):
            script = "test"
            index += 1
            break
        if pm != "npm" and value not in PM_BUILTINS:
            binary = family_for_program(program_name(value))
            if binary is not None and binary.style != "scripts":
                # `pnpm vitest run`, `yarn jest`: pnpm, yarn and bun run a package binary directly.
                head = Word(value, value, args[index].span)
                found = _match(binary, program_name(value), (head, *args[index + 1 :]), "bash")
                if found is not None:
                    return found._replace(directories=tuple(directories) + found.directories)
            script = value
            index += 1
            break
        return None
    if script is None:
        return None
    kind = script_kind(script)
    if kind is None:
        return None
    canonical_script = ("test",) if script in ("test", "t", "tst") else ("run", script)
    rest = [_text(word) for word in args[index:]]
    fixes = any(word in ("--fix", "--write") for word in rest)
    return Identified(family.name, kind, (pm, *kept, *canonical_script, *rest), tuple(directories), fixes)
