"""Pytest fixtures for the scripted model server (register with ``pytest_plugins``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.model_server import ModelServer


@pytest.fixture
def model_server() -> Iterator[ModelServer]:
    """A scripted model server on loopback, serving for the test's duration."""
    with ModelServer() as server:
        yield server
