"""``witness check`` arguments parsed without click.

Hooks and scripts call ``witness check`` once per tool call, and click alone costs more start-up
time than the analysis; so the common forms of its arguments are parsed here, and anything
unusual — ``--help``, an unknown option, a bad value — is left to click, which reports it. Both
read the option names and choices in ``_options``, and a test keeps them in agreement.
"""

from __future__ import annotations

from typing import cast

from shellparse import Policy, Shell

from . import _options
from ._options import OutputFormat


class CheckOptions:
    """What ``witness check`` was asked to do. (A plain class: ``dataclasses`` costs this start-up path
    more than the rest of its own code.)"""

    __slots__ = ("batch", "explain", "output", "policy", "shell", "words")

    def __init__(self, shell: Shell = "bash", policy: Policy = "seed", output: OutputFormat | None = None,
                 explain: bool = False, batch: str | None = None, words: list[str] | None = None) -> None:
        self.shell: Shell = shell
        """The command's dialect."""
        self.policy: Policy = policy
        """The pipe policy."""
        self.output: OutputFormat | None = output
        """``text`` or ``json`` (``None``: text for one command, json for ``--batch``)."""
        self.explain = explain
        """Show every reason, the check's identity and the effect."""
        self.batch = batch
        """A file (``-``: standard input) of commands, one per line."""
        self.words: list[str] = words if words is not None else []
        """The command's words, joined with spaces."""

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"CheckOptions({fields})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CheckOptions) and all(getattr(self, name) == getattr(other, name)
                                                       for name in self.__slots__)


def parse_check(args: list[str]) -> CheckOptions | None:
    """The options of ``witness check ARGS`` in their common forms; ``None`` means "let click do it"."""
    options = CheckOptions()
    index = 0
    while index < len(args):
        arg = args[index]
        if arg == "--":
            options.words = args[index + 1 :]
            break
        if not arg.startswith("-") or arg == "-":
            options.words = args[index:]
            break
        name, equals, value = arg.partition("=")
        if name in _options.CHECK_CHOICES:
            if not equals:
                if index + 1 >= len(args):
                    return None
                value = args[index + 1]
                index += 1
            if value not in _options.CHECK_CHOICES[name]:
                return None
            _choose(options, name, value)
        elif arg == _options.JSON:
            options.output = "json"
        elif arg == _options.EXPLAIN:
            options.explain = True
        elif name == _options.BATCH:
            if equals:
                options.batch = value
            elif index + 1 < len(args) and (not args[index + 1].startswith("-") or args[index + 1] == "-"):
                options.batch = args[index + 1]
                index += 1
            else:
                options.batch = "-"
        else:
            return None
        index += 1
    if (options.batch is None) == (not options.words):
        return None  # neither a command nor --batch, or both: click explains the usage
    return options


def _choose(options: CheckOptions, name: str, value: str) -> None:
    """Set the option ``name`` to ``value``, one of its choices."""
    if name == _options.SHELL:
        options.shell = cast(Shell, value)
    elif name == _options.POLICY:
        options.policy = cast(Policy, value)
    else:
        options.output = cast(OutputFormat, value)
