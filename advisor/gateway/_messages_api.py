"""``POST /v1/messages``: Anthropic Messages requests forwarded untouched.

For clients that use Anthropic's own advisor tool (``advisor_20260301``) and its
``server_tool_use`` / ``advisor_tool_result`` blocks: the body goes to the Anthropic upstream
byte for byte and the answer — streamed or not — comes back byte for byte, so the blocks'
pairing is never touched. The gateway sets the upstream's ``x-api-key`` (from
``anthropic_key_env``), keeps the client's ``anthropic-version`` (default ``2023-06-01``) and
``anthropic-beta``, and adds ``advisor-tool-2026-03-01`` to the beta header when the request
declares the native advisor tool. ``witness:advisor`` entries are not offered here.
"""

from __future__ import annotations

from collections.abc import Mapping

import httpx2

from advisor.errors import UpstreamFailed, UpstreamTimeout

ADVISOR_BETA = "advisor-tool-2026-03-01"
NATIVE_ADVISOR = b'"advisor_20260301"'
_FORWARDED = ("anthropic-version", "anthropic-beta", "content-type", "accept")


def upstream_headers(client: Mapping[str, str], body: bytes, *, key: str | None) -> dict[str, str]:
    """The headers sent upstream: the client's protocol headers (never its credentials), the
    gateway's key, and the advisor beta when the native tool is declared."""
    headers = {name: client[name] for name in _FORWARDED if name in client}
    headers.setdefault("anthropic-version", "2023-06-01")
    headers.setdefault("content-type", "application/json")
    if NATIVE_ADVISOR in body:
        betas = [b.strip() for b in headers.get("anthropic-beta", "").split(",") if b.strip()]
        if ADVISOR_BETA not in betas:
            headers["anthropic-beta"] = ",".join([*betas, ADVISOR_BETA])
    if key is not None:
        headers["x-api-key"] = key
    return headers


async def forward_messages(http: httpx2.AsyncClient, *, base_url: str, key: str | None, body: bytes,
                           client_headers: Mapping[str, str], path: str = "/v1/messages") -> httpx2.Response:
    """Send the request upstream and return the open response (streamed; the caller closes it)."""
    request = http.build_request("POST", base_url + path, content=body,
                                 headers=upstream_headers(client_headers, body, key=key))
    try:
        return await http.send(request, stream=True)
    except httpx2.TimeoutException:
        raise UpstreamTimeout("the Anthropic upstream did not answer in time", code="upstream_timeout") from None
    except httpx2.TransportError as error:
        raise UpstreamFailed(f"cannot reach the Anthropic upstream: {type(error).__name__}",
                             code="upstream_unreachable") from None
