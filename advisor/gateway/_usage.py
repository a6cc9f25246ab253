"""Usage of a request that ran advisors: every executor round and every consultation added up.

``prompt_tokens``, ``completion_tokens`` and ``total_tokens`` (with ``cached_tokens`` and
``reasoning_tokens`` in their details) are the sums over the upstream calls of the loop *and*
the advisor models' tokens. ``server_tool_use.advisor_requests`` counts consultations sent to an
advisor model (calls answered with an error result without one are not counted), and
``server_tool_use.advisors`` breaks them down per advisor: its function name, name, model,
requests, error results and tokens.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from advisor.gateway._advise import Advisors


def _number(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _detail(usage: dict[str, Any], group: str, key: str) -> int:
    details = usage.get(group)
    return _number(details.get(key)) if isinstance(details, dict) else 0


def total_usage(rounds: Sequence[Any], advisors: Advisors) -> dict[str, Any]:
    """The ``usage`` object of a response: the executor rounds' usage objects plus the advisors'."""
    usages = [usage for usage in rounds if isinstance(usage, dict)]
    spent = advisors.usage
    prompt = sum(_number(u.get("prompt_tokens")) for u in usages) + spent.input_tokens
    completion = sum(_number(u.get("completion_tokens")) for u in usages) + spent.output_tokens
    cached = sum(_detail(u, "prompt_tokens_details", "cached_tokens") for u in usages) + spent.cached_input_tokens
    reasoning = sum(_detail(u, "completion_tokens_details", "reasoning_tokens") for u in usages) \
        + spent.reasoning_tokens
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion,
            "prompt_tokens_details": {"cached_tokens": cached},
            "completion_tokens_details": {"reasoning_tokens": reasoning},
            "server_tool_use": {"advisor_requests": advisors.requests,
                                "advisors": [use.breakdown() for use in advisors.uses.values()]}}
