"""A pass that ran no test does not witness a failure that reported failing tests: it stays open, and says
so; a run of no test still witnesses a failure that showed no test running (a build that did not compile)."""

from __future__ import annotations

from obligations import ToolCompleted, ToolDispatched, Tracker, UserMessage

CARGO_FAILED = "running 3 tests\ntest a ... FAILED\n\ntest result: FAILED. 2 passed; 1 failed"


def _tracker() -> Tracker:
    tracker = Tracker()
    tracker.handle(UserMessage(text="make the tests pass"))
    return tracker


def _run(tracker: Tracker, call_id: str, command: str, exit_code: int, output: str) -> None:
    tracker.handle(ToolDispatched(call_id=call_id, tool="Bash", arguments={"command": command}))
    tracker.handle(ToolCompleted(call_id=call_id, exit_code=exit_code, is_error=exit_code != 0, output=output))


def test_a_piped_pytest_that_ran_no_test_does_not_witness_failing_tests() -> None:
    """`pytest … | tail` exits 0 with `no tests ran`: the item stays open, the attempt quotes the line."""
    tracker = _tracker()
    _run(tracker, "c1", "pytest tests/test_api.py", 1,
         "FAILED tests/test_api.py::test_login - assert 401 == 200\n1 failed, 3 passed in 0.21s")
    _run(tracker, "c2", "pytest tests/test_api.py -k login_ok 2>&1 | tail -3", 0, "1 deselected in 0.01s")
    _run(tracker, "c3", "pytest tests/test_api.py 2>&1 | tail -3", 0, "no tests ran in 0.01s")
    (item,) = tracker.open_items()
    assert item.tests_ran
    assert item.last_attempt is not None and item.last_attempt.call_id == "c3"
    assert item.last_attempt.reason == "its output shows no test ran: no tests ran in 0.01s"
    _run(tracker, "c4", "pytest tests/test_api.py", 0, "4 passed in 0.20s")
    assert tracker.open_items() == []


def test_jest_with_pass_with_no_tests_behind_npm_test_does_not_witness() -> None:
    """`npm test -- --passWithNoTests gone.test.ts` exits 0 having found no test: no witness of `npm test`'s failure."""
    tracker = _tracker()
    _run(tracker, "c1", "npm test", 1,
         "Tests:       1 failed, 12 passed, 13 total\nnpm error Lifecycle script `test` failed")
    _run(tracker, "c2", "npm test", 0,
         "> app@1.0.0 test\n> jest --passWithNoTests\n\nNo tests found, exiting with code 0")
    (item,) = tracker.open_items()
    assert item.last_attempt is not None
    assert item.last_attempt.reason == "its output shows no test ran: No tests found, exiting with code 0"


def test_a_cargo_name_filter_that_matches_nothing_does_not_witness_a_failing_test() -> None:
    """`cargo test` failing a test, then a `cargo test` whose every binary ran 0 tests (all filtered out) is
    no witness."""
    tracker = _tracker()
    _run(tracker, "c1", "cargo test", 101, CARGO_FAILED)
    output = ("    Finished `test` profile [unoptimized + debuginfo] target(s) in 1.85s\n"
              "     Running unittests src/lib.rs (target/debug/deps/rs-a35a48c092d3f767)\n\nrunning 0 tests\n\n"
              "test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 3 filtered out; finished in 0.00s\n")
    _run(tracker, "c2", "cargo test", 0, output)
    assert [item.last_attempt.reason for item in tracker.open_items() if item.last_attempt] == \
        ["its output shows no test ran: running 0 tests"]


def test_a_cut_cargo_output_whose_last_section_ran_none_still_witnesses() -> None:
    """`cargo test 2>&1 | tail -4` shows only the doc-tests' `running 0 tests`: the unit tests before it are
    not seen, so nothing is concluded and the pass witnesses."""
    tracker = _tracker()
    _run(tracker, "c1", "cargo test", 101, CARGO_FAILED)
    _run(tracker, "c2", "cargo test 2>&1 | tail -4", 0,
         "   Doc-tests app\n\nrunning 0 tests\n\ntest result: ok. 0 passed; 0 failed; 0 ignored; 0 measured")
    assert tracker.open_items() == []


def test_a_failure_that_showed_no_test_running_is_witnessed_by_a_run_of_none() -> None:
    """A crate that did not compile, then compiles and has no tests: that pass is all there is to witness."""
    tracker = _tracker()
    _run(tracker, "c1", "cargo test", 101, "error[E0425]: cannot find value `x` in this scope\n"
                                           "error: could not compile `app` (lib test) due to 1 previous error")
    (item,) = tracker.open_items()
    assert not item.tests_ran
    _run(tracker, "c2", "cargo test", 0, "running 0 tests\n\ntest result: ok. 0 passed; 0 failed; 0 ignored")
    assert tracker.open_items() == []


def test_go_test_whose_run_filter_matches_nothing_does_not_witness() -> None:
    """`go test ./parse -run TestParse` after the test was renamed prints `[no tests to run]` and exits 0."""
    tracker = _tracker()
    _run(tracker, "c1", "go test ./parse -run TestParse", 1,
         "--- FAIL: TestParse (0.00s)\n    parse_test.go:12: got 1, want 2\nFAIL\nFAIL\texample.com/app/parse\t0.004s")
    _run(tracker, "c2", "go test ./parse -run TestParse", 0,
         "testing: warning: no tests to run\nPASS\nok  \texample.com/app/parse\t0.002s [no tests to run]")
    (item,) = tracker.open_items()
    assert item.last_attempt is not None
    assert item.last_attempt.reason == "its output shows no test ran: testing: warning: no tests to run"


def test_the_mark_survives_a_snapshot() -> None:
    """A restored tracker still refuses a run of no test for an item whose failure showed tests running."""
    tracker = _tracker()
    _run(tracker, "c1", "pytest", 1, "1 failed, 3 passed in 0.21s")
    restored = Tracker.restore(tracker.snapshot())
    _run(restored, "c2", "pytest | tail -1", 0, "no tests ran in 0.01s")
    assert [item.state for item in restored.all_items()] == ["open"]
