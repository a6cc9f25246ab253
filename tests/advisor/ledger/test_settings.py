"""The ledger's settings: defaults as documented, the `[ledger]` table of the configuration file, flags over
it, and a clear error for a bad value."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.errors import ConfigError
from advisor.ledger import Ledger, LedgerSettings, load_ledger_settings
from tests.advisor.ledger.builders import compaction, user


def test_defaults_are_the_documented_ones(tmp_path: Path) -> None:
    """Tail 2, 8,000 characters per verbatim part, 20,000 per user message, 2,000 restated, 500 for a host's
    message, a 250,000-token budget — with no configuration file."""
    assert load_ledger_settings(path=tmp_path / "none.toml") == LedgerSettings(
        tail_tool_calls=2, tail_max_chars=8000, user_message_max_chars=20_000, restated_max_chars=2000,
        custom_preview_chars=500, token_budget=250_000)


def test_the_config_file_and_flags(tmp_path: Path) -> None:
    """`[ledger]` in config.toml sets values; a flag overrides the file; a bad value names the table and the key."""
    config = tmp_path / "config.toml"
    config.write_text("[ledger]\ntail_tool_calls = 4\ntoken_budget = 0\n")
    settings = load_ledger_settings({"tail_tool_calls": 1, "token_budget": None}, path=config)
    assert (settings.tail_tool_calls, settings.token_budget) == (1, 0)
    config.write_text("[ledger]\ntail_tool_calls = -1\nvolume = 11\n")
    with pytest.raises(ConfigError, match=r"\[ledger\] in .*config.toml.*tail_tool_calls.*unknown setting 'volume'"):
        load_ledger_settings(path=config)


def test_restated_words_have_their_own_cap() -> None:
    """After a compaction, a long user message is restated with both ends kept and the middle expandable."""
    words = "HEAD " + "x" * 5000 + " TAIL"
    p = Ledger(settings=LedgerSettings(restated_max_chars=200)).extend(
        [user(words, "u1"), compaction("S", "k"), user("next")]).prompt(question="q")
    prior = p.messages[0].text
    assert "[user] HEAD" in prior and prior.endswith(" TAIL") and 'advisor_expand("u1")' in prior and len(prior) < 800
