"""One truth about every obligation: what the advisor's ledger and a host's case packet say of each item is what
`witness audit --json` says of it — over every transcript the project ships and over generated sessions.

The ledger's closing block and the packet's obligations are read from the tracker's own report rows; these tests
hold them to the audit's rows field by field (ids, checks, places, failure counts, earlier tasks), including the
two cases the copies they replaced got wrong."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor.cli import main
from advisor.ledger import Ledger, read_ledger
from advisor.orchestration import AdvisorHost, feed_session
from obligations import (
    AssistantMessage,
    Claim,
    ToolCompleted,
    ToolDispatched,
    Tracker,
    UserMessage,
    audit,
)
from obligations.sources import open_transcript
from tests.support.transcripts import HOSTS, Call, Host, Step, User, write

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted(p for folder in ("tests/fixtures/transcripts", "tests/fixtures/hosts", "examples")
                 for p in (ROOT / folder).rglob("*.jsonl"))
WITNESS = str(Path(sys.executable).with_name("witness"))
_ROW_FIELDS = ("id", "kind", "check", "check_kind", "claim_id", "cwd", "state", "summary", "failures",
               "last_failed_call", "earlier_tasks")


def _rows(rows: Any) -> list[dict[str, Any]]:
    return [{field: row[field] for field in _ROW_FIELDS} for row in rows]


def _ledger_rows(ledger: Ledger) -> dict[str, list[dict[str, Any]]]:
    report = ledger.obligations().model_dump(mode="json")
    return {"open": _rows(report["open"]), "earlier": _rows(report["earlier"])}


def _audit_rows(session: dict[str, Any], agent: str) -> dict[str, list[dict[str, Any]]]:
    return {part: _rows(row for row in session[part] if row["agent_id"] == agent) for part in ("open", "earlier")}


def _closing(ledger: Ledger) -> str:
    return ledger.compile(question="Done?").prompt.messages[-1].text


def _says_each_row(closing: str, rows: dict[str, list[dict[str, Any]]]) -> None:
    """The ledger's closing block names every row it was given, and says "none open" only without any."""
    listed = rows["open"] + rows["earlier"]
    assert ("none open" in closing) == (not listed)
    for row in listed[:20]:
        assert (row["check"] or row["claim_id"] or "") in closing
        if row["failures"] > 1:
            assert f"{row['failures']} times" in closing


def _packet_rows(path: Path, agent: str) -> list[dict[str, Any]]:
    with AdvisorHost(None, log=False, run_log=False) as host:
        feed_session(host, open_transcript(path).events())
        rows: list[dict[str, Any]] = json.loads(host.packet(agent).text)["obligations"]
        return rows


@pytest.fixture(scope="module")
def audited() -> dict[str, dict[str, Any]]:
    """`witness audit --json` over every shipped transcript, as a process."""
    done = subprocess.run([WITNESS, "audit", "--json", "--jobs", "1", *map(str, SHIPPED)], capture_output=True,
                          text=True, timeout=600, cwd=ROOT)
    assert done.returncode in (0, 1), done.stderr
    return {session["path"]: session for session in json.loads(done.stdout)["sessions"] if session["error"] is None}


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_ledger_and_the_packet_say_what_the_audit_says_of_every_item(path: Path,
                                                                        audited: dict[str, dict[str, Any]]) -> None:
    """For each shipped transcript: the ledger's obligations (open now, left unresolved earlier) are the audit's
    rows of the agent it shows, its closing block names each of them, and `witness packet`'s obligations are the
    audit's open rows of the agent it is built for."""
    session = audited.get(str(path))
    if session is None:
        pytest.skip("not a transcript a reader knows")
    read = read_ledger(path)
    agent = read.ledger.agent_id or "root"
    expected = _audit_rows(session, agent)
    assert _ledger_rows(read.ledger) == expected
    _says_each_row(_closing(read.ledger), expected)
    packet = _packet_rows(path, agent)
    assert [(p["id"], p["failures"], p["state"]) for p in packet] == \
        [(r["id"], r["failures"], r["state"]) for r in expected["open"][:8]]


def test_witness_packet_prints_the_rows_the_test_reads(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`witness packet --json` is the packet the comparison above builds (the same host, fed the same events)."""
    path = ROOT / "examples" / "session.jsonl"
    assert main(["packet", str(path), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)["obligations"]
    assert printed == _packet_rows(path, "root") and printed


# -- the two cases the copies got wrong ---------------------------------------------------------------------------

def _shell(call_id: str, command: str, exit_code: int, output: str) -> list[ToolDispatched | ToolCompleted]:
    return [ToolDispatched(call_id=call_id, tool="Bash", arguments={"command": command}, cwd="/repo"),
            ToolCompleted(call_id=call_id, exit_code=exit_code, output=output)]


def test_a_later_pass_undone_by_an_edit_is_still_unresolved_in_the_ledger() -> None:
    """Task 1's `npm test` fails; task 2's passes, then an edit: the tracker has the item open again, left
    unresolved — and so does the ledger (not "none open")."""
    events = [UserMessage(text="make the tests pass"), *_shell("c1", "npm test", 1, "1 failed"),
              UserMessage(text="now the docs"), *_shell("c2", "npm test", 0, "4 passed"),
              ToolDispatched(call_id="c3", tool="Edit", arguments={"file_path": "src/app.js"}),
              ToolCompleted(call_id="c3", exit_code=0, output="ok")]
    tracker = Tracker()
    tracker.handle_many(events)
    ledger = Ledger().extend(events)
    assert [row.check for row in tracker.report().earlier] == ["npm test"]
    assert [row.check for row in ledger.obligations().earlier] == ["npm test"]
    assert "none open" not in _closing(ledger) and "`npm test` (test)" in _closing(ledger)


def test_a_check_run_after_cd_on_its_own_line_is_resolved_later_in_the_ledger() -> None:
    """`cd api` then `npm test` on the next line fails in task 1 and passes in task 2: resolved later for the
    tracker, and not left unresolved in the ledger (the place is the check's, /repo/api)."""
    events = [UserMessage(text="fix the api"), *_shell("c1", "cd api\nnpm test", 1, "1 failed"),
              UserMessage(text="again"), *_shell("c2", "cd api\nnpm test", 0, "4 passed")]
    tracker = Tracker()
    tracker.handle_many(events)
    ledger = Ledger().extend(events)
    assert [(row.check, row.cwd, row.witness.later if row.witness else None) for row in tracker.report().resolved] \
        == [("npm test", "/repo/api", True)]
    assert ledger.obligations().earlier == () and "none open" in _closing(ledger)


# -- generated sessions ---------------------------------------------------------------------------------------------

_COMMANDS = st.sampled_from(["npm test", "cd api\nnpm test", "cd api && npm test", "pytest -q", "pytest -q | tail -3",
                             "npm test; echo done", "npm run lint", "ls"])
_OUTPUTS = {0: st.sampled_from(["4 passed", "Tests  4 passed (4)", "ok", "=== 1 failed, 2 passed in 0.1s ==="]),
            1: st.sampled_from(["Tests  1 failed | 3 passed (4)", "1 failed, 3 passed in 0.2s", "error"])}
_CALLS = st.one_of(
    st.integers(0, 1).flatmap(lambda code: st.builds(Call, kind=st.just("shell"), argument=_COMMANDS,
                                                        output=_OUTPUTS[code], exit_code=st.just(code))),
    st.builds(Call, kind=st.just("edit"), argument=st.sampled_from(["src/app.js", "api/index.js"]),
              output=st.just("ok")))
_ACTIONS = st.one_of(st.builds(User, text=st.sampled_from(["next task", "and the docs"])),
                     st.builds(Step, text=st.just("working"),
                               calls=st.lists(_CALLS, min_size=1, max_size=3).map(tuple)))
SESSIONS = st.lists(_ACTIONS, max_size=14).map(lambda actions: [User(text="make the tests pass"), *actions])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(host=st.sampled_from(HOSTS), actions=SESSIONS)
def test_over_generated_sessions_the_ledger_says_what_the_audit_says(tmp_path: Path, host: Host,
                                                                    actions: list[Any]) -> None:
    """Over generated sessions of each host (checks failing and passing in and out of `cd api`, masked and piped
    re-runs, edits, new tasks), the ledger's rows and its closing block, and the packet's rows, are the audit's."""
    path = write(tmp_path / f"{host}.jsonl", host, actions)
    session = audit(path).to_dict()
    read = read_ledger(path)
    agent = read.ledger.agent_id or "root"
    expected = _audit_rows(session, agent)
    assert _ledger_rows(read.ledger) == expected
    _says_each_row(_closing(read.ledger), expected)
    assert [p["id"] for p in _packet_rows(path, agent)] == [r["id"] for r in expected["open"][:8]]


def test_a_claim_registered_by_an_assistant_message_is_an_item_both_ways() -> None:
    """An assistant message carrying a contradicted claim makes a claim item: the ledger lists it as the tracker
    does."""
    events = [UserMessage(text="ship it"), *_shell("c1", "npm test", 1, "1 failed"),
              AssistantMessage(text="All tests pass.", claim=Claim(claim_id="k1", summary="all tests pass",
                                                                   validation_call_id="c1"))]
    tracker = Tracker()
    tracker.handle_many(events)
    ledger = Ledger().extend(events)
    assert [r.id for r in ledger.obligations().open] == [r.id for r in tracker.report().open]
    assert any(r.kind == "claim-contradicted" for r in ledger.obligations().open)
