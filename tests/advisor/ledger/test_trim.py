"""Trimming to a token budget: the fewest leading blocks left out, the user's words restated, a sticky
cut, a smaller tail before giving up, and a clear refusal when nothing fits (rpiv-cases TRIM)."""

from __future__ import annotations

import pytest

from advisor.errors import LedgerTooLarge
from advisor.ledger import Ledger, LedgerSettings
from obligations import Event
from tests.advisor.ledger.builders import advice, ask, round_, user


def ledger(events: list[Event], **settings: int) -> Ledger:
    """A ledger with a one-letter system prompt, so budgets count the session only."""
    return Ledger(system="S", settings=LedgerSettings(**settings)).extend(events)


def tokens(led: Ledger, **options: int) -> int:
    return led.compile(tools=(), token_budget=0, **options).tokens  # type: ignore[arg-type]


def test_user_words_survive_a_heavy_trim() -> None:
    """TRIM-1: six requirements between large reads; a small budget trims, and every requirement is still there."""
    events: list[Event] = []
    for i in range(6):
        events.append(user(f"user requirement {i}", f"u{i}"))
        for k in range(20):
            events += round_(f"c{i}.{k}", "read", {"path": f"f{i}-{k}.ts"}, "x" * 4000, f"r{i}.{k}")
    led = ledger([*events, *ask("a", "q", "q")], tail_max_chars=500)
    p = led.prompt(tools=(), token_budget=tokens(led) // 3)
    text = "\n".join(m.text for m in p.messages)
    assert p.trimmed and all(f"user requirement {i}" in text for i in range(6))
    assert "The user's own words from the omitted span" in p.messages[0].text


def test_a_trim_leaves_a_marker_and_drops_whole_consultations() -> None:
    """TRIM-2, TRIM-6: the omission marker is there; a consultation whose blocks were all left out loses its
    question and its advice."""
    events: list[Event] = [user("task", "u")]
    for i in range(8):
        events += [*round_(f"c{i}", "read", {"path": f"file-{i}-with-a-long-name.ts"}, "z" * 2000, f"r{i}"),
                   *ask(f"a{i}", f"question {i}", f"q{i}"), advice(f"a{i}", f"advice {i}", f"v{i}")]
    led = ledger([*events, *ask("last", "final", "qf")])
    p = led.prompt(tools=(), token_budget=tokens(led) * 3 // 4)
    text = "\n".join(m.text for m in p.messages)
    assert p.trimmed and "omitted to fit the cost budget" in text and led.trim_anchor > 0
    assert "question 0" not in text and "advice 0" not in text and "advice 7" in text and "[user] task" in text


def test_the_cut_is_sticky_so_the_next_request_shares_the_prefix() -> None:
    """TRIM-3, TRIM-8: after a trim, the next consultation (one more round, an answer) starts with the first
    request's messages but its last, and makes no new cut while it fits."""
    events: list[Event] = [user("task", "u")]
    for i in range(150):
        events += round_(f"c{i}", "read", {"path": f"src/old-middle-{i}.ts"}, "y" * 200, f"r{i}")
    led = ledger([*events, *ask("a1", "first?", "q1")])
    budget = tokens(led) // 2
    first = led.prompt(tools=(), token_budget=budget)
    anchor = led.trim_anchor
    assert first.trimmed and "[user] task" in first.messages[0].text
    assert "old-middle-0.ts" not in "".join(m.text for m in first.messages)
    led.extend([advice("a1", "Severity: nit\nlook at old-middle-149", "v1"),
                *round_("n", "read", {"path": "src/new.ts"}, "n", "rn"), *ask("a2", "second?", "q2")])
    second = led.prompt(tools=(), token_budget=budget)
    assert led.trim_anchor == anchor and second.trimmed
    assert [m.text for m in second.messages[:len(first.messages) - 1]] == [m.text for m in first.messages[:-1]]


def test_an_impossible_budget_keeps_the_task_and_the_question_and_refuses() -> None:
    """TRIM-4, TRIM-9: with a budget nothing fits, the best effort still has the task and the question, and
    `prompt` refuses with a clear reason instead of sending it."""
    led = ledger([user("IRREDUCIBLE TASK " + "question " * 10_000, "u"), *ask("a", "CURRENT QUESTION", "q")])
    compiled = led.compile(tools=(), token_budget=100)
    text = "\n".join(m.text for m in compiled.prompt.messages)
    assert not compiled.fits and "IRREDUCIBLE TASK" in text and "CURRENT QUESTION" in text
    with pytest.raises(LedgerTooLarge, match="more than the budget of 100"):
        led.prompt(tools=(), token_budget=100)


def test_the_tail_cap_is_lowered_before_giving_up() -> None:
    """TRIM-7: when leaving out every card is not enough, the verbatim tail's cap drops (to 4000 … 500)."""
    led = ledger([user("task", "u"), *round_("c1", "read", {"path": "a"}, "a" * 8000, "r1"),
                  *round_("c2", "read", {"path": "b"}, "b" * 8000, "r2"), *ask("x", "q", "q")])
    full = tokens(led)
    compiled = led.compile(tools=(), token_budget=full - 2500)
    assert compiled.fits and compiled.prompt.trimmed and compiled.tokens <= full - 2500
    assert "a" * 4000 not in compiled.prompt.messages[-1].text


def test_the_estimate_is_the_prompts_own() -> None:
    """The ledger's token count is the request's estimate (characters / 4, system and tools included)."""
    led = Ledger().extend([user("task"), *round_("c", "read", {"path": "a"}, "x" * 999, "r")])
    compiled = led.compile(question="q")
    assert compiled.tokens == compiled.prompt.estimated_tokens and compiled.fits and not compiled.prompt.trimmed


def test_no_budget_never_trims() -> None:
    """`token_budget = 0` leaves every block in, however large."""
    led = ledger([user("task"), *[e for i in range(50) for e in round_(f"c{i}", "read", {"path": "a"}, "x" * 5000)]],
                 token_budget=0)
    assert not led.prompt(tools=(), question="q").trimmed
