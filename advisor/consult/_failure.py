"""What a tool call that cannot be carried out raises: its message is the advisor's error result."""

from __future__ import annotations


class ToolFailure(Exception):
    """A tool call that cannot be carried out (a refused path, a bad pattern …); its message is the
    error result the advisor sees."""
