"""A request's tools split into the client's own and the advisors, and ``tool_choice`` mapped."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from advisor._values import Frozen
from advisor.errors import BadRequest
from advisor.gateway._entries import (
    _CLIENT_TYPES,
    TOOL_TYPE,
    AdvisorEntry,
    AdvisorParameters,
    function_name,
)


class ToolSet(Frozen):
    """The tools of one request."""

    client_tools: tuple[dict[str, Any], ...]
    """The client's own tools, forwarded unchanged."""
    advisors: tuple[AdvisorEntry, ...]
    """The advisors, in the order the client listed them."""

    def advisor(self, function: str) -> AdvisorEntry | None:
        """The advisor behind a function name, if it is one."""
        return next((entry for entry in self.advisors if entry.function_name == function), None)

    def upstream_tools(self) -> list[dict[str, Any]]:
        """What the upstream is given: the client's tools, then one function per advisor."""
        return [*self.client_tools, *(entry.function_tool() for entry in self.advisors)]


def split_tools(tools: Any) -> ToolSet:
    """Validate ``tools`` and split it. Raises :class:`~advisor.errors.BadRequest` (400)."""
    if tools is None:
        return ToolSet(client_tools=(), advisors=())
    if not isinstance(tools, list):
        raise BadRequest("'tools' must be an array", code="invalid_tools", param="tools")
    client: list[dict[str, Any]] = []
    advisors: list[AdvisorEntry] = []
    unknown: list[int] = []
    for index, tool in enumerate(tools):
        if not isinstance(tool, dict):
            raise BadRequest(f"tools[{index}] must be an object", code="invalid_tools", param=f"tools[{index}]")
        kind = tool.get("type")
        if kind == TOOL_TYPE:
            advisors.append(_entry(tool, index))
            continue
        if isinstance(kind, str) and kind.endswith(":advisor"):
            raise BadRequest(f"tools[{index}] has an unknown type {kind!r} (this gateway's advisor is "
                             f"{TOOL_TYPE!r})", code="unknown_tool_type", param=f"tools[{index}].type")
        if not (isinstance(kind, str) and kind in _CLIENT_TYPES):
            unknown.append(index)
        client.append(tool)
    if advisors and unknown:
        # The loop reads the calls an answer makes; a tool type it does not know could come back in a
        # shape it cannot tell from an advisor's. Without advisors the upstream judges the type.
        index = unknown[0]
        raise BadRequest(f"tools[{index}] has the type {tools[index].get('type')!r}, which cannot be combined with "
                         f"advisors; known types: function, custom, {TOOL_TYPE}", code="unknown_tool_type",
                         param=f"tools[{index}].type")
    _check_names(advisors, client)
    return ToolSet(client_tools=tuple(client), advisors=tuple(advisors))


def _entry(tool: dict[str, Any], index: int) -> AdvisorEntry:
    nested = tool.get("parameters", {})
    if not isinstance(nested, dict):
        raise BadRequest(f"tools[{index}].parameters must be an object", code="invalid_advisor_parameters",
                         param=f"tools[{index}].parameters")
    top = {key: value for key, value in tool.items() if key not in ("type", "parameters")}
    clash = sorted(key for key in top if key in nested and top[key] != nested[key])
    if clash:
        raise BadRequest(f"tools[{index}] sets {', '.join(clash)} both in 'parameters' and beside it, differently",
                         code="invalid_advisor_parameters", param=f"tools[{index}].parameters")
    try:
        parameters = AdvisorParameters.model_validate({**top, **nested})
    except ValidationError as error:
        problem = error.errors()[0]
        where = ".".join(str(part) for part in problem["loc"])
        message = "unknown parameter" if problem["type"] == "extra_forbidden" else problem["msg"]
        raise BadRequest(f"tools[{index}].parameters.{where}: {message}", code="invalid_advisor_parameters",
                         param=f"tools[{index}].parameters.{where}") from None
    return AdvisorEntry(parameters=parameters, function_name=function_name(parameters.name), position=index)


def _check_names(advisors: list[AdvisorEntry], client: list[dict[str, Any]]) -> None:
    unnamed = [entry for entry in advisors if entry.name is None]
    if len(unnamed) > 1:
        raise BadRequest(f"at most one {TOOL_TYPE} entry may leave out 'name' ({len(unnamed)} do)",
                         code="invalid_advisor_name", param=f"tools[{unnamed[1].position}].parameters.name")
    seen: dict[str, AdvisorEntry] = {}
    functions: dict[str, AdvisorEntry] = {}
    for entry in advisors:
        if entry.name is not None:
            key = entry.name.lower()
            if key in seen:
                raise BadRequest(f"advisor name {entry.name!r} is used twice", code="invalid_advisor_name",
                                 param=f"tools[{entry.position}].parameters.name")
            seen[key] = entry
        if entry.function_name in functions:
            raise BadRequest(f"advisor names {functions[entry.function_name].name!r} and {entry.name!r} both become "
                             f"the function {entry.function_name!r}", code="invalid_advisor_name",
                             param=f"tools[{entry.position}].parameters.name")
        functions[entry.function_name] = entry
    for tool in client:
        spec = tool.get("function") if tool.get("type") == "function" else tool.get("custom")
        name = spec.get("name") if isinstance(spec, dict) else None
        if isinstance(name, str) and name in functions:
            raise BadRequest(f"the client tool {name!r} has the name of an advisor's function", code="invalid_tools",
                             param="tools")


def map_tool_choice(choice: Any, tools: ToolSet) -> tuple[Any, bool]:
    """The ``tool_choice`` for the upstream, and whether it forces an advisor. ``"witness:advisor"``
    (or an object naming it) becomes the first advisor's function."""
    named = choice == TOOL_TYPE or (isinstance(choice, dict) and (
        choice.get("type") == TOOL_TYPE
        or (choice.get("type") == "function" and (choice.get("function") or {}).get("name") == TOOL_TYPE)))
    if named:
        if not tools.advisors:
            raise BadRequest(f"tool_choice names {TOOL_TYPE!r} but no tool entry declares one",
                             code="invalid_tool_choice", param="tool_choice")
        return {"type": "function", "function": {"name": tools.advisors[0].function_name}}, True
    if isinstance(choice, dict) and choice.get("type") == "function":
        name = (choice.get("function") or {}).get("name")
        return choice, tools.advisor(name) is not None if isinstance(name, str) else False
    return choice, False


def follow_up_choice(choice: Any, *, forced: bool) -> str | None:
    """The ``tool_choice`` of the rounds after advisor calls: ``"auto"`` when the client's choice
    forced the advisor or required a tool call (a model that obeys would call the advisor again,
    round after round), else ``None`` (the choice is kept)."""
    required = choice == "required" or (isinstance(choice, dict) and choice.get("mode") == "required")
    return "auto" if forced or required else None
