"""Cutting long text to a limit while keeping both ends, with a marker saying how to get the rest."""

from __future__ import annotations


def clip_middle(text: str, limit: int, hint: str = "") -> str:
    """``text`` if it fits in ``limit`` characters; else its first and last ``(limit - 1) // 2``
    characters around a marker line ``[… N chars omitted — <hint> …]`` (the marker is not
    counted against the limit)."""
    if len(text) <= limit:
        return text
    keep = max(0, (limit - 1) // 2)
    omitted = len(text) - 2 * keep
    marker = f"[… {omitted} chars omitted — {hint} …]" if hint else f"[… {omitted} chars omitted …]"
    tail = text[len(text) - keep:] if keep else ""
    return f"{text[:keep]}\n{marker}\n{tail}"
