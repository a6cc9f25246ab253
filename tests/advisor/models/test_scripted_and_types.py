"""The scripted test double, the neutral types, and the light import."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

from advisor.errors import ConfigError, ModelRefused, ModelUnavailable
from advisor.models import (
    TEST_DOUBLE_MODEL,
    ChatAssistant,
    ChatUser,
    ModelClient,
    ModelConfig,
    ModelRequest,
    ScriptedModel,
    ToolSpec,
    complete_sync,
    estimate_tokens,
    make_model,
)

ROOT = Path(__file__).resolve().parents[3]
REQUEST = ModelRequest(system="s", messages=(ChatUser(content="question"),))


def test_scripted_model_answers_in_order_and_says_it_is_a_test_double(tmp_path: Path) -> None:
    """A script file's turns come back in order, tool calls with ids; the model id says test double."""
    script = tmp_path / "answers.json"
    script.write_text(json.dumps([{"tool_calls": [{"name": "read", "arguments": {"path": "a"}}]},
                                  {"text": "Severity: nit\nrename it", "usage": {"input_tokens": 9}}]))
    model = make_model(ModelConfig(provider="scripted", model=TEST_DOUBLE_MODEL, script=script))
    assert isinstance(model, ScriptedModel) and isinstance(model, ModelClient)
    first = complete_sync(model, REQUEST)
    assert first.tool_calls[0].name == "read" and first.tool_calls[0].id and first.stop_reason == "tool_calls"
    second = complete_sync(model, REQUEST)
    assert second.text == "Severity: nit\nrename it" and second.usage.input_tokens == 9
    assert second.model == "scripted-test-double" and "test double" in (ScriptedModel.__doc__ or "")
    assert len(model.requests) == 2


def test_scripted_failures_and_exhaustion() -> None:
    """Scripted errors raise the advisor's errors; a used-up script refuses instead of inventing an answer."""
    model = ScriptedModel([{"error": "unavailable", "message": "outage"}, {"error": "refused"}, "last"])
    with pytest.raises(ModelUnavailable, match="outage"):
        complete_sync(model, REQUEST)
    with pytest.raises(ModelRefused):
        complete_sync(model, REQUEST)
    assert complete_sync(model, REQUEST).text == "last"
    with pytest.raises(ModelRefused, match="test double"):
        complete_sync(model, REQUEST)


def test_a_bad_script_file_is_a_config_error(tmp_path: Path) -> None:
    """A script that is not a list of turns is refused with the file named."""
    bad = tmp_path / "bad.json"
    bad.write_text('{"text": 1}')
    with pytest.raises(ConfigError, match=r"bad\.json is not a model script"):
        ScriptedModel(bad)
    with pytest.raises(ConfigError, match="cannot read"):
        ScriptedModel(tmp_path / "missing.json")


def test_requests_are_validated() -> None:
    """A stable prefix longer than the messages, or a bad role, is refused."""
    with pytest.raises(ValidationError, match="exceeds"):
        ModelRequest(system="s", messages=(ChatUser(content="x"),), stable_prefix_messages=2)
    with pytest.raises(ValidationError):
        ModelRequest.model_validate({"system": "s", "messages": [{"role": "system", "content": "x"}]})


def test_requests_round_trip_as_json() -> None:
    """A request serialises to JSON and back unchanged (the log keeps requests as JSON)."""
    request = ModelRequest(system="s", messages=(ChatUser(content="a"), ChatAssistant(content="b")),
                           tools=(ToolSpec(name="t", description="d", parameters={"type": "object"}),),
                           stable_prefix_messages=1, routing_key="r")
    assert ModelRequest.model_validate_json(request.model_dump_json()) == request


def test_token_estimate_counts_text_and_schemas() -> None:
    """The estimate is characters / 4 over system, messages and tool schemas."""
    tool = ToolSpec(name="t", description="d", parameters={"type": "object"})
    request = ModelRequest(system="x" * 40, messages=(ChatUser(content="y" * 40),), tools=(tool,))
    assert estimate_tokens(request) == -(-(80 + 2 + len('{"type":"object"}')) // 4)


def test_importing_advisor_models_stays_light() -> None:
    """`import advisor.models` and `advisor.consult` load no SDK, HTTP client or web framework."""
    code = ("import sys, advisor, advisor.models, advisor.consult; print(sorted(m for m in ('openai', 'anthropic', "
            "'httpx2', 'httpx', 'starlette', 'uvicorn') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT,
                          env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    assert done.stdout.strip() == "[]", done.stderr
