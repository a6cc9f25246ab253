"""``witness audit``'s report: each session's obligations and a summary table for people, or one
JSON document for programs."""

from __future__ import annotations

import re
from typing import Any

from obligations import ItemReport, SessionAudit, WitnessRef
from shellparse import Policy

from ._options import POLICY_MEANING

SKIPPED_SHOWN = 10
"""Skipped files named in the human report (all are counted, and all are in ``--json``)."""
LEGEND = ("open: failed, and not genuinely re-run by the end · earlier: failed in a task that ended (a new user "
          "message) without a genuine re-run · resolved: closed by a genuine re-run · skipped: unreadable lines")
"""What the summary table's columns count."""


def document(results: list[SessionAudit], policy: Policy, skipped: list[tuple[str, str]],
             warnings: list[str]) -> dict[str, Any]:
    """The ``--json`` document: a summary, every session (those that could not be read too), and
    what was left out."""
    audited = [r for r in results if r.error is None]
    return {
        "policy": policy,
        "summary": {
            "files": len(results), "sessions": len(audited), "not_transcripts": len(results) - len(audited),
            "skipped_files": len(skipped), "sessions_with_unresolved": sum(1 for r in audited if r.unresolved),
            "open": sum(len(r.open) for r in audited), "earlier": sum(len(r.earlier) for r in audited),
            "resolved": sum(len(r.resolved) for r in audited),
            "skipped_lines": sum(r.skipped_lines for r in audited),
        },
        "sessions": [r.to_dict() for r in results],
        "skipped": [{"path": path, "reason": reason} for path, reason in skipped],
        "warnings": list(warnings),
    }


def render(results: list[SessionAudit], skipped: list[tuple[str, str]], policy: Policy) -> str:
    """The human report: each session's obligations, what was skipped, then a summary table."""
    lines: list[str] = []
    for result in results:
        lines.extend(_session(result))
    if skipped:
        lines.append(f"skipped {len(skipped)} file(s) or folder(s):")
        lines.extend(f"   {path}: {reason}" for path, reason in skipped[:SKIPPED_SHOWN])
        if len(skipped) > SKIPPED_SHOWN:
            lines.append(f"   … and {len(skipped) - SKIPPED_SHOWN} more (--json lists them all)")
        lines.append("")
    lines.append(_summary(results, len(skipped), policy))
    return "\n".join(lines) + "\n"


def _short(path: str) -> str:
    return path if len(path) <= 60 else "…" + path[-59:]


def _one_line(text: str, limit: int = 120) -> str:
    """A command or a detail on one line: a script of several lines is joined with ``;`` (a line
    continued with ``\\`` with a space); a long one, or one with a here-document or a quoted string
    over several lines (a `gh pr create` body), is cut."""
    if "\n" in text and "<<" not in text:
        joined = re.sub(r"\s*\\\n\s*", " ", text.strip())
        lines = [line.strip() for line in joined.splitlines() if line.strip()]
        if all(line.count('"') % 2 == 0 and line.count("'") % 2 == 0 for line in lines):
            text = "; ".join(lines)
    first, newline, _ = text.partition("\n")
    cut = len(first) > limit
    shown = first[: limit - 1] if cut else first
    return shown + " …" if cut or newline else shown


def _session(result: SessionAudit) -> list[str]:
    head = f"== {result.path} ({result.format}, {result.lines} lines, {result.tool_calls} tool calls)"
    lines = [head]
    if not (result.open or result.earlier or result.resolved):
        lines.append("   no checks failed in this session (no current-run obligation record)")
    for row in result.open:
        lines.extend(_row("OPEN", row))
    for row in result.earlier:
        lines.extend(_row("UNRESOLVED (left behind when a later task began)", row))
    for row in result.resolved:
        lines.extend(_row("resolved later" if row.witness is not None and row.witness.later else "resolved", row))
    if result.without_exit_code and (result.open or result.earlier):
        lines.append(f"   note: {result.without_exit_code} shell result(s) carried no exit code (a pass needs one)")
    if result.abandoned:
        lines.append(f"   note: {result.abandoned} entries on abandoned branches (rewound or replaced) "
                     "were not replayed")
    if result.duplicates:
        lines.append(f"   note: {result.duplicates} entries written twice by the host (same id and time) "
                     "were read once")
    if result.read_error:
        lines.append(f"   INCOMPLETE: {result.read_error}; this covers only the lines read")
    if result.skipped_lines:
        examples = "; ".join(f"line {skip.line}: {skip.reason}" for skip in result.skipped_examples[:3])
        lines.append(f"   skipped {result.skipped_lines} unreadable line(s) — {examples}")
    if result.unknown_results:
        lines.append(f"   {result.unknown_results} result(s) of calls never dispatched in this file (counted as "
                     "possible edits)")
    lines.append("")
    return lines


def _row(label: str, row: ItemReport) -> list[str]:
    if row.kind == "claim-contradicted":
        what = f"claim {row.claim_id!r}" + (f" on `{row.check}`" if row.check else " (keyless)")
        lines = [f"   {label}: {what}", f"      {row.summary}"]
    else:
        where = f" in {row.cwd}" if row.cwd else ""
        at = row.last_failed_at or row.first_failed_at
        times = f"failed {row.failures}x, last at {at}" if row.failures > 1 else f"failed at {at}"
        by = f" (by worker {row.failed_by})" if row.failed_by else ""
        lines = [f"   {label}: `{row.check}` ({row.check_kind}){where}{by}", f"      {times}: {row.summary}"]
    attempt = row.last_attempt
    if attempt is not None and row.state == "open":
        at = f" ({attempt.origin})" if attempt.origin else ""
        lines.append(f"      last re-run `{_one_line(attempt.command or '')}`{at} did not count — "
                     f"{_one_line(attempt.reason, 200)}")
    if row.reopened is not None:
        at = f" ({row.reopened.at})" if row.reopened.at else ""
        lines.append(f"      re-opened{at}: {_reopening(row.reopened.detail)}")
        if row.reopened.witness is not None:
            lines.append(f"      (it had been {_witnessed(row.reopened.witness)})")
    if row.witness is not None:
        lines.append(f"      {_witnessed(row.witness)}")
    if row.disposition:
        lines.append(f"      disposition {row.disposition.kind}: {row.disposition.basis}")
    if row.state == "open":
        lines.append(f"      closes only through: {row.closes_by}")
    return lines


def _witnessed(witness: WitnessRef) -> str:
    """``witnessed by `go test ./...`, a wider run that covers it, at s.jsonl:9 in a later task``."""
    run = witness.check or (_one_line(witness.command) if witness.command else None)
    what = f"`{run}`" if run else f"call {witness.call_id}"
    how = ", a wider run that covers it," if witness.covering else ""
    when = " in a later task" if witness.later else ""
    return f"witnessed by {what}{how} at {witness.at}{when}"


def _reopening(detail: str) -> str:
    """A re-opening's detail with the command in it on one line (a here-document is cut)."""
    if detail.startswith("`") and "` " in detail:
        command, _, rest = detail[1:].rpartition("` ")
        return f"`{_one_line(command)}` {rest}"
    return _one_line(detail, 200)


def _summary(results: list[SessionAudit], skipped: int, policy: Policy) -> str:
    with_unresolved = [r for r in results if r.unresolved]
    header = (f"{len(results)} session(s) audited under policy {policy} ({POLICY_MEANING[policy]})"
              + (f", {skipped} file(s) or folder(s) skipped" if skipped else "")
              + f"; {len(with_unresolved)} with unresolved obligations")
    rows = [("session", "format", "calls", "open", "earlier", "resolved", "skipped")]
    for r in results:
        rows.append((_short(r.path), r.format or "-", str(r.tool_calls), str(len(r.open)), str(len(r.earlier)),
                     str(len(r.resolved)), str(r.skipped_lines)))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    table = ["  ".join(cell.ljust(width) if i < 2 else cell.rjust(width) for i, (cell, width)
                       in enumerate(zip(row, widths, strict=True))) for row in rows]
    return "\n".join([header, *table, LEGEND])
