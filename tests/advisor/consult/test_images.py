"""An image the advisor reads reaches a multimodal model as an image, through each official SDK: in the
tool result for Anthropic, as an image message after the results for OpenAI chat completions; the log
names it without its bytes."""

from __future__ import annotations

import asyncio
import base64
import json
from pathlib import Path

import pytest

from advisor.consult import AdvisorPrompt, ConsultationLog, ConsultSettings, Investigation, consult
from advisor.models import ModelConfig, Provider, UserMessage, make_model
from tests.support.model_server import ModelServer
from tests.support.script import Reply, ToolCall

PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJ"
                       "RU5ErkJggg==")
"""A 1×1 PNG."""


def _consult(tmp_path: Path, server: ModelServer, provider: Provider) -> ConsultationLog:
    (tmp_path / "shot.png").write_bytes(PNG)
    server.enqueue(Reply(tool_calls=[ToolCall("read", {"path": "shot.png"})]), Reply(text="Severity: none\nFine."))
    url = server.openai_base_url if provider == "openai" else server.anthropic_base_url
    model = make_model(ModelConfig(provider=provider, model="scripted-test-double", base_url=url, max_retries=0))
    settings = ConsultSettings(retry_delay=0)
    prompt = AdvisorPrompt(system="advise", messages=(UserMessage("look at shot.png"),),
                           tools=Investigation(tmp_path, settings=settings).declarations())
    book = ConsultationLog(tmp_path / "log")

    async def run() -> None:
        try:
            await consult(prompt, model, investigation=Investigation(tmp_path, settings=settings), log=book)
        finally:
            await model.aclose()

    asyncio.run(run())
    return book


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_a_read_image_reaches_the_model_as_an_image(tmp_path: Path, model_server: ModelServer,
                                                    provider: Provider) -> None:
    """The second request carries the PNG's bytes as the provider's image part; the log keeps its size and
    digest, not its bytes."""
    book = _consult(tmp_path, model_server, provider)
    body = model_server.requests[1].body
    data = base64.b64encode(PNG).decode()
    if provider == "anthropic":
        results = [block for turn in body["messages"] for block in turn["content"]
                   if isinstance(turn["content"], list) and block.get("type") == "tool_result"]
        assert results[0]["content"][1] == {"type": "image", "source": {"type": "base64", "media_type": "image/png",
                                                                        "data": data}}
    else:
        last = body["messages"][-1]
        assert last["role"] == "user" and last["content"][1] == {
            "type": "image_url", "image_url": {"url": f"data:image/png;base64,{data}"}}
        assert body["messages"][-2]["role"] == "tool"
    logged = book.path.read_text()
    assert data not in logged and json.loads(logged)["transcript"]["messages"][2]["content"][1]["size"] == len(PNG)
