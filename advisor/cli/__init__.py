"""The ``witness`` command line: ``main`` (the console script) and ``cli`` (the click group).

One module per subcommand (``check``, ``audit``, ``hook``), the options they share in one place,
and exit statuses defined once (:class:`ExitCode`: 0 ok, 1 findings, 2 usage, 130 interrupted).
Importing this package does not import click: ``cli`` is built when first asked for, and
``witness check`` / ``witness hook`` run their common forms without it.
"""

from __future__ import annotations

from advisor._lazy import load as _load

from ._exits import ExitCode
from ._main import main

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: `typing` is not loaded on the hook path
if TYPE_CHECKING:
    from typing import Any

    from ._group import cli

__all__ = ["ExitCode", "cli", "main"]


_LAZY = {"cli": "_group"}
"""Public names and the module each loads from on first use (:mod:`advisor._lazy`): the click group."""


def __getattr__(name: str) -> Any:
    return _load(__name__, _LAZY, name, globals())
