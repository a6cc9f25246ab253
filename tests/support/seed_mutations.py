"""Seed 003's rules, each broken on purpose, and the test that notices.

Every row of :data:`MUTATIONS` names a rule of the seed table in ``docs/advisor-host.md``, the
smallest change to the code that breaks it (``old`` replaced by ``new`` in ``path``, where ``old``
occurs exactly once) and the test that fails on that change. A rule whose mutant no test kills is a
rule the suite does not hold, however green it is.

    .venv/bin/python -m tests.support.seed_mutations [--wide] [ID ...]

applies each row (or the named ones) in turn to a scratch copy of the checkout — the checkout
itself is never changed — runs the row's test there (``-x``), and prints ``killed`` or
``SURVIVED`` with the test that failed; it exits 1 when a mutant survives, 2 when a row no longer
applies. ``--wide`` runs the advisor's orchestration, loop and Agents SDK suites instead of the
row's own test, to find every test that notices (slow: minutes per surviving mutant).
``tests/advisor/orchestration/test_seed_numbers.py`` checks on every run of the suite that each row
still applies and names a test that exists.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[2]
_O = "tests/advisor/orchestration/"
_SCENARIOS = _O + "test_seed_scenarios.py::"
_NUMBERS = _O + "test_seed_numbers.py::"
_SDK = "tests/advisor/openai_agents/test_agents_sdk.py::"
WIDE = ("tests/advisor/orchestration", "tests/advisor/consult/test_loop.py", "tests/advisor/openai_agents")
"""The suites ``--wide`` runs."""


class Mutation(NamedTuple):
    """One rule, the change that breaks it, and the test that fails on that change."""

    ident: str
    """A short name for the row (``--wide`` and the positional arguments take it)."""
    rule: str
    """The seed table's row and the rule in it."""
    path: str
    """The file changed, relative to the checkout."""
    old: str
    """The text that holds the rule (it occurs exactly once in the file)."""
    new: str
    """What it becomes in the mutant."""
    test: str
    """The pytest node id of the test that fails on the mutant."""


_RUNNER = "advisor/orchestration/_runner.py"
_HOST = "advisor/orchestration/_host.py"
_PERMISSIONS = "advisor/orchestration/_permissions.py"
_CHANNEL = "advisor/orchestration/_verdict_channel.py"
_BUDGET = "advisor/orchestration/_verdict_budget.py"
_PACKET = "advisor/orchestration/_packet.py"
_LIMITER = "advisor/orchestration/_limiter.py"
_ACTIVATION = "advisor/orchestration/_activation.py"
_RECORDS = "advisor/orchestration/_run_records.py"

MUTATIONS: tuple[Mutation, ...] = (
    Mutation("child-parent", "Visible child session ¶1: a child under the exact requester", _RUNNER,
             'state.tree.register(record.child_id, "advisor", parent=agent.id, consultation=record.id)',
             'state.tree.register(record.child_id, "advisor", parent=record.root, consultation=record.id)',
             _SCENARIOS + "test_visible_child_session__every_consultation_is_a_child_of_the_exact_requester"),
    Mutation("fresh-child-scope", "¶2: a continuation only for the same requester in the same root task",
             "advisor/orchestration/_consultations.py",
             "        if record.requester != requester or record.root != root:", "        if False:",
             _SCENARIOS + "test_fresh_continuable_child__new_unless_the_id_is_passed_back_and_scoped"),
    Mutation("fresh-child-automatic", "¶2: automatic triggers never reuse a consultation", _RUNNER,
             'if request.consultation_id is None or request.trigger != "manual":',
             "if request.consultation_id is None:",
             _SCENARIOS + "test_fresh_continuable_child__an_automatic_trigger_never_continues_a_consultation"),
    Mutation("gate-no-activation", "¶3: a step without a live activation is refused", _ACTIVATION,
             "        if activation is None:\n            self.refusals += 1\n",
             "        if activation is None and False:\n            self.refusals += 1\n",
             _O + "test_activation.py::test_a_child_without_an_activation_is_refused"),
    Mutation("gate-foreign", "¶3: a foreign message in a live turn refuses the step", _ACTIVATION,
             "            if foreign:\n", "            if foreign and False:\n",
             _O + "test_activation.py::test_the_authorised_delivery_is_admitted_and_a_foreign_message_is_not"),
    Mutation("gate-overlap", "¶3: a second live activation on one child is refused", _ACTIVATION,
             'raise StepRefused(f"advisor child {child_id!r} already has a live turn; the overlapping turn '
             'is refused")',
             "pass",
             _O + "test_activation.py::test_an_overlapping_turn_is_refused_and_a_closed_turn_needs_a_new_activation"),
    Mutation("verdict-declared", "Verdict channel ¶1: declared to every child whatever the policy",
             "advisor/orchestration/_child.py",
             "            return (VERDICT_SPEC,)\n        return (VERDICT_SPEC, *own, *extra)",
             "            return ()\n        return (*own, *extra)",
             _SCENARIOS + "test_verdict_channel__declared_to_every_child_whatever_the_tool_policy"),
    Mutation("verdict-completed", "¶2: published only when the run completed", _CHANNEL,
             '        if not completed:\n            return None, "not-completed"',
             '        if False:\n            return None, "not-completed"',
             _SCENARIOS + "test_verdict_channel__a_submission_is_a_candidate_until_a_completed_turn_closes"),
    Mutation("verdict-turn", "¶2: the closing turn is the submitting turn", _CHANNEL,
             "        if closing_turn != candidate.turn:", "        if False:",
             _O + "test_verdict_channel.py::test_every_missing_condition_means_no_verdict"),
    Mutation("verdict-delivery", "¶2: the closed turn claimed exactly the delivery", _CHANNEL,
             "        if delivery is not None and claimed != delivery:", "        if False:",
             _O + "test_verdict_channel.py::test_every_missing_condition_means_no_verdict"),
    Mutation("verdict-conflict", "¶3: a different second submission is refused", _CHANNEL,
             'return "refused", "A different verdict was already submitted for this consultation; the first stands."',
             'return "accepted", "Verdict recorded."',
             _SCENARIOS + "test_verdict_channel__prose_is_never_promoted_and_conflicts_are_refused"),
    Mutation("verdict-round", "¶4: the verdict tool spends no investigation round", "advisor/consult/_loop.py",
             "self.calls_run += 0 if channel else 1", "self.calls_run += 1",
             _SCENARIOS + "test_verdict_channel__the_verdict_spends_no_investigation_round"),
    Mutation("roles-descendants", "Agent-tree coverage: an advisor's descendant is an advisor",
             "advisor/orchestration/_agents.py",
             '            role = "advisor"  # a descendant', "            pass  # a descendant",
             _SCENARIOS + "test_agent_tree_coverage__roles_come_from_the_registered_identity_not_labels"),
    Mutation("advisors-excluded", "Advisor children excluded from every path", "advisor/orchestration/_coverage.py",
             '    if role == "advisor":\n        return False\n    if not trigger_runs',
             '    if role == "advisor":\n        return True\n    if not trigger_runs',
             _O + "test_tables.py::test_advisors_are_excluded_from_every_path"),
    Mutation("default-table", "Default coverage table; the asymmetry (continuous is root-only)",
             "advisor/orchestration/_coverage.py",
             'CoverageRow("continuous", True, False,', 'CoverageRow("continuous", True, True,',
             _SCENARIOS + "test_default_coverage__continuous_review_is_root_only"),
    Mutation("session-overrides", "Completion review; `advisor/policy` v3 overrides of a root's coverage",
             "advisor/orchestration/_coverage.py",
             "        return _switch(overrides.root.get(trigger), row.root)", "        return row.root",
             _SCENARIOS + "test_completion_review_and_session_policy__overrides_follow_on_off_and_narrow_workers"),
    Mutation("own-tracker", "Every eligible agent owns its escalation tracker", _HOST,
             "decision = state.tracker.should_escalate(record.id)",
             "decision = state.tracker.should_escalate(state.tree.root_of(record.id))",
             _SCENARIOS + "test_every_eligible_agent_owns_its_escalation_tracker"),
    Mutation("requester-only", "Results return only to the requester", _RUNNER,
             '    return Steer(agent_id=report.requester, kind="advice"',
             '    return Steer(agent_id="root", kind="advice"',
             _SCENARIOS + "test_every_eligible_agent_owns_its_escalation_tracker"),
    Mutation("manual-blocks", "Wait semantics: manual blocks", "advisor/orchestration/_wait.py",
             'if mutating or trigger in ("manual", "completion") or role != "root":',
             'if mutating or trigger in ("completion",) or role != "root":',
             _O + "test_tables.py::test_wait_table"),
    Mutation("worker-blocks", "Automatic modes; one-shot worker: worker reviews always block",
             "advisor/orchestration/_wait.py",
             'if mutating or trigger in ("manual", "completion") or role != "root":',
             'if mutating or trigger in ("manual", "completion"):',
             _SCENARIOS + "test_wait_semantics__root_follows_its_wait_workers_always_block"),
    Mutation("low-severity-notes", "Low-severity root findings wait as notes for the next step", _RUNNER,
             'if verdict.severity in state.settings.low_severities and plan.agent.role == "root":', "if False:",
             _SCENARIOS + "test_wait_semantics__low_severity_waits_for_the_next_root_step_stale_never_enters"),
    Mutation("inflight", "Two entry points share one in-flight reservation", _RUNNER,
             'if request.trigger != "manual" and key in state.inflight:', "if False:",
             _SCENARIOS + "test_escalation_entry_points__one_reservation_no_duplicate_and_one_retry"),
    Mutation("retry-once", "An automatic transient failure retries once: an outage costs two requests", _RUNNER,
             'if plan.request.trigger != "manual":', 'if plan.request.trigger == "never":',
             _SCENARIOS + "test_escalation_entry_points__one_reservation_no_duplicate_and_one_retry"),
    Mutation("predispatch-free", "Failures before dispatch spend nothing", _LIMITER,
             "        else:\n            self._refund(reservation)\n        while",
             '        else:\n            reservation.state = "released"\n        while',
             _O + "test_limiter.py::test_calls_above_the_cap_queue_fifo"),
    Mutation("limit-concurrency", "Task-tree budget ¶2–3: two at once per root, FIFO", _LIMITER,
             "if len(self._running) < self.max_concurrent and not self._queue:",
             "if len(self._running) < self.max_concurrent + 1 and not self._queue:",
             _O + "test_limiter.py::test_calls_above_the_cap_queue_fifo"),
    Mutation("limit-fifo", "¶3: the queue is first in, first out", _LIMITER,
             "            self._grant(self._queue.popleft())", "            self._grant(self._queue.pop())",
             _O + "test_limiter.py::test_calls_above_the_cap_queue_fifo"),
    Mutation("limit-abort-refunds", "¶3: a run aborted in the queue is refunded", _LIMITER,
             "            self._queue.remove(reservation)\n            self._refund(reservation)",
             '            self._queue.remove(reservation)\n            reservation.state = "released"',
             _O + "test_limiter.py::test_a_queued_call_aborted_before_start_returns_its_reservation"),
    Mutation("limit-start-consumes", "¶3: a started run is consumed even if the model then fails", _LIMITER,
             "        if started:\n            reservation.state = \"released\"",
             "        if False:\n            reservation.state = \"released\"",
             _O + "test_limiter.py::test_a_started_call_consumes_budget_even_if_the_model_fails"),
    Mutation("negative-unlimited", "¶4: any negative budget is unlimited", _LIMITER,
             "return limit >= 0 and used >= limit", "return limit != -1 and used >= limit",
             _NUMBERS + "test_any_negative_budget_is_unlimited"),
    Mutation("zero-disables", "¶4: a budget of 0 disables", _LIMITER,
             "return limit >= 0 and used >= limit", "return limit > 0 and used >= limit",
             _NUMBERS + "test_a_budget_of_0_disables_and_1_allows_one"),
    Mutation("defaults-deltas", "Permission model: defaults + allow − deny", _PERMISSIONS,
             "granted = (base | {t.lower() for t in record.allow_tools}) - {t.lower() for t in record.deny_tools}",
             "granted = (base | {t.lower() for t in record.allow_tools})",
             _O + "test_permissions.py::test_effective_policy_is_defaults_plus_allow_minus_deny"),
    Mutation("global-defaults", "Policy event stores deltas: a global default change reaches untouched tools",
             _PERMISSIONS, "base = {t.lower() for t in settings.default_enabled} if record.inherit_default_tools",
             "base = {t.lower() for t in DEFAULT_ENABLED_TOOLS} if record.inherit_default_tools",
             _O + "test_permissions.py::test_a_global_default_change_reaches_tools_a_session_never_touched"),
    Mutation("ceiling-visible", "Root policy is a ceiling: no escalation through the advisor", _PERMISSIONS,
             "return root_policy if visible is None else root_policy & visible_grants(visible)", "return root_policy",
             _O + "test_permissions.py::test_a_worker_cannot_obtain_bash_through_its_advisor"),
    Mutation("delegation-reserved", "Second layer: delegation and the consult tool are never granted", _PERMISSIONS,
             "    return frozenset(t for t in granted if not reserved(t, settings))", "    return frozenset(granted)",
             _O + "test_permissions.py::test_delegation_and_the_consult_tool_are_never_granted"),
    Mutation("exec-guard", "Enforcement: the execution guard checks again", _PERMISSIONS,
             "        raise ToolNotPermitted(f\"{tool} is not allowed by the root session's advisor policy\")",
             "        pass",
             _SCENARIOS + "test_enforcement__composition_execution_guard_and_pre_step_gate"),
    Mutation("unknown-mutating", "Editing ¶1: an unknown tool is mutating", _PERMISSIONS,
             'effect in ("mutating", "unknown") for t in granted', 'effect in ("mutating",) for t in granted',
             _NUMBERS + "test_an_unknown_tool_makes_the_advisor_an_editing_one"),
    Mutation("policy-legacy-preset", "Runtime-validated, migrated, fallback: legacy presets stay absolute",
             "advisor/orchestration/_policy_records.py",
             'return PolicyRecord(allow_tools=tuple(preset.tools), inherit_default_tools=False), "migrated-preset"',
             'return PolicyRecord(allow_tools=tuple(preset.tools)), "migrated-preset"',
             _O + "test_permissions.py::test_stored_records_are_validated_migrated_or_fall_back"),
    Mutation("policy-live-root", "UI strict endpoints: a policy change validates the live root", _HOST,
             '            if state.tree.get(root_id).role != "root":\n                raise ToolNotPermitted',
             '            if False:\n                raise ToolNotPermitted',
             _SCENARIOS + "test_ui_behavior__snapshots_never_append_and_mutations_validate_the_live_root"),
    Mutation("prior-by-requester", "UI: packet history filtered by requester identity", _RUNNER,
             "prior_advice=list(state.prior.get(agent.id, ()))",
             "prior_advice=[advice for kept in state.prior.values() for advice in kept]",
             _SCENARIOS + "test_ui_behavior__packet_history_filters_by_requester_identity"),
    Mutation("pin-profile", "Consultation pinning: a different profile is refused", "advisor/orchestration/_pinning.py",
             "    if profile is not None and profile != pin.profile:", "    if False:",
             _SCENARIOS + "test_consultation_pinning__reused_refused_for_another_profile_revoked_never_widened"),
    Mutation("pin-explicit", "Consultation pinning: the profile a fresh consultation names is pinned", _RUNNER,
             "        profile = request_profile or state.policy(root).profile or state.settings.profile",
             "        profile = state.policy(root).profile or state.settings.profile",
             _SCENARIOS + "test_consultation_pinning__a_profile_named_on_a_fresh_consultation_is_the_one_pinned"),
    Mutation("watermark-strict", "Review watermark from the fitted packet, strict attribution",
             "advisor/orchestration/_watermarks.py",
             "    result |= {fp for fp in verdict.examined_fingerprints if fp in prints}",
             "    result |= set(verdict.examined_fingerprints)",
             _O + "test_host.py::test_coverage_is_attributed_strictly_from_the_fitted_packet"),
    Mutation("lease-exclusive", "Editing ¶2: a conflicting call is refused while an editing review holds", _HOST,
             "                if refusal is not None:\n                    return ToolAdmission(allowed=False",
             "                if False:\n                    return ToolAdmission(allowed=False",
             _SCENARIOS + "test_editing_while_another_agent_continues__an_editing_advisor_works_alone"),
    Mutation("sdk-guard", "Enforcement: the Agents SDK adapter never runs a refused call",
             "advisor/openai_agents/_adapter.py",
             "        if admission.allowed:\n            self._admitted.add",
             "        if True:\n            self._admitted.add",
             _SDK + "test_a_tool_call_the_host_refuses_is_never_run"),
    Mutation("descendant-guard", "Second layer: an advisor's descendant is an advisor and guarded",
             "advisor/orchestration/_agents.py",
             '            role = "advisor"  # a descendant', "            pass  # a descendant",
             _SCENARIOS + "test_enforcement__an_advisors_descendant_is_an_advisor_and_guarded"),
    Mutation("cap-evidence", "Evidence: 8 requester evidence items", _PACKET,
             '"requester_evidence": 8,', '"requester_evidence": 9,',
             _NUMBERS + "test_a_packet_keeps_8_evidence_items_8_failed_attempts_12_criteria_and_12_tail_entries"),
    Mutation("cap-attempts", "Evidence: 8 failed attempts", _PACKET,
             '"failed_attempts": 8,', '"failed_attempts": 9,',
             _NUMBERS + "test_a_packet_keeps_8_evidence_items_8_failed_attempts_12_criteria_and_12_tail_entries"),
    Mutation("cap-criteria", "Evidence: 12 success criteria", _PACKET,
             'CAPS = {"success_criteria": 12,', 'CAPS = {"success_criteria": 13,',
             _NUMBERS + "test_a_packet_keeps_8_evidence_items_8_failed_attempts_12_criteria_and_12_tail_entries"),
    Mutation("cap-tail", "Evidence: 12 recent-tail entries", _PACKET,
             '"recent_tail": 12}', '"recent_tail": 13}',
             _NUMBERS + "test_a_packet_keeps_8_evidence_items_8_failed_attempts_12_criteria_and_12_tail_entries"),
    Mutation("packet-48kb", "Task-tree budget ¶1; evidence: a packet is fitted to 48 KB",
             "advisor/orchestration/_packet_fit.py",
             "MAX_PACKET_BYTES = 48 * 1024", "MAX_PACKET_BYTES = 64 * 1024",
             _NUMBERS + "test_a_packet_is_fitted_to_48_kb"),
    Mutation("verdict-summary", "Task-tree budget ¶1: verdict summary 1 KB", _BUDGET,
             'FIELD_BYTES = {"summary": 1024,', 'FIELD_BYTES = {"summary": 2048,',
             _NUMBERS + "test_a_verdict_keeps_the_seeds_field_budgets"),
    Mutation("verdict-diagnosis", "Task-tree budget ¶1: verdict diagnosis 6 KB", _BUDGET,
             '"diagnosis": 6144', '"diagnosis": 6500', _NUMBERS + "test_a_verdict_keeps_the_seeds_field_budgets"),
    Mutation("verdict-action", "Task-tree budget ¶1: recommended action 2 KB", _BUDGET,
             '"recommended_action": 2048', '"recommended_action": 2200',
             _NUMBERS + "test_a_verdict_keeps_the_seeds_field_budgets"),
    Mutation("verdict-evidence", "Task-tree budget ¶1: 512 B per evidence reference", _BUDGET,
             '"evidence": 512', '"evidence": 600', _NUMBERS + "test_a_verdict_keeps_the_seeds_field_budgets"),
    Mutation("verdict-actions", "Task-tree budget ¶1: 1 KB per action", _BUDGET,
             '"actions": 1024', '"actions": 1100', _NUMBERS + "test_a_verdict_keeps_the_seeds_field_budgets"),
    Mutation("verdict-plan", "Task-tree budget ¶1: 4 KB of validation plan", _BUDGET,
             "VALIDATION_PLAN_BYTES = 4096", "VALIDATION_PLAN_BYTES = 8192",
             _NUMBERS + "test_a_verdict_keeps_the_seeds_field_budgets"),
    Mutation("verdict-total", "Task-tree budget ¶1: 16 KB of verdict in all", _BUDGET,
             "TOTAL_BYTES = 16384", "TOTAL_BYTES = 32768", _NUMBERS + "test_a_verdict_keeps_the_seeds_field_budgets"),
    Mutation("stale-epoch", "Evidence and stale results: a background review that raced an edit is stale", _RUNNER,
             '        if fresh == "stale" and not plan.blocking:', "        if False:",
             _SCENARIOS + "test_evidence_and_stale_results__a_background_review_that_raced_an_edit_is_stale"),
    Mutation("verification-independent", "Verification obligations are independent of the advisor budgets", _HOST,
             "            notice = state.tracker.stop(agent_id)",
             "            notice = state.tracker.stop(agent_id) if state.settings.max_advisor_consults_per_task "
             "else None",
             _SCENARIOS + "test_verification_obligations__independent_of_the_advisor_budgets"),
    Mutation("packet-floor", "User-task sequence floor", _HOST,
             "                activity.new_task(tick)\n", "                pass\n",
             _SCENARIOS + "test_packet_floor__activity_before_the_current_user_task_is_excluded"),
    Mutation("delivery-sticky", "Versioned `advisor/run` records: a delivery is never erased", _RECORDS,
             "            if previous is not None and previous.event in _STICKY and row.event not in _STICKY:",
             "            if False:",
             _SCENARIOS + "test_run_records__keyed_by_turn_and_nonce_and_a_delivery_is_never_erased"),
    Mutation("runs-per-session", "Host sessions: run records are the host session's own", _RECORDS,
             "            if row.session != session:\n                continue", "            pass",
             _SCENARIOS + "test_run_records__keyed_by_turn_and_nonce_and_a_delivery_is_never_erased"),
    Mutation("policies-per-session", "Host sessions: policies are the host session's own", _RECORDS,
             "isinstance(row, PolicyRow) and row.session == session}", "isinstance(row, PolicyRow)}",
             _SCENARIOS + "test_run_records__a_new_host_inherits_nothing_from_another_session_with_the_same_root_name"),
    Mutation("restore-no-verdict", "¶3 restart: a turn without a verdict does not lose the conversation", _HOST,
             "len(record.history) != len(found.log_ids)", "len(record.history) != found.turns",
             _SCENARIOS + "test_not_an_open_prompt_endpoint__a_turn_without_a_verdict_does_not_lose_the_conversation"),
    Mutation("cleanup-any-error", "Limiter: any error releases what the turn held", _RUNNER,
             "except Exception as error:  # a bug", "except ZeroDivisionError as error:  # a bug",
             _SCENARIOS + "test_a_turn_that_breaks_off_releases_everything_it_held"),
    Mutation("consult-omitted", "Packets omit `consult_advisor`", _PACKET,
             'TRANSPORT_TOOLS = frozenset({"consult_advisor"})', "TRANSPORT_TOOLS = frozenset()",
             _SCENARIOS + "test_case_packets_omit_consult_advisor_and_keep_prior_advice"),
)
"""Every rule, the mutant that breaks it and the test that kills the mutant."""


def scratch_copy(into: Path) -> Path:
    """The checkout's tracked and untracked (not ignored) files, copied under ``into``."""
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout.split("\0")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            target = into / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return into


def applied(tree: Path, mutation: Mutation) -> str:
    """Write the mutant into ``tree``; return the original text (raises when the row no longer applies)."""
    target = tree / mutation.path
    text = target.read_text(encoding="utf-8")
    if text.count(mutation.old) != 1:
        raise ValueError(f"{mutation.ident}: {mutation.old!r} occurs {text.count(mutation.old)} times in "
                         f"{mutation.path}")
    target.write_text(text.replace(mutation.old, mutation.new, 1), encoding="utf-8")
    return text


def verdict(tree: Path, mutation: Mutation, *, wide: bool) -> tuple[bool, str]:
    """Whether a test fails on the mutant, and the first one that did (or pytest's last line)."""
    original = applied(tree, mutation)
    try:
        # One test runs in this process's child alone; the wide suites on one worker (the machine is shared).
        spread = ("-n", "1", *WIDE) if wide else ("-p", "no:xdist", mutation.test)
        done = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *spread],
                              cwd=tree, capture_output=True, text=True)
    finally:
        (tree / mutation.path).write_text(original, encoding="utf-8")
    failed = [line for line in done.stdout.splitlines() if line.startswith(("FAILED", "ERROR"))]
    lines = done.stdout.strip().splitlines()
    # -x under xdist reports an interrupted session (2), so a failed test is what counts.
    return bool(failed) or done.returncode == 1, failed[0] if failed else (
        lines[-1] if lines else done.stderr[-300:])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("idents", nargs="*", help="only these rows")
    parser.add_argument("--wide", action="store_true", help="run the advisor suites, not the row's own test")
    arguments = parser.parse_args()
    rows = [m for m in MUTATIONS if not arguments.idents or m.ident in arguments.idents]
    survived = 0
    with tempfile.TemporaryDirectory(prefix="seed-mutations-") as scratch:
        tree = scratch_copy(Path(scratch))
        for mutation in rows:
            try:
                killed, detail = verdict(tree, mutation, wide=arguments.wide)
            except ValueError as error:
                sys.stdout.write(f"NOT APPLIED {error}\n")
                return 2
            survived += not killed
            sys.stdout.write(f"{'killed' if killed else 'SURVIVED':8} {mutation.ident:26} {detail}\n")
            sys.stdout.flush()
    return 1 if survived else 0


if __name__ == "__main__":
    sys.exit(main())
