"""Every exception the ``shellparse`` package raises on purpose.

::

    ShellparseError                                  base of everything below
    ├── UnknownShell(ShellparseError, ValueError)    ``shell`` is not one of ``SHELLS``
    ├── UnknownPolicy(ShellparseError, ValueError)   ``policy`` is not one of ``POLICIES``
    ├── NotACommand(ShellparseError, TypeError)      the command given is not a ``str``
    ├── NestingTooDeep(ShellparseError, RecursionError)
    │                                                constructs nest deeper than the analysis
    │                                                follows; raised inside the parsers and
    │                                                caught there: ``parse`` and ``analyze``
    │                                                report a parse error instead (fail-closed)
    └── WorkExhausted(ShellparseError, RuntimeError) the analysis of one command needed more work
                                                     than its budget; raised inside the analysis and
                                                     caught there: ``analyze`` refuses the command
                                                     (``unreadable``)

A command line that is not valid shell is not an error: it is analysed, fail-closed, and its
problem reported in :attr:`Analysis.parse_error`. Each class also subclasses its natural
standard-library base, so callers that only know the standard library (``except ValueError``)
still catch what they mean. Modules that add an exception add it here and to the drawing above.
"""

from __future__ import annotations

__all__ = ["NestingTooDeep", "NotACommand", "ShellparseError", "UnknownPolicy", "UnknownShell", "WorkExhausted"]


class ShellparseError(Exception):
    """Base class of every exception shellparse raises on purpose."""


class UnknownShell(ShellparseError, ValueError):
    """The ``shell`` argument names no dialect shellparse reads (see :data:`shellparse.SHELLS`)."""


class UnknownPolicy(ShellparseError, ValueError):
    """The ``policy`` argument names no pipe policy (see :data:`shellparse.POLICIES`)."""


class NotACommand(ShellparseError, TypeError):
    """The command given to :func:`shellparse.analyze` or :func:`shellparse.parse` is not a ``str``."""


class NestingTooDeep(ShellparseError, RecursionError):
    """Constructs nest deeper than the analysis follows (fail-closed, never a crash)."""


class WorkExhausted(ShellparseError, RuntimeError):
    """The analysis of one command needed more work than its budget (``WORK_PER_CHARACTER`` of it per
    character): the command is refused as unreadable, so that any analysis stays linear in its length."""
