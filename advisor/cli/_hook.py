"""``witness hook claude-code|codex``: answer the host's hook call (JSON on standard input).

What the hosts send and are answered is :mod:`advisor.hosts`'s business; this is only the
command that reads the call and prints the answer. It always exits 0: to these hosts exit 2
means "block".
"""

from __future__ import annotations

import sys

from advisor.hosts import HOSTS, answer_hook

from ._exits import ExitCode

TYPE_CHECKING = False  # `typing` is not loaded on the hook path
if TYPE_CHECKING:
    import click


def run_hook(host: str) -> int:
    """Answer the hook call on standard input; print the answer. Always exit status 0."""
    answer = answer_hook(host, sys.stdin.buffer.read(), sys.stderr)
    if answer:
        sys.stdout.write(answer + "\n")
    return ExitCode.OK


def command() -> click.Command:
    """The click command (the fast path answers without it)."""
    import click

    from . import _options

    @click.command("hook", context_settings=_options.context_settings())
    @click.argument("host", type=click.Choice(HOSTS))
    def hook(host: str) -> int:
        """Answer a Claude Code or Codex hook call (JSON on stdin).

        On Stop and SubagentStop it blocks, a few times per task at most, while verification
        obligations are open, naming each open check and what would close it. Every other event is
        accepted at once. It always exits 0: usage errors and unreadable input allow, with a message
        on standard error. See docs/hooks.md for the settings that install it.
        """
        return run_hook(host)

    return hook
