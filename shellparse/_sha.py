"""Short SHA-256 digests, the validation keys of identities and selections.

``hashlib`` loads OpenSSL, which costs a ``witness check`` process more start-up time than the
analysis; CPython's own SHA-256 module loads in a fraction of that and gives the same digest
(SHA-256 is one function; the keys are persisted, so they must not change). ``hashlib`` is the
fallback where the interpreter was built without it.
"""

from __future__ import annotations

try:  # CPython 3.12 and later
    from _sha2 import sha256  # type: ignore[import-not-found,unused-ignore]
except ImportError:
    try:  # CPython 3.11
        from _sha256 import sha256  # type: ignore[import-not-found,no-redef,unused-ignore]
    except ImportError:
        from hashlib import sha256  # type: ignore[assignment,no-redef,unused-ignore]


def short_digest(text: str) -> str:
    """The first 16 hex digits of the SHA-256 of ``text`` in UTF-8 (lone surrogates kept)."""
    return str(sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16])
