"""``read({path, offset?, limit?})``: a text file as it is now, by lines; an image, as an image.

The file is read only when it is a regular file every name of which is in the workspace and
allowed (see :mod:`advisor.consult._files`). An image (PNG, JPEG, GIF or WebP, told by its bytes)
up to :data:`IMAGE_BYTES` is returned as an image the advisor sees, when the consultation allows
images (``[consult] images``); otherwise it is named and sized.

An image is sent as it is: no redactor reads its pixels (a screenshot of a terminal that printed a key
shows the key). What can be read is its text — runs of printable ASCII in its bytes, as ``strings`` reads them: PNG
``tEXt`` chunks, EXIF, JPEG comments (not compressed metadata) — and an image in which the redactor finds
a secret there is named, not shown. The deny list refuses an image as it refuses any file.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Callable

from pydantic import BaseModel, ConfigDict, Field

from advisor.consult._workspace import Workspace
from advisor.errors import ToolFailure
from advisor.models import ImagePart, ImageType
from obligations import redact

DEFAULT_LINES = 2000
LARGEST = 20_000_000
"""Bytes of the largest text file read."""
IMAGE_BYTES = 3_750_000
"""Bytes of the largest image shown (base64 makes it 5 MB, the most any provider takes in one image)."""
_SIGNATURES: tuple[tuple[bytes, ImageType], ...] = (
    (b"\x89PNG\r\n\x1a\n", "image/png"), (b"\xff\xd8\xff", "image/jpeg"), (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"))


class ReadArgs(BaseModel):
    """``read`` arguments."""

    model_config = ConfigDict(extra="ignore", frozen=True)
    path: str = Field(min_length=1)
    offset: int = Field(default=1, ge=1)
    limit: int = Field(default=DEFAULT_LINES, ge=1)


_TEXT_RUNS = re.compile(rb"[\t\x20-\x7e]{8,}")
"""Runs of printable ASCII in an image's bytes: its metadata's text (a credential is ASCII)."""


def image_type(data: bytes) -> ImageType | None:
    """The format of an image by its first bytes (``None``: not one the providers take)."""
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return next((kind for signature, kind in _SIGNATURES if data.startswith(signature)), None)


def read(workspace: Workspace, args: ReadArgs, *, images: bool = False,
         clean: Callable[[str], str] = redact) -> str | tuple[str, ImagePart]:
    """Lines ``offset`` … ``offset + limit - 1`` of a file, with a note when more follow; for an image
    (with ``images``), a line naming it and the image, unless ``clean`` (the redactor) finds a secret in the
    text its bytes hold."""
    path = workspace.resolve(args.path)
    if path.is_dir():
        raise ToolFailure(f"{args.path} is a directory: use ls")
    if not path.exists() and not path.is_symlink():
        raise ToolFailure(f"{args.path}: no such file")
    data = workspace.read(path, limit=LARGEST, shown=args.path)
    kind = image_type(data[:16])
    if kind is not None:
        return _image(args.path, data, kind, allowed=images, clean=clean)
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


def _image(shown: str, data: bytes, kind: ImageType, *, allowed: bool,
           clean: Callable[[str], str]) -> str | tuple[str, ImagePart]:
    if not allowed:
        return f"[{shown} is an image ({kind}, {len(data):,} bytes); this consultation is not shown images]"
    if len(data) > IMAGE_BYTES:
        return f"[{shown} is an image ({kind}, {len(data):,} bytes), larger than the {IMAGE_BYTES:,} bytes shown]"
    text = "\n".join(run.decode("ascii") for run in _TEXT_RUNS.findall(data))  # as `strings` reads a binary
    if clean(text) != text:
        return (f"[{shown} is an image ({kind}, {len(data):,} bytes) whose metadata or embedded text holds what "
                "looks like a credential; not shown (an image cannot be redacted)]")
    part = ImagePart(media_type=kind, data=base64.b64encode(data).decode("ascii"), size=len(data),
                     sha256=hashlib.sha256(data).hexdigest(), path=shown)
    return f"[{shown}: an image ({kind}, {len(data):,} bytes), attached]", part
