"""``witness audit``: find transcripts, audit them (in parallel), and report for people or programs."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import IO, TYPE_CHECKING

from obligations import SessionAudit, TrackerConfig, audit
from shellparse import Policy

from . import _options
from ._audit_report import document, render
from ._exits import ExitCode

if TYPE_CHECKING:
    import click

EPILOG = """\
Exit status: 0 when no session has an unresolved obligation, 1 when one does, 2 for usage or
input errors (a path that does not exist, a named file that is not a transcript).
"""
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


def _audit_one(job: tuple[str, Policy]) -> SessionAudit:
    path, policy = job
    return audit(path, TrackerConfig(policy=policy))


def audit_all(files: list[Path], policy: Policy, jobs: int, progress: bool) -> list[SessionAudit]:
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


def run_audit(paths: list[str], policy: Policy, jobs: int | None, as_json: bool, out: IO[str], err: IO[str]) -> int:
    """Carry out ``witness audit``; return its exit status."""
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
        out.write(json.dumps(document(results, policy), ensure_ascii=False) + "\n")
    else:
        out.write(render(audited, skipped=len(results) - len(audited) - len(refused), policy=policy))
    if problems or refused or not files:
        if not files and not problems:
            err.write("witness audit: no transcript files found\n")
        return ExitCode.USAGE
    return ExitCode.FINDINGS if any(r.unresolved for r in audited) else ExitCode.OK


def command() -> click.Command:
    """The click command."""
    import click

    @click.command("audit", context_settings=_options.context_settings(), epilog=EPILOG)
    @click.argument("paths", nargs=-1, required=True, type=click.Path())
    @_options.policy_option()
    @click.option("--json", "as_json", is_flag=True, help="Print one JSON document for all sessions.")
    @click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
                  help="Processes auditing in parallel (default: the number of CPUs).")
    def audit_command(paths: tuple[str, ...], policy: Policy, as_json: bool, jobs: int | None) -> int:
        """Replay agent transcripts and report checks that failed and were never genuinely re-run.

        PATHS are Claude Code, Codex or Pi session files, or directories of them
        (~/.claude/projects, ~/.codex/sessions, ~/.pi/agent/sessions); the format is read from the
        content.
        """
        return run_audit(list(paths), policy, jobs, as_json, sys.stdout, sys.stderr)

    return audit_command
