"""Options that more than one part of the command line knows, defined once.

The click-free parser of ``witness check`` (``_fast``) and the click commands read the same
names and choices here, and a test keeps the two parsers in agreement. The click option
factories import click when called, so importing this module stays cheap.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, TypeVar, get_args

from shellparse import POLICIES, SHELLS

if TYPE_CHECKING:
    import click

OutputFormat = Literal["text", "json"]
"""How ``witness check`` prints its verdict."""
OUTPUT_FORMATS: tuple[OutputFormat, ...] = get_args(OutputFormat)

SHELL = "--shell"
POLICY = "--policy"
FORMAT = "--format"
JSON = "--json"
EXPLAIN = "--explain"
BATCH = "--batch"

CHECK_CHOICES: dict[str, tuple[str, ...]] = {SHELL: SHELLS, POLICY: POLICIES, FORMAT: OUTPUT_FORMATS}
"""``witness check`` options that take one value from a fixed set."""
CHECK_FLAGS: tuple[str, ...] = (JSON, EXPLAIN)
"""``witness check`` options without a value."""

POLICY_MEANING: dict[str, str] = {
    "seed": "the specification's default: a re-run piped into a pass-through reader such as `| tail` counts",
    "strict": "a re-run piped into `| tail`, `| tee` … does not count",
}
"""What each pipe policy means, in words, wherever a policy is named."""
POLICY_HELP = "seed: a reporting pipe (| tail) witnesses; strict: it does not"
"""What ``--policy`` means, wherever it is offered."""

F = TypeVar("F", bound=Callable[..., Any])


def policy_option(detail: str = "") -> Callable[[F], F]:
    """``--policy seed|strict`` (default ``seed``); ``detail`` ends its help."""
    import click

    return click.option(POLICY, type=click.Choice(POLICIES), default="seed", show_default=True,
                        help=f"{POLICY_HELP}{detail}.")


def shell_option() -> Callable[[F], F]:
    """``--shell bash|pwsh`` (default ``bash``)."""
    import click

    return click.option(SHELL, type=click.Choice(SHELLS), default="bash", show_default=True,
                        help="Dialect of the command (the text cannot tell bash from PowerShell).")


def context_settings(**extra: Any) -> dict[str, Any]:
    """The click context settings every command shares."""
    return {"help_option_names": ["-h", "--help"], **extra}


def usage_error(message: str) -> click.UsageError:
    """A usage error (exit status 2), as click reports it."""
    import click

    return click.UsageError(message)
