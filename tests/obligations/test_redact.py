"""The shared redactor: every credential shape the project promises to remove becomes its typed
marker, ordinary text and code stay as they were, and the result is deterministic."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from obligations import REDACTION_KINDS, redact

SECRETS = [
    ("openai-key", "sk-proj-Q2x8fP0aL9mT4rZ7vB1nK6cH3yW5dJ0s"),
    ("openai-key", "sk-or-v1-0123456789abcdef0123456789abcdef"),
    ("anthropic-key", "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz012345"),
    ("google-key", "AIzaSyA1234567890abcdefghijklmnopqrstuv"),
    ("provider-key", "hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"),
    ("provider-key", "gsk_" + "a1B2" * 13),
    ("provider-key", "sk_live_4eC39HqLyjWDarjtT1zdp7dc"),
    ("provider-key", "npm_" + "x" * 36),
    ("github-token", "ghp_16C7e42F292c6912E7710c838347Ae178B4a"),
    ("github-token", "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz"),
    ("gitlab-token", "glpat-xR9sT2uV5wX8yZ1aB4cD"),
    ("slack-token", "xoxb-123456789012-1234567890123-AbCdEfGhIjKl"),
    ("slack-token", "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX"),
    ("aws-access-key-id", "AKIAIOSFODNN7EXAMPLE"),
    ("jwt", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"),
    ("private-key", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n"
                    "-----END OPENSSH PRIVATE KEY-----"),
]


@pytest.mark.parametrize(("kind", "secret"), SECRETS, ids=[f"{kind}-{n}" for n, (kind, _) in enumerate(SECRETS)])
def test_each_credential_shape_becomes_its_typed_marker(kind: str, secret: str) -> None:
    """A key, token or private key anywhere in a text is replaced by `[REDACTED:<kind>]`; the text around stays."""
    assert redact(f"before {secret} after") == f"before [REDACTED:{kind}] after"


@pytest.mark.parametrize(("text", "expected"), [
    ("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
     "aws_secret_access_key = [REDACTED:aws-secret-key]"),
    ("curl -H 'Authorization: Bearer abcdef1234567890.xyz' https://api",
     "curl -H 'Authorization: Bearer [REDACTED:bearer-token]' https://api"),
    ("DATABASE_URL=postgres://admin:hunter2@db.example.com:5432/app",
     "DATABASE_URL=postgres://admin:[REDACTED:password]@db.example.com:5432/app"),
    ("DB_PASSWORD=hunter2 make test", "DB_PASSWORD=[REDACTED:password] make test"),
    ('{"password": "p4ss w0rd", "user": "me"}', '{"password": "[REDACTED:password]", "user": "me"}'),
    ("secret: s3cr3t-value", "secret: [REDACTED:secret]"),
    ("SECRET_KEY='abc123'", "SECRET_KEY='[REDACTED:secret]'"),
    ("API_KEY=\"live-1234\" Access-Token: t0k3n", "API_KEY=\"[REDACTED:secret]\" Access-Token: [REDACTED:secret]"),
])
def test_values_of_credentials_are_replaced_and_their_names_kept(text: str, expected: str) -> None:
    """For assignments, bearer headers and connection strings only the secret part goes; the name says what it was."""
    assert redact(text) == expected


@pytest.mark.parametrize("text", [
    "password: str = Field(default='')", "secret: ${{ secrets.DEPLOY_TOKEN }}", 'api_key = os.environ["KEY"]',
    "if password == other: return", "password=$DB_PASSWORD", "max_tokens=4096", "token_budget: 250000",
    "git push https://github.com/acme/app.git", "Authorization: Bearer REDACTED", "ask-the-user-about-it-please",
    "sk-short", "the keyboard has keys", "ghost_mode = True", "glob('*.py')",
])
def test_text_that_only_looks_like_a_credential_is_kept(text: str) -> None:
    """References, types, comparisons, short look-alikes and ordinary words are not redacted: code stays readable."""
    assert redact(text) == text


@given(st.sampled_from(SECRETS), st.text(alphabet=" \n\t.,:;()[]{}'\"=abcXYZ019-_/é·", max_size=40),
       st.text(alphabet=" \n\t.,:;()[]{}'\"=abcXYZ019-_/é·", max_size=40))
def test_no_credential_survives_whatever_surrounds_it(pair: tuple[str, str], before: str, after: str) -> None:
    """Between any punctuation, whitespace or non-ASCII text, the credential's characters never come out whole."""
    kind, secret = pair
    out = redact(f"{before} {secret} {after}")
    assert secret not in out and f"[REDACTED:{kind}]" in out


@given(st.text(max_size=200) | st.sampled_from([s for _, s in SECRETS]).map(lambda s: f"x={s} y"))
def test_redaction_is_deterministic_and_idempotent(text: str) -> None:
    """The same text always gives the same result, and redacting it again changes nothing (markers are stable)."""
    once = redact(text)
    assert redact(text) == once and redact(once) == once


def test_every_kind_is_a_documented_marker() -> None:
    """The kinds the markers use are exactly the documented vocabulary."""
    produced = {kind for kind, _ in SECRETS} | {"aws-secret-key", "bearer-token", "password", "secret"}
    assert produced == set(REDACTION_KINDS)
