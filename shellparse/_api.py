"""The public entry points: :func:`analyze` and :func:`parse`."""

from __future__ import annotations

import gc
from functools import lru_cache

from ._analysis import Analyzer
from ._bash import parse_bash
from ._model import Script, Span
from ._reasons import message, reason
from ._results import Analysis
from ._vocabulary import POLICIES, SHELLS, Policy, Shell
from .errors import NotACommand, UnknownPolicy, UnknownShell, WorkExhausted

CACHE_SIZE = 4096
MAX_COMMAND_CHARS = 1_048_576
"""The longest command :func:`analyze` reads by default (``max_chars``). A longer one is fail-closed
at once (``unreadable``, never a witness, effect unknown): analysis time and memory grow linearly
with the command — a few seconds and a few hundred megabytes for a megabyte of ``npm test; echo x;
…`` — so ten megabytes would take a Stop hook far past its time-out. Callers that judge many
commands (the tracker, ``witness check``) set a lower bound. The work of one analysis is capped as
well (:data:`._analysis.WORK_PER_CHARACTER`)."""
_GC_PAUSE_ABOVE = 16_384


def parse(command: str, shell: str = "bash") -> Script:
    """Parse ``command`` into the neutral model, without judging it.

    ``shell`` is ``"bash"`` or ``"pwsh"``; the text itself cannot reliably tell them apart, so
    the caller must say (an agent host knows which tool ran the command). Raises
    :class:`~shellparse.errors.UnknownShell` for any other ``shell`` and
    :class:`~shellparse.errors.NotACommand` when ``command`` is not a ``str``.
    """
    dialect, _ = _checked(command, shell, "seed")
    data = _encoded(command)
    if isinstance(data, _Unusable):
        return Script((), data.message, data.span)
    return _parse(command, dialect, data)


def analyze(command: str, shell: str = "bash", policy: str = "seed", *, cache: bool = True,
            max_chars: int = MAX_COMMAND_CHARS) -> Analysis:
    """Judge one command line: which check it runs and whether its exit status witnesses it.

    ``policy`` is ``"seed"`` (a reporting pipe such as ``| tail -5`` witnesses, as the
    specification accepts) or ``"strict"`` (it does not, outside PowerShell cmdlets). Results are
    immutable; with ``cache`` (the default) repeated commands are served from an LRU cache.
    Raises :class:`~shellparse.errors.UnknownShell`, :class:`~shellparse.errors.UnknownPolicy`
    or :class:`~shellparse.errors.NotACommand` for arguments it cannot take (``shell`` and
    ``policy`` are :data:`Shell` and :data:`Policy` words; any ``str`` is accepted and checked, as
    hosts and command lines hand them over as text). A command longer than ``max_chars`` characters
    is not analysed: it is ``unreadable``, fail-closed, at once.
    """
    dialect, pipes = _checked(command, shell, policy)
    if len(command) > max_chars:
        return _unusable(command, dialect, pipes, _too_long(len(command), max_chars))
    if cache:
        return _cached(command, dialect, pipes)
    return _analyze(command, dialect, pipes)


def clear_cache() -> None:
    """Empty the cache :func:`analyze` uses."""
    _cached.cache_clear()


@lru_cache(maxsize=CACHE_SIZE)
def _cached(command: str, shell: Shell, policy: Policy) -> Analysis:
    return _analyze(command, shell, policy)


def _analyze(command: str, shell: Shell, policy: Policy) -> Analysis:
    data = _encoded(command)
    if isinstance(data, _Unusable):
        return _unusable(command, shell, policy, data)
    # Large commands create hundreds of thousands of small tuples, none of them in a cycle: the
    # cyclic collector would only rescan them again and again (1 MB took 2.4x longer with it).
    pause = len(command) > _GC_PAUSE_ABOVE and gc.isenabled()
    if pause:
        gc.disable()
    try:
        return Analyzer(command, shell, policy).run(_parse(command, shell, data))
    except WorkExhausted:
        return _unusable(command, shell, policy, _Unusable("work", Span(0, len(command)), length=f"{len(command):,}"))
    finally:
        if pause:
            gc.enable()


def _unusable(command: str, shell: Shell, policy: Policy, data: _Unusable) -> Analysis:
    found = reason("unreadable", data.span, data.variant, **data.fields)
    return Analysis(command=command, shell=shell, policy=policy, validation=None, exit_source=None,
                    witness_eligible=False, reasons=(found,), effect="unknown", parse_error=data.message,
                    checks=(), expected_negative=False)


def _too_long(length: int, limit: int) -> _Unusable:
    return _Unusable("too-long", Span(limit, length), length=f"{length:,}", limit=f"{limit:,}")


def _parse(command: str, shell: Shell, data: bytes) -> Script:
    if shell == "pwsh":
        from ._pwsh import parse_pwsh  # the PowerShell grammar loads only when needed

        return parse_pwsh(command, data=data)
    return parse_bash(command, data=data)


class _Unusable:
    """Text no shell can receive as a command line: NUL bytes and lone surrogates."""

    __slots__ = ("fields", "message", "span", "variant")

    def __init__(self, variant: str, span: Span, **fields: str):
        self.variant = variant
        self.span = span
        self.fields = fields
        self.message = message("unreadable", variant, **fields)


def _encoded(command: str) -> bytes | _Unusable:
    """The command as UTF-8, or why no shell can receive it."""
    nul = command.find("\0")
    if nul >= 0:
        return _Unusable("nul", Span(nul, nul + 1))
    try:
        return command.encode("utf-8")
    except UnicodeEncodeError as error:
        return _Unusable("surrogate", Span(error.start, error.end), index=str(error.start))


def _checked(command: object, shell: str, policy: str) -> tuple[Shell, Policy]:
    """``shell`` and ``policy`` as the words they are; raises for arguments analyze cannot take."""
    if shell not in SHELLS:
        raise UnknownShell(f"shell must be one of {', '.join(SHELLS)}, not {shell!r}")
    if policy not in POLICIES:
        raise UnknownPolicy(f"policy must be one of {', '.join(POLICIES)}, not {policy!r}")
    if not isinstance(command, str):
        raise NotACommand(f"command must be a str, not {type(command).__name__}")
    return shell, policy
