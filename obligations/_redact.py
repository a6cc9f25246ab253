"""Credential-shaped text replaced by a typed marker, before anything is stored, shown or sent.

One deterministic redactor for the whole project: the tracker's item summaries, and everything
the advisor is shown (its ledger, its tools' results, case packets, the consultation log). The
rules are data — gitleaks' maintained rule set and witness's own, in ``secret_rules/`` (see
:mod:`obligations._secret_rules`) — and a secret a rule finds becomes ``[REDACTED:<rule id>]``:
only the secret, so ``DB_PASSWORD=[REDACTED:password-assignment]`` still says what was there, and
quotes around a value stay. Overlapping findings become one marker (the first's; of two that start
together, the longer, and a rule that knows the secret's shape before one that knows only its name).

The same text always comes out the same, so a redacted ledger keeps its byte-identical prefix from
one consultation to the next, and redacting a redacted text changes nothing (a marker is never a
secret). Redact whole texts before cutting them: a secret cut in half is no longer recognised.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from functools import cache, partial
from typing import Any, NamedTuple

from ._secret_patterns import Spans, Subject, compiled, finditer, match_at, search
from ._secret_rules import Allowance, SecretRule, rule_set

RedactionKind = str
"""What a redaction marker says was there: the id of the rule that found it (``github-pat``,
``password-assignment`` …; :func:`redaction_kinds` lists them)."""

MARKER = "[REDACTED:{kind}]"
"""What a secret becomes."""
_QUOTES = "\"'"
GENERIC_KINDS = frozenset({"generic-api-key", "password-assignment", "secret-assignment"})
"""Rules that find a secret by the name it is assigned to, not by its shape: where another rule
finds the same secret, its marker names the other rule's kind."""


class _Finding(NamedTuple):
    start: int
    end: int
    kind: str


@cache
def _keyword_index() -> tuple[Any, tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """An Aho-Corasick automaton over every rule keyword (one pass finds all a text holds), the rules each
    keyword runs, and of those the semi-generic ones (tried where the keyword starts)."""
    import ahocorasick_rs

    rules = rule_set()
    keywords = rules.keywords
    leads = tuple(tuple(number for number in numbers if rules.rules[number].lead) for _, numbers in keywords)
    automaton = ahocorasick_rs.AhoCorasick([word for word, _ in keywords],
                                           implementation=ahocorasick_rs.Implementation.DFA)
    return automaton, tuple(n for _, n in keywords), leads


Due = dict[int, list[int] | None]
"""The rules a text needs (by number, in rule order), each with where its keywords start in the text
(``None``: not known, or not needed)."""


def _due(text: str) -> Due:
    """The rules whose keywords ``text`` holds, with their keywords' positions, and the rules that always
    run. Keywords are found in the lower-cased text; its positions are the text's when lower-casing kept
    every character one character (it does but for a few non-ASCII letters, ``İ``)."""
    lower = text.lower()
    if not lower.isascii():  # a lone surrogate (half an emoji a tool cut) is no UTF-8: read as `?`, one for one
        lower = lower.encode("utf-8", "replace").decode("utf-8")
    automaton, rules, leads = _keyword_index()
    held: set[int] = set()
    places: dict[int, list[int]] = {}
    for index, start, _ in automaton.find_matches_as_indexes(lower, overlapping=True):
        held.add(index)
        for number in leads[index]:
            places.setdefault(number, []).append(start)
    aligned = len(lower) == len(text)
    due: Due = dict.fromkeys(rule_set().always)
    for index in held:
        for number in rules[index]:
            due[number] = places.get(number) if aligned else None
    return dict(sorted(due.items()))


def _matches(rule: SecretRule, subject: Subject, starts: list[int] | None) -> Iterator[Spans]:
    """The rule's matches in the text. A semi-generic rule (one with a lead) matches only where one of its
    keywords starts — its pattern opens with them — so it is tried at those places alone, not at every
    character of the text; any other rule is searched for."""
    pattern = compiled(rule.pattern)
    if not rule.lead or starts is None:
        yield from finditer(pattern, subject)
        return
    end = 0
    for start in sorted(set(starts)):
        if start >= end and (found := match_at(pattern, subject, start)) is not None:
            yield found
            end = max(found[0][1], start + 1)


def shannon_entropy(text: str) -> float:
    """Bits per character of ``text`` (gitleaks' entropy floor is measured so)."""
    if not text:
        return 0.0
    size = len(text)
    return -sum(count / size * math.log2(count / size) for count in Counter(text).values())


def _secret_span(rule: SecretRule, match: Spans) -> tuple[int, int]:
    if rule.secret_group and rule.secret_group < len(match):
        return match[rule.secret_group]
    for start, end in match[1:]:
        if end > start:
            return start, end
    return match[0]


def _unquoted(text: str, start: int, end: int) -> tuple[int, int]:
    """The span without the quotes (``"…"``, ``'…'``, ``\\"…\\"``) around a value."""
    for width in (2, 1):
        opening, closing = text[start:start + width], text[end - width:end]
        if end - start > 2 * width and opening[-1:] in _QUOTES and opening == closing and \
                (width == 1 or opening[0] == "\\"):
            return start + width, end - width
    return start, end


def _line(text: str, start: int, end: int) -> str:
    return text[text.rfind("\n", 0, start) + 1:len(text) if (stop := text.find("\n", end)) < 0 else stop]


def _allowed(allowances: tuple[Allowance, ...], secret: str, match: str, line: Callable[[], str]) -> bool:
    for allowance in allowances:
        if allowance.stopwords and any(word in secret.lower() for word in allowance.stopwords):
            return True
        if allowance.regexes:
            target = secret if allowance.target == "secret" else match if allowance.target == "match" else line()
            if any(search(compiled(pattern), target) for pattern in allowance.regexes):
                return True
    return False


def _whole(rule: SecretRule, text: str, match: Spans) -> str:
    """The match as gitleaks sees it: with the identifier characters its rule's lead takes before it."""
    start, end = match[0]
    floor = max(0, start - rule.lead)
    while start > floor and (text[start - 1].isascii() and (text[start - 1].isalnum() or text[start - 1] in "_.-")):
        start -= 1
    return text[start:end]


def _findings(rule: SecretRule, subject: Subject, allowances: tuple[Allowance, ...],
              starts: list[int] | None = None) -> Iterator[_Finding]:
    if rule.prefilter is not None and not search(compiled(rule.prefilter), subject):
        return
    text = subject.text
    for match in _matches(rule, subject, starts):
        start, end = _secret_span(rule, match)
        secret = text[start:end]
        if not secret.strip() or (rule.entropy and shannon_entropy(secret) <= rule.entropy):
            continue
        whole = _whole(rule, text, match)
        line = partial(_line, text, *match[0])  # only an allowlist by line reads it
        if _allowed(allowances, secret, whole, line) or _allowed(rule.allowances, secret, whole, line):
            continue
        start, end = _unquoted(text, start, end)
        yield _Finding(start, end, rule.id)


def _markers(text: str) -> list[tuple[int, int]]:
    """Where markers already are (what was redacted stays as it is)."""
    return [found[0] for found in finditer(compiled(r"\[REDACTED:[A-Za-z0-9._-]+\]"), Subject(text))]


def _merged(found: list[_Finding], kept: list[tuple[int, int]]) -> list[_Finding]:
    """The findings in text order, overlapping ones as one (the first's kind), none inside a marker."""
    merged: list[_Finding] = []
    for finding in sorted(found, key=lambda f: (f.start, -f.end, f.kind in GENERIC_KINDS)):
        if any(start < finding.end and finding.start < end for start, end in kept):
            continue
        if merged and finding.start < merged[-1].end:
            last = merged[-1]
            merged[-1] = _Finding(last.start, max(last.end, finding.end), last.kind)
        else:
            merged.append(finding)
    return merged


def redact(text: str) -> str:
    """``text`` with every secret the rules find replaced by ``[REDACTED:<rule id>]``."""
    if not text:
        return text
    return redact_by(text, _due(text))


def redact_by(text: str, due: Due | Iterable[int]) -> str:
    """``text`` with what the rules numbered in ``due`` find replaced (:func:`redact` runs the rules whose
    keywords it holds, tried where they start)."""
    rules = rule_set()
    places: Due = due if isinstance(due, dict) else dict.fromkeys(due)
    subject = Subject(text)
    found = [finding for number, starts in places.items()
             for finding in _findings(rules.rules[number], subject, rules.allowances, starts)]
    if not found:
        return text
    pieces: list[str] = []
    last = 0
    for finding in _merged(found, _markers(text) if "[REDACTED:" in text else []):
        pieces += [text[last:finding.start], MARKER.format(kind=finding.kind)]
        last = finding.end
    pieces.append(text[last:])
    return "".join(pieces)


def redact_line(text: str, limit: int = 300, *, redactor: Callable[[str], str] | None = None) -> str:
    """``text`` redacted whole (by ``redactor``, default :func:`redact`), then cut to ``limit`` characters: the
    one way to shorten a text that may hold a secret (one cut first would leave a secret's head that no
    rule recognises)."""
    text = (redactor or redact)(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def redact_value(value: Any, redactor: Callable[[str], str] | None = None) -> Any:
    """``value`` with every string in it redacted (lists, tuples and dict values, recursively; dict
    keys and everything else as they are) by ``redactor`` (default :func:`redact`): the same object
    when nothing changed."""
    if isinstance(value, str):
        return (redactor or redact)(value)
    if isinstance(value, dict):
        items = {key: redact_value(item, redactor) for key, item in value.items()}
        return value if all(items[key] is value[key] for key in value) else items
    if isinstance(value, list | tuple):
        redacted = [redact_value(item, redactor) for item in value]
        if all(new is old for new, old in zip(redacted, value, strict=True)):
            return value
        return type(value)(redacted) if isinstance(value, list) else tuple(redacted)
    return value


def redaction_kinds() -> tuple[RedactionKind, ...]:
    """Every kind a marker can name (the rules' ids, each once, in rule order)."""
    return tuple(dict.fromkeys(rule.id for rule in rule_set().rules))
