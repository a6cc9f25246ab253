"""``witness hook claude-code|codex``: answer the host's hook call (JSON on standard input).

What the hosts send and are answered is :mod:`advisor.hosts`'s business; this is only the
command that reads the call and prints the answer. It always exits 0 — to these hosts exit 2
means "block" — whatever goes wrong: a closed or unreadable standard input, a closed or full
standard output or error, an unknown option, a call that would outlast its deadline
(``WITNESS_HOOK_DEADLINE``, default 20 s, 150 s with ``--review``: past it the hook allows, with a
message). Standard input is read up to ``MAX_INPUT_BYTES`` (16 MB); the hosts send a few kilobytes.
"""

from __future__ import annotations

import os
import sys

from advisor.hosts import answer_hook
from advisor.hosts._constants import DEADLINE_VARIABLE, DEFAULT_DEADLINE, MAX_INPUT_BYTES, REVIEW_DEADLINE, REVIEW_FLAG
from advisor.hosts._deadline import deadline_seconds

from ._exits import ExitCode
from ._output import Output

TYPE_CHECKING = False  # `typing` is not loaded on the hook path
if TYPE_CHECKING:
    from typing import TextIO

    import click

USAGE = "usage: witness hook claude-code|codex [--review] < hook-input.json"


def run_hook(args: list[str]) -> int:
    """Answer the hook call on standard input; print the answer. Always exit status 0."""
    err: TextIO = Output(sys.stderr)  # type: ignore[assignment]  # only `write` is used: failures are swallowed
    try:
        review = REVIEW_FLAG in args
        deadline = _deadline(REVIEW_DEADLINE if review else DEFAULT_DEADLINE)
        _arm(deadline, err)
        host = _host([arg for arg in args if arg != REVIEW_FLAG], err)
        raw = _read_input(err)
        answer = answer_hook(host, raw, err, until=_now() + deadline, review=review) \
            if host and raw is not None else ""
        _disarm()
        if answer:
            Output(sys.stdout).write(answer + "\n")
    except BaseException as error:  # whatever happens, the host must not read a block
        err.write(f"witness hook: internal error ({type(error).__name__}: {error}); allowing\n")
    return ExitCode.OK


def _host(args: list[str], err: TextIO) -> str | None:
    """The host named in ``args``; ``None`` (said on ``err``) for anything else."""
    options = [arg for arg in args if arg.startswith("-")]
    words = [arg for arg in args if not arg.startswith("-")]
    if options or len(words) != 1:
        what = f"unknown option {options[0]!r}" if options else ("no host named" if not words else "too many arguments")
        err.write(f"witness hook: {what}; {USAGE}; allowing\n")
        return None
    return words[0]  # an unknown host is answer_hook's to report


def _read_input(err: TextIO) -> bytes | None:
    """Standard input, at most ``MAX_INPUT_BYTES`` + 1 bytes of it; ``None`` when it cannot be read."""
    stdin = sys.stdin
    if stdin is None:
        err.write("witness hook: bad hook input: standard input is closed; allowing\n")
        return None
    try:
        return stdin.buffer.read(MAX_INPUT_BYTES + 1)
    except (OSError, ValueError) as error:
        reason = getattr(error, "strerror", None) or error
        err.write(f"witness hook: bad hook input: standard input cannot be read ({reason}); allowing\n")
        return None


def _deadline(default: float) -> float:
    """``WITNESS_HOOK_DEADLINE`` (a bad value is reported by the Stop logic; ``default`` guards here)."""
    value = os.environ.get(DEADLINE_VARIABLE, "").strip()
    return (deadline_seconds(value) or default) if value else default


def _now() -> float:
    import time

    return time.monotonic()


def _arm(seconds: float, err: TextIO) -> None:
    """End the process with exit status 0 once ``seconds`` have passed, whatever it is doing."""
    import signal

    def expire(*_: object) -> None:
        err.write(f"witness hook: no answer within {seconds:g} s (WITNESS_HOOK_DEADLINE); allowing\n")
        os._exit(0)

    if hasattr(signal, "setitimer"):
        signal.signal(signal.SIGALRM, expire)
        signal.setitimer(signal.ITIMER_REAL, seconds)
    else:  # no interval timers (Windows): a watchdog thread
        import threading

        timer = threading.Timer(seconds, expire)
        timer.daemon = True
        timer.start()


def _disarm() -> None:
    import signal

    if hasattr(signal, "setitimer"):
        signal.setitimer(signal.ITIMER_REAL, 0)


def command() -> click.Command:
    """The click command, for ``witness hook --help`` and ``witness --help`` (calls never use it)."""
    import click

    from . import _options

    @click.command("hook", context_settings=_options.context_settings(ignore_unknown_options=True))
    @click.argument("args", nargs=-1, type=click.UNPROCESSED, metavar="claude-code|codex [--review]")
    def hook(args: tuple[str, ...]) -> int:
        """Answer a Claude Code or Codex hook call (JSON on stdin).

        On Stop and SubagentStop it blocks, a few times per agent and task at most, while
        verification obligations are open, naming each open check and what would close it. Every
        other event is accepted at once. With --review, once nothing is open, a completion review
        by the advisor model holds the agent on a concern or blocker. It always exits 0: usage
        errors, unreadable input, a bad setting, an advisor that cannot be reached or a call past
        WITNESS_HOOK_DEADLINE (default 20 s, 150 s with --review) allow, with a message on
        standard error. See docs/hooks.md and docs/hosts.md for the settings that install it.
        """
        return run_hook(list(args))

    return hook
