"""The baseline of ``redact_bench.py``: the redactor witness had before its rules became data (its
fourteen hand-written rules, kept here unchanged as the measure; the project's own is
``obligations.redact``).

Credential-shaped text replaced by a typed marker, before anything is stored, shown or sent.

One deterministic redactor for the whole project: the tracker's item summaries, and everything
the advisor is shown (its ledger, its tools' results, case packets). The same text always comes
out the same, so a redacted ledger keeps its byte-identical prefix from one consultation to
the next. Each rule is a row below; a match becomes ``[REDACTED:<kind>]`` (for an assignment or
a connection string only the value is replaced, so ``DB_PASSWORD=[REDACTED:password]`` still says
what was there).

=====================  ==========================================================================
kind                   what it matches
=====================  ==========================================================================
``private-key``        a PEM private key block (``-----BEGIN … PRIVATE KEY-----`` to its END line)
``anthropic-key``      ``sk-ant-…`` API keys
``openai-key``         ``sk-…`` API keys (OpenAI, and the providers that copied the shape:
                       OpenRouter ``sk-or-…``, DeepSeek …)
``google-key``         ``AIza…`` Google API keys
``provider-key``       other providers' keys: Hugging Face ``hf_``, Groq ``gsk_``, xAI ``xai-``,
                       Stripe ``sk_live_``/``rk_live_``, npm ``npm_``, PyPI ``pypi-AgE…``
``github-token``       ``ghp_ gho_ ghu_ ghs_ ghr_`` tokens and ``github_pat_`` fine-grained tokens
``gitlab-token``       ``glpat-`` and the other ``gl…-`` GitLab tokens
``slack-token``        ``xoxb- xoxp- xoxa- xoxo- xoxs- xoxr-`` tokens and Slack webhook URLs
``aws-access-key-id``  ``AKIA…``/``ASIA…`` access key ids
``aws-secret-key``     the value of an ``aws_secret_access_key`` (40 characters)
``jwt``                JSON Web Tokens (``eyJ….eyJ….…``)
``bearer-token``       the token after ``Bearer``
``password``           the password of a connection string (``postgres://user:PASSWORD@host``), and
                       the value of ``password=``/``passwd:``/``pwd=`` assignments
``secret``             the value of ``secret=``, ``api_key:``, ``access_token=``, ``client_secret``
                       and similar assignments
=====================  ==========================================================================

Key words (``Bearer``, ``password`` …) match in any ASCII letter case. Assignments whose value is
plainly not a secret are left alone: a reference (``$VAR``,
``${{ secrets.X }}``, ``<your-key>``, ``os.environ[…]``), an empty string, or a type or literal
word (``str``, ``None``, ``true`` …), so that code and configuration stay readable.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Literal, NamedTuple

RedactionKind = Literal["private-key", "anthropic-key", "openai-key", "google-key", "provider-key", "github-token",
                        "gitlab-token", "slack-token", "aws-access-key-id", "aws-secret-key", "jwt", "bearer-token",
                        "password", "secret"]
"""What a redaction marker says was there."""

_NOT_SECRET = frozenset({"", "str", "string", "int", "bool", "bytes", "none", "null", "nil", "true", "false",
                         "undefined", "required", "optional", "any", "secretstr", "***", "...", "xxx", "redacted"})
_REFERENCE = ("$", "%", "<", "{", "(", "[", "*", "os.", "process.", "env.", "getenv", "settings.", "config.", "self.")
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_VALUE = r"(?P<secret>(?!\[redacted)(?:\\?\"[^\"\n\\]*\\?\"|'[^'\n]*'|[^\s,;'\"&)}\]]+))"
_SEPARATOR = r"\\?[\"']?[ \t]*(?<![=!<>:])[:=](?![=>])[ \t]*"


class _Rule(NamedTuple):
    kind: RedactionKind
    cues: tuple[str, ...]
    """Words (lower case) one of which every match holds: a rule whose words are absent is not run."""
    pattern: str
    """Matched against the text, or with ``lower`` against its ASCII-lower-cased copy; every
    pattern starts with a literal, so that absent shapes are found absent at string-search speed.
    Compiled when a text first holds one of the rule's cues (see :func:`_compiled`)."""
    lower: bool = False
    """Case-insensitive (ASCII): the pattern is written in lower case and run on the lower-cased text."""
    assignment: bool = False
    """A ``key = value`` rule: a value that is plainly not a secret (a reference, a type) is kept."""


def _rule(kind: RedactionKind, cues: tuple[str, ...], pattern: str, lower: bool = False) -> _Rule:
    return _Rule(kind, cues, pattern, lower, assignment=_VALUE in pattern)


@cache
def _compiled(pattern: str) -> re.Pattern[str]:
    # On first use: most rules never run in a process (their cues are absent), and every Stop hook
    # imports this module.
    return re.compile(pattern)


_RULES: tuple[_Rule, ...] = (
    _rule("private-key", ("private key",), r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"
          r"(?:[\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\s\\]*)"),
    _rule("anthropic-key", ("sk-ant-",), r"sk-ant-(?<![\w-]sk-ant-)[A-Za-z0-9_\-]{20,}"),
    _rule("openai-key", ("sk-",), r"sk-(?<![\w-]sk-)[A-Za-z0-9_\-]{16,}"),
    _rule("google-key", ("aiza",), r"AIza(?<![\w-]AIza)[0-9A-Za-z_\-]{35}"),
    _rule("provider-key", ("hf_",), r"hf_(?<![\w-]hf_)[A-Za-z0-9]{30,}"),
    _rule("provider-key", ("gsk_",), r"gsk_(?<![\w-]gsk_)[A-Za-z0-9]{40,}"),
    _rule("provider-key", ("xai-",), r"xai-(?<![\w-]xai-)[A-Za-z0-9]{40,}"),
    _rule("provider-key", ("sk_live_", "sk_test_"), r"sk_(?<![\w-]sk_)(?:live|test)_[A-Za-z0-9]{16,}"),
    _rule("provider-key", ("rk_live_", "rk_test_"), r"rk_(?<![\w-]rk_)(?:live|test)_[A-Za-z0-9]{16,}"),
    _rule("provider-key", ("npm_",), r"npm_(?<![\w-]npm_)[A-Za-z0-9]{36}(?![A-Za-z0-9])"),
    _rule("provider-key", ("pypi-age",), r"pypi-AgE(?<![\w-]pypi-AgE)[A-Za-z0-9_\-]{50,}"),
    _rule("github-token", ("gh",), r"gh(?<![\w-]gh)[pousr]_[A-Za-z0-9]{20,}"),
    _rule("github-token", ("github_pat_",), r"github_pat_(?<![\w-]github_pat_)[A-Za-z0-9_]{22,}"),
    _rule("gitlab-token", ("gl",), r"gl(?<![\w-]gl)(?:pat|dt|rt|ptt|cbt|imt|soat|ffct|ft|oas|agent)-"
          r"[A-Za-z0-9_\-]{20,}"),
    _rule("slack-token", ("xox",), r"xox(?<![\w-]xox)[abposr]-[A-Za-z0-9\-]{10,}"),
    _rule("slack-token", ("hooks.slack.com",), r"https://hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9/_\-]+"),
    _rule("aws-access-key-id", ("akia", "asia", "abia", "acca"),
          r"(?:AKIA|ASIA|ABIA|ACCA)(?<![\w-]AKIA|[\w-]ASIA|[\w-]ABIA|[\w-]ACCA)[0-9A-Z]{16}(?![0-9A-Za-z])"),
    _rule("aws-secret-key", ("secret",), r"secret_?access_?key\\?[\"']?[ \t]*[:=][ \t]*\\?[\"']?"
          r"(?P<secret>[a-z0-9/+=]{40})(?![a-z0-9/+=])", lower=True),
    _rule("jwt", ("eyj",), r"eyJ(?<![\w-]eyJ)[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}"),
    _rule("bearer-token", ("bearer",), r"bearer(?<![\w-]bearer)\s+(?P<secret>(?!\[redacted)[a-z0-9._~+/\-]{12,}=*)",
          lower=True),
    _rule("password", ("://",), r"://[^\s:/@'\"]{1,200}:(?P<secret>(?!\[redacted)[^\s@/'\"]{1,200})@", lower=True),
    _rule("password", ("pass",), rf"pass(?:word|wd)(?:[_-]?key)?{_SEPARATOR}{_VALUE}", lower=True),
    _rule("password", ("pwd",), rf"pwd{_SEPARATOR}{_VALUE}", lower=True),
    _rule("secret", ("secret",), rf"secret(?:[_-]?key|[_-]?token)?{_SEPARATOR}{_VALUE}", lower=True),
    _rule("secret", ("key",), rf"key(?:(?<=api[_-]key)|(?<=apikey)|(?<=private[_-]key)){_SEPARATOR}{_VALUE}",
          lower=True),
    _rule("secret", ("token",), rf"token(?:(?<=access[_-]token)|(?<=auth[_-]token)|(?<=refresh[_-]token))"
          rf"{_SEPARATOR}{_VALUE}", lower=True),
)
"""Every rule, in the order they run. Keys and the word ``Bearer`` match in any ASCII case; a rule
whose cue words are absent from the (ASCII-)lower-cased text cannot match, and is not run."""

REDACTION_KINDS: tuple[RedactionKind, ...] = ("private-key", "anthropic-key", "openai-key", "google-key",
                                              "provider-key", "github-token", "gitlab-token", "slack-token",
                                              "aws-access-key-id", "aws-secret-key", "jwt", "bearer-token",
                                              "password", "secret")


def _plainly_not_secret(value: str) -> bool:
    bare = value.strip("\\\"'").lower()
    return bare in _NOT_SECRET or bare.startswith(_REFERENCE)


def _apply(rule: _Rule, text: str, lower: str) -> str | None:
    """``text`` with the rule's matches replaced, or ``None`` when it has none."""
    pieces: list[str] = []
    last = 0
    pattern = _compiled(rule.pattern)
    for match in pattern.finditer(lower if rule.lower else text):
        if "secret" in pattern.groupindex:
            start, end = match.span("secret")
            value = text[start:end]
            if rule.assignment and _plainly_not_secret(value):
                continue
            quote = value[: len(value) - len(value.lstrip("\\\"'"))]
            closing = value[len(value.rstrip("\\\"'")):] if len(value) > len(quote) else ""
        else:
            (start, end), quote, closing = match.span(), "", ""
        pieces.append(text[last:start])
        pieces.append(f"{quote}[REDACTED:{rule.kind}]{closing}")
        last = end
    if not pieces:
        return None
    pieces.append(text[last:])
    return "".join(pieces)


_CUES: tuple[tuple[str, int], ...] = tuple((cue, index) for index, rule in enumerate(_RULES) for cue in rule.cues)


def _lower(text: str) -> str:
    # Only ASCII letters are lowered, so positions in the copy are positions in the text.
    return text.lower() if text.isascii() else text.translate(_ASCII_LOWER)


def redact(text: str) -> str:
    """``text`` with every credential-shaped part replaced by ``[REDACTED:<kind>]`` (see the table above)."""
    lower = _lower(text)
    hits = {index for cue, index in _CUES if cue in lower}
    for index in sorted(hits):
        rule = _RULES[index]
        replaced = _apply(rule, text, lower)
        if replaced is not None:
            text = replaced
            lower = _lower(text)
    return text


def redact_line(text: str, limit: int = 300) -> str:
    """``text`` redacted and cut to ``limit`` characters (for one-line summaries)."""
    text = redact(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"
