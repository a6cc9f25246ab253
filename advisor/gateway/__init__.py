"""``witness serve``: an OpenAI-compatible gateway that runs the advisor as a server tool.

A client adds ``{"type": "witness:advisor", "parameters": {...}}`` to a chat-completions
(or Responses API) request's ``tools``; the gateway turns it into a function tool (``witness_advisor``,
``witness_advisor_<name>``), calls the upstream provider through the official ``openai`` SDK,
runs each advisor call server-side as a consultation, gives the result back to the executor
model and continues until it answers — non-streamed or as a stream of chunks. The answer's content
stays the model's text: what the next request needs to replay the advice travels as a signed trace
(:class:`TraceSeal`) in the message's ``witness_trace`` field or a Responses ``reasoning`` item, and
comes back expanded (:func:`expand_messages`, :func:`expand_items`). Requests without
advisors are forwarded as they are (cleaned of traces); ``POST /v1/messages`` forwards Anthropic Messages (and its
native advisor tool) untouched. :func:`create_app` builds the ASGI application; :func:`serve_gateway`
runs it with Uvicorn. Needs the ``serve`` extra (Starlette, Uvicorn).
"""

from advisor.gateway._advise import AdvisorErrorCode, Advisors, AdvisorUse, error_result
from advisor.gateway._app import create_app
from advisor.gateway._chat import ChatRequest, parse_chat
from advisor.gateway._entries import (
    DEFAULT_COMPLETION_TOKENS,
    FUNCTION_PREFIX,
    MIN_COMPLETION_TOKENS,
    TOOL_TYPE,
    AdvisorEntry,
    AdvisorParameters,
    Reasoning,
    function_name,
)
from advisor.gateway._exit_codes import exit_code
from advisor.gateway._forward import Forwarded, conversation_id, forwarded
from advisor.gateway._loop import LoopResult, run_loop
from advisor.gateway._messages_api import ADVISOR_BETA, upstream_headers
from advisor.gateway._prompt import DEFAULT_QUESTION, GATEWAY_ADVISOR_PROMPT, GATEWAY_TRANSCRIPT_PROMPT
from advisor.gateway._replay import (
    FIELD,
    ITEM_PREFIX,
    Replayed,
    expand_items,
    expand_messages,
    has_trace,
    marked,
    witness_item,
)
from advisor.gateway._responses import ResponsesRequest, parse_responses
from advisor.gateway._responses_events import response_events
from advisor.gateway._responses_loop import ResponsesResult, run_responses
from advisor.gateway._seal import TraceSeal
from advisor.gateway._serve import configure_logging, serve_gateway
from advisor.gateway._settings import ChatTrace, GatewaySettings, is_loopback, load_gateway_settings
from advisor.gateway._sse import completion_chunks
from advisor.gateway._toolset import ToolSet, map_tool_choice, split_tools
from advisor.gateway._trace import Trace, TracedCall, TraceRound, round_messages
from advisor.gateway._transcript import chat_events, open_obligations
from advisor.gateway._upstream import Upstream

__all__ = [
    "ADVISOR_BETA",
    "DEFAULT_COMPLETION_TOKENS",
    "DEFAULT_QUESTION",
    "FIELD",
    "FUNCTION_PREFIX",
    "GATEWAY_ADVISOR_PROMPT",
    "GATEWAY_TRANSCRIPT_PROMPT",
    "ITEM_PREFIX",
    "MIN_COMPLETION_TOKENS",
    "TOOL_TYPE",
    "AdvisorEntry",
    "AdvisorErrorCode",
    "AdvisorParameters",
    "AdvisorUse",
    "Advisors",
    "ChatRequest",
    "ChatTrace",
    "Forwarded",
    "GatewaySettings",
    "LoopResult",
    "Reasoning",
    "Replayed",
    "ResponsesRequest",
    "ResponsesResult",
    "ToolSet",
    "Trace",
    "TraceRound",
    "TraceSeal",
    "TracedCall",
    "Upstream",
    "chat_events",
    "completion_chunks",
    "configure_logging",
    "conversation_id",
    "create_app",
    "error_result",
    "exit_code",
    "expand_items",
    "expand_messages",
    "forwarded",
    "function_name",
    "has_trace",
    "is_loopback",
    "load_gateway_settings",
    "map_tool_choice",
    "marked",
    "open_obligations",
    "parse_chat",
    "parse_responses",
    "response_events",
    "round_messages",
    "run_loop",
    "run_responses",
    "serve_gateway",
    "split_tools",
    "upstream_headers",
    "witness_item",
]
