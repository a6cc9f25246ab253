"""Read a bash or PowerShell command line and say whether it runs a check (test, lint,
typecheck, build), which one, and whether its exit status can witness that check.

>>> from shellparse import analyze
>>> result = analyze("cd api && npm test 2>&1 | tail -20")
>>> result.validation.statement, result.validation.directory, result.exit_source
('npm test', 'api', 'reporting-pipe')
>>> analyze("pytest -q; echo done").witness_eligible
False

The public API is this module's ``__all__``; everything else lives in private modules.
"""

from ._api import analyze, clear_cache, parse
from ._markers import failure_evidence
from ._model import Command, Opaque, Pipeline, Redirect, Script, Span, Statement, Word
from ._results import Analysis, Check, Reason, Validation
from ._vocabulary import (
    CHECK_KINDS,
    EFFECTS,
    EXIT_SOURCES,
    LEVELS,
    POLICIES,
    SHELLS,
    CheckKind,
    Effect,
    ExitSource,
    Level,
    Policy,
    Shell,
)

__all__ = [
    "CHECK_KINDS",
    "EFFECTS",
    "EXIT_SOURCES",
    "LEVELS",
    "POLICIES",
    "SHELLS",
    "Analysis",
    "Check",
    "CheckKind",
    "Command",
    "Effect",
    "ExitSource",
    "Level",
    "Opaque",
    "Pipeline",
    "Policy",
    "Reason",
    "Redirect",
    "Script",
    "Shell",
    "Span",
    "Statement",
    "Validation",
    "Word",
    "analyze",
    "clear_cache",
    "failure_evidence",
    "parse",
]
