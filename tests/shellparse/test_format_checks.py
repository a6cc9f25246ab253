"""Format checks are lint checks; formatters are mutations or read-only listings; the linters and
runners agents use have failure markers, so a `| head` that hides them is refuted and a masked
failure is still recognised.

The outputs marked "real" are excerpts of tool results in real agent sessions
(tests/fixtures/transcripts/real/README.md); the others are the tools' documented formats.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shellparse import analyze, failure_evidence, rewrite_evidence
from shellparse._markers import _REWRITE_WORDS, REWRITE_MARKERS, _rewrites

FORMAT_CHECKS = [
    ("prettier --check .", "prettier"), ("black --check src", "black"), ("ruff format --check .", "ruff"),
    ("cargo fmt --check", "cargo"), ("cargo fmt --all -- --check", "cargo"),
    ("terraform fmt -check -recursive", "terraform"), ("shfmt -d scripts", "shfmt"),
    ("rustfmt --check src/main.rs", "rustfmt"), ("clang-format --dry-run --Werror a.c", "clang-format"),
    ('test -z "$(gofmt -l .)"', "gofmt"), ('[ -z "$(gofmt -l ./pkg)" ]', "gofmt"),
    ("test -z $(goimports -l .)", "gofmt"),
]


@pytest.mark.parametrize(("command", "family"), FORMAT_CHECKS)
def test_format_checks_are_lint_checks(command: str, family: str) -> None:
    """A formatter with its checking flag, or a test of its listing, is a read-only lint check with its own status."""
    result = analyze(command)
    assert result.validation is not None, command
    assert (result.validation.kind, result.validation.family) == ("lint", family)
    assert result.exit_source == "check" and result.effect == "read-only"


@pytest.mark.parametrize(
    ("command", "effect"),
    [("gofmt -l .", "read-only"), ("gofmt -d main.go", "read-only"), ("goimports -l ./...", "read-only"),
     ("shfmt -l scripts", "read-only"), ("gofmt -w .", "mutating"), ("prettier --write .", "mutating"),
     ("cargo fmt", "mutating"), ("cargo fmt --all", "mutating"), ("ruff format", "mutating"),
     ("ruff format src", "mutating"), ("black .", "mutating"), ("terraform fmt", "mutating"),
     ("shfmt -w scripts", "mutating"), ("clang-format -i a.c", "mutating")],
)
def test_formatters_without_their_checking_flag_are_not_checks(command: str, effect: str) -> None:
    """`gofmt -l`/`-d` only print (they exit 0 either way); `-w`, `--write` and bare formatters rewrite files."""
    result = analyze(command)
    assert result.validation is None, command
    assert result.effect == effect


MARKERS = [
    # real: Claude Code, `mise run lint 2>&1 | tail -20` after a permission error
    ("mise", "sh: line 1: ./script/renovate_validate.sh: Permission denied\n[lint] ERROR task failed",
     "[lint] ERROR task failed"),
    ("mise", "mise ERROR no task named tset found", "mise ERROR no task named tset found"),
    # real: Codex, `cargo fmt --all -- --check`
    ("cargo-fmt", "Diff in /Users/dev/hk/src/step/batching.rs:306:\n     .map(|i| x)",
     "Diff in /Users/dev/hk/src/step/batching.rs:306:"),
    # real: Claude Code, `uv run ruff format --check .`
    ("ruff-format", "Would reformat: \x1b[1msrc/wakil/integrations/github.py\x1b[0m\n1 file would be reformatted",
     "Would reformat: \x1b[1msrc/wakil/integrations/github.py\x1b[0m"),
    ("ruff-format", "29 files would be reformatted, 116 files already formatted",
     "29 files would be reformatted, 116 files already formatted"),
    # real: Claude Code, `uvx ty check . | tail -3`
    ("ty", "     |            ^^^^^^^^\n\nFound 1 diagnostic", "Found 1 diagnostic"),
    # real: Claude Code on Windows, `dotnet test … | grep …` in Turkish
    ("dotnet", "Başarısız! - Başarısız:     2, Başarılı:   219, Atlanan:     0, Toplam:   221",
     "Başarısız! - Başarısız:     2, Başarılı:   219, Atlanan:     0, Toplam:   221"),
    ("dotnet", "C:\\src\\A.cs(12,5): error CS0117: 'Loader' bir 'Load' tanımı içermiyor",
     "C:\\src\\A.cs(12,5): error CS0117: 'Loader' bir 'Load' tanımı içermiyor"),
    # real: Codex code mode, `cargo clippy --workspace --all-targets -- -D warnings`
    ("cargo", "error: items after a test module\n    --> src/hook.rs:200:1", "error: items after a test module"),
    # real: Pi, `cargo test -p preloop-gha-expressions 2>&1 | tail -3` after a stack overflow
    ("cargo", "\nCaused by:\n  process didn't exit successfully: `/repo/target/debug/deps/gha-7fd7` (signal: 6, "
     "SIGABRT: process abort signal)",
     "process didn't exit successfully: `/repo/target/debug/deps/gha-7fd7` (signal: 6, SIGABRT: process abort signal)"),
    # real: Pi, `pnpm typecheck 2>&1 | tail -20`
    ("npm-script", "$ tsc --noEmit\napp/layout.tsx(2,10): error TS2614: Module has no exported member 'Script'.",
     "app/layout.tsx(2,10): error TS2614: Module has no exported member 'Script'."),
    ("golangci-lint", "main.go:12:3: Error return value is not checked (errcheck)\n1 issues:\n* errcheck: 1",
     "main.go:12:3: Error return value is not checked (errcheck)"),
    ("golangci-lint", "3 issues:\n* errcheck: 2\n* unused: 1", "3 issues:"),
    ("staticcheck", "pkg/a.go:10:2: should use strings.Builder (S1000)",
     "pkg/a.go:10:2: should use strings.Builder (S1000)"),
    ("eslint", "/app/src/a.ts\n  3:7  error  'x' is unused  no-unused-vars\n\n✖ 1 problem (1 error, 0 warnings)",
     "✖ 1 problem (1 error, 0 warnings)"),
    ("tsc", "src/a.ts(3,7): error TS2322: Type 'string'\n\nFound 2 errors in the same file",
     "src/a.ts(3,7): error TS2322: Type 'string'"),
    ("tsc", "Found 2 errors in 1 file.", "Found 2 errors in 1 file."),
    ("pyright", "  /app/a.py:3:5 - error: \"x\" is not defined\n1 error, 0 warnings, 0 informations",
     "/app/a.py:3:5 - error: \"x\" is not defined"),
    ("mypy", "src/a.py:3: error: Incompatible return value  [return-value]\nFound 1 error in 1 file",
     "src/a.py:3: error: Incompatible return value  [return-value]"),
    ("bats", "1..8\nnot ok 1 daemon auto-starts for enabled get", "not ok 1 daemon auto-starts for enabled get"),
]


@pytest.mark.parametrize(("family", "output", "line"), MARKERS)
def test_linters_and_runners_have_failure_markers(family: str, output: str, line: str) -> None:
    """The failing line is found and returned as the output's own, colour codes and all (they are read
    past, not matched)."""
    assert failure_evidence(family, output) == line


PASSING = [
    ("mise", "[lint] $ ./script/renovate_validate.sh\n INFO: Config validated successfully\nFinished in 3.1s"),
    ("ruff", "Found 1 error (1 fixed, 0 remaining).\n\x1b[1;32mAll checks passed!\x1b[0m"),  # real: `ruff check --fix`
    ("ruff-format", "3 files already formatted"),
    ("ty", "All checks passed!"),
    ("golangci-lint", "0 issues."),
    ("dotnet", "Başarılı!  - Başarısız:     0, Başarılı:   222, Atlanan:     0"),  # real
    ("cargo-fmt", ""),
    ("bats", "1..2\nok 1 first\nok 2 second"),
]


@pytest.mark.parametrize(("family", "output"), PASSING)
def test_passing_output_is_never_evidence(family: str, output: str) -> None:
    """A passing run's output, fixes that leave nothing remaining included, refutes nothing."""
    assert failure_evidence(family, output) is None


def test_ruff_format_and_ruff_check_read_their_own_markers() -> None:
    """`ruff format --check` never takes `ruff check`'s "Found N errors" for its own failure, nor the reverse."""
    fmt, lint = analyze("ruff format --check src").validation, analyze("ruff check src").validation
    assert fmt is not None and lint is not None
    assert failure_evidence(fmt, "Found 12 errors.") is None
    assert failure_evidence(lint, "29 files would be reformatted") is None
    assert failure_evidence(fmt, "29 files would be reformatted") == "29 files would be reformatted"


def test_a_runner_of_anything_leaves_the_other_checks_failures_to_them() -> None:
    """`mise run test:bats` does not read `cargo fmt --check`'s diff as its own when both ran in one command."""
    output = "Diff in /repo/src/a.rs:3:\n-x\n+y\nok 1 batch"
    assert failure_evidence("mise", output) is not None
    assert failure_evidence("mise", output, besides=("cargo-fmt",)) is None


@pytest.mark.parametrize(
    ("output", "line"),
    [("Checked 12 files in 3ms. Fixed 2 files.", "Checked 12 files in 3ms. Fixed 2 files."),
     ("Found 3 errors (3 fixed, 0 remaining).", "Found 3 errors (3 fixed, 0 remaining)."),
     ("2 files reformatted, 5 files left unchanged", "2 files reformatted, 5 files left unchanged"),
     ("reformatted src/a.py\nAll done!", "reformatted src/a.py"),
     # real: Claude Code's own note on a Bash result (`uv run ruff check --fix … | tail -3`)
     ("Found 1 error (1 fixed, 0 remaining).\n[This command modified 1 file you've previously read: src/x.py. "
      "Call Read before editing.]", "Found 1 error (1 fixed, 0 remaining).")],
)
def test_an_output_that_shows_files_rewritten_is_rewrite_evidence(output: str, line: str) -> None:
    """`npm run check` running a formatter with `--write` says so in its output: the run is also a mutation."""
    assert rewrite_evidence(output) == line


def test_rewrite_evidence_is_read_past_colour_codes() -> None:
    """A formatter's coloured line counts, a colour code inside its words too; the line shown is the output's own."""
    line = "\x1b[32mFi\x1b[0mxed 2 files\x1b[0m"
    assert rewrite_evidence(f"Checked 9 files\n{line}\n") == line


FRAGMENTS = st.sampled_from(["[This command modified 1 file you've previously read", "Fixed 2 files", "Fixed ",
                             "(3 fixed, 0 remaining)", "2 files reformatted", "reformatted a.py",
                             "  Fixed a.rs (1 fix)",
                             "Formatted 3 files", "\n", " ", "1", "file", "s", "(", "Fix", "ed", "Format", "ted",
                             "re", "\t"])


@pytest.mark.parametrize("marker", REWRITE_MARKERS)
def test_every_rewrite_marker_spells_out_a_word_that_admits_it(marker: str) -> None:
    """Each rewrite marker's pattern holds one of the admitting words as literal text, so a new marker without one
    (which the cheap look would rule out unseen) fails here."""
    assert any(word in marker for word in _REWRITE_WORDS), marker


@given(st.lists(FRAGMENTS | st.text(max_size=5), max_size=12).map("".join))
def test_every_rewrite_marker_match_holds_one_of_the_words_that_admit_it(text: str) -> None:
    """The cheap look for words that rules an output out never rules out a text a rewrite marker matches."""
    if _rewrites().search(text) is not None:
        assert any(word in text for word in _REWRITE_WORDS)


@pytest.mark.parametrize("output", ["Fixed 0 files.", "All checks passed!", "1 file left unchanged", ""])
def test_an_output_that_rewrote_nothing_is_no_rewrite_evidence(output: str) -> None:
    """Nothing fixed or reformatted is no mutation."""
    assert rewrite_evidence(output) is None
