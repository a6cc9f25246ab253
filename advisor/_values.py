"""The base of the advisor's value types."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Frozen(BaseModel):
    """An immutable pydantic model that refuses unknown fields and documents its fields from
    their attribute docstrings."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)
