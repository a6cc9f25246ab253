"""One hook call, from the bytes on standard input to the answer to print.

Only ``Stop`` and ``SubagentStop`` are answered; every other event (``PostToolUse``,
``PreToolUse`` …) is accepted at once, without reading anything or importing the tracker — a
host starts the hook for every tool call. Exit status 2 means "block" to these hosts, so nothing
here decides an exit status: every failure allows, with a message on standard error.
"""

from __future__ import annotations

import json

TYPE_CHECKING = False  # `typing` is not loaded here: a host starts the hook for every tool call
if TYPE_CHECKING:
    from typing import TextIO

    from ._vocabulary import Host

HOSTS: tuple[Host, ...] = ("claude-code", "codex")
"""The hosts whose hook protocol is spoken (every value of ``Host``)."""
STOP_EVENTS = ("Stop", "SubagentStop")
"""The events that are answered."""


def answer_hook(host: str, raw: bytes, err: TextIO) -> str:
    """Answer one hook call: the JSON to print (empty to allow silently). Never raises."""
    try:
        return _answer(host, raw, err)
    except Exception as error:  # fail open: exit 2 would block the agent for our bug
        err.write(f"witness hook: internal error ({type(error).__name__}: {error}); allowing\n")
        return ""


def _answer(host: str, raw: bytes, err: TextIO) -> str:
    if host not in HOSTS:
        err.write(f"witness hook: unknown host {host!r} (expected {' or '.join(HOSTS)}); allowing\n")
        return ""
    try:
        payload = json.loads(raw or b"{}")
    except ValueError as error:
        err.write(f"witness hook: the hook input is not JSON ({error}); allowing\n")
        return ""
    if not isinstance(payload, dict):
        err.write("witness hook: the hook input is not a JSON object; allowing\n")
        return ""
    if payload.get("hook_event_name") not in STOP_EVENTS:
        return ""  # PostToolUse, PostToolUseFailure, …: accepted; the Stop hook replays the transcript
    from ._stop import answer_stop

    answer = answer_stop(host, payload, err)
    return answer.to_json() if answer is not None else ""
