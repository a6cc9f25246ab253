"""Prompts and runs shared by the consultation tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx2

from advisor.consult import Consultation, ConsultationLog, ConsultSettings, Investigation, consult
from advisor.models import AnthropicModel, ChatUser, ModelConfig, OpenAIChatModel
from advisor.prompt import ADVISOR_SYSTEM_PROMPT, AdvisorPrompt, investigation_tools
from tests.support.model_server import ModelServer

CATALOGUE = "## Executor's tool catalogue (names and purpose only)\n\n- Bash — Run a shell command."


def prompt(settings: ConsultSettings | None = None, *, question: str = "Is the fix complete?",
           session: str | None = "s1") -> AdvisorPrompt:
    """A two-message prompt as the ledger shapes it: the catalogue (stable), then the log and question."""
    log = f"<executor_log>\n[user] fix the retry bug\n#e3 Bash · pytest -q · 2 lines\n</executor_log>\n\n" \
          f"Executor's question: {question}\n\nAdvise the executor on the situation above."
    chosen = settings or ConsultSettings()
    tools = investigation_tools(rounds=chosen.max_rounds > 0, workspace=chosen.repo_tools)
    return AdvisorPrompt(system=ADVISOR_SYSTEM_PROMPT, messages=(ChatUser(CATALOGUE), ChatUser(log)),
                         stable_prefix_messages=1, tools=tools, session_id=session)


async def run(server: ModelServer, *, workspace: Path | None = None, provider: str = "openai",
              settings: ConsultSettings | None = None, log: Path | None = None, model: dict[str, Any] | None = None,
              **options: Any) -> Consultation:
    """One consultation through a real SDK against the loopback server."""
    settings = settings or ConsultSettings(retry_delay=0)
    config = ModelConfig(provider="anthropic" if provider == "anthropic" else "openai",
                         model="claude-test" if provider == "anthropic" else "gpt-test",
                         base_url=server.anthropic_base_url if provider == "anthropic" else server.openai_base_url,
                         **{"max_retries": 0, **(model or {})})
    the_prompt = options.pop("the_prompt", None) or prompt(settings)
    async with httpx2.AsyncClient() as http:
        client = AnthropicModel(config, http_client=http, api_key="k") if provider == "anthropic" \
            else OpenAIChatModel(config, http_client=http, api_key="k")
        done = await consult(the_prompt, client, settings=settings,
                             investigation=Investigation(workspace, settings=settings,
                                                         expand={"e3": "2 passed in 0.1s"}.get), **options)
        return ConsultationLog(log).keep(done) if log is not None else done
