"""``witness serve``: the OpenAI-compatible gateway that runs the advisor as a server tool.

Settings come from the flags, over the ``[gateway]`` table of the configuration file (``--config``,
else ``$WITNESS_CONFIG``, else ``$WITNESS_HOME/config.toml``). The gateway is imported only when
the command runs, and needs the ``serve`` extra (Starlette, Uvicorn).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from . import _options
from ._exits import ExitCode

if TYPE_CHECKING:
    import click

EPILOG = """\
The gateway listens on loopback unless told otherwise, and refuses any other address without
--api-key-env. It stops on Ctrl-C or SIGTERM, finishing the requests in flight (exit 0). Exit
status 2: a bad flag or configuration, the serve extra missing, or the address already in use.
"""
STARTUP_FAILURE = 3
"""Uvicorn's exit status when it cannot bind or start the application."""


def run_serve(flags: dict[str, Any], config: Path | None, err: IO[str]) -> int:
    """Serve until stopped; return the exit status."""
    try:
        from advisor.gateway import load_gateway_settings, serve_gateway
    except ImportError as error:
        err.write(f"witness serve needs the serve extra (pip install 'witness[serve]'): {error.name} is missing\n")
        return ExitCode.USAGE
    settings = load_gateway_settings(flags, path=config)
    settings.check_bind()
    settings.client_key()
    if settings.trace_secret() is None:
        err.write(f"witness serve: neither {settings.trace_key_env} nor trace_key is set: advisor traces are signed "
                  "with a key of this process, and are not replayed after a restart or by another replica\n")
    err.write(f"witness serve: http://{settings.host}:{settings.port}/v1 -> {settings.upstream}\n")
    try:
        serve_gateway(settings)
    except SystemExit as stop:
        if stop.code == STARTUP_FAILURE:
            err.write(f"witness serve: cannot listen on {settings.host}:{settings.port} (see the error above)\n")
            return ExitCode.USAGE
        raise
    return ExitCode.OK


def command() -> click.Command:
    """The click command."""
    import click

    @click.command("serve", context_settings=_options.context_settings(), epilog=EPILOG)
    @click.option("--host", default=None, help="Address to listen on.  [default: 127.0.0.1]")
    @click.option("--port", type=click.IntRange(0, 65535), default=None, help="Port to listen on.  [default: 8787]")
    @click.option("--upstream", metavar="URL", default=None,
                  help="Base URL of the OpenAI-compatible provider.  [default: https://api.openai.com/v1]")
    @click.option("--upstream-key-env", metavar="NAME", default=None,
                  help="Variable holding the upstream's API key.  [default: OPENAI_API_KEY]")
    @click.option("--api-key-env", metavar="NAME", default=None,
                  help="Variable holding the key clients must send as a bearer token (required off loopback).")
    @click.option("--config", "config", type=click.Path(dir_okay=False, path_type=Path), default=None,
                  help="Configuration file whose [gateway] table holds further settings.")
    def serve_command(host: str | None, port: int | None, upstream: str | None, upstream_key_env: str | None,
                      api_key_env: str | None, config: Path | None) -> int:
        """Serve an OpenAI-compatible API that runs witness:advisor tools server-side.

        Clients point their base URL at http://HOST:PORT/v1 and add
        {"type": "witness:advisor", "parameters": {...}} to a request's tools.
        """
        if config is not None and not config.is_file():
            raise click.BadParameter(f"{config} is not a file", param_hint="--config")
        flags = {"host": host, "port": port, "upstream": upstream, "upstream_key_env": upstream_key_env,
                 "api_key_env": api_key_env}
        return run_serve(flags, config, sys.stderr)

    return serve_command
