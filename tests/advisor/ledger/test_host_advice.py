"""Advice the hosts delivered — witness's MCP `advisor` tool, a completion review's Stop block — comes back in
later ledgers as the advisor's own earlier turns."""

from __future__ import annotations

from advisor.ledger import Ledger, advice_in_feedback, review_feedback
from obligations import HostMessage
from tests.advisor.ledger.builders import call, result, say, user


def roles_and_texts(ledger: Ledger) -> list[tuple[str, str]]:
    return [(m.role, m.text) for m in ledger.prompt(question="now?").messages]


def test_mcp_advice_is_a_past_consultation_with_its_question() -> None:
    """An `mcp__witness__advisor` call's answer is an assistant turn; its `question` argument is the question."""
    ledger = Ledger().extend([user("fix the bug", "u"), say("Checking with the advisor.", "s"),
                              call("m1", "mcp__witness__advisor", {"question": "Is the fix verified?"}),
                              result("m1", "Severity: concern\nRe-run the tests.", "r"), user("go on", "n")])
    (r0, m0), (r1, m1), (r2, _) = roles_and_texts(ledger)
    assert (r0, r1, r2) == ("user", "assistant", "user") and m1 == "Severity: concern\nRe-run the tests."
    assert "Is the fix verified?" in m0


def test_an_mcp_error_answer_is_not_advice() -> None:
    """An error result of the tool (no model, unknown session) is never replayed as advice."""
    ledger = Ledger().extend([user("fix the bug", "u"), call("m1", "mcp__witness__advisor", {}),
                              result("m1", "witness advisor is not configured", "r", error=True)])
    assert all(role == "user" for role, _ in roles_and_texts(ledger))
    assert "not configured" not in str(roles_and_texts(ledger))


def test_a_review_block_is_replayed_as_past_review() -> None:
    """A Stop hook's block carrying a completion review is the advisor's past turn, not host feedback."""
    feedback = review_feedback("Severity: concern\nThe test was never re-run.", "concern", 1, 3)
    assert advice_in_feedback(feedback) == "Severity: concern\nThe test was never re-run."
    ledger = Ledger().extend([user("fix the bug", "u"), say("Done.", "s"),
                              HostMessage(kind="hook-feedback", text=feedback, hidden=True, entry_id="h")])
    (_, m0), (r1, m1), *_ = roles_and_texts(ledger)
    assert r1 == "assistant" and m1 == "Severity: concern\nThe test was never re-run."
    assert "hook feedback" not in m0


def test_other_hook_feedback_is_not_advice() -> None:
    """The obligations reminder (or any other hook text) stays host feedback."""
    assert advice_in_feedback("Verification obligations are open (witness reminder 1 of 3)") is None
    assert advice_in_feedback("witness completion review without an advisory block") is None
