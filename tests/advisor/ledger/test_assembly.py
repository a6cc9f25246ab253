"""How a request is assembled from a session: the reference cases (rpiv-cases LEDGER, SUM, INV, EXP)
and what witness adds — roles, the triggering reasoning only, withheld entries, sub-agents, evidence."""

from __future__ import annotations

from typing import Any

from advisor.gateway import GATEWAY_TRANSCRIPT_PROMPT
from advisor.ledger import Ledger, LedgerSettings, catalogue_message, first_sentence
from advisor.prompt import ADVISOR_SYSTEM_PROMPT, AdvisorPrompt
from obligations import AgentSpawned, Compaction, Event, HostMessage, ToolCatalogue, ToolInfo
from tests.advisor.ledger.builders import advice, ask, call, compaction, result, round_, say, user

INSTRUCTION = "Advise the executor on the situation above."
NONE_OPEN = "Verification obligations (witness): none open."


def prompt(events: list[Event], *, question: str | None = None, **options: Any) -> AdvisorPrompt:
    """The request for a consultation at the end of ``events``."""
    return Ledger(**options).extend(events).prompt(question=question)


def texts(p: AdvisorPrompt) -> list[tuple[str, str]]:
    """(role, text) of each message."""
    return [(m.role, m.text) for m in p.messages]


def closing(text: str) -> str:
    """A last message's text without its obligations and instruction."""
    return text[:text.index(NONE_OPEN)].rstrip("\n")


FIRST = [user("task", "e1"), call("c1", "read", {"path": "a.ts"}, "e2"), result("c1", "body", "e3"),
         *ask("a1", "q1", "e4")]


def test_in_flight_consultation_shows_the_newest_round_verbatim_and_the_question() -> None:
    """LED-1: one user message: the log, the round verbatim, the question, and it ends on the instruction."""
    p = prompt(FIRST)
    [(role, text)] = texts(p)
    assert role == "user" and p.stable_prefix_messages == 0
    assert closing(text) == ("<executor_log>\n[user] task\n</executor_log>\n\nMost recent work, verbatim:\n"
                             '#e3 read({"path":"a.ts"})\n→ ok: body\n\nExecutor\'s question: q1')
    assert text.rstrip().endswith("citing card ids; do not invent executor actions.") and INSTRUCTION in text


def test_without_a_tail_every_round_is_a_card() -> None:
    """LED-2: tail 0: the round is a card in the log and its result's text is absent."""
    [(_, text)] = texts(prompt(FIRST, settings=LedgerSettings(tail_tool_calls=0)))
    assert closing(text) == ("<executor_log>\n[user] task\n#e3 read · a.ts · 4 chars\n</executor_log>\n\n"
                             "Executor's question: q1")
    assert "body" not in text


def test_a_completed_consultation_is_a_question_and_the_only_assistant_turn() -> None:
    """LED-3: the closed segment, its advice as the assistant turn, then the open segment with no tail."""
    p = prompt([*FIRST, advice("a1", "Severity: none\nOK", "e5"), user("next", "e6"), *ask("a2", "q2", "e7")])
    (r0, m0), (r1, m1), (r2, m2) = texts(p)
    assert (r0, r1, r2) == ("user", "assistant", "user") and p.stable_prefix_messages == 2
    assert m0 == ("<executor_log>\n[user] task\n#e3 read · a.ts · 4 chars\n</executor_log>\n\n"
                  "Executor's question: q1")
    assert m1 == "Severity: none\nOK"
    assert closing(m2) == "<executor_log>\n[user] next\n</executor_log>\n\nExecutor's question: q2"


def test_each_stable_prefix_extends_the_previous_one() -> None:
    """LED-4: over four consultations each request's stable prefix starts with the previous one, byte for byte."""
    ledger = Ledger()
    ledger.add(user("build the thing", "u0"))
    previous: list[str] = []
    for k in range(4):
        ledger.extend([*round_(f"r{k}", "read", {"path": f"src/{k}.ts"}, "body", f"res{k}"),
                       *ask(f"a{k}", f"question {k}", f"q{k}")])
        p = ledger.prompt()
        stable = [m.model_dump_json() for m in p.messages[:p.stable_prefix_messages]]
        assert stable[:len(previous)] == previous
        previous = stable
        ledger.extend([advice(f"a{k}", f"advice {k}", f"v{k}"), user(f"follow-up {k}", f"f{k}")])
    assert "advice 0" in "".join(previous) and "question 0" in "".join(previous)


def test_the_tail_stays_out_of_the_stable_prefix() -> None:
    """LED-5: a failing run's output is in the request but not in its stable prefix."""
    p = prompt([user("task", "u"), *round_("c", "bash", {"command": "npm test"}, "FAILED here", "r", error=True),
                *ask("a", "ok?", "q")], host="pi")
    stable = "".join(m.text for m in p.messages[:p.stable_prefix_messages])
    assert "FAILED here" not in stable and "FAILED here" in p.messages[-1].text


def test_failed_skipped_or_aborted_consultations_give_no_advice() -> None:
    """LED-6: a failed consultation's text never appears; its question does, and no assistant turn is made."""
    failures: list[tuple[str, dict[str, Any]]] = [("FAILURE TEXT", {"error": True}),
                                                  ("FAILURE TEXT", {"error_code": "interrupted"}), ("", {})]
    for output, failure in failures:
        p = prompt([user("task", "u"), *ask("a1", "the question", "q1"), advice("a1", output, "v1", **failure),
                    *ask("a2", "again", "q2")])
        assert "FAILURE TEXT" not in str(texts(p)) and "the question" in p.messages[0].text
        assert [m.role for m in p.messages] == ["user", "user"]


def test_only_past_advice_takes_the_assistant_role() -> None:
    """LED-7, LED-8: one assistant turn, holding the advice and nothing of the executor's work."""
    p = prompt([user("task", "u"), *round_("c", "read", {"path": "a.ts"}, "body", "r"), *ask("a1", "first", "q1"),
                advice("a1", "PRIOR ADVICE", "v1"), user("next", "n"), *ask("a2", "second", "q2")])
    assistant = [m.text for m in p.messages if m.role == "assistant"]
    assert assistant == ["PRIOR ADVICE"] and {m.role for m in p.messages} == {"user", "assistant"}


def test_the_request_ends_on_the_instruction_even_with_a_call_running() -> None:
    """LED-9: a read still running when the advisor is asked: the last message is a user turn with the instruction."""
    p = prompt([user("task", "u"), call("c1", "read", {"path": "x"}), *ask("a1", "now?", "q")])
    last = p.messages[-1]
    assert last.role == "user" and last.text.rstrip().endswith("do not invent executor actions.")
    assert 'read({"path":"x"})\n→ running' in last.text


def test_the_in_flight_question_is_in_the_request() -> None:
    """LED-10: the executor's prose beside the advisor call is the question."""
    last = prompt([user("task"), *ask("a", "SHOULD I REFACTOR?")]).messages[-1]
    assert "Executor's question: SHOULD I REFACTOR?" in last.text


def test_the_tail_holds_the_newest_rounds_only() -> None:
    """LED-11: five reads, tail 2: the last two bodies appear, the first is a card without its body."""
    events: list[Event] = [user("task", "u")]
    for i in range(5):
        events += round_(f"c{i}", "read", {"path": f"f{i}.ts"}, f"UNIQUE_BODY_{i}", f"r{i}")
    text = prompt([*events, *ask("a", "q", "q")]).messages[-1].text
    assert "UNIQUE_BODY_4" in text and "UNIQUE_BODY_3" in text and "f0.ts" in text
    assert "UNIQUE_BODY_0" not in text and "UNIQUE_BODY_2" not in text


def test_user_shell_runs_are_shown_and_runs_kept_out_of_context_are_withheld() -> None:
    """LED-13, LED-14: `!ls -la` is a `[user shell]` card with its exit; a `!!` run (excluded) is not shown at all."""
    p = prompt([user("task", "u"), call("s1", "bash", {"command": "ls -la"}, user_shell=True),
                result("s1", "files", "B", exit_code=0),
                call("s2", "bash", {"command": "cat SECRET"}, user_shell=True, excluded=True),
                result("s2", "SECRET", "C", exit_code=0),
                call("s3", "bash", {"command": "make"}, user_shell=True), result("s3", "", "D"),
                *ask("a", "q", "q")])
    text = p.messages[-1].text
    assert "#B [user shell] ls -la · exit 0 · 5 chars" in text and "#D [user shell] make · exit ?" in text
    assert "SECRET" not in text


def test_pasted_images_are_named_never_embedded() -> None:
    """LED-16: a pasted image is reported as unviewable, and no base64 reaches the request."""
    text = prompt([user("look at this", "u", images=1), *ask("a", "q")]).messages[-1].text
    assert "[user] look at this" in text and "1 image(s) the user pasted" in text


def test_labels_and_thinking_only_for_the_triggering_step() -> None:
    """LED-17, LED-18 and the upstream leak fixed: `[executor]` prose; thinking only of the step that asks."""
    p = prompt([user("task", "u"), say("looking", "s1", reasoning="EARLY THOUGHT"),
                *round_("c", "read", {"path": "a"}, "b", "r"), say("asking", "s2", reasoning="PAST ASK THOUGHT"),
                call("a1", "advisor"), advice("a1", "Severity: nit\nfine", "v"),
                say("now", "s3", reasoning="NOW THOUGHT"), call("a2", "advisor")])
    everything = str(texts(p))
    assert "[executor] looking" in p.messages[0].text and "EARLY THOUGHT" not in everything
    assert "PAST ASK THOUGHT" not in everything
    assert "[executor thinking] NOW THOUGHT" in p.messages[-1].text
    later = prompt([user("task"), say("first", reasoning="OLD THOUGHT"), say("second")], question="q")
    assert "OLD THOUGHT" not in later.messages[-1].text


def test_a_parallel_call_beside_the_advisor_gets_its_card_and_the_prose_is_the_question() -> None:
    """LED-19: `read` and `advisor` in one step: the read is shown (running, then its card) and the prose asks."""
    events: list[Event] = [user("task", "u"), say("check a then ask", "s"), call("c", "read", {"path": "a"}),
                           call("a1", "advisor")]
    running = prompt(events).messages[-1].text
    assert "Executor's question: check a then ask" in running and "[executor] check a" not in running
    done = prompt([*events, result("c", "A", "r"), advice("a1", "Severity: none", "v"), *ask("a2", "more?", "q2")])
    assert "#r read · a · 1 chars" in done.messages[0].text


def test_executor_activity_never_takes_the_assistant_role() -> None:
    """Every executor step — prose, calls, results — is inside a user turn's `<executor_log>`."""
    p = prompt([user("u1"), say("I will edit"), *round_("c", "edit", {"path": "a", "old": "x", "new": "y"}, "ok"),
                say("done")], question="Is it done?")
    assert [m.role for m in p.messages] == ["user"] and "[executor] I will edit" in p.messages[0].text


def test_sub_agents_work_is_not_shown_but_their_delegation_is() -> None:
    """A sub-agent's own calls are left out; the delegation call's card (with its result) is in the log."""
    p = prompt([user("task", "u"), call("t", "Agent", {"description": "review"}, "d"),
                AgentSpawned(agent_id="w1", parent_id="root"),
                call("w", "Bash", {"command": "rm -rf SUBAGENT_ONLY"}, agent_id="w1"),
                result("w", "gone", agent_id="w1"), result("t", "review done", "t1")], question="ok?")
    text = p.messages[-1].text
    assert "SUBAGENT_ONLY" not in text and "Agent({\"description\":\"review\"})" in text


def test_a_compaction_starts_the_request_afresh_with_the_users_words_first() -> None:
    """SUM-1, SUM-2, SUM-5: after a compaction the user's words from the replaced span come first, verbatim, in
    a message of their own; the log begins with the summary labelled as the host's paraphrase, then what
    followed; what the summary replaced is left out (still expandable)."""
    ledger = Ledger(host="pi").extend([
        user("ORIGINAL REQUEST the summary paraphrases", "u1"), say("old raw assistant detail", "s1"),
        *round_("c", "read", {"path": "a.ts"}, "old detail", "r"), compaction("pi's paraphrase", "k"),
        user("later request", "u2"), say("post-compaction assistant", "s2"), *ask("a", "q", "q")])
    p = ledger.prompt()
    catalogue, prior, last = (m.text for m in p.messages)
    assert catalogue.startswith("## Executor's tool catalogue")
    assert prior.startswith("The user's own words that the compaction summary in the log replaced") and prior.endswith(
        "[user] ORIGINAL REQUEST the summary paraphrases")
    assert last.startswith("<executor_log>\n[compaction summary — Pi's paraphrase, not the user's words]\n"
                           "pi's paraphrase\n\n[user] later request\n[executor] post-compaction assistant")
    assert "old raw assistant detail" not in last and "#r read" not in last
    assert ledger.expand("r") == 'read({"path":"a.ts"})\n→ ok:\nold detail'


def test_pi_keeps_what_the_host_kept_after_its_summary() -> None:
    """SUM-6: a Pi compaction whose `firstKeptEntryId` is an earlier entry keeps that entry and what follows, after
    the summary; only the user's words before it are restated."""
    p = prompt([user("FIRST", "u1"), *round_("c1", "read", {"path": "a"}, "A", "r1"), user("KEPT", "u2"),
                *round_("c2", "read", {"path": "b"}, "B", "r2"), Compaction(summary="S", entry_id="k", first_kept="u2"),
                user("after", "u3")], question="q", host="pi", settings=LedgerSettings(tail_tool_calls=0))
    prior, last = p.messages[1].text, p.messages[2].text
    assert "[user] FIRST" in prior and "KEPT" not in prior
    assert last.startswith("<executor_log>\n[compaction summary — Pi's paraphrase, not the user's words]\nS\n\n"
                           "[user] KEPT\n#r2 read · b · 1 chars\n[user] after")
    assert "#r1" not in last


def test_user_words_survive_every_compaction() -> None:
    """Two compactions: the words from before each are all restated, in order, and nothing the user said is lost."""
    p = prompt([user("one", "u1"), compaction("S1", "k1"), user("two", "u2"), compaction("S2", "k2"),
                user("three", "u3")], question="q")
    assert p.messages[-2].text.endswith("[user] one\n[user] two") and "[user] three" in p.messages[-1].text


def test_branch_summaries_and_empty_summaries() -> None:
    """SUM-3, SUM-4: a branch summary is an entry of the log, labelled as such; a blank summary adds no block."""
    text = prompt([user("task"), compaction("S", "b", kind="branch"), compaction("   ", "k", kind="branch")],
                  question="q", host="pi").messages[-1].text
    assert "[user] task\n\n[branch summary — Pi's paraphrase, not the user's words]\nS\n</executor_log>" in text
    assert text.count("summary —") == 1


def test_catalogue_lists_names_and_first_sentences_sorted_without_schemas() -> None:
    """INV-1..3, INV-6..8: `- a — Does A` before `- b — Does B.`, first sentence only, long ones cut, no message
    for no tools, and Pi's own tools as Pi describes them."""
    text = catalogue_message([ToolInfo(name="b", description="Does B. Second sentence ignored."),
                              ToolInfo(name="a", description="Does A")])
    assert text == "## Executor's tool catalogue (names and purpose only)\n\n- a — Does A\n- b — Does B."
    assert catalogue_message([]) is None
    assert len(first_sentence("word " * 200 + ".")) < 300 and first_sentence("v1.2 is out. Yes") == "v1.2 is out."
    pi = Ledger(host="pi").prompt(question="q").messages[0].text
    assert "- read — Read the contents of a file." in pi and "- bash — Execute a bash command" in pi


def test_tools_a_session_declares_are_listed_where_they_appear() -> None:
    """A recorded catalogue (Codex dynamic tools) adds a block naming tools the built-in catalogue lacks."""
    p = prompt([ToolCatalogue(tools=(ToolInfo(name="automation_update", description="Create automations. More."),
                                     ToolInfo(name="exec_command", description="dup"))), user("go")],
               question="q", host="codex")
    assert "[tools the host declared in this session]\n- automation_update — Create automations." in \
        p.messages[-1].text
    assert "exec_command — dup" not in p.messages[-1].text


def test_expand_gives_the_verbatim_text_behind_cards() -> None:
    """EXP-1..4, EXP-7, EXP-8: users, results, user shell runs and summaries expand; unknown ids do not."""
    ledger = Ledger().extend([
        user("user words", "u"), *round_("c", "read", {"path": "a"}, "the full tool body", "r1"),
        call("s", "bash", {"command": "make"}, user_shell=True), result("s", "build log", "b", exit_code=2),
        say("T", "s1"), *round_("d", "read", {"path": "a"}, "x", "r2"), compaction("note body", "k")])
    assert ledger.expand("u") == "user words"
    assert ledger.expand("#r1") == 'read({"path":"a"})\n→ ok:\nthe full tool body'
    assert ledger.expand("b") == "$ make\nexit 2\nbuild log"
    assert ledger.expand("s1") == "T" and ledger.expand("k") == "note body"
    assert ledger.expand("missing") is None


def test_long_user_messages_keep_both_ends_and_say_how_to_expand() -> None:
    """CLIP-4: 60,005 characters, limit 20,000: 9,999 kept each side, `40007 chars omitted`, `advisor_expand("E")`."""
    words = "A" * 30_000 + "ZEBRA" + "B" * 30_000
    ledger = Ledger().extend([user(words, "E")])
    text = ledger.prompt(question="q").messages[-1].text
    assert '[… 40007 chars omitted — advisor_expand("E") for the full text …]' in text and "ZEBRA" not in text
    assert ledger.expand("E") == words


def test_everything_shown_is_redacted() -> None:
    """Credentials in user words, commands, outputs and advice never reach the request or `advisor_expand`."""
    key = "sk-proj-Q2x8fP0aL9mT4rZ7vB1nK6cH3yW5dJ0s"
    ledger = Ledger().extend([user(f"use {key}", "u"),
                              *round_("c", "Bash", {"command": f"OPENAI_API_KEY={key} pytest"}, f"echo {key}", "r"),
                              *ask("a", f"is {key} ok", "q"), advice("a", f"rotate {key}", "v"),
                              *round_("d", "Bash", {"command": "env"}, f"KEY={key}", "r2")])
    sent = str(texts(ledger.prompt(question=f"and {key}?")))
    assert key not in sent and "[REDACTED:sk-api-key]" in sent
    assert key not in (ledger.expand("r") or "") and key not in (ledger.expand("u") or "")


def test_extension_messages_are_shown_only_when_the_user_saw_them() -> None:
    """LED-12: a displayed extension message is `[extension message: note] …`; a hidden one never appears."""
    p = prompt([user("task"), HostMessage(kind="extension", name="note", text="VISIBLE NOTE"),
                HostMessage(kind="extension", name="secret", text="HIDDEN NOTE", hidden=True)], question="q")
    assert "[extension message: note] VISIBLE NOTE" in p.messages[-1].text and "HIDDEN NOTE" not in str(texts(p))


def test_hook_feedback_is_host_context_never_the_users_words() -> None:
    """A Stop hook's block reason (hidden from the user in Claude Code) is shown, labelled as the host's."""
    p = prompt([user("task", "u"), say("done", "s"),
                HostMessage(kind="hook-feedback", text="Verification obligations are open", hidden=True, entry_id="h")],
               question="q")
    text = p.messages[-1].text
    assert "#h" not in text and "[host: hook feedback, not the user's words] Verification obligations are open" in text
    assert "[user] Verification" not in text


def test_a_delivered_completion_review_is_replayed_as_past_advice() -> None:
    """REV-14: a review's advice is an assistant turn after the review marker; the extension label never shows."""
    p = prompt([user("fix the bug", "u"), say("Done: the fix is in a.ts.", "s"),
                HostMessage(kind="extension", name="advisor-review", text="Severity: concern\nCheck the null path."),
                user("ok, continue", "n")], question="q")
    (r0, m0), (r1, m1), (r2, _) = texts(p)
    assert (r0, r1, r2) == ("user", "assistant", "user") and m1 == "Severity: concern\nCheck the null path."
    assert m0.endswith("Completion review: the executor had just delivered the answer above.")
    assert "[extension message: advisor-review]" not in str(texts(p))


def test_a_review_request_ends_on_the_review_instruction() -> None:
    """A completion review asks the advisor to review the executor's last answer, with git_diff when files changed."""
    ledger = Ledger().extend([user("fix it"), *round_("c", "edit", {"path": "a", "old": "x", "new": "y"}, "ok", "r"),
                              say("Fixed in a.")])
    last = ledger.prompt(review=True).messages[-1].text
    assert "[executor] Fixed in a." in last and last.rstrip().endswith("`Severity: none` means the answer stands.")


def test_the_closing_message_lists_the_open_obligations_with_their_cards() -> None:
    """A failing check, then a masked re-run: the instruction lists the obligation, its failing card and why the
    re-run did not count; after a genuine pass it is gone."""
    failing = [user("make the tests pass", "u"),
               *round_("c1", "Bash", {"command": "pytest -q"}, "=== 1 failed in 0.1s ===", "r1", exit_code=1),
               *round_("c2", "Bash", {"command": "pytest -q; echo done"}, "1 passed\ndone", "r2", exit_code=0)]
    text = prompt(failing, question="done?").messages[-1].text
    assert "- `pytest -q` (test): failed, last at #r1" in text and "the re-run at #r2 did not count" in text
    passed = prompt([*failing, *round_("c3", "Bash", {"command": "pytest -q"}, "1 passed", "r3", exit_code=0)],
                    question="done?").messages[-1].text
    assert NONE_OPEN in passed and "#r3 Bash" in passed


def test_obligations_an_earlier_task_left_are_listed_until_genuinely_passed() -> None:
    """A check that failed in an earlier task is still listed after the user moves on, until a genuine pass."""
    earlier = [user("task one"), *round_("c1", "Bash", {"command": "npm test"}, "fail", "r1", exit_code=1),
               user("task two")]
    assert "[left unresolved when the user moved on to another task]" in prompt(earlier, question="q").messages[-1].text
    later = prompt([*earlier, *round_("c2", "Bash", {"command": "npm test"}, "ok", "r2", exit_code=0)], question="q")
    assert NONE_OPEN in later.messages[-1].text


def test_a_sub_agents_own_file_shows_its_own_work() -> None:
    """A session whose events all belong to one agent that was never announced is that agent's session."""
    p = prompt([user("review this", agent_id="worker-7"), say("looking", agent_id="worker-7")], question="q")
    assert "[user] review this" in p.messages[-1].text and "[executor] looking" in p.messages[-1].text


def test_one_line_blocks_are_on_consecutive_lines_and_a_longer_block_is_set_apart() -> None:
    """Cards and one-line prose follow each other line by line; a block of several lines has a blank line
    before and after it, so where it ends is never in doubt."""
    p = prompt([user("task", "u"), *round_("c1", "read", {"path": "a"}, "A", "r1"), say("line one\nline two", "s"),
                *round_("c2", "read", {"path": "b"}, "B", "r2"), *round_("c3", "read", {"path": "c"}, "C", "r3")],
               question="q", settings=LedgerSettings(tail_tool_calls=0))
    assert ("[user] task\n#r1 read · a · 1 chars\n\n[executor] line one\nline two\n\n#r2 read · b · 1 chars\n"
            "#r3 read · c · 1 chars\n</executor_log>") in p.messages[-1].text


def test_the_system_prompt_explains_every_line_form_the_ledger_writes() -> None:
    """Each label, card form and marker a request can hold is named in the system prompt; it and the gateway's
    transcript prompt give the rule that a card shows its status only for an error or a call still running."""
    forms = ["<executor_log>", "[user]", "[executor]", "[user shell]", "[executor thinking]", "[host: …]",
             "[extension message: …]", "#id tool · argument · status · size · ✗ first error line", "advisor_expand",
             "Compaction summaries", "restated", "masked", "closing message", "Assistant turns"]
    assert [form for form in forms if form not in ADVISOR_SYSTEM_PROMPT] == []
    for system in (ADVISOR_SYSTEM_PROMPT, GATEWAY_TRANSCRIPT_PROMPT):
        assert "status is shown only when it is error or running" in " ".join(system.split())
