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
answering. Importing this package is cheap: the models, the tracker and the model SDKs load only
when a call needs them (a host starts a hook for every tool call).
"""

from __future__ import annotations

from advisor._lazy import load as _load

from ._constants import HOSTS, MAX_INPUT_BYTES, STOP_EVENTS
from ._hook import answer_hook

TYPE_CHECKING = False  # `typing` is not loaded on the hook path: a host starts the hook per tool call
if TYPE_CHECKING:
    from typing import Any

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
    "HOSTS",
    "KEPT_DAYS",
    "MAX_INPUT_BYTES",
    "STOP_EVENTS",
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
    "answer_hook",
    "answer_stop",
    "calling_session",
    "pipe_policy",
    "project_folder",
    "state_dir",
]

_LAZY = {"StopAnswer": "_answers", "StopBlock": "_answers", "StopRelease": "_answers", "BlockCounter": "_blocks",
         "BlockKey": "_blocks", "HookInput": "_payloads", "StopInput": "_payloads", "ReviewedStates": "_reviewed",
         "CALL_WAIT": "_sessions", "CallingSession": "_sessions", "calling_session": "_sessions",
         "project_folder": "_sessions", "pipe_policy": "_settings", "KEPT_DAYS": "_state", "state_dir": "_state",
         "answer_stop": "_stop", "Host": "_vocabulary", "KeptReplay": "_replay_states",
         "ReplayStates": "_replay_states"}
"""Public names and the module each loads from on first use (:mod:`advisor._lazy`): the models, the
tracker and the SDKs load only when a call needs them."""


def __getattr__(name: str) -> Any:
    return _load(__name__, _LAZY, name, globals())


def __dir__() -> list[str]:
    return sorted(__all__)
