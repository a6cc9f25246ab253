"""The ``witness`` command line, defined with click."""

from __future__ import annotations

import sys

import click

from ._cli import CHECK_CHOICES, CHECK_FLAGS, run_check, run_hook_command

_EPILOG = """\
Exit status: 0 when the command's exit status witnesses its check, 1 when it does not
(masked, a reporting pipe under --policy strict, not a check, unreadable), 2 for usage or
input errors.
"""


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="witness", prog_name="witness")
def cli() -> None:
    """Did the agent really verify its work? Judge shell commands and agent sessions."""


@cli.command(context_settings={"allow_interspersed_args": False}, epilog=_EPILOG)
@click.option("--shell", type=click.Choice(CHECK_CHOICES["--shell"]), default="bash", show_default=True,
              help="Dialect of the command (the text cannot tell bash from PowerShell).")
@click.option("--policy", type=click.Choice(CHECK_CHOICES["--policy"]), default="seed", show_default=True,
              help="seed: a reporting pipe (| tail) witnesses; strict: it does not, outside PowerShell cmdlets.")
@click.option("--format", "format", type=click.Choice(CHECK_CHOICES["--format"]), default=None,
              help="Output format (default: text for one command, json for --batch).")
@click.option(CHECK_FLAGS[0], "format", flag_value="json", help="Same as --format json.")
@click.option(CHECK_FLAGS[1], "explain", is_flag=True,
              help="Show every reason, the check's identity and the effect.")
@click.option("--batch", metavar="[FILE|-]", is_flag=False, flag_value="-", default=None,
              help="Analyse one command per line (or JSONL objects with a \"command\"); "
                   "print one JSON result per line. Without FILE, read standard input.")
@click.argument("command", nargs=-1)
def check(shell: str, policy: str, format: str | None, explain: bool, batch: str | None,
          command: tuple[str, ...]) -> int:
    """Say whether COMMAND is a check and whether its exit status witnesses it.

    \b
      witness check -- 'npm test 2>&1 | tail -20'
      witness check --shell pwsh -- 'npm test; "EXIT=$LASTEXITCODE"'
      witness check --batch commands.txt > verdicts.jsonl
      witness check --batch commands.txt --format text

    The words of COMMAND are joined with spaces; quote it as one argument to keep its own
    quoting. Put it after -- so that its options are not read as witness's.
    """
    if batch is not None and command:
        raise click.UsageError("give either a COMMAND or --batch, not both")
    if batch is None and not command:
        raise click.UsageError("give a COMMAND to check (after --), or --batch FILE")
    return run_check(shell, policy, format, explain, batch, list(command))


@cli.command(epilog="""\
Exit status: 0 when no session has an unresolved obligation, 1 when one does, 2 for usage or
input errors (a path that does not exist, a named file that is not a transcript).
""")
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("--policy", type=click.Choice(CHECK_CHOICES["--policy"]), default="seed", show_default=True,
              help="seed: a reporting pipe (| tail) witnesses; strict: it does not.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document for all sessions.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="Processes auditing in parallel (default: the number of CPUs).")
def audit(paths: tuple[str, ...], policy: str, as_json: bool, jobs: int | None) -> int:
    """Replay agent transcripts and report checks that failed and were never genuinely re-run.

    PATHS are Claude Code, Codex or Pi session files, or directories of them
    (~/.claude/projects, ~/.codex/sessions, ~/.pi/agent/sessions); the format is read from the
    content.
    """
    from ._audit import run_audit

    return run_audit(list(paths), policy, jobs, as_json, sys.stdout, sys.stderr)


@cli.command()
@click.argument("host", type=click.Choice(("claude-code", "codex")))
def hook(host: str) -> int:
    """Answer a Claude Code or Codex hook call (JSON on stdin).

    On Stop and SubagentStop it blocks, a few times per task at most, while verification
    obligations are open, naming each open check and what would close it. Every other event is
    accepted at once. It always exits 0: usage errors and unreadable input allow, with a message
    on standard error. See docs/hooks.md for the settings that install it.
    """
    return run_hook_command(host)
