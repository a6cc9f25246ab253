"""How fast is `witness audit` on large Claude Code transcripts, against merely decoding them.

Generates Claude Code-shaped transcripts of 10 MB, 100 MB and 500 MB — written the way Claude
Code writes them: one line per content block of a response (thinking with its signature, text,
tool use) with the usage block, then the tool result with its structured copy; lines average
about 1.3 KB, as in real sessions. Two mixes:

- ``passing`` (mostly passing work): a user prompt every few hundred lines; Bash calls (30 %, a
  fifth of them checks, a quarter failing, some masked), Read (40 %) and Edit (30 %);
- ``failing`` (a session stuck on failures), 60 MB by default: every third tool call is a check
  that fails with about 2 KB of a real runner's output (pytest, jest, cargo, tsc, go — head,
  tracebacks, and the failure summary at the end); the rest are Read, Edit and other commands.

Then it prints for each mix and size:

- the CPU time of auditing it (``obligations.audit``, which streams the file through a tracker),
  after a one-prompt session has loaded the audit's modules (their import time is printed apart);
- the peak resident memory of that audit (a child process per size, so each peak is its own);
- the ratio of the audit's time to the time of merely decoding every line with the standard
  `json` module (target: at most 2.5x);

each time the best of ``--repeats`` runs (default 3), decoding and auditing in turn. Times are CPU
times (the process's own, user and system): on a machine others share, wall time counts the
waiting for a core too, and both sides of a ratio are single-threaded work; the minimum is the run
least disturbed by what is left of the noise.

and the time of one `witness hook claude-code` Stop call, as a process, on the 10 MB transcript
(target: under half a second); then, for each passing-mix size, a Stop on a *growing* session
(each the CPU time of the hook's process, start-up included):

- **full**: a Stop with nothing kept (the first Stop of a session, or a hook of an older witness),
  which replays the whole file;
- **incremental**: a Stop after the last one kept its replay, the session having grown by a turn
  (about 100 KB) since, which replays only what was appended (it still reads the file once, to
  check its first bytes are those replayed).

    .venv/bin/python benchmarks/audit_bench.py [--sizes 10,100,500] [--failing-sizes 60] [--repeats 3] [--keep DIR]

Files are written to a temporary directory (about 670 MB for the default sizes) and removed.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

MB = 1_000_000
SESSION = "0b7c6a58-1f2e-4d3c-9b8a-7f6e5d4c3b2a"
CHECKS = ["npm test", "pytest -q", "npm run lint", "cargo test", "go test ./...", "npx tsc --noEmit"]
OTHER = ["ls -la", "git status", "git diff --stat", "cat package.json", "rg -n TODO src", "find . -name '*.ts'"]
SIGNATURE = "Ev0CClkIDRgCKkCN" * 24
USAGE = {"input_tokens": 6, "cache_creation_input_tokens": 8404, "cache_read_input_tokens": 18183, "output_tokens": 218,
         "server_tool_use": {"web_search_requests": 0, "web_fetch_requests": 0}, "service_tier": "standard",
         "cache_creation": {"ephemeral_1h_input_tokens": 8404, "ephemeral_5m_input_tokens": 0}}
OUTPUT = "\n".join(f"line {n}: some output the command printed while it ran, fairly ordinary" for n in range(12))


def _failure(n: int) -> tuple[str, str]:
    """The command and about 2 KB of output of the ``n``-th failing check, as its runner prints it."""
    frames = "".join(f"    at Object.<anonymous> (/home/dev/app/src/module{n % 7}/part{k}.ts:{40 + k}:{7 + k})\n"
                     for k in range(6))
    trace = "".join(f'  File "/home/dev/app/tests/test_mod{n % 9}.py", line {100 + k}, in test_case_{k}\n'
                    f"    assert compute(0x{n * 7919 + k:x}) == expected\n" for k in range(11))
    outputs = [
        ("pytest -q", "============================= test session starts ==============================\n"
         f"platform linux -- Python 3.12.4, pytest-8.4.1\ncollected {200 + n % 50} items\n\n"
         + "tests/test_mod.py ........F.....................................\n" * 3
         + "\n=================================== FAILURES ===================================\n"
         + trace + f"E       AssertionError: assert {n} == {n + 1}\n"
         + f"FAILED tests/test_mod{n % 9}.py::test_case_3 - AssertionError: assert {n} == {n + 1}\n"
         + f"==================== 1 failed, {199 + n % 50} passed in {n % 90 / 10 + 1:.2f}s ====================\n"),
        ("npm test", "> app@1.0.0 test\n> jest\n\n" + f" FAIL  src/module{n % 7}/part.test.ts\n"
         + "  ● computes the total\n\n    expect(received).toBe(expected)\n\n" + frames * 4
         + f"\nTests:       1 failed, {40 + n % 20} passed, {41 + n % 20} total\nTime:        {n % 9}.{n % 97} s\n"),
        ("cargo test", f"   Compiling app v0.1.0 (/home/dev/app)\n    Finished test target(s) in {n % 30}.2s\n"
         + "".join(f"test tests::case_{k} ... ok\n" for k in range(60))
         + f"test tests::case_{n % 30} ... FAILED\n\nfailures:\n\n---- tests::case_{n % 30} stdout ----\n"
         + f"thread 'tests::case' panicked at src/lib.rs:{n % 400}:9:\nassertion failed: left == right\n"
         + f"\ntest result: FAILED. 60 passed; 1 failed; 0 ignored; finished in 0.0{n % 10}s\n"),
        ("npx tsc --noEmit", "".join(f"src/module{n % 7}/part{k}.ts({10 + k},{3 + k}): error TS2322: Type "
                                     f"'string' is not assignable to type 'number'.\n" for k in range(21))
         + "\nFound 21 errors in 7 files.\n"),
        ("go test ./...", "".join(f"ok  \tgithub.com/dev/app/pkg{k}\t0.0{k}s\n" for k in range(12))
         + f"--- FAIL: TestCompute (0.00s)\n    compute_test.go:{n % 300}: got {n}, want {n + 1}\n"
         + "".join(f"        stack frame {k} at 0x{n * 31 + k:08x}\n" for k in range(40))
         + "FAIL\nFAIL\tgithub.com/dev/app/pkg\t0.012s\nFAIL\n"),
    ]
    return outputs[n % len(outputs)]


def _envelope(kind: str, n: int, parent: str | None) -> dict[str, Any]:
    return {"parentUuid": parent, "isSidechain": False, "userType": "external", "cwd": "/home/dev/app",
            "sessionId": SESSION, "version": "2.1.140", "gitBranch": "main", "type": kind,
            "uuid": f"{n:08x}-0000-4000-8000-000000000000", "timestamp": "2026-11-20T10:00:00.000Z"}


def generate(path: Path, size: int, seed: int = 7, mix: str = "passing") -> int:
    """Write a transcript of about ``size`` bytes in the given ``mix``; return its line count."""
    rng = random.Random(seed)
    written = lines = calls = 0
    parent: str | None = None
    with path.open("w", encoding="utf-8") as out:
        def emit(entry: dict[str, Any]) -> None:
            nonlocal written, lines, parent
            text = json.dumps(entry, separators=(",", ":")) + "\n"
            out.write(text)
            written += len(text)
            lines += 1
            parent = entry["uuid"]

        while written < size:
            if lines % 400 == 0:
                entry = _envelope("user", lines, parent)
                entry["message"] = {"role": "user", "content": "Please fix the failing tests and clean up."}
                emit(entry)
            calls += 1
            tool_id = f"toolu_{calls:010d}"
            roll = rng.random()
            failure = _failure(calls) if mix == "failing" and calls % 3 == 0 else None
            if failure is not None:
                name, arguments = "Bash", {"command": failure[0], "description": "run the checks"}
            elif roll < 0.3:
                command = rng.choice(CHECKS) if rng.random() < 0.2 else rng.choice(OTHER)
                if rng.random() < 0.1:
                    command += " 2>&1 | tail -20; echo done"
                name, arguments = "Bash", {"command": command, "description": "run it"}
            elif roll < 0.7:
                name, arguments = "Read", {"file_path": f"/home/dev/app/src/file{rng.randrange(50)}.ts"}
            else:
                name, arguments = "Edit", {"file_path": f"/home/dev/app/src/file{rng.randrange(50)}.ts",
                                           "old_string": "a", "new_string": "b"}
            # As Claude Code writes them: one line per content block of a model response (thinking,
            # text, tool use), sharing the response's id, then the tool result as a user line.
            message_id = f"msg_{calls:010d}"
            blocks = [{"type": "thinking", "thinking": "", "signature": SIGNATURE},
                      {"type": "text", "text": "Let me look at this next, then run the checks again."},
                      {"type": "tool_use", "id": tool_id, "name": name, "input": arguments}]
            for block in blocks:
                entry = _envelope("assistant", lines, parent)
                entry["requestId"] = f"req_{calls:010d}"
                entry["message"] = {"model": "claude-sonnet-4-6", "id": message_id, "type": "message",
                                    "role": "assistant", "stop_reason": "tool_use", "content": [block],
                                    "usage": USAGE}
                emit(entry)
            output = failure[1] if failure is not None else OUTPUT
            failed = failure is not None or (mix == "passing" and name == "Bash" and rng.random() < 0.25)
            content = ("Exit code 1\n" if failed else "") + output
            entry = _envelope("user", lines, parent)
            entry["message"] = {"role": "user", "content": [{"tool_use_id": tool_id, "type": "tool_result",
                                                             "content": content, "is_error": failed}]}
            entry["toolUseResult"] = {"stdout": output, "stderr": "", "interrupted": False, "isImage": False}
            emit(entry)
    return lines


def decode_only(path: Path) -> float:
    """CPU seconds to read and `json.loads` every line: the floor for any reader."""
    start = time.process_time()
    with path.open("rb") as handle:
        for line in handle:
            json.loads(line)
    return time.process_time() - start


_CHILD = """
import json, resource, sys, time
from obligations import audit
# The audit imports its reader and tracker on first use: a one-line session loads them first, so
# the time measured is the audit's, not the imports' (without bytecode caching they cost more than
# auditing 10 MB). It holds no shell call: no grammar, pattern or analysis is warmed by it.
start = time.process_time()
audit(sys.argv[2])
imports = time.process_time() - start
start = time.process_time()
result = audit(sys.argv[1])
elapsed = time.process_time() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps({"seconds": elapsed, "imports": imports, "peak": peak, "events": result.events,
                  "open": len(result.open), "earlier": len(result.earlier), "resolved": len(result.resolved),
                  "error": result.error}))
"""


def _one_prompt(path: Path) -> Path:
    """A Claude Code session of one prompt, audited first in each child to load the audit's modules."""
    entry = _envelope("user", 0, None)
    entry["message"] = {"role": "user", "content": "Hello."}
    path.write_text(json.dumps(entry) + "\n", encoding="utf-8")
    return path


def audit_in_child(path: Path) -> dict[str, Any]:
    """Audit in a fresh process, so its peak memory is its own."""
    first = _one_prompt(path.with_name("claude-one-prompt.jsonl"))
    done = subprocess.run([sys.executable, "-c", _CHILD, str(path), str(first)], capture_output=True, text=True,
                          check=True)
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def hook_seconds(path: Path, runs: int = 5) -> float:
    """Median CPU seconds of one Stop hook call, as the host runs it, with nothing kept from an earlier
    Stop (each with a state folder of its own: a replay of the whole file)."""
    times = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as home:
            times.append(stop_call(path, home))
    return statistics.median(times)


def stop_call(path: Path, home: str) -> float:
    """CPU seconds (user and system) of one Stop call of `witness hook claude-code`, as the host runs it."""
    witness = str(Path(sys.executable).with_name("witness"))
    payload = json.dumps({"hook_event_name": "Stop", "session_id": "bench", "transcript_path": str(path),
                          "stop_hook_active": False}).encode()
    env = {**os.environ, "WITNESS_HOME": home, "WITNESS_STOP_BLOCKS": "1000"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([witness, "hook", "claude-code"], input=payload, capture_output=True, env=env, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def growing_stops(path: Path, repeats: int, turn: int = 100_000) -> tuple[float, float]:
    """Median seconds of a full Stop and of an incremental one, on ``path`` grown a turn at a time."""
    data = path.read_bytes()
    ends = [data.rindex(b"\n", 0, len(data) - turn * k) + 1 for k in range(repeats, 0, -1)] + [len(data)]
    growing = path.with_name(f"growing-{path.name}")
    full, incremental = [], []
    with tempfile.TemporaryDirectory() as home:
        growing.write_bytes(data[:ends[0]])
        stop_call(growing, home)  # the first Stop keeps its replay
        for start, end in itertools.pairwise(ends):
            with growing.open("ab") as handle:
                handle.write(data[start:end])
            incremental.append(stop_call(growing, home))
    for _ in range(max(1, repeats // 2)):
        with tempfile.TemporaryDirectory() as home:
            full.append(stop_call(growing, home))
    growing.unlink()
    return statistics.median(full), statistics.median(incremental)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sizes", default="10,100,500", help="passing-mix transcript sizes in MB, comma-separated")
    parser.add_argument("--failing-sizes", default="60", help="failing-mix transcript sizes in MB (empty: none)")
    parser.add_argument("--repeats", type=int, default=3, help="runs per measurement; the best one counts")
    parser.add_argument("--keep", type=Path, help="write the transcripts here and keep them")
    options = parser.parse_args()
    sizes = [int(size) for size in options.sizes.split(",") if size]
    runs = [("passing", size) for size in sizes]
    runs += [("failing", int(size)) for size in options.failing_sizes.split(",") if size]
    folder = options.keep or Path(tempfile.mkdtemp(prefix="witness-audit-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"{'mix':>8} {'size':>7} {'lines':>9} {'events':>9} {'open':>5} {'audit s':>8} {'json s':>7} {'ratio':>6} "
          f"{'peak RSS':>9} {'imports s':>9}")
    first: Path | None = None
    try:
        for mix, size in runs:
            path = folder / f"claude-{mix}-{size}mb.jsonl"
            lines = generate(path, size * MB, mix=mix)
            first = first or path
            # Decoding and auditing alternate, so that both minima come from the same spell of the
            # machine's load (in turn, a busy spell lands on one side only and skews the ratio).
            floors, audits = [], []
            for _ in range(options.repeats):
                floors.append(decode_only(path))
                audits.append(audit_in_child(path))
            floor = min(floors)
            result = min(audits, key=lambda run: run["seconds"])
            ratio = result["seconds"] / floor
            print(f"{mix:>8} {size:>5}MB {lines:>9,} {result['events']:>9,} {result['open']:>5} "
                  f"{result['seconds']:>8.2f} {floor:>7.2f} {ratio:>5.2f}x {result['peak'] / MB:>7.0f}MB "
                  f"{result['imports']:>9.3f}")
        print("target: audit time at most 2.5x the json decoding of the same file, for either mix")
        if first is not None:
            seconds = hook_seconds(first)
            print(f"Stop hook on the first transcript ({first.name}): {seconds:.3f} CPU s per call "
                  "(target: under 0.5 s)")
        print(f"\n{'Stop on a growing session':<28} {'full s':>8} {'incremental s':>14} {'ratio':>7}")
        for size in sizes:
            full, incremental = growing_stops(folder / f"claude-passing-{size}mb.jsonl", max(options.repeats, 3))
            print(f"{f'passing {size} MB':<28} {full:>8.2f} {incremental:>14.2f} {full / incremental:>6.1f}x")
    finally:
        if options.keep is None:
            for path in folder.glob("*.jsonl"):
                path.unlink()
            folder.rmdir()


if __name__ == "__main__":
    main()
