"""The one way a package of witness loads a public name on first use.

A package lists such names in a ``_LAZY`` table — each name and the submodule that defines it,
written out as a literal (the import-graph test reads the table as import edges) — and its module
``__getattr__`` calls :func:`load`. Nothing here imports anything: ``import advisor`` and the hook's
path stay as light as they are.
"""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not loaded on the hook path
if TYPE_CHECKING:
    from typing import Any


def load(package: str, table: dict[str, str], name: str, namespace: dict[str, Any]) -> Any:
    """``name`` from the submodule ``table`` names for it, kept in ``namespace`` (the package's globals)
    so that the next use finds it like any other attribute; ``AttributeError`` for a name not listed."""
    module = table.get(name)
    if module is None:
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    value = getattr(__import__(f"{package}.{module}", fromlist=[name]), name)
    namespace[name] = value
    return value
