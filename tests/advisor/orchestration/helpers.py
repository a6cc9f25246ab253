"""Hosts for the scenario tests, with the scripted model (a test double for a remote model, and
labelled as one) or a model that waits for the test's signal."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from advisor.consult import ConsultationLog, ConsultSettings
from advisor.models import ModelRequest, ModelResponse, ScriptedModel
from advisor.orchestration import AdvisorHost, HostSettings, HostTool, RunLog, RunRecord

FAILURE = "FAILED tests/test_calc.py::test_add - assert 3 == 4\n1 failed, 3 passed in 0.05s"


def verdict(severity: str = "concern", summary: str = "The same assertion keeps failing.",
            **extra: Any) -> list[Any]:
    """The two turns of a consultation: the verdict tool call, then the closing message."""
    return [{"tool_calls": [{"name": "advisor_verdict", "arguments": {"severity": severity, "summary": summary,
                                                                      **extra}}]}, "Submitted."]


class GatedModel(ScriptedModel):
    """The scripted model, holding every request until :attr:`release` is set."""

    def __init__(self, script: Sequence[Any]) -> None:
        super().__init__(list(script))
        self.release = threading.Event()
        self.arrived = threading.Event()

    async def complete(self, request: ModelRequest) -> ModelResponse:
        self.arrived.set()
        while not self.release.is_set():
            await asyncio.sleep(0.002)
        return await super().complete(request)


def make_host(tmp_path: Path, script: Sequence[Any] | ScriptedModel | None = (), *,
              host_tools: Sequence[HostTool] = (), consult: ConsultSettings | None = None,
              session_id: str | None = None, **settings: Any) -> AdvisorHost:
    """A host logging under ``tmp_path``, its workspace ``tmp_path/ws``."""
    model = script if isinstance(script, ScriptedModel) or script is None else ScriptedModel(list(script))
    workspace = tmp_path / "ws"
    workspace.mkdir(parents=True, exist_ok=True)
    (workspace / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    return AdvisorHost(model, settings=HostSettings(**settings), workspace=workspace,
                       consult_settings=consult or ConsultSettings(retry_delay=0),
                       log=ConsultationLog(tmp_path / "log"), run_log=RunLog(tmp_path / "log"), host_tools=host_tools,
                       session_id=session_id)


def fail(host: AdvisorHost, agent: str, times: int = 2, command: str = "pytest -q", start: int = 0) -> None:
    """The agent runs a check that fails the same way ``times`` times (two reach the escalation threshold)."""
    for number in range(start, start + times):
        call = f"{agent}-call-{number}"
        host.on_tool_dispatched(agent, call, "bash", {"command": command})
        host.on_tool_result(agent, call, exit_code=1, output=FAILURE)


def tree(host: AdvisorHost, workers: int = 1, tools: Sequence[str] = ("bash", "read", "grep")) -> None:
    """A root and its workers, every one seeing ``tools``."""
    host.register_agent("root", visible_tools=tools)
    host.on_user_message("root", "Fix calc.add and make the tests pass.")
    for number in range(1, workers + 1):
        host.register_agent(f"w{number}", "local-subagent", "root", visible_tools=tools)
        host.on_user_message(f"w{number}", f"Task {number}")


def rows(tmp_path: Path) -> list[RunRecord]:
    """The ``advisor/run`` rows written so far."""
    return [r for r in RunLog(tmp_path / "log").rows() if isinstance(r, RunRecord)]


def requests_of(model: ScriptedModel) -> list[ModelRequest]:
    """What the advisor model was sent."""
    return list(model.requests)
