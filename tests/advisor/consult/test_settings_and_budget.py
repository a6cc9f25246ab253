"""Consultation settings from the config file, and budget accounting (BUD, CFG cases; Hypothesis)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.consult import DEFAULT_DENY, Budget, BudgetGate, ConsultSettings, Spend, consult, load_consult_settings
from advisor.errors import ConfigError
from advisor.models import ModelRequest, Prices, ScriptedModel, Usage, estimate_tokens
from tests.advisor.consult.helpers import prompt


def test_defaults() -> None:
    """Defaults: 3 rounds, 420 s, 12,000-char results, repository tools on, the credential patterns (CFG-4, CFG-9)."""
    defaults = ConsultSettings()
    assert (defaults.max_rounds, defaults.timeout, defaults.max_result_chars, defaults.repo_tools) == (3, 420, 12000,
                                                                                                       True)
    assert defaults.deny_patterns == DEFAULT_DENY and defaults.budget == Budget()


def test_file_and_flags(tmp_path: Path) -> None:
    """The [consult] table is read; flags override it; a configured deny list adds to the defaults, and an
    empty one removes none of them (CFG-5)."""
    path = tmp_path / "config.toml"
    path.write_text('[consult]\nmax_rounds = 5\ndeny_patterns = []\n[consult.budget]\ncall_usd = 0.5\n'
                    'session_tokens = -1\n')
    loaded = load_consult_settings({"max_rounds": 2, "timeout": None}, path=path)
    assert (loaded.max_rounds, loaded.timeout, loaded.deny_patterns) == (2, 420, DEFAULT_DENY)
    path.write_text('[consult]\ndeny_patterns = ["*.secret", ".env"]\n')
    assert load_consult_settings(path=path).deny_patterns == (*DEFAULT_DENY, "*.secret")
    assert loaded.budget.call_usd == 0.5 and loaded.budget.session_tokens is None


@pytest.mark.parametrize(("text", "message"), [
    ("[consult]\nmax_rounds = -1", "max_rounds: Input should be greater than or equal to 0"),
    ('[consult]\ndeny_patterns = [".env", 5]', "deny_patterns.1: Input should be a valid string"),
    ("[consult]\nrounds = 3", "unknown setting 'rounds'"),
    ("[consult.budget]\ncall_usd = -2.5\nsession_usd = []", "budget.session_usd"),
])
def test_bad_settings_are_config_errors(tmp_path: Path, text: str, message: str) -> None:
    """Invalid values and unknown keys are ConfigErrors naming them (CFG-6, CFG-7: nothing silently defaulted)."""
    path = tmp_path / "config.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=message):
        load_consult_settings(path=path)


def test_gate_checks_each_limit() -> None:
    """Per-call and per-session token and USD limits each refuse, naming themselves."""
    gate = BudgetGate(Budget(call_tokens=1000, session_tokens=5000, call_usd=None, session_usd=None), None,
                      Spend(tokens=4500))
    assert gate.refusal(400) is None
    assert "session's token budget" in (gate.refusal(600) or "")
    gate.add(Usage(input_tokens=400, output_tokens=200))
    assert "consultation's token budget" in (gate.refusal(401) or "")
    priced = BudgetGate(Budget(call_tokens=None, session_tokens=None, call_usd=0.01, session_usd=1.0),
                        Prices(input=10, output=50, cached_input=1), Spend(usd=0.999))
    assert "session's USD budget" in (priced.refusal(1000) or "")
    assert priced.refusal(100, cached_tokens=100) is None


def test_previous_prompt_is_predicted_cached() -> None:
    """Within a consultation the previous request's input is priced as cached (BUD-2, BUD-4)."""
    gate = BudgetGate(Budget(call_usd=0.5), Prices(input=10, output=50, cached_input=1), Spend())
    assert gate.refusal(100_000, cached_tokens=0) is not None       # 1.00 USD cold
    assert gate.refusal(100_000, cached_tokens=99_000) is None      # 0.109 USD warm


turn = st.fixed_dictionaries({
    "text": st.sampled_from(["", "Severity: none", "advice"]),
    "tool_calls": st.lists(st.just({"name": "ls", "arguments": {}}), max_size=2),
    "usage": st.fixed_dictionaries({"input_tokens": st.integers(0, 5000), "output_tokens": st.integers(0, 500)}),
})


@settings(max_examples=60, deadline=None)
@given(st.lists(turn, min_size=1, max_size=8), st.integers(1000, 20000), st.integers(0, 3))
def test_budget_accounting_is_conserved(turns: list[dict[str, Any]], limit: int, rounds: int) -> None:
    """Total usage is the sum of the attempts, and a request is sent only while spend plus its estimate fits."""
    model = ScriptedModel([*turns, *[{"text": "end"}] * 8])
    settings_ = ConsultSettings(max_rounds=rounds, retry_delay=0, budget=Budget(call_tokens=limit))
    the_prompt = prompt(settings_)
    result = asyncio.run(consult(the_prompt, model, settings=settings_))
    assert result.usage == sum((a.usage for a in result.attempts), Usage())
    assert len(result.attempts) == len(model.requests) <= rounds + 4
    spent = 0
    for attempt, request in zip(result.attempts, model.requests, strict=True):
        assert attempt.messages == len(request.messages)
        assert spent + the_prompt.estimated_tokens <= limit
        spent += attempt.usage.total_tokens
    assert sum(r.ran for r in result.rounds) <= rounds
    if result.stop_reason == "budget-exceeded":
        assert result.transcript is not None
        refused = ModelRequest(system=the_prompt.system, messages=result.transcript.messages, tools=the_prompt.tools)
        assert spent + estimate_tokens(refused) > limit
