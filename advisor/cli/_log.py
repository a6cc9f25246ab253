"""``witness log [--json] [ID]``: what the advisor was asked and what it did, from the consultation log.

Without an id, one line per consultation; with an id (or a unique prefix of one), that
consultation: its requests' sizes, each attempt, each investigation call, the tokens, the
outcome and the advice. rich on a terminal (imported only there), plain text when piped.
"""

from __future__ import annotations

import sys
from typing import IO, TYPE_CHECKING

from advisor.consult import Consultation, ConsultationLog, ConsultationSummary
from shellparse import printable

from ._exits import ExitCode
from ._output import json_text

if TYPE_CHECKING:
    import click

EPILOG = """\
The log is $WITNESS_HOME/log/consultations.jsonl. Exit status: 0, or 2 for an id the log does not
hold (or a prefix that names several).
"""


def _outcome(severity: str | None, stop: str) -> str:
    if stop != "answered":
        return stop
    return f"severity {severity}" if severity else "no verdict line"


def summary_rows(summaries: list[ConsultationSummary]) -> list[tuple[str, ...]]:
    """The table ``witness log`` prints: a header row, then one row per consultation."""
    rows: list[tuple[str, ...]] = [("id", "started", "session", "advisor", "outcome", "requests", "tools", "tokens")]
    for s in summaries:
        rows.append((s.id, s.started_at.replace("T", " ").removesuffix("+00:00"), (s.session_id or "-")[:12],
                     s.advisor, _outcome(s.severity, s.stop_reason), str(s.requests), str(s.tool_calls),
                     f"{s.usage.total_tokens:,}"))
    return rows


def detail_lines(c: Consultation) -> list[str]:
    """One consultation, line by line."""
    lines = [f"consultation {c.id}", f"  session      {c.session_id or '-'}", f"  advisor      {c.advisor}",
             f"  started      {c.started_at}  finished {c.finished_at}",
             f"  outcome      {_outcome(c.severity, c.stop_reason)}" + (f" — {c.error}" if c.error else ""),
             f"  request      about {c.estimated_tokens:,} tokens ({c.request_chars:,} chars of JSON), "
             f"the first {c.stable_prefix_messages} message(s) in the cache-stable prefix"
             + (", ledger trimmed" if c.trimmed else ""),
             f"  usage        {c.usage.input_tokens:,} in ({c.usage.cached_input_tokens:,} cached) · "
             f"{c.usage.output_tokens:,} out" + (f" · ${c.cost_usd:.4f}" if c.cost_usd is not None else ""),
             "  attempts"]
    for number, a in enumerate(c.attempts, start=1):
        how = a.stop_reason or f"failed: {a.error}"
        lines.append(f"    {number}. {a.messages} messages · {a.usage.input_tokens:,} in / "
                     f"{a.usage.output_tokens:,} out · {how}")
    lines.append("  tool calls" if c.rounds else "  tool calls   none")
    for r in c.rounds:
        state = "refused: allowance spent" if not r.ran else (f"error: {r.error}" if r.error else f"{r.chars:,} chars")
        lines.append(f"    {r.tool}({r.argument}) → {state}")
    lines += ["  advice", *(f"    {line}" for line in (c.advice or "(none)").splitlines())]
    return lines


def _table(rows: list[tuple[str, ...]], out: IO[str]) -> None:
    if out.isatty():
        from rich.console import Console
        from rich.table import Table

        table = Table(*rows[0], header_style="bold")
        for row in rows[1:]:
            table.add_row(*row)
        Console(file=out).print(table)
        return
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        out.write("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip() + "\n")


def run_log(ident: str | None, as_json: bool, out: IO[str], err: IO[str], log: ConsultationLog | None = None) -> int:
    """Carry out ``witness log``; return its exit status."""
    log = log or ConsultationLog()
    if ident is not None:
        consultation = log.load(ident)
        if as_json:
            out.write(json_text(consultation.record()) + "\n")
        else:
            out.write(printable("\n".join(detail_lines(consultation)) + "\n"))
        return ExitCode.OK
    summaries = log.summaries()
    if as_json:
        out.write(json_text([s.model_dump(mode="json") for s in summaries]) + "\n")
    elif not summaries:
        err.write(printable(f"witness log: no consultations recorded in {log.path}\n"))
    else:
        _table([tuple(printable(cell) for cell in row) for row in summary_rows(summaries)], out)
    if log.skipped_lines:
        err.write(printable(f"witness log: skipped {len(log.skipped_lines)} unreadable line(s) of {log.path}\n"))
    return ExitCode.OK


def command() -> click.Command:
    """The click command."""
    import click

    from . import _options

    @click.command("log", context_settings=_options.context_settings(), epilog=EPILOG)
    @click.argument("ident", metavar="[ID]", required=False)
    @click.option("--json", "as_json", is_flag=True, help="Print JSON: the summaries, or the whole record of ID "
                                                          "(its full transcript included).")
    def log_command(ident: str | None, as_json: bool) -> int:
        """List the advisor consultations, or show one: what it was asked and what it did."""
        return run_log(ident, as_json, sys.stdout, sys.stderr)

    return log_command
