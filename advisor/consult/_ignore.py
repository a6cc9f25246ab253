"""``.gitignore`` rules, per directory, as git applies them (each line read by ``pathspec``).

A ``.gitignore`` is the workspace's, so whoever wrote it may have built a line to make a regular
expression backtrack (``*a*a*a*a*a*a*a*a*b`` takes minutes for one long name on the standard
library's engine, which ``pathspec`` matches with): each line's expression, as ``pathspec`` writes
it, runs here on the ``regex`` engine (which takes such lines in milliseconds), a line of many
wildcards with a time limit per name, and a line that cannot decide a name in time does not match it
(an ignore rule only spares the advisor noise: credential-shaped files are refused by the deny list,
not by ignores). The lines combine as ``pathspec``'s ``GitIgnoreSpec`` combines them: the last
matching line decides, but a directory's exclusion outranks a later file line's re-inclusion.
"""

from __future__ import annotations

import os
import warnings

import regex
from pathspec import GitIgnoreSpec, RegexPattern

from advisor.consult._files import read_small

IGNORE_FILE_BYTES = 1_000_000
"""A larger ``.gitignore`` (or one that is a pipe or a device) is not read."""

MATCH_SECONDS = 0.5
"""How long one ``.gitignore`` line may take to decide one name."""
_DIRECTORY_MARK = "ps_d"
"""The group ``pathspec``'s expression for a line sets when the line matched a directory above the name."""

_WILD = 3
"""Wildcards from which a line's expression is matched with a time limit (a limit costs a match eight
times its time; a line with fewer cannot backtrack far)."""

Rules = tuple[tuple[bool, "regex.Pattern[str]", float | None], ...]
"""A ``.gitignore``'s lines, in order: whether each ignores (or re-includes, ``!``), its expression, and
the time limit of one match (``None``: none needed)."""

Chain = tuple[tuple[Rules, int], ...]
"""The ``.gitignore`` rules that apply in a directory: each with how many characters of a
root-relative path name the directory it sits in (and the ``/`` after it)."""


class Ignores:
    """The ``.gitignore`` files met while walking down from a root, each applying below its directory.

    Paths are root-relative POSIX strings (``""`` for the root): a walk of a hundred thousand entries
    asks about each, so nothing here builds a ``Path``."""

    def __init__(self, root: str) -> None:
        self._root = root

    def chain(self, folder: str, above: Chain) -> Chain:
        """The rules in force in ``folder`` (root-relative), given those in force in its parent."""
        data = read_small(os.path.join(self._root, folder, ".gitignore"), IGNORE_FILE_BYTES)
        text = data.decode("utf-8", errors="replace") if data else ""
        if not text.strip():
            return above
        rules = read_rules(text.splitlines())
        return (*above, (rules, len(folder) + 1 if folder else 0)) if rules else above

    @staticmethod
    def ignored(chain: Chain, relative: str, is_dir: bool) -> bool:
        """Whether a root-relative path is ignored by the rules of the directories above it."""
        return any(_ignores(rules, relative[cut:] + ("/" if is_dir else "")) for rules, cut in chain)


def read_rules(lines: list[str]) -> Rules:
    """A ``.gitignore``'s lines as rules: blank lines and comments are none, and neither is a line git
    could not read either (a lone ``!`` or ``\\``: ``pathspec`` refuses the whole file for one)."""
    rules = []
    for line in lines:
        try:
            # A line like `[[]` compiles, with a FutureWarning about sets the standard library may
            # read differently one day; pathspec's expression is only read here, run on `regex`.
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", FutureWarning)
                patterns = GitIgnoreSpec.from_lines([line]).patterns
        except ValueError:
            continue
        bound = MATCH_SECONDS if sum(line.count(wildcard) for wildcard in "*?[") >= _WILD else None
        rules += [(pattern.include, regex.compile(pattern.regex.pattern), bound) for pattern in patterns
                  if isinstance(pattern, RegexPattern) and pattern.include is not None and pattern.regex is not None]
    return tuple(rules)


def _ignores(rules: Rules, name: str) -> bool:
    """Whether a file's lines ignore ``name``, as ``GitIgnoreSpec`` decides (see the module's docstring)."""
    decided, rank = False, 0
    for include, expression, bound in rules:
        try:
            found = expression.match(name) if bound is None else expression.match(name, timeout=bound)
        except TimeoutError:
            continue
        if found is None:
            continue
        directory = bool(found.groupdict().get(_DIRECTORY_MARK))
        priority = 1 if directory else 2
        if (include and directory) or priority >= rank:
            decided, rank = include, priority
    return decided
