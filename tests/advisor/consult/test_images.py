"""An image the advisor reads reaches a multimodal model as an image, through each official SDK: in the
tool result for Anthropic, as an image message after the results for OpenAI chat completions; the log
names it without its bytes."""

from __future__ import annotations

import asyncio
import base64
import json
import struct
import zlib
from pathlib import Path

import pytest

from advisor.consult import ConsultationLog, ConsultSettings, Investigation, consult
from advisor.models import ChatUser, ModelConfig, Provider, make_model
from advisor.models import ToolCall as ModelToolCall
from advisor.prompt import AdvisorPrompt
from tests.support.model_server import ModelServer
from tests.support.script import Reply, ToolCall
from tests.support.secrets import SEEDED

PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJ"
                       "RU5ErkJggg==")
"""A 1×1 PNG."""


def _consult(tmp_path: Path, server: ModelServer, provider: Provider) -> ConsultationLog:
    (tmp_path / "shot.png").write_bytes(PNG)
    server.enqueue(Reply(tool_calls=[ToolCall("read", {"path": "shot.png"})]), Reply(text="Severity: none\nFine."))
    url = server.openai_base_url if provider == "openai" else server.anthropic_base_url
    model = make_model(ModelConfig(provider=provider, model="scripted-test-double", base_url=url, max_retries=0))
    settings = ConsultSettings(retry_delay=0)
    prompt = AdvisorPrompt(system="advise", messages=(ChatUser("look at shot.png"),),
                           tools=Investigation(tmp_path, settings=settings).declarations())
    book = ConsultationLog(tmp_path / "log")

    async def run() -> None:
        try:
            book.keep(await consult(prompt, model, investigation=Investigation(tmp_path, settings=settings)))
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


def _with_text(png: bytes, keyword: str, text: str) -> bytes:
    """The PNG with a `tEXt` chunk (a keyword and its text, as image tools store comments) after its header."""
    body = b"tEXt" + keyword.encode("latin-1") + b"\0" + text.encode("latin-1")
    chunk = struct.pack(">I", len(body) - 4) + body + struct.pack(">I", zlib.crc32(body))
    return png[:33] + chunk + png[33:]


@pytest.mark.parametrize(("comment", "shown"), [
    (f"deploy token {SEEDED}", False), ("password=Zq8#kLm2vX9p", False), ("Made with a screenshot tool", True),
])
def test_an_image_whose_metadata_holds_a_credential_is_named_not_shown(tmp_path: Path, comment: str,
                                                                       shown: bool) -> None:
    """An image cannot be redacted: one whose text (a PNG comment) holds what the redactor takes for a secret is
    named and not attached; one whose comment is ordinary is attached."""
    (tmp_path / "shot.png").write_bytes(_with_text(PNG, "Comment", comment))
    outcome = Investigation(tmp_path).run(ModelToolCall(id="c1", name="read", arguments={"path": "shot.png"}))
    assert bool(outcome.images) is shown
    assert ("not shown" in outcome.text) is not shown and SEEDED not in outcome.text
