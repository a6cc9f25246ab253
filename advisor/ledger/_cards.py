"""One tool round as a one-line card, or verbatim for the newest rounds.

A card: ``#id tool · primary argument [· edit shape] [· status] [· size] [· read the path above
to view] [· check evidence] [· ✗ first error line]`` — the separator is `` · `` (a middle dot),
an empty field is left out. ``status`` is ``error`` (with the exit code when the host recorded a
non-zero one) or ``running``; a card without one succeeded. ``size`` is ``N lines`` or ``N chars``
of the result, and its images (left out for an edit that succeeded: its result is the host's
acknowledgement, and the edit's shape says what changed); the error line is the first of the
result's lines that names an error or a failure (else its first non-blank line; never a host's
own ``Exit code N`` line), at most 200 characters.

A verbatim round: ``#id tool(<arguments as JSON>)`` then ``→ ok: <result>`` (or ``→ error: …``,
``→ running``), each part capped with an expandable marker: a failing result keeps its start, its
end and the part around its first error line; a quiet success is capped tighter (500 characters;
300 for a tool that only read the workspace, which the advisor can read itself).
"""

from __future__ import annotations

import json
import re

from obligations import CallRecord, ToolCompleted, ToolDispatched, TrackerConfig, call_record, redact_event
from shellparse import Policy

from ._arguments import argument_of, edit_shape
from ._evidence import FAILURE_SHOWN, check_evidence
from ._text import SEPARATOR, clip, excerpt, expandable

ERROR_LINE_LIMIT = 200
_HOST_EXIT_LINE = re.compile(r"^\s*(?:Error: )?Exit code -?\d+\s*$")
_ERRORISH = re.compile(r"error|fail|exception|traceback|panic|denied|not found|cannot|✗|×", re.IGNORECASE)
_NAMED = re.compile(r"\b\w*(?:Error|Exception)\b|\bFAIL(?:ED|URE)?\b|\berror(?:\[\w+\])?:|panicked|✗|×")
"""A line that names what failed (an exception, a runner's ``FAILED``/``FAIL`` line, a compiler's
``error:``), preferred to one that merely mentions a failure (``Traceback``, ``0 failed``)."""
_BANNER = re.compile(r"^\s*[=_\-*#~]{3,}.*[=_\-*#~]{3,}\s*$")
"""A runner's section banner (``==== FAILURES ====``, ``____ test_x ____``): it names no error itself."""
QUIET_RESULT_CHARS = 500
"""Cap on a verbatim round's result when it succeeded and its output shows no failure (both ends kept,
the full text expandable)."""
LOOKED_AT_CHARS = 300
"""The same cap for a tool that only looked at the workspace (:data:`WORKSPACE_READERS`): the advisor
can read the path itself, as it is now."""
WORKSPACE_READERS = frozenset({"read", "view", "grep", "glob", "find", "ls", "list", "search"})
"""Tools (by lower-cased name, every host's) whose result is the workspace's own content."""


def failed(result: ToolCompleted) -> bool:
    """Whether the result is an error: the host said so, or a command exited non-zero."""
    return result.is_error or (result.exit_code is not None and result.exit_code != 0)


def status(result: ToolCompleted | None) -> str:
    """``running``, ``ok``, ``error`` or ``error (exit N)``."""
    if result is None:
        return "running"
    if not failed(result):
        return "ok"
    return f"error (exit {result.exit_code})" if result.exit_code not in (None, 0) else "error"


def result_text(result: ToolCompleted) -> str:
    """What the result said: its output, else the host's error message."""
    return result.output or result.error_message or ""


def size(text: str, images: int) -> str:
    """``N lines`` (more than one line) or ``N chars`` of ``text``, and its images (``""``: neither)."""
    parts = []
    if text:
        lines = text.count("\n") + 1
        parts.append(f"{lines} lines" if lines > 1 else f"{len(text)} chars")
    if images:
        parts.append(f"{images} image" if images == 1 else f"{images} images")
    return ", ".join(parts)


def _names_error(line: str) -> bool:
    return bool(_ERRORISH.search(line)) and not _BANNER.match(line)


def _names_what(line: str) -> bool:
    return bool(_NAMED.search(line)) and not _BANNER.match(line)


def error_line(text: str) -> str:
    """The line that says what went wrong: among the first 60 lines the first that names what failed (an
    exception, a ``FAILED`` line, ``error:``), else the first that mentions an error or a failure (a
    runner's section banner is neither), else the first non-blank one (a host's ``Exit code N`` line is
    never it), clipped."""
    lines = [line for line in text.splitlines()[:60] if line.strip() and not _HOST_EXIT_LINE.match(line)]
    chosen = next((line for line in lines if _names_what(line)),
                  next((line for line in lines if _names_error(line)), lines[0] if lines else ""))
    return clip(chosen, ERROR_LINE_LIMIT) if chosen else ""


def error_offset(text: str) -> int | None:
    """Where in ``text`` the first line that names an error or a failure starts (``None``: no such line)."""
    position = 0
    for line in text.splitlines(keepends=True):
        if line.strip() and not _HOST_EXIT_LINE.match(line) and _names_error(line):
            return position
        position += len(line)
    return None


def _clean(call: ToolDispatched, result: ToolCompleted | None,
           policy: Policy) -> tuple[ToolDispatched, ToolCompleted | None, CallRecord | None]:
    """A round's events redacted, and the tracker's record of the call (what ``card`` and ``verbatim`` show)."""
    call = redact_event(call)
    result = None if result is None else redact_event(result)
    record = call_record(call, result, TrackerConfig(policy=policy, escalation=None)) if result is not None else None
    return call, result, record


def card(handle: str | None, call: ToolDispatched, result: ToolCompleted | None, policy: Policy = "seed") -> str:
    """The one-line card of a round, its events redacted first."""
    return clean_card(handle, *_clean(call, result, policy))


def clean_card(handle: str | None, call: ToolDispatched, result: ToolCompleted | None,
               record: CallRecord | None = None) -> str:
    """:func:`card` of events already redacted (a :class:`~advisor.ledger.Ledger`'s), with the tracker's
    record of the completed call (its check evidence)."""
    argument = argument_of(call.arguments, call.cwd)
    shape = edit_shape(call.tool, call.arguments)
    fields = [f"#{handle} {call.tool}" if handle else call.tool]
    fields += [part for part in (argument, shape) if part]
    if result is None:
        return SEPARATOR.join([*fields, "running"])
    text = result_text(result)
    if failed(result):
        fields.append(status(result))
    # A successful edit's result is the host's acknowledgement: the edit's shape says what changed.
    acknowledged = bool(shape) and not failed(result)
    fields += [part for part in (size("" if acknowledged else text, result.images),) if part]
    if result.images and argument:
        fields.append("read the path above to view")  # the image is at the call's path
    fields += [part for part in (check_evidence(record) if record is not None else "",) if part]
    if failed(result) and (line := error_line(text)):
        fields.append(f"✗ {line}")
    return SEPARATOR.join(fields)


def user_shell_card(handle: str | None, call: ToolDispatched, result: ToolCompleted | None) -> str:
    """``#id [user shell] <command> · exit <code|?>[ · <size>]``: a command the user ran themselves (of
    events already redacted)."""
    command = call.arguments.get("command", call.arguments.get("cmd", ""))
    text = clip(command if isinstance(command, str) else json.dumps(command), 120)
    head = f"#{handle} [user shell] {text}" if handle else f"[user shell] {text}"
    if result is None:
        return f"{head}{SEPARATOR}running"
    code = "?" if result.exit_code is None else str(result.exit_code)
    fields = [head, f"exit {code}"]
    fields += [part for part in (size(result_text(result), result.images),) if part]
    return SEPARATOR.join(fields)


def arguments_json(call: ToolDispatched) -> str:
    """A call's arguments as JSON, in their own order."""
    return json.dumps(call.arguments, ensure_ascii=False, separators=(",", ":"), default=str)


def verbatim(handle: str | None, call: ToolDispatched, result: ToolCompleted | None, *, limit: int,
             policy: Policy = "seed", expand: bool = True) -> str:
    """A round in full (each part capped at ``limit`` around an expandable marker — naming
    ``advisor_expand`` unless ``expand`` is false), its events redacted first. A result that failed,
    or whose output shows a failure, keeps the part around the line that names it; one that
    succeeded quietly is capped at :data:`QUIET_RESULT_CHARS` (:data:`LOOKED_AT_CHARS` when it read
    the workspace)."""
    call, result, record = _clean(call, result, policy)
    return clean_verbatim(handle, call, result, record, limit=limit, expand=expand)


def clean_verbatim(handle: str | None, call: ToolDispatched, result: ToolCompleted | None,
                   record: CallRecord | None = None, *, limit: int, expand: bool = True) -> str:
    """:func:`verbatim` of events already redacted (a :class:`~advisor.ledger.Ledger`'s)."""
    head = f"#{handle} {call.tool}" if handle else call.tool
    hint = handle if expand else None
    lines = [f"{head}({expandable(arguments_json(call), limit, hint)})"]
    if result is None:
        lines.append("→ running")
        return "\n".join(lines)
    word = "error" if failed(result) else "ok"
    text = result_text(result)
    evidence = check_evidence(record) if record is not None else ""
    if failed(result) or FAILURE_SHOWN in evidence:
        shown = excerpt(text, limit, hint, error_offset(text))
    else:
        quiet = LOOKED_AT_CHARS if call.tool.lower() in WORKSPACE_READERS else QUIET_RESULT_CHARS
        shown = expandable(text, min(limit, quiet), hint)
    lines.append(f"→ {word}: {shown}" if text else f"→ {word}")
    if result.images:
        lines.append(f"[{result.images} image(s) omitted]")
    if evidence:
        lines.append(f"[witness] {evidence}")
    return "\n".join(lines)
