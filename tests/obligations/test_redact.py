"""The shared redactor: gitleaks' rules and witness's own, loaded as data; every credential shape the
project promises to remove becomes its typed marker, ordinary text and code stay as they were, and
the result is deterministic."""

from __future__ import annotations

import hashlib
import json
import re
import string
import tomllib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import obligations
from obligations import redact, redact_value, redaction_kinds
from obligations._secret_rules import RULE_FILES
from tests.support.redactions import real_sessions, session_redactions
from tests.support.secrets import KEY_BODY, PRIVATE_KEY, TOKENS, pem_lines, token

RULES = Path(obligations.__file__).parent / "secret_rules"


@pytest.mark.parametrize(("kind", "secret"), TOKENS, ids=[f"{kind}-{n}" for n, (kind, _) in enumerate(TOKENS)])
def test_each_credential_shape_becomes_its_typed_marker(kind: str, secret: str) -> None:
    """A key, token or private key anywhere in a text is replaced by `[REDACTED:<rule id>]`; the text around stays."""
    assert redact(f"before {secret} after") == f"before [REDACTED:{kind}] after"


@pytest.mark.parametrize(("text", "expected"), [
    (f"aws_secret_access_key = {token(40, string.ascii_letters + '/+')}",
     "aws_secret_access_key = [REDACTED:aws-secret-access-key]"),
    (f"curl -H 'Authorization: Bearer {token(32)}.xyz' https://api",
     "curl -H 'Authorization: Bearer [REDACTED:curl-auth-header]' https://api"),
    (f"< Authorization: Bearer {token(32)}", "< Authorization: Bearer [REDACTED:bearer-token]"),
    ("DATABASE_URL=postgres://admin:hunter2@db.example.com:5432/app",
     "DATABASE_URL=postgres://admin:[REDACTED:url-password]@db.example.com:5432/app"),
    ("DB_PASSWORD=hunter2 make test", "DB_PASSWORD=[REDACTED:password-assignment] make test"),
    ('{"password": "p4ss w0rd", "user": "me"}', '{"password": "[REDACTED:password-assignment]", "user": "me"}'),
    ("secret: s3cr3t-value", "secret: [REDACTED:secret-assignment]"),
    ("SECRET_KEY='abc123'", "SECRET_KEY='[REDACTED:secret-assignment]'"),
    ('API_KEY="live-1234" access_token=t0k3n', 'API_KEY="[REDACTED:secret-assignment]" '
                                               "access_token=[REDACTED:secret-assignment]"),
])
def test_values_of_credentials_are_replaced_and_their_names_kept(text: str, expected: str) -> None:
    """For assignments, bearer headers and connection strings only the secret part goes; the name says what it was."""
    assert redact(text) == expected


GITHUB = f"ghp_{token(36)}"
SESSION_TOKEN = token(120, string.ascii_letters + string.digits + "/+")


@pytest.mark.parametrize(("text", "expected"), [
    ("machine api.github.com login octocat password hunter2x",
     "machine api.github.com login octocat password [REDACTED:netrc-password]"),
    ("machine api.github.com\n  login octocat\n  password s3cretpass\n",
     "machine api.github.com\n  login octocat\n  password [REDACTED:netrc-password]\n"),
    ("//registry.npmjs.org/:_authToken=npm_abc", "//registry.npmjs.org/:_authToken=[REDACTED:npmrc-auth]"),
    ("_auth = dXNlcjpwYXNz\nemail=me@example.com", "_auth = [REDACTED:npmrc-auth]\nemail=me@example.com"),
    (f"aws_session_token = {SESSION_TOKEN}", "aws_session_token = [REDACTED:aws-session-token]"),
    ('{"auths": {"https://index.docker.io/v1/": {"auth": "dXNlcjpwYXNzd29yZA=="}}}',
     '{"auths": {"https://index.docker.io/v1/": {"auth": "[REDACTED:docker-config-auth]"}}}'),
    ("users:\n- name: dev\n  user:\n    token: kubeadm.abcdef0123456789\n",
     "users:\n- name: dev\n  user:\n    token: [REDACTED:kubeconfig-credential]\n"),
    ("    client-key-data: LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQo=",
     "    client-key-data: [REDACTED:kubeconfig-credential]"),
    (f"origin\thttps://{GITHUB}@github.com/acme/app.git (fetch)",
     "origin\thttps://[REDACTED:github-pat]@github.com/acme/app.git (fetch)"),
    (f"origin\thttps://{token(32)}@gitlab.example.com/acme/app.git (push)",
     "origin\thttps://[REDACTED:url-token]@gitlab.example.com/acme/app.git (push)"),
    (f"https://x-access-token:{token(30)}@github.com/acme/app.git",
     "https://x-access-token:[REDACTED:url-password]@github.com/acme/app.git"),
    (f"OPENAI_API_KEY=0sk-proj-{token(40)} pytest -q", "OPENAI_API_KEY=[REDACTED:generic-api-key] pytest -q"),
    (f"key 0sk-proj-{token(40)}", "key 0[REDACTED:sk-api-key]"),
])
def test_credentials_the_rule_sets_miss_are_redacted(text: str, expected: str) -> None:
    """.netrc, .npmrc, AWS session tokens, docker and kube configs, tokens in git remotes and keys glued
    to the character before them go too."""
    assert redact(text) == expected


@pytest.mark.parametrize("text", [
    "\n".join(KEY_BODY[1:4]),  # a read from an offset inside the key
    f"secrets/deploy.pem:3: {KEY_BODY[2]}",  # a grep hit inside it
    f"    12\u2192{KEY_BODY[3]}\n    13\u2192{KEY_BODY[4]}",  # a numbered read
    "\\n".join(KEY_BODY[:3]),  # JSON-escaped
    "\n".join(pem_lines(3, width=70)),  # OpenSSH's line width
])
def test_a_private_key_body_goes_without_its_begin_line(text: str) -> None:
    """Lines of a private key's body are redacted wherever they come from, BEGIN line or not."""
    out = redact(text)
    assert not any(line in out for line in [*KEY_BODY, *text.replace("\\n", "\n").split()] if len(line) >= 64)
    assert "[REDACTED:private-key-body]" in out


@pytest.mark.parametrize("text", [
    PRIVATE_KEY.split("\n-----END")[0],  # read cut short: no END line
    PRIVATE_KEY.split("\n", 3)[3],  # read from an offset: no BEGIN line
])
def test_a_private_key_cut_at_either_end_goes_whole(text: str) -> None:
    """A key block without its END line, or without its BEGIN line, is redacted through its body."""
    out = redact(text)
    assert all(line not in out for line in KEY_BODY) and "[REDACTED:private-key" in out


@pytest.mark.parametrize("text", [
    "password: str = Field(default='')", "secret: ${{ secrets.DEPLOY_TOKEN }}", 'api_key = os.environ["KEY"]',
    "if password == other: return", "password=$DB_PASSWORD", "max_tokens=4096", "token_budget: 250000",
    "git push https://github.com/acme/app.git", "Authorization: Bearer REDACTED", "ask-the-user-about-it-please",
    "sk-short", "the keyboard has keys", "ghost_mode = True", "glob('*.py')", "let api_key = match &provider {",
    "test cli::util::detect_private_key::tests::test_clean_file ... ok", "1password = \"latest\"",
    "e.seal('k', {'secret': 1})", "state.webhook_secret = Some(value)", "- Token: gho_************************",
    "commit 3f2a1c9d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39",
    "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "https://github.com/keparlak/NumWordify/actions/runs/31542364861/job/93947448463\tpending",
    "Login page: password reset is required", "npm install scikit-learn-helpers", "AKIAIOSFODNN7EXAMPLE",
    '"integrity": "sha512-8k6VDyXTm7dGCv2eBbUl6tBoGbFtQgOeV3hW3bItBqYfYP4oS1ZdOSoUfNfdvA/F+F1r3qnBHG5f2kQfzA=="',
])
def test_text_that_only_looks_like_a_credential_is_kept(text: str) -> None:
    """References, types, code, comparisons, hashes, masks, CI URLs and ordinary words are not redacted."""
    assert redact(text) == text


_AROUND = " \n\t.,:;()[]{}'\"=abcXYZ019-_/é·"


@given(st.sampled_from(TOKENS), st.text(alphabet=_AROUND, max_size=40), st.text(alphabet=_AROUND, max_size=40))
def test_no_credential_survives_whatever_surrounds_it(pair: tuple[str, str], before: str, after: str) -> None:
    """Between any punctuation, whitespace or non-ASCII text, the credential's characters never come out whole."""
    _, secret = pair
    out = redact(f"{before} {secret} {after}")
    assert secret not in out and "[REDACTED:" in out


@given(st.text(max_size=200) | st.sampled_from([s for _, s in TOKENS]).map(lambda s: f"x={s} y"))
def test_redaction_is_deterministic_and_idempotent(text: str) -> None:
    """The same text always gives the same result, and redacting it again changes nothing (markers are stable)."""
    once = redact(text)
    assert redact(text) == once and redact(once) == once


def test_nested_values_are_redacted_and_untouched_ones_kept() -> None:
    """`redact_value` redacts every string in lists, tuples and dict values, and returns what held none as it was."""
    clean = {"command": "pytest -q", "paths": ["a.py", ("b.py",)]}
    assert redact_value(clean) is clean
    dirty = {"command": f"GH={GITHUB} gh pr view", "env": [{"token": GITHUB}], "n": 3}
    assert redact_value(dirty) == {"command": "GH=[REDACTED:github-pat] gh pr view",
                                   "env": [{"token": "[REDACTED:github-pat]"}], "n": 3}


def test_the_rule_set_is_gitleaks_vendored_byte_for_byte_plus_witness_own() -> None:
    """gitleaks' rules are the released file (its git blob id), attributed; witness's rules add to them."""
    data = (RULES / "gitleaks.toml").read_bytes()
    blob = hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()  # git's object id
    assert blob == "256f64790ea6d954f0041024be2938089ae1e7a7"
    assert "Copyright (c) 2019 Zachary Rice" in (RULES / "LICENSE-gitleaks").read_text()
    kinds = redaction_kinds()
    assert len(kinds) > 200 and {"generic-api-key", "github-pat", "netrc-password", "private-key-body"} <= set(kinds)


def test_every_rule_and_allowlist_pattern_compiles() -> None:
    """Every pattern of both files compiles with the engine the redactor uses (Go's syntax read as Go reads it)."""
    from obligations._secret_patterns import compiled as _compiled
    from obligations._secret_rules import rule_set

    rules = rule_set()
    patterns = [rule.pattern for rule in rules.rules] + [p for rule in rules.rules for a in rule.allowances
                                                         for p in a.regexes]
    patterns += [p for a in rules.allowances for p in a.regexes]
    assert all(_compiled(pattern) is not None for pattern in patterns)


def test_go_inline_flags_keep_their_scope() -> None:
    """A Go flag opened mid-pattern covers the rest of its group only, as in gitleaks (`\\b(p8e-(?i)…)`)."""
    secret = "p8e-" + token(32, string.ascii_lowercase + string.digits)
    assert redact(f"key {secret} ") == "key [REDACTED:adobe-client-secret] "
    assert redact(f"key {secret.upper()} ") == f"key {secret.upper()} "


@pytest.mark.slow
def test_the_real_sessions_lose_only_their_test_codes_fake_credentials() -> None:
    """On the real sessions the redactor takes out exactly the credentials their projects' own tests
    write (a mock PEM header, a webhook secret, a bearer token): no code, hash, URL or word of the user's."""
    found = {(r.session, r.kind, r.secret) for path in real_sessions() for r in session_redactions(path)}
    assert found == {("preloop--01a0169f.jsonl", "private-key", "-----BEGIN RSA PRIVATE KEY-----"),
                     ("preloop--01a0169f.jsonl", "secret-assignment", "from-config-file"),
                     ("preloop--01a0169f.jsonl", "bearer-token", "preloop-system-token")}


def test_the_parsed_rules_are_the_rule_files_as_they_are() -> None:
    """`rules.json` was written from the rule files' present bytes (so it is what loads), and holds what TOML
    reads in them."""
    cached = json.loads((RULES / "rules.json").read_text())
    sources = [(RULES / name).read_bytes() for name in RULE_FILES]
    assert cached["sha256"] == hashlib.sha256(b"\0".join(sources)).hexdigest()
    assert cached["files"] == [tomllib.loads(source.decode()) for source in sources]


_NON_ASCII = st.text(st.sampled_from(["é", "ü", "漢", "字", "к", "л", "😀", " ", "\ud800", "\udfff", "\ud83d"]))


@given(before=_NON_ASCII, after=_NON_ASCII)
def test_a_secret_among_non_ascii_text_is_replaced_exactly_where_it_stands(before: str, after: str) -> None:
    """RE2 reads a text's UTF-8 bytes; its offsets come back as characters, through letters of two, three and four
    bytes and lone surrogates (half an emoji a tool cut), so the marker stands exactly where the secret stood."""
    secret = TOKENS[4][1]
    assert redact(f"{before} {secret} {after}") == f"{before} [REDACTED:github-pat] {after}"
    found = redact(f"{before}password={secret[4:20]} {after}")
    assert re.fullmatch(re.escape(f"{before}password=") + r"\[REDACTED:[a-z-]+\]" + re.escape(f" {after}"), found)
