"""How fast is `obligations.Tracker.handle`, and is it linear with bounded memory, as sessions grow?

Replays synthetic sessions of 10k, 100k and 1M events, one fresh tracker per session, and prints
for each size the events per second of `Tracker.handle` and the peak memory traced while the
session is replayed; then the ratio of time per event between the largest and the smallest size
(target ≤ 1.3: linear) and the same ratio for peak memory (target: about 1, i.e. memory is bounded
by the open state — the current task's items, pending calls, capped evidence — and not by how
long the history is).

The sessions are generated lazily (a generator; no list of a million events is ever built) from
a seeded random mix meant to look like a real agent session:

- about 30 % of events belong to shell calls (dispatch and completion), and about 20 % of those
  run a check: failing and passing test runs, masked re-runs (`; echo done`, `|| true`),
  reporting pipes (`| tail -20`), checks in another directory (`cd api && …`);
- the rest: edits (`Edit`, `Write`), reads (`Read`, `Grep`, `Glob`), a few unknown tools,
  assistant messages, a compaction now and then, and a lost result (a completion whose dispatch
  was never seen) about once per 2,000 events;
- a user message (a new task) every 200–400 events;
- a worker agent under the root makes about a quarter of the calls, sometimes overlapping the
  root's (dispatched before and completed after), and is disposed and spawned again every few
  tasks.

Commands come from a fixed pool of a few hundred distinct command lines, as real sessions repeat
theirs; shellparse's analysis cache (4,096 entries) therefore serves most of them, and a warm-up
session runs first so that the smallest size is not charged for cold caches.

**Timing** measures `Tracker.handle` only: `time.perf_counter_ns()` is read just before and just
after each call and the differences are summed, so generating the events (building pydantic
models) is not counted, and neither is the loop around the calls. The two clock reads add a
roughly constant ~0.1 µs per event. The smaller sizes are replayed several times and the best
time per event is kept (10k: 5 runs, 100k: 2 runs, 1M: 1 run); that favours the small sizes, so
the reported ratio errs on the pessimistic side.

**Memory** is measured in a separate pass, because tracemalloc slows every allocation several
times over and would distort the timing: each size is replayed again under `tracemalloc`, whose
peak is reset once the tracker exists, so the figure is the peak of everything allocated during
the replay — the tracker's state plus the transient event objects. The retained column is what
is still allocated at the end, after a garbage collection (the tracker's final state). Both grow
until the archive of ended tasks (`TrackerConfig.ended_tasks`, 50 tasks, each with its unresolved
items) is full, within the first ~15k events here; after that the peak is the largest open state
the session happened to reach, so it still creeps up slightly with more tasks sampled, while the
retained state stays flat. Hence a second memory ratio, largest / middle size.

Run (about 2–3 minutes on a 2-core machine):

    .venv/bin/python benchmarks/tracker_bench.py [--sizes 10000 100000 1000000] [--seed 7]
"""

from __future__ import annotations

import argparse
import gc
import random
import time
import tracemalloc
from collections.abc import Iterator

from obligations import (
    AgentDisposed,
    AgentSpawned,
    AssistantMessage,
    Compaction,
    Event,
    ToolCompleted,
    ToolDispatched,
    Tracker,
    UserMessage,
)

ROOT, WORKER = "root", "worker"
FILES = [f"src/pkg{n // 20}/module_{n}.py" for n in range(200)]
CHECKS = [
    "pytest -q", "pytest -q tests/test_api.py", "python -m pytest -x", "npm test", "cd api && npm test",
    "cargo test", "npx tsc --noEmit", "ruff check .", "mypy src", "go test ./...",
]
MASKS = ["{} ; echo done", "{} || true", "{} | grep -v warning"]
REPORTING = ["{} 2>&1 | tail -20", "{} | tee test.log"]
OTHERS = (
    [f"cat {path}" for path in FILES[:80]]
    + [f"sed -n 1,80p {path}" for path in FILES[80:140]]
    + [f"grep -rn 'def handler_{n}' src" for n in range(60)]
    + [f"rm -f build/cache_{n}.json" for n in range(20)]
    + [f"mkdir -p build/out_{n}" for n in range(20)]
    + ["ls", "ls -la src", "git status", "git diff", "git log --oneline -5", "pwd", "npm install", "pip install -e ."]
)
READ_TOOLS = ["Read", "Grep", "Glob"]
EDIT_TOOLS = ["Edit", "Write"]
PASS_OUTPUT = "collected 42 items\n\n" + "." * 42 + "\n42 passed in 1.21s"
FAIL_OUTPUT = ("collected 42 items\n\n" + "." * 30 + "F" + "." * 11 + "\nFAILED tests/test_api.py::test_sum - "
               "AssertionError: assert 3 == 4\n1 failed, 41 passed in 1.34s")
PLAIN_OUTPUTS = ["", "ok", "\n".join(f"line {n}: some file content here" for n in range(12))]


def session(size: int, seed: int) -> Iterator[Event]:
    """Exactly ``size`` events of one synthetic session, made as they are consumed."""
    rng = random.Random(seed)
    count = 0
    call = 0
    next_task = 0
    tasks = 0
    worker_alive = False
    overlapping: list[tuple[int, ToolCompleted]] = []  # (due at event count, completion)

    def emit(event: Event) -> Iterator[Event]:
        nonlocal count
        if count < size:
            count += 1
            yield event

    def check_command() -> str:
        check = rng.choice(CHECKS)
        roll = rng.random()
        if roll < 0.15:
            return rng.choice(MASKS).format(check)
        if roll < 0.35:
            return rng.choice(REPORTING).format(check)
        return check

    def shell_call(agent: str) -> tuple[ToolDispatched, ToolCompleted]:
        nonlocal call
        call += 1
        call_id = f"call_{call}"
        if rng.random() < 0.2:
            command = check_command()
            failed = rng.random() < 0.35
            exit_code: int | None = 1 if failed else 0
            output = FAIL_OUTPUT if failed else PASS_OUTPUT
            if rng.random() < 0.02:  # now and then the host reports no exit code
                exit_code = None
        else:
            command = rng.choice(OTHERS)
            exit_code = 0 if rng.random() < 0.93 else 1
            output = rng.choice(PLAIN_OUTPUTS)
        cwd = "/work/app" if rng.random() < 0.9 else "/work/app/api"
        return (ToolDispatched(agent_id=agent, call_id=call_id, tool="Bash", arguments={"command": command}, cwd=cwd),
                ToolCompleted(agent_id=agent, call_id=call_id, exit_code=exit_code, is_error=exit_code not in (0, None),
                              output=output))

    def tool_call(agent: str, tool: str) -> tuple[ToolDispatched, ToolCompleted]:
        nonlocal call
        call += 1
        call_id = f"call_{call}"
        arguments = {"file_path": rng.choice(FILES)}
        return (ToolDispatched(agent_id=agent, call_id=call_id, tool=tool, arguments=arguments, cwd="/work/app"),
                ToolCompleted(agent_id=agent, call_id=call_id, output=rng.choice(PLAIN_OUTPUTS)))

    while count < size:
        while overlapping and overlapping[0][0] <= count:
            yield from emit(overlapping.pop(0)[1])
        if count >= next_task:
            tasks += 1
            next_task = count + rng.randint(200, 400)
            if tasks % 5 == 0 and worker_alive:
                worker_alive = False
                yield from emit(AgentDisposed(agent_id=WORKER))
            yield from emit(UserMessage(agent_id=ROOT, text=f"task {tasks}: fix the failing tests"))
            if not worker_alive:
                worker_alive = True
                yield from emit(AgentSpawned(agent_id=WORKER, parent_id=ROOT, role="local-subagent"))
            continue
        agent = WORKER if worker_alive and rng.random() < 0.25 else ROOT
        roll = rng.random()
        # Step weights chosen so that, counting two events per call, about 30 % of events are
        # shell calls, 14 % edits, 36 % reads, 4 % unknown tools and 16 % messages.
        if roll < 0.26:
            pair = shell_call(agent)
        elif roll < 0.38:
            pair = tool_call(agent, rng.choice(EDIT_TOOLS))
        elif roll < 0.69:
            pair = tool_call(agent, rng.choice(READ_TOOLS))
        elif roll < 0.725:
            pair = tool_call(agent, "mcp__db__query")  # an unknown tool: a potential mutation
        elif roll < 0.9988:
            yield from emit(AssistantMessage(agent_id=agent, text="Running the tests again."))
            continue
        elif roll < 0.9991:
            yield from emit(Compaction(summary="earlier conversation"))
            continue
        else:  # a result whose dispatch was never seen (about once per 2,000 events)
            call += 1
            yield from emit(ToolCompleted(agent_id=agent, call_id=f"lost_{call}", exit_code=0))
            continue
        dispatched, completed = pair
        yield from emit(dispatched)
        if agent == WORKER and rng.random() < 0.3:  # completes a few events later, overlapping others
            overlapping.append((count + rng.randint(1, 6), completed))
        else:
            yield from emit(completed)
    # Every call dispatched within the size has been completed or is cut off by the size itself.


def timed(size: int, seed: int) -> float:
    """Seconds spent inside ``Tracker.handle`` over one session of ``size`` events."""
    tracker = Tracker()
    clock = time.perf_counter_ns
    handle = tracker.handle
    spent = 0
    for event in session(size, seed):
        start = clock()
        handle(event)
        spent += clock() - start
    return spent / 1e9


def traced(size: int, seed: int) -> tuple[int, int]:
    """Peak and final traced memory (bytes) while one session of ``size`` events is replayed."""
    gc.collect()
    tracemalloc.start()
    try:
        tracker = Tracker()
        events = session(size, seed)
        tracemalloc.reset_peak()
        baseline = tracemalloc.get_traced_memory()[0]
        for event in events:
            tracker.handle(event)
        peak = tracemalloc.get_traced_memory()[1]
        gc.collect()
        current = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    return peak - baseline, current - baseline


def mib(size: int) -> str:
    return f"{size / 2**20:.2f} MiB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    sizes: list[int] = sorted(args.sizes)
    started = time.perf_counter()

    timed(5_000, args.seed + 1)  # warm-up: imports, shellparse's cache, the allocator
    per_event: dict[int, float] = {}
    for size in sizes:
        repeats = 5 if size <= 10_000 else 2 if size <= 100_000 else 1
        per_event[size] = min(timed(size, args.seed) for _ in range(repeats)) / size

    memory: dict[int, tuple[int, int]] = {size: traced(size, args.seed) for size in sizes}

    print(f"{'events':>10}  {'events/s':>10}  {'µs/event':>8}  {'peak memory':>12}  {'retained':>10}")
    for size in sizes:
        peak, retained = memory[size]
        print(f"{size:>10,}  {1 / per_event[size]:>10,.0f}  {per_event[size] * 1e6:>8.2f}  {mib(peak):>12}  "
              f"{mib(retained):>10}")
    small, large = sizes[0], sizes[-1]
    label = f"{_short(large)} / {_short(small)}"
    print(f"time per event, {label}: {per_event[large] / per_event[small]:.2f}x (target ≤ 1.3)")
    print(f"peak memory, {label}: {memory[large][0] / memory[small][0]:.2f}x")
    if len(sizes) > 2:
        # The archive of ended tasks (TrackerConfig.ended_tasks, 50) fills within the first ~15k
        # events; from there on, memory should stay flat.
        middle = sizes[-2]
        print(f"peak memory, {_short(large)} / {_short(middle)}: {memory[large][0] / memory[middle][0]:.2f}x "
              "(bounded by open state: about 1)")
    print(f"total wall time: {time.perf_counter() - started:.0f} s")


def _short(size: int) -> str:
    for unit, name in ((1_000_000, "M"), (1_000, "k")):
        if size >= unit and size % unit == 0:
            return f"{size // unit}{name}"
    return str(size)


if __name__ == "__main__":
    main()
