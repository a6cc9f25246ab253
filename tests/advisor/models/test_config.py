"""Model configuration: flags over environment over the config file, and clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from advisor.errors import ConfigError
from advisor.models import ModelConfig, Prices, Usage, load_model_config

FILE = """
[model]
provider = "anthropic"
model = "claude-file"
effort = "high"
timeout = 60
[model.prices]
input = 15
output = 75
cached_input = 1.5
"""


def _file(tmp_path: Path, text: str = FILE) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text)
    return path


def test_the_file_alone(tmp_path: Path) -> None:
    """Settings from the [model] table, prices included."""
    config = load_model_config(env={}, path=_file(tmp_path))
    assert (config.provider, config.model, config.effort, config.timeout) == ("anthropic", "claude-file", "high", 60)
    assert config.prices == Prices(input=15, output=75, cached_input=1.5)


def test_environment_overrides_the_file_and_flags_override_both(tmp_path: Path) -> None:
    """WITNESS_ADVISOR_* variables beat the file; flags beat both; None flags are ignored."""
    env = {"WITNESS_ADVISOR_MODEL": "claude-env", "WITNESS_ADVISOR_EFFORT": "low"}
    config = load_model_config({"effort": "max", "base_url": None}, env=env, path=_file(tmp_path))
    assert (config.model, config.effort) == ("claude-env", "max")


def test_provider_from_the_model_name(tmp_path: Path) -> None:
    """Without a provider, claude-* models are Anthropic's and others OpenAI-compatible."""
    missing = tmp_path / "none.toml"
    assert load_model_config({"model": "claude-opus-4-8"}, env={}, path=missing).provider == "anthropic"
    assert load_model_config({"model": "gpt-5.2"}, env={}, path=missing).provider == "openai"


def test_usual_provider_variables(tmp_path: Path) -> None:
    """OPENAI_BASE_URL / ANTHROPIC_BASE_URL give the base URL; the API key comes from the provider's variable."""
    env = {"OPENAI_BASE_URL": "http://localhost:8000/v1", "OPENAI_API_KEY": "sk-x", "ANTHROPIC_API_KEY": "sk-a"}
    config = load_model_config({"model": "qwen"}, env=env, path=tmp_path / "none.toml")
    assert config.base_url == "http://localhost:8000/v1"
    assert config.api_key(env) == "sk-x" and config.key_variable() == "OPENAI_API_KEY"
    named = config.model_copy(update={"api_key_env": "MY_KEY"})
    assert named.api_key({"MY_KEY": "mine"}) == "mine" and named.api_key({}) is None


def test_no_model_is_a_clear_error(tmp_path: Path) -> None:
    """No model anywhere: the error names the flag, the variable and the file."""
    with pytest.raises(ConfigError, match=r"--model.*WITNESS_ADVISOR_MODEL.*none\.toml"):
        load_model_config(env={}, path=tmp_path / "none.toml")


@pytest.mark.parametrize(("text", "message"), [
    ("[model\nmodel = 1", "is not valid TOML"),
    ('[model]\nmodel = "m"\nmodle = "x"', "unknown setting 'modle'"),
    ('[model]\nmodel = "m"\neffort = "huge"', "effort: Input should be"),
    ('[model]\nmodel = "m"\ntimeout = -1', "timeout: Input should be greater than 0"),
    ('[model]\nprovider = "scripted"\nmodel = "m"', "needs a script"),
])
def test_bad_settings_name_the_problem(tmp_path: Path, text: str, message: str) -> None:
    """Malformed TOML, unknown keys and invalid values are ConfigErrors that say which and where."""
    with pytest.raises(ConfigError, match=message):
        load_model_config({} if "model =" in text else {"model": "m"}, env={}, path=_file(tmp_path, text))


def test_a_table_that_is_not_a_table(tmp_path: Path) -> None:
    """`model = "x"` at the top level is refused as not a [model] table."""
    with pytest.raises(ConfigError, match=r"\[model\] must be a table"):
        load_model_config(env={}, path=_file(tmp_path, 'model = "x"'))


def test_label() -> None:
    """A configuration names its advisor as provider:model."""
    assert ModelConfig(provider="openai", model="gpt-x").label == "openai:gpt-x"


def test_cost_prices_each_kind_of_token() -> None:
    """Uncached input, cache reads, cache writes and output are priced separately."""
    prices = Prices(input=10, output=50, cached_input=1, cache_write=12.5)
    usage = Usage(input_tokens=100_000, cached_input_tokens=90_000, cache_write_tokens=2_000, output_tokens=500)
    assert prices.cost(usage) == pytest.approx((8_000 * 10 + 90_000 * 1 + 2_000 * 12.5 + 500 * 50) / 1e6)
    assert Prices(input=2, output=8).cost(usage) == pytest.approx((100_000 * 2 + 500 * 8) / 1e6)


tokens = st.integers(min_value=0, max_value=10**7)


@given(st.lists(st.tuples(tokens, tokens, tokens), max_size=8))
def test_cost_is_additive(parts: list[tuple[int, int, int]]) -> None:
    """The cost of summed usage is the sum of the costs (no token is priced twice or dropped)."""
    prices = Prices(input=3, output=15, cached_input=0.3, cache_write=3.75)
    usages = [Usage(input_tokens=i + c, cached_input_tokens=c, output_tokens=o) for i, c, o in parts]
    total = sum(usages, Usage())
    assert prices.cost(total) == pytest.approx(sum(prices.cost(u) for u in usages))
    assert total.total_tokens == sum(u.total_tokens for u in usages)


def test_missing_api_key_names_the_variable() -> None:
    """A provider's public endpoint without a key is a ConfigError naming the variable to set (ERR-3)."""
    from advisor.models import AnthropicModel, OpenAIChatModel

    with pytest.raises(ConfigError, match="set OPENAI_API_KEY"):
        OpenAIChatModel(ModelConfig(provider="openai", model="gpt-x"), env={})
    with pytest.raises(ConfigError, match="set MY_KEY"):
        AnthropicModel(ModelConfig(provider="anthropic", model="claude-x", api_key_env="MY_KEY"), env={})
