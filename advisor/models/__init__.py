"""Model clients: provider-neutral requests and answers, and adapters for the official SDKs.

:class:`ModelRequest` and :class:`ModelResponse` say what is sent and what comes back in no
provider's terms; :class:`OpenAIChatModel` (OpenAI-compatible chat completions, ``openai``
SDK) and :class:`AnthropicModel` (Anthropic Messages, ``anthropic`` SDK) translate, each with
an injectable ``httpx2.AsyncClient``; :class:`ScriptedModel` is a test double. Configuration
comes from flags, the environment and ``config.toml`` (:func:`load_model_config`).

The SDKs are imported only when a client is made: ``import advisor.models`` stays light.
"""

from advisor.models._anthropic import AnthropicModel
from advisor.models._client import ModelClient, complete_sync
from advisor.models._config import PROVIDERS, ModelConfig, Prices, Provider, load_model_config
from advisor.models._estimate import estimate_tokens
from advisor.models._factory import make_model
from advisor.models._messages import (
    EFFORTS,
    ChatAssistant,
    ChatMessage,
    ChatTool,
    ChatUser,
    Effort,
    FinishReason,
    ImagePart,
    ImageType,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCall,
    ToolSpec,
    Usage,
)
from advisor.models._openai import OpenAIChatModel
from advisor.models._scripted import TEST_DOUBLE_MODEL, ScriptedCall, ScriptedModel, ScriptedTurn, load_script

__all__ = [
    "EFFORTS",
    "PROVIDERS",
    "TEST_DOUBLE_MODEL",
    "AnthropicModel",
    "ChatAssistant",
    "ChatMessage",
    "ChatTool",
    "ChatUser",
    "Effort",
    "FinishReason",
    "ImagePart",
    "ImageType",
    "ModelClient",
    "ModelConfig",
    "ModelRequest",
    "ModelResponse",
    "OpenAIChatModel",
    "Prices",
    "Provider",
    "ScriptedCall",
    "ScriptedModel",
    "ScriptedTurn",
    "TextPart",
    "ToolCall",
    "ToolSpec",
    "Usage",
    "complete_sync",
    "estimate_tokens",
    "load_model_config",
    "load_script",
    "make_model",
]
