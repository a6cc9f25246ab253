"""The hosts' names, as a type (kept apart: the hook's fast path does not load ``typing``)."""

from __future__ import annotations

from typing import Literal

Host = Literal["claude-code", "codex"]
"""The hosts whose hook protocol is spoken."""
