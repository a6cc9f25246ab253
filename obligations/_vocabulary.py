"""The words obligations answers in, as types: every field that holds one of them is typed with it.

Where a program needs to iterate over one of them, the tuple beside it holds every value in order.
"""

from __future__ import annotations

from typing import Literal, get_args

from shellparse import CHECK_KINDS, CheckKind

Outcome = Literal["permission-denial", "cancelled", "timeout", "tool-infrastructure-error", "expected-negative",
                  "validation-failure", "unknown-failure", "success"]
"""The class of a completed tool call (see :func:`obligations.classify`). The first five say
nothing about the code (``permission-denial``, ``cancelled``, ``timeout``,
``tool-infrastructure-error``, and ``expected-negative``: a lone ``grep`` finding nothing); a
``validation-failure`` is a failed check, an ``unknown-failure`` a failure of anything else."""

ExcludedOutcome = Literal["permission-denial", "cancelled", "timeout", "tool-infrastructure-error",
                          "expected-negative"]
"""The outcomes that neither open, close nor score an obligation."""

ErrorCode = Literal["permission_denied", "interrupted", "cancelled", "timeout"]
"""The structured error codes the transcript readers give a result when the host's error text
says it was refused, interrupted, cancelled before it ran (Claude Code's "Sibling tool call
errored") or timed out (hosts' own codes are read too: see :data:`obligations.ERROR_CODES`)."""

Judged = Literal["failed", "passed", "not-run"]
"""What a completed command says about one check it ran: it ``failed`` (its own status, or its
output, shows it), it may have ``passed`` (exit 0; whether that witnesses anything is the
tracker's rule), or it ``not-run`` (exit 126/127 from its own program: not executable, not found)."""

ItemKind = Literal["validation-failure", "claim-contradicted"]
"""What an obligation is about: a check that failed, or a claim a check contradicted."""

ItemState = Literal["open", "resolved"]
"""An obligation is ``open`` until a witness ``resolved`` it (a later edit re-opens it)."""

Change = Literal["opened", "failed-again", "resolved", "reopened", "disposition", "correction", "claim-bound"]
"""How a transition changed an item: ``failed-again`` is the check failing again (open or not);
``reopened`` a potential edit after the witness."""

ResolutionKind = Literal["reverified", "reverified-and-corrected", "reverified-later"]
"""How an item was resolved: a genuine re-run, a correction of the claim and then one, or a
genuine re-run in a later task (the item was left unresolved when the user moved on)."""

DispositionKind = Literal["not-applicable", "accept-risk"]
"""What a disposition says about an item (it never closes it)."""

AgentRole = Literal["root", "local-subagent", "advisor"]
"""An agent's place in the tree: obligations belong to root agents; workers' (``local-subagent``)
and advisors' edits count against their root."""

CallKind = Literal["shell", "edit", "read", "ignored", "other"]
"""What a dispatched tool is: a shell, an edit, a read, ignored (delegation and the advisor's own
channel), or ``other`` (an unknown tool, treated as a potential mutation)."""

NoticeKind = Literal["obligations", "reminder"]
"""``obligations``: the open set changed; ``reminder``: the agent is about to stop."""

SignalKind = Literal["tool-error", "nonzero-exit", "repeated-failure", "repeated-mutation"]
"""The reasons an agent's escalation score rises."""

ReviewOutcome = Literal["delivered", "stale"]
"""How a review ended: ``stale`` when the workspace changed (or may be changing) since it began."""

TranscriptFormat = Literal["claude-code", "codex", "pi", "copilot", "gemini", "qwen", "droid"]
"""The hosts whose session files the readers know."""

HostMessageKind = Literal["hook-feedback", "extension"]
"""What a host says in the conversation on its own behalf: ``hook-feedback`` is a hook's answer
(a Stop hook's block reason) handed to the agent; ``extension`` a message an extension of the
host added (Pi's ``custom_message``)."""

ROOT_AGENT = "root"
"""The id of an agent no event names: the session's own agent, the root of its tree. Every host,
reader and hook state of witness names it so."""

OUTCOMES: tuple[Outcome, ...] = get_args(Outcome)
EXCLUDED_OUTCOMES: tuple[ExcludedOutcome, ...] = get_args(ExcludedOutcome)
ITEM_KINDS: tuple[ItemKind, ...] = get_args(ItemKind)
ITEM_STATES: tuple[ItemState, ...] = get_args(ItemState)
CHANGES: tuple[Change, ...] = get_args(Change)
DISPOSITION_KINDS: tuple[DispositionKind, ...] = get_args(DispositionKind)
AGENT_ROLES: tuple[AgentRole, ...] = get_args(AgentRole)
TRANSCRIPT_FORMATS: tuple[TranscriptFormat, ...] = get_args(TranscriptFormat)
HOST_MESSAGE_KINDS: tuple[HostMessageKind, ...] = get_args(HostMessageKind)


def check_kind(kind: str) -> CheckKind:
    """``kind`` as the check kind it names (a validation's kind is always one)."""
    for known in CHECK_KINDS:
        if kind == known:
            return known
    raise ValueError(f"not a check kind: {kind!r}")
