"""Read a bash or PowerShell command line and say whether it runs a check (test, lint,
typecheck, build), which one, and whether its exit status can witness that check.

>>> from shellparse import analyze
>>> result = analyze("cd api && npm test 2>&1 | tail -20")
>>> result.validation.statement, result.validation.directory, result.exit_source
('npm test', 'api', 'reporting-pipe')
>>> analyze("pytest -q; echo done").witness_eligible
False

The public API is this module's ``__all__``; everything else lives in private modules. The
output markers (``failure_evidence`` …) load on first use: they judge what a check printed, which
the analysis of a command line (``witness check``, a hook) never needs.
"""

import typing as _typing

from ._api import MAX_COMMAND_CHARS, analyze, clear_cache, parse
from ._model import Command, Opaque, Pipeline, Redirect, Script, Span, Statement, Word
from ._printable import printable
from ._reasons import REASONS, ReasonInfo
from ._results import Analysis, Check, Reason, Validation
from ._selection import Selection, covers
from ._vocabulary import (
    CHECK_KINDS,
    COMMAND_KINDS,
    EFFECTS,
    EXIT_SOURCES,
    LEVELS,
    OPAQUE_KINDS,
    OPERATORS,
    POLICIES,
    REASON_CODES,
    SHELLS,
    CheckKind,
    CommandKind,
    Effect,
    ExitSource,
    Level,
    OpaqueKind,
    Operator,
    Policy,
    ReasonCode,
    Shell,
)
from .errors import NestingTooDeep, NotACommand, ShellparseError, UnknownPolicy, UnknownShell, WorkExhausted

if _typing.TYPE_CHECKING:
    from ._markers import failure_evidence, marker_family, not_run_evidence, rewrite_evidence
    from ._ran import none_ran_evidence, ran_evidence

_LAZY = {"failure_evidence": "_markers", "marker_family": "_markers", "not_run_evidence": "_markers",
         "rewrite_evidence": "_markers", "none_ran_evidence": "_ran", "ran_evidence": "_ran"}
"""Public names whose module loads on first use, and that module."""

__all__ = [
    "CHECK_KINDS",
    "COMMAND_KINDS",
    "EFFECTS",
    "EXIT_SOURCES",
    "LEVELS",
    "MAX_COMMAND_CHARS",
    "OPAQUE_KINDS",
    "OPERATORS",
    "POLICIES",
    "REASONS",
    "REASON_CODES",
    "SHELLS",
    "Analysis",
    "Check",
    "CheckKind",
    "Command",
    "CommandKind",
    "Effect",
    "ExitSource",
    "Level",
    "NestingTooDeep",
    "NotACommand",
    "Opaque",
    "OpaqueKind",
    "Operator",
    "Pipeline",
    "Policy",
    "Reason",
    "ReasonCode",
    "ReasonInfo",
    "Redirect",
    "Script",
    "Selection",
    "Shell",
    "ShellparseError",
    "Span",
    "Statement",
    "UnknownPolicy",
    "UnknownShell",
    "Validation",
    "Word",
    "WorkExhausted",
    "analyze",
    "clear_cache",
    "covers",
    "failure_evidence",
    "marker_family",
    "none_ran_evidence",
    "not_run_evidence",
    "parse",
    "printable",
    "ran_evidence",
    "rewrite_evidence",
]


if not _typing.TYPE_CHECKING:  # hidden from type checkers, which then still reject unknown names

    def __getattr__(name: str) -> object:
        # advisor._lazy.load, the one mechanism witness's packages share (a package never imports another's
        # private module, and shellparse imports nothing of the others)
        module = _LAZY.get(name)
        if module is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        value = getattr(__import__(f"{__name__}.{module}", fromlist=[name]), name)
        globals()[name] = value  # once loaded, an attribute like the others
        return value

    def __dir__() -> list[str]:
        return sorted({*globals(), *_LAZY})
