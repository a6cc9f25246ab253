"""The host layer: the only place that knows the hook wire formats of Claude Code and Codex.

>>> from advisor.hosts import answer_hook
>>> import io
>>> answer_hook("claude-code", b'{"hook_event_name": "PostToolUse", "tool_name": "Bash"}', io.StringIO())
''

:func:`answer_hook` takes a hook call's bytes and returns the JSON to print; it never raises and
never decides an exit status (to these hosts exit 2 means "block"). The payloads and answers are
typed: :class:`StopInput` in, :class:`StopBlock` or :class:`StopRelease` out. ``Stop`` and
``SubagentStop`` replay the session through an ``obligations.Tracker``; the block counter keeps
its counts under ``$WITNESS_HOME/hooks``, and :class:`ReplayStates` each transcript's replay, so that the
next Stop replays only what was appended. With ``review=True`` a Stop that nothing holds gets the
completion review (``witness hook … --review``; :class:`ReviewedStates` keeps it to once per state).
:func:`calling_session` finds the transcript of the agent whose MCP tool call ``witness mcp`` is
answering; :func:`advise` runs one logged consultation on a live session's ledger. Importing this
package is cheap: the models, the tracker and the model SDKs load only when a call needs them (a
host starts a hook for every tool call).
"""

from __future__ import annotations

from ._deadline import DEFAULT_DEADLINE, MAX_DEADLINE, REVIEW_DEADLINE, deadline_seconds
from ._hook import HOSTS, MAX_INPUT_BYTES, STOP_EVENTS, answer_hook

TYPE_CHECKING = False  # `typing` is not loaded on the hook path: a host starts the hook per tool call
if TYPE_CHECKING:
    from typing import Any

    from ._advise import Advice, Trigger, advise
    from ._answers import StopAnswer, StopBlock, StopRelease
    from ._blocks import BlockCounter, BlockKey
    from ._payloads import HookInput, StopInput
    from ._replay_states import KeptReplay, ReplayStates
    from ._reviewed import ReviewedStates
    from ._sessions import CALL_WAIT, CallingSession, calling_session, project_folder
    from ._settings import pipe_policy
    from ._state import KEPT_DAYS, state_dir
    from ._stop import answer_stop
    from ._vocabulary import Host

__all__ = [
    "CALL_WAIT",
    "DEFAULT_DEADLINE",
    "HOSTS",
    "KEPT_DAYS",
    "MAX_DEADLINE",
    "MAX_INPUT_BYTES",
    "REVIEW_DEADLINE",
    "STOP_EVENTS",
    "Advice",
    "BlockCounter",
    "BlockKey",
    "CallingSession",
    "HookInput",
    "Host",
    "KeptReplay",
    "ReplayStates",
    "ReviewedStates",
    "StopAnswer",
    "StopBlock",
    "StopInput",
    "StopRelease",
    "Trigger",
    "advise",
    "answer_hook",
    "answer_stop",
    "calling_session",
    "deadline_seconds",
    "pipe_policy",
    "project_folder",
    "state_dir",
]



def __getattr__(name: str) -> Any:
    # Written out rather than computed, so that the import-graph test sees every edge.
    module: Any
    if name in ("Advice", "Trigger", "advise"):
        from . import _advise as module
    elif name in ("StopAnswer", "StopBlock", "StopRelease"):
        from . import _answers as module
    elif name in ("BlockCounter", "BlockKey"):
        from . import _blocks as module
    elif name in ("HookInput", "StopInput"):
        from . import _payloads as module
    elif name in ("KeptReplay", "ReplayStates"):
        from . import _replay_states as module
    elif name == "ReviewedStates":
        from . import _reviewed as module
    elif name in ("CALL_WAIT", "CallingSession", "calling_session", "project_folder"):
        from . import _sessions as module
    elif name == "pipe_policy":
        from . import _settings as module
    elif name in ("KEPT_DAYS", "state_dir"):
        from . import _state as module
    elif name == "answer_stop":
        from . import _stop as module
    elif name == "Host":
        from . import _vocabulary as module
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(module, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
