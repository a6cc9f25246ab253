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

The public API is this module's ``__all__``; everything else lives in private modules.
"""

from ._audit import SessionAudit, audit
from ._config import EscalationConfig, TrackerConfig
from ._escalation import Decision, Signal
from ._events._agent_disposed import AgentDisposed
from ._events._agent_spawned import AgentSpawned
from ._events._assistant_message import AssistantMessage, Claim
from ._events._base import BaseEvent
from ._events._compaction import Compaction
from ._events._tool_completed import ToolCompleted
from ._events._tool_dispatched import ToolDispatched
from ._events._union import DiscriminatedEvent, Event, event_from_dict, event_from_json
from ._events._user_message import UserMessage
from ._fingerprints import fingerprint, normalize
from ._items import Attempt, Item, Transition
from ._notices import NO_RECORD, Notice
from ._outcomes import OUTCOMES, classify
from ._redact import redact
from ._state import ClaimResult, ReviewTicket
from ._tracker import Tracker

__all__ = [
    "NO_RECORD",
    "OUTCOMES",
    "AgentDisposed",
    "AgentSpawned",
    "AssistantMessage",
    "Attempt",
    "BaseEvent",
    "Claim",
    "ClaimResult",
    "Compaction",
    "Decision",
    "DiscriminatedEvent",
    "EscalationConfig",
    "Event",
    "Item",
    "Notice",
    "ReviewTicket",
    "SessionAudit",
    "Signal",
    "ToolCompleted",
    "ToolDispatched",
    "Tracker",
    "TrackerConfig",
    "Transition",
    "UserMessage",
    "audit",
    "classify",
    "event_from_dict",
    "event_from_json",
    "fingerprint",
    "normalize",
    "redact",
]
