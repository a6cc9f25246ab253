"""``witness check``: run the analysis and print it, for people or for programs.

Kept free of click and of JSON until needed: hooks start a process per tool call, and this
module is on that path.
"""

from __future__ import annotations

import sys
import unicodedata
from collections.abc import Iterable, Iterator
from typing import IO, Any

from shellparse import POLICIES, SHELLS, Analysis, Reason, Span, analyze

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2

_WINDOW = 100  # characters of a long line shown around the text a reason points at


def check_command(command: str, shell: str, policy: str, format: str, explain: bool, out: IO[str]) -> int:
    """Analyse one command, print the verdict, return the exit code (0 eligible, 1 not)."""
    analysis = analyze(command, shell, policy)
    if format == "json":
        import json

        out.write(json.dumps(analysis.to_dict(), ensure_ascii=False) + "\n")
    else:
        out.write(render(analysis, explain=explain, color=_color(out)))
    return EXIT_OK if analysis.witness_eligible else EXIT_FINDINGS


def check_batch(lines: Iterable[bytes], shell: str, policy: str, format: str, explain: bool,
                out: IO[str]) -> int:
    """Analyse one command per line (or JSONL objects); one JSON result per line (or, with
    ``format="text"``, one human verdict per command).

    Returns 2 if any line was malformed (it gets an error record and the run goes on), else 1
    if any command is not witness-eligible, else 0.
    """
    import json

    malformed = False
    ineligible = False
    color = _color(out)
    for number, raw in enumerate(lines, start=1):
        record = _batch_record(number, raw, shell, policy)
        if record is None:
            continue
        analysis = record.pop("analysis", None)
        if "error" in record:
            malformed = True
        elif not record["witness_eligible"]:
            ineligible = True
        if format == "json":
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
        elif analysis is None:
            out.write(f"line {number}: {record['error']}\n\n")
        else:
            prompt = "PS>" if analysis.shell == "pwsh" else "$"
            out.write(f"{prompt} {_safe(_short(analysis.command, 200))}\n")
            out.write(render(analysis, explain=explain, color=color) + "\n")
    if malformed:
        return EXIT_USAGE
    return EXIT_FINDINGS if ineligible else EXIT_OK


def _batch_record(number: int, raw: bytes, shell: str, policy: str) -> dict[str, Any] | None:
    import json

    line = raw[:-1] if raw.endswith(b"\n") else raw
    line = line[:-1] if line.endswith(b"\r") else line
    if not line.strip():
        return None
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as error:
        return {"line": number, "error": f"line is not valid UTF-8 (byte {error.start})"}
    extra: dict[str, Any] = {}
    if text.lstrip().startswith("{"):
        try:
            item = json.loads(text)
        except ValueError as error:
            return {"line": number, "error": f"line starts with '{{' but is not valid JSON: {error}"}
        if not isinstance(item, dict) or not isinstance(item.get("command"), str):
            return {"line": number, "error": 'a JSON line must be an object with a string "command"'}
        text = item["command"]
        shell = item.get("shell", shell)
        policy = item.get("policy", policy)
        if shell not in SHELLS:
            return {"line": number, "error": f'"shell" must be one of {", ".join(SHELLS)}'}
        if policy not in POLICIES:
            return {"line": number, "error": f'"policy" must be one of {", ".join(POLICIES)}'}
        if "id" in item:
            extra["id"] = item["id"]
    analysis = analyze(text, shell, policy)
    return {"line": number, **extra, **analysis.to_dict(), "analysis": analysis}


def read_lines(path: str) -> Iterator[bytes]:
    """Lines of a file, or of standard input for ``-``, as bytes (decoding is per line)."""
    if path == "-":
        yield from sys.stdin.buffer
        return
    with open(path, "rb") as handle:
        yield from handle


# -- rendering -------------------------------------------------------------------------------


def render(analysis: Analysis, *, explain: bool = False, color: bool = False) -> str:
    """The human form of an analysis: a headline, then the command with carets under the text
    each reason is about (with ``explain``, every reason and the check's identity)."""
    paint = _Painter(color)
    lines = [_headline(analysis, paint)]
    shown = [r for r in analysis.reasons if (explain and r.code != "directory") or r.level in ("masks", "residual")]
    if analysis.validation is None and not explain:
        shown = list(analysis.reasons)
    previous = None
    for reason in shown:
        shown_line, caret = _reason_lines(analysis.command, reason, paint)
        if shown_line is not None and shown_line != previous:
            lines.append(shown_line)
        previous = shown_line
        lines.append(caret)
    if explain:
        validation = analysis.validation
        if validation is not None:
            lines.append(f"  check: {validation.kind} · {validation.family} · {_safe(validation.statement)}")
            lines.append(f"  directory: {validation.directory or '(where the command starts)'} · key {validation.key}")
        others = [check for check in analysis.checks if check.validation != validation]
        for check in others:
            lines.append(f"  also runs: {_safe(check.validation.statement)} ({check.validation.kind}) — "
                         f"{check.exit_source}")
        lines.append(f"  effect: {analysis.effect}")
        lines.append(f"  shell: {analysis.shell} · policy: {analysis.policy}")
    return "\n".join(lines) + "\n"


def _headline(analysis: Analysis, paint: _Painter) -> str:
    validation = analysis.validation
    if validation is None:
        if analysis.parse_error is not None:
            return paint.bad("unreadable") + f": {_safe(analysis.parse_error)}"
        return paint.dim("not a check") + ": no test, lint, typecheck or build command runs here"
    what = f"`{_safe(_short(validation.statement))}` ({validation.kind})"
    if analysis.exit_source == "check" and analysis.witness_eligible:
        return paint.good("witness") + f": {what} — an exit status of 0 proves it passed"
    if analysis.exit_source == "reporting-pipe":
        if analysis.witness_eligible:
            return (paint.warn("reporting pipe") + f": {what} — witnesses under policy {analysis.policy}; "
                    "a failure behind the pipe can still report 0")
        return paint.bad("reporting pipe") + f": {what} — does not witness under policy {analysis.policy}"
    return paint.bad("masked") + f": {what} — the exit status is not the check's own"


def _reason_lines(command: str, reason: Reason, paint: _Painter) -> tuple[str | None, str]:
    """The command line to show (``None`` without a span) and the caret line under it."""
    label = f"{_safe(reason.message)} [{reason.code}]"
    if reason.span is None or not command:
        return None, f"  - {label}"
    shown, caret_start, caret_width = _excerpt_line(command, reason.span)
    return f"    {shown}", "    " + " " * caret_start + paint.caret("^" * caret_width) + " " + label


def _excerpt_line(command: str, span: Span) -> tuple[str, int, int]:
    """The line holding ``span.start`` (cut to a window if long), and where to put the caret."""
    start = min(span.start, len(command))
    line_start = command.rfind("\n", 0, start) + 1
    line_end = command.find("\n", start)
    if line_end < 0:
        line_end = len(command)
    line = command[line_start:line_end]
    column = start - line_start
    width = max(1, min(span.end, line_end) - start)
    prefix = ""
    if len(line) > _WINDOW:
        left = max(0, column - _WINDOW // 3)
        right = min(len(line), left + _WINDOW)
        prefix = "…" if left > 0 else ""
        line = prefix + line[left:right] + ("…" if right < line_end - line_start else "")
        column = column - left + len(prefix)
        width = min(width, right - (start - line_start))
    display = _safe(line)
    column = sum(_cell_width(char) for char in display[:column])
    return display, column, max(1, width)


def _cell_width(char: str) -> int:
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def _safe(text: str) -> str:
    """Text safe to print on a terminal: control characters (escape sequences!) become ``?``,
    tabs become spaces, lone surrogates a replacement character."""
    out = []
    for char in text:
        if char == "\t":
            out.append(" ")
        elif unicodedata.category(char) in ("Cc", "Cs") and char != "\n":
            out.append("?" if char < "\ud800" or char > "\udfff" else "\ufffd")
        else:
            out.append(char)
    return "".join(out)


def _short(text: str, limit: int = 80) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _color(out: IO[str]) -> bool:
    import os

    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(out, "isatty", None)
    return bool(isatty and isatty())


class _Painter:
    def __init__(self, enabled: bool):
        self.enabled = enabled

    def _paint(self, code: str, text: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.enabled else text

    def good(self, text: str) -> str:
        return self._paint("1;32", text)

    def warn(self, text: str) -> str:
        return self._paint("1;33", text)

    def bad(self, text: str) -> str:
        return self._paint("1;31", text)

    def dim(self, text: str) -> str:
        return self._paint("1", text)

    def caret(self, text: str) -> str:
        return self._paint("33", text)
