"""Running the gateway: checks before binding, logging, and Uvicorn."""

from __future__ import annotations

import logging
import sys
from collections.abc import Mapping

from advisor.gateway._app import create_app
from advisor.gateway._settings import GatewaySettings


def configure_logging(level: int = logging.INFO) -> None:
    """The access log and the gateway's warnings as lines on standard error."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(message)s"))
    for name in ("witness.gateway.access", "witness.gateway"):
        logger = logging.getLogger(name)
        logger.handlers[:] = [handler]
        logger.setLevel(level)
        logger.propagate = False


def serve_gateway(settings: GatewaySettings, *, env: Mapping[str, str] | None = None) -> None:
    """Serve until interrupted. Raises :class:`~advisor.errors.ConfigError` before binding when the
    bind address is not loopback and no client key is configured, or the key's variable is unset."""
    import uvicorn

    settings.check_bind()
    app = create_app(settings, env=env)
    configure_logging()
    uvicorn.run(app, host=settings.host, port=settings.port, lifespan="on", access_log=False,
                log_level="warning", timeout_graceful_shutdown=5, server_header=False)
