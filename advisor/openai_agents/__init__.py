"""The OpenAI Agents SDK driving :class:`~advisor.AdvisorHost` (install the ``agents`` extra).

:class:`AgentsAdvisor` registers a root agent, its agents-as-tools (:meth:`~AgentsAdvisor.worker_tool`)
and its handoffs as local sub-agents; its :attr:`~AgentsAdvisor.hooks` (``RunHooks``) report tool
calls and answers to the host; its ``call_model_input_filter`` asks the host before each model
call and delivers advice and obligation notices as input items, kept in place on every later
call; :meth:`~AgentsAdvisor.consult_tool` is the ``consult_advisor`` function tool; and
:meth:`~AgentsAdvisor.run` runs an agent and, when the host refuses the stop, continues it with
what the host said.

This package imports the SDK; ``import advisor`` does not import this package.
"""

from advisor.openai_agents._adapter import AdvisorRunHooks, AgentsAdvisor, tool_exit

__all__ = ["AdvisorRunHooks", "AgentsAdvisor", "tool_exit"]
