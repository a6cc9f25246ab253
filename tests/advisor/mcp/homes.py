"""Host homes for the MCP tests: sessions written where Claude Code and Codex keep them, with ids of
their own, and the environment each host gives the MCP server it starts."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from advisor.hosts import project_folder
from tests.support.transcripts import Action, Call, Step, User, claude, codex

FAILING: list[Action] = [
    User("make the tests pass"),
    Step("running the tests", calls=(Call("shell", "pytest -q", "=== 1 failed, 2 passed in 0.1s ===", 1),)),
    Step("All tests pass.")]
"""`pytest -q` fails and is never re-run: one open obligation."""
CLEAN: list[Action] = [User("list the files"), Step("listing", calls=(Call("shell", "ls", "a.py\nb.py", 0),)),
                       Step("Two files.")]
"""Nothing failed."""


@dataclass(frozen=True)
class Home:
    """A throwaway ``HOME`` with the hosts' folders, and one project directory."""

    root: Path

    @property
    def home(self) -> Path:
        return self.root / "home"

    @property
    def project(self) -> Path:
        path = self.root / "project"
        path.mkdir(parents=True, exist_ok=True)
        return path

    def claude_session(self, session: str, actions: list[Action]) -> tuple[Path, list[str]]:
        """A Claude Code session of the project: its transcript and its ``tool_use`` ids (unique to it)."""
        folder = self.home / ".claude" / "projects" / project_folder(str(self.project))
        folder.mkdir(parents=True, exist_ok=True)
        lines = [json.dumps(entry).replace("toolu_", f"toolu_{session[:6]}") for entry in claude(actions)]
        path = folder / f"{session}.jsonl"
        path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        blocks = [block for line in lines for block in _blocks(json.loads(line))]
        uses = [str(block["id"]) for block in blocks if block.get("type") == "tool_use"]
        return path, uses

    def codex_session(self, thread: str, actions: list[Action]) -> tuple[Path, list[str]]:
        """A Codex rollout of thread ``thread``: its path and its call ids."""
        folder = self.home / ".codex" / "sessions" / "2026" / "12" / "01"
        folder.mkdir(parents=True, exist_ok=True)
        entries = codex(actions)
        for entry in entries:
            if entry["type"] == "session_meta":
                entry["payload"].update(id=thread, cwd=str(self.project))
        lines = [json.dumps(entry).replace(': "call_', f': "call_{thread[:6]}') for entry in entries]
        path = folder / f"rollout-2026-12-01T10-00-00-{thread}.jsonl"
        path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        calls = [json.loads(line)["payload"]["call_id"] for line in lines
                 if json.loads(line)["payload"].get("type") == "function_call"]
        return path, calls

    def claude_env(self, session: str | None) -> dict[str, str]:
        """What Claude Code gives an MCP server it starts for ``session``."""
        env = {"HOME": str(self.home), "CLAUDE_PROJECT_DIR": str(self.project)}
        return {**env, "CLAUDE_CODE_SESSION_ID": session} if session else env

    def codex_env(self) -> dict[str, str]:
        """What Codex gives an MCP server (its home and little else)."""
        return {"HOME": str(self.home)}


def _blocks(entry: dict[str, object]) -> list[dict[str, object]]:
    message = entry.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    return [block for block in content if isinstance(block, dict)] if isinstance(content, list) else []
