"""``.gitignore`` rules, per directory, as git applies them (through ``pathspec``)."""

from __future__ import annotations

import os

from pathspec import GitIgnoreSpec

from advisor.consult._files import read_small

IGNORE_FILE_BYTES = 1_000_000
"""A larger ``.gitignore`` (or one that is a pipe or a device) is not read."""

Chain = tuple[tuple[GitIgnoreSpec, int], ...]
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
        return (*above, (GitIgnoreSpec.from_lines(text.splitlines()), len(folder) + 1 if folder else 0))

    @staticmethod
    def ignored(chain: Chain, relative: str, is_dir: bool) -> bool:
        """Whether a root-relative path is ignored by the rules of the directories above it."""
        return any(spec.match_file(relative[cut:] + ("/" if is_dir else "")) for spec, cut in chain)
