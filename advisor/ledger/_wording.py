"""The fixed sentences of the ledger: labels, headers, markers and the closing instructions.

They are part of every request's bytes, so they never change with the session: a request's
prefix stays byte-identical because its words do.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from obligations import NO_RECORD, Item, TranscriptFormat

LOG_OPEN = "<executor_log>"
LOG_CLOSE = "</executor_log>"
TAIL_HEADER = "Most recent work, verbatim:"
QUESTION = "Executor's question: "
REVIEW_MARKER = "Completion review: the executor had just delivered the answer above."
THINKING = "[executor thinking] "
PRIOR_HEADER = ("The user's own words from before the compaction summary in the log (verbatim, in order). For the "
                "executor the summary replaced them; it is the host's paraphrase, and these words outrank it:")
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

_HOSTS: dict[str, str] = {"claude-code": "Claude Code", "codex": "Codex", "pi": "Pi"}
_MAX_ITEMS = 20


def summary_label(kind: str, host: TranscriptFormat | None) -> str:
    """``[compaction summary — Pi's paraphrase, not the user's words]`` and the like."""
    who = f"{_HOSTS[host]}'s" if host in _HOSTS else "the host's"
    return f"[{kind} summary — {who} paraphrase, not the user's words]"


def _item_line(item: Item, handle: Callable[[str | None], str], earlier: bool) -> str:
    if item.kind == "claim-contradicted":
        head = f"claim {item.claim_id!r}" + (f" on `{item.check}`" if item.check else "")
    else:
        where = f" in {item.cwd}" if item.cwd else ""
        head = f"`{item.check}` ({item.check_kind}){where}"
    times = f", {item.repeat_count} times" if item.repeat_count > 1 else ""
    line = f"- {head}: failed{times}, last at {handle(item.latest_failure_call)} — {item.summary}"
    if item.last_attempt is not None:
        line += (f"; the re-run at {handle(item.last_attempt.call_id)} did not count "
                 f"({item.last_attempt.reason})")
    return line + (" [left unresolved when the user moved on to another task]" if earlier else "")


def obligations_text(current: Sequence[Item], earlier: Sequence[Item], handle: Callable[[str | None], str]) -> str:
    """What witness's tracker says is still unverified in the session, for the closing message."""
    if not current and not earlier:
        return f"Verification obligations (witness): none open. {NO_RECORD}"
    lines = [_item_line(item, handle, False) for item in current]
    lines += [_item_line(item, handle, True) for item in earlier]
    shown = lines[:_MAX_ITEMS]
    if len(lines) > _MAX_ITEMS:
        shown.append(f"- … and {len(lines) - _MAX_ITEMS} more")
    return ("Verification obligations witness records as open — checks that failed and have had no genuine "
            "passing re-run since (a masked or filtered \"pass\" does not count):\n" + "\n".join(shown))
