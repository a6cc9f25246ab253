"""What a run selects, and when a wider run's selection covers a narrower one's.

Agents run the failing test alone, then the whole suite (`cargo test -q NAME -- --nocapture`, then
`cargo test -q monorepo`; `pytest tests/x.py -k NAME`, then `pytest -q`): the shapes below are
theirs. A property test at the tracker (tests/obligations/test_superset_witness.py) holds the
rule over generated runs.
"""

from __future__ import annotations

import pytest

from shellparse import Selection, analyze, covers


def selection(command: str) -> Selection:
    validation = analyze(command).validation
    assert validation is not None and validation.selection is not None, command
    return validation.selection


COVERS = [
    ("go test ./...", "go test ./pkg/x -run TestY"),
    ("go test ./...", "go test ./pkg/x"),
    ("go test ./...", "go test"),
    ("go test ./pkg/...", "go test ./pkg/x/y -v"),
    ("go test -count=1 ./...", "go test ./pkg -run TestX -v"),
    ("go test ./pkg -run TestX", "go test -v ./pkg -run TestX"),
    ("pytest", "pytest tests/test_a.py::test_b"),
    ("pytest -q", "pytest tests -k slow"),
    ("pytest tests", "pytest tests/unit/test_a.py::TestA::test_b"),
    ("pytest tests/test_a.py", "pytest tests/test_a.py::test_b -x"),
    ("pytest ./tests/", "pytest tests/test_a.py"),
    ("pytest tests/test_a.py -k fast", "pytest -k fast tests/test_a.py::test_fast_one"),
    ("pytest -m live", "pytest -m live tests/test_api.py::test_login -k login"),
    ("cargo test", "cargo test parser::"),
    ("cargo test", "cargo test --lib"),
    ("cargo test -q monorepo", "cargo test -q test_monorepo_union_tool_request_set -- --nocapture"),
    ("cargo test --workspace", "cargo test -p preloop-cli"),
    ("cargo test -p preloop-cli", "cargo test -p preloop-cli parses_flags"),
    ("cargo test --tests", "cargo test --test integration"),
    ("cargo clippy --workspace --all-targets -- -D warnings", "cargo clippy -p a --all-targets -- -D warnings"),
    ("jest", "jest src/a.test.ts -t adds"),
    ("vitest run", "vitest run a.spec.ts"),
    ("dotnet test t.csproj", "dotnet test t.csproj --filter FullyQualifiedName~Golden"),
    ("bats test", "bats test/daemon.bats"),
    ("ruff check .", "ruff check src/a.py tests/b.py"),
    ("ruff check", "ruff check src/a.py"),
    ("ruff format --check .", "ruff format --check src/a.py"),
    ("eslint .", "eslint src/a.ts"),
    ("go vet ./...", "go vet ./pkg"),
    ("golangci-lint run", "golangci-lint run ./pkg/..."),
]


@pytest.mark.parametrize(("wide", "narrow"), COVERS)
def test_a_wider_run_covers_a_narrower_one_never_the_reverse(wide: str, narrow: str) -> None:
    """The pass of the wider run witnesses the narrower failure; the narrower pass never the wider one."""
    assert covers(selection(wide), selection(narrow))
    if selection(wide) != selection(narrow):
        assert not covers(selection(narrow), selection(wide))


NOT_COVERED = [
    ("go test ./pkg", "go test ./other"),
    ("go test -race ./...", "go test ./pkg"),
    ("go test ./...", "go test -race ./pkg"),
    ("go test ./... -run TestA", "go test ./pkg -run TestB"),
    ("go test ./... -short", "go test ./pkg"),
    ("pytest -m eval", "pytest tests/test_a.py"),
    ("pytest", "pytest -m live"),
    ("pytest tests", "pytest -m live tests/test_api.py"),
    ("pytest -m 'not live'", "pytest -m live"),
    ("pytest tests/a", "pytest tests/b/test_x.py"),
    ("pytest --lf", "pytest tests/test_a.py"),
    ("pytest -k fast", "pytest -k slow"),
    ("cargo test union", "cargo test -q test_monorepo_union -- --exact"),
    ("cargo test", "cargo test -p other"),
    ("cargo test parser::", "cargo test lexer::"),
    ("cargo test --features x", "cargo test"),
    ("cargo test -- --skip slow", "cargo test fast"),
    ("jest src/a", "jest src/b"),
    ("ruff check src", "ruff check tests/a.py"),
    ("ruff check --select E .", "ruff check src/a.py"),
    ("eslint --max-warnings 0 .", "eslint src/a.ts"),
]


@pytest.mark.parametrize(("passing", "failing"), NOT_COVERED)
def test_a_disjoint_or_different_run_covers_nothing(passing: str, failing: str) -> None:
    """Another package, another filter, another suite option: no witness either way."""
    assert not covers(selection(passing), selection(failing))


def test_different_runners_never_cover_each_other() -> None:
    """`pytest` never covers `go test`, nor `cargo check` a `cargo test`: their suites differ."""
    assert not covers(selection("pytest"), selection("cargo test"))
    assert not covers(selection("cargo check"), selection("cargo test"))
    assert not covers(selection("cargo test"), selection("cargo clippy"))


@pytest.mark.parametrize("command", ["npm test", "make test", "mise run test", "tsc --noEmit", "mypy src"])
def test_runners_without_a_known_selection_grammar_have_none(command: str) -> None:
    """A script, a task or a typechecker is compared by its whole identity only."""
    validation = analyze(command).validation
    assert validation is not None and validation.selection is None
