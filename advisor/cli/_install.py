"""``witness install HOST`` and ``witness uninstall HOST``: the Stop hook (and the review, the MCP server) in a
host's own settings files, written and removed without touching anything else in them."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from ._exits import ExitCode

if TYPE_CHECKING:
    import click

    from ..install import FileChange

EPILOG = """\b
Files (user settings; --project: the current directory's):
  claude-code  ~/.claude/settings.json (hooks, permission), ~/.claude.json (MCP)
               .claude/settings.json, .mcp.json
  codex        $CODEX_HOME/hooks.json, $CODEX_HOME/config.toml (MCP; default ~/.codex)
               .codex/hooks.json, .codex/config.toml
  copilot      $COPILOT_HOME/hooks/witness.json, $COPILOT_HOME/mcp-config.json (default ~/.copilot)
               .github/hooks/witness.json
  gemini       ~/.gemini/settings.json, .gemini/settings.json
  droid        ~/.factory/settings.json, .factory/settings.json
  qwen         ~/.qwen/settings.json, .qwen/settings.json
               (droid, qwen: hooks only; they run `witness hook claude-code`, whose protocol
               they speak)
\b
Exit status: 0 done (or nothing to do), 2 unknown host or a settings file that cannot be read (left as it is).
"""
_AFTER: dict[str, str] = {
    "codex": "Codex runs a hook only once trusted: review `witness hook codex` in /hooks (or pass "
             "--dangerously-bypass-hook-trust to codex exec).",
    "copilot": "The entries run `witness hook copilot`, which needs a witness that has that hook.",
    "gemini": "The entries run `witness hook gemini`, which needs a witness that has that hook.",
}


def _show(changes: list[FileChange], *, dry_run: bool, host: str, installing: bool, out: TextIO) -> None:
    from shellparse import printable

    from ._output import Output

    output = Output(out)
    for change in changes:
        output.write(f"{'would be ' if dry_run and change.action != 'unchanged' else ''}{change.action}: "
                     f"{printable(str(change.path))}\n")
        if dry_run and change.action != "unchanged":
            output.write(change.diff())
    if dry_run:
        output.write("dry run: nothing was written\n")
    elif installing and any(change.action != "unchanged" for change in changes) and host in _AFTER:
        output.write(_AFTER[host] + "\n")


def run(host: str, *, installing: bool, project: bool, review: bool, mcp: bool, dry_run: bool, as_json: bool,
        program: str | None, out: TextIO) -> int:
    """Install or uninstall, print what changed (or would), and return the exit status."""
    from .. import install as setup

    root = Path.cwd() if project else None
    scope: setup.Scope = "project" if project else "user"
    if installing:
        changes = setup.install(host, scope=scope, review=review, mcp=mcp, program=program, project=root,
                                dry_run=dry_run)
    else:
        changes = setup.uninstall(host, scope=scope, project=root, dry_run=dry_run)
    if as_json:
        from ._output import Output, json_text

        Output(out).write(json_text({"host": host, "scope": scope, "dry_run": dry_run,
                                     **setup.summary(changes)}, indent=2) + "\n")
    else:
        _show(changes, dry_run=dry_run, host=host, installing=installing, out=out)
    return ExitCode.OK


def _options(function: click.Command) -> click.Command:
    import click

    for option in reversed([
        click.argument("host", type=click.Choice(["claude-code", "codex", "copilot", "gemini", "droid", "qwen"])),
        click.option("--project", is_flag=True, help="The project's settings (in the current directory), not the "
                                                     "user's."),
        click.option("--dry-run", is_flag=True, help="Print what would change, as a diff; write nothing."),
        click.option("--json", "as_json", is_flag=True, help="Print the files and their changes as JSON."),
    ]):
        function = option(function)
    return function


def install_command() -> click.Command:
    """The ``install`` click command."""
    import click

    from . import _options as options

    @click.command("install", context_settings=options.context_settings(), epilog=EPILOG)
    @click.option("--review", is_flag=True, help="Run the completion review at Stop (witness hook … --review).")
    @click.option("--mcp", is_flag=True, help="Add witness's MCP server (witness mcp) and allow its tools.")
    @click.option("--program", metavar="COMMAND", default=None,
                  help="How the host should start witness (default: `witness` when it is on the PATH, else this "
                       "program's full path).")
    def command(host: str, project: bool, review: bool, mcp: bool, dry_run: bool, as_json: bool,
                program: str | None) -> int:
        """Write witness's Stop hook into HOST's settings, keeping everything else in the file.

        Running it again changes nothing; `witness uninstall HOST` takes the entries out again."""
        return run(host, installing=True, project=project, review=review, mcp=mcp, dry_run=dry_run,
                   as_json=as_json, program=program, out=sys.stdout)

    return _options(command)


def uninstall_command() -> click.Command:
    """The ``uninstall`` click command."""
    import click

    from . import _options as options

    @click.command("uninstall", context_settings=options.context_settings(), epilog=EPILOG)
    def command(host: str, project: bool, dry_run: bool, as_json: bool) -> int:
        """Remove witness's hooks, MCP server and permission from HOST's settings, and nothing else."""
        return run(host, installing=False, project=project, review=False, mcp=False, dry_run=dry_run,
                   as_json=as_json, program=None, out=sys.stdout)

    return _options(command)
