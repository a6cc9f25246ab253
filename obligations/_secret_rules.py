"""The redactor's rules, loaded from data: gitleaks' maintained rule set and witness's own.

==========================  ========================================================================
file (``secret_rules/``)    what it holds
==========================  ========================================================================
``gitleaks.toml``           gitleaks' default configuration (v8.30.0, MIT, ``LICENSE-gitleaks``),
                            vendored byte for byte: about 220 rules for providers' keys and tokens,
                            each with the keywords it needs, an entropy floor and allowlists
``witness.toml``            witness's own rules in the same format: what the sessions of coding
                            agents show and gitleaks misses (see the file)
==========================  ========================================================================

Read as gitleaks reads them: a rule runs on a text only when the text (lower-cased) holds one of
its ``keywords`` (a rule without keywords always runs); a match's *secret* is its ``secretGroup``,
else its first non-empty group, else the whole match; a secret whose Shannon entropy is not above
the rule's ``entropy`` is kept, and so is one an allowlist allows (its ``regexes`` against the
secret, the match or the line, as ``regexTarget`` says; its ``stopwords`` inside the secret). The
global allowlists of both files apply to every rule. What gitleaks scans by file path does not
apply here (the texts are a session's, not files): path-only rules are left out, a rule's
``path`` is ignored (its pattern runs on any text), and an allowlist that needs a path never
allows.

The files are read, and each pattern compiled, when first needed: a Stop hook that never redacts
pays for neither. ``rules.json`` beside them holds the two files parsed, with the SHA-256 of their
bytes: when it matches, it is read instead of parsing the TOML (a sixtieth of the time — a Stop hook
that opens an item redacts its summary); when it does not, the TOML is parsed, so a stale copy is
never used. :func:`write_parsed` writes it after the rule files change (``secret_rules/README.md``).
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal

RULE_FILES = ("gitleaks.toml", "witness.toml")
"""The rule files, in the order their rules run."""
RULES_DIRECTORY = Path(__file__).parent / "secret_rules"
PARSED = "rules.json"
"""The rule files parsed, and the digest of the bytes they were parsed from."""

_LEADS = ((r"(?i)[\w.-]{0,50}?", "(?i)", 50), (r"[\w.-]{0,50}?(?i:[\w.-]{0,50}?", "(?i:", 100))
"""How gitleaks' semi-generic rules open, what is left of it, and how many characters it took (see
:attr:`SecretRule.lead`)."""

RegexTarget = Literal["secret", "match", "line"]
"""What an allowlist's regexes are matched against."""


@dataclass(frozen=True, slots=True)
class Allowance:
    """An allowlist: findings it allows are kept as they are."""

    regexes: tuple[str, ...] = ()
    """Patterns; a finding whose target one of them matches (searches) is allowed."""
    target: RegexTarget = "secret"
    """What the patterns are matched against."""
    stopwords: tuple[str, ...] = ()
    """Lower-case words; a secret holding one (any case) is allowed."""


@dataclass(frozen=True, slots=True)
class SecretRule:
    """One rule: what it finds, when it runs, and what it lets through."""

    id: str
    """The rule's id: the kind a redaction marker names (``[REDACTED:<id>]``)."""
    description: str
    """What it finds."""
    pattern: str
    """The pattern (RE2's syntax, as Go reads it; run on RE2 when it compiles there, else on Python's ``re``)."""
    keywords: tuple[str, ...]
    """Lower-case words one of which a text must hold for the rule to run (empty: always runs)."""
    entropy: float
    """The secret's Shannon entropy must exceed this (0: no floor)."""
    secret_group: int
    """The group that is the secret (0: the first non-empty group, else the whole match)."""
    allowances: tuple[Allowance, ...]
    """The rule's own allowlists."""
    source: str
    """The file it came from."""
    lead: int = 0
    """How many identifier characters (``[\\w.-]``) before the match gitleaks counts as part of it: the
    ``[\\w.-]{0,50}?`` its semi-generic rules open with, left out of the pattern (a pattern opening
    so makes a search try every position) and read back only for an allowlist of the match."""
    prefilter: str | None = None
    """witness's field: a pattern a text must hold for the rule to run, cheaper to search for than the
    rule's own (for a rule without keywords, or one whose keyword alone would let it run where it
    backtracks)."""


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Every rule, and how to find the ones a text needs."""

    rules: tuple[SecretRule, ...]
    """In the order they run."""
    allowances: tuple[Allowance, ...]
    """The global allowlists."""
    keywords: tuple[tuple[str, tuple[int, ...]], ...]
    """Each keyword and the rules (indices) it runs."""
    always: tuple[int, ...]
    """The rules that run on every text."""


def _allowance(table: dict[str, Any]) -> Allowance | None:
    """An allowlist as it applies here (``None``: it needs a path or a commit, never known here)."""
    needs_path = bool(table.get("paths") or table.get("commits"))
    if needs_path and (table.get("condition", "OR").upper() == "AND" or not (table.get("regexes")
                                                                            or table.get("stopwords"))):
        return None
    return Allowance(regexes=tuple(table.get("regexes", ())), target=table.get("regexTarget", "secret"),
                     stopwords=tuple(word.lower() for word in table.get("stopwords", ())))


def _allowances(tables: list[dict[str, Any]]) -> tuple[Allowance, ...]:
    return tuple(found for table in tables if (found := _allowance(table)) is not None)


def _rule(table: dict[str, Any], source: str) -> SecretRule | None:
    if "regex" not in table:
        return None  # a path-only rule: it flags a file by its name, and texts here have none
    pattern, lead = table["regex"], 0
    for opening, replacement, width in _LEADS:
        if pattern.startswith(opening):
            pattern, lead = replacement + pattern.removeprefix(opening), width
            break
    return SecretRule(id=table["id"], description=table.get("description", ""), pattern=pattern,
                      keywords=tuple(word.lower() for word in table.get("keywords", ())),
                      entropy=float(table.get("entropy", 0.0)), secret_group=int(table.get("secretGroup", 0)),
                      allowances=_allowances(table.get("allowlists", [])), source=source, lead=lead,
                      prefilter=table.get("prefilter"))


def _digest(sources: list[bytes]) -> str:
    return hashlib.sha256(b"\0".join(sources)).hexdigest()


def parsed_files(directory: Path = RULES_DIRECTORY, files: tuple[str, ...] = RULE_FILES) -> list[dict[str, Any]]:
    """Each rule file as TOML reads it: from ``rules.json`` when it was made from these very bytes."""
    sources = [(directory / name).read_bytes() for name in files]
    try:
        cached = json.loads((directory / PARSED).read_bytes())
    except (OSError, ValueError):
        cached = None
    if isinstance(cached, dict) and cached.get("sha256") == _digest(sources):
        return list(cached["files"])
    return [tomllib.loads(source.decode("utf-8")) for source in sources]


def write_parsed(directory: Path = RULES_DIRECTORY, files: tuple[str, ...] = RULE_FILES) -> Path:
    """Write ``rules.json`` for the rule files as they are now."""
    sources = [(directory / name).read_bytes() for name in files]
    tables = [tomllib.loads(source.decode("utf-8")) for source in sources]
    target = directory / PARSED
    target.write_text(json.dumps({"sha256": _digest(sources), "files": tables}, ensure_ascii=False,
                                 separators=(",", ":")) + "\n", encoding="utf-8")
    return target


def load_rules(directory: Path = RULES_DIRECTORY, files: tuple[str, ...] = RULE_FILES) -> RuleSet:
    """The rules of ``files`` in ``directory``, in order, with their global allowlists."""
    rules: list[SecretRule] = []
    allowances: list[Allowance] = []
    for name, data in zip(files, parsed_files(directory, files), strict=True):
        glob = data.get("allowlists", []) + ([data["allowlist"]] if "allowlist" in data else [])
        allowances += _allowances(glob)
        rules += [rule for table in data.get("rules", []) if (rule := _rule(table, name)) is not None]
    index: dict[str, list[int]] = {}
    for number, rule in enumerate(rules):
        for word in rule.keywords:
            index.setdefault(word, []).append(number)
    always = tuple(number for number, rule in enumerate(rules) if not rule.keywords)
    return RuleSet(tuple(rules), tuple(allowances), tuple((word, tuple(found)) for word, found in index.items()),
                   always)


@cache
def rule_set() -> RuleSet:
    """The shipped rules (read once per process)."""
    return load_rules()
