"""witness:advisor entries without a server: parameters, defaults, naming, tool_choice, the function schema."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from advisor.errors import BadRequest
from advisor.gateway import FUNCTION_PREFIX, function_name, map_tool_choice, split_tools


def entry(**parameters: Any) -> dict[str, Any]:
    """A tool entry."""
    return {"type": "witness:advisor", "parameters": parameters}


def test_defaults_are_the_seeds() -> None:
    """An empty entry: unnamed, no pinned model, no transcript, one use, 1400 output tokens."""
    (advisor,) = split_tools([entry()]).advisors
    parameters = advisor.parameters
    assert (advisor.function_name, advisor.name, parameters.model, parameters.forward_transcript,
            parameters.max_uses, advisor.completion_tokens) == ("witness_advisor", None, None, False, 1, 1400)
    assert (parameters.instructions, parameters.reasoning, parameters.temperature) == (None, None, None)


def test_names_are_trimmed_and_become_function_suffixes() -> None:
    """Names are trimmed; the function name is the lower-cased, cleaned name after witness_advisor_."""
    tools = split_tools([entry(name="  Security Reviewer "), entry(name="architect"), entry(name="db-ops")])
    assert [a.name for a in tools.advisors] == ["Security Reviewer", "architect", "db-ops"]
    assert [a.function_name for a in tools.advisors] == [
        "witness_advisor_security_reviewer", "witness_advisor_architect", "witness_advisor_db-ops"]


@given(st.text(alphabet=st.characters(categories=("L", "N"), include_characters=" _-"), min_size=1, max_size=64))
def test_every_accepted_name_makes_a_valid_function_name(name: str) -> None:
    """Whatever name is accepted, its function name is witness_advisor_ + [a-z0-9_-], at most 64 characters."""
    try:
        made = function_name(name.strip() or None)
    except BadRequest:
        return
    assert re.fullmatch(r"witness_advisor(_[a-z0-9-][a-z0-9_-]*)?", made) and len(made) <= 64
    assert "__" not in made.removeprefix(FUNCTION_PREFIX)


def test_max_tokens_is_the_deprecated_alias_and_small_caps_are_raised() -> None:
    """max_tokens counts when max_completion_tokens is absent; below 1024 is raised to 1024."""
    caps = [a.completion_tokens for a in split_tools([
        entry(name="a", max_tokens=2000), entry(name="b", max_completion_tokens=3000, max_tokens=2000),
        entry(name="c", max_completion_tokens=10)]).advisors]
    assert caps == [2000, 3000, 1024]


def test_the_function_schema_asks_for_a_model_only_when_none_is_pinned() -> None:
    """Pinned: prompt only; unpinned: prompt and an optional model; never other properties."""
    pinned, free = split_tools([entry(name="p", model="m"), entry()]).advisors
    pinned_schema = pinned.function_tool()["function"]["parameters"]
    free_schema = free.function_tool()["function"]["parameters"]
    assert set(pinned_schema["properties"]) == {"prompt"} and set(free_schema["properties"]) == {"prompt", "model"}
    for schema in (pinned_schema, free_schema):
        assert schema["required"] == ["prompt"] and schema["additionalProperties"] is False
    assert '"p" advisor' in pinned.function_tool()["function"]["description"]


def test_client_tools_are_kept_in_order_and_advisors_declared_after_them() -> None:
    """The upstream sees the client's tools unchanged, then the advisors' functions."""
    shell = {"type": "function", "function": {"name": "sh", "parameters": {"type": "object"}}}
    custom = {"type": "custom", "custom": {"name": "patch"}}
    tools = split_tools([entry(name="x"), shell, custom])
    assert tools.upstream_tools()[:2] == [shell, custom]
    assert tools.upstream_tools()[2]["function"]["name"] == "witness_advisor_x"


@pytest.mark.parametrize(("choice", "mapped", "forced"), [
    ("witness:advisor", {"type": "function", "function": {"name": "witness_advisor_one"}}, True),
    ({"type": "witness:advisor"}, {"type": "function", "function": {"name": "witness_advisor_one"}}, True),
    ({"type": "function", "function": {"name": "witness:advisor"}},
     {"type": "function", "function": {"name": "witness_advisor_one"}}, True),
    ({"type": "function", "function": {"name": "witness_advisor_two"}},
     {"type": "function", "function": {"name": "witness_advisor_two"}}, True),
    ("auto", "auto", False), ("required", "required", False), (None, None, False),
    ({"type": "function", "function": {"name": "sh"}}, {"type": "function", "function": {"name": "sh"}}, False),
])
def test_tool_choice_maps_the_alias_to_the_first_advisor(choice: Any, mapped: Any, forced: bool) -> None:
    """The alias (string or object) names the first advisor's function; other choices pass unchanged."""
    tools = split_tools([entry(name="one"), entry(name="two")])
    assert map_tool_choice(choice, tools) == (mapped, forced)
