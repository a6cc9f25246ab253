"""A hook that records what the host hands it: run by the hosts, not imported by the tests.

Each call appends one JSON line to ``$E2E_HOOK_LOG``: the payload, the command-line argument
naming the event it was installed for, and the name of a copy of each transcript the payload
points to, taken the moment the hook starts (so a test can see what the transcript held when the
host called its hook). It answers nothing, so the host goes on as if it were not there.
"""

import json
import os
import shutil
import sys
import time
from pathlib import Path


def main() -> None:
    started = time.time()
    raw = sys.stdin.buffer.read()
    log = Path(os.environ["E2E_HOOK_LOG"])
    stamp = f"{time.time_ns()}-{os.getpid()}"
    try:
        payload = json.loads(raw)
    except ValueError:
        payload = {"unparsed": raw.decode("utf-8", "replace")}
    copies = {}
    for key in ("transcript_path", "agent_transcript_path"):
        source = payload.get(key) if isinstance(payload, dict) else None
        if isinstance(source, str) and os.path.isfile(source):
            copy = log.with_name(f"{stamp}-{key}.jsonl")
            shutil.copyfile(source, copy)
            copies[key] = copy.name
    with log.open("a", encoding="utf-8") as out:
        out.write(json.dumps({"installed_for": sys.argv[1:], "started": started, "payload": payload,
                              "copies": copies}) + "\n")


if __name__ == "__main__":
    main()
