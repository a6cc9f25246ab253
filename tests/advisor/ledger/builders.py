"""Events for ledger tests, written the way the readers make them (entry ids included)."""

from __future__ import annotations

from typing import Any

from obligations import AssistantMessage, Compaction, Event, ToolCompleted, ToolDispatched, UserMessage


def user(text: str, id: str | None = None, *, images: int = 0, **fields: Any) -> UserMessage:
    """The user says ``text``."""
    return UserMessage(text=text, entry_id=id, images=images, **fields)


def say(text: str, id: str | None = None, *, reasoning: str = "", **fields: Any) -> AssistantMessage:
    """The executor writes ``text`` (thinking ``reasoning``)."""
    return AssistantMessage(text=text, reasoning=reasoning, entry_id=id, **fields)


def call(cid: str, tool: str, arguments: dict[str, Any] | None = None, id: str | None = None,
         **fields: Any) -> ToolDispatched:
    """The executor calls ``tool``."""
    return ToolDispatched(call_id=cid, tool=tool, arguments=arguments or {}, entry_id=id, **fields)


def result(cid: str, output: str | None = "", id: str | None = None, *, error: bool = False,
           exit_code: int | None = None, **fields: Any) -> ToolCompleted:
    """The call ``cid`` returns ``output``."""
    return ToolCompleted(call_id=cid, output=output, entry_id=id, is_error=error, exit_code=exit_code,
                         error_message=output if error else None, **fields)


def round_(cid: str, tool: str, arguments: dict[str, Any], output: str, id: str | None = None,
           **fields: Any) -> list[Event]:
    """A call and its result (the result's entry is ``id``)."""
    return [call(cid, tool, arguments), result(cid, output, id, **fields)]


def ask(cid: str, question: str, id: str | None = None) -> list[Event]:
    """The executor asks the advisor ``question`` (its prose beside the advisor call)."""
    return [say(question, id), call(cid, "advisor")]


def advice(cid: str, text: str, id: str | None = None, **fields: Any) -> ToolCompleted:
    """The advisor's answer arrives as the advisor call's result."""
    return result(cid, text, id, **fields)


def compaction(summary: str, id: str | None = None, kind: str = "compaction") -> Compaction:
    """The host compacts the conversation."""
    return Compaction(summary=summary, entry_id=id, kind=kind)  # type: ignore[arg-type]
