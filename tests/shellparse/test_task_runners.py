"""Task runners are checks when their target names one; their launchers and dev shells are wrappers.

The shapes are those agents write in real sessions (mise-driven Rust repositories, Claude Code
running `mise run lint 2>&1 | tail -20`, Codex running `mise run test:e2e NAME`).
"""

from __future__ import annotations

import pytest

from shellparse import analyze

CHECKS: list[tuple[str, str, str, str | None]] = [
    ("mise run test", "test", "mise run test", None),
    ("mise run test:integration", "test", "mise run test:integration", None),
    ("mise r lint", "lint", "mise run lint", None),
    ("mise tasks run build", "build", "mise run build", None),
    ("mise test", "test", "mise run test", None),
    ("mise run test:e2e test_lockfile_monorepo", "test", "mise run test:e2e test_lockfile_monorepo", None),
    ("mise run test:bats -- test/daemon.bats", "test", "mise run test:bats -- test/daemon.bats", None),
    ("mise -C api run typecheck", "typecheck", "mise run typecheck", "api"),
    ("mise run lint 2>&1 | tail -20", "lint", "mise run lint", None),
    ("just test", "test", "just test", None),
    ("just --justfile ci.just lint", "lint", "just --justfile ci.just lint", None),
    ("task test", "test", "task test", None),
    ("task -d web build", "build", "task build", "web"),
    ("nx test app", "test", "nx test app", None),
    ("nx run app:test", "test", "nx run app:test", None),
    ("nx run app:build:production", "build", "nx run app:build:production", None),
    ("nx run-many -t lint test", "test", "nx run-many -t lint test", None),
    ("nx affected --target=typecheck", "typecheck", "nx affected --target=typecheck", None),
    ("nx format:check", "lint", "nx format:check", None),
    ("turbo run test", "test", "turbo run test", None),
    ("turbo test --filter=web", "test", "turbo run test --filter=web", None),
    ("bazel test //...", "test", "bazel test //...", None),
    ("pants test ::", "test", "pants test ::", None),
    ("pants check src::", "typecheck", "pants check src::", None),
    ("make test", "test", "make test", None),
]


@pytest.mark.parametrize(("command", "kind", "statement", "directory"), CHECKS)
def test_a_task_runner_is_a_check_when_its_target_names_one(command: str, kind: str, statement: str,
                                                            directory: str | None) -> None:
    """The task's name picks the kind, as a package-manager script's does; options that move it are its directory."""
    validation = analyze(command).validation
    assert validation is not None, command
    assert (validation.kind, validation.statement, validation.directory) == (kind, statement, directory)


@pytest.mark.parametrize(
    ("command", "effect"),
    [("mise run fmt", "mutating"), ("mise run lint-fix", "mutating"), ("just format", "mutating"),
     ("task fmt", "mutating"), ("make fmt", "mutating"), ("npm run format", "mutating"),
     ("pants fmt ::", "mutating"), ("mise run render:usage", "unknown"), ("mise install", "unknown"),
     ("mise run", "unknown"), ("nx graph", "unknown"), ("turbo prune web", "unknown")],
)
def test_formatting_tasks_are_mutations_and_other_tasks_are_not_checks(command: str, effect: str) -> None:
    """`mise run fmt` rewrites files; a task or command that names no check is no check."""
    result = analyze(command)
    assert result.validation is None, command
    assert result.effect == effect


def test_a_formatting_task_beside_a_check_makes_it_a_fixing_check() -> None:
    """`just fmt lint` runs the lint after the formatter rewrote files: a check, and a mutation."""
    result = analyze("just fmt lint")
    assert result.validation is not None and result.validation.kind == "lint"
    assert result.effect == "mutating"


WRAPPED: list[tuple[str, str, tuple[str, ...]]] = [
    ("mise exec -- bats test/x.bats", "bats test/x.bats", ()),
    ("mise x node@20 -- npm test", "npm test", ("mise:node@20",)),
    ("devbox run pytest -q", "pytest -q", ()),
    ("nix develop -c cargo test", "cargo test", ()),
    ("direnv exec . go test ./...", "go test ./...", ()),
    ("docker compose run --rm app pytest", "pytest", ("docker:app",)),
    ("docker exec -it api npm test", "npm test", ("docker:api",)),
    ("docker-compose run web npm test", "npm test", ("docker-compose:web",)),
    ("uvx ruff check .", "ruff check .", ()),
    ("pixi run pytest", "pytest", ()),
    ("rtk proxy pytest -q", "pytest -q", ()),
]


@pytest.mark.parametrize(("command", "statement", "environment"), WRAPPED)
def test_launchers_dev_shells_and_containers_are_wrappers(command: str, statement: str,
                                                         environment: tuple[str, ...]) -> None:
    """The wrapped check is found and keeps its status; a container or toolchain chosen is part of its identity."""
    result = analyze(command)
    assert result.validation is not None, command
    assert (result.validation.statement, result.validation.environment) == (statement, environment)
    assert result.exit_source == "check" and result.witness_eligible


def test_a_detached_container_run_never_witnesses() -> None:
    """`docker compose exec -d` backgrounds the check: its status never comes back."""
    result = analyze("docker compose exec -d web pytest")
    assert result.exit_source == "masked" and not result.witness_eligible


def test_a_check_in_a_container_is_not_the_same_check_as_on_the_host() -> None:
    """A pass of `pytest` on the host never closes a failure of `docker exec api pytest`."""
    host, container = analyze("pytest").validation, analyze("docker exec api pytest").validation
    assert host is not None and container is not None
    assert host.key != container.key
