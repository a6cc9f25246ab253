"""Request bodies as the gateway reads them: JSON objects, and no deeper than it can write back.

orjson reads 1024 levels of nesting but writes only about 254, and a request the gateway
rebuilds (advisors declared, a trace expanded) is written again for the upstream; so such a
request nested deeper than :data:`MAX_DEPTH` is refused with 400 ``invalid_json``, never a 500
half-way through the loop. A request forwarded as its own bytes is the upstream's to judge.
"""

from __future__ import annotations

from typing import Any

import orjson

from advisor.errors import BadRequest

MAX_DEPTH = 128
"""The deepest nesting (objects and arrays) of a request the gateway rebuilds."""


def load_object(raw: bytes) -> dict[str, Any]:
    """The body as a JSON object. Raises :class:`~advisor.errors.BadRequest` (``invalid_json``)."""
    try:
        body = orjson.loads(raw)
    except orjson.JSONDecodeError as error:
        raise BadRequest(f"the request body is not valid JSON: {error}", code="invalid_json") from None
    if not isinstance(body, dict):
        raise BadRequest("the request body must be a JSON object", code="invalid_json")
    return body


def check_depth(value: Any, limit: int = MAX_DEPTH) -> None:
    """Refuse ``value`` (400 ``invalid_json``) when its objects and arrays nest deeper than ``limit``."""
    level: list[Any] = [value]
    depth = 0
    while level:
        depth += 1
        if depth > limit:
            raise BadRequest(f"the request body is nested deeper than {limit} levels", code="invalid_json")
        level = [child for node in level for child in (node.values() if isinstance(node, dict) else node)
                 if isinstance(child, dict | list)]
