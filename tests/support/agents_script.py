"""A scripted multi-agent task on the model server, for the OpenAI Agents SDK tests and example.

It is a test double for remote models, and says so: executor agents and the advisor are
answered by rules over each request (who is asking, what it has seen), not by a model.

The task: a workspace whose tests fail. The root runs its check, which fails twice; after the
advisor's advice it fixes the code, re-runs the check (now passing) and delegates to its
workers at once. Each worker runs its own failing check twice, escalates, and reports after the
advice. The advisor, asked by anyone, may first call a probe tool (``probes``), then submits its
verdict through ``advisor_verdict`` and closes its turn.
"""

from __future__ import annotations

import json
import subprocess
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.support.model_server import ModelServer
from tests.support.script import Held, RecordedRequest, Reply, Script, ToolCall

EXECUTOR_MODEL = "executor-model"
ADVISOR_MODEL = "advisor-model"
ROOT_CHECK = "python3 -m unittest -q test_calc"
FIX = "sed -i 's/return a - b/return a + b/' calc.py"


def make_workspace(folder: Path, workers: int) -> Path:
    """A workspace: ``calc.add`` is wrong, and each worker has a test of its own that fails."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    (folder / "test_calc.py").write_text("import unittest\nimport calc\n\n\nclass T(unittest.TestCase):\n"
                                         "    def test_add(self):\n        self.assertEqual(calc.add(1, 2), 3)\n")
    for number in range(1, workers + 1):
        (folder / f"test_worker{number}.py").write_text(
            "import unittest\n\n\nclass T(unittest.TestCase):\n    def test_todo(self):\n"
            f"        self.fail('worker {number}: not implemented')\n")
    return folder


def run_bash(workspace: Path, command: str) -> str:
    """Run ``command`` with real bash in the workspace; the result as the adapter reads it."""
    done = subprocess.run(["bash", "-c", command], cwd=workspace, capture_output=True, text=True, timeout=120)
    return json.dumps({"exit_code": done.returncode, "output": (done.stdout + done.stderr)[-4000:]})


def worker_check(number: int) -> str:
    """Worker ``number``'s check."""
    return f"python3 -m unittest -q test_worker{number}"


def _messages(body: dict[str, Any]) -> list[dict[str, Any]]:
    return [item for item in body.get("input") or [] if isinstance(item, dict)]


def _outputs(body: dict[str, Any], name: str) -> list[dict[str, Any]]:
    """The function outputs of calls to ``name`` the agent has seen."""
    items = _messages(body)
    calls = {i.get("call_id"): i.get("name") for i in items if i.get("type") == "function_call"}
    found = []
    for item in items:
        if item.get("type") == "function_call_output" and calls.get(item.get("call_id")) == name:
            output = item.get("output")
            try:
                found.append(json.loads(output) if isinstance(output, str) else {"output": output})
            except ValueError:
                found.append({"output": output})
    return found


def _advised(body: dict[str, Any]) -> bool:
    for item in _messages(body):
        content = item.get("content")
        text = content if isinstance(content, str) else json.dumps(content)
        if item.get("role") == "user" and "[witness advisor]" in text and "Severity:" in text:
            return True
    return False


@dataclass
class AgentScript:
    """The rules, and what they saw."""

    workers: int = 1
    root_fails: bool = True
    probes: dict[str, ToolCall] = field(default_factory=dict)
    """Per requester: a tool call the advisor makes before its verdict."""
    consult_first: bool = False
    """The root first asks the advisor itself, through ``consult_advisor``."""
    hold: threading.Event | None = None
    """Hold every advisor answer until this is set."""
    advisor_tools: dict[str, list[str]] = field(default_factory=dict)
    """Per requester: the tool names declared in its advisor's first request."""
    advisor_results: dict[str, list[str]] = field(default_factory=dict)
    """Per requester: the tool results its advisor was sent."""
    packets: dict[str, str] = field(default_factory=dict)
    """Per requester: the last case packet its advisor was sent."""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def advisor_packet(self, requester: str) -> str:
        """The last case packet sent for ``requester``."""
        with self.lock:
            return self.packets[requester]

    def install(self, server: ModelServer) -> None:
        """Answer the server's requests by these rules."""
        server.on(self.answer)

    def answer(self, request: RecordedRequest) -> Script | None:
        """The answer to one request (``None``: not ours)."""
        body = request.body if isinstance(request.body, dict) else {}
        if request.model == ADVISOR_MODEL:
            reply = self._advisor(body)
            return Held(reply, self.hold) if self.hold is not None else reply
        if request.model != EXECUTOR_MODEL:
            return None
        instructions = str(body.get("instructions") or "")
        if instructions.startswith("You are the root"):
            return self._root(body)
        return self._worker(body, int(instructions.split("worker", 1)[1].split()[0].strip(".")))

    def _root(self, body: dict[str, Any]) -> Reply:
        if self.consult_first and not _outputs(body, "consult_advisor"):
            return Reply(tool_calls=[ToolCall("consult_advisor", {"question": "Is changing calc.add the right fix?"})])
        checks = _outputs(body, "bash")
        failed = [c for c in checks if c.get("exit_code") not in (0, None)]
        if self.root_fails and len(failed) < 2 and not _advised(body):
            return Reply(tool_calls=[ToolCall("bash", {"command": ROOT_CHECK})])
        if self.root_fails and len(checks) == len(failed):
            return Reply(tool_calls=[ToolCall("bash", {"command": FIX})])
        if self.root_fails and checks[-1].get("exit_code") == 0 and len(checks) == len(failed) + 1:
            return Reply(tool_calls=[ToolCall("bash", {"command": ROOT_CHECK})])
        delegated = sum(len(_outputs(body, f"worker{n}")) for n in range(1, self.workers + 1))
        if not delegated and self.workers:
            return Reply(tool_calls=[ToolCall(f"worker{n}", {"input": f"Make test_worker{n} pass."})
                                     for n in range(1, self.workers + 1)])
        return Reply(text=f"Done: calc.add fixed and verified; {delegated} workers reported.")

    def _worker(self, body: dict[str, Any], number: int) -> Reply:
        failed = [c for c in _outputs(body, "bash") if c.get("exit_code") not in (0, None)]
        if _advised(body):
            return Reply(text=f"worker{number}: the advisor says the test is a placeholder; reported to root.")
        if len(failed) < 2:
            return Reply(tool_calls=[ToolCall("bash", {"command": worker_check(number)})])
        return Reply(text=f"worker{number}: gave up without advice.")

    def _advisor(self, body: dict[str, Any]) -> Reply:
        messages = body.get("messages") or []
        packet: dict[str, Any] = next((m for m in messages if m.get("role") == "user"
                                       and "requester" in str(m.get("content"))), {})
        content = packet.get("content")
        text = content if isinstance(content, str) else "".join(p.get("text", "") for p in content or [])
        requester = json.loads(text)["requester"]["agent_id"] if text.startswith("{") else "?"
        tools = [t["function"]["name"] for t in body.get("tools") or []]
        results = [m.get("content") for m in messages if m.get("role") == "tool"]
        with self.lock:
            self.packets[requester] = text
            self.advisor_tools.setdefault(requester, tools)
            self.advisor_results[requester] = [str(r) for r in results]
        calls = [c["function"]["name"] for m in messages if m.get("role") == "assistant"
                 for c in m.get("tool_calls") or []]
        if "advisor_verdict" in calls:
            return Reply(text="Verdict submitted.")
        probe = self.probes.get(requester)
        if probe is not None and probe.name not in calls:
            return Reply(tool_calls=[probe])
        return Reply(tool_calls=[ToolCall("advisor_verdict", {
            "severity": "concern", "summary": f"{requester}: the same check failed twice for the same reason.",
            "recommended_action": "Read the assertion, fix the code it names, then re-run the check once."})])
