"""Verification obligations: tool-call events in, open obligations out.

A check that fails opens an obligation for the root agent's current task; only a *witness* — a
later, genuine, unmasked pass of the same check, with nothing edited since — closes it.

>>> from obligations import Tracker, ToolDispatched, ToolCompleted
>>> tracker = Tracker()
>>> tracker.handle(ToolDispatched(call_id="1", tool="Bash", arguments={"command": "pytest -q"}))
1
>>> tracker.handle(ToolCompleted(call_id="1", exit_code=1, output="1 failed, 3 passed in 0.2s"))
2
>>> [(item.check, item.state) for item in tracker.open_items()]
[('pytest -q', 'open')]

The public API is this module's ``__all__`` (the exceptions are also in ``obligations.errors``,
the transcript readers in ``obligations.sources``); everything else lives in private modules.
"""

from ._answers import AgentInfo, ClaimResult, ReviewTicket, Task
from ._audit import audit
from ._calls import PATCH_MARK, PATH_KEYS, shell_command, targets_of
from ._config import (
    DEFAULT_DELEGATION_TOOLS,
    DEFAULT_EDIT_TOOLS,
    DEFAULT_INTERNAL_TOOLS,
    DEFAULT_PWSH_TOOLS,
    DEFAULT_READ_ONLY_TOOLS,
    DEFAULT_SHELL_TOOLS,
    REMINDER_BUDGET,
    EscalationConfig,
    TrackerConfig,
)
from ._consultations import ADVISOR_TOOLS, is_advisor_tool
from ._escalation import Decision, Signal
from ._events._agent_disposed import AgentDisposed
from ._events._agent_spawned import AgentSpawned
from ._events._assistant_message import AssistantMessage, Claim
from ._events._base import BaseEvent
from ._events._compaction import Compaction, SummaryKind
from ._events._host_message import HostMessage
from ._events._tool_catalogue import ToolCatalogue, ToolInfo
from ._events._tool_completed import ToolCompleted
from ._events._tool_dispatched import ToolDispatched
from ._events._union import DiscriminatedEvent, Event, event_from_dict, event_from_json
from ._events._user_message import UserMessage
from ._fingerprints import fingerprint, normalize
from ._items import Attempt, Correction, Disposition, Item, Resolution, Transition
from ._notices import Notice
from ._outcomes import ERROR_CODES, classify
from ._records import CallRecord, CheckVerdict, call_record
from ._redact import RedactionKind, redact, redact_line, redact_value, redaction_kinds
from ._redact_events import redact_event
from ._reports import EndedTask, ItemReport, ObligationsReport, Reopening, SessionAudit, SkippedLine, WitnessRef
from ._session import SessionAgent, until_call
from ._tracker import Tracker
from ._vocabulary import (
    AGENT_ROLES,
    CHANGES,
    DISPOSITION_KINDS,
    HOST_MESSAGE_KINDS,
    ITEM_KINDS,
    ITEM_STATES,
    OUTCOMES,
    ROOT_AGENT,
    TRANSCRIPT_FORMATS,
    AgentRole,
    CallKind,
    Change,
    DispositionKind,
    ErrorCode,
    HostMessageKind,
    ItemKind,
    ItemState,
    NoticeKind,
    Outcome,
    ResolutionKind,
    ReviewOutcome,
    SignalKind,
    TranscriptFormat,
)
from ._wording import NO_RECORD, block_reason, closes_by, release_message
from .errors import (
    InvalidConfig,
    MalformedEntry,
    NoSuchCall,
    NotAnEvent,
    NotATranscript,
    ObligationsError,
    SnapshotError,
    SnapshotVersionError,
    UnknownFormat,
)

__all__ = [
    "ADVISOR_TOOLS",
    "AGENT_ROLES",
    "CHANGES",
    "DEFAULT_DELEGATION_TOOLS",
    "DEFAULT_EDIT_TOOLS",
    "DEFAULT_INTERNAL_TOOLS",
    "DEFAULT_PWSH_TOOLS",
    "DEFAULT_READ_ONLY_TOOLS",
    "DEFAULT_SHELL_TOOLS",
    "DISPOSITION_KINDS",
    "ERROR_CODES",
    "HOST_MESSAGE_KINDS",
    "ITEM_KINDS",
    "ITEM_STATES",
    "NO_RECORD",
    "OUTCOMES",
    "PATCH_MARK",
    "PATH_KEYS",
    "REMINDER_BUDGET",
    "ROOT_AGENT",
    "TRANSCRIPT_FORMATS",
    "AgentDisposed",
    "AgentInfo",
    "AgentRole",
    "AgentSpawned",
    "AssistantMessage",
    "Attempt",
    "BaseEvent",
    "CallKind",
    "CallRecord",
    "Change",
    "CheckVerdict",
    "Claim",
    "ClaimResult",
    "Compaction",
    "Correction",
    "Decision",
    "DiscriminatedEvent",
    "Disposition",
    "DispositionKind",
    "EndedTask",
    "ErrorCode",
    "EscalationConfig",
    "Event",
    "HostMessage",
    "HostMessageKind",
    "InvalidConfig",
    "Item",
    "ItemKind",
    "ItemReport",
    "ItemState",
    "MalformedEntry",
    "NoSuchCall",
    "NotATranscript",
    "NotAnEvent",
    "Notice",
    "NoticeKind",
    "ObligationsError",
    "ObligationsReport",
    "Outcome",
    "RedactionKind",
    "Reopening",
    "Resolution",
    "ResolutionKind",
    "ReviewOutcome",
    "ReviewTicket",
    "SessionAgent",
    "SessionAudit",
    "Signal",
    "SignalKind",
    "SkippedLine",
    "SnapshotError",
    "SnapshotVersionError",
    "SummaryKind",
    "Task",
    "ToolCatalogue",
    "ToolCompleted",
    "ToolDispatched",
    "ToolInfo",
    "Tracker",
    "TrackerConfig",
    "TranscriptFormat",
    "Transition",
    "UnknownFormat",
    "UserMessage",
    "WitnessRef",
    "audit",
    "block_reason",
    "call_record",
    "classify",
    "closes_by",
    "event_from_dict",
    "event_from_json",
    "fingerprint",
    "is_advisor_tool",
    "normalize",
    "redact",
    "redact_event",
    "redact_line",
    "redact_value",
    "redaction_kinds",
    "release_message",
    "shell_command",
    "targets_of",
    "until_call",
]
