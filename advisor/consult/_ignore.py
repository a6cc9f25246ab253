"""``.gitignore`` rules, per directory, as git applies them (through ``pathspec``)."""

from __future__ import annotations

from pathlib import Path

from pathspec import GitIgnoreSpec


class Ignores:
    """The ``.gitignore`` files met while walking down from a root, each applying below its directory."""

    def __init__(self, root: Path) -> None:
        self._root = root
        self._specs: dict[Path, GitIgnoreSpec] = {}
        self._load(root)

    def _load(self, folder: Path) -> None:
        try:
            lines = (folder / ".gitignore").read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            return
        self._specs[folder] = GitIgnoreSpec.from_lines(lines)

    def enter(self, folder: Path) -> None:
        """Take in ``folder``'s own ``.gitignore`` (call for each directory walked, top-down)."""
        if folder != self._root and folder not in self._specs:
            self._load(folder)

    def ignored(self, path: Path, is_dir: bool) -> bool:
        """Whether a path below the root is ignored by a ``.gitignore`` above it."""
        for folder, spec in self._specs.items():
            if path.is_relative_to(folder) and path != folder:
                relative = path.relative_to(folder).as_posix() + ("/" if is_dir else "")
                if spec.match_file(relative):
                    return True
        return False
