"""The scripted model server's own tests use its fixture."""

from tests.support.fixtures import model_server

__all__ = ["model_server"]
