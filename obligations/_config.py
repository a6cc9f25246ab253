"""How a tracker is set up: which tools are shells, which are edits, and the scoring knobs.

The tool sets are the tracker's defaults, named for what they hold, in lower case (tool names
compare case-insensitively). They are the tools of every host at once: a transcript reader knows
its own host's shell tools separately (``CLAUDE_CODE_SHELL_TOOLS`` …), because there they decide
where an exit code is recorded, not which commands are analysed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from shellparse import POLICIES, Policy

from .errors import InvalidConfig

REMINDER_BUDGET = 3
"""Reminders per task, at most: the tracker's ``stop`` and the hosts' Stop hooks share it."""

DEFAULT_SHELL_TOOLS = frozenset({"bash", "sh", "zsh", "pwsh", "powershell", "shell", "exec_command", "terminal",
                                 "local_shell", "shell_command", "run_terminal_cmd", "execute_command", "run_command",
                                 "run_shell_command", "execute"})
"""Tools whose ``command``/``cmd`` argument is a command line the tracker analyses."""
DEFAULT_PWSH_TOOLS = frozenset({"pwsh", "powershell"})
"""Shell tools whose commands are PowerShell unless the event says otherwise."""
DEFAULT_READ_ONLY_TOOLS = frozenset({
    "read", "read_file", "read_image", "view", "glob", "grep", "ls", "list_dir", "find", "search", "web_search",
    "web_fetch", "webfetch", "websearch", "todowrite", "todo_write", "todoread", "update_plan", "view_image",
    "list_mcp_resources", "read_mcp_resource", "listmcpresourcestool", "readmcpresourcetool", "notebookread",
    "exitplanmode", "enterplanmode", "askuserquestion", "bashoutput", "taskoutput", "skill", "slashcommand",
    "tool_search", "tool_search_call", "wait_agent", "list_agents", "get_agent_status",
    # Claude Code's deferred-tool search and task list; Codex's terminal reader, question and web search
    "toolsearch", "taskcreate", "taskupdate", "tasklist", "taskget", "read_thread_terminal", "request_user_input",
    "web__run", "listagents",
    # GitHub Copilot CLI's search and its readers of running shells
    "rg", "read_bash", "list_bash", "read_powershell", "list_powershell",
    # Gemini CLI's readers, searches, plans and questions
    "read_many_files", "list_directory", "grep_search", "search_file_content", "google_web_search", "write_todos",
    "enter_plan_mode", "exit_plan_mode", "ask_user", "get_internal_docs", "activate_skill",
    # Factory Droid's fetcher; Qwen Code's questions
    "fetchurl", "ask_user_question",
})
"""Tools that never change the workspace."""
DEFAULT_EDIT_TOOLS = frozenset({"edit", "write", "multiedit", "notebookedit", "apply_patch", "replace", "delete",
                                "move", "rename", "create", "str_replace_based_edit_tool", "str_replace_editor",
                                "write_file", "edit_file", "create_file"})
"""Tools that edit files (their path arguments are their targets)."""
DEFAULT_DELEGATION_TOOLS = frozenset({"task", "agent", "subagent", "spawn_agent", "dispatch_agent", "close_agent",
                                      "send_input", "killshell", "killbash", "taskstop", "write_stdin",
                                      "send_message", "followup_task", "write_bash", "stop_bash", "write_powershell",
                                      "invoke_agent",
                                      "stop_powershell"})
"""Delegation and process control: the delegate's own calls are counted where they happen, and
stopping a background process (``KillShell``) or a worker edits nothing."""
DEFAULT_INTERNAL_TOOLS = frozenset({"consult_advisor", "advisor_verdict", "advisor_obligation",
                                    "structured_output", "run_code",
                                    # Copilot CLI's status line and its session database (not the workspace)
                                    "report_intent", "sql"})
"""The advisor's own channel and other host-internal tools: neither evidence nor mutation."""


@dataclass(frozen=True)
class EscalationConfig:
    """When the escalation score calls for a reviewer (the seed's defaults)."""

    tool_error_weight: int = 2
    """Added by a tool call the host marked as an error."""
    nonzero_exit_weight: int = 1
    """Added by a command that exited non-zero."""
    repeated_failure_weight: int = 3
    """Added by the second and every later consecutive identical failure."""
    repeated_mutation_weight: int = 2
    """Added once when the same target has been edited `repeated_mutation_count` times."""
    repeated_mutation_count: int = 3
    """How many edits of one target count as repeated."""
    score_threshold: int = 4
    """The score at which an automatic consultation is due."""
    max_auto_consults_per_turn: int = 1
    """Automatic consultations in one turn, at most."""
    max_auto_consults_per_problem: int = 1
    """Automatic consultations for one problem fingerprint, at most."""
    cooldown_turns: int = 1
    """Turns that must pass after an automatic consultation before the next."""
    evidence_rows: int = 24
    """Evidence rows kept per agent (a monotonic count is kept beside them)."""


_TOOL_SETS = {"shell_tools": DEFAULT_SHELL_TOOLS, "read_only_tools": DEFAULT_READ_ONLY_TOOLS,
              "edit_tools": DEFAULT_EDIT_TOOLS, "ignored_tools": DEFAULT_INTERNAL_TOOLS | DEFAULT_DELEGATION_TOOLS}


@dataclass(frozen=True)
class TrackerConfig:
    """A tracker's settings, checked when it is made (``InvalidConfig`` names a bad one).

    Tool names compare case-insensitively. The tool sets given are *added* to the defaults — a host
    that names its own shell tool keeps ``Bash`` analysed — unless ``replace_default_tools`` says
    they are the whole sets.
    """

    policy: Policy = "seed"
    """`seed`: a reporting pipe witnesses; `strict`: it does not (see shellparse)."""
    reminder_budget: int = REMINDER_BUDGET
    """Reminders per task, at most (`stop` returns nothing once they are spent)."""
    shell_tools: frozenset[str] = DEFAULT_SHELL_TOOLS
    """Tools whose `command`/`cmd` argument is a shell command line (added to the defaults)."""
    read_only_tools: frozenset[str] = DEFAULT_READ_ONLY_TOOLS
    """Tools that never change the workspace (added to the defaults)."""
    edit_tools: frozenset[str] = DEFAULT_EDIT_TOOLS
    """Tools that edit files; their path arguments are their targets (added to the defaults)."""
    ignored_tools: frozenset[str] = DEFAULT_INTERNAL_TOOLS | DEFAULT_DELEGATION_TOOLS
    """Tools that are neither evidence nor mutation: the advisor's own channel, and delegation
    (the delegate's own calls are counted where they happen). Added to the defaults."""
    escalation: EscalationConfig | None = field(default_factory=EscalationConfig)
    """The escalation score's weights and gates; ``None`` keeps no score (for a reader of
    obligations only, such as an audit or a Stop hook: fingerprinting failures is most of the
    cost of replaying a session stuck on them)."""
    claim_evidence: int = 64
    """Validation calls remembered per task for claims to bind to."""
    history: int = 32
    """Transitions kept per item (older ones are counted, not kept)."""
    ended_tasks: int = 50
    """Ended tasks whose unresolved items are kept for reports."""
    max_command_chars: int = 65_536
    """The longest command analysed; a longer one is fail-closed at once (never a witness, a
    potential edit). Agents' real commands stay far below it (the longest in the real sessions
    studied had 10 000 characters), and a replay must stay fast whatever a transcript holds."""
    replace_default_tools: bool = False
    """The tool sets given are the whole sets, not additions to the defaults."""

    def __post_init__(self) -> None:
        if self.policy not in POLICIES:
            raise InvalidConfig(f"policy must be one of {', '.join(POLICIES)}, not {self.policy!r}")
        for name, least in (("reminder_budget", 0), ("claim_evidence", 0), ("history", 0), ("ended_tasks", 0),
                            ("max_command_chars", 1)):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < least:
                raise InvalidConfig(f"{name} must be a whole number ≥ {least}, not {value!r}")
        for name, default in _TOOL_SETS.items():
            given = getattr(self, name)
            if isinstance(given, str) or not all(isinstance(tool, str) for tool in given):
                raise InvalidConfig(f"{name} must be a set of tool names, not {given!r}")
            names = frozenset(tool.lower() for tool in given)
            object.__setattr__(self, name, names if self.replace_default_tools else default | names)
        if self.escalation is not None and not isinstance(self.escalation, EscalationConfig):
            raise InvalidConfig(f"escalation must be an EscalationConfig or None, not {self.escalation!r}")

