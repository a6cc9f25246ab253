"""What does AdvisorHost cost per event over the bare tracker, and how long does a packet take?

Two measurements on one synthetic session (a root and a worker; shell calls from a fixed pool of
real-looking commands — checks that fail and pass, masked re-runs, reads, edits — with outputs of
a few hundred bytes to a few kilobytes):

1. **Per event.** The same tool calls are fed (a) to a bare ``obligations.Tracker`` — building
   the ``ToolDispatched``/``ToolCompleted`` events and calling ``handle``, as a host without the
   advisor would — and (b) to ``AdvisorHost.on_tool_dispatched`` / ``on_tool_result``, which build
   the same events, hand them to the same tracker and record the packets' evidence. Likewise a step:
   the bare tracker's ``notices()`` (for the root) and ``should_escalate()`` against ``AdvisorHost.on_pre_step``
   after each agent began a new task with one failure (its score is below the threshold: the
   decision is computed and no consultation is due, the common case).
   Time per event is the best of five runs (steps: best of seven, 20,000 steps each), in CPU time
   (the machine is shared: a wall clock times the neighbours too); the ratio host / bare is the
   overhead (target ≤ 1.5×). To compare two revisions, run this script against each checkout in
   turn, interleaved (``PYTHONPATH=<checkout> python benchmarks/host_bench.py``).
2. **Packet build.** ``AdvisorHost.packet`` for the root after a 10k-event session: classify the
   task's activity, build every section, redact, fit to 48 KB (best of five).

Run: ``.venv/bin/python benchmarks/host_bench.py [--events 10000] [--seed 3]``
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from advisor.orchestration import AdvisorHost
from obligations import ToolCompleted, ToolDispatched, Tracker

COMMANDS = ["pytest -q", "pytest -q tests/test_api.py", "npm test", "npm run lint", "npm test 2>&1 | tail -20",
            "pytest -q; echo done", "cargo test", "go test ./...", "ls -la", "cat src/app.py", "git status",
            "git diff --stat", "rg TODO src", "cd api && npm test", "make build", "python -m mypy src"]
OUTPUTS = ["ok", "1 failed, 12 passed in 0.8s\nFAILED tests/test_api.py::test_login - assert 401 == 200",
           "error: expected `;` at src/main.rs:10:5", "x" * 3000]


def session(events: int, seed: int) -> list[tuple[str, str, str, dict[str, object], int, str]]:
    """(agent, call id, tool, arguments, exit code, output) per tool call: two events each."""
    rng = random.Random(seed)
    calls: list[tuple[str, str, str, dict[str, object], int, str]] = []
    for number in range(events // 2):
        agent = "worker" if rng.random() < 0.25 else "root"
        arguments: dict[str, object]
        if rng.random() < 0.15:
            target = f"src/m{rng.randrange(40)}.py"
            tool, arguments = "Edit", {"file_path": target, "old_string": "a", "new_string": "b"}
        else:
            tool, arguments = "Bash", {"command": rng.choice(COMMANDS)}
        exit_code = rng.choice([0, 0, 0, 1])
        calls.append((agent, f"call-{number}", tool, arguments, exit_code, rng.choice(OUTPUTS)))
    return calls


def best(runs: int, measure: Callable[[], float]) -> float:
    return min(measure() for _ in range(runs))


def bare(calls: list[tuple[str, str, str, dict[str, object], int, str]]) -> float:
    tracker = Tracker()
    started = time.process_time()
    for agent, call, tool, arguments, code, output in calls:
        tracker.handle(ToolDispatched(agent_id=agent, call_id=call, tool=tool, arguments=arguments))
        tracker.handle(ToolCompleted(agent_id=agent, call_id=call, exit_code=code, output=output))
    return (time.process_time() - started) / (2 * len(calls))


def fresh_host() -> AdvisorHost:
    host = AdvisorHost(None, log=False, run_log=False)
    host.register_agent("root", visible_tools=["Bash", "Edit", "Read"])
    host.register_agent("worker", "local-subagent", "root", visible_tools=["Bash"])
    return host


def hosted(calls: list[tuple[str, str, str, dict[str, object], int, str]]) -> float:
    host = fresh_host()
    started = time.process_time()
    for agent, call, tool, arguments, code, output in calls:
        host.on_tool_dispatched(agent, call, tool, arguments)
        host.on_tool_result(agent, call, exit_code=code, output=output)
    elapsed = time.process_time() - started
    host.close()
    return elapsed / (2 * len(calls))


def steps(calls: list[tuple[str, str, str, dict[str, object], int, str]], with_host: bool, count: int) -> float:
    """Time per step, after the session: the host's pre-step or the tracker's own questions."""
    host = fresh_host()
    for agent, call, tool, arguments, code, output in calls:
        host.on_tool_dispatched(agent, call, tool, arguments)
        host.on_tool_result(agent, call, exit_code=code, output=output)
    for agent in ("root", "worker"):  # a new task each: scores start again, so no consultation is due
        host.on_user_message(agent, "next task")
        host.on_tool_dispatched(agent, f"{agent}-x", "Bash", {"command": "pytest -q"})
        host.on_tool_result(agent, f"{agent}-x", exit_code=1, output=OUTPUTS[1])
    tracker = host.tracker
    started = time.process_time()
    for number in range(count):
        agent = "root" if number % 2 else "worker"
        if with_host:
            host.on_pre_step(agent)
        else:  # what a host asks the tracker before a step: the root's notices, each agent's score
            if agent == "root":
                tracker.notices()
            tracker.should_escalate(agent)
    elapsed = time.process_time() - started
    host.close()
    return elapsed / count


def packet_time(calls: list[tuple[str, str, str, dict[str, object], int, str]]) -> tuple[float, int, int]:
    host = fresh_host()
    host.on_user_message("root", "Make the API tests pass.")
    for agent, call, tool, arguments, code, output in calls:
        host.on_tool_dispatched(agent, call, tool, arguments)
        host.on_tool_result(agent, call, exit_code=code, output=output)
    sizes: list[int] = []

    def once() -> float:
        started = time.process_time()
        fitted = host.packet("root")
        elapsed = time.process_time() - started
        sizes.append(fitted.size)
        return elapsed

    elapsed = best(5, once)
    runs = host.packet("root").packet["validation_summary"]["runs"]
    host.close()
    return elapsed, sizes[-1], runs


def main() -> None:
    parser = argparse.ArgumentParser(description="AdvisorHost overhead against the bare tracker")
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=3)
    arguments = parser.parse_args()
    calls = session(arguments.events, arguments.seed)
    bare(calls), hosted(calls)  # warm the analysis cache and the imports
    tracker_event = best(5, lambda: bare(calls))
    host_event = best(5, lambda: hosted(calls))
    tracker_step = best(7, lambda: steps(calls, False, 20_000))
    host_step = best(7, lambda: steps(calls, True, 20_000))
    build, size, runs = packet_time(calls)
    print(f"session: {arguments.events:,} events ({len(calls):,} tool calls), seed {arguments.seed}")
    print(f"{'per tool event':<16} bare tracker {tracker_event * 1e6:7.2f} µs   AdvisorHost {host_event * 1e6:7.2f} µs"
          f"   ratio {host_event / tracker_event:.2f}x   (target ≤ 1.5x)")
    print(f"{'per pre-step':<16} bare tracker {tracker_step * 1e6:7.2f} µs   AdvisorHost {host_step * 1e6:7.2f} µs"
          f"   ratio {host_step / tracker_step:.2f}x   (target ≤ 1.5x)")
    print(f"packet build after {arguments.events:,} events: {build * 1e3:.1f} ms, {size:,} bytes "
          f"({runs:,} validation runs summarised)")


if __name__ == "__main__":
    main()
