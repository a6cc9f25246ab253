"""The real-bash sandbox the oracle runs commands in, and the vetting of what may run there.

Each command runs under ``/bin/bash -c`` in a fresh temporary directory (with ``sub`` and ``api``
directories two levels deep and an ``input.txt`` in each), with ``PATH`` set to a stub directory
in front of ``/usr/bin:/bin`` and an environment of only ``PATH``, ``HOME`` (the sandbox),
``TMPDIR`` and ``LC_ALL``. The stub for the check's program (``npm`` for ``npm test``) is a
``#!/bin/sh`` script that records the directory it runs in, drains its input and exits with the
status the run gives it for that call: a run is a sequence of statuses, call by call, the last
one repeating (``(1, 0)``: the first call fails, every later one passes). With ``STUB_LINES`` in
the environment it first prints that many lines (so that a consumer that stops reading kills it
with SIGPIPE); with ``STUB_NO_INPUT`` it leaves its input alone (a coprocess's input stays open).
Every other word that could name a program outside the safe vocabulary gets a stub that exits
0, so nothing but stubs and a short list of harmless tools ever runs, and each run has a
10-second timeout.

Commands of the labelled corpus are vetted first (:func:`vet`): every command name a harmless
tool, a builtin, the stubbed check program or an unknown name that gets a 0 stub; no absolute or
parent paths, no ``sudo``, ``rm`` and the like. Generated samples are built from a fixed
vocabulary and vetted by their generator's own test.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

import pytest

from shellparse import Script, Word, parse

BASH = "/bin/bash"
SYSTEM_PATH = "/usr/bin:/bin"
RUNS: tuple[tuple[int, ...], ...] = ((0,), (1,), (2,), (1, 0))
"""What the check's stub exits with, call by call, in each run: always 0, always 1, always 2, and
a first call that fails while later calls pass (a retry then hides the failure)."""
FOLLOWS = [run[0] for run in RUNS]
"""bash's statuses, run by run, when they are the check's own (the one call's)."""
TIMEOUT = 10
DIRECTORIES = ("sub", "api")

# Shell keywords and builtins: never stubbed (a PATH stub cannot replace them anyway).
BUILTINS = frozenset({
    "!", "{", "}", "[[", "]]", "case", "coproc", "do", "done", "elif", "else", "esac", "fi", "for", "function",
    "if", "in", "select", "then", "time", "until", "while", ":", ".", "[", "alias", "bg", "bind", "break",
    "builtin", "caller", "cd", "command", "compgen", "complete", "compopt", "continue", "declare", "dirs",
    "disown", "echo", "enable", "eval", "exec", "exit", "export", "false", "fc", "fg", "getopts", "hash", "help",
    "history", "jobs", "kill", "let", "local", "logout", "mapfile", "popd", "printf", "pushd", "pwd", "read",
    "readarray", "readonly", "return", "set", "shift", "shopt", "source", "suspend", "test", "times", "trap",
    "true", "type", "typeset", "ulimit", "umask", "unalias", "unset", "wait",
})  # fmt: skip
# What may run for real: harmless builtins and tools. Everything else in command position is a stub.
SAFE = frozenset({
    ":", "[", "basename", "bash", "break", "cat", "cd", "cmp", "command", "continue", "cut", "date", "declare",
    "diff", "dirname", "dirs", "echo", "egrep", "env", "eval", "exec", "exit", "export", "expr", "false", "fgrep",
    "grep", "head", "let", "local", "ls", "mkdir", "nice", "nohup", "popd", "printf", "pushd", "pwd", "read",
    "readonly", "return", "rev", "seq", "set", "sh", "shift", "shopt", "sort", "stdbuf", "tac", "tail", "tee",
    "test", "time", "timeout", "touch", "tr", "trap", "true", "type", "uniq", "unset", "wait", "wc", "which",
})  # fmt: skip
# Words that disqualify a command outright, wherever they occur: destructive or escaping tools,
# builtins that run code from elsewhere or change how names resolve, and variables that do.
DENY = frozenset({
    "rm", "rmdir", "mv", "dd", "sudo", "doas", "su", "kill", "pkill", "killall", "shutdown", "reboot", "curl",
    "wget", "ssh", "scp", "rsync", "chmod", "chown", "ln", "mkfs", "mount", "umount", "source", "enable",
    "builtin", "hash", "ulimit", "alias", "coproc", "PATH", "HOME", "BASH_ENV", "ENV", "LD_PRELOAD",
    "LD_LIBRARY_PATH", "SHELLOPTS", "BASHOPTS", "CDPATH", "IFS", "PROMPT_COMMAND", "pwsh", "powershell", "cmd",
})  # fmt: skip
# Expansions allowed in words: the last status, PIPESTATUS and substitutions (whose bodies are vetted).
HARMLESS_EXPANSIONS = re.compile(r"\$\?|\$\{\?\}|\$!|\$\{PIPESTATUS\[\d\]\}|\$\(.*\)|`[^`]*`", re.DOTALL)
TOKEN = re.compile(r"(?<![\w./-])[A-Za-z_][\w.+-]*")
NAME = re.compile(r"^[A-Za-z_][\w.+-]*$")
# A program a stub can replace: a name on PATH, or a relative path inside the sandbox.
STUBBABLE = re.compile(r"^(\./)?([\w+-][\w.+-]*/)*[A-Za-z_][\w.+-]*$")
ABSOLUTE = re.compile(r"(?:^|[\s=:'\"(<>|;&`])(?:/(?!dev/null\b)|~)")
PARENT = re.compile(r"(?:^|[\s/=:'\"(<>|;&`])\.\.(?=$|[\s/'\";|&)])")


# --------------------------------------------------------------------------------------------
# Vetting: what may run at all
# --------------------------------------------------------------------------------------------


class Vetting(NamedTuple):
    """Whether a command may run in the sandbox, and the directories it moves into."""

    problem: str | None
    directories: frozenset[str]


def vet(command: str, programs: Iterable[str]) -> Vetting:
    """Refuse anything outside the safe vocabulary; collect the `cd`/`pushd` targets."""
    if ABSOLUTE.search(command):
        return Vetting("an absolute or home path", frozenset())
    if PARENT.search(command):
        return Vetting("a parent directory", frozenset())
    denied = set(TOKEN.findall(command)) & DENY
    if denied:
        return Vetting(f"the word {sorted(denied)[0]!r}", frozenset())
    directories: set[str] = set()
    problem = _vet_script(parse(command), frozenset(programs), directories, 0)
    return Vetting(problem, frozenset(directories))


def _vet_string(text: str | None, programs: frozenset[str], directories: set[str], depth: int) -> str | None:
    if text is None:
        return "a command string that expands at run time"
    if depth > 8:
        return "command strings nested too deeply"
    return _vet_script(parse(text), programs, directories, depth + 1)


def _vet_script(script: Script, programs: frozenset[str], directories: set[str], depth: int,
                inner: bool = False) -> str | None:
    # A parse error counts for whole texts only; compound bodies inherit the clean parse of their text
    # (shellparse gives a `for` body a spurious error: see test_differential.py).
    if script.error is not None and not inner:
        return f"a parse error ({script.error})"
    for statement in script.statements:
        for command in statement.pipeline.commands:
            for redirect in command.redirects:
                target = redirect.target
                if target is not None and target.value is None and not _harmless(target.text):
                    return f"a dynamic redirect target {target.text}"
            for opaque in command.opaque:
                if opaque.body is None:
                    return "an unreadable substitution"
                problem = _vet_script(opaque.body, programs, directories, depth, inner=True)
                if problem is not None:
                    return problem
            if command.kind in ("while", "until"):
                return "a loop, which may spin for ever once its commands are stubs"
            if command.body is not None:
                problem = _vet_script(command.body, programs, directories, depth, inner=True)
                if problem is not None:
                    return problem
            if command.kind == "simple" and command.words:
                problem = _vet_simple(command.words, programs, directories, depth)
                if problem is not None:
                    return problem
    return None


def _harmless(text: str) -> bool:
    """A dynamic word whose only expansions are harmless ones."""
    rest = HARMLESS_EXPANSIONS.sub("", text)
    return "$" not in rest and "`" not in rest


def _outside(value: str) -> bool:
    return (value.startswith(("/", "~")) and value != "/dev/null") or ".." in re.split(r"[/=:]", value)


def _vet_simple(words: tuple[Word, ...], programs: frozenset[str], directories: set[str], depth: int) -> str | None:
    values: list[str | None] = [word.value for word in words]
    for word, value in zip(words, values, strict=True):
        if value is None and not _harmless(word.text):
            return f"a dynamic word {word.text}"
        if value is not None and _outside(value):
            return f"a path outside the sandbox {value!r}"
    head = values[0]
    if head is None or not (head in SAFE or head in programs or NAME.match(head)):
        return f"a command name that is not a plain word ({words[0].text})"
    if head not in SAFE and head not in programs:
        if head in BUILTINS:
            return f"the builtin {head!r}"
        if shutil.which(head, path=SYSTEM_PATH) is not None:
            return f"the real program {head!r}, outside the safe vocabulary"
    if head == "command" and "-p" in values[1:2]:
        return "`command -p`, which bypasses the stubs"
    if head == "tail" and any(v is not None and (v in ("-f", "-F") or v.startswith("--f")) for v in values):
        return "`tail -f`, which never ends"
    if head in ("cd", "pushd"):
        targets = [v for v in values[1:] if v is not None and not v.startswith("-")]
        if targets:
            directories.add(targets[0])
    if head == "trap" and len(values) > 1:
        return _vet_string(values[1], programs, directories, depth)
    for index, value in enumerate(values):
        if value == "eval":
            rest = values[index + 1 :]
            return _vet_string(None if None in rest else " ".join(v for v in rest if v is not None), programs,
                               directories, depth)
        if value in ("bash", "sh"):
            string = _command_string(values[index + 1 :])
            if string is not False:
                return _vet_string(string if isinstance(string, str) else None, programs, directories, depth)
    return None


def _command_string(args: list[str | None]) -> str | bool | None:
    """The `-c` string of a shell's arguments: the string, ``None`` if dynamic, ``False`` if none."""
    command_mode = False
    index = 0
    while index < len(args):
        value = args[index]
        if value is None:
            return None if command_mode else False
        if value in ("-o", "+o"):
            index += 2
            continue
        if value.startswith(("-", "+")) and not value.startswith("--"):
            command_mode = command_mode or "c" in value
            index += 1
            continue
        if value.startswith("--"):
            index += 1
            continue
        return value if command_mode else False
    return None if command_mode else False


# --------------------------------------------------------------------------------------------
# The sandbox
# --------------------------------------------------------------------------------------------


class Run(NamedTuple):
    """One run of a command, with the stub's statuses call by call."""

    statuses: tuple[int, ...]
    """What the stub exits with on each call (the last one repeats)."""
    returncode: int
    """What bash exits with."""
    places: tuple[str, ...]
    """The physical directory of each call of the check's stub, in order."""
    stderr: str

    @property
    def status(self) -> int:
        """The first call's status: the check's own when it runs once."""
        return self.statuses[0]

    def call_status(self, number: int) -> int:
        """What call ``number`` (from 0) exited with."""
        return self.statuses[min(number, len(self.statuses) - 1)]


def _tool(name: str) -> str:
    found = shutil.which(name, path=SYSTEM_PATH)
    assert found is not None, f"the sandbox needs {name}"
    return found


class Sandbox:
    """A temporary directory with stubs, in which commands run under /bin/bash."""

    def __init__(self, root: Path, programs: Iterable[str], command: str, directories: Iterable[str] = (), *,
                 lines: int = 0, no_input: bool = False) -> None:
        self.root = root
        self.work = root / "work"
        self.stubs = root / "stubs"
        self.status_file = root / "status"
        self.places_file = root / "places"
        for path in (self.work, self.stubs, root / "tmp"):
            path.mkdir()
        for first in DIRECTORIES:
            for second in DIRECTORIES:
                (self.work / first / second).mkdir(parents=True)
        moves = tuple(d for d in directories if not d.startswith("missing"))  # `cd missing` must fail
        for directory in moves:
            (self.work / directory).mkdir(parents=True, exist_ok=True)
        for place in (self.work, *self.work.rglob("*")):
            if place.is_dir():
                (place / "input.txt").write_text("x\n", encoding="utf-8")
        self.programs = frozenset(programs)
        for name in stub_names(command) - self.programs:
            self._stub(self.stubs / name, "exit 0")
        places, statuses = shlex.quote(str(self.places_file)), shlex.quote(str(self.status_file))
        check = (f"pwd -P >> {places} 2>/dev/null\n"
                 '[ -n "$STUB_NO_INPUT" ] || cat > /dev/null 2>&1\n'
                 f"n=$({_tool('wc')} -l < {places})\n"
                 f'status=$({_tool("sed")} -n "${{n}}{{p;q}};\\${{p}}" {statuses})\n'
                 f'[ -z "$STUB_LINES" ] || printf \'%s\\n\' $({_tool("seq")} 1 "$STUB_LINES")\n'
                 'exit "$status"')
        for name in self.programs:
            if "/" not in name:
                self._stub(self.stubs / name, check)
                continue
            # A path-qualified program (`./gradlew`, `vendor/bin/phpunit`): a file where the shell looks.
            for where in {".", *moves}:
                self._stub(self.work / where / name, check)
        self.env = {"PATH": f"{self.stubs}:{SYSTEM_PATH}", "HOME": str(self.work), "TMPDIR": str(root / "tmp"),
                    "LC_ALL": "C"}
        if lines:
            self.env["STUB_LINES"] = str(lines)
        if no_input:
            self.env["STUB_NO_INPUT"] = "1"

    def _stub(self, path: Path, body: str) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
        path.chmod(0o755)

    def run(self, command: str, statuses: tuple[int, ...]) -> Run:
        self.status_file.write_text("".join(f"{status}\n" for status in statuses), encoding="utf-8")
        self.places_file.write_text("", encoding="utf-8")
        # A session of its own, so that a timeout ends bash and everything it started (and only that).
        with subprocess.Popen([BASH, "-c", command], cwd=self.work, env=self.env, stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True) as process:
            try:
                _, stderr = process.communicate(timeout=TIMEOUT)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.communicate()
                pytest.fail(f"{command!r} did not finish within {TIMEOUT}s (stub statuses {statuses})")
        places = tuple(self.places_file.read_text(encoding="utf-8").splitlines())
        return Run(statuses, process.returncode, places, stderr.decode("utf-8", "replace")[-500:])

    def runs(self, command: str) -> list[Run]:
        return [self.run(command, statuses) for statuses in RUNS]


def stub_names(command: str) -> set[str]:
    """Every word that could name a program and may not run for real: each gets a stub."""
    return {token for token in TOKEN.findall(command) if token not in SAFE and token not in BUILTINS}


@contextmanager
def sandbox(base: Path, programs: Iterable[str], command: str, directories: Iterable[str] = (), *,
            lines: int = 0, no_input: bool = False) -> Iterator[Sandbox]:
    with tempfile.TemporaryDirectory(dir=base, ignore_cleanup_errors=True) as root:
        yield Sandbox(Path(root), programs, command, directories, lines=lines, no_input=no_input)


def statuses(runs: list[Run]) -> list[int]:
    """bash's status in each run."""
    return [run.returncode for run in runs]


BashLabel = str
"""What bash did with a command over the runs: ``follows`` (the check ran once in every run and
bash exited with its status), ``fakes`` (bash exited 0 in a run in which the check failed, on some
call, or never ran) or ``differs`` (neither: the status is not the check's, but never a false 0)."""


def bash_label(runs: list[Run]) -> BashLabel:
    """Label a command by what bash did with it (see :data:`BashLabel`)."""
    if any(run.returncode == 0 and (not run.places or any(run.call_status(n) for n in range(len(run.places))))
           for run in runs):
        return "fakes"
    if all(len(run.places) == 1 and run.returncode == run.status for run in runs):
        return "follows"
    return "differs"


def label_runs(base: Path, command: str, program: str) -> list[Run]:
    """Run a corpus command of the exit-attribution group: it moves only into `sub` (`missing` never
    exists), a consumer `| head` gets many lines, a coprocess keeps its input open."""
    with sandbox(base, {program}, command, lines=50_000 if "| head" in command else 0,
                 no_input="coproc" in command) as box:
        return box.runs(command)
