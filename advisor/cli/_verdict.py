"""The human form of a ``witness check`` verdict: a headline, then the command with a caret line
under the text each reason is about.

Everything printed from a command passes :func:`shellparse.printable`, so a command cannot drive the
terminal.
"""

from __future__ import annotations

import os
from typing import IO

from shellparse import Analysis, Reason, Span, printable

_WINDOW = 100  # characters of a long line shown around the text a reason points at


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
            lines.append(f"  check: {validation.kind} · {validation.family} · {printable(validation.statement)}")
            where = printable(validation.directory) if validation.directory else "(where the command starts)"
            lines.append(f"  directory: {where} · key {printable(validation.key)}")
            if validation.identity != validation.statement:
                lines.append(f"  same check as: {printable(validation.identity)}")
        others = [check for check in analysis.checks if check.validation != validation]
        for check in others:
            passes = " (a zero status proves it passed)" if check.witness_eligible and check.exit_source == "masked" \
                else ""
            lines.append(f"  also runs: {printable(check.validation.statement)} ({check.validation.kind}) — "
                         f"{check.exit_source}{passes}")
        lines.append(f"  effect: {analysis.effect}")
        lines.append(f"  shell: {analysis.shell} · policy: {analysis.policy}")
    return "\n".join(lines) + "\n"


def _headline(analysis: Analysis, paint: _Painter) -> str:
    validation = analysis.validation
    if validation is None:
        if analysis.parse_error is not None:
            return paint.bad("unreadable") + f": {printable(analysis.parse_error)}"
        return paint.dim("not a check") + ": no test, lint, typecheck or build command runs here"
    what = f"`{printable(short(validation.statement))}` ({validation.kind})"
    if any(reason.code == "forced-success" for reason in analysis.reasons):
        return (paint.bad("forced success") + f": {what} — an option lets it exit 0 whatever it finds, so an exit "
                "status of 0 proves nothing")
    if analysis.exit_source == "check" and analysis.witness_eligible:
        return paint.good("witness") + f": {what} — an exit status of 0 proves it passed"
    if analysis.exit_source == "reporting-pipe":
        if analysis.witness_eligible:
            return (paint.warn("reporting pipe") + f": {what} — witnesses under policy {analysis.policy}; "
                    "a failure behind the pipe can still report 0")
        return paint.bad("reporting pipe") + f": {what} — does not witness under policy {analysis.policy}"
    if analysis.witness_eligible:
        return (paint.warn("chained") + f": {what} — what follows runs only after it passed, so an exit status of 0 "
                "proves it passed; a failing status may be another command's")
    return paint.bad("masked") + f": {what} — the exit status is not the check's own"


def _reason_lines(command: str, reason: Reason, paint: _Painter) -> tuple[str | None, str]:
    """The command line to show (``None`` without a span) and the caret line under it."""
    label = f"{printable(reason.message)} [{reason.code}]"
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
    display = printable(line)
    column = sum(_cell_width(char) for char in display[:column])
    return display, column, max(1, width)


def _cell_width(char: str) -> int:
    if char < "\u0378":  # the database calls nothing before U+0378 wide: no need to load it for ASCII
        return 1
    import unicodedata

    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def short(text: str, limit: int = 80) -> str:
    """``text`` on one line, cut to ``limit`` characters."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def use_color(out: IO[str]) -> bool:
    """Colour on a terminal, unless ``NO_COLOR`` is set or the terminal is ``dumb``."""
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
