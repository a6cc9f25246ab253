"""One hook call, from the bytes on standard input to the answer to print.

Only ``Stop`` and ``SubagentStop`` are answered; every other event (``PostToolUse``,
``PreToolUse`` …) is accepted at once, without reading anything or importing the tracker — a
host starts the hook for every tool call. Exit status 2 means "block" to these hosts, so nothing
here decides an exit status: every failure allows, with a message on standard error that says
whether the input was bad (the host's) or witness failed (ours).
"""

from __future__ import annotations

import json

from ._constants import HOSTS, MAX_INPUT_BYTES, STOP_EVENTS

TYPE_CHECKING = False  # `typing` is not loaded here: a host starts the hook for every tool call
if TYPE_CHECKING:
    from typing import TextIO


def answer_hook(host: str, raw: bytes, err: TextIO, *, until: float | None = None, review: bool = False) -> str:
    """Answer one hook call: the JSON to print (empty to allow silently). Never raises.

    ``until`` is the monotonic time by which the answer must be given (default: the configured
    deadline, ``WITNESS_HOOK_DEADLINE``, from now); ``review`` adds the completion review at Stop."""
    try:
        return _answer(host, raw, err, until, review)
    except Exception as error:  # fail open: exit 2 would block the agent for our bug
        err.write(f"witness hook: internal error ({type(error).__name__}: {error}); allowing\n")
        return ""


def _answer(host: str, raw: bytes, err: TextIO, until: float | None, review: bool) -> str:
    if host not in HOSTS:
        err.write(f"witness hook: unknown host {host!r} (expected {' or '.join(HOSTS)}); allowing\n")
        return ""
    payload = _payload(raw, err)
    if payload is None or payload.get("hook_event_name") not in STOP_EVENTS:
        return ""  # PostToolUse, PostToolUseFailure, …: accepted; the Stop hook replays the transcript
    from ._stop import answer_stop

    answer = answer_stop(host, payload, err, until=until, review=review)
    return answer.to_json() if answer is not None else ""


def _payload(raw: bytes, err: TextIO) -> dict[str, object] | None:
    """The hook input as a JSON object, or ``None`` (after saying why on ``err``)."""
    if len(raw) > MAX_INPUT_BYTES:
        err.write(f"witness hook: bad hook input: larger than {MAX_INPUT_BYTES // (1024 * 1024)} MB; allowing\n")
        return None
    if not raw.strip():
        err.write("witness hook: bad hook input: empty (the host sent nothing); allowing\n")
        return None
    try:
        payload = json.loads(raw)
    except RecursionError:
        err.write("witness hook: bad hook input: JSON nested too deeply; allowing\n")
        return None
    except ValueError as error:
        err.write(f"witness hook: bad hook input: not JSON ({error}); allowing\n")
        return None
    if not isinstance(payload, dict):
        err.write("witness hook: bad hook input: not a JSON object; allowing\n")
        return None
    return payload
