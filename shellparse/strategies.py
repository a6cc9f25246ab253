"""Hypothesis strategies that generate bash command lines around a check, labelled with the
exit attribution that ``docs/shellparse.md`` gives them.

.. warning::

   **Do not execute generated commands outside a sandbox.** They are built from a fixed,
   non-destructive vocabulary (no ``rm``, ``mv``, ``sudo``, network tools or absolute paths;
   files are written only under the working directory, or to ``/dev/null``), but they are
   still shell code: run them only in a throw-away directory, with a ``PATH`` whose check
   programs are stubs, as the real-bash oracle of this project's tests does.

Every strategy draws a :class:`Sample`:

``command``
    the bash command line;
``program``
    the word a stub must replace, on ``PATH``, to control the check's exit status: the
    outermost program in command position that is not a shell keyword or builtin and not one
    of the system wrappers ``time``, ``timeout``, ``env``, ``nice``, ``nohup``, ``command``,
    ``exec`` and ``stdbuf`` (``npm`` for ``npm test``, ``npx`` for ``npx jest``, ``uv`` for
    ``uv run pytest``, ``pytest`` for ``timeout 300 pytest``);
``kind``
    the check's kind (``test``, ``typecheck``, ``lint`` or ``build``);
``expect``
    ``witness`` (the exit source is ``check``), ``reporting-pipe`` or ``masked``.

The strategies:

:func:`checks`
    a bare check command (``pytest -q``, ``npm run lint``, ``cargo clippy -- -D warnings``);
:func:`wrapped_checks`
    a check with env prefixes, system wrappers and package runners (``CI=1 timeout 300 npx
    jest``);
:func:`attributed_commands`
    shapes that keep the check's own status: redirects, ``cd sub &&``, separators before the
    check, a pipe into the check, ``( … )``, ``{ …; }``, ``bash -c '…'``, ``; exit $?``,
    ``|| exit``, ``set -o pipefail; check | tee log``, ``check | tee log; exit ${PIPESTATUS[0]}``;
:func:`reporting_commands`
    exactly one pipe to ``tee``, ``tail``, ``head`` or ``cat``, without ``pipefail``;
:func:`masked_commands`
    shapes that hide the check's status: ``; true``, ``; echo done``, ``&& echo ok > done.txt``,
    ``|| true``, ``|| exit 1``, ``&``, ``!``, ``$(…)``, ``if …; then …; fi``, ``| grep x``,
    ``| true``, two pipes, ``; > out.txt``, ``exit 0;`` or ``[ -f nope ] || exit 0;`` before,
    ``set -o pipefail; producer | check``;
:func:`commands`
    any of the three shapes;
:func:`fuzzed_commands`
    lines for a differential fuzzer against real bash: the constructs of the proven set composed
    around a check (statements before it, shapes that carry its status, containers), with or
    without one construct from outside the set (traps, options, redirects on ``exit``, job specs,
    here-documents, control characters, startup files, programs the line writes …), one class
    each (:data:`FUZZ_SHAPES`; :data:`REAL_SHAPES` need the real ``make``, ``npm`` and ``pytest``).

A test of the analyzer::

    from hypothesis import given
    from shellparse import analyze
    from shellparse.strategies import masked_commands

    @given(masked_commands())
    def test_masked_never_witness(sample):
        assert not analyze(sample.command).witness_eligible

Commands move at most two directories deep, into ``sub`` and ``api`` (``cd sub && env -C api
pytest``), and may read ``input.txt``; a sandbox that runs them should create those.
"""

from __future__ import annotations

import re
import shlex
from typing import Literal, NamedTuple, get_args

from hypothesis import strategies as st

from ._adversarial import FALSE_WITNESS, HONEST, NOT_RUN, RESIDUAL, bare, fill, templates
from ._constructs import (
    CONTAINERS,
    DANGERS,
    NEIGHBOURS,
    PRELUDES,
    REAL_ABSENT,
    REAL_BODY,
    REAL_DANGERS,
    REAL_NEIGHBOURS,
    REAL_TARGETS,
    SHAPES,
    Parts,
    compose,
)
from ._vocabulary import CheckKind

__all__ = [
    "EXPECTATIONS",
    "FALSE_WITNESS_SHAPES",
    "FUZZ_SHAPES",
    "HONEST_SHAPES",
    "REAL_SHAPES",
    "RESIDUAL_SHAPES",
    "UNATTRIBUTED_SHAPES",
    "Expectation",
    "Sample",
    "attributed_commands",
    "checks",
    "commands",
    "false_witness_commands",
    "fuzzed_commands",
    "honest_commands",
    "masked_commands",
    "reporting_commands",
    "residual_commands",
    "unattributed_commands",
    "wrapped_checks",
]

Expectation = Literal["witness", "reporting-pipe", "masked", "not-validation"]
"""What the rule book says a sample's exit status is (see :attr:`Sample.expect`)."""
EXPECTATIONS: tuple[Expectation, ...] = get_args(Expectation)
"""The values of :attr:`Sample.expect`."""


class Sample(NamedTuple):
    """One generated command line and what the rule book says about it."""

    command: str
    """The bash command line."""
    program: str
    """The word a ``PATH`` stub must replace to control the check's exit status."""
    kind: CheckKind
    """The check's kind: ``test``, ``typecheck``, ``lint`` or ``build``."""
    expect: Expectation
    """``witness``, ``reporting-pipe``, ``masked`` or ``not-validation`` (the check is not run as a
    command at all: ``bash -n -c 'pytest'``); see :data:`EXPECTATIONS`."""
    shape: str = ""
    """The exit-attribution class a sample of :func:`false_witness_commands`,
    :func:`honest_commands`, :func:`unattributed_commands` or :func:`residual_commands` belongs to,
    or the class of :func:`fuzzed_commands` (:data:`FUZZ_SHAPES`, :data:`REAL_SHAPES`)."""
    constructs: tuple[str, ...] = ()
    """What a sample of :func:`fuzzed_commands` is composed of, from the check outwards
    (``shape:saved-status``, ``danger:job-spec``, ``prelude:move``, ``container:group`` …)."""


class _Check(NamedTuple):
    """A check as written, the program a stub replaces, and which runners may wrap it."""

    text: str
    program: str
    kind: CheckKind
    runners: str  # "python", "node", "ruby" or "" (no package runner wraps it)


def _group(program: str, kind: CheckKind, runners: str, texts: tuple[str, ...]) -> list[_Check]:
    return [_Check(text, program, kind, runners) for text in texts]


_CHECKS: tuple[_Check, ...] = (
    # Python
    *_group("pytest", "test", "python", ("pytest", "pytest -q", "pytest -x -q tests", "pytest -k 'a or b'",
            "pytest --tb=short sub/tests", "pytest -p no:cacheprovider")),
    *_group("python", "test", "", ("python -m pytest -q", "python -m unittest discover -s tests")),
    *_group("python3", "test", "", ("python3 -m pytest", "python3 -m pytest -x tests/test_api.py")),
    *_group("python", "typecheck", "", ("python -m mypy src",)),
    *_group("tox", "test", "python", ("tox", "tox -e py311")),
    *_group("mypy", "typecheck", "python", ("mypy .", "mypy --strict src")),
    *_group("pyright", "typecheck", "python", ("pyright",)),
    *_group("ruff", "lint", "python", ("ruff check .", "ruff check --output-format=concise src",
            "ruff format --check .")),
    *_group("flake8", "lint", "python", ("flake8 src",)),
    *_group("black", "lint", "python", ("black --check .",)),
    *_group("isort", "lint", "python", ("isort --check-only .",)),
    *_group("pylint", "lint", "python", ("pylint src",)),
    # JavaScript and TypeScript
    *_group("npm", "test", "", ("npm test", "npm t", "npm run test", "npm test -- --watch=false",
            "npm run test:unit", "npm --prefix sub test")),
    *_group("npm", "lint", "", ("npm run lint",)),
    *_group("npm", "build", "", ("npm run build",)),
    *_group("npm", "typecheck", "", ("npm run typecheck",)),
    *_group("pnpm", "test", "", ("pnpm test", "pnpm vitest run")),
    *_group("pnpm", "lint", "", ("pnpm lint",)),
    *_group("pnpm", "build", "", ("pnpm run build",)),
    *_group("yarn", "test", "", ("yarn test", "yarn jest --ci")),
    *_group("yarn", "lint", "", ("yarn lint",)),
    *_group("bun", "test", "", ("bun test",)),
    *_group("jest", "test", "node", ("jest", "jest --ci", "jest src/app.test.ts")),
    *_group("vitest", "test", "node", ("vitest run", "vitest run --reporter=dot")),
    *_group("mocha", "test", "node", ("mocha",)),
    *_group("tsc", "typecheck", "node", ("tsc --noEmit", "tsc -p tsconfig.json --noEmit")),
    *_group("eslint", "lint", "node", ("eslint .", "eslint src --max-warnings=0")),
    *_group("prettier", "lint", "node", ("prettier --check .",)),
    # Go, Rust, C, JVM, .NET
    *_group("go", "test", "", ("go test ./...", "go test -run TestX ./pkg")),
    *_group("go", "lint", "", ("go vet ./...",)),
    *_group("go", "build", "", ("go build ./...",)),
    *_group("cargo", "test", "", ("cargo test", "cargo test --features for")),
    *_group("cargo", "build", "", ("cargo build --release",)),
    *_group("cargo", "lint", "", ("cargo clippy -- -D warnings", "cargo fmt --check")),
    *_group("cargo", "typecheck", "", ("cargo check",)),
    *_group("make", "test", "", ("make test", "make check", "make -C sub test")),
    *_group("make", "build", "", ("make", "make -j4 all")),
    *_group("make", "lint", "", ("make lint",)),
    *_group("ctest", "test", "", ("ctest --output-on-failure",)),
    *_group("mvn", "test", "", ("mvn -q test", "mvn verify")),
    *_group("gradle", "test", "", ("gradle test",)),
    *_group("dotnet", "test", "", ("dotnet test",)),
    *_group("dotnet", "build", "", ("dotnet build",)),
    # Ruby, PHP, Elixir, Deno
    *_group("rspec", "test", "ruby", ("rspec", "rspec spec/a_spec.rb")),
    *_group("rubocop", "lint", "ruby", ("rubocop",)),
    *_group("rake", "test", "ruby", ("rake test",)),
    *_group("phpunit", "test", "", ("phpunit",)),
    *_group("mix", "test", "", ("mix test",)),
    *_group("deno", "test", "", ("deno test",)),
)

# Package runners: the runner is the program a stub replaces.
_RUNNERS: dict[str, tuple[str, ...]] = {
    "python": ("uv run", "uv run --with pytest-xdist --", "poetry run", "pipenv run", "pdm run", "hatch run"),
    "node": ("npx", "npx -y", "npx --yes", "pnpm exec", "npm exec --", "bunx"),
    "ruby": ("bundle exec",),
}

# Shell keywords and builtins that run the command in the same shell. `time` is only a keyword at
# the start of a pipeline, so it comes first and is never preceded by assignments or a producer.
_KEYWORDS = ("time", "time -p", "command", "exec")
# Real system programs that run the command and return its status (never stubbed).
_SYSTEM_WRAPPERS = ("timeout 300", "timeout -k 10 600", "env", "env CI=true", "env -u FOO", "nice", "nice -n 5",
                    "nohup", "stdbuf -oL")
_MOVING_WRAPPER = "env -C sub"
_ASSIGNMENTS = ("CI=1", "NODE_ENV=test", "FORCE_COLOR=0", "PYTHONDONTWRITEBYTECODE=1", "RUST_BACKTRACE=1")

_REDIRECTS = ("> out.log", "> out.log 2>&1", "2>&1", ">/dev/null", "2>/dev/null", "&>/dev/null", "&> out.log",
              ">> log.txt 2>&1", "2> err.txt", "< /dev/null", "1>&2")
_PRODUCERS = ("echo data", "printf 'a\\nb\\n'", "cat input.txt", "true")
_BEFORE = ("echo start; ", "true && ", "export CI=1; ", "set -e; ", "mkdir -p build && ", "grep x input.txt; ",
           "[ -d node_modules ] || echo missing; ", "ls >/dev/null; ", "unset FOO; ", "echo start\n", ": && ",
           "printf 'x\\n' > input.txt; ")
_MOVES = ("cd sub && ", "cd sub; ", "cd api && ", "cd sub || exit 1; ", "pushd sub >/dev/null && ",
          "pushd api > /dev/null; ", "cd sub\n")
_EXITS = ("; exit $?", "; exit", " || exit", " || exit $?", '; exit "$?"', "\nexit $?")
_PASS_THROUGH = ("tee log.txt", "tee -a out.log", "tail -5", "tail -n 20", "head -50", "head -n 5", "cat")
_PIPES = (" | ", " 2>&1 | ", " |& ")


def _terminated(command: str) -> str:
    """``command`` ready to be followed inside ``{ … }``: a ``;`` unless it ends with ``&``."""
    return command + (" " if command.rstrip().endswith("&") else "; ")


def _in_group(command: str) -> str:
    return "{ " + _terminated(command) + "}"


def _in_subshell(command: str) -> str:
    return "( " + command + " )"  # spaced: `((` would open an arithmetic command


def _in_bash(command: str) -> str:
    return "bash -c " + shlex.quote(command)


_CONTAINERS = (_in_subshell, _in_group, _in_bash)


@st.composite
def _check(draw: st.DrawFn) -> Sample:
    check = draw(st.sampled_from(_CHECKS))
    return Sample(check.text, check.program, check.kind, "witness")


def checks() -> st.SearchStrategy[Sample]:
    """A bare check (``pytest -q``, ``npm run lint``, ``go vet ./...``), expected to witness."""
    return _check()


class _Wrapped(NamedTuple):
    sample: Sample
    timed: bool  # starts with the `time` keyword: no assignment or producer may precede it
    moves: int  # directories the wrappers move into (`env -C sub`)


@st.composite
def _wrapped(draw: st.DrawFn) -> _Wrapped:
    check = draw(st.sampled_from(_CHECKS))
    words: list[str] = []
    program = check.program
    if check.runners and draw(st.booleans()):
        words.append(draw(st.sampled_from(_RUNNERS[check.runners])))
        program = words[0].split()[0]
    wrappers = draw(st.lists(st.sampled_from((*_SYSTEM_WRAPPERS, _MOVING_WRAPPER)), max_size=2, unique=True))
    moves = int(_MOVING_WRAPPER in wrappers)
    words[:0] = wrappers
    keyword = draw(st.sampled_from((None, *_KEYWORDS)))
    timed = keyword is not None and keyword.startswith("time")
    if keyword is not None:
        words.insert(0, keyword)
    if not timed:
        words[:0] = draw(st.lists(st.sampled_from(_ASSIGNMENTS), max_size=2, unique=True))
    command = " ".join([*words, check.text])
    return _Wrapped(Sample(command, program, check.kind, "witness"), timed, moves)


def wrapped_checks() -> st.SearchStrategy[Sample]:
    """A check behind env prefixes, wrappers and package runners, expected to witness."""
    return _wrapped().map(lambda wrapped: wrapped.sample)


class _Core(NamedTuple):
    command: str
    sample: Sample
    moves: int
    timed: bool
    piped: bool  # a producer pipes into the check


@st.composite
def _core(draw: st.DrawFn, producer: bool) -> _Core:
    """A wrapped check with an optional redirect and, when allowed, a pipe into it."""
    wrapped = draw(_wrapped())
    command = wrapped.sample.command
    if draw(st.booleans()):
        command += " " + draw(st.sampled_from(_REDIRECTS))
    piped = producer and not wrapped.timed and draw(st.integers(0, 3)) == 0
    if piped:
        command = draw(st.sampled_from(_PRODUCERS)) + " | " + command
    return _Core(command, wrapped.sample, wrapped.moves, wrapped.timed, piped)


@st.composite
def _before(draw: st.DrawFn, moves: int, conditional: bool = True, errexit: bool = True) -> tuple[str, int]:
    """A statement before the check that keeps its status; it may move one directory down.

    Without ``conditional`` it never ends with ``&&``: a ``set -o pipefail`` after ``&&`` may
    not run, so it would not surely be on for a later statement. Without ``errexit`` it is never
    ``set -e``, under which a failing check ends the script and a tail after it no longer masks.
    """
    moves_pool = _MOVES if conditional else tuple(m for m in _MOVES if not m.endswith("&& "))
    before_pool = tuple(b for b in _BEFORE if (conditional or not b.endswith("&& ")) and (errexit or "-e" not in b))
    if moves < 2 and draw(st.booleans()):
        return draw(st.sampled_from(moves_pool)), moves + 1
    return draw(st.sampled_from(before_pool)), moves


@st.composite
def _attributed(draw: st.DrawFn) -> Sample:
    shape = draw(st.sampled_from(("plain", "plain", "pipefail", "pipestatus")))
    core = draw(_core(producer=shape != "pipefail"))  # with pipefail a failing producer would count
    command, moves = core.command, core.moves
    exited = False  # an exit suffix ends the statement: a second one needs a container first
    if shape == "pipestatus":
        command += draw(st.sampled_from(_PIPES)) + draw(st.sampled_from(_PASS_THROUGH))
        position = 1 if core.piped else 0
        command += draw(st.sampled_from((f"; exit ${{PIPESTATUS[{position}]}}",
                                         f'; exit "${{PIPESTATUS[{position}]}}"')))
        exited = True
    elif shape == "pipefail":
        setting = draw(st.sampled_from(("set -o pipefail; ", "set -euo pipefail; ", "set -eo pipefail\n",
                                        "set -o pipefail && ", "bash -o pipefail -c ")))
        consumers = draw(st.lists(st.sampled_from(_PASS_THROUGH), min_size=1, max_size=2))
        pipeline = command + draw(st.sampled_from(_PIPES)) + " | ".join(consumers)
        if setting.startswith("bash"):
            command = setting + shlex.quote(pipeline)
        else:
            command = setting + pipeline
    for layer in draw(st.lists(st.sampled_from(("before", "container", "exit")), max_size=3)):
        if layer == "before":
            prefix, moves = draw(_before(moves, conditional=shape != "pipefail"))
            command = prefix + command
        elif layer == "container":
            command = draw(st.sampled_from(_CONTAINERS))(command)
            exited = False
        elif not exited:
            command += draw(st.sampled_from(_EXITS))
            exited = True
    return core.sample._replace(command=command, expect="witness")


def attributed_commands() -> st.SearchStrategy[Sample]:
    """Shapes that keep the check's own exit status (``expect == "witness"``)."""
    return _attributed()


@st.composite
def _layers(draw: st.DrawFn, command: str, moves: int, errexit: bool = False) -> str:
    """Up to two layers that keep the verdict: a statement before, or a container around (without
    ``errexit``, never ``set -e``: it makes a tail run only after a pass)."""
    for layer in draw(st.lists(st.sampled_from(("before", "container")), max_size=2)):
        if layer == "before":
            prefix, moves = draw(_before(moves, errexit=errexit))
            command = prefix + command
        else:
            command = draw(st.sampled_from(_CONTAINERS))(command)
    return command


@st.composite
def _reporting(draw: st.DrawFn) -> Sample:
    core = draw(_core(producer=False))
    command, moves = core.command, core.moves
    if draw(st.integers(0, 3)) == 0:
        command = draw(st.sampled_from((_in_subshell, _in_group)))(command)
    command += draw(st.sampled_from(_PIPES)) + draw(st.sampled_from(_PASS_THROUGH))
    command = draw(_layers(command, moves))
    return core.sample._replace(command=command, expect="reporting-pipe")


def reporting_commands() -> st.SearchStrategy[Sample]:
    """Exactly one pipe from the check to ``tee``/``tail``/``head``/``cat``, without pipefail."""
    return _reporting()


def _substituted(command: str) -> tuple[str, ...]:
    # Spaced: `$((` would open an arithmetic expansion.
    return (f'echo "$( {command} )"', f"out=$( {command} )", f"echo $( {command} )", f"echo `{command}`")


@st.composite
def _masked(draw: st.DrawFn) -> Sample:
    mask = draw(st.sampled_from(("tail", "or", "background", "negation", "substitution", "if", "loop",
                                 "deciding", "two-pipes", "redirect", "early-exit", "pipefail-producer")))
    core = draw(_core(producer=mask != "pipefail-producer"))
    command, moves = core.command, core.moves
    if mask == "pipefail-producer" and core.timed:
        mask = "tail"  # `time` after a pipe is not the keyword but /usr/bin/time, which may be missing
    if mask == "tail":
        command += draw(st.sampled_from(("; true", "; echo done", "; :", "\necho finished", '; echo "exit=$?"')))
    elif mask == "or":
        command += draw(st.sampled_from((" || true", " || echo failed", " || exit 1", " || exit 0", " || :")))
    elif mask == "background":
        command += draw(st.sampled_from((" &", "&", " & wait")))  # a bare `wait` returns 0, not the job's status
    elif mask == "negation":
        command = "! " + command
    elif mask == "substitution":
        command = draw(st.sampled_from(_substituted(command)))
    elif mask == "if":
        command = draw(st.sampled_from((f"if {command}; then echo ok; fi",
                                        f"if {command}; then echo pass; else echo fail; fi")))
    elif mask == "loop":
        command = f"for i in 1 2; do {_terminated(command)}done"  # twice: a later pass hides a failure
    elif mask == "deciding":
        consumer = draw(st.sampled_from(("grep x", "grep -v warning", "true", "wc -l", "sort", "grep -c passed")))
        command += draw(st.sampled_from(_PIPES)) + consumer
    elif mask == "two-pipes":
        first, second = draw(st.lists(st.sampled_from(_PASS_THROUGH), min_size=2, max_size=2))
        command += draw(st.sampled_from(_PIPES)) + first + " | " + second
    elif mask == "redirect":
        command += draw(st.sampled_from(("; > out.txt", "; >> out.txt", "\n> out.txt")))
    elif mask == "pipefail-producer":
        command = "set -o pipefail; " + draw(st.sampled_from(_PRODUCERS)) + " | " + command
    else:
        command = draw(st.sampled_from(("exit 0; ", "[ -f nope ] || exit 0; ", "exit; ", "true && exit 0\n",
                                        "trap 'exit 0' EXIT; "))) + command
    command = draw(_layers(command, moves, errexit=mask not in ("tail", "redirect")))
    return core.sample._replace(command=command, expect="masked")


def masked_commands() -> st.SearchStrategy[Sample]:
    """Shapes in which something other than the check decides, or may decide, the exit status."""
    return _masked()


def commands() -> st.SearchStrategy[Sample]:
    """Any attributed, reporting or masked sample."""
    return st.one_of(attributed_commands(), reporting_commands(), masked_commands())


FALSE_WITNESS_SHAPES: tuple[str, ...] = tuple(FALSE_WITNESS)
"""The classes of :func:`false_witness_commands`."""
HONEST_SHAPES: tuple[str, ...] = tuple(HONEST)
"""The classes of :func:`honest_commands`."""
UNATTRIBUTED_SHAPES: tuple[str, ...] = tuple(NOT_RUN)
"""The classes of :func:`unattributed_commands`."""
RESIDUAL_SHAPES: tuple[str, ...] = tuple(RESIDUAL)
"""The classes of :func:`residual_commands`."""
# Templates in which the check is never run as a command: the analysis finds no check there.
_NO_CHECK = frozenset({"bash -n -c {q}", "bash -o noexec -c {q}", "sh -n -c {q}", "builtin {c}", "time -v {c}",
                       "time -f %e {c}"})


def _shaped(classes: dict[str, tuple[str, ...]], shape: str | None, expect: Expectation) -> st.SearchStrategy[Sample]:
    return _drawn(templates(classes, shape), expect)  # `templates` refuses an unknown shape at once


@st.composite
def _drawn(draw: st.DrawFn, pairs: st.SearchStrategy[tuple[str, str]], expect: Expectation) -> Sample:
    name, template = draw(pairs)
    check = draw(_check() if name == "waited" or bare(template) else wrapped_checks())
    command = fill(template, check.command, check.program)
    label: Expectation = "not-validation" if template in _NO_CHECK else expect
    return check._replace(command=command, expect=label, shape=name)


def false_witness_commands(shape: str | None = None) -> st.SearchStrategy[Sample]:
    """Shapes that can report 0 for a check that failed or never ran: here-documents whose text is
    not the script a shell runs, here-document end lines bash does not accept, traps, redefinitions,
    code that cannot be read, pipefail that does not reach, retries (``shape``: one class of
    :data:`FALSE_WITNESS_SHAPES`). Each is ``masked``, or ``not-validation`` where the check is not
    run as a command at all."""
    return _shaped(FALSE_WITNESS, shape, "masked")


def residual_commands(shape: str | None = None) -> st.SearchStrategy[Sample]:
    """One pass-through pipe whose pipefail is switched off or does not reach: a reporting pipe."""
    return _shaped(RESIDUAL, shape, "reporting-pipe")


def unattributed_commands(shape: str | None = None) -> st.SearchStrategy[Sample]:
    """Shapes whose 0 proves a pass but whose failure may be another command's (``cd missing &&
    check``, SIGPIPE from ``| head`` under pipefail): ``witness``, with ``failure_attributable`` false."""
    return _shaped(NOT_RUN, shape, "witness")


def honest_commands(shape: str | None = None) -> st.SearchStrategy[Sample]:
    """Shapes whose status provably is the check's: succeeding tails, saved and re-raised status,
    ``set -e``, one-path compounds, ``wait``, reaching pipefail, wrapping functions, harmless traps
    (``shape``: one class of :data:`HONEST_SHAPES`)."""
    return _shaped(HONEST, shape, "witness")


FUZZ_SHAPES: tuple[str, ...] = ("proven", *DANGERS)
"""The classes of :func:`fuzzed_commands` around stub checks: ``proven`` (only constructs of the
proven set and honest neighbours of the dangers) and one class per danger outside the set."""
REAL_SHAPES: tuple[str, ...] = ("proven-real", *REAL_DANGERS)
"""The classes of :func:`fuzzed_commands` that need the real ``make``, ``npm`` and ``pytest`` (see there)."""
_FUZZ_PRELUDES = [(name, text) for name, texts in PRELUDES.items() for text in texts]
_FUZZ_CONTAINERS = [(name, text) for name, texts in CONTAINERS.items() for text in texts]
_FUZZ_TEMPLATES = [(name, text) for name, shape in SHAPES.items() for text in shape.templates]
_FUZZ_NEIGHBOURS = [(name, text) for name, texts in NEIGHBOURS.items() for text in texts]
_SHAPED = re.compile(r"\{(s|q|qe)\}")
_REAL_KIND: CheckKind = "test"  # pytest's kind; a target's or script's comes from REAL_TARGETS or REAL_ABSENT


class _Shaped(NamedTuple):
    parts: Parts
    kind: CheckKind
    reporting: bool
    constructs: tuple[str, ...]
    moves: int


@st.composite
def _shaped_check(draw: st.DrawFn) -> _Shaped:
    """A wrapped check inside a status-carrying shape of the proven set."""
    drawn = draw(_core(producer=False))
    name, template = draw(st.sampled_from(_FUZZ_TEMPLATES))
    parts = Parts("", drawn.command, drawn.command, drawn.sample.program)
    return _Shaped(parts._replace(shaped=compose(template, parts)), drawn.sample.kind, SHAPES[name].reporting,
                   (f"shape:{name}",), drawn.moves)


@st.composite
def _around(draw: st.DrawFn, line: str, moves: int) -> tuple[str, tuple[str, ...]]:
    """Up to three layers of the proven set around ``line``: statements before it, containers around it."""
    constructs: list[str] = []
    for layer in draw(st.lists(st.sampled_from(("prelude", "container")), max_size=3)):
        pool = _FUZZ_PRELUDES if layer == "prelude" else _FUZZ_CONTAINERS
        name, text = draw(st.sampled_from(pool))
        if name == "move":
            if moves >= 2:
                continue  # the sandbox has two levels of directories
            moves += 1
        line = text + line if layer == "prelude" else compose(text, Parts(line, line, line, ""))
        constructs.append(f"{layer}:{name}")
    return line, tuple(constructs)


@st.composite
def _stubbed(draw: st.DrawFn, shape: str) -> Sample:
    """A line of a class around a stub check: the proven set alone (with or without an honest
    neighbour of a danger), or one danger."""
    if shape == "proven":
        name, template = draw(st.sampled_from([("", "{s}"), *_FUZZ_NEIGHBOURS]))
        outer = (f"neighbour:{name}",) if name else ()
    else:
        template = draw(st.sampled_from(DANGERS[shape].templates))
        outer = (f"danger:{shape}",)
    if "{b}" in template:  # a word goes in front of the check: no wrapper, no shape
        check = draw(_check())
        drawn = _Shaped(Parts(check.command, check.command, check.command, check.program), check.kind, False, (), 0)
    else:
        drawn = draw(_shaped_check())
        if not _SHAPED.search(template):  # the template carries the status its own way
            drawn = drawn._replace(reporting=False, constructs=())
    line, layers = draw(_around(compose(template, drawn.parts), drawn.moves))
    return Sample(line, drawn.parts.program, drawn.kind, _expectation(shape, reporting=drawn.reporting), shape,
                  (*drawn.constructs, *outer, *layers))


@st.composite
def _real(draw: st.DrawFn, shape: str) -> Sample:
    """A line of a class around the real ``make`` or ``pytest``."""
    if shape == "proven-real":
        template, outer = draw(st.sampled_from(REAL_NEIGHBOURS)), "neighbour:real"
    else:
        template, outer = draw(st.sampled_from(REAL_DANGERS[shape].templates)), f"danger:{shape}"
    target, absent = draw(st.sampled_from(sorted(REAL_TARGETS))), draw(st.sampled_from(sorted(REAL_ABSENT)))
    kind = REAL_TARGETS[target] if "{t}" in template else REAL_ABSENT[absent] if "{u}" in template else _REAL_KIND
    check = template.replace("{t}", target).replace("{u}", absent)
    name, shape_template = draw(st.sampled_from(_FUZZ_TEMPLATES))
    line, layers = draw(_around(compose(shape_template, Parts("", check, check, REAL_BODY)), 0))
    return Sample(line, REAL_BODY, kind, _expectation(shape, reporting=SHAPES[name].reporting), shape,
                  (f"shape:{name}", outer, *layers))


def _expectation(shape: str, *, reporting: bool) -> Expectation:
    if shape not in ("proven", "proven-real"):
        return "masked"
    return "reporting-pipe" if reporting else "witness"


def fuzzed_commands(shape: str | None = None) -> st.SearchStrategy[Sample]:
    """Lines for a differential fuzzer against real bash: a check in a status-carrying shape, with
    statements before it and containers around it from the proven set, and (except in class
    ``proven``) one construct from outside the set — a trap, an option, a redirect on ``exit``, a
    job spec, a startup file, a program the line writes … (``shape``: one class of
    :data:`FUZZ_SHAPES` or :data:`REAL_SHAPES`; by default any class of :data:`FUZZ_SHAPES`, the
    proven set a third of the time).

    ``expect`` is ``witness`` or ``reporting-pipe`` for a line of the proven set and ``masked``
    for a line with a danger; which of them a line really is, real bash decides (run it for each
    status of the check: the property is "witness-eligible ⇒ bash's status follows the check").
    ``constructs`` names what the line is composed of.

    Lines of :data:`REAL_SHAPES` run the real ``make``, ``npm`` and ``pytest`` in a project whose
    Makefile targets and package scripts (``test``, ``check``, ``lint``) and test module
    (``tests/``) run the program ``check-body``: that is their ``program``, the stub that decides
    whether the check passes.
    """
    if shape is None:
        dangers = st.sampled_from(FUZZ_SHAPES[1:])
        return st.one_of(_stubbed("proven"), dangers.flatmap(_stubbed), dangers.flatmap(_stubbed))
    if shape in REAL_SHAPES:
        return _real(shape)
    if shape not in FUZZ_SHAPES:
        raise ValueError(f"unknown shape {shape!r}; one of {', '.join((*FUZZ_SHAPES, *REAL_SHAPES))}")
    return _stubbed(shape)
