"""The public entry points: :func:`analyze` and :func:`parse`."""

from __future__ import annotations

import gc
from functools import lru_cache

from ._analysis import Analyzer
from ._bash import parse_bash
from ._model import Script, Span
from ._results import Analysis, Reason
from ._vocabulary import POLICIES, SHELLS

CACHE_SIZE = 4096
_GC_PAUSE_ABOVE = 16_384


def parse(command: str, shell: str = "bash") -> Script:
    """Parse ``command`` into the neutral model, without judging it.

    ``shell`` is ``"bash"`` or ``"pwsh"``; the text itself cannot reliably tell them apart, so
    the caller must say (an agent host knows which tool ran the command).
    """
    _check_arguments(shell, "seed")
    problem = _unusable(command)
    if problem is not None:
        return Script((), problem[0], problem[1])
    return _parse(command, shell)


def _parse(command: str, shell: str) -> Script:
    if shell == "pwsh":
        from ._pwsh import parse_pwsh  # the PowerShell grammar loads only when needed

        return parse_pwsh(command)
    return parse_bash(command)


def analyze(command: str, shell: str = "bash", policy: str = "seed", *, cache: bool = True) -> Analysis:
    """Judge one command line: which check it runs and whether its exit status witnesses it.

    ``policy`` is ``"seed"`` (a reporting pipe such as ``| tail -5`` witnesses, as the
    specification accepts) or ``"strict"`` (it does not, outside PowerShell cmdlets). Results are
    immutable; with ``cache`` (the default) repeated commands are served from an LRU cache.
    """
    _check_arguments(shell, policy)
    if cache:
        return _cached(command, shell, policy)
    return _analyze(command, shell, policy)


def clear_cache() -> None:
    """Empty the cache :func:`analyze` uses."""
    _cached.cache_clear()


@lru_cache(maxsize=CACHE_SIZE)
def _cached(command: str, shell: str, policy: str) -> Analysis:
    return _analyze(command, shell, policy)


def _analyze(command: str, shell: str, policy: str) -> Analysis:
    if not isinstance(command, str):
        raise TypeError(f"command must be a str, not {type(command).__name__}")
    problem = _unusable(command)
    if problem is not None:
        message, span = problem
        reason = Reason("unreadable", message, span, "masks")
        return Analysis(command, shell, policy, None, None, False, (reason,), "unknown", message, (), False)
    # Large commands create hundreds of thousands of small tuples, none of them in a cycle: the
    # cyclic collector would only rescan them again and again (1 MB took 2.4x longer with it).
    pause = len(command) > _GC_PAUSE_ABOVE and gc.isenabled()
    if pause:
        gc.disable()
    try:
        script = _parse(command, shell)
        return Analyzer(command, shell, policy).run(script)
    finally:
        if pause:
            gc.enable()


def _unusable(command: str) -> tuple[str, Span] | None:
    """Text no shell can receive as a command line: NUL bytes and lone surrogates."""
    nul = command.find("\0")
    if nul >= 0:
        return "the command contains a NUL byte, which no shell can receive", Span(nul, nul + 1)
    try:
        command.encode("utf-8")
    except UnicodeEncodeError as error:
        return (f"the command is not valid Unicode (a lone surrogate at character {error.start})",
                Span(error.start, error.end))
    return None


def _check_arguments(shell: str, policy: str) -> None:
    if shell not in SHELLS:
        raise ValueError(f"shell must be one of {', '.join(SHELLS)}, not {shell!r}")
    if policy not in POLICIES:
        raise ValueError(f"policy must be one of {', '.join(POLICIES)}, not {policy!r}")
