"""Where a response carries its trace, and how a request's traces are taken out and expanded.

==========================  ==================================================================
carrier                     where
==========================  ==================================================================
chat completions (default)  the assistant message's ``witness_trace`` field: the content is the
                            model's text exactly; the ``openai`` SDK keeps the field in
                            ``model_extra``, and a client replaying ``message.model_dump()``
                            sends it back
chat completions            a marker at the start of the content,
(``chat_trace =             ``<witness:advisor-trace>TOKEN</witness:advisor-trace>`` and a
"content"``)                newline, for clients that replay only role and content; never when
                            the request sets ``response_format``
Responses API               a ``reasoning`` output item of the gateway's (id ``rs_witness_…``,
                            empty summary) whose ``encrypted_content`` is the token, placed
                            where the advised rounds happened; clients replay reasoning items
                            with their encrypted content under ``store: false`` (the Agents SDK's
                            ``to_input_list()``, the Codex CLI)
==========================  ==================================================================

Every request is cleaned of these, advised or forwarded: the field and a marker holding a token
are taken out of assistant messages, the gateway's reasoning items out of the input, so the
upstream never sees them. A token that opens (:class:`~._seal.TraceSeal`) is expanded in place
into the rounds it stands for; one that does not — altered, forged, sealed by another key — is
dropped, never read as advice. A marker that holds no token is the client's text and is kept.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from advisor.gateway._items import to_items
from advisor.gateway._seal import PREFIX, TraceSeal, is_token
from advisor.gateway._trace import Trace, call_dict, result_messages, round_messages

FIELD = "witness_trace"
"""The assistant message field that carries a chat completion's trace."""
OPEN = "<witness:advisor-trace>"
CLOSE = "</witness:advisor-trace>"
ITEM_PREFIX = "rs_witness_"
"""How the id of the gateway's reasoning items starts."""
_SIGNS = (FIELD.encode(), PREFIX.encode(), ITEM_PREFIX.encode())


@dataclass
class Replayed:
    """A request's history with its traces taken out and expanded."""

    history: list[Any]
    """The messages (chat) or input items (Responses) as the upstream is to see them."""
    ledger_cuts: dict[str, int] = field(default_factory=dict)
    """Per advisor function, the ``ledger_cut`` of its latest traced call that has one."""

    def note(self, trace: Trace) -> None:
        """Record ``trace``'s ledger cuts (later traces win)."""
        for turn in trace.rounds:
            self.ledger_cuts.update({call.name: call.ledger_cut for call in turn.calls
                                     if call.ledger_cut is not None})


def has_trace(raw: bytes) -> bool:
    """Whether a request body may carry a trace (a cheap test before parsing anything)."""
    return any(sign in raw for sign in _SIGNS)


def marked(content: str | None, token: str) -> str:
    """``content`` with the marker holding ``token`` in front."""
    return f"{OPEN}{token}{CLOSE}\n{content or ''}"


def expand_messages(messages: list[Any], seal: TraceSeal) -> Replayed:
    """Chat messages with every assistant message's trace taken out, and expanded where it opens."""
    replayed = Replayed([])
    out = replayed.history
    for message in messages:
        if not (isinstance(message, dict) and message.get("role") == "assistant"):
            out.append(message)
            continue
        own = {key: value for key, value in message.items() if key != FIELD}
        token, content = _split_marker(message.get("content"))
        if token is not None:
            own["content"] = content
        trace = seal.open(message.get(FIELD)) or seal.open(token)
        if trace is None:
            out.append(_with_content(own) if token is not None else own)
            continue
        replayed.note(trace)
        out.extend(m for turn in trace.rounds if not turn.merge for m in round_messages(turn))
        last = trace.rounds[-1]
        if last.merge:
            own["tool_calls"] = [*(call_dict(c) for c in last.calls), *(message.get("tool_calls") or [])]
            out.append(own)
            out.extend(result_messages(last))
        else:
            out.append(_with_content(own))
    return replayed


def _with_content(message: dict[str, Any]) -> dict[str, Any]:
    """An assistant turn needs content when it has no tool calls: keep the turn, even empty."""
    if message.get("content") is None and not message.get("tool_calls"):
        return {**message, "content": ""}
    return message


def _split_marker(content: Any) -> tuple[str | None, Any]:
    """``(token, content without the marker)`` when the content (a string, or text parts) opens
    with a marker holding a token; else ``(None, content)``."""
    if isinstance(content, list):
        first = content[0] if content else None
        if isinstance(first, dict) and first.get("type") == "text":
            token, rest = _split_marker(first.get("text"))
            if token is not None:
                tail = content[1:] if rest is None else [{**first, "text": rest}, *content[1:]]
                return token, tail or None
        return None, content
    if not isinstance(content, str) or not content.startswith(OPEN):
        return None, content
    end = content.find(CLOSE)
    token = content[len(OPEN):end] if end > 0 else None
    if token is None or not is_token(token):
        return None, content
    return token, content[end + len(CLOSE):].removeprefix("\n") or None


def witness_item(token: str) -> dict[str, Any]:
    """The reasoning output item that carries ``token`` (its id derived from it)."""
    return {"id": ITEM_PREFIX + hashlib.sha256(token.encode()).hexdigest()[:40], "type": "reasoning",
            "summary": [], "encrypted_content": token}


def is_witness_item(item: Any) -> bool:
    """Whether an input item is one of the gateway's reasoning items (by its content or its id:
    a client may drop either)."""
    if not (isinstance(item, dict) and item.get("type") == "reasoning"):
        return False
    name = item.get("id")
    return is_token(item.get("encrypted_content")) or (isinstance(name, str) and name.startswith(ITEM_PREFIX))


def expand_items(items: list[Any], seal: TraceSeal) -> Replayed:
    """Responses input items with the gateway's reasoning items replaced by the items their traces
    stand for (each round's text, calls and results), or dropped when they do not open."""
    replayed = Replayed([])
    for item in items:
        if not is_witness_item(item):
            replayed.history.append(item)
            continue
        trace = seal.open(item.get("encrypted_content"))
        if trace is None:
            continue
        replayed.note(trace)
        for turn in trace.rounds:  # a merged round has no text: its calls and results
            replayed.history.extend(to_items(round_messages(turn)))
    return replayed
