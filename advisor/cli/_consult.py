"""``witness consult``: replay a transcript, compile its ledger, consult the advisor, print the verdict.

Everything heavy — the SDKs, rich — is imported only on this command's path, and only when it
is needed (``--dry-run`` calls no model; piped output never loads rich). On a terminal a live
status says what it is doing meanwhile (``_consult_status``).
"""

from __future__ import annotations

import asyncio
import os
import sys
from contextlib import aclosing
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from advisor.consult import ConsultationLog, ConsultSettings, Investigation, Workspace, consult, load_consult_settings
from advisor.errors import WorkspaceError
from advisor.ledger import Ledger, read_ledger
from advisor.models import load_model_config, make_model
from obligations import NoSuchCall, until_call
from shellparse import printable

from ._consult_output import print_request, print_result
from ._consult_status import ConsultStatus
from ._exits import ExitCode
from ._output import json_text

if TYPE_CHECKING:
    import click

    from advisor.consult import Consultation

EPILOG = """\
Exit status: 0 when the advice is `none` or `nit`; 1 for `concern` or `blocker`, an answer without
a verdict line, or a consultation skipped or cut short (budget, empty answer, a ledger too large
for its token budget); 2 for usage errors, a configuration the advisor cannot run with, a workspace
that is not a directory or is the file system's root or the home directory (then pass --workspace
with a project's directory), or when no model could be reached.
"""


@dataclass(frozen=True)
class ConsultOptions:
    """What ``witness consult`` was asked to do."""

    transcript: str
    question: str | None = None
    upto: int | None = None
    model: str | None = None
    provider: str | None = None
    base_url: str | None = None
    workspace: str | None = None
    dry_run: bool = False
    as_json: bool = False


def read_session(options: ConsultOptions, transcript: Path | None = None,
                 status: ConsultStatus | None = None) -> tuple[Ledger, str | None]:
    """The session's ledger (as if it had ended after ``--upto``'s call) and its recorded working directory
    (``transcript``: the file to read, when it is not ``options.transcript`` itself — a stream's copy;
    ``status``: told how far it is)."""
    path = Path(transcript or options.transcript)
    read = read_ledger(path, select=lambda events: until_call(events, options.upto),
                       progress=status.reading(path) if status is not None else None)
    return read.ledger, read.report.cwd


def workspace_for(options: ConsultOptions, recorded: str | None) -> Path:
    """``--workspace``, else the session's recorded working directory when it exists here, else the current one."""
    if options.workspace is not None:
        return Path(options.workspace)
    if recorded and os.path.isdir(recorded):
        return Path(recorded)
    return Path.cwd()


async def _consult(options: ConsultOptions, settings: ConsultSettings, ledger: Ledger, workspace: Path,
                   status: ConsultStatus) -> Consultation:
    """The consultation, recorded in the log once it is over; ``status`` is told each step."""
    config = load_model_config({"model": options.model, "provider": options.provider, "base_url": options.base_url})
    log = ConsultationLog()
    async with aclosing(make_model(config)) as model:
        status.advisor = f"{model.provider}:{model.model}"  # as the footer and the log name it
        status.compiling()
        result = await consult(ledger, model, question=options.question, workspace=workspace, settings=settings,
                               prices=config.prices, spent=log.session_spend(ledger.session_id), on_step=status.step)
    return log.keep(result)


def exit_status(result: Consultation) -> int:
    """0 for `none`/`nit`; 2 when no model answered (unreachable, refused, timed out, the executor's own);
    1 otherwise."""
    if result.stop_class in ("unreached", "transient"):
        return ExitCode.USAGE
    if result.stop_class == "answered" and result.severity in ("none", "nit"):
        return ExitCode.OK
    return ExitCode.FINDINGS


def run_consult(options: ConsultOptions, out: IO[str], err: IO[str]) -> int:
    """Carry out ``witness consult``; return its exit status."""
    from ._inputs import one_transcript

    settings = load_consult_settings()
    status = ConsultStatus(err)  # drawn while it reads and while it waits; stopped to print
    try:
        with status, one_transcript(options.transcript, who="witness consult", err=err) as transcript:
            ledger, recorded = read_session(options, transcript, status)
    except NoSuchCall as problem:
        err.write(printable(f"witness consult: --upto {options.upto}: {problem}\n"))
        return ExitCode.USAGE
    workspace = workspace_for(options, recorded)
    if options.dry_run:
        compiled = ledger.compile(question=options.question,
                                  tools=Investigation(workspace, settings=settings).declarations())
        print_request(compiled, out, as_json=options.as_json)
        if not compiled.fits:
            err.write("witness consult: this request exceeds the ledger's token budget; a consultation would be "
                      "skipped\n")
        return ExitCode.OK
    try:
        Workspace(workspace, settings.deny_patterns)
    except WorkspaceError as problem:
        err.write(printable(f"witness consult: {problem}; pass --workspace with a project's directory\n"))
        return ExitCode.USAGE
    with status:
        result = asyncio.run(_consult(options, settings, ledger, workspace, status))
    if result.stop_reason == "too-large":
        err.write(f"witness consult: skipped — {result.error} (raise [ledger] token_budget)\n")
        return exit_status(result)
    if options.as_json:
        out.write(json_text(result.model_dump(mode="json")) + "\n")
    else:
        print_result(result, out, err)
    if result.advice is None and not options.as_json:
        err.write(printable(f"witness consult: {result.notice()}\n"))
    if result.log_error is not None:
        err.write(printable(f"witness consult: warning: the consultation could not be written to the log "
                            f"({result.log_error}); the advice above is not in `witness log`\n"))
    return exit_status(result)


def command() -> click.Command:
    """The click command."""
    import click

    from . import _options

    @click.command("consult", context_settings=_options.context_settings(), epilog=EPILOG)
    @click.argument("transcript")
    @click.option("--question", "-q", help="The executor's question (default: its prose beside an advisor call "
                                           "still in flight, if any).")
    @click.option("--upto", type=click.IntRange(min=1), metavar="N",
                  help="Consult as if the session had ended after its N-th tool call.")
    @click.option("--model", help="The advisor model (else WITNESS_ADVISOR_MODEL, else [model] in config.toml).")
    @click.option("--provider", type=click.Choice(["openai", "anthropic"]),
                  help="The wire format (default: anthropic for claude-* models, else openai).")
    @click.option("--base-url", help="The API's base URL (an OpenAI-compatible server, a proxy).")
    @click.option("--workspace", type=click.Path(file_okay=False),
                  help="The directory the advisor's tools may read (default: the session's working directory "
                       "when it exists here, else the current one).")
    @click.option("--dry-run", is_flag=True, help="Call no model: print the exact request instead.")
    @click.option("--json", "as_json", is_flag=True, help="Print JSON: the result envelope, or with --dry-run "
                                                          "the request.")
    def consult_command(transcript: str, **flags: Any) -> int:
        """Ask the advisor (a reviewer model) about a Claude Code, Codex or Pi session.

        The session is compiled into the advisor's ledger — the user's words, one-line cards of the
        agent's tool calls with what witness knows about each check, the newest rounds verbatim, the
        open verification obligations — and the advisor answers with a verdict line (Severity: none,
        nit, concern or blocker) and its advice, after reading what it needs with read-only tools.
        Every consultation is logged: see `witness log`.
        """
        return run_consult(ConsultOptions(transcript, **flags), sys.stdout, sys.stderr)

    return consult_command
