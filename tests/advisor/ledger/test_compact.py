"""The ledger carries the same evidence in fewer characters: one obligation line per check, tighter caps on
the text that decides the least (older words, past prose, the host's paraphrase, quiet results), failure
lines kept in view, workspace-relative paths — and the rest is always one ``advisor_expand`` away."""

from __future__ import annotations

from advisor.ledger import Ledger, card, verbatim
from tests.advisor.ledger.builders import call, compaction, result, round_, say, user


def test_a_check_left_open_by_several_tasks_is_one_line_that_counts_them() -> None:
    """Three tasks that each left `npm test` failing give one obligation line: the failures summed, the newest
    failing card, and how many earlier tasks left it open."""
    events = []
    for n in range(3):
        events += [user(f"task {n}"), *round_(f"c{n}", "Bash", {"command": "npm test"}, "1 failed", f"r{n}",
                                              exit_code=1)]
    events.append(user("task 3"))
    last = Ledger().extend(events).prompt(question="q").messages[-1].text
    lines = [line for line in last.splitlines() if line.startswith("- `npm test`")]
    assert len(lines) == 1
    assert "failed, 3 times, last at #r2" in lines[0] and "[left unresolved by 3 earlier tasks" in lines[0]


def test_a_current_failure_names_the_earlier_tasks_that_left_the_same_check_open() -> None:
    """A check failing now that an earlier task also left open is one line, current, that says so."""
    events = [user("one"), *round_("c1", "Bash", {"command": "npm test"}, "fail", "r1", exit_code=1), user("two"),
              *round_("c2", "Bash", {"command": "npm test"}, "fail", "r2", exit_code=1)]
    last = Ledger().extend(events).prompt(question="q").messages[-1].text
    line = next(line for line in last.splitlines() if line.startswith("- `npm test`"))
    assert "last at #r2" in line and line.endswith("[also left unresolved by 1 earlier task]")


def test_words_from_an_earlier_compaction_are_restated_tighter_than_the_newest() -> None:
    """After two compactions the newest span's words keep 1,000 characters, the earlier span's 250; both keep
    their start and point to the full text."""
    old, new = "OLD " + "a" * 2000, "NEW " + "b" * 2000
    ledger = Ledger().extend([user(old, "u1"), compaction("first summary", "k1"), user(new, "u2"),
                              compaction("second summary", "k2"), user("now")])
    prior = ledger.prompt(question="q").messages[0].text
    restated_old = prior[prior.index("[user] OLD"):prior.index("[user] NEW")]
    restated_new = prior[prior.index("[user] NEW"):]
    assert 'advisor_expand("u1")' in restated_old and restated_old.count("a") < 300
    assert 'advisor_expand("u2")' in restated_new and 900 < restated_new.count("b") < 1100
    assert ledger.expand("u1") == old


def test_long_executor_prose_is_clipped_in_the_log_but_not_while_it_is_being_written() -> None:
    """A past step's 3,000-character prose keeps both ends around an expand marker; the step being written when
    the advisor is consulted is shown whole; the full text stays expandable."""
    prose = "START " + "p" * 3000 + " END"
    being_written = Ledger().extend([user("go"), say(prose, "a1")]).prompt(question="q").messages[-1].text
    assert prose in being_written
    ledger = Ledger().extend([user("go"), say(prose, "a1"), *round_("c", "Bash", {"command": "ls"}, "x", "r"),
                              *round_("c2", "Bash", {"command": "ls"}, "x", "r2"),
                              *round_("c3", "Bash", {"command": "ls"}, "x", "r3")])
    logged = ledger.prompt(question="q").messages[-1].text
    assert "[executor] START" in logged and "p END" in logged and 'advisor_expand("a1")' in logged
    assert prose not in logged and ledger.expand("a1") == prose


def test_a_summary_keeps_its_head_and_tail_and_expands_in_full() -> None:
    """A 9,000-character compaction summary keeps its opening (the request) and its end (the current work)."""
    summary = "1. Primary Request: fix it. " + "m" * 9000 + " 9. Next Step: run the tests."
    ledger = Ledger(host="claude-code").extend([user("go"), compaction(summary, "k1")])
    text = ledger.prompt(question="q").messages[-1].text
    assert "1. Primary Request: fix it." in text and "9. Next Step: run the tests." in text
    assert text.count("m") < 2100 and ledger.expand("k1") == summary


def test_a_verbatim_failure_keeps_the_lines_around_its_error_from_the_middle() -> None:
    """A failing 30,000-character output whose error sits in the middle shows that line, not only the ends."""
    output = "noise line\n" * 1400 + "E   AssertionError: assert 3 == 5\n" + "more noise\n" * 1400
    text = verbatim("r1", call("c", "Bash", {"command": "pytest"}), result("c", output, "r1", exit_code=1),
                    limit=8000)
    assert "E   AssertionError: assert 3 == 5" in text and text.count('advisor_expand("r1")') == 2
    assert len(text) < 8600


def test_a_quiet_success_is_capped_tighter_and_a_read_tighter_still() -> None:
    """A passing command's 5,000-character output keeps 500 characters, a file read 300, each expandable."""
    ran = verbatim("r1", call("c", "Bash", {"command": "make"}), result("c", "q" * 5000, "r1", exit_code=0),
                   limit=8000)
    read = verbatim("r2", call("c", "Read", {"file_path": "a.py"}), result("c", "x" * 5000, "r2"), limit=8000)
    assert 450 < ran.count("q") <= 500 and 'advisor_expand("r1")' in ran
    assert 250 < read.count("x") <= 300 and 'advisor_expand("r2")' in read


def test_a_path_under_the_working_directory_is_shown_relative_to_it() -> None:
    """`/home/dev/app/src/a.py` called from `/home/dev/app` is `src/a.py` on the card; a path elsewhere stays."""
    inside = call("c", "Edit", {"file_path": "/home/dev/app/src/a.py", "old_string": "a", "new_string": "b"},
                  cwd="/home/dev/app")
    outside = call("c", "Read", {"file_path": "/etc/hosts"}, cwd="/home/dev/app")
    assert card(None, inside, result("c", "ok")).startswith("Edit · src/a.py · +1 −1")
    assert card(None, outside, result("c", "ok")).startswith("Read · /etc/hosts ·")


def test_a_codex_code_mode_script_is_shown_by_the_command_it_runs() -> None:
    """Codex's `exec` wrapping `tools.exec_command({cmd: …})` shows the command, not the JavaScript around it."""
    script = 'const r = await tools.exec_command({cmd:"git status --short\\ncargo test","workdir":"/w"}); text(r);'
    assert card(None, call("c", "exec", {"input": script}), result("c", "ok")) == \
        "exec · git status --short cargo test · 2 chars"


def test_the_error_field_names_the_exception_not_the_traceback_banner() -> None:
    """A pytest failure's `✗` field is its `E   AssertionError` line, not `FAILURES` or `Traceback`."""
    output = ("=================================== FAILURES ===================================\n"
              "Traceback (most recent call last):\n  File \"a.py\", line 3, in f\nE   AssertionError: assert 3 == 5\n")
    text = card("r", call("c", "Bash", {"command": "pytest -q"}), result("c", output, "r", exit_code=1))
    assert text.endswith("· ✗ E AssertionError: assert 3 == 5")
