"""``witness audit``: find transcripts, audit them (in parallel), and report for people or programs."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import IO, Any

from obligations import SessionAudit, TrackerConfig, audit

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2
_SUFFIXES = (".jsonl", ".json", ".ndjson")


def find_transcripts(paths: list[str]) -> tuple[list[Path], list[str]]:
    """The files to audit — named files, and ``*.jsonl`` files below named directories (a
    ``~/.claude/projects`` or ``~/.codex/sessions`` tree) — and the problems with the names."""
    files: list[Path] = []
    problems: list[str] = []
    for name in paths:
        path = Path(name).expanduser()
        if path.is_dir():
            files.extend(sorted(p for p in path.rglob("*") if p.suffix in _SUFFIXES and p.is_file()))
        elif path.is_file():
            files.append(path)
        else:
            problems.append(f"{name}: no such file or directory")
    return list(dict.fromkeys(files)), problems


def _audit_one(job: tuple[str, str]) -> SessionAudit:
    path, policy = job
    return audit(path, TrackerConfig(policy=policy))


def audit_all(files: list[Path], policy: str, jobs: int, progress: bool) -> list[SessionAudit]:
    """Audit every file, in order; ``jobs`` processes (results are the same as a serial run)."""
    work = [(str(path), policy) for path in files]
    if jobs <= 1 or len(work) <= 1:
        results = _with_progress(map(_audit_one, work), len(work), progress)
        return list(results)
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return list(_with_progress(pool.map(_audit_one, work, chunksize=4), len(work), progress))


def _with_progress(results: Iterator[SessionAudit], total: int, show: bool) -> Iterator[SessionAudit]:
    if not show or total < 2:
        yield from results
        return
    import click

    with click.progressbar(results, length=total, label="auditing", file=sys.stderr) as bar:
        yield from bar


def run_audit(paths: list[str], policy: str, jobs: int | None, as_json: bool, out: IO[str], err: IO[str]) -> int:
    """Carry out ``witness audit``; return its exit code."""
    files, problems = find_transcripts(paths)
    for problem in problems:
        err.write(f"witness audit: {problem}\n")
    named = {str(Path(name).expanduser()) for name in paths if Path(name).expanduser().is_file()}
    jobs = jobs or os.cpu_count() or 1
    results = audit_all(files, policy, jobs, progress=err.isatty() and not as_json)
    audited = [r for r in results if r.error is None]
    refused = [r for r in results if r.error is not None and r.path in named]
    for result in refused:
        err.write(f"witness audit: {result.error}\n")
    if as_json:
        out.write(json.dumps(_document(results, policy), ensure_ascii=False) + "\n")
    else:
        out.write(render(audited, skipped=len(results) - len(audited) - len(refused), policy=policy))
    if problems or refused or not files:
        if not files and not problems:
            err.write("witness audit: no transcript files found\n")
        return EXIT_USAGE
    return EXIT_FINDINGS if any(r.unresolved for r in audited) else EXIT_OK


def _document(results: list[SessionAudit], policy: str) -> dict[str, Any]:
    audited = [r for r in results if r.error is None]
    return {
        "policy": policy,
        "summary": {
            "files": len(results), "sessions": len(audited), "not_transcripts": len(results) - len(audited),
            "sessions_with_unresolved": sum(1 for r in audited if r.unresolved),
            "open": sum(len(r.open) for r in audited), "earlier": sum(len(r.earlier) for r in audited),
            "resolved": sum(len(r.resolved) for r in audited),
            "skipped_lines": sum(r.skipped_lines for r in audited),
        },
        "sessions": [r.to_dict() for r in results],
    }


def render(results: list[SessionAudit], skipped: int, policy: str) -> str:
    """The human report: each session's obligations, then a summary table."""
    lines: list[str] = []
    for result in results:
        lines.extend(_session(result))
    lines.append(_summary(results, skipped, policy))
    return "\n".join(lines) + "\n"


def _short(path: str) -> str:
    return path if len(path) <= 60 else "…" + path[-59:]


def _session(result: SessionAudit) -> list[str]:
    name = Path(result.path).name
    head = f"== {result.path} ({result.format}, {result.lines} lines, {result.tool_calls} tool calls)"
    lines = [head]
    if not (result.open or result.earlier or result.resolved):
        lines.append("   no checks failed in this session (no current-run obligation record)")
    for row in result.open:
        lines.extend(_row("OPEN", row, name))
    for row in result.earlier:
        lines.extend(_row("UNRESOLVED (left behind when a later task began)", row, name))
    for row in result.resolved:
        lines.extend(_row("resolved", row, name))
    if result.read_error:
        lines.append(f"   INCOMPLETE: {result.read_error}; this covers only the lines read")
    if result.skipped_lines:
        examples = "; ".join(f"line {line}: {reason}" for line, reason in result.skipped_examples[:3])
        lines.append(f"   skipped {result.skipped_lines} unreadable line(s) — {examples}")
    lines.append("")
    return lines


def _row(label: str, row: dict[str, Any], name: str) -> list[str]:
    if row["kind"] == "claim-contradicted":
        what = f"claim {row['claim_id']!r}" + (f" on `{row['check']}`" if row["check"] else " (keyless)")
    else:
        where = f" in {row['cwd']}" if row["cwd"] else ""
        what = f"`{row['check']}` ({row['check_kind']}){where}"
    lines = [f"   {label}: {what}"]
    if row["kind"] != "claim-contradicted":
        at = row["last_failed_at"] or row["first_failed_at"]
        times = f"failed {row['failures']}x, last at {at}" if row["failures"] > 1 else f"failed at {at}"
        lines.append(f"      {times}: {row['summary']}")
    else:
        lines.append(f"      {row['summary']}")
    attempt = row["last_attempt"]
    if attempt is not None and row["state"] == "open":
        at = f" ({attempt['origin']})" if attempt.get("origin") else ""
        lines.append(f"      last re-run `{attempt['command']}`{at} did not count — {attempt['reason']}")
    if row["reopened"] is not None:
        at = f" ({row['reopened']['at']})" if row["reopened"]["at"] else ""
        lines.append(f"      re-opened{at}: {row['reopened']['detail']}")
    if row["witness"] is not None:
        lines.append(f"      witnessed by {row['witness']['call_id']} at {row['witness']['at']}")
    if row["disposition"]:
        lines.append(f"      disposition {row['disposition']['kind']}: {row['disposition']['basis']}")
    if row["state"] == "open":
        lines.append(f"      closes only through: {row['closes_by']}")
    return lines


def _summary(results: list[SessionAudit], skipped: int, policy: str) -> str:
    with_unresolved = [r for r in results if r.unresolved]
    header = (f"{len(results)} session(s) audited under policy {policy}"
              + (f", {skipped} file(s) skipped (not transcripts)" if skipped else "")
              + f"; {len(with_unresolved)} with unresolved obligations")
    rows = [("session", "format", "calls", "open", "earlier", "resolved", "skipped")]
    for r in results:
        rows.append((_short(r.path), r.format or "-", str(r.tool_calls), str(len(r.open)), str(len(r.earlier)),
                     str(len(r.resolved)), str(r.skipped_lines)))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    table = ["  ".join(cell.ljust(width) if i < 2 else cell.rjust(width) for i, (cell, width)
                       in enumerate(zip(row, widths, strict=True))) for row in rows]
    return "\n".join([header, *table])
