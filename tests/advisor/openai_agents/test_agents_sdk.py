"""The real OpenAI Agents SDK drives AdvisorHost against the scripted model server on loopback.

The executor agents and the advisor are answered by the rules in ``tests/support/agents_script.py``
(a test double for remote models); the SDK, its Responses client, witness's OpenAI chat client,
the HTTP on loopback and the agents' bash (real bash in a throwaway workspace) are all real.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from agents import Agent, OpenAIResponsesModel, function_tool
from openai import AsyncOpenAI

from advisor.consult import ConsultationLog, ConsultSettings
from advisor.models import ModelConfig, OpenAIChatModel, ToolSpec
from advisor.openai_agents import AgentsAdvisor, tool_exit
from advisor.orchestration import AdvisorHost, HostSettings, HostTool, RunLog
from tests.advisor.orchestration.helpers import GatedModel, verdict
from tests.support.agents_script import (
    ADVISOR_MODEL,
    EXECUTOR_MODEL,
    AgentScript,
    make_workspace,
    run_bash,
)
from tests.support.model_server import ModelServer
from tests.support.script import Reply, ToolCall

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[3]


def _agents(server: ModelServer, workspace: Path, home: Path, workers: int, *, settings: HostSettings | None = None,
            root_tools: tuple[str, ...] = ("bash",)) -> tuple[AgentsAdvisor, Agent[Any], AsyncOpenAI]:
    client = AsyncOpenAI(base_url=server.openai_base_url, api_key="scripted")
    executor = OpenAIResponsesModel(model=EXECUTOR_MODEL, openai_client=client)

    @function_tool
    def bash(command: str) -> str:
        """Run a bash command in the workspace."""
        return run_bash(workspace, command)

    @function_tool
    def read(path: str) -> str:
        """Read a file of the workspace."""
        return (workspace / path).read_text()

    @function_tool
    def grep(pattern: str) -> str:
        """Search the workspace's Python files for a fixed string."""
        return "\n".join(f"{p.name}: {line}" for p in sorted(workspace.glob("*.py"))
                         for line in p.read_text().splitlines() if pattern in line)

    available = {"bash": bash, "read": read, "grep": grep}
    model = OpenAIChatModel(ModelConfig(provider="openai", model=ADVISOR_MODEL, base_url=server.openai_base_url),
                            api_key="scripted")
    host = AdvisorHost(model, settings=settings or HostSettings(), workspace=workspace, log=ConsultationLog(home),
                       run_log=RunLog(home))
    adapter = AgentsAdvisor(host)
    root = Agent(name="root", instructions="You are the root agent.", model=executor,
                 tools=[available[name] for name in root_tools])
    adapter.register(root)
    for number in range(1, workers + 1):
        worker = Agent(name=f"worker{number}", instructions=f"You are worker{number}.", model=executor, tools=[bash])
        root.tools.append(adapter.worker_tool(worker, parent=root, tool_name=f"worker{number}"))
    return adapter, root, client


def _run(adapter: AgentsAdvisor, root: Agent[Any], client: AsyncOpenAI, task: str) -> Any:
    """Run the root on a loop of its own and close the executor's client on it."""
    async def go() -> Any:
        try:
            return await adapter.run(root, task)
        finally:
            await client.close()
    return asyncio.run(go())


def _inputs_seen(server: ModelServer, who: str) -> list[str]:
    return [json.dumps(r.body.get("input")) for r in server.requests_to("responses")
            if str(r.body.get("instructions", "")).startswith(f"You are {who}")]


def test_root_and_worker_each_fail_a_check_escalate_and_get_advice(model_server: ModelServer, tmp_path: Path) -> None:
    """Root and worker each fail their check twice, each escalates on its own score, and each gets its own advice;
    the worker's check, never passing, is the root's to answer for."""
    script = AgentScript(workers=1)
    script.install(model_server)
    adapter, root, client = _agents(model_server, make_workspace(tmp_path / "ws", 1), tmp_path / "home", 1)
    try:
        result = _run(adapter, root, client, "Fix calc.add so that the tests pass.")
        open_items = adapter.host.tracker.open_items("root")
    finally:
        adapter.host.close()
    assert "calc.add fixed and verified" in str(result.final_output)
    summaries = ConsultationLog(tmp_path / "home").summaries()
    assert sorted((s.requester, s.trigger, s.outcome, s.severity) for s in summaries) == [
        ("root", "escalation", "delivered", "concern"), ("worker1", "escalation", "delivered", "concern")]
    root_inputs, worker_inputs = "".join(_inputs_seen(model_server, "the root")), "".join(
        _inputs_seen(model_server, "worker1"))
    assert "root: the same check failed twice" in root_inputs and "worker1: the same check" not in root_inputs
    assert "worker1: the same check failed twice" in worker_inputs and "root: the same check" not in worker_inputs
    # The root's fix and genuine re-run closed its own obligation; the worker's check never passed,
    # and the root inherits it.
    assert [(item.check, item.failed_by) for item in open_items] == [("python -m unittest -q test_worker1", "worker1")]


def test_a_tool_call_the_host_refuses_is_never_run(model_server: ModelServer, tmp_path: Path) -> None:
    """An editing review holds the workspace; the agent's `touch` is refused by the host, recorded, and not run —
    the SDK answers the model with the refusal instead (prompt text is not the permission boundary, nor is a record)."""
    workspace = tmp_path / "ws"
    workspace.mkdir()
    reviewer = GatedModel(verdict())
    host = AdvisorHost(reviewer, workspace=workspace, consult_settings=ConsultSettings(retry_delay=0),
                       log=ConsultationLog(tmp_path / "home"), run_log=RunLog(tmp_path / "home"),
                       host_tools=[HostTool(ToolSpec(name="edit", description="Edit a file.",
                                                     parameters={"type": "object"}), run=lambda _: "edited",
                                            effect="mutating")])
    client = AsyncOpenAI(base_url=model_server.openai_base_url, api_key="scripted")

    @function_tool
    def touch(path: str) -> str:
        """Create an empty file in the workspace."""
        (workspace / path).touch()
        return json.dumps({"exit_code": 0, "output": ""})

    @function_tool
    def edit(path: str) -> str:
        """Edit a file of the workspace."""
        return json.dumps({"exit_code": 0, "output": ""})

    root = Agent(name="root", instructions="You are the root agent.", tools=[touch, edit],
                 model=OpenAIResponsesModel(model=EXECUTOR_MODEL, openai_client=client))
    adapter = AgentsAdvisor(host)
    adapter.register(root)
    host.set_policy("root", {"version": 3, "allowTools": ["edit"]})
    review = threading.Thread(target=lambda: host.consult("root", "Fix it yourself."))
    review.start()
    deadline = time.monotonic() + 30
    while not reviewer.arrived.is_set() and time.monotonic() < deadline:
        time.sleep(0.01)
    model_server.enqueue(Reply(tool_calls=[ToolCall("touch", {"path": "made.txt"})]), Reply(text="Done."))
    try:
        _run(adapter, root, client, "Create made.txt.")
    finally:
        reviewer.release.set()
        review.join(30)
        host.close()
    assert not (workspace / "made.txt").exists()
    assert [reason for _, reason in adapter.refusals] == [adapter.refusals[0][1]]
    assert "editing advisor review" in adapter.refusals[0][1]
    answered = json.dumps(model_server.requests_to("responses")[-1].body.get("input"))
    assert "Not run: the host refused this call" in answered


def test_worker_advisor_cannot_use_a_tool_the_worker_cannot_see(model_server: ModelServer, tmp_path: Path) -> None:
    """The root sees read and grep, the worker only bash: the worker's advisor gets neither; its grep is refused."""
    script = AgentScript(workers=1, probes={"root": ToolCall("grep", {"pattern": "def add"}),
                                            "worker1": ToolCall("grep", {"pattern": "def add"})})
    script.install(model_server)
    adapter, root, client = _agents(model_server, make_workspace(tmp_path / "ws", 1), tmp_path / "home", 1,
                                    root_tools=("bash", "read", "grep"))
    try:
        _run(adapter, root, client, "Fix calc.add so that the tests pass.")
    finally:
        adapter.host.close()
    assert {"advisor_verdict", "read", "grep"} <= set(script.advisor_tools["root"])
    assert script.advisor_tools["worker1"] == ["advisor_verdict"]
    assert any("calc.py" in result and "def add" in result for result in script.advisor_results["root"])
    assert any("Unknown tool: grep" in result for result in script.advisor_results["worker1"])
    assert not any("def add" in result for result in script.advisor_results["worker1"])


def test_limiter_holds_at_two_under_five_simultaneous_escalations(model_server: ModelServer, tmp_path: Path) -> None:
    """Five workers escalate at once: two advisor runs go to the model, three wait FIFO, all five get advice."""
    release = threading.Event()
    script = AgentScript(workers=5, root_fails=False, hold=release)
    script.install(model_server)
    adapter, root, client = _agents(model_server, make_workspace(tmp_path / "ws", 5), tmp_path / "home", 5,
                                    settings=HostSettings(max_concurrent_advisor_runs=2))
    outcome: dict[str, Any] = {}

    def run() -> None:
        outcome["result"] = _run(adapter, root, client, "Have the five workers report.")

    runner = threading.Thread(target=run)
    runner.start()
    try:
        deadline = time.monotonic() + 120
        while not (adapter.host.limiter_stats("root")["queued"] == 3 and model_server.in_flight(ADVISOR_MODEL) == 2):
            assert time.monotonic() < deadline, adapter.host.limiter_stats("root")
            assert runner.is_alive()
            time.sleep(0.01)
        release.set()
        runner.join(timeout=120)
        stats = adapter.host.limiter_stats("root")
    finally:
        release.set()
        adapter.host.close()
    assert model_server.peak_in_flight(ADVISOR_MODEL) == 2
    assert stats["peak_running"] == 2 and stats["consumed"] == 5 and stats["reserved"] == 0
    summaries = ConsultationLog(tmp_path / "home").summaries()
    delivered = sorted(str(s.requester) for s in summaries if s.outcome == "delivered")
    assert delivered == [f"worker{n}" for n in range(1, 6)]
    queued = [row for row in RunLog(tmp_path / "home").rows() if getattr(row, "event", None) == "queued"]
    assert len(queued) == 3
    assert "5 workers reported" in str(outcome["result"].final_output)


def test_consult_advisor_asks_for_the_calling_agent_and_issues_an_id(model_server: ModelServer,
                                                                      tmp_path: Path) -> None:
    """The root's consult_advisor call is a manual consultation of the root; its answer carries the consultation id."""
    script = AgentScript(workers=0, root_fails=False, consult_first=True)
    script.install(model_server)
    adapter, root, client = _agents(model_server, make_workspace(tmp_path / "ws", 0), tmp_path / "home", 0)
    root.tools.append(adapter.consult_tool())
    try:
        _run(adapter, root, client, "Fix calc.add.")
    finally:
        adapter.host.close()
    [summary] = ConsultationLog(tmp_path / "home").summaries()
    assert (summary.requester, summary.trigger, summary.outcome) == ("root", "manual", "delivered")
    answers = [item for r in model_server.requests_to("responses") for item in r.body.get("input") or []
               if isinstance(item, dict) and item.get("type") == "function_call_output"]
    assert any(f"consultation_id: {summary.consultation_id}" in str(a.get("output")) for a in answers)
    assert "consult_advisor" not in json.dumps(json.loads(script.advisor_packet("root")))


def test_the_example_runs() -> None:
    """examples/agents_sdk_advisor.py runs a root and a worker to the end and shows both consultations."""
    done = subprocess.run([sys.executable, "examples/agents_sdk_advisor.py"], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "root says: Done: calc.add fixed and verified" in done.stdout
    assert "for root (escalation): delivered, severity concern" in done.stdout
    assert "for worker1 (escalation): delivered, severity concern" in done.stdout


@pytest.mark.parametrize(("result", "expected"), [
    ('{"exit_code": 1, "output": "1 failed"}', (1, False, "1 failed")),
    ({"exitCode": 0, "stdout": "ok"}, (0, False, "ok")),
    ("plain text", (None, False, "plain text")),
    ({"exit_code": True}, (None, False, '{"exit_code": true}')),
])
def test_tool_results_give_their_exit_code_only_when_they_state_one(result: object, expected: tuple[Any, ...]) -> None:
    """A tool result names its exit code as exit_code/exitCode; text without one is never read as a pass."""
    assert tool_exit(result) == expected
