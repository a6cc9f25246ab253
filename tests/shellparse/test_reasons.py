"""The reason catalogue: every reason the analysis gives is catalogued, worded and levelled as the
catalogue says, every catalogued message is given by some command, and the documentation shows
the catalogue as it is."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from shellparse import LEVELS, REASON_CODES, REASONS, Analysis, Reason, ReasonCode, analyze
from tests.shellparse.corpus_file import entries

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "shellparse.md"
# Commands for the codes the labelled corpus has no line for.
EXTRA = [("set -o pipefail; cat in.txt | pytest -q -", "bash"), ("source <(./env.sh); pytest", "bash"),
         ("sh -c 'set -o pipefail; npm test | tail'", "bash"), ("bash -c 'npm test \"unterminated'", "bash"),
         ("pytest\0 -q", "bash"), ("pytest \udcff", "bash"), ("npm test; echo x; " * 70_000, "bash"),
         ("".join(f"f{n}() {{ :; }}; " for n in range(3_000)) + "pytest", "bash"),
         ("trap false DEBUG; shopt -s extdebug; pytest", "bash"), ("ruff check --exit-zero .", "bash"),
         ("PYTEST_ADDOPTS=--co pytest", "bash"), ("printf 'x' > pytest.ini && pytest", "bash"),
         ("export PATH=.:$PATH; tar xf tools.tar; pytest", "bash"), ('set -e; out=$(pytest); echo "$out"', "bash")]


def _every_reason(analysis: Analysis) -> list[Reason]:
    return [*analysis.reasons, *(reason for check in analysis.checks for reason in check.reasons)]


@cache
def _pattern(template: str) -> re.Pattern[str]:
    """A template as a regex: each ``{field}`` stands for any text."""
    parts = re.split(r"\{\w+\}", template)
    return re.compile(".*".join(re.escape(part) for part in parts), re.S)


def _variant(reason: Reason) -> str:
    """The catalogue message ``reason`` is worded by (the longest template that matches)."""
    matches = [variant for variant, template in REASONS[reason.code].messages.items()
               if _pattern(template).fullmatch(reason.message)]
    assert matches, f"{reason.code}: {reason.message!r} matches none of its catalogued messages"
    return max(matches, key=lambda variant: len(REASONS[reason.code].messages[variant]))


@cache
def _given() -> dict[tuple[ReasonCode, str], str]:
    """Every (code, message) the corpus and the extra commands give, with one command that gives it."""
    given: dict[tuple[ReasonCode, str], str] = {}
    commands = [(entry["command"], entry["shell"]) for entry in entries()] + EXTRA
    for command, shell in commands:
        for policy in ("seed", "strict"):
            for found in _every_reason(analyze(command, shell, policy)):
                given.setdefault((found.code, _variant(found)), command)
    return given


def test_catalogue_lists_every_code_once_with_a_level() -> None:
    """The catalogue has exactly the codes of the `ReasonCode` type, each at one of the levels."""
    assert sorted(REASONS) == sorted(REASON_CODES)
    assert len(set(REASON_CODES)) == len(REASON_CODES)
    assert all(info.level in LEVELS and info.meaning and info.messages for info in REASONS.values())


def test_every_reason_given_is_catalogued_with_its_level_and_wording() -> None:
    """Over the corpus, every reason's code is catalogued, its level is the catalogue's, and its
    message is one of the code's catalogued templates filled in."""
    for command, shell in [(entry["command"], entry["shell"]) for entry in entries()] + EXTRA:
        for found in _every_reason(analyze(command, shell)):
            assert found.code in REASONS, command
            assert found.level == REASONS[found.code].level, (command, found)
            _variant(found)


@pytest.mark.parametrize(("code", "variant"), [(code, variant) for code, info in REASONS.items()
                                               for variant in info.messages])
def test_every_catalogued_message_is_given_by_some_command(code: ReasonCode, variant: str) -> None:
    """No catalogued code or message is stale: some command of the corpus gives it."""
    assert (code, variant) in _given(), f"no command gives {code} ({variant or 'its message'})"


def rendered_catalogue() -> str:
    """The reason table as `docs/shellparse.md` shows it."""
    lines = ["| code | level | what it means | message |", "|---|---|---|---|"]
    for code, info in REASONS.items():
        messages = "<br>".join(info.messages.values()).replace("|", "\\|")
        lines.append(f"| `{code}` | {info.level} | {info.meaning.replace('|', chr(92) + '|')} | {messages} |")
    return "\n".join(lines)


def test_documentation_shows_the_catalogue() -> None:
    """`docs/shellparse.md` holds the catalogue's table exactly: every code, its level, meaning and
    messages, none missing and none stale."""
    text = DOC.read_text(encoding="utf-8")
    begin, end = "<!-- reason catalogue: begin -->", "<!-- reason catalogue: end -->"
    assert begin in text and end in text, "the doc lost the markers around the reason table"
    shown = text.split(begin, 1)[1].split(end, 1)[0].strip()
    assert shown == rendered_catalogue(), "docs/shellparse.md is out of date; its table should read:\n" + \
        rendered_catalogue()
