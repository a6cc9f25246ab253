#!/usr/bin/env python3
"""Reproduce the raw material of the mechanically gathered corpus groups.

Standard library only; it does not import shellparse and produces no labels.
It prints one JSON object per line: {"group", "command", "shell", "source"}.

    pip download --no-deps swebench==4.0.4
    python3 corpus/gather.py swebench-4.0.4-py3-none-any.whl \
        --transcripts PATH/TO/toolpath/test-fixtures \
        --nl2bash tests/data/nl2bash/all.cm
    python3 corpus/gather.py --real PATH/TO/transcripts/real > corpus/real_commands.jsonl

Groups:
  A  SWE-bench 4.0.4 harness `test_cmd` values.  The eight modules
     swebench/harness/constants/{python,javascript,go,rust,java,ruby,php,c}.py are
     executed straight from the wheel with stub parent packages (they import only
     `typing` and `shlex`), and every distinct string in the `test_cmd` field of every
     MAP_REPO_VERSION_TO_SPECS_* spec is emitted, in first-seen order.
  B  Shell commands from the agent transcripts (Claude `Bash` tool_use blocks, Codex
     `exec_command`/`shell` function calls, Pi bash tool calls), de-duplicated.
  R  The same extraction over the real-session transcripts (PowerShell tool calls
     included), written to real_commands.jsonl without the group key: an unlabelled
     benchmark set.
  C  NL2Bash: every 84th line of all.cm (lines 1, 85, 169, ...) that `bash -n`
     accepts, de-duplicated, plus a short hand-picked list of lines in which a
     check-family word (make, ant, mvn, gradle, npm, go) occurs.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import types
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

SWE_LANGS = ["python", "javascript", "go", "rust", "java", "ruby", "php", "c"]

# Lines of all.cm found with
#   grep -nwE 'make|ant|mvn|gradle|gradlew|cargo|pytest|tox|ninja|ctest|npm|yarn|go|...' all.cm
# after dropping hits where the word is only part of an option (`chmod go+rx`,
# `find -perm -go+w`, `mount --make-rprivate`, `rm ... npm*`).
NL2BASH_FAMILY_LINES = [369, 4770, 5722, 6167, 7084, 7961, 7962, 8059, 9704, 11900]
NL2BASH_STEP = 84


def swebench_commands(wheel: str) -> Iterator[dict[str, str]]:
    z = zipfile.ZipFile(wheel)
    for name in ["swebench", "swebench.harness", "swebench.harness.constants"]:
        if name not in sys.modules:
            stub = types.ModuleType(name)
            stub.__path__ = []
            sys.modules[name] = stub
    seen: dict[str, tuple[str, str, Any, Any]] = {}
    for lang in SWE_LANGS:
        path = f"swebench/harness/constants/{lang}.py"
        mod = types.ModuleType(f"swebench.harness.constants.{lang}")
        exec(compile(z.read(path).decode("utf-8"), path, "exec"), mod.__dict__)
        for var, value in mod.__dict__.items():
            if not (var.startswith("MAP_REPO_VERSION_TO_SPECS") and isinstance(value, dict)):
                continue
            for repo, versions in value.items():
                for version, spec in versions.items():
                    cmd = spec.get("test_cmd")
                    if cmd is None:
                        continue
                    for c in [cmd] if isinstance(cmd, str) else cmd:
                        seen.setdefault(c, (lang, var, repo, version))
    for c, (lang, var, repo, version) in seen.items():
        yield {"group": "A", "command": c, "shell": "bash",
               "source": f"swebench-4.0.4:{lang}", "spec": f"{var}[{repo!r}][{version!r}]"}


def transcript_commands(directory: str, group: str = "B") -> Iterator[dict[str, str]]:
    root = Path(directory)
    seen: set[tuple[str, str]] = set()
    for f in sorted(root.glob("*/*.jsonl")):
        agent = f.parent.name
        for line in f.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            o = json.loads(line)
            cmds: list[Any] = []
            shells: list[str] = []
            if agent == "claude":
                msg = o.get("message") or {}
                if o.get("type") == "assistant" and isinstance(msg.get("content"), list):
                    for b in msg["content"]:
                        if b.get("type") == "tool_use" and b.get("name") in ("Bash", "PowerShell"):
                            cmds.append(b["input"].get("command"))
                            shells.append("pwsh" if b["name"] == "PowerShell" else "bash")
            elif agent == "codex":
                p = o.get("payload") or {}
                if p.get("type") == "function_call" and p.get("name") in ("exec_command", "shell"):
                    args = json.loads(p.get("arguments") or "{}")
                    c = args.get("cmd", args.get("command"))
                    if isinstance(c, list):  # `shell` takes an argv such as ["bash", "-lc", "..."]
                        c = c[-1] if len(c) >= 3 and c[1] in ("-c", "-lc") else " ".join(c)
                    cmds.append(c)
            elif agent == "pi":
                msg = o.get("message") or {}
                content = msg.get("content")
                if isinstance(content, list):
                    for b in content:
                        if b.get("type") in ("toolCall", "tool_use") and b.get("name") == "bash":
                            args = b.get("arguments") or b.get("input") or {}
                            cmds.append(args.get("command"))
            for number, c in enumerate(cmds):
                shell = shells[number] if number < len(shells) else "bash"
                if isinstance(c, str) and c and (c, shell) not in seen:
                    seen.add((c, shell))
                    yield {"group": group, "command": c, "shell": shell,
                           "source": f"transcript:{agent}/{f.name}"}


def bash_ok(cmd: str) -> bool:
    return subprocess.run(["bash", "-n", "-c", cmd], capture_output=True).returncode == 0


def nl2bash_commands(path: str) -> Iterator[dict[str, str]]:
    lines = Path(path).read_text(encoding="utf-8").split("\n")
    seen: set[str] = set()
    picks = [n for n in range(1, len(lines) + 1) if n % NL2BASH_STEP == 1]
    picks += NL2BASH_FAMILY_LINES
    for n in picks:
        c = lines[n - 1]
        if not c.strip() or c in seen or not bash_ok(c):
            continue
        seen.add(c)
        yield {"group": "C", "command": c, "shell": "bash", "source": f"nl2bash:line {n}"}


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("wheel", nargs="?", help="path to swebench-4.0.4-py3-none-any.whl")
    ap.add_argument("--transcripts", help="a folder of claude/, codex/ and pi/ transcripts (group B)")
    ap.add_argument("--nl2bash", default=str(Path(__file__).parent.parent / "tests/data/nl2bash/all.cm"))
    ap.add_argument("--real", metavar="DIR", help="print only the real-session set (group R) from a folder of "
                    "claude/, codex/ and pi/ transcripts")
    a = ap.parse_args()
    if a.real:
        groups = [transcript_commands(a.real, group="R")]
    elif a.wheel:
        groups = [swebench_commands(a.wheel), nl2bash_commands(a.nl2bash)]
        if a.transcripts:
            groups.insert(1, transcript_commands(a.transcripts))
    else:
        ap.error("give the swebench wheel, or --real DIR")
    for gen in groups:
        for row in gen:
            if a.real:
                del row["group"]  # the real-session set is a file of its own
            print(json.dumps(row, ensure_ascii=False))


if __name__ == "__main__":
    main()
