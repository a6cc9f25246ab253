"""Failures of runners whose summaries had no marker are seen through a reporting pipe: the pipe's 0 is
refuted, and the failure opens an item (xcodebuild, Swift Testing, ExUnit, Deno, Bun, Gradle's test
summary, Microsoft.Testing.Platform, Pest)."""

from __future__ import annotations

import pytest

from obligations import ToolCompleted, ToolDispatched, Tracker, UserMessage

MTP = "Test run summary: Failed! - bin/Debug/net9.0/App.Tests.dll (net9.0|x64)"
CASES = [
    ("xcodebuild -scheme App -destination 'platform=iOS Simulator,name=iPhone 16' test | xcpretty",
     "Test Suite 'All tests' started\n** TEST FAILED **\n", "** TEST FAILED **"),
    ("xcodebuild -scheme App build 2>&1 | tail -20",
     "/Users/dev/App/Sources/App/Parser.swift:12:5: error: cannot find 'tokenize' in scope\n** BUILD FAILED **\n",
     "/Users/dev/App/Sources/App/Parser.swift:12:5: error: cannot find 'tokenize' in scope"),
    ("swift test 2>&1 | tail -5",
     "✔ Test parses() passed after 0.001 seconds.\n"
     "✘ Test run with 3 tests in 1 suite failed after 0.010 seconds with 1 issue.\n",
     "✘ Test run with 3 tests in 1 suite failed after 0.010 seconds with 1 issue."),
    ("mix test 2>&1 | tail -5", "Finished in 0.04 seconds (0.00s async, 0.04s sync)\n1 doctest, 12 tests, 1 failure\n",
     "1 doctest, 12 tests, 1 failure"),
    ("deno test 2>&1 | tail -3", "FAILED | 2 passed | 1 failed (18ms)\n\nerror: Test failed\n",
     "FAILED | 2 passed | 1 failed (18ms)"),
    ("bun test 2>&1 | tail -4", " 11 pass\n 1 fail\n 24 expect() calls\nRan 12 tests across 3 files. [41.00ms]\n",
     "1 fail"),
    ("./gradlew test | tail -3", "12 tests completed, 1 failed\n\n> Task :app:test FAILED\n",
     "12 tests completed, 1 failed"),
    ("dotnet test | tail -5", f"{MTP}\n  total: 12\n  failed: 1\n", MTP),
    ("./vendor/bin/pest | tail -3", "  Tests:    1 failed, 11 passed (14 assertions)\n  Duration: 0.21s\n",
     "Tests:    1 failed, 11 passed (14 assertions)"),
]


@pytest.mark.parametrize(("command", "output", "line"), CASES, ids=[case[0].split()[0] for case in CASES])
def test_a_piped_run_whose_output_shows_the_failure_opens_an_item(command: str, output: str, line: str) -> None:
    """Exit 0 from the pipe, the runner's failure summary in the output: an item, quoting that line."""
    tracker = Tracker()
    tracker.handle(UserMessage(text="make it pass"))
    tracker.handle(ToolDispatched(call_id="c1", tool="Bash", arguments={"command": command}))
    tracker.handle(ToolCompleted(call_id="c1", exit_code=0, output=output))
    (item,) = tracker.open_items()
    assert item.summary == f"reported exit 0, but its output shows a failure: {line}"
