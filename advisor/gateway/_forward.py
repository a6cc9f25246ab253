"""What an advisor with ``forward_transcript`` is shown: the ledger of the conversation.

The conversation's messages (its advisor traces expanded, the loop's own rounds appended, and
the turn that is calling the advisor) become ``obligations`` events (:mod:`._transcript`), and
:class:`~advisor.ledger.Ledger` compiles them as it compiles any host's session: a catalogue of
the client's tools, the user's words verbatim, old tool rounds as one-line cards, the newest
rounds verbatim, earlier advice as the advisor's own turns, the open verification obligations
of the conversation's shell calls, and the question — redacted, within
``transcript_token_budget`` tokens, and without a word about investigation tools (the gateway
has no workspace). A conversation is known by its first user message (:func:`conversation_id`):
that names its prompt-cache key and its consultations in the log.

Every request of a conversation rebuilds its ledger from the messages, and gets the same bytes
for what it shares with the one before. One thing the messages alone do not tell is how many
leading blocks an earlier request left out to fit the budget; the trace carries it
(``ledger_cut``), and the next request of that advisor leaves out at least as many, so trimming
does not move the prefix on every request.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from typing import Any

from advisor.gateway._prompt import system_prompt
from advisor.gateway._transcript import chat_events
from advisor.ledger import Ledger, LedgerSettings
from advisor.prompt import AdvisorPrompt
from obligations import ToolInfo

SESSION_PREFIX = "chat-"
# Compiling a long conversation takes a while (about 0.1 ms a message), so it runs off the event
# loop — in one thread only, because the tree-sitter parser shellparse keeps is not safe to use
# from two threads at once.
_COMPILER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="witness-ledger")


@dataclass(frozen=True, slots=True)
class Forwarded:
    """An advisor's request made from the conversation, and the cut it kept."""

    prompt: AdvisorPrompt
    """The request."""
    cut: int
    """Leading ledger blocks it left out to fit the budget (the next request leaves out at least as many)."""


def conversation_id(messages: Sequence[Any]) -> str:
    """``chat-`` and 16 hex digits of the SHA-256 of the first user message's content (of the first
    message, when none is the user's): the same in every request of the conversation."""
    first = next((m for m in messages if isinstance(m, dict) and m.get("role") == "user"),
                 messages[0] if messages else None)
    content = first.get("content") if isinstance(first, dict) else None
    canonical = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return SESSION_PREFIX + hashlib.sha256(canonical.encode()).hexdigest()[:16]


def catalogue(client_tools: Sequence[dict[str, Any]]) -> list[ToolInfo]:
    """The client's own tools, by name and description, for the ledger's catalogue."""
    found: list[ToolInfo] = []
    for tool in client_tools:
        spec = tool.get(tool.get("type", ""))
        if isinstance(spec, dict) and isinstance(spec.get("name"), str):
            description = spec.get("description")
            found.append(ToolInfo(name=spec["name"], description=description if isinstance(description, str) else ""))
    return found


def forwarded(messages: Sequence[Any], *, client_tools: Sequence[dict[str, Any]], question: str,
              instructions: str | None, token_budget: int, cut: int = 0) -> Forwarded:
    """The request for an advisor shown ``messages`` (their traces already expanded), asked
    ``question``; ``cut`` is the cut the advisor's previous request in the conversation kept. Raises
    :class:`~advisor.errors.LedgerTooLarge` when even the trimmed request exceeds ``token_budget``."""
    ledger = Ledger(tools=catalogue(client_tools), settings=LedgerSettings(token_budget=token_budget),
                    session_id=conversation_id(messages), system=system_prompt(instructions, transcript=True),
                    investigation=False)
    ledger.extend(chat_events(messages))
    ledger.trim_anchor = cut
    prompt = ledger.prompt(question=question, tools=())
    return Forwarded(prompt, ledger.trim_anchor)


async def forward(messages: Sequence[Any], *, client_tools: Sequence[dict[str, Any]], question: str,
                  instructions: str | None, token_budget: int, cut: int = 0) -> Forwarded:
    """:func:`forwarded`, compiled off the event loop."""
    job = partial(forwarded, list(messages), client_tools=client_tools, question=question,
                  instructions=instructions, token_budget=token_budget, cut=cut)
    return await asyncio.get_running_loop().run_in_executor(_COMPILER, job)
