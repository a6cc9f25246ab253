"""Which reviewer model to call and how: flags, then environment, then the config file.

========================  ==============================  ===========================================
setting                   environment                     meaning
========================  ==============================  ===========================================
``provider``              ``WITNESS_ADVISOR_PROVIDER``    ``openai`` (chat completions), ``anthropic``
                                                          (Messages) or ``scripted`` (a test double)
``model``                 ``WITNESS_ADVISOR_MODEL``       the model id the provider knows
``base_url``              ``WITNESS_ADVISOR_BASE_URL``,   the API's base URL; for OpenAI-compatible
                          then ``OPENAI_BASE_URL`` /      servers (vLLM, Ollama, gateways) and proxies
                          ``ANTHROPIC_BASE_URL``
``api_key_env``           —                               the variable holding the key (default
                                                          ``OPENAI_API_KEY`` / ``ANTHROPIC_API_KEY``)
``effort``                ``WITNESS_ADVISOR_EFFORT``      reasoning effort, where supported
``max_output_tokens``     —                               output cap per request (default 4096)
``timeout``               —                               seconds per request (default 120)
``connect_timeout``       —                               seconds to connect (default 10)
``max_retries``           —                               the SDK's own retries of 429/5xx (default 2)
``stream``                —                               stream answers (long answers, idle proxies)
``prices``                —                               USD per million tokens, for money budgets
``script``                —                               the JSON script of the ``scripted`` provider
========================  ==============================  ===========================================

Without a ``provider``, a model whose id starts with ``claude`` is Anthropic's and any other
is OpenAI-compatible. The file is ``config.toml`` under ``$WITNESS_HOME``, table ``[model]``
(prices in ``[model.prices]``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationError

from advisor._config_file import config_path, describe, read_section
from advisor._values import Frozen
from advisor.errors import ConfigError
from advisor.models._messages import Effort, Usage

Provider = Literal["openai", "anthropic", "scripted"]
"""The wire format (and SDK) a model is called through."""

PROVIDERS: tuple[Provider, ...] = ("openai", "anthropic", "scripted")

_KEY_ENV: dict[Provider, str] = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY"}
_BASE_URL_ENV: dict[Provider, str] = {"openai": "OPENAI_BASE_URL", "anthropic": "ANTHROPIC_BASE_URL"}
_ENV = {"provider": "WITNESS_ADVISOR_PROVIDER", "model": "WITNESS_ADVISOR_MODEL",
        "base_url": "WITNESS_ADVISOR_BASE_URL", "effort": "WITNESS_ADVISOR_EFFORT"}


class Prices(Frozen):
    """A model's prices in USD per million tokens."""

    input: float = Field(ge=0)
    """Uncached prompt tokens."""
    output: float = Field(ge=0)
    """Output tokens (reasoning included)."""
    cached_input: float | None = Field(default=None, ge=0)
    """Prompt tokens read from the cache; default: the input price."""
    cache_write: float | None = Field(default=None, ge=0)
    """Prompt tokens written to the cache; default: the input price."""

    def cost(self, usage: Usage) -> float:
        """What ``usage`` costs, in USD."""
        cached = self.input if self.cached_input is None else self.cached_input
        write = self.input if self.cache_write is None else self.cache_write
        uncached = max(0, usage.input_tokens - usage.cached_input_tokens - usage.cache_write_tokens)
        total = (uncached * self.input + usage.cached_input_tokens * cached + usage.cache_write_tokens * write
                 + usage.output_tokens * self.output)
        return total / 1_000_000

    def prompt_cost(self, tokens: int) -> float:
        """What ``tokens`` uncached prompt tokens cost, in USD (an estimate's upper side)."""
        return tokens * self.input / 1_000_000


class ModelConfig(Frozen):
    """How to reach the reviewer model."""

    provider: Provider
    """The wire format and SDK: ``openai``, ``anthropic`` or ``scripted`` (a test double)."""
    model: str = Field(min_length=1)
    """The model id."""
    base_url: str | None = None
    """The API's base URL; ``None`` uses the provider's."""
    api_key_env: str | None = None
    """The environment variable holding the API key; ``None`` uses the provider's usual one."""
    effort: Effort | None = None
    """Reasoning effort; ``None`` sends none."""
    max_output_tokens: int = Field(default=4096, gt=0)
    """Output cap per request."""
    timeout: float = Field(default=120.0, gt=0)
    """Seconds one request may take."""
    connect_timeout: float = Field(default=10.0, gt=0)
    """Seconds to establish a connection."""
    max_retries: int = Field(default=2, ge=0, le=10)
    """How often the SDK retries a 429, a 5xx or a connection failure before giving up."""
    stream: bool = False
    """Whether to stream answers (the result is the same; long answers stay alive through proxies)."""
    prices: Prices | None = None
    """Prices, so money budgets can be enforced and costs reported."""
    script: Path | None = None
    """The ``scripted`` provider's JSON script."""

    def key_variable(self) -> str | None:
        """The environment variable the API key is read from."""
        if self.api_key_env:
            return self.api_key_env
        return _KEY_ENV.get(self.provider)

    def api_key(self, env: Mapping[str, str] | None = None) -> str | None:
        """The API key, from the environment (``None`` when it is not set)."""
        name = self.key_variable()
        value = (os.environ if env is None else env).get(name) if name else None
        return value or None

    @property
    def label(self) -> str:
        """``provider:model``, as reports name the advisor."""
        return f"{self.provider}:{self.model}"


def _infer_provider(model: Any) -> Provider:
    return "anthropic" if isinstance(model, str) and model.lower().startswith("claude") else "openai"


def load_model_config(flags: Mapping[str, Any] | None = None, *, env: Mapping[str, str] | None = None,
                      path: Path | None = None) -> ModelConfig:
    """The model configuration: each setting from ``flags`` (``None`` values ignored), else the
    environment, else the ``[model]`` table of the config file.

    Raises :class:`~advisor.errors.ConfigError` naming what is missing or wrong, and where.
    """
    env = os.environ if env is None else env
    path = path or config_path()
    settings: dict[str, Any] = dict(read_section("model", path))
    settings.update({key: env[name] for key, name in _ENV.items() if env.get(name)})
    settings.update({key: value for key, value in (flags or {}).items() if value is not None})
    if not settings.get("model"):
        raise ConfigError("no advisor model is configured: pass --model (and --provider), set "
                          f"WITNESS_ADVISOR_MODEL, or add a [model] table to {path}")
    settings.setdefault("provider", _infer_provider(settings["model"]))
    provider = settings["provider"]
    if not settings.get("base_url") and provider in _BASE_URL_ENV and env.get(_BASE_URL_ENV[provider]):
        settings["base_url"] = env[_BASE_URL_ENV[provider]]
    try:
        config = ModelConfig.model_validate(settings)
    except ValidationError as error:
        raise ConfigError(describe(error, f"advisor model settings (flags, environment, [model] in {path})")) \
            from None
    if config.provider == "scripted" and config.script is None:
        raise ConfigError("the scripted provider (a test double) needs a script: set script = 'answers.json'")
    return config
