"""The consultation: a bounded, budgeted exchange with the advisor model, its read-only
investigation tools, the verdict line, and the log of every consultation.

:func:`consult` takes a session's ledger (or an :class:`~advisor.prompt.AdvisorPrompt` made already) and
a :class:`~advisor.models.ModelClient`, lets the advisor investigate through
:class:`Investigation` (``advisor_expand``, ``read``, ``grep``, ``find``, ``ls``, ``git_diff``,
confined to one workspace, credential-shaped files refused), and returns a
:class:`Consultation` envelope, appended with its full transcript to the
:class:`ConsultationLog`. A caller that shows what is going on passes ``on_step``, told of each
request and tool run (:class:`Step`) as it begins.
"""

from advisor.consult._budget import BudgetGate, Spend
from advisor.consult._consult import consult, same_model
from advisor.consult._log import ConsultationLog, ConsultationSummary
from advisor.consult._loop import ANSWER_NOW, EXHAUSTED
from advisor.consult._result import (
    STOP_REASONS,
    TRIGGERS,
    Consultation,
    ConsultationTranscript,
    Lineage,
    ModelAttempt,
    Round,
    StopClass,
    StopReason,
    Trigger,
)
from advisor.consult._settings import Budget, ConsultSettings, load_consult_settings
from advisor.consult._steps import OnStep, Step, StepKind
from advisor.consult._tool_expand import Expander
from advisor.consult._tool_git import git_diff_argv
from advisor.consult._tools import Investigation, ToolOutcome
from advisor.consult._verdict import SEVERITIES, Severity, Verdict, parse_verdict
from advisor.consult._workspace import DEFAULT_DENY, Workspace, deny_patterns, session_workspace, too_wide

__all__ = [
    "ANSWER_NOW",
    "DEFAULT_DENY",
    "EXHAUSTED",
    "SEVERITIES",
    "STOP_REASONS",
    "TRIGGERS",
    "Budget",
    "BudgetGate",
    "ConsultSettings",
    "Consultation",
    "ConsultationLog",
    "ConsultationSummary",
    "ConsultationTranscript",
    "Expander",
    "Investigation",
    "Lineage",
    "ModelAttempt",
    "OnStep",
    "Round",
    "Severity",
    "Spend",
    "Step",
    "StepKind",
    "StopClass",
    "StopReason",
    "ToolOutcome",
    "Trigger",
    "Verdict",
    "Workspace",
    "consult",
    "deny_patterns",
    "git_diff_argv",
    "load_consult_settings",
    "parse_verdict",
    "same_model",
    "session_workspace",
    "too_wide",
]
