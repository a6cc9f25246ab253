"""A ledger for an advisor without investigation tools, rebuilt from scratch for every consultation (as a
stateless host such as the gateway does): nothing points to tools it lacks, a restored cut keeps the prefix,
an advisor call's own prompt is its question, and parallel advisor calls are each a consultation."""

from __future__ import annotations

import re

from advisor.ledger import Ledger, LedgerSettings
from obligations import Event
from tests.advisor.ledger.builders import advice, call, result, round_, say, user


def requests_text(led: Ledger, **options: int) -> str:
    prompt = led.prompt(**options)  # type: ignore[arg-type]
    return prompt.system + "\n".join(message.text for message in prompt.messages)


def test_without_investigation_nothing_points_to_tools_the_advisor_lacks() -> None:
    """Clipped text says only how much was left out, no tools are declared, and trimming's marker and the
    closing instruction name no tool."""
    events: list[Event] = [user("task " + "u" * 3000, "u0")]
    for i in range(200):
        events += round_(f"c{i}", "read", {"path": f"src/file-{i}.ts"}, "y" * 300, f"r{i}")
    events += [say("long thought " + "t" * 3000, "s1"), call("a1", "advisor")]
    settings = LedgerSettings(user_message_max_chars=500, restated_max_chars=500)
    led = Ledger(system="S", settings=settings, investigation=False).extend(events)
    budget = led.compile(token_budget=0).tokens // 2
    prompt = led.prompt(token_budget=budget)
    text = requests_text(led, token_budget=budget)
    assert prompt.tools == () and prompt.trimmed
    assert "advisor_expand" not in text and "read-only tools" not in text and "git_diff" not in text
    assert "omitted to fit the cost budget, not because it was empty.]" in text
    assert re.search(r"\[… \d+ chars omitted …\]", text)
    with_tools = requests_text(Ledger(system="S", settings=settings).extend(events), token_budget=0)
    assert "advisor_expand" in with_tools


def test_a_restored_cut_gives_a_fresh_ledger_the_kept_ledgers_request() -> None:
    """A ledger rebuilt from the same events with the previous request's cut restored renders what the
    ledger kept across both consultations renders."""
    first: list[Event] = [user("task", "u")]
    for i in range(150):
        first += round_(f"c{i}", "read", {"path": f"src/old-{i}.ts"}, "y" * 200, f"r{i}")
    first += [say("first?", "q1"), call("a1", "advisor")]
    later: list[Event] = [advice("a1", "Severity: nit\nfine", "v1"),
                          *round_("n", "read", {"path": "new.ts"}, "n", "rn"), say("second?", "q2"),
                          call("a2", "advisor")]
    whole = Ledger(system="S").extend(first).compile(tools=(), token_budget=0).tokens
    settings = LedgerSettings(token_budget=whole // 2)
    kept = Ledger(system="S", settings=settings).extend(first)
    kept.prompt()
    cut = kept.trim_anchor
    assert cut > 0
    kept.extend(later)
    fresh = Ledger(system="S", settings=settings).extend([*first, *later])
    fresh.trim_anchor = cut
    assert fresh.prompt() == kept.prompt()


def test_an_advisor_calls_prompt_argument_is_its_question() -> None:
    """A call that carries a ``prompt`` is asked that, not the prose beside it."""
    led = Ledger(system="S").extend([user("task", "u"), say("Let me check.", "s"),
                                     call("a1", "witness_advisor", {"prompt": "Is the schema right?"}),
                                     advice("a1", "Severity: none\nYes.", "v"), say("next", "s2"),
                                     call("a2", "witness_advisor")])
    messages = led.prompt().messages
    assert "Executor's question: Is the schema right?" in "\n".join(m.text for m in messages)


def test_parallel_advisor_calls_in_one_turn_are_each_a_consultation() -> None:
    """Two advisors consulted in the same turn both come back as past advice, each after its own question."""
    led = Ledger(system="S").extend([user("task", "u"), say("Two opinions.", "s"),
                                     call("a1", "witness_advisor", {"prompt": "security?"}),
                                     call("a2", "witness_advisor", {"prompt": "performance?"}),
                                     result("a1", "Severity: nit\nsecure", "v1"),
                                     result("a2", "Severity: nit\nfast", "v2"), say("next", "s2"),
                                     call("a3", "witness_advisor", {"prompt": "now?"})])
    messages = led.prompt().messages
    assert [m.text for m in messages if m.role == "assistant"] == ["Severity: nit\nsecure", "Severity: nit\nfast"]
    text = "\n".join(m.text for m in messages)
    assert text.index("security?") < text.index("secure") < text.index("performance?") < text.index("fast")
