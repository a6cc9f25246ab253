"""``witness audit``: find transcripts, audit them (in parallel), and report for people or programs.

Many files are audited by a pool of processes (``--jobs``), their results taken in the order of
the files, so the report is the same as a serial run's. The pool's workers leave Ctrl-C and
``SIGTERM`` to the command, which ends them and cleans up (a stream's copy) before it exits.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import tempfile
from pathlib import Path
from typing import IO, TYPE_CHECKING

from obligations import SessionAudit, TrackerConfig, audit
from shellparse import Policy, printable

from . import _options
from ._audit_paths import PATTERN, Found, Source, find
from ._audit_report import document, render
from ._exits import ExitCode
from ._output import Output, json_text
from ._progress import ReadProgress, shows_progress

if TYPE_CHECKING:
    import click

EPILOG = """\
Exit status: 1 when a session audited has an unresolved obligation, 0 when every session audited
is clean, 2 when nothing could be audited (no transcript found or readable) or for usage errors.
A PATH that does not exist or cannot be read, or a named file that is not a transcript, is a
warning on standard error: the other PATHs are still audited.
"""


def _audit_job(job: tuple[str, Policy]) -> SessionAudit:
    path, policy = job
    return audit(path, TrackerConfig(policy=policy))


def _worker_start() -> None:
    """A worker leaves Ctrl-C to the command (which ends the pool) and dies of ``SIGTERM`` at once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def audit_all(sources: list[Source], policy: Policy, jobs: int, err: IO[str] | None = None) -> list[SessionAudit]:
    """Audit every file, in order; ``jobs`` processes (results are the same as a serial run), with
    progress drawn on ``err`` when it is a terminal (``None``: none)."""
    results: list[SessionAudit] = []
    with ReadProgress([source.path for source in sources], err) as progress:
        if jobs <= 1 or len(sources) <= 1:
            for index, source in enumerate(sources):
                results.append(audit(source.path, TrackerConfig(policy=policy), progress=progress.reading(index)))
                progress.finished(index)
        else:
            work = [(str(source.path), policy) for source in sources]
            with multiprocessing.get_context().Pool(min(jobs, len(work)), initializer=_worker_start) as pool:
                for index, result in enumerate(pool.imap(_audit_job, work)):
                    results.append(result)
                    progress.finished(index)
    return [result.model_copy(update={"path": source.name}) for source, result in zip(sources, results, strict=True)]


def run_audit(paths: list[str], policy: Policy, jobs: int | None, as_json: bool, out: IO[str], err: IO[str]) -> int:
    """Carry out ``witness audit``; return its exit status."""
    with tempfile.TemporaryDirectory(prefix="witness-audit-") as spool:
        found = find(paths, Path(spool), err)
        for warning in found.warnings:
            err.write(printable(f"witness audit: {warning}\n"))
        results = audit_all(found.sources, policy, jobs or os.cpu_count() or 1,
                            err if shows_progress(err) and not as_json else None)
    named = {str(Path(name).expanduser()) for name in paths} | {"-"}
    audited = [r for r in results if r.error is None]
    for result in results:
        if result.error is not None and result.path in named:
            err.write(printable(f"witness audit: {result.path}: {result.error}\n"))
    skipped = found.skipped + [(r.path, r.error) for r in results if r.error is not None and r.path not in named]
    output = Output(out)
    if as_json:
        output.write(json_text(document(results, policy, skipped, found.warnings)) + "\n")
    elif audited:
        output.write(printable(render(audited, skipped=skipped, policy=policy)))
    if not audited:
        err.write(_nothing_audited(paths, found, results))
        return ExitCode.USAGE
    return ExitCode.FINDINGS if any(r.unresolved for r in audited) else ExitCode.OK


def _nothing_audited(paths: list[str], found: Found, results: list[SessionAudit]) -> str:
    """Why nothing was audited: this is never an all-clear."""
    if results:
        why = "no file read was a transcript"
    elif found.skipped:
        why = "every transcript file found was skipped"
    elif found.warnings and len(found.warnings) == len(paths):
        why = "no PATH could be read"
    else:
        why = f"no {PATTERN} file was found"
    return printable(f"witness audit: nothing audited ({why}); this is not an all-clear\n")


def command() -> click.Command:
    """The click command."""
    import click

    @click.command("audit", context_settings=_options.context_settings(), epilog=EPILOG)
    @click.argument("paths", nargs=-1, required=True)
    @_options.policy_option()
    @click.option("--json", "as_json", is_flag=True, help="Print one JSON document for all sessions.")
    @click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
                  help="Processes auditing in parallel (default: the number of CPUs).")
    def audit_command(paths: tuple[str, ...], policy: Policy, as_json: bool, jobs: int | None) -> int:
        """Replay agent transcripts and report checks that failed and were never genuinely re-run.

        PATHS are Claude Code, Codex, Pi, Copilot CLI, Gemini CLI, Qwen Code or Factory Droid session
        files, or directories searched for *.jsonl files (~/.claude/projects, ~/.codex/sessions,
        ~/.pi/agent/sessions, ~/.copilot/session-state, ~/.gemini/tmp, ~/.qwen/projects,
        ~/.factory/sessions); the format is read from the content, and a file
        no reader recognises is refused. - reads standard input, and a named pipe such as
        <(zcat session.jsonl.gz) is read as a stream.
        """
        return run_audit(list(paths), policy, jobs, as_json, sys.stdout, sys.stderr)

    return audit_command

