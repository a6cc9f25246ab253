"""The redactor attacked: a secret where a cut made before redaction splits it, the credential lines a
grep hit or a read from an offset shows without their context, and texts shaped to make the rules'
regular expressions backtrack (a redactor that takes minutes stalls every sink, and a hook that runs
out of time lets the agent stop unreviewed).

The secrets are the tests' own (shaped as real ones are, never issued)."""

from __future__ import annotations

import base64
import string
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from advisor.consult import Investigation
from advisor.models import ToolCall
from advisor.orchestration import AdvisorHost, HostSettings, RunLog
from obligations import redact
from obligations._redact import shannon_entropy
from obligations._secret_patterns import python_patterns
from obligations._secret_rules import rule_set
from tests.support.secrets import SEEDED, token

SECRET = SEEDED


def pieces(text: str, secret: str = SECRET, width: int = 10) -> list[str]:
    """Every ``width`` characters of the secret that ``text`` holds (none: nothing of it got through)."""
    return sorted({secret[i:i + width] for i in range(len(secret) - width + 1) if secret[i:i + width] in text})


def test_a_failure_line_cut_inside_a_secret_leaks_nothing_into_a_packet(tmp_path: Path) -> None:
    """The host's open obligation: its summary is the runner's failure line, cut at 200 characters
    across a token; the line is redacted whole before it is cut, so no head of the token is sent."""
    host = AdvisorHost(None, settings=HostSettings(), workspace=tmp_path, log=False, run_log=RunLog(tmp_path))
    host.register_agent("main")
    host.on_user_message("main", "fix the login test")
    host.on_tool_dispatched("main", "c1", "bash", {"command": "pytest -q"})
    line = "FAILED tests/test_api.py::test_login - AssertionError: " + "x" * 125 + " " + SECRET + " was rejected"
    host.on_tool_result("main", "c1", exit_code=1, output=line + "\n1 failed in 0.1s")
    text = host.packet("main", question="done?").text
    assert pieces(text) == []


NETRC = f"machine api.github.com\n  login octocat\n  password {token(20)}\n"


def test_a_netrc_password_line_seen_alone_is_redacted(tmp_path: Path) -> None:
    """A `.netrc`-style file under another name: `grep password` and a `read` from the password's line show
    that line without its `machine` line, and the password still goes."""
    (tmp_path / "deploy").mkdir()
    (tmp_path / "deploy" / "netrc.sample").write_text(NETRC)
    password = NETRC.split("password ")[1].strip()
    investigation = Investigation(tmp_path)
    for name, arguments in (("grep", {"pattern": "password"}), ("read", {"path": "deploy/netrc.sample", "offset": 3})):
        outcome = investigation.run(ToolCall(id="1", name=name, arguments=arguments))
        assert password not in outcome.text and "[REDACTED:" in outcome.text, (name, outcome.text)


@pytest.mark.parametrize("text", [
    "REDIS_URL=redis://:{p}@cache.internal:6379/0",  # redis' own form: a password and no user
    "curl -v https://api.example.com\n> Authorization: Basic {b}",  # a verbose curl's request header
    '{{"headers": {{"Authorization": "Basic {b}"}}}}',
])
def test_credentials_in_everyday_shapes_are_redacted(text: str) -> None:
    """A password-only URL and a Basic authorization header (base64 of `admin:hunter22`) lose their credential."""
    password, basic = token(16), base64.b64encode(b"admin:hunter22").decode()
    out = redact(text.format(p=password, b=basic))
    assert password not in out and basic not in out and "[REDACTED:" in out


def finishes(code: str, seconds: float = 120) -> bool:
    """Whether ``code`` (run by a fresh interpreter in this project) finishes within ``seconds``: a
    backtracking regular expression does not, and the process is killed rather than left to spin."""
    try:
        subprocess.run([sys.executable, "-c", code], check=True, timeout=seconds, cwd=Path(__file__).parents[2])
    except subprocess.TimeoutExpired:
        return False
    return True


def test_many_short_lines_after_a_private_key_mention_are_redacted_in_linear_time() -> None:
    """A text naming a private key then printing 40,000 short lines (`seq`) once took minutes: each line
    was tried as the start of a key body running to an END line that never comes."""
    assert finishes("from obligations import redact; redact('the private key is rotated\\n' + "
                    "'\\n'.join(str(i) for i in range(10000, 50000)))")


def test_a_long_run_of_glued_sk_prefixes_is_redacted_in_linear_time() -> None:
    """`0sk-` glued to the character before it, 100,000 times on one line: each start once scanned the rest."""
    assert finishes("from obligations import redact; redact('x' + 'sk-0' * 100000)")


def test_a_long_line_of_curl_words_is_redacted_in_linear_time() -> None:
    """One 100 KB line holding `curl` 20,000 times (minified code, a one-line JSON document) is redacted in
    bounded time: gitleaks' curl rules (`\\bcurl\\b(?:.*?|.*?(?:[\\r\\n]{1,2}.*?){1,5})…`) run on RE2, in
    linear time, where a backtracking engine takes cubic time (33 KB: 9 s; 66 KB: minutes)."""
    assert finishes("from obligations import redact; redact('curl ' * 20000)", seconds=30)


BACKTRACKING = {"sk-api-key", "private-key", "private-key-body", "password-assignment", "secret-assignment"}
"""witness's rules that need a lookaround, a possessive repeat or a back-reference, which RE2 has not: each
is bounded by its construction (see the comments in ``secret_rules/witness.toml``)."""


def test_every_rule_runs_on_re2_but_the_few_that_cannot() -> None:
    """All of gitleaks' patterns (rules, allowlists) compile on RE2, linear in the text; only the listed rules
    of witness's own run on a backtracking engine."""
    rules = rule_set()
    backtracking = [rule for rule in rules.rules
                    if python_patterns([rule.pattern, *([rule.prefilter] if rule.prefilter else []),
                                        *(p for a in rule.allowances for p in a.regexes)])]
    assert {rule.id for rule in backtracking} == BACKTRACKING
    assert {rule.source for rule in backtracking} == {"witness.toml"}
    assert not python_patterns([p for a in rules.allowances for p in a.regexes])


WORST_TEXTS = [
    "('sk-' + 'a' * 300 + ' ') * 300", "'sk-' * 30000", "('A' * 60 + chr(10)) * 2000 + '-----END RSA PRIVATE KEY-----'",
    "(' ' + 'Aa1' * 30) * 3000", "'password=x' * 10000 + '('", "'password=\"' * 20000", "\"password='\" * 20000",
    "'password=@a' * 10000", "'secret=' * 20000 + '('", "'password:' + ' ' * 100000 + 'x('",
    "'password' * 20000 + '=password'",
]


def test_the_rules_on_a_backtracking_engine_finish_on_the_texts_made_to_stall_them() -> None:
    """Each rule left on a backtracking engine, on texts of 100-200 KB shaped against it (runs of its prefix,
    unclosed quotes, a call after a long value, lines of base64 before a far END line), finishes."""
    code = "from obligations import redact\n" + "".join(f"redact({text})\n" for text in WORST_TEXTS)
    assert finishes(code)


@pytest.mark.parametrize("text", [
    "User(username=username, password=password)", "user.password = form.password.data",
    "refresh_token=refresh_token,", "Password: please enter it again", "api_key = settings.API_KEY",
    "token = self.auth_token", "password = getpass(prompt)",
])
def test_code_that_passes_a_credential_on_is_kept(text: str) -> None:
    """A variable handed on under its own name, an attribute chain, a call and a user's sentence are not secrets."""
    assert redact(text) == text


_SECRET_CHARACTERS = string.ascii_letters + string.digits + "-_/+=!$%"


@st.composite
def generated_secrets(draw: st.DrawFn) -> str:
    """A secret as a generator makes one: 12 to 48 characters of letters, digits and symbols, both cases and
    a digit among them (so no attribute path of one-case parts, no word, no key's own name), opening with a
    letter or a digit (after `=`, an `=` would make a comparison, `==`)."""
    secret = draw(st.sampled_from(string.ascii_letters + string.digits)) + \
        draw(st.text(_SECRET_CHARACTERS, min_size=11, max_size=47))
    assume(any(c.isupper() for c in secret) and any(c.islower() for c in secret) and any(c.isdigit() for c in secret))
    assume(shannon_entropy(secret) > 3)
    return secret


CODE_SHAPES = ["User(username=username, password={})", "user.password = {}", "refresh_token={},",
               "Password: {} please enter it again", "password=password\npassword={}", "PASSWORD={}",
               "secret_key: {}", "api_key = {}", "password = form.{}"]


@settings(max_examples=300, deadline=None)
@given(shape=st.sampled_from(CODE_SHAPES), secret=generated_secrets())
def test_a_generated_secret_in_the_shapes_of_code_kept_is_still_redacted(shape: str, secret: str) -> None:
    """Where a variable, an attribute path or a sentence is kept, a generated secret in its place is not."""
    assert not pieces(redact(shape.format(secret)), secret, width=6)


@settings(max_examples=200, deadline=None)
@given(secret=generated_secrets(), dots=st.lists(st.integers(min_value=1, max_value=47), min_size=1, max_size=3))
def test_a_generated_secret_with_dots_is_not_taken_for_an_attribute_path(secret: str, dots: list[int]) -> None:
    """A secret cut by dots into parts, one of which mixes cases and digits as generated secrets do, is still
    redacted, whatever its other parts spell (`os`, `self`, a credential's name): an attribute path is kept
    only when each of its parts is in one case (or camelCase words)."""
    for place in sorted({d % len(secret) for d in dots if d % len(secret) > 0}, reverse=True):
        secret = secret[:place] + "." + secret[place:]
    secret = secret.replace("..", ".").strip(".") + "_key.X1"
    assume(any(any(c.isupper() for c in part) and any(c.islower() for c in part) and any(c.isdigit() for c in part)
               for part in secret.split(".")))
    assert not pieces(redact(f"password = {secret}"), secret, width=6)
