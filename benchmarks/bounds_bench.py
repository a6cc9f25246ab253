"""What a huge command costs a Stop hook and `witness check`, against the example session.

One command of ``npm test; echo x; …`` (10 MB by default) used to cost the analysis tens of seconds
and gigabytes; it is now refused at the size bound. For each case this prints the median wall time
and the peak memory (max RSS) of the process, and their ratios to the baseline — a Stop hook
replaying ``examples/session.jsonl`` — in one run:

- **hook, huge command**: the example session with one more Bash call holding the huge command;
- **check --batch, huge line**: the huge command as one ``--batch`` line;
- **analyze, at the tracker's bound**: ``witness check`` of a command of exactly 65,536
  characters of the same shape (the largest the tracker analyses);
- **audit / hook, a 1 GiB line**: the example session and then one prompt of 1 GiB (written
  sparse), which the readers skip past without holding it: the peak is one line at the 64 MiB
  cap and the rest, never the line.

Every Stop runs with a state folder of its own (nothing kept from an earlier Stop).

    .venv/bin/python benchmarks/bounds_bench.py [--megabytes 10] [--runs 5]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WITNESS = str(Path(sys.executable).with_name("witness"))
EXAMPLE = ROOT / "examples" / "session.jsonl"
UNIT = "npm test; echo x; "


def run(args: list[str], stdin: bytes, env: dict[str, str]) -> tuple[float, int]:
    """Wall seconds and the max RSS (KB) of one process (with a state folder of its own)."""
    with tempfile.TemporaryFile() as source, tempfile.TemporaryDirectory() as home:
        env = {**env, "WITNESS_HOME": home}
        source.write(stdin)
        source.seek(0)
        started = time.perf_counter()
        process = subprocess.Popen(args, stdin=source, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        _, _, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - started
        process.returncode = 0  # reaped by wait4
    return seconds, usage.ru_maxrss


def session_with(command: str, folder: Path) -> Path:
    """The example session plus one Bash call of ``command`` (a result that exits 0)."""
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    last = json.loads(lines[-1])
    call = {**last, "type": "assistant", "uuid": "bench-call", "message": {
        "id": "msg_bench", "role": "assistant", "model": "claude-opus-4-7",
        "content": [{"type": "tool_use", "id": "toolu_bench", "name": "Bash", "input": {"command": command}}]}}
    result = {**last, "type": "user", "uuid": "bench-result", "message": {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "toolu_bench", "content": "x"}]},
        "toolUseResult": {"stdout": "x", "stderr": "", "interrupted": False}}
    path = folder / "huge.jsonl"
    path.write_text("\n".join([*lines, json.dumps(call), json.dumps(result)]) + "\n", encoding="utf-8")
    return path


def huge_line_session(folder: Path, size: int = 1024**3) -> Path:
    """The example session, then a prompt of ``size`` bytes, written sparse."""
    lines = EXAMPLE.read_bytes().splitlines(keepends=True)
    last = json.loads(lines[-1])
    prompt = {key: value for key, value in last.items() if key != "toolUseResult"}
    prompt |= {"type": "user", "parentUuid": last["uuid"], "uuid": "huge", "message": {"role": "user", "content": "@"}}
    before, after = json.dumps(prompt).split('"@"')
    path = folder / "huge-line.jsonl"
    with path.open("wb") as out:
        out.writelines(lines)
        out.write(f'{before}"'.encode())
        out.seek(out.tell() + size)
        out.write(f'"{after}\n'.encode())
    return path


def stop(path: Path) -> bytes:
    return json.dumps({"hook_event_name": "Stop", "session_id": "bench", "transcript_path": str(path)}).encode()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--megabytes", type=float, default=10.0)
    parser.add_argument("--runs", type=int, default=5)
    options = parser.parse_args()
    huge = UNIT * int(options.megabytes * 1_000_000 / len(UNIT))
    at_bound = (UNIT * (65_536 // len(UNIT) + 1))[:65_536]
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "WITNESS_HOME": folder, "WITNESS_STOP_BLOCKS": "1000000"}
        cases = {
            "baseline: hook, examples/session.jsonl": ([WITNESS, "hook", "claude-code"], stop(EXAMPLE)),
            f"hook, one {options.megabytes:g} MB command": ([WITNESS, "hook", "claude-code"],
                                                           stop(session_with(huge, Path(folder)))),
            f"check --batch, one {options.megabytes:g} MB line": ([WITNESS, "check", "--batch"],
                                                                 huge.encode() + b"\n"),
            "check, a command at the tracker's bound (65,536 chars)": ([WITNESS, "check", "--batch"],
                                                                      at_bound.encode() + b"\n"),
        }
        huge_line = huge_line_session(Path(folder))
        cases["audit, a session with a 1 GiB line"] = ([WITNESS, "audit", str(huge_line)], b"")
        cases["hook, a session with a 1 GiB line"] = ([WITNESS, "hook", "claude-code"], stop(huge_line))
        results = {name: [run(args, stdin, env) for _ in range(options.runs)] for name, (args, stdin) in cases.items()}
    base_time = statistics.median(t for t, _ in results["baseline: hook, examples/session.jsonl"])
    base_rss = max(r for _, r in results["baseline: hook, examples/session.jsonl"])
    print(f"{'case':<58} {'median s':>9} {'x base':>7} {'max RSS MB':>11} {'x base':>7}")
    for name, samples in results.items():
        seconds = statistics.median(t for t, _ in samples)
        rss = max(r for _, r in samples)
        print(f"{name:<58} {seconds:9.3f} {seconds / base_time:7.2f} {rss / 1024:11.1f} {rss / base_rss:7.2f}")


if __name__ == "__main__":
    main()
