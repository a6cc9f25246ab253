"""A scripted model — a test double, not a model — for tests and demonstrations.

It answers from a script (a JSON file or a list), one turn per request, and records every
request. Its model id is ``scripted-test-double`` so everything it produces (a result
envelope, a log record, printed advice) says it came from a test double. A script file is a
JSON array of turns::

    [{"tool_calls": [{"name": "read", "arguments": {"path": "src/app.py"}}]},
     {"text": "Severity: concern\\nThe retry loop never ends.", "usage": {"input_tokens": 900}},
     {"error": "unavailable", "message": "scripted outage"}]
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, TypeAdapter, ValidationError

from advisor._values import Frozen
from advisor.errors import ConfigError, ModelRefused, ModelUnavailable
from advisor.models._estimate import estimate_tokens
from advisor.models._messages import ModelRequest, ModelResponse, ToolCall, Usage

TEST_DOUBLE_MODEL = "scripted-test-double"


class ScriptedCall(Frozen):
    """A tool call in a script."""

    name: str
    """The tool to call."""
    arguments: dict[str, Any] = Field(default_factory=dict)
    """Its arguments."""
    id: str | None = None
    """The call id; default ``scripted-call-<n>``."""


class ScriptedTurn(Frozen):
    """One scripted answer, or a scripted failure."""

    text: str = ""
    """The answer's text."""
    reasoning: str | None = None
    """Reasoning text."""
    tool_calls: tuple[ScriptedCall, ...] = ()
    """Tool calls."""
    usage: Usage | None = None
    """What the answer is billed as; default: the request's size and the answer's, characters / 4."""
    error: Literal["unavailable", "refused"] | None = None
    """Fail instead of answering: ``ModelUnavailable`` or ``ModelRefused``."""
    message: str = "scripted failure"
    """The failure's message."""


_TURNS = TypeAdapter(list[ScriptedTurn])


def load_script(path: Path) -> list[ScriptedTurn]:
    """The turns of a JSON script file (a :class:`~advisor.errors.ConfigError` if it is not one)."""
    try:
        return _TURNS.validate_json(path.read_bytes())
    except OSError as error:
        raise ConfigError(f"cannot read the model script {path}: {error}") from None
    except ValidationError as error:
        raise ConfigError(f"{path} is not a model script: {error.errors()[0]['msg']}") from None


class ScriptedModel:
    """A :class:`~advisor.models.ModelClient` test double that answers from a script."""

    provider = "scripted"

    def __init__(self, script: Sequence[ScriptedTurn | dict[str, Any] | str] | Path, *,
                 model: str = TEST_DOUBLE_MODEL) -> None:
        """``script``: a JSON file, or turns (a plain string is a text answer)."""
        if isinstance(script, Path):
            turns = load_script(script)
        else:
            turns = [ScriptedTurn(text=t) if isinstance(t, str) else ScriptedTurn.model_validate(t)
                     for t in script]
        self._turns = list(turns)
        self._model = model
        self.requests: list[ModelRequest] = []
        """Every request received, in order."""

    @property
    def model(self) -> str:
        """``scripted-test-double`` unless named otherwise."""
        return self._model

    @property
    def remaining(self) -> int:
        """Turns not yet used."""
        return len(self._turns)

    async def complete(self, request: ModelRequest) -> ModelResponse:
        """The next scripted turn (``ModelRefused`` once the script is used up)."""
        self.requests.append(request)
        if not self._turns:
            raise ModelRefused(f"the scripted model (a test double) has no answer left for request "
                               f"{len(self.requests)}")
        turn = self._turns.pop(0)
        if turn.error == "unavailable":
            raise ModelUnavailable(turn.message)
        if turn.error == "refused":
            raise ModelRefused(turn.message)
        number = len(self.requests)
        calls = tuple(ToolCall(id=call.id or f"scripted-call-{number}-{index}", name=call.name,
                               arguments=call.arguments) for index, call in enumerate(turn.tool_calls))
        output = max(1, (len(turn.text) + len(json.dumps([c.arguments for c in calls]))) // 4)
        usage = turn.usage or Usage(input_tokens=estimate_tokens(request), output_tokens=output)
        return ModelResponse(text=turn.text, reasoning=turn.reasoning, tool_calls=calls, usage=usage,
                             model=self._model, stop_reason="tool_calls" if calls else "end",
                             provider_stop_reason="scripted", request_id=f"scripted-{number}")

    async def aclose(self) -> None:
        """Nothing to release."""
