"""The tools each host gives its agent out of the box, with a line on what each is for.

Transcripts rarely record the tool catalogue (a Codex session records only its extra, dynamic
tools; a Pi session a system snapshot at most), so the advisor's ledger names a host's built-in
tools from these tables. One row per tool: its name as the agent calls it, and its purpose in a
sentence (written here, not copied from the hosts' prompts).
"""

from __future__ import annotations

from .._events._tool_catalogue import ToolInfo
from .._vocabulary import TranscriptFormat

_CLAUDE_CODE = (
    ("Agent", "Start a sub-agent that works on a task by itself and reports back (also called Task)."),
    ("AskUserQuestion", "Ask the user a question with choices and wait for the answer."),
    ("Bash", "Run a shell command (bash) in the project, optionally in the background."),
    ("BashOutput", "Read new output of a command running in the background."),
    ("Edit", "Replace an exact string in a file with another."),
    ("ExitPlanMode", "Present a plan to the user and leave plan mode once they approve it."),
    ("Glob", "Find files whose paths match a glob pattern."),
    ("Grep", "Search file contents with a regular expression (ripgrep)."),
    ("KillShell", "Stop a command running in the background."),
    ("MultiEdit", "Make several exact-string replacements in one file at once."),
    ("NotebookEdit", "Replace, insert or delete a cell of a Jupyter notebook."),
    ("PowerShell", "Run a PowerShell command (on Windows)."),
    ("Read", "Read a file: text by lines, images, PDFs and notebooks."),
    ("Skill", "Load a skill's instructions into the conversation."),
    ("TaskCreate", "Add an item to the session's task list."),
    ("TaskUpdate", "Change the state or text of an item of the task list."),
    ("TodoWrite", "Write the session's to-do list."),
    ("ToolSearch", "Load the definitions of deferred tools by name or keyword."),
    ("WebFetch", "Fetch a URL and answer a question about its content."),
    ("WebSearch", "Search the web."),
    ("Write", "Write a whole file, creating or replacing it."),
)
_CODEX = (
    ("apply_patch", "Edit files by applying a patch (add, update, delete or move files)."),
    ("exec", "Run a JavaScript cell that calls the other tools (code mode)."),
    ("exec_command", "Run a command in a terminal session and return its output and exit code."),
    ("list_agents", "List the sub-agents of this session."),
    ("request_user_input", "Ask the user for input and wait for the answer."),
    ("send_input", "Send a message to a running sub-agent."),
    ("shell", "Run a command (an argv) and return its output and exit code."),
    ("spawn_agent", "Start a sub-agent on a task."),
    ("update_plan", "Record the plan and the state of its steps."),
    ("view_image", "Show the model an image file from the workspace."),
    ("wait", "Wait for a running code-mode cell and return its output."),
    ("wait_agent", "Wait for sub-agents to finish and return their results."),
    ("web_search", "Search the web."),
    ("write_stdin", "Write to a running command's terminal session, or poll it for new output."),
)
_PI = (
    ("bash", "Execute a bash command in the current working directory."),
    ("edit", "Edit a file by replacing exact text."),
    ("find", "Search for files by glob pattern."),
    ("grep", "Search file contents for a pattern."),
    ("ls", "List directory contents."),
    ("read", "Read the contents of a file."),
    ("write", "Write content to a file."),
)
_COPILOT = (
    ("apply_patch", "Edit files by applying a patch (add, update, delete or move files)."),
    ("bash", "Run a bash command in a shell session, waiting for it or leaving it running (async)."),
    ("create", "Create a new file with the given content."),
    ("edit", "Replace an exact string in a file with another."),
    ("glob", "Find files whose paths match a glob pattern."),
    ("list_bash", "List the shell sessions still running."),
    ("powershell", "Run a PowerShell command (on Windows)."),
    ("read_bash", "Read new output of a shell session started in async mode."),
    ("report_intent", "Tell the user in a few words what the agent is doing now."),
    ("rg", "Search file contents with a regular expression (ripgrep)."),
    ("sql", "Query or update the session's own SQLite database (its to-do list)."),
    ("stop_bash", "Stop a running shell session."),
    ("task", "Start a sub-agent that works on a task by itself and reports back."),
    ("view", "Read a file by lines, or list a directory."),
    ("web_fetch", "Fetch a URL and return its content."),
    ("write_bash", "Send input to a running shell session."),
)
_GEMINI = (
    ("glob", "Find files whose paths match a glob pattern."),
    ("google_web_search", "Search the web with Google."),
    ("grep_search", "Search file contents with a regular expression."),
    ("invoke_agent", "Start a sub-agent on a task; it reports back."),
    ("list_directory", "List the files and folders of a directory."),
    ("read_file", "Read a file (text by lines, images, PDFs)."),
    ("read_many_files", "Read several files at once, by paths or glob patterns."),
    ("replace", "Replace an exact string in a file with another."),
    ("run_shell_command", "Run a shell command (bash -c, or PowerShell on Windows) and return its output and exit."),
    ("save_memory", "Remember a fact across sessions (in the user's GEMINI.md)."),
    ("web_fetch", "Fetch URLs named in the prompt and answer from their content."),
    ("write_file", "Write a whole file, creating or replacing it."),
    ("write_todos", "Write the session's to-do list."),
)
_QWEN = (
    ("agent", "Start a sub-agent on a task; it reports back."),
    ("edit", "Replace an exact string in a file with another."),
    ("glob", "Find files whose paths match a glob pattern."),
    ("grep_search", "Search file contents with a regular expression."),
    ("list_directory", "List the files and folders of a directory."),
    ("read_file", "Read a file (text by lines, images, PDFs)."),
    ("run_shell_command", "Run a shell command and return its output, exit code and signal."),
    ("save_memory", "Remember a fact across sessions."),
    ("skill", "Load a skill's instructions into the conversation."),
    ("todo_write", "Write the session's to-do list."),
    ("web_fetch", "Fetch a URL and answer from its content."),
    ("write_file", "Write a whole file, creating or replacing it."),
)
_DROID = (
    ("ApplyPatch", "Edit files by applying a patch."),
    ("Create", "Create a new file with the given content."),
    ("Edit", "Replace an exact string in a file with another."),
    ("Execute", "Run a shell command and return its output and exit code."),
    ("FetchUrl", "Fetch a URL and return its content."),
    ("Glob", "Find files whose paths match a glob pattern."),
    ("Grep", "Search file contents with a regular expression."),
    ("LS", "List the files and folders of a directory."),
    ("Read", "Read a file by lines."),
    ("Task", "Start a sub-droid that works on a task by itself and reports back."),
    ("TodoWrite", "Write the session's to-do list."),
    ("WebSearch", "Search the web."),
)
_TABLES: dict[TranscriptFormat, tuple[tuple[str, str], ...]] = {"claude-code": _CLAUDE_CODE, "codex": _CODEX,
                                                                 "pi": _PI, "copilot": _COPILOT,
                                                                 "gemini": _GEMINI, "qwen": _QWEN,
                                                                 "droid": _DROID}


def host_tools(host: TranscriptFormat) -> tuple[ToolInfo, ...]:
    """The tools ``host`` (a ``TranscriptFormat``) gives its agent, sorted by name."""
    return tuple(ToolInfo(name=name, description=purpose) for name, purpose in _TABLES[host])
