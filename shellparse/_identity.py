"""What counts as the same check: the words a check's key is made of.

Two runs are the same check when they run the same statement, in the same directory, under the
same environment. Cosmetic options (verbosity, colour, report style: the family table's
:data:`._families.COSMETIC_OPTIONS`) and cosmetic environment variables
(:data:`._families.COSMETIC_ENVIRONMENT`) change only what a run prints, so they are dropped.
Every other environment assignment is kept: ``GOOS=windows go test ./...`` is not ``go test
./...``, and a pass of one never witnesses the other.
"""

from __future__ import annotations

from ._families import COSMETIC_ENVIRONMENT, COSMETIC_OPTIONS, Cosmetic
from ._patterns import lazy
from ._sha import short_digest

_ASSIGNMENT = lazy(r"^([A-Za-z_][A-Za-z0-9_]*)\+?=")


def cosmetic_free(family: str, statement: tuple[str, ...]) -> tuple[str, ...]:
    """``statement`` (program first) without the family's cosmetic options."""
    cosmetic = COSMETIC_OPTIONS.get(family)
    if cosmetic is None or len(statement) < 2:
        return statement
    return (statement[0], *_strip(cosmetic, statement[1:]))


def _strip(cosmetic: Cosmetic, words: tuple[str, ...]) -> list[str]:
    kept: list[str] = []
    index = 0
    while index < len(words):
        word = words[index]
        if word == "--":
            rest = words[index + 1 :]
            tail = _strip(cosmetic.separated, rest) if cosmetic.separated is not None else list(rest)
            if tail or cosmetic.separated is None:
                kept.extend(("--", *tail))
            return kept
        if word in cosmetic.until:
            kept.extend(words[index:])
            return kept
        option, equals, _ = word.partition("=")
        if word in cosmetic.flags:
            index += 1
            if index < len(words) and words[index] in ("true", "false"):
                index += 1  # a boolean flag given its value as the next word (`tsc --pretty false`)
        elif option in cosmetic.valued:
            index += 1 if equals else 2
        elif word.startswith("-") and any(word.startswith(p) and len(word) > len(p) for p in cosmetic.prefixes):
            index += 1
        else:
            kept.append(word)
            index += 1
    return kept


def semantic_environment(assignments: tuple[str, ...]) -> tuple[str, ...]:
    """The assignments that are part of a check's identity, sorted, the last of each name winning:
    every ``NAME=value`` except the cosmetic ones, and every wrapper's choice (``docker:api``)."""
    chosen: dict[str, str] = {}
    for assignment in assignments:
        found = _ASSIGNMENT.match(assignment)
        if found is None:
            chosen[assignment] = assignment  # a wrapper's choice (`docker:api`, `uv:--python=3.12`)
        elif found.group(1) not in COSMETIC_ENVIRONMENT:
            chosen[found.group(1)] = assignment
    return tuple(sorted(chosen.values()))


def identity_text(environment: tuple[str, ...], statement: str) -> str:
    """The identity as people read it: the environment that is part of it, then the statement."""
    return " ".join((*environment, statement)) if environment else statement


def digest(kind: str, directory: str | None, identity: str, environment: tuple[str, ...]) -> str:
    """The validation key: a short digest of kind, directory, identity statement and environment."""
    # The same text as before environments were part of identity when there is none, so the keys
    # of checks without one did not change.
    text = f"{kind}\0{directory or ''}\0{identity}"
    if environment:
        text += "\0" + "\0".join(environment)
    return short_digest(text)
