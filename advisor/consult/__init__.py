"""The consultation: a bounded, budgeted exchange with the advisor model, its read-only
investigation tools, the verdict line, and the log of every consultation.

:func:`consult` takes an :class:`AdvisorPrompt` (what the ledger compiles from a session) and
a :class:`~advisor.models.ModelClient`, lets the advisor investigate through
:class:`Investigation` (``advisor_expand``, ``read``, ``grep``, ``find``, ``ls``, ``git_diff``,
confined to one workspace, credential-shaped files refused), and returns a
:class:`Consultation` envelope, appended with its full transcript to the
:class:`ConsultationLog`. A caller that shows what is going on passes ``on_step``, told of each
request and tool run (:class:`Step`) as it begins.
"""

from advisor.consult._budget import BudgetGate, Spend
from advisor.consult._clip import clip_middle
from advisor.consult._consult import consult, same_model
from advisor.consult._failure import ToolFailure
from advisor.consult._log import ConsultationLog, ConsultationSummary
from advisor.consult._loop import ANSWER_NOW, EXHAUSTED
from advisor.consult._prompt import AdvisorPrompt, PromptMessage, request_hash
from advisor.consult._result import STOP_REASONS, Attempt, Consultation, Lineage, Round, StopReason, Transcript
from advisor.consult._settings import Budget, ConsultSettings, load_consult_settings
from advisor.consult._steps import OnStep, Step, StepKind
from advisor.consult._system import ADVISOR_SYSTEM_PROMPT
from advisor.consult._tool_expand import Expander
from advisor.consult._tool_git import git_diff_argv
from advisor.consult._tools import TOOL_NAMES, Investigation, ToolOutcome, investigation_tools
from advisor.consult._verdict import SEVERITIES, Severity, Verdict, parse_verdict
from advisor.consult._workspace import DEFAULT_DENY, Workspace, deny_patterns

__all__ = [
    "ADVISOR_SYSTEM_PROMPT",
    "ANSWER_NOW",
    "DEFAULT_DENY",
    "EXHAUSTED",
    "SEVERITIES",
    "STOP_REASONS",
    "TOOL_NAMES",
    "AdvisorPrompt",
    "Attempt",
    "Budget",
    "BudgetGate",
    "ConsultSettings",
    "Consultation",
    "ConsultationLog",
    "ConsultationSummary",
    "Expander",
    "Investigation",
    "Lineage",
    "OnStep",
    "PromptMessage",
    "Round",
    "Severity",
    "Spend",
    "Step",
    "StepKind",
    "StopReason",
    "ToolFailure",
    "ToolOutcome",
    "Transcript",
    "Verdict",
    "Workspace",
    "clip_middle",
    "consult",
    "deny_patterns",
    "git_diff_argv",
    "investigation_tools",
    "load_consult_settings",
    "parse_verdict",
    "request_hash",
    "same_model",
]
