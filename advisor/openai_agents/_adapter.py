"""The adapter: SDK agents as host agents, SDK lifecycle callbacks as host lifecycle calls."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from agents import (
    Agent,
    FunctionTool,
    Handoff,
    RunConfig,
    RunContextWrapper,
    RunHooks,
    Runner,
    RunResult,
    Tool,
    ToolGuardrailFunctionOutput,
    ToolInputGuardrail,
    ToolInputGuardrailData,
    function_tool,
)
from agents.items import ModelResponse, TResponseInputItem
from agents.run_config import CallModelData, ModelInputData
from agents.tool_context import ToolContext

from advisor.orchestration import AdvisorHost, Steer
from obligations import AgentRole

CONSULT_DESCRIPTION = (
    "Ask a stronger reviewer model for advice. Ask at a consequential decision you are unsure of, and at the "
    "first substantive validation failure, before a speculative fix. Pass back a consultation_id you were given "
    "to continue that conversation; omit it to start a new one.")
"""What the executor is told about ``consult_advisor``."""
STEER_PREFIX = "[witness advisor]"


def _arguments(raw: str | None) -> dict[str, Any]:
    """A tool call's arguments as the host takes them (text that is not a JSON object is its ``input``)."""
    try:
        arguments = json.loads(raw or "{}")
    except ValueError:
        return {"input": raw}
    return arguments if isinstance(arguments, dict) else {"input": arguments}


def tool_exit(result: object) -> tuple[int | None, bool, str]:
    """A tool result's exit code, error flag and text: a mapping (or JSON text of one) with
    ``exit_code``/``exitCode`` and optionally ``is_error`` and ``output``; anything else is text
    with no exit code (never a pass)."""
    data: object = result
    if isinstance(result, str):
        try:
            data = json.loads(result)
        except ValueError:
            return None, False, result
    if hasattr(data, "model_dump"):
        data = data.model_dump()
    if not isinstance(data, Mapping):
        return None, False, str(result)
    code = data.get("exit_code", data.get("exitCode"))
    exit_code = code if isinstance(code, int) and not isinstance(code, bool) else None
    output = data.get("output", data.get("stdout", result if isinstance(result, str) else json.dumps(data)))
    return exit_code, bool(data.get("is_error", False)), str(output)


class AdvisorRunHooks(RunHooks[Any]):
    """``RunHooks`` that report each agent's tool calls and answers to the host."""

    def __init__(self, adapter: AgentsAdvisor) -> None:
        self._adapter = adapter

    async def on_agent_start(self, context: Any, agent: Any) -> None:
        """Make sure the agent is known (a handoff target registers under its source), and its function tools
        ask the host before they run."""
        self._adapter.agent_id(agent)
        self._adapter.guard(agent)

    async def on_handoff(self, context: RunContextWrapper[Any], from_agent: Any, to_agent: Any) -> None:
        """A handoff target is a local sub-agent of the agent that handed off."""
        self._adapter.register(to_agent, parent=from_agent)

    async def on_tool_start(self, context: RunContextWrapper[Any], agent: Any, tool: Tool) -> None:
        """A tool call is dispatched: a function tool's was admitted by the host already (its input guardrail);
        any other kind is reported here, where the SDK can no longer hold it back."""
        if not isinstance(context, ToolContext) or self._adapter.admitted(context.tool_call_id):
            return
        admission = self._adapter.host.on_tool_dispatched(self._adapter.agent_id(agent), context.tool_call_id,
                                                          tool.name, _arguments(context.tool_arguments))
        if not admission.allowed:
            self._adapter.refusals.append((context.tool_call_id, admission.reason or "refused"))

    async def on_tool_end(self, context: RunContextWrapper[Any], agent: Any, tool: Tool, result: object) -> None:
        """A tool call's result."""
        if not isinstance(context, ToolContext):
            return
        exit_code, is_error, output = tool_exit(result)
        self._adapter.host.on_tool_result(self._adapter.agent_id(agent), context.tool_call_id, exit_code=exit_code,
                                          is_error=is_error, output=output)

    async def on_llm_end(self, context: RunContextWrapper[Any], agent: Any, response: ModelResponse) -> None:
        """The agent's answer text, for the packets' framing and the tracker's turns."""
        texts = []
        for item in response.output:
            for part in getattr(item, "content", None) or ():
                text = getattr(part, "text", None)
                if isinstance(text, str):
                    texts.append(text)
        if texts:
            self._adapter.host.on_assistant_message(self._adapter.agent_id(agent), "\n".join(texts))


class AgentsAdvisor:
    """One host's advisor over a tree of SDK agents (agent names must be unique in the tree)."""

    def __init__(self, host: AdvisorHost, *, max_stop_rounds: int = 4) -> None:
        self.host = host
        self.hooks = AdvisorRunHooks(self)
        self.max_stop_rounds = max_stop_rounds
        self.refusals: list[tuple[str, str]] = []
        """Tool calls the host refused, with why. A function tool's is never run: the model is answered
        with the refusal instead. A hosted or built-in tool the SDK runs itself cannot be held back."""
        self._ids: dict[int, str] = {}
        self._admitted: set[str] = set()
        self._guardrail: ToolInputGuardrail[Any] = ToolInputGuardrail(guardrail_function=self._admit,
                                                                      name="witness-admission")
        self._injected: dict[str, list[tuple[int, TResponseInputItem]]] = {}

    # -- agents ------------------------------------------------------------------------------

    def register(self, agent: Agent[Any], *, parent: Agent[Any] | None = None) -> str:
        """Register an SDK agent: a root, or a local sub-agent of ``parent``."""
        known = self._ids.get(id(agent))
        if known is not None:
            return known
        role: AgentRole = "root" if parent is None else "local-subagent"
        parent_id = self.agent_id(parent) if parent is not None else None
        visible = [tool.name for tool in agent.tools] + [_handoff_tool(h) for h in agent.handoffs]
        self.host.register_agent(agent.name, role, parent_id, visible_tools=visible, label=agent.name)
        self._ids[id(agent)] = agent.name
        for target in agent.handoffs:
            self.host.declare_delegation_tool(_handoff_tool(target))
            if isinstance(target, Agent):
                self.register(target, parent=agent)
        return agent.name

    def agent_id(self, agent: Any) -> str:
        """The host's id of an SDK agent (an unknown one is registered as a root)."""
        return self._ids.get(id(agent)) or self.register(agent)

    def guard(self, agent: Agent[Any]) -> None:
        """Make each function tool of ``agent`` ask the host before it runs (an input guardrail: a refused call
        is never run, its refusal is the tool's result). Tools added after registration are guarded when the
        agent next starts."""
        for tool in agent.tools:
            if isinstance(tool, FunctionTool):
                guardrails = tool.tool_input_guardrails or []
                if self._guardrail not in guardrails:
                    tool.tool_input_guardrails = [self._guardrail, *guardrails]

    def admitted(self, call_id: str) -> bool:
        """Whether the host already took this call's dispatch through the guardrail (asked once)."""
        if call_id in self._admitted:
            self._admitted.discard(call_id)
            return True
        return False

    async def _admit(self, data: ToolInputGuardrailData) -> ToolGuardrailFunctionOutput:
        """The host's admission of one function tool call, before the SDK runs it."""
        context = data.context
        admission = self.host.on_tool_dispatched(self.agent_id(data.agent), context.tool_call_id, context.tool_name,
                                                 _arguments(context.tool_arguments))
        if admission.allowed:
            self._admitted.add(context.tool_call_id)
            return ToolGuardrailFunctionOutput.allow()
        reason = admission.reason or "refused"
        self.refusals.append((context.tool_call_id, reason))
        return ToolGuardrailFunctionOutput.reject_content(f"Not run: the host refused this call ({reason}).")

    def worker_tool(self, worker: Agent[Any], *, parent: Agent[Any], tool_name: str | None = None,
                    description: str | None = None) -> FunctionTool:
        """``worker`` as a tool of ``parent`` (like ``Agent.as_tool``), registered as its local
        sub-agent and run with this adapter's hooks, input filter and stop handling."""
        self.register(worker, parent=parent)
        name = tool_name or worker.name
        self.host.declare_delegation_tool(name)
        adapter = self

        async def run_worker(context: ToolContext[Any], input: str) -> str:
            result = await adapter.run(worker, input, context=context.context)
            return str(result.final_output)

        return function_tool(run_worker, name_override=name,
                             description_override=description or f"Delegate a task to {worker.name}.")

    def consult_tool(self) -> FunctionTool:
        """The ``consult_advisor`` function tool for executor agents."""
        adapter = self

        async def consult_advisor(context: ToolContext[Any], question: str,
                                  consultation_id: str | None = None) -> str:
            agent_id = adapter.agent_id(context.agent) if context.agent is not None else None
            if agent_id is None:
                return "Advisor not consulted: the calling agent is unknown."
            report = await adapter.host.aconsult(agent_id, question, consultation_id)
            issued = f"\n(consultation_id: {report.consultation_id})" if report.outcome == "delivered" else ""
            return report.notice() + issued

        return function_tool(consult_advisor, name_override="consult_advisor", description_override=CONSULT_DESCRIPTION)

    # -- steering ----------------------------------------------------------------------------

    async def input_filter(self, data: CallModelData[Any]) -> ModelInputData:
        """``RunConfig.call_model_input_filter``: ask the host before the model call, and keep
        every message it delivered in its place in the input."""
        agent_id = self.agent_id(data.agent)
        steers = await self.host.aon_pre_step(agent_id)
        base = list(data.model_data.input)
        injected = self._injected.setdefault(agent_id, [])
        injected += [(len(base), _item(steer)) for steer in steers]
        return ModelInputData(input=_woven(base, injected), instructions=data.model_data.instructions)

    def run_config(self, base: RunConfig | None = None) -> RunConfig:
        """A ``RunConfig`` with the adapter's input filter (tracing off unless ``base`` says otherwise)."""
        config = base or RunConfig(tracing_disabled=True)
        config.call_model_input_filter = self.input_filter
        return config

    async def run(self, agent: Agent[Any], input: str | list[TResponseInputItem], *, context: Any = None,
                  run_config: RunConfig | None = None, max_turns: int = 20) -> RunResult:
        """Run ``agent``; when the host refuses the stop (advice, an obligations reminder),
        continue it with what the host said, at most ``max_stop_rounds`` times."""
        agent_id = self.register(agent) if id(agent) not in self._ids else self._ids[id(agent)]
        self.guard(agent)
        if isinstance(input, str):
            self.host.on_user_message(agent_id, input)
        config = self.run_config(run_config)
        result = await Runner.run(agent, input, context=context, run_config=config, hooks=self.hooks,
                                  max_turns=max_turns)
        for _ in range(self.max_stop_rounds):
            decision = await self.host.aon_turn_stopping(agent_id)
            if decision.allow:
                break
            follow = result.to_input_list() + [_item(steer) for steer in decision.steer]
            self.host.on_user_message(agent_id, "", goal=True)
            result = await Runner.run(agent, follow, context=context, run_config=config, hooks=self.hooks,
                                      max_turns=max_turns)
        self._injected.pop(agent_id, None)
        return result


def _handoff_tool(target: Agent[Any] | Handoff[Any, Any]) -> str:
    """The tool name the SDK gives a handoff."""
    return target.tool_name if isinstance(target, Handoff) else Handoff.default_tool_name(target)


def _item(steer: Steer) -> TResponseInputItem:
    """A host message as an SDK input item."""
    return {"role": "user", "content": f"{STEER_PREFIX} {steer.text}"}


def _woven(base: Sequence[TResponseInputItem], injected: Sequence[tuple[int, TResponseInputItem]]
           ) -> list[TResponseInputItem]:
    """``base`` with each delivered item at the position it was delivered."""
    out: list[TResponseInputItem] = []
    pending = sorted(injected, key=lambda pair: pair[0])
    index = 0
    for position, item in enumerate(base):
        while index < len(pending) and pending[index][0] <= position:
            out.append(pending[index][1])
            index += 1
        out.append(item)
    out += [item for _, item in pending[index:]]
    return out
