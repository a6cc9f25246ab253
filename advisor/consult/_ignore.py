"""``.gitignore`` rules, per directory, as git applies them (through ``pathspec``)."""

from __future__ import annotations

from pathlib import Path

from pathspec import GitIgnoreSpec

from advisor.consult._files import read_small

IGNORE_FILE_BYTES = 1_000_000
"""A larger ``.gitignore`` (or one that is a pipe or a device) is not read."""


class Ignores:
    """The ``.gitignore`` files met while walking down from a root, each applying below its directory."""

    def __init__(self, root: Path) -> None:
        self._root = root
        self._specs: dict[Path, GitIgnoreSpec | None] = {}
        self._load(root)

    def _load(self, folder: Path) -> None:
        data = read_small(folder / ".gitignore", IGNORE_FILE_BYTES)
        text = data.decode("utf-8", errors="replace") if data else ""
        self._specs[folder] = GitIgnoreSpec.from_lines(text.splitlines()) if text.strip() else None

    def enter(self, folder: Path) -> None:
        """Take in ``folder``'s own ``.gitignore`` (call for each directory walked, top-down)."""
        if folder not in self._specs:
            self._load(folder)

    def ignored(self, path: Path, is_dir: bool) -> bool:
        """Whether a path below the root is ignored by a ``.gitignore`` in a directory above it (only the
        directories on its way down are looked at)."""
        for folder in path.parents:
            spec = self._specs.get(folder)
            if spec is not None:
                relative = path.relative_to(folder).as_posix() + ("/" if is_dir else "")
                if spec.match_file(relative):
                    return True
            if folder == self._root:
                break
        return False
