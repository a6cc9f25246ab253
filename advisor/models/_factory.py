"""A model client for a configuration."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from advisor.models._client import ModelClient
from advisor.models._config import ModelConfig

if TYPE_CHECKING:
    import httpx2


def make_model(config: ModelConfig, *, http_client: httpx2.AsyncClient | None = None,
               env: Mapping[str, str] | None = None) -> ModelClient:
    """The client for ``config``: chat completions, Anthropic Messages, or the scripted test double."""
    if config.provider == "anthropic":
        from advisor.models._anthropic import AnthropicModel

        return AnthropicModel(config, http_client=http_client, env=env)
    if config.provider == "scripted":
        from advisor.models._scripted import ScriptedModel

        assert config.script is not None  # load_model_config requires it
        return ScriptedModel(config.script, model=config.model)
    from advisor.models._openai import OpenAIChatModel

    return OpenAIChatModel(config, http_client=http_client, env=env)
