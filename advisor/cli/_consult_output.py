"""How ``witness consult`` prints: the request (``--dry-run``) and the advice, with rich on a
terminal and as plain text when piped (rich is imported only for a terminal)."""

from __future__ import annotations

from typing import IO, TYPE_CHECKING, Any

from advisor.consult import parse_verdict
from shellparse import printable

from ._output import json_text

if TYPE_CHECKING:
    from advisor.consult import Consultation
    from advisor.prompt import Compiled

SEVERITY_STYLES = {"none": "bold green", "nit": "bold cyan", "concern": "bold yellow", "blocker": "bold red"}


def request_document(compiled: Compiled) -> dict[str, Any]:
    """The request exactly as an OpenAI-compatible server would receive its prompt: the system prompt,
    the messages (role and content), the tools as functions, the stable prefix and the size."""
    prompt = compiled.prompt
    return {
        "system": prompt.system,
        "messages": [{"role": message.role, "content": message.text} for message in prompt.messages],
        "tools": [{"type": "function", "function": {"name": tool.name, "description": tool.description,
                                                    "parameters": tool.parameters}} for tool in prompt.tools],
        "stable_prefix_messages": prompt.stable_prefix_messages,
        "estimated_tokens": prompt.estimated_tokens,
    }


def _size_line(compiled: Compiled) -> str:
    prompt = compiled.prompt
    trimmed = f", {compiled.dropped_blocks} leading blocks left out to fit" if prompt.trimmed else ""
    return (f"{len(prompt.messages)} messages ({prompt.stable_prefix_messages} in the cache-stable prefix), "
            f"{len(prompt.tools)} tools, about {prompt.estimated_tokens:,} tokens{trimmed}")


def print_request(compiled: Compiled, out: IO[str], *, as_json: bool) -> None:
    """The request, for a person or (``as_json``) a program."""
    if as_json:
        out.write(json_text(request_document(compiled)) + "\n")
        return
    prompt = compiled.prompt
    sections = [("system", printable(prompt.system))]
    sections += [(f"message {n} · {m.role}" + (" · stable" if n <= prompt.stable_prefix_messages else ""),
                  printable(m.text)) for n, m in enumerate(prompt.messages, start=1)]
    sections.append(("tools", ", ".join(tool.name for tool in prompt.tools) or "(none)"))
    if out.isatty():
        from rich.console import Console
        from rich.rule import Rule
        from rich.text import Text

        console = Console(file=out, highlight=False)
        for title, text in sections:
            console.print(Rule(title, style="dim"))
            console.print(Text(text))
        console.print(Rule(_size_line(compiled), style="dim"))
        return
    for title, text in sections:
        out.write(f"── {title} ──\n{text}\n\n")
    out.write(f"── {_size_line(compiled)} ──\n")


def _footer(result: Consultation) -> str:
    tools = sum(1 for r in result.rounds if r.ran)
    parts = [result.advisor, f"{len(result.attempts)} request(s)", f"{tools} tool call(s)",
             f"{result.usage.total_tokens:,} tokens"]
    if result.usage.cached_input_tokens:
        parts.append(f"{result.usage.cached_input_tokens:,} cached")
    if result.cost_usd is not None:
        parts.append(f"${result.cost_usd:.4f}")
    if result.trimmed:
        parts.append("ledger trimmed")
    logged = f"witness log {result.id}" if result.log_error is None else "not logged"
    return printable(" · ".join(parts) + f" · {logged}")


def print_result(result: Consultation, out: IO[str], err: IO[str]) -> None:
    """The advice: styled with its severity on a terminal, as text (stdout) with a footer (stderr) when piped;
    either way with every character that could drive a terminal replaced (:func:`shellparse.printable`)."""
    if result.advice is None:
        return
    advice = printable(result.advice)
    if not out.isatty():
        out.write(advice.rstrip("\n") + "\n")
        err.write(_footer(result) + "\n")
        return
    from rich.console import Console
    from rich.markdown import Markdown
    from rich.text import Text

    console = Console(file=out)
    verdict = parse_verdict(advice)
    if verdict.severity is None:
        console.print(Text("no verdict line — read the advice as a concern", style="bold magenta"))
        console.print(Markdown(advice))
    else:
        console.print(Text(f"Severity: {verdict.severity}", style=SEVERITY_STYLES[verdict.severity]))
        if verdict.body:
            console.print(Markdown(verdict.body))
    console.print(Text(_footer(result), style="dim"))
