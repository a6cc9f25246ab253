"""The ``witness`` click group, whose subcommands load on demand.

Each subcommand lives in a module of its own and is imported only when it is the one asked for
(or when ``witness --help`` lists them all), so one command never pays for another's imports.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from . import _options


def _check() -> click.Command:
    from ._check import command

    return command()


def _audit() -> click.Command:
    from ._audit import command

    return command()


def _hook() -> click.Command:
    from ._hook import command

    return command()


def _consult() -> click.Command:
    from ._consult import command

    return command()


def _log() -> click.Command:
    from ._log import command

    return command()


def _mcp() -> click.Command:
    from ._mcp import command

    return command()


def _packet() -> click.Command:
    from ._packet import command

    return command()


def _serve() -> click.Command:
    from ._serve import command

    return command()


SUBCOMMANDS: dict[str, Callable[[], click.Command]] = {"audit": _audit, "check": _check, "consult": _consult,
                                                       "hook": _hook, "log": _log, "mcp": _mcp, "packet": _packet,
                                                       "serve": _serve}
"""Every subcommand, and how to build it."""


def _install() -> click.Command:
    from ._install import install_command

    return install_command()


def _uninstall() -> click.Command:
    from ._install import uninstall_command

    return uninstall_command()


SUBCOMMANDS.update(install=_install, uninstall=_uninstall)


class LazyGroup(click.Group):
    """A group whose subcommands are built by their factories when first asked for."""

    def __init__(self, *args: Any, lazy: dict[str, Callable[[], click.Command]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = lazy
        """Subcommand names and their factories."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        factory = self.lazy.get(cmd_name)
        if factory is not None and cmd_name not in self.commands:
            self.add_command(factory(), cmd_name)
        return super().get_command(ctx, cmd_name)


@click.group(cls=LazyGroup, lazy=SUBCOMMANDS, context_settings=_options.context_settings())
@click.version_option(package_name="witness", prog_name="witness")
def cli() -> None:
    """Did the agent really verify its work? Judge shell commands and agent sessions."""
