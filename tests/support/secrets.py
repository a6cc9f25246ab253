"""Credentials shaped as the real ones are, made from a fixed seed (none of them was ever issued).

Each is ``(kind, text)``: the marker kind the redactor must replace it with, and the credential
as a tool would print it. ``SEEDED`` is one of them to plant in a session and look for.
"""

from __future__ import annotations

import random
import string

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

_ALNUM = string.ascii_letters + string.digits
_BASE64 = _ALNUM + "+/"
_random = random.Random(20261207)


def token(size: int, alphabet: str = _ALNUM) -> str:
    """``size`` random characters of ``alphabet`` (from the module's fixed seed)."""
    return "".join(_random.choice(alphabet) for _ in range(size))


def pem_lines(count: int, width: int = 64) -> list[str]:
    """Lines of a private key's base64 body."""
    return [token(width, _BASE64) for _ in range(count)]


KEY_BODY = pem_lines(6)
PRIVATE_KEY = "\n".join(["-----BEGIN RSA PRIVATE KEY-----", *KEY_BODY, token(24, _BASE64) + "==",
                         "-----END RSA PRIVATE KEY-----"])

TOKENS: list[tuple[str, str]] = [
    ("openai-api-key", f"sk-proj-{token(74)}T3BlbkFJ{token(74)}"),
    ("sk-api-key", f"sk-proj-{token(40)}"),
    ("sk-api-key", f"sk-or-v1-{token(64, string.hexdigits.lower())}"),
    ("anthropic-api-key", f"sk-ant-api03-{token(93)}AA"),
    ("github-pat", f"ghp_{token(36)}"),
    ("github-fine-grained-pat", f"github_pat_{token(82)}"),
    ("gitlab-pat", f"glpat-{token(20)}"),
    ("slack-bot-token", f"xoxb-{token(12, string.digits)}-{token(13, string.digits)}-{token(24)}"),
    ("aws-access-token", f"AKIA{token(16, string.ascii_uppercase + '234567')}"),
    ("gcp-api-key", f"AIza{token(35)}"),
    ("huggingface-access-token", f"hf_{token(34, string.ascii_letters)}"),
    ("npm-access-token", f"npm_{token(36, string.ascii_lowercase + string.digits)}"),
    ("stripe-access-token", f"sk_live_{token(24)}"),
    ("groq-api-key", f"gsk_{token(52)}"),
    ("xai-api-key", f"xai-{token(80)}"),
    ("jwt", f"eyJ{token(30)}.eyJ{token(40)}.{token(43)}"),
    ("private-key", PRIVATE_KEY),
]
"""Credentials recognised by their shape alone, wherever they stand."""

SEEDED = TOKENS[4][1]
"""The secret planted in sessions and workspaces by the tests that look for leaks (a GitHub token)."""


def _credential(seed: int) -> str:
    """A credential of one of four everyday shapes, random but for its shape."""
    pick = random.Random(seed)
    draw = "".join(pick.choice(_ALNUM) for _ in range(40))
    shapes = (f"sk-proj-{draw[:39]}{pick.choice(string.digits)}", f"ghp_{draw[:36]}", f"Bearer {draw[:32]}",
              f"password={draw[:12]}")
    return shapes[seed % len(shapes)]


def credentials() -> SearchStrategy[str]:
    """Credentials as tools print them (a key, a token, a bearer header, a password assignment): random
    where a real one is, so that the redactor's entropy floors see them as it would see real ones."""
    return st.integers(min_value=0, max_value=2**32).map(_credential)
