"""The hook's constants, shared by ``witness hook``'s click-free path and the Stop logic.

This module imports nothing (not even ``typing``): a host starts ``witness hook`` for every tool
call, and the command reads these before it knows whether the call is a Stop.
"""

HOSTS = ("claude-code", "codex")
"""The hosts whose hook protocol is spoken (every value of ``Host``)."""
STOP_EVENTS = ("Stop", "SubagentStop")
"""The events that are answered."""
MAX_INPUT_BYTES = 16 * 1024 * 1024
"""The largest hook input read: the hosts send a few kilobytes."""
DEADLINE_VARIABLE = "WITNESS_HOOK_DEADLINE"
"""The environment variable that sets how long a hook call may take."""
DEFAULT_DEADLINE = 20.0
"""Seconds a hook call may take by default: well inside the hosts' 60 s hook time-out."""
REVIEW_DEADLINE = 150.0
"""Seconds a call of ``witness hook … --review`` may take by default: a completion review waits for a model
(the documented settings give the hook 180 s)."""
MAX_DEADLINE = 3600.0
"""The longest deadline accepted: an hour, far past any host's hook time-out."""
REVIEW_FLAG = "--review"
"""The option that adds the completion review at Stop."""
ROOT_AGENT = "root"
"""The session's own agent, as the hook's state names it: ``obligations.ROOT_AGENT`` (a test keeps them
equal; the tracker's package is not loaded on this path)."""
