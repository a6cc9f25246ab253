"""Fixtures: the gateway on loopback in front of the scripted model server, and an OpenAI client."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import openai
import pytest

from tests.advisor.gateway.harness import GatewayServer
from tests.support.model_server import ModelServer


@pytest.fixture
def gateway(model_server: ModelServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[GatewayServer]:
    """The gateway, forwarding to the scripted model server; consultations logged under a temporary home."""
    monkeypatch.setenv("WITNESS_HOME", str(tmp_path / "home"))
    with GatewayServer(model_server, log_consultations=True) as server:
        yield server


@pytest.fixture
def client(gateway: GatewayServer) -> Iterator[openai.OpenAI]:
    """The official OpenAI SDK pointed at the gateway (no retries, so every fault is seen)."""
    with openai.OpenAI(base_url=gateway.base_url, api_key="client-key", max_retries=0, timeout=30) as sdk:
        yield sdk
