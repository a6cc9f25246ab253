"""Tool-call arguments as models send them: a JSON object, or text that is not one."""

from __future__ import annotations

import json
from typing import Any


def parse_arguments(text: str | None) -> tuple[dict[str, Any], str | None]:
    """``(arguments, None)`` for a JSON object (empty text is ``{}``), else ``({}, the raw text)``."""
    if text is None or not text.strip():
        return {}, None
    try:
        value = json.loads(text)
    except ValueError:
        return {}, text
    return (value, None) if isinstance(value, dict) else ({}, text)
