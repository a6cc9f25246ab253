"""How a consultation runs: rounds, time, result caps, credential patterns and budgets.

=======================  =========  ================================================================
setting (``[consult]``)  default    meaning
=======================  =========  ================================================================
``max_rounds``           3          investigation tool calls the advisor may make (0: none declared)
``timeout``              420        seconds for the whole consultation, investigation included
``max_result_chars``     12000      cap on each investigation result (both ends kept, marked)
``repo_tools``           true       ``false`` declares only ``advisor_expand`` (no workspace access)
``deny_patterns``        (none)     credential-shaped files no tool will touch, added to the
                                    defaults (:data:`~advisor.consult.DEFAULT_DENY`), which
                                    always apply
``images``               true       ``read`` of an image shows it to the advisor, unredacted
                                    (``false``: a model that reads text only, or a workspace
                                    whose images may show a secret)
``retry_delay``          2          seconds before the one retry after a transient failure
``transient_retries``    1          retries of a transient failure within one consultation (0: none;
                                    a host that retries a whole automatic consultation sets 0, so a
                                    persistent outage costs two requests, not four)
``[consult.budget]``                ``call_tokens`` (600000), ``session_tokens`` (5000000),
                                    ``call_usd`` (3), ``session_usd`` (20); money limits apply
                                    when the model's prices are configured; set one to ``-1`` to
                                    lift it
=======================  =========  ================================================================
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import Field, field_validator

from advisor._config_file import load_table
from advisor._values import Frozen
from advisor.consult._workspace import DEFAULT_DENY, deny_patterns


def _unlimited(value: Any) -> Any:
    return None if isinstance(value, int | float) and not isinstance(value, bool) and value < 0 else value


class Budget(Frozen):
    """Spending limits, checked before every request a consultation sends."""

    call_tokens: int | None = Field(default=600_000, gt=0)
    """Tokens (input and output, all attempts) one consultation may use; ``None``: no limit."""
    session_tokens: int | None = Field(default=5_000_000, gt=0)
    """Tokens one session's consultations may use together; ``None``: no limit."""
    call_usd: float | None = Field(default=3.0, ge=0)
    """USD one consultation may cost (needs prices); ``None``: no limit."""
    session_usd: float | None = Field(default=20.0, ge=0)
    """USD one session's consultations may cost together (needs prices); ``None``: no limit."""

    _lift = field_validator("*", mode="before")(_unlimited)


class ConsultSettings(Frozen):
    """The consultation loop's settings."""

    max_rounds: int = Field(default=3, ge=0, le=50)
    """Investigation tool calls allowed; past them the advisor is told to answer."""
    timeout: float = Field(default=420.0, gt=0)
    """Seconds for the whole consultation."""
    max_result_chars: int = Field(default=12_000, ge=500)
    """Cap on each investigation result."""
    repo_tools: bool = True
    """Whether the workspace tools (read, grep, find, ls, git_diff) are declared."""
    deny_patterns: tuple[str, ...] = DEFAULT_DENY
    """Credential-shaped files refused by every tool: :data:`~advisor.consult.DEFAULT_DENY` and the
    configured patterns (a configured list adds to the defaults; it never removes one)."""
    images: bool = True
    """Whether ``read`` of an image shows it to the advisor (as an image part of its result, unredacted: no
    redactor reads pixels; an image whose metadata holds what looks like a secret is never shown)."""
    retry_delay: float = Field(default=2.0, ge=0)
    """Seconds before retrying a transient failure."""
    transient_retries: int = Field(default=1, ge=0, le=1)
    """How many times a transient failure (the model unreachable) is retried within the consultation."""
    budget: Budget = Field(default_factory=Budget)
    """Spending limits."""

    @field_validator("deny_patterns", mode="after")
    @classmethod
    def _defaults_kept(cls, configured: tuple[str, ...]) -> tuple[str, ...]:
        return deny_patterns(configured)


def load_consult_settings(flags: Mapping[str, Any] | None = None, *, path: Path | None = None) -> ConsultSettings:
    """The settings: ``flags`` (``None`` values ignored) over the ``[consult]`` table of the config file."""
    return load_table(ConsultSettings, "consult", flags, path, "consultation settings")
