"""``witness mcp``: the advisor and the open obligations as MCP tools, over standard input and output.

A host (Claude Code, Codex) starts it as an MCP server and calls its ``advisor`` and
``obligations`` tools; ``docs/hosts.md`` has the configuration. The advisor model is configured as
for ``witness consult`` (``WITNESS_ADVISOR_*``, ``[model]`` in ``config.toml``), through the
environment the host gives the server. Needs the ``mcp`` extra (the official ``mcp`` SDK).
"""

from __future__ import annotations

import sys
from typing import IO, TYPE_CHECKING, Any

from . import _options
from ._exits import ExitCode

if TYPE_CHECKING:
    import click

EPILOG = """\
Standard output carries the MCP protocol only; diagnostics go to standard error. It stops when
the host closes its standard input (exit 0). Exit status 2: the mcp extra is missing.
"""


def run_mcp(flags: dict[str, Any], err: IO[str]) -> int:
    """Serve until the client goes away; return the exit status."""
    try:
        from advisor.mcp import serve_mcp
    except ImportError as error:
        err.write(f"witness mcp needs the mcp extra (pip install 'witness[mcp]'): {error.name} is missing\n")
        return ExitCode.USAGE
    try:
        serve_mcp({name: value for name, value in flags.items() if value is not None})
    except KeyboardInterrupt:
        return ExitCode.INTERRUPTED
    return ExitCode.OK


def command() -> click.Command:
    """The click command."""
    import click

    @click.command("mcp", context_settings=_options.context_settings(), epilog=EPILOG)
    @click.option("--model", help="The advisor model (else WITNESS_ADVISOR_MODEL, else [model] in config.toml).")
    @click.option("--provider", type=click.Choice(["openai", "anthropic"]),
                  help="The advisor's API (default: anthropic for claude-* models, else openai).")
    @click.option("--base-url", help="The API's base URL (an OpenAI-compatible server, a proxy).")
    def mcp_command(model: str | None, provider: str | None, base_url: str | None) -> int:
        """Serve witness's advisor and obligations tools to an MCP client (stdio).

        Add it to Claude Code with `claude mcp add witness -- witness mcp`, or to Codex as
        [mcp_servers.witness] command = "witness", args = ["mcp"] in config.toml.
        """
        return run_mcp({"model": model, "provider": provider, "base_url": base_url}, sys.stderr)

    return mcp_command
