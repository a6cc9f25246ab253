"""The advisor's request and its parts: what the ledger compiles and the consultation sends.

:class:`AdvisorPrompt` is a request a consultation starts from (its messages are the models'
chat messages); :data:`ADVISOR_SYSTEM_PROMPT` the reviewer's system prompt;
:func:`investigation_tools` the declarations of the read-only investigation tools (their names in
:data:`TOOL_NAMES`); :func:`clip_middle` cuts long text to a limit keeping both ends;
:func:`request_hash` says whether two requests are byte-identical. :class:`PromptSource` is what a
consultation can compile its request from (a session's ledger), and :class:`Compiled` such a
request with how it was made to fit.

This layer sits on :mod:`advisor.models` and below both :mod:`advisor.ledger` and
:mod:`advisor.consult`: neither of those imports the other.
"""

from advisor.prompt._clip import clip_middle
from advisor.prompt._request import AdvisorPrompt, PromptMessage, request_hash
from advisor.prompt._source import Compiled, PromptSource
from advisor.prompt._system import ADVISOR_SYSTEM_PROMPT
from advisor.prompt._tools import TOOL_NAMES, investigation_tools

__all__ = [
    "ADVISOR_SYSTEM_PROMPT",
    "TOOL_NAMES",
    "AdvisorPrompt",
    "Compiled",
    "PromptMessage",
    "PromptSource",
    "clip_middle",
    "investigation_tools",
    "request_hash",
]
