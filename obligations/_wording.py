"""Everything an agent is told about its obligations, in one place: what would close an item, the
notices and reminders the tracker gives, and what a host's Stop hook says when it blocks or lets
the agent go. The tracker and the hooks use these and nothing else, so the words stay the same
wherever an agent meets them. They are always reminders, never a permanent block. Every text
returned passes :func:`shellparse.printable`: checks, outputs and paths come from transcripts, and
hosts show these texts to people (Claude Code shows a Stop hook's ``systemMessage``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from shellparse import printable

if TYPE_CHECKING:
    from ._items import Item

NO_RECORD = "No current-run obligation record (this is not an all-clear: only checks run in this session count)."
"""What an empty list of obligations means."""

_MASKS = "no `|| true`, `; echo`, `| grep`"
"""The masking shapes an agent is most likely to reach for, named where a re-run is asked for."""


def closes_by(item: Item) -> str:
    """What would close ``item``, in a sentence."""
    if item.key is None:
        return ("nothing yet: register the claim again with the `validation_call_id` of the check it rests "
                "on, then correct it and re-run that check")
    where = f" in `{item.cwd}`" if item.cwd else ""
    run = (f"a later run of `{item.check}`{where} that exits 0, with nothing edited during or after it, "
           f"whose exit status is the check's own ({_MASKS} …)")
    if item.kind == "claim-contradicted" and item.correction is None:
        return printable("a correction of the claim (`correct`), then " + run)
    return printable(run)


def _whose(item: Item) -> str:
    # A root agent inherits its workers' unverified failures: it did not run the check itself, and
    # should know which worker's run it answers for.
    return f" (run by worker `{item.failed_by}`)" if item.failed_by else ""


def describe(item: Item) -> str:
    """One item in one paragraph: what failed, how often, what was tried, what closes it."""
    if item.kind == "claim-contradicted":
        head = f"{item.id} [claim {item.claim_id!r}, {item.state}]: {item.summary}"
    else:
        where = f" (in {item.cwd})" if item.cwd else ""
        times = f", failed {item.repeat_count}x" if item.repeat_count > 1 else ""
        head = (f"{item.id} [{item.check_kind} `{item.check}`{where}, {item.state}{times}]{_whose(item)}: "
                f"{item.summary}")
    lines = [head]
    attempt = item.last_attempt
    if attempt is not None:
        run = f"`{attempt.command}`" if attempt.command else f"call {attempt.call_id}"
        at = f" ({attempt.origin})" if attempt.origin else ""
        lines.append(f"  last re-run {run}{at} did not count: {attempt.reason}")
    if item.disposition is not None:
        status = "recorded" if item.disposed else "outrun by later evidence, not verified"
        lines.append(f"  disposition {item.disposition.kind} ({status}): {item.disposition.basis}")
    lines.append(f"  closes only through: {closes_by(item)}")
    return printable("\n".join(lines))


def open_set(items: Sequence[Item]) -> str:
    """The notice that follows a change of the open set."""
    if not items:
        return "Verification obligations: none open. " + NO_RECORD
    body = "\n".join(describe(item) for item in items)
    return ("Verification obligations — open items. No score reset, cooldown or budget clears these; only a "
            f"genuine re-run does.\n{body}")


def reminder(items: Sequence[Item], final: bool) -> str:
    """A reminder at turn stop. The last one asks the agent to report each item as unresolved."""
    body = "\n".join(describe(item) for item in items)
    if final:
        ask = ("This is the last reminder for this task. If you stop now, report every item below as STILL "
               "UNRESOLVED, with its check, in your answer.")
    else:
        ask = ("Reminder (not a block): these checks failed and have not been genuinely re-run since. Re-run them "
               "so their exit status counts, or say in your answer that they are unresolved.")
    return f"{ask}\n{body}"


def _listing(items: Sequence[Item]) -> str:
    return printable("\n".join(f"- `{item.check or item.claim_id}`{_whose(item)}: {item.summary}\n"
                               f"  closes only through: {closes_by(item)}" for item in items))


def block_reason(items: Sequence[Item], reminder_number: int, budget: int) -> str:
    """What a Stop hook tells the agent when it holds it: the ``reminder_number``-th of ``budget``."""
    return (f"Verification obligations are open (witness reminder {reminder_number} of {budget}; not a permanent "
            "block). These checks failed and have not been genuinely re-run since:\n"
            f"{_listing(items)}\nRe-run each check so its own exit status counts ({_MASKS}), "
            "or say plainly in your answer that it is still failing.")


def release_message(items: Sequence[Item], budget: int) -> str:
    """What a Stop hook leaves for the user when it lets the agent stop after ``budget`` reminders."""
    return (f"witness: stopping with {len(items)} unresolved verification obligation(s) after "
            f"{budget} reminder(s) this task:\n{_listing(items)}")
