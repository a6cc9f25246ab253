"""What a line writes before its check, and whether that is something the check reads.

A check's status is its own only if what runs is what the check's name promises. A line that puts a
program where the check's is found (``printf '#!/bin/sh\\nexit 0' > pytest; chmod +x pytest;
PATH=.:$PATH pytest``), replaces the script the check runs, or writes the check's configuration or
plugins (``printf '[pytest]\\naddopts = --co' > pytest.ini && pytest``) decides the status itself.
Every write the line makes before the check is collected — redirects, the operands of the programs
that write files (:data:`_TARGETS`), trap actions — and the check is refused when one of them is:

- a file named like the check's program or a program that runs it (a wrapper's, a shell's: ``uv``
  in ``uv run pytest``), wherever it is (a ``PATH`` entry may lead there), or the module ``python
  -m`` runs;
- one of the files its family reads at start-up (:data:`._configs.CONFIGS`), or a file one of its
  configuration options names (``pytest -c my.ini``: :data:`CONFIG_OPTIONS`) — not its operands,
  the files it checks: an agent writes a test and runs it, and what it edits is the tracker's business;
- inside a virtual environment the line activated;
- code the line carries that may write anything (``python -c``, ``python - <<'EOF'``, ``node -e``,
  ``perl -e``, an ``awk`` program that redirects or runs commands, a ``sed`` script with a ``w``
  command), or a target the line names that only run time knows (``> "$out"``): either may be the
  check's configuration;
- or a write the analysis cannot list (a target only run time knows, a program that writes what its
  data says: ``tar x``, ``git checkout``) when the line also changes ``PATH``.

Programs and scripts already on disk are the toolchain: what they write is the tracker's business,
as any edit is.
"""


import posixpath
from typing import NamedTuple

from ._configs import CONFIGS, STARTUP_FILES
from ._effects import GIT_WORKSPACE
from ._model import Command, Span, Word
from ._patterns import lazy
from ._wrappers import program_name


class Written(NamedTuple):
    """One write the line makes."""

    target: str | None
    """The path written, or ``None`` when the analysis cannot list it."""
    span: Span
    """The text that writes it."""
    code: str | None = None
    """Inline code that may write anything (``python -c CODE``)."""
    spelled: bool = False
    """The line names the target, but only run time knows it (``> "$out"``, ``tee "$f"``)."""
    link: bool = False
    """The target is a link (``ln``), which may lead anywhere: to ``/dev/stdin`` too."""


_TARGETS: dict[str, str] = {
    "tee": "operands", "touch": "operands", "truncate": "operands", "mkdir": "operands", "rm": "operands",
    "rmdir": "operands", "unlink": "operands", "chmod": "after-first", "chown": "after-first", "chgrp": "after-first",
    "cp": "copy", "mv": "copy", "install": "copy", "ln": "copy", "sed": "in-place", "dd": "of",
    "curl": "output", "wget": "output", "tar": "unknown", "unzip": "unknown", "patch": "unknown", "rsync": "copy",
    "git": "git",
}
"""Programs that write files, and how their targets are read from their words."""
_INLINE: dict[str, tuple[str, ...]] = {
    "python": ("-c",), "node": ("-e", "--eval", "-p", "--print"), "perl": ("-e", "-E"), "ruby": ("-e",),
    "php": ("-r",), "deno": ("eval",), "bun": ("-e", "--eval"),
}
"""Interpreters and the options with which they run code written in the line."""
_VALUE_OPTIONS = {"chmod": ("--reference",), "cp": ("-t", "--target-directory", "-S", "--suffix"),
                  "mv": ("-t", "--target-directory", "-S", "--suffix"), "ln": ("-t", "--target-directory", "-S"),
                  "install": ("-t", "--target-directory", "-m", "--mode", "-o", "-g", "-S")}


def redirect_written(word: Word | None, span: Span) -> Written:
    """The write of a redirect to ``word``."""
    value = word.value if word is not None else None
    return Written(value, span, spelled=value is None)


def _named(value: str | None, span: Span) -> Written:
    """A write to a target the line names (``None``: only run time knows it)."""
    return Written(value, span, spelled=value is None)


def program_writes(command: Command, argv: tuple[Word, ...], text: str) -> list[Written]:
    """The files the program ``argv`` (wrappers removed) writes, as its words say."""
    name = program_name(argv[0].value or "")
    if name.startswith("python") or name in _INLINE:
        return _inline(command, argv, "python" if name.startswith("python") else name, text)
    if name in ("awk", "gawk", "mawk", "nawk"):
        program = next((word for word in argv[1:] if not (word.value or "-").startswith("-")), None)
        if program is not None and "-f" not in [word.value for word in argv[1:]] and _AWK_WRITE.search(
                program.value or program.text):
            return [Written(None, command.span, program.value or program.text)]
        return []
    how = _TARGETS.get(name)
    if how is None:
        return []
    span = command.span
    words = argv[1:]
    if how == "git":
        return [Written(None, span)] if any(word.value in GIT_WORKSPACE for word in words[:2]) else []
    if how == "unknown":
        return [Written(None, span)]
    operands = _operands(words, _VALUE_OPTIONS.get(name, ()))
    if how == "operands":
        return [_named(value, span) for value in operands]
    if how == "after-first":
        return [_named(value, span) for value in operands[1:]]
    if how == "copy":
        found = _copied(words, operands, span)
        return [write._replace(link=True) for write in found] if name == "ln" else found
    if how == "in-place":
        script = _sed_writes(words)
        if script is not None:
            return [Written(None, span, script)]
        in_place = any((word.value or "").startswith(("-i", "--in-place")) or (
            (word.value or "")[:1] == "-" and "i" in (word.value or "")[1:] and not (word.value or "").startswith("--"))
            for word in words)
        return [_named(value, span) for value in operands[1:]] if in_place else []
    if how == "of":
        return [Written(word.value[3:] if word.value else None, span) for word in words
                if word.value is None or word.value.startswith("of=")]
    return _output(words, span)


_SED_WRITE = lazy(r"(?:^|[;\n{}])\s*(?:\d+|/[^/]*/|\$)?,?\S*\s*[wW]\s|s(.).*?\1.*?\1[gpIi0-9]*w")
"""A ``sed`` command that writes a file: ``w FILE`` (or ``W``), or the ``w`` flag of ``s///w FILE``."""
_AWK_WRITE = lazy(r"[>|]|system|close|fflush")
"""What lets an ``awk`` program write a file or run a command."""


def _sed_writes(words: tuple[Word, ...]) -> str | None:
    """The script of a ``sed`` whose script writes a file (``None`` when it writes none)."""
    scripts = [words[index + 1].value or "" for index, word in enumerate(words[:-1]) if word.value in ("-e",
                                                                                                       "--expression")]
    if not scripts:
        operands = [word for word in words if not (word.value or "").startswith("-")]
        scripts = [operands[0].value or operands[0].text] if operands else []
    found = [script for script in scripts if _SED_WRITE.search(script)]
    return found[0] if found else None


def _operands(words: tuple[Word, ...], value_options: tuple[str, ...]) -> list[str | None]:
    operands: list[str | None] = []
    skip, ended = False, False
    for word in words:
        value = word.value
        if skip:
            skip = False
            continue
        if not ended and value == "--":
            ended = True
        elif not ended and value is not None and value.startswith("-") and value != "-":
            skip = value in value_options
        else:
            operands.append(value)
    return operands


def _copied(words: tuple[Word, ...], operands: list[str | None], span: Span) -> list[Written]:
    """``cp SRC… DEST`` (``-t DIR SRC…``): ``DEST``, and ``DEST/SRC`` when it is a directory."""
    values = [word.value for word in words]
    directory = None
    for index, value in enumerate(values):
        if value in ("-t", "--target-directory") and index + 1 < len(values):
            directory = values[index + 1]
        elif value is not None and value.startswith("--target-directory="):
            directory = value.partition("=")[2]
    if directory is None:
        if len(operands) < 2:
            return []
        directory, sources = operands[-1], operands[:-1]
    else:
        sources = operands
    found = [_named(directory, span)]
    for source in sources:
        base = posixpath.basename((source or "").rstrip("/")) if source is not None else None
        found.append(_named(posixpath.join(directory, base) if directory is not None and base else None, span))
    return found


def _output(words: tuple[Word, ...], span: Span) -> list[Written]:
    """``curl -o FILE``, ``wget -O FILE``; ``curl -O`` and plain ``wget`` name the file after the URL."""
    values = [word.value for word in words]
    for index, value in enumerate(values):
        if value in ("-o", "--output", "-O", "--output-document"):
            following = values[index + 1] if index + 1 < len(values) else None
            if value == "-O" and (following is None or following.startswith(("http:", "https:"))):
                return [Written(None, span)]
            return [Written(following, span)]
    return [Written(None, span)]


def _inline(command: Command, argv: tuple[Word, ...], name: str, text: str) -> list[Written]:
    """Inline code (``python -c CODE``, ``python - <<'EOF'``): it may write anything."""
    options = _INLINE[name]
    for index, word in enumerate(argv[1:], start=1):
        if word.value in options:
            code = argv[index + 1] if index + 1 < len(argv) else None
            return [Written(None, command.span, code.value or code.text if code is not None else "")]
        if word.value is not None and not word.value.startswith("-") and word.value != "-":
            return []  # a script file: the toolchain's
    for redirect in command.redirects:
        if redirect.body is not None and redirect.op in ("<<", "<<-"):
            return [Written(None, command.span, text[redirect.body.start : redirect.body.end])]
        if redirect.op == "<<<" and redirect.target is not None:
            return [Written(None, command.span, redirect.target.text)]
    return []


def rewritten(writes: list[Written], *, programs: tuple[str, ...], family: str, module: str | None,
              words: tuple[Word, ...], activated: tuple[str, ...], path_changed: bool) -> Written | None:
    """The first of ``writes`` that writes what the check reads (see the module docstring):
    ``programs`` are the words that run it (the wrappers' and shells' programs, then its own:
    ``uv run pytest`` runs ``uv``, which runs ``pytest``), ``module`` the one ``python -m`` runs,
    ``words`` its other words, ``activated`` the virtual environments' scripts sourced,
    ``path_changed`` whether the line changes ``PATH``."""
    if not writes:
        return None
    names = {*map(program_name, programs), *CONFIGS.get(family, ())}
    if module:
        names |= {module, f"{module}.py"}
    named = _configured(words)
    names |= {f"{posixpath.basename(path)}.py" for path in named}  # `pytest -p plugin` imports plugin.py
    venvs = tuple(_normal(posixpath.dirname(posixpath.dirname(script))) for script in activated)
    for write in writes:
        target = write.target
        if target is None:
            if path_changed or write.code is not None or write.spelled:
                return write  # inline code, or a name only run time knows, may be the check's configuration
            continue
        path = _normal(target)
        base = posixpath.basename(path)
        if base in names or path in named or any(path == venv or path.startswith(venv + "/") for venv in venvs):
            return write
    return None


CONFIG_OPTIONS = frozenset({
    "-c", "--config", "--config-file", "--configfile", "--rcfile", "--settings", "-p", "--project", "-f", "--file",
    "--makefile", "--rootdir", "--confcutdir", "--init-script", "--tsconfig", "--plugin", "--require", "-r",
    "--setup-files", "--globalSetup", "--setupFiles", "--manifest-path", "--resolve-plugins-relative-to",
})
"""Options whose value names a file a check reads as configuration or plugin (``pytest -c my.ini``,
``make -f ci.mk``, ``mocha --require setup.js``); its operands are what it checks, not how."""


def _configured(words: tuple[Word, ...]) -> set[str]:
    """The paths the check's configuration options name."""
    found: set[str] = set()
    for index, word in enumerate(words):
        value = word.value or ""
        option, equals, attached = value.partition("=")
        if equals and option in CONFIG_OPTIONS:
            found.add(_normal(attached))
        elif value in CONFIG_OPTIONS and index + 1 < len(words) and words[index + 1].value is not None:
            found.add(_normal(words[index + 1].value or ""))
    return found


def linked(writes: list[Written]) -> frozenset[str]:
    """The paths the line made links at (and their basenames), as paths are compared."""
    found = {_normal(write.target) for write in writes if write.link and write.target is not None}
    return frozenset(found | {posixpath.basename(path) for path in found})


def startup_written(writes: list[Written]) -> Written | None:
    """The first of ``writes`` a login shell could read: a startup file, or a write not listed."""
    for write in writes:
        if write.target is None or posixpath.basename(_normal(write.target)) in STARTUP_FILES:
            return write
    return None


def _normal(path: str) -> str:
    """``./a//b/`` as ``a/b``: the form paths are compared in."""
    normal = posixpath.normpath(path) if path else path
    return normal.removeprefix("./")

