"""``ls({path?})``: one directory's entries."""

from __future__ import annotations

import os
from itertools import islice
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from advisor.consult._files import open_directory
from advisor.consult._workspace import Workspace
from advisor.errors import ToolFailure

MAX_ENTRIES = 500
"""Entries shown."""
MAX_LISTED = 100_000
"""Entries of a directory looked at (a directory of millions is listed in part, and says so)."""


class LsArgs(BaseModel):
    """``ls`` arguments."""

    model_config = ConfigDict(extra="ignore", frozen=True)
    path: str | None = None


def _shown(workspace: Workspace, folder: Path, entry: os.DirEntry[str]) -> str | None:
    """The entry of ``folder`` as listed, or ``None`` when it is withheld (credential-shaped, a link out, not a
    directory nor a regular file)."""
    path = folder / entry.name
    if workspace.denied_last(workspace.relative(path)):
        return None
    try:
        if entry.is_symlink() and not workspace.inside(path):
            return None
        if entry.is_dir(follow_symlinks=True):
            return entry.name + "/"
        return entry.name if entry.is_file(follow_symlinks=True) else None
    except OSError:
        return None


def ls(workspace: Workspace, args: LsArgs) -> str:
    """The entries of a directory, sorted, directories ending in ``/``; credential-shaped entries, links
    out of the workspace and special files (pipes, sockets, devices) are withheld and counted."""
    folder = workspace.resolve(args.path) if args.path and args.path.strip() else workspace.root
    if not folder.is_dir():
        raise ToolFailure(f"{args.path}: not a directory")
    descriptor = open_directory(str(folder))  # the directory checked, not one a link put on its way leads to
    try:
        with os.scandir(descriptor) as listing:  # its entries are looked at while the descriptor is open
            entries = list(islice(listing, MAX_LISTED + 1))
            shown = [name for name in (_shown(workspace, folder, entry) for entry in entries[:MAX_LISTED])
                     if name is not None]
    finally:
        os.close(descriptor)
    partial = len(entries) > MAX_LISTED
    withheld = min(len(entries), MAX_LISTED) - len(shown)
    lines = sorted(shown)[:MAX_ENTRIES]
    if len(shown) > MAX_ENTRIES:
        lines.append(f"[{len(shown) - MAX_ENTRIES} more entries not shown]")
    if withheld:
        lines.append(f"[{withheld} entr{'y' if withheld == 1 else 'ies'} withheld: credential-shaped, leading "
                     "out of the workspace, or not a directory or regular file]")
    if partial:
        lines.append(f"[only the first {MAX_LISTED:,} entries of the directory were looked at]")
    return "\n".join(lines) if lines else "(empty directory)"
