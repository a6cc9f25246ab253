"""Exit statuses in the text of a client's tool results.

Chat-completions tool results are plain text; hosts that report a shell command's exit status
write it in a fixed place of that text. Only these places are read — an exit status written
anywhere else (inside the command's own output) is not one, so a command cannot print its way
to a pass.

==========================================  =========================  ================================
text                                        where                      host
==========================================  =========================  ================================
``Process exited with code N``              a line of the header,      Codex (``exec_command``,
                                            before ``Output:``         ``shell``)
``Exit code: N``                            the first line             Codex (older ``shell``), Aider
``Command exited with code N``              the last line              Pi (``bash``)
``{"exit_code": N, ...}`` /                 the whole result is JSON   Codex (JSON ``shell`` output),
``{"metadata": {"exit_code": N}, ...}``                                 OpenAI-compatible agents
==========================================  =========================  ================================
"""

from __future__ import annotations

import json
import re

_HEADER = re.compile(r"^Process exited with code (-?\d+)\s*$", re.M)
_FIRST = re.compile(r"^Exit code: (-?\d+)\s*$")
_LAST = re.compile(r"Command exited with code (-?\d+)\s*$")
_HEAD_LINES = 8


def exit_code(text: str) -> int | None:
    """The exit status a tool result reports, or ``None`` when it reports none where hosts put it."""
    stripped = text.strip()
    if stripped.startswith("{"):
        return _json_exit(stripped)
    head = text.split("Output:", 1)[0] if "Output:" in text else "\n".join(text.splitlines()[:_HEAD_LINES])
    found = _HEADER.search(head)
    if found is not None:
        return int(found.group(1))
    first = stripped.split("\n", 1)[0]
    found = _FIRST.match(first)
    if found is not None:
        return int(found.group(1))
    last = stripped.rsplit("\n", 1)[-1]
    found = _LAST.search(last)
    return int(found.group(1)) if found is not None else None


def _json_exit(text: str) -> int | None:
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):  # nested deeper than the parser recurses: not a host's JSON
        return None
    if not isinstance(value, dict):
        return None
    for holder in (value, value.get("metadata")):
        if isinstance(holder, dict):
            code = holder.get("exit_code")
            if isinstance(code, int) and not isinstance(code, bool):
                return code
    return None
