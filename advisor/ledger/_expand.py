"""What ``advisor_expand`` returns for a card id: the entry behind it in full (the ledger keeps its
events redacted)."""

from __future__ import annotations

from dataclasses import dataclass

from obligations import AssistantMessage, Compaction, Event, ToolCompleted, ToolDispatched, UserMessage

from ._cards import arguments_json, result_text, status


@dataclass(frozen=True, slots=True)
class Source:
    """The events a block was compiled from."""

    event: Event
    result: ToolCompleted | None = None
    """For a tool round: its result."""


def _round(call: ToolDispatched, result: ToolCompleted | None) -> str:
    if call.user_shell:
        command = call.arguments.get("command", call.arguments.get("cmd", ""))
        code = "?" if result is None or result.exit_code is None else str(result.exit_code)
        return f"$ {command}\nexit {code}\n{result_text(result) if result else ''}".rstrip("\n")
    head = f"{call.tool}({arguments_json(call)})"
    if result is None:
        return f"{head}\n→ running"
    exit_code = f" (exit {result.exit_code})" if result.exit_code is not None else ""
    return f"{head}\n→ {status(result)}{exit_code if status(result) == 'ok' else ''}:\n{result_text(result)}"


def full_text(source: Source) -> str:
    """The verbatim text behind a block (of events already redacted)."""
    event = source.event
    if isinstance(event, ToolDispatched):
        text = _round(event, source.result)
    elif isinstance(event, AssistantMessage):
        text = event.text + (f"\n\n[executor thinking]\n{event.reasoning}" if event.reasoning.strip() else "")
    elif isinstance(event, UserMessage):
        text = event.text
    elif isinstance(event, Compaction):
        text = event.summary
    else:
        text = str(getattr(event, "text", ""))
    return text
