"""The advisor: a reviewer-model consultation pipeline built on ``shellparse`` and
``obligations``, the host layer, and the ``witness`` command line.

- :mod:`advisor.ledger` — a session compiled into the advisor's request (prefix-stable, incremental);
- :class:`AdvisorHost` — the advisor inside a multi-agent host (:mod:`advisor.orchestration`);
- :mod:`advisor.consult` and :mod:`advisor.models` — the consultation loop, its read-only tools, the
  verdict line, the log, and the model clients (``openai``, ``anthropic``, a scripted test double);
- :mod:`advisor.openai_agents` — the OpenAI Agents SDK driving an ``AdvisorHost`` (the ``agents`` extra);
- :mod:`advisor.cli` — the ``witness`` command (``main``) and its click group (``cli``);
- :mod:`advisor.hosts` — Claude Code's and Codex's hook wire formats and the Stop-hook logic;
- :mod:`advisor.errors` — the exceptions the advisor raises on purpose.

Importing this package stays cheap: the ``witness`` command starts a process per hook call,
so nothing is imported here; each name below is loaded from its room when first used.
"""

from advisor._lazy import load as _load

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: `typing` is not loaded on the hook path
if TYPE_CHECKING:
    from typing import Any

    from advisor.orchestration import AdvisorHost, AdvisorReport, HostSettings, Steer, StopDecision
del TYPE_CHECKING

__all__ = ["AdvisorHost", "AdvisorReport", "HostSettings", "Steer", "StopDecision"]

_LAZY = {"AdvisorHost": "orchestration", "AdvisorReport": "orchestration", "HostSettings": "orchestration",
         "Steer": "orchestration", "StopDecision": "orchestration"}
"""Public names and the subpackage each loads from on first use (:mod:`advisor._lazy`)."""


def __getattr__(name: str) -> "Any":
    return _load(__name__, _LAZY, name, globals())
