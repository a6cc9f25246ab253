"""A root agent and its worker, run by the OpenAI Agents SDK with witness's advisor inside.

    python examples/agents_sdk_advisor.py                  # against the scripted loopback server
    python examples/agents_sdk_advisor.py --workers 3

Without ``--base-url`` the models are the project's scripted model server on loopback (a test
double that says so: its rules are in ``tests/support/agents_script.py``). The tools are real:
``bash`` runs real bash in a throwaway workspace whose tests fail. The root's check fails twice,
its advisor is consulted automatically and says what to do; the root fixes the code, re-runs the
check and delegates to its worker, which fails its own check twice and gets advice of its own.
Prints what each agent was told and the advisor's run records.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agents import Agent, OpenAIResponsesModel, function_tool
from openai import AsyncOpenAI

from advisor.consult import ConsultationLog
from advisor.models import ModelConfig, OpenAIChatModel
from advisor.openai_agents import AgentsAdvisor
from advisor.orchestration import AdvisorHost, HostSettings, RunLog
from tests.support.agents_script import (
    ADVISOR_MODEL,
    EXECUTOR_MODEL,
    AgentScript,
    make_workspace,
    run_bash,
)
from tests.support.model_server import ModelServer


def build(base_url: str, workspace: Path, workers: int, home: Path) -> tuple[AgentsAdvisor, Agent[None], AsyncOpenAI]:
    """The host, the adapter and the agents."""
    client = AsyncOpenAI(base_url=base_url, api_key="scripted")
    executor = OpenAIResponsesModel(model=EXECUTOR_MODEL, openai_client=client)

    @function_tool
    def bash(command: str) -> str:
        """Run a bash command in the workspace; returns its exit code and output."""
        return run_bash(workspace, command)

    advisor_model = OpenAIChatModel(ModelConfig(provider="openai", model=ADVISOR_MODEL, base_url=base_url),
                                    api_key="scripted")
    host = AdvisorHost(advisor_model,
                       settings=HostSettings(), workspace=workspace, log=ConsultationLog(home), run_log=RunLog(home))
    adapter = AgentsAdvisor(host)
    root = Agent(name="root", instructions="You are the root agent. Fix calc.add and verify it.", model=executor,
                 tools=[bash])
    adapter.register(root)
    for number in range(1, workers + 1):
        worker = Agent(name=f"worker{number}", instructions=f"You are worker{number}. Make your test pass.",
                       model=executor, tools=[bash])
        root.tools.append(adapter.worker_tool(worker, parent=root, tool_name=f"worker{number}"))
    root.tools.append(adapter.consult_tool())
    return adapter, root, client


async def scenario(base_url: str, workers: int, home: Path) -> int:
    """Run the task; print what happened."""
    with tempfile.TemporaryDirectory() as folder:
        workspace = make_workspace(Path(folder), workers)
        adapter, root, client = build(base_url, workspace, workers, home)
        try:
            result = await adapter.run(root, "Fix calc.add so that the tests pass, then have the workers report.")
        finally:
            await client.close()
            adapter.host.close()
        print(f"root says: {result.final_output}")
        for summary in ConsultationLog(home).summaries():
            print(f"consultation {summary.consultation_id} for {summary.requester} ({summary.trigger}): "
                  f"{summary.outcome}, severity {summary.severity}, {summary.requests} requests, "
                  f"{summary.usage.total_tokens} tokens")
        for row in RunLog(home).rows():
            data = row.model_dump(mode="json", exclude_none=True)
            print(json.dumps({k: data[k] for k in ("event", "requester", "trigger", "consultation_id", "turn")
                              if k in data}))
        return 0


def main() -> int:
    """Parse the arguments and run."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base-url", help="an OpenAI-compatible server (default: the scripted loopback server)")
    parser.add_argument("--workers", type=int, default=1)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        if arguments.base_url:
            return asyncio.run(scenario(arguments.base_url, arguments.workers, Path(home)))
        with ModelServer() as server:
            AgentScript(workers=arguments.workers).install(server)
            return asyncio.run(scenario(server.openai_base_url, arguments.workers, Path(home)))


if __name__ == "__main__":
    sys.exit(main())
