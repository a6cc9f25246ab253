"""What counts as the same check: cosmetic options and environment never change identity;
semantic environment and a wrapper's choice of machine or toolchain do."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shellparse import analyze
from shellparse._sha import short_digest

SAME = [
    ["go test ./pkg", "go test ./pkg -v", "go test -count=1 ./pkg", "go test -v -count=1 -json ./pkg",
     "go test -timeout 120s ./pkg", "CI=true go test ./pkg"],
    ["pytest tests/a.py", "pytest -q tests/a.py", "pytest -vv --tb=short tests/a.py", "pytest tests/a.py -rA",
     "pytest --no-header -x -s tests/a.py", "pytest -n auto tests/a.py", "python -m pytest -q tests/a.py",
     "NO_COLOR=1 FORCE_COLOR=0 pytest tests/a.py", "PYTHONDONTWRITEBYTECODE=1 uv run pytest tests/a.py"],
    ["cargo test -q monorepo -- --nocapture", "cargo test monorepo", "cargo test monorepo -- --test-threads 1",
     "RUST_BACKTRACE=1 cargo test -q monorepo", "CARGO_TERM_COLOR=always cargo test --color always monorepo"],
    ["jest src", "jest --verbose src", "jest --silent --reporters default src", "CI=1 jest -i src"],
    ["npm test", "npm --silent test", "npm --loglevel error test"],
    ["eslint src", "eslint --format stylish src", "eslint --no-color src"],
    ["mise run lint", "mise run --timings lint", "mise run -q lint"],
    ["uv run pytest -q tests/test_decision_verify.py",
     "UV_CACHE_DIR=.uv-cache uv run pytest -v tests/test_decision_verify.py"],
    ["make check", "make -j8 check", "make -s -j 4 check"],
    ["dotnet test t.csproj", "dotnet test t.csproj --nologo -v q"],
]


@pytest.mark.parametrize("group", SAME, ids=lambda group: group[0])
def test_cosmetic_options_and_environment_do_not_change_identity(group: list[str]) -> None:
    """Verbosity, colour, report style, caching and cosmetic variables leave the key unchanged."""
    keys = {command: analyze(command).validation.key for command in group}  # type: ignore[union-attr]
    assert len(set(keys.values())) == 1, keys


DIFFERENT = [
    ("GOOS=windows go test ./...", "go test ./..."),
    ("export GOOS=windows; go test ./...", "go test ./..."),
    ("env GOOS=windows go test ./...", "go test ./..."),
    ("GOOS=windows bash -c 'go test ./...'", "go test ./..."),
    ("NODE_ENV=production jest", "jest"),
    ("cross-env NODE_ENV=test jest", "jest"),
    ("RUSTFLAGS='-D warnings' cargo build", "cargo build"),
    ("go test -race ./...", "go test ./..."),
    ("go test -short ./...", "go test ./..."),
    ("pytest -m eval", "pytest"),
    ('export TOK="$(cat .token)" && pytest', "pytest"),
    ('export TOK="$(cat .token)"; pytest', 'export TOK="$(cat .other)"; pytest'),
    ("docker exec api pytest", "pytest"),
    ("uv run --python 3.12 pytest", "uv run pytest"),
    ("mise x node@20 -- npm test", "npm test"),
    ("cargo +nightly test", "cargo test"),
]


@pytest.mark.parametrize(("first", "second"), DIFFERENT)
def test_semantic_environment_and_options_change_identity(first: str, second: str) -> None:
    """Any other assignment, exported or in front, and a wrapper's toolchain or container, make another check."""
    one, two = analyze(first).validation, analyze(second).validation
    assert one is not None and two is not None
    assert one.key != two.key


@pytest.mark.parametrize("exported", ['export TOK="$(cat .token)" && pytest', 'export TOK="$(cat .token)"; pytest',
                                      'declare -x TOK="$(cat .token)"; pytest'])
def test_an_exported_assignment_known_only_at_run_time_is_the_same_as_one_in_front(exported: str) -> None:
    """`export TOK="$(…)" && pytest` keeps `TOK="$(…)"` in identity, exactly as `TOK="$(…)" pytest` does."""
    one, two = analyze(exported).validation, analyze('TOK="$(cat .token)" pytest').validation
    assert one is not None and two is not None
    assert (one.key, one.identity, one.environment) == (two.key, two.identity, ('TOK="$(cat .token)"',))


def test_pwsh_environment_assignments_are_identity_too() -> None:
    """`$env:GOOS = "windows"; go test` is not `go test`; `$env:CI = "1"` changes nothing."""
    windows = analyze('$env:GOOS = "windows"; go test ./...', "pwsh").validation
    ci = analyze('$env:CI = "1"; go test ./...', "pwsh").validation
    plain = analyze("go test ./...").validation
    assert windows is not None and ci is not None and plain is not None
    assert windows.environment == ("GOOS=windows",) and windows.key != plain.key
    assert ci.key == plain.key


@pytest.mark.parametrize(
    ("command", "identity", "environment"),
    [("go test ./pkg -v -count=1", "go test ./pkg", ()),
     ("GOOS=windows CI=1 go test ./... -v", "GOOS=windows go test ./...", ("GOOS=windows",)),
     ("B=2 A=1 pytest -q", "A=1 B=2 pytest", ("A=1", "B=2")),
     ("docker compose run --rm web pytest -q", "docker:web pytest", ("docker:web",)),
     ("pytest -k 'a or b' -q", "pytest -k 'a or b'", ())],
)
def test_the_identity_reads_as_the_check_people_mean(command: str, identity: str,
                                                     environment: tuple[str, ...]) -> None:
    """`Validation.identity` is the statement without cosmetic options, after the environment that is part of it."""
    validation = analyze(command).validation
    assert validation is not None
    assert (validation.identity, validation.environment) == (identity, environment)


def test_the_check_key_leaves_out_the_directory() -> None:
    """`cd api && npm test` and `npm test` share a check key; their keys (with the directory) differ."""
    moved, here = analyze("cd api && npm test").validation, analyze("npm test").validation
    assert moved is not None and here is not None
    assert moved.check_key == here.check_key == here.key and moved.key != here.key


def test_keys_of_checks_without_cosmetics_or_environment_are_unchanged() -> None:
    """A plain check's key is the digest it always was: snapshots and stored items keep matching."""
    validation = analyze("npm test").validation
    assert validation is not None and validation.key == "e7775a5830c6c274"


@given(st.text())
def test_validation_keys_are_the_sha256_digest_hashlib_gives(text: str) -> None:
    """Keys come from the interpreter's own SHA-256 module, the same digest as `hashlib` for any text."""
    expected = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    assert short_digest(text) == expected
