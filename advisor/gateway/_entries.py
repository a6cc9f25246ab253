"""``witness:advisor`` tool entries: their parameters, validation, defaults and function names.

A request's ``tools`` may hold entries ``{"type": "witness:advisor", "parameters": {...}}``
(the same keys at the top level of the entry are accepted too). Each becomes a function tool
the executor sees: ``witness_advisor`` when unnamed, ``witness_advisor_<name>`` otherwise.

=========================  =========  ===========================================================
parameter                  default    rule
=========================  =========  ===========================================================
``name``                   none       trimmed; letters, digits, space, ``_``, ``-``; 1–64
                                      characters; unique without case; at most one entry unnamed
``model``                  see below  the advisor model: pinned here, else the call's ``model``
                                      argument, else the request's own ``model``
``instructions``           none       appended to the built-in advisor prompt
``forward_transcript``     ``false``  give the advisor the conversation's ledger
``max_uses``               1          calls of this advisor per request (an integer ≥ 1)
``max_completion_tokens``  1400       the advisor's output cap; values under 1024 are raised to
                                      1024, above 128000 refused
``max_tokens``             1400       deprecated alias; ``max_completion_tokens`` wins
``reasoning``              none       ``{"effort": "minimal"|"low"|"medium"|"high"|"xhigh"|"max"}``
``temperature``            none       0–2
=========================  =========  ===========================================================

The function name's suffix is the name lower-cased, each run of characters other than
``a-z0-9_-`` replaced by ``_``, repeated ``_`` collapsed and outer ``_`` trimmed
(``Security Reviewer`` → ``witness_advisor_security_reviewer``); it must leave a function name
of at most 64 characters (the providers' limit).
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import Field, StrictBool, field_validator

from advisor._values import Frozen
from advisor.errors import BadRequest
from advisor.models import Effort

TOOL_TYPE = "witness:advisor"
"""The tool type clients name."""
FUNCTION_PREFIX = "witness_advisor"
"""The function name of an unnamed advisor, and the prefix of named ones."""
MIN_COMPLETION_TOKENS = 1024
DEFAULT_COMPLETION_TOKENS = 1400
MAX_COMPLETION_TOKENS = 128_000
_NAME = re.compile(r"^[\w\- ]{1,64}$")
_UNSAFE = re.compile(r"[^a-z0-9_-]+")
_MAX_FUNCTION_NAME = 64
_CLIENT_TYPES = frozenset({"function", "custom"})
"""Tool types forwarded to the upstream unchanged."""


class Reasoning(Frozen):
    """The reasoning setting passed to the advisor call."""

    effort: Effort
    """How hard the advisor model should think."""


class AdvisorParameters(Frozen):
    """An entry's ``parameters``, as the client sent them."""

    name: str | None = None
    """The advisor's name."""
    model: str | None = Field(default=None, min_length=1)
    """The pinned advisor model."""
    instructions: str | None = None
    """Instructions appended to the built-in advisor prompt."""
    forward_transcript: StrictBool = False
    """Whether the advisor receives the conversation's ledger."""
    max_uses: int = Field(default=1, ge=1, le=100)
    """Calls of this advisor allowed per request."""
    max_completion_tokens: int | None = Field(default=None, ge=1, le=MAX_COMPLETION_TOKENS)
    """The advisor's output cap."""
    max_tokens: int | None = Field(default=None, ge=1, le=MAX_COMPLETION_TOKENS)
    """Deprecated alias of ``max_completion_tokens``."""
    reasoning: Reasoning | None = None
    """Reasoning configuration for the advisor call."""
    temperature: float | None = Field(default=None, ge=0, le=2)
    """Sampling temperature for the advisor call."""

    @field_validator("name")
    @classmethod
    def _trimmed(cls, value: str | None) -> str | None:
        if value is None:
            return None
        value = value.strip()
        if not _NAME.match(value):
            raise ValueError("a name has 1–64 letters, digits, spaces, '_' or '-'")
        return value


class AdvisorEntry(Frozen):
    """One advisor of a request, validated, with its defaults applied."""

    parameters: AdvisorParameters
    """What the client asked for."""
    function_name: str
    """The function tool the executor calls."""
    position: int
    """Its index among the request's ``tools``."""

    @property
    def name(self) -> str | None:
        """The advisor's name (``None`` when unnamed)."""
        return self.parameters.name

    @property
    def completion_tokens(self) -> int:
        """The advisor's output cap: the parameter (or its alias), at least 1024."""
        wanted = self.parameters.max_completion_tokens or self.parameters.max_tokens or DEFAULT_COMPLETION_TOKENS
        return max(MIN_COMPLETION_TOKENS, wanted)

    def function_tool(self) -> dict[str, Any]:
        """The function tool declared to the upstream."""
        params = self.parameters
        properties: dict[str, Any] = {"prompt": {
            "type": "string", "description": "What to ask the advisor: the plan, the decision or the doubt, "
                                             "with the facts it needs."}}
        if params.model is None:
            properties["model"] = {"type": "string", "description": "The advisor model to consult (optional)."}
        who = f'the "{params.name}" advisor model' if params.name else "an advisor model"
        schema: dict[str, Any] = {"type": "object", "properties": properties, "additionalProperties": False,
                                  "required": [] if params.forward_transcript else ["prompt"]}
        description = (f"Consult {who} for planning, review, or course correction before committing to an "
                       "approach or declaring the task done. It answers with advice; it does no work.")
        if params.forward_transcript:
            description += " It sees this conversation; the prompt may be left out."
        return {"type": "function", "function": {"name": self.function_name, "description": description,
                                                 "parameters": schema}}


def function_name(name: str | None) -> str:
    """The function name for an advisor named ``name``."""
    if name is None:
        return FUNCTION_PREFIX
    suffix = re.sub(r"_+", "_", _UNSAFE.sub("_", name.lower())).strip("_")
    if not suffix:
        raise BadRequest(f"advisor name {name!r} leaves no function name", code="invalid_advisor_name",
                         param="tools")
    full = f"{FUNCTION_PREFIX}_{suffix}"
    if len(full) > _MAX_FUNCTION_NAME:
        raise BadRequest(f"advisor name {name!r} makes the function name {full!r}, longer than "
                         f"{_MAX_FUNCTION_NAME} characters", code="invalid_advisor_name", param="tools")
    return full
