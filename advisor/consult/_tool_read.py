"""``read({path, offset?, limit?})``: a text file as it is now, by lines."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from advisor.consult._workspace import ToolFailure, Workspace

DEFAULT_LINES = 2000
_IMAGES = (".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp", ".svgz", ".ico")
_LARGEST = 20_000_000


class ReadArgs(BaseModel):
    """``read`` arguments."""

    model_config = ConfigDict(extra="ignore", frozen=True)
    path: str = Field(min_length=1)
    offset: int = Field(default=1, ge=1)
    limit: int = Field(default=DEFAULT_LINES, ge=1)


def read(workspace: Workspace, args: ReadArgs) -> str:
    """Lines ``offset`` … ``offset + limit - 1`` of a file, with a note when more follow."""
    path = workspace.resolve(args.path)
    if path.is_dir():
        raise ToolFailure(f"{args.path} is a directory: use ls")
    if not path.is_file():
        raise ToolFailure(f"{args.path}: no such file")
    if path.suffix.lower() in _IMAGES:
        return f"[{args.path} is an image ({path.stat().st_size} bytes); this advisor reads text only]"
    if path.stat().st_size > _LARGEST:
        raise ToolFailure(f"{args.path} is larger than {_LARGEST // 1_000_000} MB; use grep to find what matters")
    data = path.read_bytes()
    if b"\x00" in data[:8192]:
        return f"[{args.path} is a binary file ({len(data)} bytes); not shown]"
    lines = data.decode("utf-8", errors="replace").splitlines(keepends=True)
    start = args.offset - 1
    if start >= len(lines) and lines:
        raise ToolFailure(f"offset {args.offset} is past the end of {args.path} ({len(lines)} lines)")
    shown = lines[start:start + args.limit]
    text = "".join(shown)
    end = start + len(shown)
    if end < len(lines):
        text += f"\n[lines {args.offset}–{end} of {len(lines)}; read with offset={end + 1} for more]"
    return text
