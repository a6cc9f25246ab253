"""The verdict channel: a submission is a candidate, published only by its own closed, completed turn."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, rule

from advisor.orchestration import TOTAL_BYTES, VerdictChannel, fit_verdict
from advisor.orchestration._verdict_budget import FIELD_BYTES, ITEM_BYTES, LIST_ITEMS, VALIDATION_PLAN_BYTES

VERDICT = {"severity": "concern", "summary": "The retry loop never ends."}


def test_a_candidate_is_published_only_when_its_turn_closes_after_it() -> None:
    """Completed run, closing boundary at or after the submission, same turn, the delivered message: published."""
    channel = VerdictChannel()
    channel.open("c1", "advisor-1", 1)
    assert channel.submit("advisor-1", VERDICT, turn=1, seq=5)[0] == "accepted"
    verdict, why = channel.reconcile("advisor-1", completed=True, closing_turn=1, closing_seq=6, claimed="d",
                                     delivery="d")
    assert why == "published" and verdict is not None and verdict.summary == VERDICT["summary"]


def test_every_missing_condition_means_no_verdict() -> None:
    """Not completed, another turn, a boundary before the submission, another delivery: no verdict each time."""
    cases = [({"completed": False, "closing_turn": 1, "closing_seq": 6}, "not-completed"),
             ({"completed": True, "closing_turn": 2, "closing_seq": 6}, "wrong-turn"),
             ({"completed": True, "closing_turn": 1, "closing_seq": 4}, "before-submission"),
             ({"completed": True, "closing_turn": 1, "closing_seq": 6, "claimed": "other", "delivery": "d"},
              "wrong-delivery")]
    for arguments, reason in cases:
        channel = VerdictChannel()
        channel.open("c1", "advisor-1", 1)
        channel.submit("advisor-1", VERDICT, turn=1, seq=5)
        assert channel.reconcile("advisor-1", **arguments) == (None, reason)  # type: ignore[arg-type]


def test_prose_alone_is_no_verdict() -> None:
    """A turn that closes without a submission publishes nothing, whatever its text said."""
    channel = VerdictChannel()
    channel.open("c1", "advisor-1", 1)
    assert channel.reconcile("advisor-1", completed=True, closing_turn=1, closing_seq=9) == (None, "no-candidate")


def test_conflicts_are_refused_repeats_are_duplicates_and_late_submissions_refused() -> None:
    """The first submission stands; an identical one is a duplicate; after the close nothing is accepted."""
    channel = VerdictChannel()
    channel.open("c1", "advisor-1", 1)
    assert channel.submit("advisor-1", VERDICT, turn=1, seq=1)[0] == "accepted"
    assert channel.submit("advisor-1", dict(VERDICT), turn=1, seq=2)[0] == "duplicate"
    assert channel.submit("advisor-1", {**VERDICT, "severity": "none"}, turn=1, seq=3)[0] == "refused"
    verdict, _ = channel.reconcile("advisor-1", completed=True, closing_turn=1, closing_seq=4)
    assert verdict is not None and verdict.severity == "concern"
    assert channel.submit("advisor-1", VERDICT, turn=1, seq=5)[0] == "refused"


def test_an_invalid_submission_is_refused_and_the_advisor_may_try_again() -> None:
    """A verdict without a summary or with an unknown severity is refused without becoming a candidate."""
    channel = VerdictChannel()
    channel.open("c1", "advisor-1", 1)
    assert channel.submit("advisor-1", {"severity": "fine", "summary": "x"}, turn=1, seq=1)[0] == "refused"
    assert channel.submit("advisor-1", {"severity": "none", "summary": "  "}, turn=1, seq=2)[0] == "refused"
    assert channel.submit("advisor-1", VERDICT, turn=1, seq=3)[0] == "accepted"


def test_each_turn_gets_a_fresh_collector() -> None:
    """A new turn's collector does not carry the previous turn's candidate."""
    channel = VerdictChannel()
    first = channel.open("c1", "advisor-1", 1)
    channel.submit("advisor-1", VERDICT, turn=1, seq=1)
    second = channel.open("c1", "advisor-1", 2)
    assert first.id != second.id and second.candidate is None
    assert channel.submit("advisor-1", VERDICT, turn=1, seq=2)[0] == "refused"  # turn 1 is over


class ChannelMachine(RuleBasedStateMachine):
    """No interleaving of submissions and turn events publishes a verdict outside the rule."""

    def __init__(self) -> None:
        super().__init__()
        self.channel = VerdictChannel()
        self.seq = 0
        self.turn = 0
        self.open = False
        self.candidate: tuple[int, int, str] | None = None  # turn, seq, severity

    @rule()
    def open_turn(self) -> None:
        self.turn += 1
        self.channel.open("c", "advisor", self.turn)
        self.open, self.candidate = True, None

    @rule(severity=st.sampled_from(["none", "concern"]), turn_offset=st.integers(-1, 0))
    def submit(self, severity: str, turn_offset: int) -> None:
        self.seq += 1
        turn = self.turn + turn_offset
        status, _ = self.channel.submit("advisor", {"severity": severity, "summary": "s"}, turn=turn, seq=self.seq)
        if not self.open or turn != self.turn:
            assert status == "refused"
        elif self.candidate is None:
            assert status == "accepted"
            self.candidate = (turn, self.seq, severity)
        else:
            assert status == ("duplicate" if self.candidate[2] == severity else "refused")

    @rule(completed=st.booleans(), turn_offset=st.integers(-1, 1), seq_offset=st.integers(-2, 1))
    def close(self, completed: bool, turn_offset: int, seq_offset: int) -> None:
        self.seq += 1
        closing_turn, closing_seq = self.turn + turn_offset, self.seq + seq_offset
        verdict, _ = self.channel.reconcile("advisor", completed=completed, closing_turn=closing_turn,
                                            closing_seq=closing_seq)
        expected = (self.open and completed and self.candidate is not None and closing_turn == self.candidate[0]
                    and closing_seq >= self.candidate[1])
        assert (verdict is not None) == expected
        if verdict is not None:
            assert self.candidate is not None and verdict.severity == self.candidate[2]
        self.open, self.candidate = False, None


TestChannelMachine = ChannelMachine.TestCase

_text = st.text(alphabet=st.characters(codec="utf-8"), max_size=9000)


@given(summary=_text.filter(lambda t: t.strip()), diagnosis=_text, action=_text,
       evidence=st.lists(_text, max_size=20), actions=st.lists(_text, max_size=12),
       plan=st.lists(_text, max_size=14))
def test_a_fitted_verdict_keeps_every_field_budget_and_the_total(summary: str, diagnosis: str, action: str,
                                                                  evidence: list[str], actions: list[str],
                                                                  plan: list[str]) -> None:
    """Whatever a verdict holds, each field, each item, the plan and the whole fit their byte budgets."""
    fitted = fit_verdict({"severity": "blocker", "summary": summary, "diagnosis": diagnosis,
                          "recommended_action": action, "evidence": evidence, "actions": actions,
                          "validation_plan": plan})
    assert len(json.dumps(fitted, ensure_ascii=False, separators=(",", ":")).encode()) <= TOTAL_BYTES
    for name, limit in FIELD_BYTES.items():
        assert len(fitted[name].encode()) <= limit
    for name, count in LIST_ITEMS.items():
        assert len(fitted[name]) <= count
        assert all(len(item.encode()) <= ITEM_BYTES[name] for item in fitted[name])
    assert sum(len(item.encode()) for item in fitted["validation_plan"]) <= VALIDATION_PLAN_BYTES
    assert fitted["summary"]
