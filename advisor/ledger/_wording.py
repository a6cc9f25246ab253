"""The fixed sentences of the ledger: labels, headers, markers and the closing instructions.

They are part of every request's bytes, so they never change with the session: a request's
prefix stays byte-identical because its words do.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from obligations import NO_RECORD, ItemReport, ObligationsReport, TranscriptFormat

LOG_OPEN = "<executor_log>"
LOG_CLOSE = "</executor_log>"
TAIL_HEADER = "Most recent work, verbatim:"
QUESTION = "Executor's question: "
REVIEW_MARKER = "Completion review: the executor had just delivered the answer above."
THINKING = "[executor thinking] "
PRIOR_HEADER = ("The user's own words that the compaction summary in the log replaced for the executor (verbatim, "
                "in order); they outrank the host's paraphrase:")
DROPPED_HEADER = ("The user's own words from the omitted span (verbatim, in order — they are authoritative "
                  "over anything else in this request):")
OMITTED = ("[Earlier executor activity was omitted to fit the cost budget, not because it was empty: its cards "
           "can still be expanded with advisor_expand, and the workspace read with the read-only tools.]")
OMITTED_BARE = "[Earlier executor activity was omitted to fit the cost budget, not because it was empty.]"
""":data:`OMITTED` for an advisor without investigation tools."""
EMPTY_SEGMENT = "(no executor activity between these consultations)"
TOOLS_DECLARED = "[tools the host declared in this session]"
PASTED = ("[{n} image(s) the user pasted — they have no path, so no tool can show them; ask the executor what "
          "they show if it matters]")

CONSULT_INSTRUCTION = ("Advise the executor on the situation above. Start with the verdict line; ground every "
                       "claim in the log or in what your tools show, citing card ids; do not invent executor "
                       "actions.")
REVIEW_INSTRUCTION = ("Review the answer the executor has just delivered (its last [executor] text above) against "
                      "what the user asked: is the work it claims done, and genuinely verified? Check git_diff when "
                      "files changed. Start with the verdict line; `Severity: none` means the answer stands.")

CONSULT_INSTRUCTION_BARE = ("Advise the executor on the situation above. Start with the verdict line; ground every "
                            "claim in the log, citing card ids; do not invent executor actions.")
""":data:`CONSULT_INSTRUCTION` for an advisor without investigation tools."""
REVIEW_INSTRUCTION_BARE = ("Review the answer the executor has just delivered (its last [executor] text above) "
                           "against what the user asked: is the work it claims done, and genuinely verified? Start "
                           "with the verdict line; `Severity: none` means the answer stands.")
""":data:`REVIEW_INSTRUCTION` for an advisor without investigation tools."""
REVIEW_FEEDBACK = "witness completion review"
"""How a Stop hook's block with a completion review's advice opens (``witness hook … --review``)."""
_ADVISORY = re.compile(r"<advisory\b[^>]*>\n(.*)\n</advisory>", re.S)

_HOSTS: dict[str, str] = {"claude-code": "Claude Code", "codex": "Codex", "pi": "Pi", "copilot": "Copilot CLI",
                          "gemini": "Gemini CLI", "qwen": "Qwen Code", "droid": "Factory Droid"}
_MAX_ITEMS = 20


def summary_label(kind: str, host: TranscriptFormat | None) -> str:
    """``[compaction summary — Pi's paraphrase, not the user's words]`` and the like."""
    who = f"{_HOSTS[host]}'s" if host in _HOSTS else "the host's"
    return f"[{kind} summary — {who} paraphrase, not the user's words]"


def _head(row: ItemReport) -> str:
    if row.kind == "claim-contradicted":
        return f"claim {row.claim_id!r}" + (f" on `{row.check}`" if row.check else "")
    where = f" in {row.cwd}" if row.cwd else ""
    return f"`{row.check}` ({row.check_kind}){where}"


def _earlier_note(current: bool, earlier: int) -> str:
    if not earlier:
        return ""
    if current:
        return f" [also left unresolved by {earlier} earlier task{'s' if earlier > 1 else ''}]"
    if earlier == 1:
        return " [left unresolved when the user moved on to another task]"
    return f" [left unresolved by {earlier} earlier tasks, each time the user moved on to another]"


def _row_line(row: ItemReport, current: bool, handle: Callable[[str | None], str]) -> str:
    """One line for an obligation row: the newest failure's card and summary, the failures counted, and how
    many earlier tasks left it unresolved."""
    times = f", {row.failures} times" if row.failures > 1 else ""
    line = f"- {_head(row)}: failed{times}, last at {handle(row.last_failed_call)} — {row.summary}"
    if row.last_attempt is not None:
        line += f"; the re-run at {handle(row.last_attempt.call_id)} did not count ({row.last_attempt.reason})"
    return line + _earlier_note(current, row.earlier_tasks)


def obligations_text(report: ObligationsReport, handle: Callable[[str | None], str]) -> str:
    """What witness's tracker says is still unverified in the session, for the closing message: its report's
    rows, open then left unresolved earlier (the same check left open by several tasks is one row that
    counts them)."""
    if not report.open and not report.earlier:
        return f"Verification obligations (witness): none open. {NO_RECORD}"
    lines = [*(_row_line(row, True, handle) for row in report.open),
             *(_row_line(row, False, handle) for row in report.earlier)]
    shown = lines[:_MAX_ITEMS]
    if len(lines) > _MAX_ITEMS:
        shown.append(f"- … and {len(lines) - _MAX_ITEMS} more")
    return ("Verification obligations witness records as open — checks that failed and have had no genuine "
            "passing re-run since (a masked or filtered \"pass\" does not count):\n" + "\n".join(shown))


def review_feedback(advice: str, severity: str, reminder_number: int, budget: int) -> str:
    """What a Stop hook tells the agent when a completion review holds it: the advice, in an
    ``<advisory>`` block a later ledger replays as a past review (:func:`advice_in_feedback`)."""
    return (f"{REVIEW_FEEDBACK} (reminder {reminder_number} of {budget}; not a permanent block). The advisor "
            "reviewed the answer you just gave against the whole session:\n"
            f'<advisory severity="{severity}" source="completion review" guidance="weigh, don\'t blindly obey">\n'
            f"{advice.strip()}\n</advisory>\n"
            "Fix what it names and re-check, or say plainly in your answer why it does not apply.")


def advice_in_feedback(text: str) -> str | None:
    """The advice of a completion review's block, from the hook feedback a host recorded (``None``
    for any other feedback)."""
    if not text.lstrip().startswith(REVIEW_FEEDBACK):
        return None
    found = _ADVISORY.search(text)
    return found.group(1).strip() if found and found.group(1).strip() else None
