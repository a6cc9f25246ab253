"""Cards, arguments, edit shapes, sizes and clipping: the reference cases (rpiv-cases CARD, ARG, EDIT,
SIZE, CLIP), with witness's validation evidence on shell cards."""

from __future__ import annotations

from typing import Any

import pytest

from advisor.ledger import card, edit_shape, primary_argument, size, verbatim
from advisor.ledger._text import clip
from advisor.prompt import clip_middle
from tests.advisor.ledger.builders import call, result


def test_card_of_a_failed_command_names_its_first_error_line() -> None:
    """CARD-1: `#r9 bash · npm test · error · 3 lines`, the check it ran, and `✗` with the first error line."""
    text = card("r9", call("c", "bash", {"command": "npm test"}, "e9"),
                result("c", "TypeError: x is undefined\nat foo\nat bar", "r9", error=True))
    assert text == ("#r9 bash · npm test · error · 3 lines · check: npm test (test) · no exit status"
                    " · ✗ TypeError: x is undefined")


def test_card_of_an_edit_shows_its_shape() -> None:
    """CARD-2: an `edit` with old/new strings shows `+3 −2` after its path (its acknowledgement's size is left
    out, and a success has no status field); without an id there is no `#`."""
    text = card(None, call("c", "edit", {"path": "a.ts", "old_string": "a\nb", "new_string": "a\nb\nc"}),
                result("c", "ok"))
    assert text == "edit · a.ts · +3 −2"


def test_a_failed_edit_keeps_its_status_size_and_error_line() -> None:
    """Only a successful edit's acknowledgement is left out: a failed one shows `error`, its size and `✗`."""
    text = card("e1", call("c", "Edit", {"file_path": "a.py", "old_string": "x", "new_string": "y"}),
                result("c", "String to replace not found in file.", "e1", error=True))
    assert text == "#e1 Edit · a.py · +1 −1 · error · 36 chars · ✗ String to replace not found in file."


def test_card_of_a_call_without_result_is_running() -> None:
    """CARD-3: no result yet: `read · x · running`, no size."""
    assert card(None, call("c", "read", {"path": "x"}), None) == "read · x · running"


def test_card_of_an_image_result_points_at_the_path_and_embeds_nothing() -> None:
    """CARD-4: a read of a screenshot names its image and says to read the path; the bytes never appear."""
    text = card("R", call("c", "read", {"path": "docs/screenshot.png"}),
                result("c", "Read image file [image/png]", "R", images=1))
    assert text == "#R read · docs/screenshot.png · 27 chars, 1 image · read the path above to view"


def test_card_of_a_write_counts_its_lines() -> None:
    """CARD-5 (from a real Pi session): `write` shows `2 lines written`."""
    text = card("87a4057b", call("c", "write", {"content": "line one\nline two", "path": "notes.md"}),
                result("c", "Successfully wrote 218 bytes to notes.md", "87a4057b"))
    assert text == "#87a4057b write · notes.md · 2 lines written"


@pytest.mark.parametrize(("output", "expected"), [
    ("", "#r1 bash · false · error"),
    ("\n\n   boom   happened\nsecond", "#r1 bash · false · error · 4 lines · ✗ boom happened"),
    ("Exit code 1\nmake: *** [all] Error 2", "#r1 bash · false · error · 2 lines · ✗ make: *** [all] Error 2"),
    ("x" * 250, "#r1 bash · false · error · 250 chars · ✗ " + "x" * 200 + "…"),
])
def test_error_field_is_the_first_meaningful_line(output: str, expected: str) -> None:
    """CARD-7, CARD-10, CARD-11: no `✗` without a non-blank line; whitespace collapsed; 200 chars; a host's
    own `Exit code N` line is skipped (Claude Code puts it first)."""
    assert card("r1", call("c", "bash", {"command": "false"}), result("c", output, "r1", error=True)) == expected


def test_card_without_argument_leaves_the_field_out() -> None:
    """CARD-8: `todo {}` gives `todo · 2 chars` (a success has no status field)."""
    assert card(None, call("c", "todo", {}), result("c", "ok")) == "todo · 2 chars"


def test_pi_native_edit_shows_its_shape() -> None:
    """CARD-9, fixed: Pi's own `edit {path, oldText, newText}` (which upstream misses) shows `+1 −1`."""
    text = card(None, call("c", "edit", {"path": "a.ts", "oldText": "a", "newText": "b"}), result("c", "ok"))
    assert text == "edit · a.ts · +1 −1"


def test_a_non_zero_exit_is_an_error_with_its_code() -> None:
    """A Codex command that exited 101 is an error card with the exit code, though the host set no error flag."""
    text = card("L9", call("c", "exec_command", {"cmd": "cargo test"}),
                result("c", "test result: FAILED. 5 passed; 1 failed", "L9", exit_code=101))
    assert text.startswith("#L9 exec_command · cargo test · error (exit 101) · 39 chars · check: cargo test (test)"
                           " · failed · ✗ test result: FAILED.")


@pytest.mark.parametrize(("arguments", "expected"), [
    ({"file_path": "a.ts", "extra": "no"}, "a.ts"),
    ({"weird": "value"}, "value"),
    ({}, ""),
    ({"pattern": "foo", "path": "src"}, "src"),
    ({"query": "x", "url": "http://a"}, "http://a"),
    ({"id": 42}, "42"),
    ({"limit": 5}, ""),
    ({"path": "   ", "note": "hi"}, "hi"),
    ({"command": "npm  test\n  --watch"}, "npm test --watch"),
    ({"command": "a" * 130}, "a" * 120 + "…"),
    ("not an object", ""),
    ({"cmd": "cargo test -q"}, "cargo test -q"),
    ({"command": ["bash", "-lc", "make test"]}, "bash -lc make test"),
    ({"input": "*** Begin Patch\n*** Update File: src/a.rs\n@@\n-a\n+b\n*** Add File: src/b.rs\n+c\n*** End Patch"},
     "src/a.rs (+1 more)"),
    ({"command": "curl -H 'Authorization: Bearer abcdef0123456789xyz' https://x"},
     "curl -H 'Authorization: Bearer [REDACTED:curl-auth-header]' https://x"),
], ids=[f"ARG-{n}" for n in range(1, 16)])
def test_primary_argument(arguments: Any, expected: str) -> None:
    """ARG-1..11 as the reference has them, Codex's `cmd` and argv, a patch's files, and redaction."""
    assert primary_argument(arguments) == expected


@pytest.mark.parametrize(("tool", "arguments", "expected"), [
    ("write", {"content": "a\nb\nc"}, "3 lines written"),
    ("multi_write", {"content": "x"}, "1 lines written"),
    ("edit", {"oldString": "x", "newString": "x\ny"}, "+2 −1"),
    ("edit", {"old": "", "new": ""}, "+1 −1"),
    ("edit", {"path": "a.ts"}, ""),
    ("Edit", {"file_path": "a.py", "old_string": "x = 1", "new_string": "x = 2\ny = 3"}, "+2 −1"),
    ("MultiEdit", {"file_path": "a.py", "edits": [{"old_string": "a", "new_string": "b\nc"},
                                                  {"old_string": "d\ne", "new_string": "f"}]}, "+3 −3"),
    ("Write", {"file_path": "a.py", "content": "print(1)\n"}, "2 lines written"),
    ("edit", {"path": "a.tsx", "edits": [{"oldText": "a", "newText": "a\nb"}]}, "+2 −1"),
    ("apply_patch", {"input": "*** Begin Patch\n*** Update File: a.rs\n@@\n-old\n+new\n+more\n context\n"
                              "*** End Patch"}, "+2 −1"),
], ids=["EDIT-1", "EDIT-2", "EDIT-3", "EDIT-4", "EDIT-5", "claude-edit", "claude-multiedit", "claude-write",
        "pi-edits", "codex-apply-patch"])
def test_edit_shape_for_every_host(tool: str, arguments: dict[str, Any], expected: str) -> None:
    """EDIT-1..5, and the edit tools of every host: Claude Code Edit/MultiEdit/Write, Pi's `edits`, Codex's patch."""
    assert edit_shape(tool, arguments) == expected


@pytest.mark.parametrize(("text", "images", "expected"), [
    ("TypeError…\nat foo\nat bar", 0, "3 lines"), ("ok", 0, "2 chars"), ("a", 0, "1 chars"), ("a\nb\n", 0, "3 lines"),
    ("", 2, "2 images"), ("x", 1, "1 chars, 1 image"), ("", 0, ""),
], ids=[f"SIZE-{n}" for n in range(1, 8)])
def test_size(text: str, images: int, expected: str) -> None:
    """SIZE-1..7: lines when there is more than one, else chars, then images; nothing when empty."""
    assert size(text, images) == expected


def test_clip_middle_keeps_both_ends_around_a_marker() -> None:
    """CLIP-1..3: unchanged when it fits; else 19 + marker + 19 for 40, naming `advisor_expand` with an id."""
    assert clip_middle("abcdef", 100) == "abcdef"
    value = "x" * 100 + "y" * 100
    assert clip_middle(value, 40) == "x" * 19 + "\n[… 162 chars omitted …]\n" + "y" * 19
    marked = clip_middle(value, 40, 'advisor_expand("e7") for the full text')
    assert marked == "x" * 19 + '\n[… 162 chars omitted — advisor_expand("e7") for the full text …]\n' + "y" * 19


def test_clip_flattens_whitespace() -> None:
    """CLIP-6: `hello   world` on one line."""
    assert clip("hello   world", 100) == "hello world"


def test_verbatim_round_caps_each_part_and_names_images() -> None:
    """CLIP-5: a 50,000-character result with 2 images stays under 8,500 characters and says `2 image(s) omitted`."""
    text = verbatim("r1", call("c", "read", {"path": "big.png"}), result("c", "y" * 50_000, "r1", images=2),
                    limit=8000)
    assert len(text) < 8500 and "2 image(s) omitted" in text and 'advisor_expand("r1")' in text


def test_verbatim_round_carries_the_check_evidence() -> None:
    """A verbatim check round says whether its exit status was the check's own."""
    text = verbatim("r2", call("c", "Bash", {"command": "npm test 2>&1 | tail -3; echo exit: $?"}),
                    result("c", "Tests: 1 failed, 2 passed\nexit: 0", "r2", exit_code=0), limit=8000)
    assert text.splitlines()[0] == '#r2 Bash({"command":"npm test 2>&1 | tail -3; echo exit: $?"})'
    assert "[witness] check: npm test (test) · masked by `; echo exit: $?`" in text


def test_error_field_prefers_the_line_that_names_the_error() -> None:
    """An npm failure starts with its script banner; the card's `✗` field is the line that says what failed."""
    output = "Exit code 1\n\n> sum-app@1.0.0 test\n> vitest run\n\n FAIL  src/sum.test.ts > adds negatives\n"
    text = card("r", call("c", "Bash", {"command": "npm test"}), result("c", output, "r", error=True, exit_code=1))
    assert text.endswith("· ✗ FAIL src/sum.test.ts > adds negatives")
