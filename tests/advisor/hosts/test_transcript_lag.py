"""A Stop hook called before the host has written the last results: it waits, briefly and within its deadline,
for every shell call of the stopping agent to have its result, then judges the whole session."""

from __future__ import annotations

import json
import subprocess
import threading
from pathlib import Path

from tests.advisor.hosts.hook_sessions import HOSTS, decision, lines, parent_while_delegating, stop, until
from tests.advisor.sessions import WITNESS

SESSION = HOSTS / "claude-code-fixed-after-block.jsonl"
"""Claude Code 2.1.332: `npm test` fails, the agent says "Done." and is blocked, then fixes it."""


def first_stop() -> list[str]:
    """The transcript as it stood complete at the first Stop: the failed `npm test` and "Done."."""
    return until(lines(SESSION), "Stop hook feedback")


def result_line(entries: list[str]) -> int:
    (index, *_) = [i for i, line in enumerate(entries) if '"tool_result"' in line]
    return index


def run_hook(home: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([WITNESS, "hook", "claude-code"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env={"WITNESS_HOME": str(home), "PATH": "/usr/bin:/bin"})


def test_the_hook_waits_for_a_result_the_host_has_not_written_yet(tmp_path: Path) -> None:
    """The transcript ends at the dispatched `npm test`; its failing result arrives a moment later: the hook,
    already running, blocks on the failure instead of letting the agent go."""
    entries = first_stop()
    cut = result_line(entries)
    path = tmp_path / "lagging.jsonl"
    path.write_text("".join(entries[:cut]), encoding="utf-8")
    hook = run_hook(tmp_path)
    catch_up = threading.Timer(0.8, lambda: path.write_text("".join(entries), encoding="utf-8"))
    catch_up.start()  # the host writes the result while the hook is already reading
    out, err = hook.communicate(json.dumps(stop(path, last_assistant_message="Done.")).encode(), timeout=60)
    catch_up.join()
    assert hook.returncode == 0, err
    answer = json.loads(out)
    assert decision(answer) == "block" and "`npm test`" in answer["reason"], err


def test_a_result_that_never_comes_is_waited_for_a_bounded_time(tmp_path: Path) -> None:
    """A shell call whose result never reaches the file: the hook stops waiting, says so, and judges the session as
    it stands (here: nothing failed yet, so it allows)."""
    entries = first_stop()
    path = tmp_path / "never.jsonl"
    path.write_text("".join(entries[: result_line(entries)]), encoding="utf-8")
    hook = run_hook(tmp_path)
    out, err = hook.communicate(json.dumps(stop(path)).encode(), timeout=60)
    assert (hook.returncode, out) == (0, b"")
    assert b"1 shell call(s) in the transcript still have no result after waiting" in err


def test_a_pending_delegation_is_not_waited_for(tmp_path: Path) -> None:
    """A parent whose `Agent` call is unanswered (its sub-agent still runs) is judged at once, without waiting."""
    hook = run_hook(tmp_path)
    out, err = hook.communicate(json.dumps(stop(parent_while_delegating(tmp_path))).encode(), timeout=60)
    assert hook.returncode == 0 and decision(json.loads(out)) == "block"
    assert b"no result after waiting" not in err
