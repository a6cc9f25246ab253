"""What bash runs by itself rather than as a program: its builtins and keywords.

A builtin runs in the shell that reads it, so it can change that shell (``cd``, ``set``,
``trap``, ``alias``) or end it (``exit``, ``exec``); a program runs in a child process and can do
neither. The analysis leans on the difference wherever it reads what a line does to the shell.
"""

from __future__ import annotations

BASH_BUILTINS = frozenset({
    ".", ":", "[", "alias", "bg", "bind", "break", "builtin", "caller", "cd", "command", "compgen", "complete",
    "compopt", "continue", "declare", "dirs", "disown", "echo", "enable", "eval", "exec", "exit", "export",
    "false", "fc", "fg", "getopts", "hash", "help", "history", "jobs", "kill", "let", "local", "logout",
    "mapfile", "popd", "printf", "pushd", "pwd", "read", "readarray", "readonly", "return", "set", "shift",
    "shopt", "source", "suspend", "test", "times", "trap", "true", "type", "typeset", "ulimit", "umask",
    "unalias", "unset", "wait",
})
"""Every builtin of bash 5.2 (``enable -a``)."""

KEYWORDS = frozenset({
    "!", "[[", "]]", "{", "}", "case", "coproc", "do", "done", "elif", "else", "esac", "fi", "for", "function",
    "if", "in", "select", "then", "time", "until", "while",
})
"""bash's reserved words (``compgen -k``)."""

STDIN_READERS = frozenset({"read", "mapfile", "readarray", "source", ".", "eval", "exec"})
"""Builtins that may read the shell's standard input (or hand it to code that does)."""

QUIET_PROGRAMS = frozenset({
    "basename", "date", "dirname", "ls", "mkdir", "pwd", "realpath", "sleep", "touch", "uname", "which", "whoami",
})
"""Programs that never read their standard input."""
