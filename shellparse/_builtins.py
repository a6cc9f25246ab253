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
    "true", "false", "rm", "rmdir", "cp", "mv", "ln", "chmod", "env", "printenv", "id", "hostname", "nproc",
})
"""Programs that never read their standard input (``date`` unless ``-f`` names a file of dates)."""

FILTERS: dict[str, tuple[tuple[str, ...], int]] = {
    "cat": ((), 0), "tac": ((), 0), "nl": (("-b", "-s", "-v", "-w"), 0), "wc": ((), 0), "rev": ((), 0),
    "head": (("-n", "-c", "--lines", "--bytes"), 0), "tail": (("-n", "-c", "--lines", "--bytes", "-s", "--pid"), 0),
    "sort": (("-k", "-t", "-o", "-S", "-T", "--key", "--field-separator", "--output"), 0),
    "uniq": (("-f", "-s", "-w"), 0), "cut": (("-d", "-f", "-c", "-b"), 0), "md5sum": ((), 0), "sha256sum": ((), 0),
    "grep": (("-e", "-f", "-m", "-A", "-B", "-C", "--regexp", "--file", "--max-count"), 1),
    "egrep": (("-e", "-f", "-m", "-A", "-B", "-C"), 1), "fgrep": (("-e", "-f", "-m", "-A", "-B", "-C"), 1),
    "sed": (("-e", "-f", "-l", "--expression", "--file"), 1), "awk": (("-F", "-v", "-f"), 1),
    "jq": (("--arg", "--argjson", "--slurpfile", "--rawfile", "-f", "--from-file"), 1),
}
"""Programs that read standard input only when no file is named: their options that take a value,
and how many operands come before the files (``grep PATTERN FILE…``; none after ``-e``/``-f``)."""

STDIN_PATHS = frozenset({"-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"})
"""Names by which a program reads its standard input."""
