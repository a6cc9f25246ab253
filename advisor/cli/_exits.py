"""Exit statuses of ``witness``, defined once, and the one place that turns an exception into one.

=====  =====================================================================================
  0    ok: for ``check``, the command's exit status witnesses its check; for ``audit``, nothing
       is left unresolved
  1    findings: the command does not witness; a session left an obligation unresolved
  2    usage or input error: an unknown option, a bad value, an unreadable file
 130   interrupted (Ctrl-C)
 143   terminated (``SIGTERM``), after cleaning up
=====  =====================================================================================

``witness hook`` always exits 0: to the hosts that call it, exit 2 means "block".
"""

from __future__ import annotations

import os
import sys
from enum import IntEnum

TYPE_CHECKING = False  # `typing` itself is not loaded on this path: a hook answers a tool call in it
if TYPE_CHECKING:
    from typing import TextIO


class ExitCode(IntEnum):
    """What a ``witness`` exit status means."""

    OK = 0
    FINDINGS = 1
    USAGE = 2
    INTERRUPTED = 130
    TERMINATED = 143


TERMINATION = {"received": False}
"""Whether the process was told to end (``SIGTERM``, see :func:`end_cleanly_on_sigterm`)."""


def end_cleanly_on_sigterm() -> None:
    """Make ``SIGTERM`` (a ``kill``, a supervisor stopping a job) unwind the command as Ctrl-C does,
    so what it holds is cleaned up (a stream's temporary copy): a ``SystemExit`` raised where it
    stands (not an ``Exception``: nothing catches it as a failure and goes on, and click, which
    writes a line before it turns a ``KeyboardInterrupt`` into ``Abort``, lets it through), which
    :func:`exit_code_for` reports as ``terminated``, exit status 143."""
    import signal

    def terminate(*_: object) -> None:
        TERMINATION["received"] = True
        raise SystemExit(ExitCode.TERMINATED)

    signal.signal(signal.SIGTERM, terminate)


def exit_code_for(error: BaseException, err: TextIO, *, command: str | None = None) -> int:
    """The exit status for an exception that ended a command, after saying what happened on ``err``
    (nothing for a closed output pipe), as ``witness COMMAND: …``. An exception that is not the
    user's (a bug) is raised again."""
    prefix = f"witness {command}" if command else "witness"
    if isinstance(error, BrokenPipeError):
        # A reader of our output that went away (`witness check … | head -1`): nothing to say, and
        # nothing more to write, not even the interpreter's last flush.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return ExitCode.OK
    if isinstance(error, SystemExit):
        if not TERMINATION["received"]:
            raise error
        err.write(f"{prefix}: terminated\n")
        return ExitCode.TERMINATED
    if isinstance(error, KeyboardInterrupt) or _interrupted_in_click(error):
        err.write(f"{prefix}: interrupted\n")
        return ExitCode.INTERRUPTED
    click = sys.modules.get("click")
    if click is not None:
        if isinstance(error, click.exceptions.Exit):
            return int(error.exit_code)
        if isinstance(error, click.ClickException):
            error.show(file=err)
            return int(error.exit_code)
        if isinstance(error, click.Abort):
            err.write(f"{prefix}: aborted\n")
            return ExitCode.FINDINGS
    if _raised_on_purpose(error):
        from shellparse import printable  # an error may name a path, or quote what a model answered

        err.write(printable(f"{prefix}: {error}") + "\n")
        return ExitCode.USAGE
    raise error


def _interrupted_in_click(error: BaseException) -> bool:
    """click turns Ctrl-C into ``Abort``, raised from the ``KeyboardInterrupt``."""
    click = sys.modules.get("click")
    return click is not None and isinstance(error, click.Abort) and isinstance(error.__cause__, KeyboardInterrupt)


def _raised_on_purpose(error: BaseException) -> bool:
    """An error the packages raise for bad input or configuration (their ``errors`` modules).

    Looked up among the modules already imported: a package never imported raised nothing."""
    for module, name in (("advisor.errors", "AdvisorError"), ("obligations.errors", "ObligationsError")):
        loaded = sys.modules.get(module)
        if loaded is not None and isinstance(error, getattr(loaded, name)):
            return True
    return False
