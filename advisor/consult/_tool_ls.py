"""``ls({path?})``: one directory's entries."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from advisor.consult._workspace import ToolFailure, Workspace

MAX_ENTRIES = 500


class LsArgs(BaseModel):
    """``ls`` arguments."""

    model_config = ConfigDict(extra="ignore", frozen=True)
    path: str | None = None


def ls(workspace: Workspace, args: LsArgs) -> str:
    """The entries of a directory, sorted, directories ending in ``/``; credential-shaped entries
    are withheld and counted."""
    folder = workspace.resolve(args.path) if args.path and args.path.strip() else workspace.root
    if not folder.is_dir():
        raise ToolFailure(f"{args.path}: not a directory")
    lines: list[str] = []
    withheld = 0
    for entry in sorted(folder.iterdir(), key=lambda p: p.name):
        if workspace.denied(workspace.relative(entry)) or (entry.is_symlink() and not workspace.inside(entry)):
            withheld += 1
            continue
        lines.append(entry.name + ("/" if entry.is_dir() else ""))
    total = len(lines)
    lines = lines[:MAX_ENTRIES]
    if total > MAX_ENTRIES:
        lines.append(f"[{total - MAX_ENTRIES} more entries not shown]")
    if withheld:
        lines.append(f"[{withheld} entr{'y' if withheld == 1 else 'ies'} withheld by policy]")
    return "\n".join(lines) if lines else "(empty directory)"
