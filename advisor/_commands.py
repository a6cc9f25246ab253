"""The ``witness`` command line, defined with click."""

from __future__ import annotations

import click

from ._cli import CHECK_CHOICES, CHECK_FLAGS, run_check

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
