"""What the SDK adapters share: the key check, the base URL, and who closes the HTTP client."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

from advisor.errors import ConfigError
from advisor.models._config import ModelConfig

if TYPE_CHECKING:
    import httpx2


class _Closable(Protocol):
    async def close(self) -> None: ...


Client = TypeVar("Client", bound=_Closable)


class SdkModel(Generic[Client]):
    """Base of the adapters over an official SDK client."""

    provider = ""
    default_url = ""

    def __init__(self, config: ModelConfig, *, http_client: httpx2.AsyncClient | None = None,
                 api_key: str | None = None, env: Mapping[str, str] | None = None) -> None:
        """``http_client`` (an ``httpx2.AsyncClient``) is used as given and left open on
        :meth:`aclose`; ``api_key`` overrides the environment. Without a key, only a configured
        base URL (a local server or a proxy that adds it) is accepted."""
        self.config = config
        self.url = config.base_url or self.default_url
        key = api_key or config.api_key(env)
        if key is None and config.base_url is None:
            raise ConfigError(f"no API key for {config.label}: set {config.key_variable()}")
        self._owns_http = http_client is None
        self._client = self._sdk_client(key or "unset", http_client)

    def _sdk_client(self, key: str, http_client: httpx2.AsyncClient | None) -> Client:
        raise NotImplementedError

    @property
    def model(self) -> str:
        """The model id requests name."""
        return self.config.model

    async def aclose(self) -> None:
        """Release the connection pool (an injected HTTP client is left to its owner)."""
        if self._owns_http:
            await self._client.close()
