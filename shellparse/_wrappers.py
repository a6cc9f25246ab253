"""Wrappers: programs that run another command and hand back its exit status.

The grammar of each wrapper is data (:data:`WRAPPERS`): which options take a value, how many
operands come before the wrapped command, which options change directory, run nothing, or put
the command in the background. Shells (``bash -c``, ``pwsh -Command``, ``cmd /c``) and ``eval``
hand over a *string*, which is returned for the caller to parse and analyse in turn.
"""

from functools import lru_cache
from typing import Literal, NamedTuple

from ._builtins import BASH_BUILTINS
from ._model import Span, Word
from ._patterns import lazy
from ._quoting import bash_unquote, one_field, pwsh_unquote
from ._shells import PLAIN, SOME_SHELL, ShellOptions, invocation


class Wrapper(NamedTuple):
    """One wrapper's grammar."""

    names: tuple[str, ...]
    """Program basenames, lower case."""
    subcommands: tuple[tuple[str, ...], ...] = ()
    """Word sequences that must follow for the program to wrap (``uv run``); empty: always."""
    value_options: tuple[str, ...] = ()
    """Options that consume the next word (or ``--opt=value``)."""
    operands: int = 0
    """Operands between the options and the command (``timeout DURATION``)."""
    dir_options: tuple[str, ...] = ()
    """Options whose value is the directory the command runs in."""
    dir_operand: bool = False
    """The first operand is that directory (``direnv exec DIR cmd``)."""
    inert_options: tuple[str, ...] = ()
    """Options with which the wrapper runs nothing (``command -v``)."""
    background_options: tuple[str, ...] = ()
    """Options that detach the command, so its status never comes back (``sudo -b``)."""
    string_options: tuple[str, ...] = ()
    """Options whose value is a command *string* for a shell (``npx -c``, ``su -c``)."""
    rest_options: tuple[str, ...] = ()
    """Options after which the remaining words are the command (``nix develop -c``)."""
    assignments: bool = False
    """``NAME=value`` words may precede the command (``env``, ``cross-env``)."""
    module_option: str | None = None
    """An option naming a Python module to run (``uv run -m pytest``)."""
    string_only: bool = False
    """The command comes only through a string option; other operands are skipped (``su USER -c``)."""
    separator: bool = False
    """The command follows ``--``, and the words before it are operands (``mise exec node@20 --
    npm test``); without a ``--`` the command starts at the first word that is not an option."""
    identity_options: tuple[str, ...] = ()
    """Options whose value chooses another toolchain or environment for the command (``uv run
    --python 3.12``, ``conda run -n py311``): part of the check's identity."""
    identity_operands: bool = False
    """The operands choose where the command runs (``docker exec CONTAINER``, ``mise exec
    node@20``): part of the check's identity, like ``NAME=value`` assignments (``env GOOS=windows``)."""
    flags: tuple[str, ...] = ()
    """Options without a value that leave the command's status its own (``timeout --foreground``)."""
    closed: bool = False
    """Every option is listed: one the grammar does not know is not proven inert, and refuses the
    check (``timeout``, ``env``, ``exec`` … whose options can change the status or what runs)."""
    forcing_options: tuple[str, ...] = ()
    """Options with which the status may be 0 although the command failed or was stopped
    (``timeout --preserve-status``: a check stopped at the limit reports what it exits with when
    signalled, 0 if it catches the signal)."""
    forcing_values: tuple[tuple[str, str], ...] = ()
    """Options with a value that make the status 0 without running the command (``flock -E 0``:
    a lock not acquired exits 0)."""
    status_options: tuple[str, ...] = ()
    """Options without one of which the wrapper reports its own status, 0, whatever the command
    does (``script`` needs ``-e``/``--return``)."""
    login_options: tuple[str, ...] = ()
    """Options that start a shell it runs as a login shell (``exec -l``; ``exec -a -NAME`` too)."""


WRAPPERS: tuple[Wrapper, ...] = (
    # `time` is a bash keyword timing a whole pipeline, so assignments may follow it.
    Wrapper(("time",), value_options=("-f", "--format", "-o", "--output"), assignments=True, closed=True,
            flags=("-p", "-a", "--append", "-q", "--quiet", "-v", "--verbose", "--portability")),
    Wrapper(("timeout", "gtimeout"), value_options=("-s", "--signal", "-k", "--kill-after"), operands=1,
            closed=True, flags=("--foreground", "-v", "--verbose"), forcing_options=("--preserve-status",)),
    Wrapper(("env",), value_options=("-u", "--unset", "-C", "--chdir"), dir_options=("-C", "--chdir"),
            string_options=("-S", "--split-string"), assignments=True,
            identity_options=("-u", "--unset", "-i", "--ignore-environment", "-"), closed=True,
            flags=("-i", "--ignore-environment", "-", "-0", "--null", "-v", "--debug", "--block-signal",
                   "--default-signal", "--ignore-signal", "--list-signal-handling")),
    Wrapper(("nice",), value_options=("-n", "--adjustment"), closed=True),
    Wrapper(("ionice",), value_options=("-c", "--class", "-n", "--classdata"), closed=True, flags=("-t", "--ignore"),
            inert_options=("-p", "--pid", "-P", "--pgid", "-u", "--uid")),
    Wrapper(("nohup",), closed=True),
    Wrapper(("chronic",), closed=True, flags=("-e", "-v")),
    Wrapper(("unbuffer",), closed=True, flags=("-p",)),
    Wrapper(("command",), inert_options=("-v", "-V"), closed=True, flags=("-p",)),
    Wrapper(("builtin",)),
    Wrapper(("exec",), value_options=("-a",), closed=True, flags=("-c", "-l"), login_options=("-l",)),
    # Run the command holding a lock, or under a pseudo-terminal (with `-e`, returning its status).
    Wrapper(("flock",), value_options=("-w", "--wait", "--timeout", "-E", "--conflict-exit-code"), operands=1,
            string_options=("-c", "--command"), closed=True,
            flags=("-s", "--shared", "-x", "-e", "--exclusive", "-n", "--nb", "--nonblock", "-o", "--close", "-F",
                   "--no-fork", "--verbose"),
            inert_options=("-u", "--unlock"), forcing_values=(("-E", "0"), ("--conflict-exit-code", "0"))),
    Wrapper(("script",), value_options=("-T", "--log-timing", "-I", "--log-in", "-O", "--log-out", "-B",
                                        "--log-io", "-m", "--logging-format", "-E", "--echo", "-o", "--output-limit"),
            string_options=("-c", "--command"), closed=True,
            flags=("-a", "--append", "-f", "--flush", "-q", "--quiet", "-e", "--return", "-t", "--timing"),
            status_options=("-e", "--return"), string_only=True),
    Wrapper(("sudo",), value_options=("-u", "--user", "-g", "--group", "-C", "--close-from", "-D", "--chdir",
                                      "-p", "--prompt", "-r", "--role", "-t", "--type", "-T",
                                      "--command-timeout", "-U", "--other-user", "-h", "--host"),
            dir_options=("-D", "--chdir"),
            inert_options=("-l", "--list", "-v", "--validate", "-K", "--remove-timestamp", "-e", "--edit",
                           "-V", "--version"),
            background_options=("-b", "--background")),
    Wrapper(("doas",), value_options=("-u", "-C")),
    Wrapper(("stdbuf",), value_options=("-i", "-o", "-e", "--input", "--output", "--error"), closed=True),
    Wrapper(("xvfb-run",), value_options=("-n", "--server-num", "-s", "--server-args", "-e", "--error-file",
                                          "-f", "--auth-file", "-p", "--xauth-protocol", "-w", "--wait")),
    Wrapper(("dotenv",), value_options=("-e", "-v", "-c", "-p")),
    Wrapper(("cross-env",), assignments=True),
    Wrapper(("npx",), value_options=("-p", "--package", "--node-options", "--cache", "--registry"),
            string_options=("-c", "--call")),
    Wrapper(("bunx",), value_options=("-p", "--package")),
    Wrapper(("uvx",), value_options=("--from", "--with", "--python", "-p", "--index", "--index-url"),
            identity_options=("--from", "--with", "--python", "-p")),
    Wrapper(("npm",), subcommands=(("exec",), ("x",)), value_options=("-p", "--package", "-w", "--workspace",
                                                                       "--prefix"),
            dir_options=("--prefix",), string_options=("-c", "--call")),
    Wrapper(("pnpm",), subcommands=(("exec",), ("dlx",)), value_options=("-C", "--dir", "--filter", "-F",
                                                                          "--package"),
            dir_options=("-C", "--dir"), string_options=("-c", "--shell-mode")),
    Wrapper(("yarn",), subcommands=(("dlx",), ("exec",)), value_options=("-p", "--package", "--cwd"),
            dir_options=("--cwd",)),
    Wrapper(("bun",), subcommands=(("x",),), value_options=("--cwd",), dir_options=("--cwd",)),
    Wrapper(("uv",), subcommands=(("run",), ("tool", "run")),
            value_options=("--with", "--with-editable", "--with-requirements", "--python", "-p", "--project",
                           "--directory", "--package", "--extra", "--group", "--only-group", "--no-group",
                           "--env-file", "--index", "--default-index", "--index-url", "--extra-index-url",
                           "-f", "--find-links", "--from", "--config-file", "--cache-dir", "-P",
                           "--upgrade-package", "--reinstall-package", "--refresh-package",
                           "--python-preference", "--color", "--exclude-newer", "--index-strategy"),
            dir_options=("--directory",), module_option="-m",
            identity_options=("--with", "--with-editable", "--with-requirements", "--python", "-p", "--package",
                              "--extra", "--group", "--only-group", "--no-group", "--env-file", "--all-extras",
                              "--no-dev", "--isolated", "--exact")),
    Wrapper(("poetry",), subcommands=(("run",),), value_options=("-C", "--directory", "-P", "--project"),
            dir_options=("-C", "--directory", "-P", "--project")),
    Wrapper(("pipenv",), subcommands=(("run",),)),
    Wrapper(("pdm",), subcommands=(("run",),), value_options=("-p", "--project"), dir_options=("-p", "--project")),
    Wrapper(("rye",), subcommands=(("run",),)),
    Wrapper(("hatch",), subcommands=(("run",),), value_options=("-e", "--env"), identity_options=("-e", "--env")),
    Wrapper(("conda", "mamba", "micromamba"), subcommands=(("run",),),
            value_options=("-n", "--name", "-p", "--prefix", "--cwd"), dir_options=("--cwd",),
            identity_options=("-n", "--name", "-p", "--prefix")),
    Wrapper(("pixi",), subcommands=(("run",),), value_options=("-e", "--environment", "--manifest-path"),
            identity_options=("-e", "--environment", "--manifest-path")),
    # Task runners' and dev environments' own launchers: the command runs with their tools.
    Wrapper(("mise", "rtx"), subcommands=(("exec",), ("x",)), value_options=("-C", "--cd", "-j", "--jobs", "-E",
                                                                            "--env"),
            dir_options=("-C", "--cd"), string_options=("-c", "--command"), separator=True,
            identity_operands=True, identity_options=("-E", "--env")),
    Wrapper(("devbox",), subcommands=(("run",),), value_options=("-c", "--config", "-e", "--env", "--env-file"),
            identity_options=("-c", "--config", "-e", "--env", "--env-file")),
    Wrapper(("rtk",), subcommands=(("proxy",),)),
    # Containers: the command runs in another machine, which is part of its identity.
    Wrapper(("docker", "podman"), subcommands=(("exec",), ("compose", "run"), ("compose", "exec")),
            value_options=("-e", "--env", "--env-file", "-u", "--user", "-w", "--workdir", "--entrypoint", "-l",
                           "--label", "--name", "-p", "--publish", "-v", "--volume", "--detach-keys", "--pull",
                           "--index", "-H", "--host", "--context", "--config", "--log-level"),
            operands=1, identity_operands=True, identity_options=("-e", "--env", "--env-file", "-u", "--user",
                                                                  "-w", "--workdir", "--entrypoint"),
            background_options=("-d", "--detach")),
    Wrapper(("docker-compose", "podman-compose"), subcommands=(("run",), ("exec",)),
            value_options=("-f", "--file", "-p", "--project-name", "--env-file", "--profile", "-e", "--env", "-u",
                           "--user", "-w", "--workdir", "--entrypoint", "-l", "--label", "--name", "-v",
                           "--volume", "--publish"),
            operands=1, identity_operands=True, identity_options=("-f", "--file", "-e", "--env", "-u", "--user",
                                                                  "-w", "--workdir", "--entrypoint"),
            background_options=("-d", "--detach")),
    Wrapper(("bundle", "bundler"), subcommands=(("exec",),), value_options=("--gemfile",)),
    Wrapper(("direnv",), subcommands=(("exec",),), operands=1, dir_operand=True),
    Wrapper(("nix",), subcommands=(("develop",), ("shell",)), rest_options=("-c", "--command")),
    Wrapper(("nix-shell",), value_options=("-p", "--packages", "-A", "--attr", "-I"),
            string_options=("--run", "--command")),
    Wrapper(("su",), value_options=("-s", "--shell", "-g", "--group", "-G", "--supp-group"),
            string_options=("-c", "--command"), string_only=True),
)

_BY_NAME: dict[str, Wrapper] = {name: wrapper for wrapper in WRAPPERS for name in wrapper.names}
SHELL_PROGRAMS = frozenset({"bash", "sh", "zsh", "dash", "ksh", "ash", "mksh", "busybox"})
"""POSIX shells that run a ``-c`` string or a script (``busybox`` only as ``busybox sh``)."""
PWSH_PROGRAMS = frozenset({"pwsh", "powershell", "pwsh-preview"})
"""PowerShell executables that run a ``-Command`` string."""
_STRING_RUNNERS = frozenset({"cmd", "eval", "iex", "invoke-expression"})
_SAME_SHELL = frozenset({"builtin", "coproc", "time"})
_MAY_WRAP = frozenset(_BY_NAME) | SHELL_PROGRAMS | PWSH_PROGRAMS | _STRING_RUNNERS | {"coverage", "coproc"}
_PYTHON_OPTIONS_WITH_VALUE = ("-W", "-X", "--check-hash-based-pycs")


class Nested(NamedTuple):
    """A command string handed to another shell, ready to be parsed."""

    text: str
    """The string after quote removal."""
    positions: list[int]
    """Outer offset of each character of ``text`` (plus one for its end)."""
    shell: Literal["bash", "pwsh", "cmd"]
    """How to read it."""
    via: Word
    """The wrapper word that hands the string over (for reasons)."""
    options: ShellOptions = PLAIN
    """The options a POSIX shell starts with (``bash -e -o pipefail -c``)."""
    stdin: bool = False
    """The shell reads its script from standard input (``bash <<'EOF'``, ``bash -s``): ``text`` is
    empty, and the caller finds the script in the command's redirects."""


class Unwrapped(NamedTuple):
    """What runs once the wrappers are peeled off a simple command."""

    argv: tuple[Word, ...]
    """The wrapped command's words (empty when the wrappers run nothing)."""
    wrappers: tuple[Word, ...] = ()
    """The wrapper words peeled off, outermost first."""
    directories: tuple[Word, ...] = ()
    """Directory operands of wrappers (``env -C api``), in order."""
    nested: Nested | None = None
    """A command string to parse, when a shell or ``eval`` runs one."""
    background: Span | None = None
    """Where a wrapper detaches the command (``sudo -b``), if one does."""
    inert: Span | None = None
    """Where a wrapper option means nothing is run (``command -v``), if one does."""
    problem: str | None = None
    """Why the wrapped command cannot be known (a dynamic word, an unreadable string)."""
    context: tuple[str, ...] = ()
    """What the wrappers choose for the command that is part of its identity, in order:
    ``NAME=value`` assignments (``env GOOS=windows``), and the wrapper's choice of toolchain,
    environment or container as ``program:choice`` (``uv:--python=3.12``, ``docker:api``)."""
    forced: Span | None = None
    """Where a wrapper option lets the status be 0 although the command failed or never ran
    (``timeout --preserve-status``, ``flock -E 0``, ``script`` without ``-e``)."""
    unproven: Span | None = None
    """Where a wrapper is given an option its grammar does not list (see :attr:`Wrapper.closed`)."""
    login: bool = False
    """A wrapper starts the shell it runs as a login shell (``exec -l bash``, ``exec -a -bash bash``)."""


def _problem(wrappers: tuple[Word, ...], directories: tuple[Word, ...], problem: str) -> Unwrapped:
    return Unwrapped((), wrappers, directories, problem=problem)


def _runs_string(wrappers: tuple[Word, ...], directories: tuple[Word, ...], nested: Nested) -> Unwrapped:
    return Unwrapped(argv=(), wrappers=wrappers, directories=directories, nested=nested, background=None, inert=None,
                     problem=None, context=(), forced=None, unproven=None, login=False)


class Detached(NamedTuple):
    """A wrapper option that puts the command in the background (``sudo -b``)."""

    span: Span


class Inert(NamedTuple):
    """A wrapper option with which nothing is run (``command -v``)."""

    span: Span


class Applied(NamedTuple):
    """What one wrapper's grammar leaves: the words still to run, and what its options did."""

    rest: list[Word]
    """The words after the wrapper and its options and operands."""
    outcome: Unwrapped | Detached | Inert | None = None
    """A finished result (a command string to parse, or a problem), a detaching or inert
    option, or nothing."""
    context: tuple[str, ...] = ()
    """What the wrapper chooses that is part of the command's identity (see :attr:`Unwrapped.context`)."""


@lru_cache(maxsize=2048)
def program_name(value: str) -> str:
    """The lower-case basename of a command word, without a Windows executable suffix."""
    name = value.replace("\\", "/").rsplit("/", 1)[-1].lower()
    for suffix in (".exe", ".cmd", ".bat", ".ps1", ".com"):
        if name.endswith(suffix) and len(name) > len(suffix):
            return name[: -len(suffix)]
    return name


def is_wrapper(name: str) -> bool:
    """Whether a program name may wrap another command (so unwrapping it can find one)."""
    return name in _MAY_WRAP


def _option(word: Word) -> tuple[str, str | None]:
    value = word.value or word.text
    if value.startswith("--") and "=" in value:
        name, _, rest = value.partition("=")
        return name, rest
    return value, None


def unwrap(words: tuple[Word, ...], shell: str) -> Unwrapped:
    """Peel wrappers off ``words`` (a simple command's argv)."""
    if not words or words[0].value is None or program_name(words[0].value) not in _MAY_WRAP:
        # the common case: no wrapper at all
        return Unwrapped(argv=words, wrappers=(), directories=(), nested=None, background=None, inert=None,
                         problem=None, context=(), forced=None, unproven=None, login=False)
    context: list[str] = []
    notes = _Notes()
    unwrapped = _unwrap(words, shell, context, notes)
    if context:
        unwrapped = unwrapped._replace(context=tuple(context) + unwrapped.context)
    if notes.forced or notes.unproven or notes.login:
        unwrapped = unwrapped._replace(forced=unwrapped.forced or notes.forced,
                                       unproven=unwrapped.unproven or notes.unproven,
                                       login=unwrapped.login or notes.login)
        if notes.login and unwrapped.nested is not None:
            nested = unwrapped.nested
            unwrapped = unwrapped._replace(nested=nested._replace(options=nested.options._replace(login=True)))
    return unwrapped


class _Notes:
    """What the wrappers peeled off one command say beyond the command they run."""

    __slots__ = ("forced", "login", "unproven")

    def __init__(self) -> None:
        self.forced: Span | None = None
        self.unproven: Span | None = None
        self.login = False


def _unwrap(words: tuple[Word, ...], shell: str, context: list[str], notes: _Notes) -> Unwrapped:
    argv = list(words)
    wrappers: list[Word] = []
    directories: list[Word] = []
    for _ in range(32):  # `time time time …` is legal; the bound only stops pathological input
        if not argv:
            break
        head = argv[0]
        if head.value is None:
            return Unwrapped(tuple(argv), tuple(wrappers), tuple(directories))
        name = program_name(head.value)
        if shell == "pwsh" and name in ("invoke-expression", "iex"):
            rest = [w for w in argv[1:] if (w.value or "").lower() != "-command"]
            return _joined(rest, head, reads="pwsh", outer=shell, wrappers=(*wrappers, head),
                           directories=tuple(directories))
        if name in SHELL_PROGRAMS or name in PWSH_PROGRAMS or name == "cmd" or name == "eval":
            return _shell(argv, name, shell, tuple(wrappers), tuple(directories))
        special = _same_shell(argv, name, first=not wrappers) if name in _SAME_SHELL else None
        if special is not None:
            return special._replace(wrappers=(*wrappers, *special.wrappers),
                                    directories=(*directories, *special.directories))
        if name == "coverage" and len(argv) > 1 and argv[1].value == "run":
            rest = _skip_options(argv[2:], ("--rcfile", "--source", "--omit", "--include", "--concurrency",
                                            "--data-file", "--context", "--debug"))
            wrappers.append(head)
            argv = [Word("python", "python", head.span), *rest]
            break
        wrapper = _BY_NAME.get(name)
        if wrapper is None:
            break
        applied = _apply(wrapper, argv, directories, shell, notes)
        if applied is None:
            break  # `npm install`: the program, not a wrapper here
        wrappers.append(head)
        context.extend(applied.context)
        outcome = applied.outcome
        if isinstance(outcome, Unwrapped):
            return outcome._replace(wrappers=tuple(wrappers), directories=tuple(directories))
        if isinstance(outcome, Inert):
            return Unwrapped((), tuple(wrappers), tuple(directories), inert=outcome.span)
        if isinstance(outcome, Detached):
            unwrapped = unwrap(tuple(applied.rest), shell)
            return unwrapped._replace(wrappers=tuple(wrappers) + unwrapped.wrappers,
                                      directories=tuple(directories) + unwrapped.directories,
                                      background=outcome.span)
        argv = applied.rest
    return Unwrapped(argv=tuple(argv), wrappers=tuple(wrappers), directories=tuple(directories), nested=None,
                     background=None, inert=None, problem=None, context=(), forced=None, unproven=None, login=False)


def _same_shell(argv: list[Word], name: str, *, first: bool) -> Unwrapped | None:
    """``builtin NAME``, ``coproc CMD`` and the ``time`` keyword, whose grammar is the shell's own;
    ``None`` for every other word."""
    head = argv[0]
    if name == "builtin" and len(argv) > 1 and argv[1].value is not None and argv[1].value not in BASH_BUILTINS:
        return _problem((head,), (), f"`builtin {argv[1].value}` runs only shell builtins, and this is none")
    if not first or head.text != name:
        return None  # a quoted or path-qualified word is a program, not a keyword
    if name == "coproc" and len(argv) > 1:
        inner = unwrap(tuple(argv[1:]), "bash")
        return inner._replace(wrappers=(head, *inner.wrappers), background=head.span)
    if name == "time" and len(argv) > 1 and (argv[1].value or "-").startswith("-") \
            and argv[1].value not in ("-p", "--"):
        return _problem((head,), (), f"bash's `time` keyword takes only `-p`; `{argv[1].text}` runs as the command")
    return None


def _skip_options(words: list[Word], value_options: tuple[str, ...]) -> list[Word]:
    index = 0
    while index < len(words):
        name, attached = _option(words[index])
        if name == "--":
            return words[index + 1 :]
        if not name.startswith("-") or name == "-":
            break
        index += 2 if name in value_options and attached is None else 1
    return words[index:]


def _apply(wrapper: Wrapper, argv: list[Word], directories: list[Word], shell: str, notes: _Notes) -> Applied | None:
    """Apply one wrapper's grammar; ``None`` when the program does not wrap here."""
    index = 1
    if wrapper.subcommands:
        index = _after_subcommand(wrapper, argv)
        if index < 0:
            return None
    operands_left = wrapper.operands
    if wrapper.separator:
        operands_left = _operands_before_separator(argv, index)
    if wrapper.status_options and not _given(wrapper.status_options, argv[index:]):
        notes.forced = notes.forced or argv[0].span
    outcome: Detached | None = None
    context: list[str] = []
    argv = argv[:index] + _clusters(wrapper, argv[index:], notes)
    while index < len(argv):
        word = argv[index]
        name, attached = _option(word)
        if word.value is None:
            if wrapper.assignments and _ASSIGNMENT_TEXT.match(word.text):
                if not one_field(word.text):  # `env PATH=$X cmd`: a value with spaces adds words
                    notes.unproven = notes.unproven or word.span
                context.append(word.text)  # `env PATH="$PATH" cmd`: an assignment whatever its value
                index += 1
                continue
            if operands_left or wrapper.string_only:
                notes.unproven = notes.unproven or word.span  # `timeout $T cmd`: it may be options
            break
        if name == "--":
            index += 1
            break
        if wrapper.assignments and "=" in name and not name.startswith("-") and name.split("=")[0].isidentifier():
            context.append(name)
            index += 1
            continue
        if name.startswith("-") and (name != "-" or name in wrapper.flags):
            if name in wrapper.inert_options:
                return Applied([], Inert(word.span))
            if name in wrapper.background_options:
                outcome = Detached(word.span)
            if name in wrapper.forcing_options:
                notes.forced = notes.forced or word.span
            if name in wrapper.login_options:
                notes.login = True
            if wrapper.closed and not _known(wrapper, name):
                notes.unproven = notes.unproven or word.span
            takes_value = name in wrapper.value_options and attached is None
            value_word = _value_word(argv, index, attached) if takes_value or attached is not None else None
            _valued(wrapper, name, value_word, notes)
            if value_word is not None and value_word.value is None and (not one_field(value_word.text) or any(
                    name == option for option, _ in wrapper.forcing_values)):
                notes.unproven = notes.unproven or value_word.span  # `nice -n $N`: `N='0 true'` adds a command
            if name in wrapper.identity_options:
                setting = name if value_word is None else f"{name}={value_word.value or value_word.text}"
                context.append(f"{wrapper.names[0]}:{setting}")
            if name in wrapper.string_options:
                value_word = _value_word(argv, index, attached)
                if value_word is None:
                    return Applied([], _problem((), (), f"`{name}` has no command string"))
                return Applied([], _nested_from(value_word, shell, argv[0], SOME_SHELL), tuple(context))
            if name in wrapper.rest_options:
                return Applied(argv[index + 1 :], outcome, tuple(context))
            if wrapper.module_option and name == wrapper.module_option:
                module = [Word("python", "python", argv[0].span), Word("-m", "-m", word.span), *argv[index + 1 :]]
                return Applied(module, outcome, tuple(context))
            if name in wrapper.dir_options:
                value_word = _value_word(argv, index, attached)
                if value_word is not None:
                    directories.append(value_word)
            index += 2 if takes_value else 1
            continue
        if operands_left or wrapper.string_only:
            if wrapper.dir_operand:
                directories.append(word)
            elif wrapper.identity_operands:
                context.append(f"{wrapper.names[0]}:{word.value}")
            operands_left = max(0, operands_left - 1)
            index += 1
            continue
        break
    if wrapper.string_only:
        return Applied([], Inert(argv[0].span))
    rest = argv[index:]
    if "hatch" in wrapper.names and rest and rest[0].value and ":" in rest[0].value:
        environment, _, command = rest[0].value.partition(":")
        context.append(f"hatch:{environment}")
        rest = [Word(rest[0].text, command, rest[0].span), *rest[1:]] if command else rest[1:]
    return Applied(rest, outcome, tuple(context))


_ASSIGNMENT_TEXT = lazy(r"[A-Za-z_][A-Za-z0-9_]*\+?=")


def _known(wrapper: Wrapper, name: str) -> bool:
    """Whether ``name`` is an option of ``wrapper``'s grammar (``nice -5`` is ``nice -n 5``)."""
    return name in wrapper.flags or name in wrapper.value_options or name in wrapper.string_options \
        or name in wrapper.inert_options or name in wrapper.forcing_options or name in wrapper.identity_options \
        or name in wrapper.dir_options or name in wrapper.background_options \
        or ("nice" in wrapper.names and name[1:].lstrip("-").isdigit())


def _valued(wrapper: Wrapper, name: str, value_word: Word | None, notes: _Notes) -> None:
    """What an option's value says: ``flock -E 0`` forces success; ``exec -a -bash`` starts a login shell."""
    value = value_word.value if value_word is not None else None
    if (name, value) in wrapper.forcing_values:
        notes.forced = notes.forced or value_word.span  # type: ignore[union-attr]
    if name == "-a" and "exec" in wrapper.names and (value is None or value.startswith("-")):
        notes.login = True  # a shell whose zeroth argument starts with `-` is a login shell


def _given(options: tuple[str, ...], words: list[Word]) -> bool:
    """Whether one of ``options`` is among ``words``, alone or in a cluster (``-qec``)."""
    letters = {option[1] for option in options if len(option) == 2}
    for word in words:
        value = word.value or ""
        if value in options or (value[:1] == "-" and value[1:2] != "-" and letters & set(value[1:])):
            return True
    return False


def _clusters(wrapper: Wrapper, words: list[Word], notes: _Notes) -> list[Word]:
    """``words`` with short options grouped in one word split apart, and a value attached to one
    made a word of its own: ``env -iS'true'`` is ``env -i -S true``, ``timeout -k5 60`` is
    ``timeout -k 5 60``. Reading stops at the first word that is no option."""
    out: list[Word] = []
    for position, word in enumerate(words):
        value = word.value
        if value is None or value == "--" or not value.startswith("-") or len(value) == 1:
            out.extend(words[position:])
            return out
        if value.startswith("--") or len(value) == 2 or _known(wrapper, value) or value[1:].isdigit():
            out.append(word)
            continue
        out.extend(_split(wrapper, word, notes))
    return out


def _split(wrapper: Wrapper, word: Word, notes: _Notes) -> list[Word]:
    """One cluster of short options (``-iS'true'``) as separate words."""
    value, text, start = word.value or "", word.text, word.span.start
    pieces: list[Word] = []
    for offset in range(1, len(value)):
        option = "-" + value[offset]
        pieces.append(Word(option, option, Span(start, word.span.end)))
        takes = option in wrapper.value_options or option in wrapper.string_options
        if takes and offset + 1 < len(value):
            prefix = value[: offset + 1]
            if not text.startswith(prefix):
                notes.unproven = notes.unproven or word.span  # the option itself is quoted: not read
                return pieces
            attached = text[len(prefix) :]
            pieces.append(Word(attached, value[offset + 1 :], Span(start + len(prefix), word.span.end)))
            return pieces
        if takes:
            return pieces
    return pieces


def _operands_before_separator(argv: list[Word], index: int) -> int:
    """How many operands come before a ``--`` after ``argv[index]`` (``mise exec node@20 -- npm
    test``: one); none when there is no ``--`` (the command then starts at the first operand)."""
    words = [word.value for word in argv[index:]]
    if "--" not in words:
        return 0
    return sum(1 for value in words[: words.index("--")] if value is not None and not value.startswith("-"))


def _value_word(argv: list[Word], index: int, attached: str | None) -> Word | None:
    word = argv[index]
    if attached is not None:
        start = word.span.end - len(attached)
        return Word(attached, attached, Span(start, word.span.end))
    return argv[index + 1] if index + 1 < len(argv) else None


def _after_subcommand(wrapper: Wrapper, argv: list[Word]) -> int:
    """Index just after the wrapper's subcommand words, skipping global options; -1 if absent."""
    index = 1
    while index < len(argv):
        name, attached = _option(argv[index])
        if name.startswith("-") and name != "-":
            index += 2 if name in wrapper.value_options and attached is None else 1
            continue
        value = argv[index].value
        for sequence in wrapper.subcommands:
            if sequence[0] == value and [word.value for word in argv[index : index + len(sequence)]] == list(sequence):
                return index + len(sequence)
        return -1
    return -1


def _nested_from(word: Word, outer: str, via: Word, options: ShellOptions = PLAIN, *,
                 wrappers: tuple[Word, ...] = (), directories: tuple[Word, ...] = ()) -> Unwrapped:
    """A command string written as one word in the ``outer`` dialect, run by a POSIX shell."""
    unquoted = (pwsh_unquote if outer == "pwsh" else bash_unquote)(word.text, word.span.start)
    if unquoted is None:
        return _problem(wrappers, directories, f"the command string {word.text} expands at run time")
    text, positions = unquoted
    return _runs_string(wrappers, directories, Nested(text=text, positions=positions, shell="bash", via=via,
                                                                options=options, stdin=False))


def _shell(argv: list[Word], name: str, outer: str, wrappers: tuple[Word, ...],
           directories: tuple[Word, ...]) -> Unwrapped:
    head = argv[0]
    wrappers = (*wrappers, head)
    if name == "eval":
        return _joined(argv[1:], head, reads="bash", outer=outer, wrappers=wrappers, directories=directories)
    if name in PWSH_PROGRAMS:
        return _pwsh_command(argv, head, outer, wrappers, directories)
    if name == "cmd":
        return _cmd(argv, head, outer, wrappers, directories)
    return _posix_shell(argv, name, outer, wrappers, directories)


def _cmd(argv: list[Word], head: Word, outer: str, wrappers: tuple[Word, ...],
         directories: tuple[Word, ...]) -> Unwrapped:
    index = 1
    while index < len(argv) and (argv[index].value or "").startswith("/"):
        flag = (argv[index].value or "").lower()
        index += 1
        if flag in ("/c", "/k", "/r"):
            if flag == "/k":
                return _problem(wrappers, directories, "`cmd /k` keeps the shell open after the command")
            return _joined(argv[index:], head, reads="cmd", outer=outer, wrappers=wrappers, directories=directories)
    return _problem(wrappers, directories, "`cmd` without `/c` runs no command")


def _posix_shell(argv: list[Word], name: str, outer: str, wrappers: tuple[Word, ...],
                 directories: tuple[Word, ...]) -> Unwrapped:
    """``bash [options] -c STRING``, ``bash -s`` or ``bash <<'EOF'``, ``bash script.sh``, ``busybox sh …``."""
    index = 1
    if name == "busybox":
        if len(argv) < 2 or argv[1].value not in ("sh", "ash"):
            return Unwrapped(tuple(argv), wrappers[:-1], directories)
        index = 2
    shell = invocation(argv, index, bash=name == "bash")
    if shell.problem is not None:
        return _problem(wrappers, directories, shell.problem)
    if shell.runs_nothing:
        return Unwrapped((), wrappers, directories, inert=argv[0].span)
    if shell.command:
        if shell.operand >= len(argv):
            return _problem(wrappers, directories, "`-c` has no command string")
        return _nested_from(argv[shell.operand], outer, argv[0], shell.options, wrappers=wrappers,
                            directories=directories)
    if shell.stdin or shell.operand >= len(argv):
        return _runs_string(wrappers, directories, Nested("", [], "bash", argv[0], shell.options, stdin=True))
    # `bash script.sh args`: the script is the program
    return Unwrapped(tuple(argv[shell.operand :]), wrappers, directories)


def _pwsh_command(argv: list[Word], head: Word, outer: str, wrappers: tuple[Word, ...],
                  directories: tuple[Word, ...]) -> Unwrapped:
    index = 1
    dirs = list(directories)
    while index < len(argv):
        value = argv[index].value
        if value is None:
            break
        lowered = value.lower()
        if not lowered.startswith("-"):
            return _problem(wrappers, tuple(dirs), f"`{head.text} {value}` runs a script file")
        option = lowered.lstrip("-")
        if option and "command".startswith(option) and len(option) >= 1 and option not in ("co", "config"):
            return _joined(argv[index + 1 :], head, reads="pwsh", outer=outer, wrappers=wrappers,
                           directories=tuple(dirs))
        if option in ("encodedcommand", "e", "ec", "enc"):
            if index + 1 >= len(argv) or argv[index + 1].value is None:
                break
            return _encoded(argv[index + 1], head, wrappers, tuple(dirs))
        if option in ("file", "f"):
            return _problem(wrappers, tuple(dirs), f"`{head.text} -File` runs a script file")
        if option in ("noexit",):
            return _problem(wrappers, tuple(dirs), "`-NoExit` keeps the shell open")
        if option in ("workingdirectory", "wd"):
            if index + 1 < len(argv):
                dirs.append(argv[index + 1])
            index += 2
            continue
        if option in ("executionpolicy", "ep", "ex", "outputformat", "of", "o", "inputformat", "if", "i",
                      "configurationname", "config", "custompipename", "settingsfile", "windowstyle", "w",
                      "version", "v"):
            index += 2
            continue
        index += 1
    return _problem(wrappers, tuple(dirs), f"`{head.text}` is given no command")


def _encoded(word: Word, head: Word, wrappers: tuple[Word, ...], directories: tuple[Word, ...]) -> Unwrapped:
    """``pwsh -EncodedCommand B64``: base64 of UTF-16-LE text; every character points at the word."""
    try:
        import base64  # only PowerShell encoded commands need them, and they cost start-up time
        import binascii

        decoded = base64.b64decode(word.value or "", validate=True).decode("utf-16-le")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return _problem(wrappers, directories, "the encoded command is not valid base64 UTF-16")
    positions = [word.span.start] * len(decoded) + [word.span.end]
    return _runs_string(wrappers, directories, Nested(decoded, positions, "pwsh", head))


def _joined(words: list[Word], via: Word, *, reads: Literal["bash", "pwsh", "cmd"], outer: str,
            wrappers: tuple[Word, ...], directories: tuple[Word, ...]) -> Unwrapped:
    """Arguments joined by spaces into one command string (``eval``, ``pwsh -Command``), which
    ``reads`` runs; ``outer`` is the dialect the arguments are written in."""
    if not words:
        return _problem(wrappers, directories, f"`{via.text}` is given no command")
    parts: list[str] = []
    positions: list[int] = []
    unquote = pwsh_unquote if outer == "pwsh" else bash_unquote
    for number, word in enumerate(words):
        unquoted = unquote(word.text, word.span.start)
        if unquoted is None:
            return _problem(wrappers, directories, f"the command string {word.text} expands at run time")
        string, places = unquoted
        if number:
            parts.append(" ")
            positions.append(positions[-1] if positions else word.span.start)
        parts.append(string)
        positions.extend(places[:-1])
    positions.append(words[-1].span.end)
    return _runs_string(wrappers, directories, Nested("".join(parts), positions, reads, via))
