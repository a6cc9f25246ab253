"""The redactor attacked: a secret where a cut made before redaction splits it, the credential lines a
grep hit or a read from an offset shows without their context, and texts shaped to make the rules'
regular expressions backtrack (a redactor that takes minutes stalls every sink, and a hook that runs
out of time lets the agent stop unreviewed).

The secrets are the tests' own (shaped as real ones are, never issued)."""

from __future__ import annotations

import base64
import subprocess
import sys
from pathlib import Path

import pytest

from advisor.consult import Investigation
from advisor.models import ToolCall
from advisor.orchestration import AdvisorHost, HostSettings, RunLog
from obligations import redact
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


@pytest.mark.xfail(strict=True, reason="gitleaks' curl-auth-header and curl-auth-user rules (`\\bcurl\\b(?:.*?|"
                   ".*?(?:[\\r\\n]{1,2}.*?){1,5})…`) are written for Go's linear-time engine; Python's backtracking "
                   "engines take cubic time on a long line with many `curl` words (33 KB: 9 s; 66 KB: minutes). "
                   "Running gitleaks' rules on RE2 (google-re2, whose syntax they are written in) would bound it")
def test_a_long_line_of_curl_words_is_redacted_in_linear_time() -> None:
    """One 100 KB line holding `curl` 20,000 times (minified code, a one-line JSON document) is redacted in
    bounded time."""
    assert finishes("from obligations import redact; redact('curl ' * 20000)", seconds=30)


@pytest.mark.xfail(strict=True, reason="password-assignment and secret-assignment take any value of four "
                   "characters or more, so code that passes a variable on (`password=password`, "
                   "`form.password.data`) and a user's sentence after `Password:` lose a word; telling a variable "
                   "from a weak password (`POSTGRES_PASSWORD=password` is one) is a judgement left open")
@pytest.mark.parametrize("text", [
    "User(username=username, password=password)", "user.password = form.password.data",
    "refresh_token=refresh_token,", "Password: please enter it again",
])
def test_code_that_passes_a_credential_on_is_kept(text: str) -> None:
    """A variable handed on under its own name, an attribute chain and a user's sentence are not secrets."""
    assert redact(text) == text
