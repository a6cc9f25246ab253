"""The conversation is compacted."""

from __future__ import annotations

from typing import Literal

from ._base import BaseEvent

SummaryKind = Literal["compaction", "branch"]
"""What a summary replaced: older conversation (``compaction``), or an abandoned branch the
session went back from (``branch``, Pi's ``branch_summary``)."""


class Compaction(BaseEvent):
    """The host replaced older conversation, or an abandoned branch, with a summary. Obligations
    are unaffected."""

    type: Literal["compaction"] = "compaction"
    summary: str = ""
    """The summary the host wrote (a paraphrase, not the user's words)."""
    kind: SummaryKind = "compaction"
    """``compaction`` or ``branch``."""
    first_kept: str | None = None
    """The entry id of the oldest earlier entry the host keeps in the agent's context after the
    summary (Pi's ``firstKeptEntryId``); ``None`` when the summary replaces everything before it."""
