"""The conversation is compacted."""

from __future__ import annotations

from typing import Literal

from ._base import BaseEvent


class Compaction(BaseEvent):
    """The host replaced older conversation with a summary. Obligations are unaffected."""

    type: Literal["compaction"] = "compaction"
    summary: str = ""
    """The summary the host wrote (a paraphrase, not the user's words)."""
