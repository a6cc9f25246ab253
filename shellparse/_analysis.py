"""Exit attribution: is the status a command line reports its check's own?

The analysis walks the neutral model statement by statement, keeping what earlier statements
did to the shell (directory, ``pipefail``, functions, anything that may end the script early).
Each check found is judged twice: inside the construct that holds it (a subshell, a ``bash -c``
string, a script block) and by the position of that construct in its own script
(:mod:`._position`); the worse verdict wins. Every decision leaves a :class:`Reason` with the
span of the text responsible.
"""

from types import MappingProxyType
from typing import NamedTuple

from ._bash import parse_bash
from ._commands import update
from ._effects import MUTATING, READ_ONLY, UNKNOWN, combine, program_effect, redirect_writes
from ._families import mentions
from ._findings import RANK, Finding, mark_repeated
from ._forcing import forced
from ._identify import Identified, identify
from ._identity import digest, identity_text
from ._inert import variable_rule
from ._model import Command, Opaque, Script, Span, Word
from ._offsets import Frame, OffsetMap
from ._paths import Path, single_path
from ._position import Before, Consumer, Lists, consumer_of, place
from ._posix import posix_problem
from ._prelude import assignment_problem
from ._reasons import reason
from ._results import Analysis, Check, Reason, Validation
from ._selection import selection
from ._shellstate import ShellState, directory, excerpt, word_text
from ._status import always_succeeds, may_be_unset
from ._stdin import stdin_script
from ._surroundings import INHERITED, STARTUP_MENTIONS, consumed, inherited, redefined, spliced, waited
from ._traps import trap_of
from ._vocabulary import CommandKind, Effect, ExitSource, OpaqueKind, Policy, Shell
from ._wrappers import SHELL_PROGRAMS, Nested, Unwrapped, program_name, unwrap
from ._writes import Written, linked, program_writes, redirect_written, rewritten, startup_written
from .errors import WorkExhausted

_new = tuple.__new__
_COMPOUND_NAMES: dict[CommandKind, str] = {
    "if": "`if`", "for": "a loop", "while": "a loop", "until": "a loop", "select": "`select`",
    "case": "`case`", "function": "a function definition", "try": "`try`", "block": "a script block",
    "arithmetic": "an arithmetic command", "assignment": "an assignment", "expression": "an expression",
    "test": "a test command",
}
_OPAQUE_NAMES: dict[OpaqueKind, str] = {
    "substitution": "a command substitution", "process-substitution": "a process substitution",
    "subexpression": "a subexpression", "script-block": "a script block",
}
_GREP = frozenset({"grep", "egrep", "fgrep", "rg", "ag", "ack", "zgrep"})
POSIX_READERS = SHELL_PROGRAMS - {"bash"}
"""Shells whose command strings are read as a POSIX ``sh`` reads them (:mod:`._posix`)."""


class Where(NamedTuple):
    """Where a command runs, as its statement places it."""

    here: bool = True
    """In this shell (alone in its statement, not backgrounded), not in a subshell of its own."""
    waited: bool = False
    """A ``coproc`` whose ``wait`` follows (its status comes back)."""
    ignored: bool = False
    """Where bash ignores ``set -e`` (before ``&&``/``||``, after ``!``)."""


HERE = Where()
ELSEWHERE = Where(here=False)
_CALLS = 64  # function calls followed per analysis: a bound on `f() { g; g; }; g() { h; h; }; …`
WORK_PER_CHARACTER = 4
"""Statements an analysis may visit per character of the command (plus :data:`WORK_BASE`). A
statement takes two characters at least, and the analysis visits each once, except the bodies of
called functions (:data:`_CALLS` calls at most): a command that needs more is refused
(``unreadable``), so that the time and memory of any analysis stay linear in its length."""
WORK_BASE = 10_000


class Analyzer:
    """One analysis of one command line."""

    def __init__(self, text: str, shell: Shell, policy: Policy):
        self.text = text
        self.shell: Shell = shell
        self.policy: Policy = policy
        self.effect: Effect = READ_ONLY
        self.calls = 0
        self.calling: frozenset[str] = frozenset()
        self.mutations = 0
        """Commands (or redirects) seen so far that may change the workspace."""
        self.chains = 0
        """`&&` lists and `set -e` scripts seen so far (each finding's ``chain`` is one of them)."""
        self.work = 0
        """Statements visited so far (a statement of a function body once per call)."""
        self.frame: Frame | None = None
        """The command string being analysed, when the analysis is inside one (``bash -c '…'``)."""
        self._writes: list[Written] = []
        self._writers: list[tuple[Command, tuple[Word, ...]]] = []
        """Programs met whose writes are not read yet (most lines have no check after them)."""
        self.budget = WORK_BASE + WORK_PER_CHARACTER * len(text)

    def written(self) -> list[Written]:
        """What the line writes, in the order the analysis met it: before a check, what was written
        before it ran (the programs met are read for their targets only once a check asks)."""
        if self._writers:
            for command, argv in self._writers:
                self._writes.extend(program_writes(command, argv, self.text))
                if argv[0].value == "trap":
                    self._writes.extend(redirect_written(word, command.span) for word in trap_of(argv[1:]).writes)
            self._writers.clear()
        return self._writes

    def spend(self, statements: int) -> None:
        """Count ``statements`` more visited; raises :class:`WorkExhausted` past the budget."""
        self.work += statements
        if self.work > self.budget:
            raise WorkExhausted(self.work)

    def affect(self, effect: Effect) -> None:
        """Note the effect of one more part of the command line."""
        if effect != READ_ONLY:
            self.mutations += 1
            self.effect = combine(self.effect, effect)

    def unwrap(self, command: Command, shell: Shell) -> Unwrapped:
        """What a simple command runs once its wrappers are peeled off."""
        return unwrap(command.words, shell)

    def consumer(self, command: Command, shell: Shell, env: ShellState | None = None) -> Consumer:
        """What ``command``, after a pipe, does to the pipeline's status."""
        return consumer_of(self, command, shell, env)

    # -- entry point ------------------------------------------------------------------------

    def run(self, script: Script) -> Analysis:
        findings = self.scan(script, ShellState(), self.shell)
        if len(findings) > 1:
            mark_repeated(findings)
        parse_error = script.error
        if parse_error is not None:
            self.effect = UNKNOWN
            for finding in findings:
                finding.degrade("masked", [reason("parse-error", script.error_span, "check", error=parse_error)])
        checks = (self._check(findings[0]),) if len(findings) == 1 else tuple(map(self._check, findings))
        primary = None
        for check in checks:
            if primary is None or RANK[check.exit_source] <= RANK[primary.exit_source]:
                primary = check
        if primary is None:
            return self._without_check(script, checks)
        # A check is never a grep-like probe, so `expected_negative` is False here.
        # Built without the generated constructor (once per call, in field order).
        return _new(Analysis, (self.text, self.shell, self.policy, primary.validation, primary.exit_source,
                               primary.witness_eligible, primary.reasons, self.effect, parse_error, checks, False,
                               primary.failure_attributable))

    def _without_check(self, script: Script, checks: tuple[Check, ...]) -> Analysis:
        reasons = self._mentions(script)
        if script.error is not None:
            reasons.insert(0, reason("parse-error", script.error_span, error=script.error))
        if not script.statements and script.error is None:
            reasons.insert(0, reason("empty", None))
        return _new(Analysis, (self.text, self.shell, self.policy, None, None, False, tuple(reasons), self.effect,
                               script.error, checks, self._expected_negative(script), False))

    def _check(self, finding: Finding) -> Check:
        validation = _validation(finding)
        # Source order reads best: the caret lines then walk along the command.
        reasons = sorted(finding.reasons, key=_source_order) if len(finding.reasons) > 1 else list(finding.reasons)
        eligible = finding.source == "check"
        if finding.source == "reporting-pipe":
            if self.policy == "strict" and not finding.cmdlet:
                reasons.append(reason("strict-policy", None))
            else:
                eligible = True
        if not eligible and finding.source == "masked":
            # `lint && test` exiting 0: the lint passed too, though a failure's status would be the test's.
            eligible = finding.chain_source == "check" or (
                finding.chain_source == "reporting-pipe" and self.policy != "strict")
        if finding.directory is not None:
            reasons.append(reason("directory", None, directory=finding.directory))
        # A reporting pipe's non-zero status is the check's failure as its zero is its pass (under the
        # host's pipefail); a consumer that fails on its own is the accepted residual, both ways. Not
        # when something else may fail in its place (`cd missing && check`), or an earlier check of
        # its chain may have (`lint && test`).
        failure = finding.source in ("check", "reporting-pipe") and not finding.after_check \
            and not finding.unattributed
        after = finding.mutations_at is not None and self.mutations > finding.mutations_at
        return _new(Check, (validation, finding.source, eligible, tuple(reasons), failure, after, finding.chain,
                            failure and finding.source == "check"))

    # -- scanning -----------------------------------------------------------------------------

    def scan(self, script: Script, env: ShellState, shell: Shell, shared: bool = False) -> list[Finding]:
        """Findings in ``script``, judged in place. ``shared``: ``env`` is also the shell of what
        follows the script (a `{ …; }` group, `eval`), so its last statement's effects matter."""
        statements = script.statements
        last = len(statements) - 1
        if last == 0 and not shared and env.risk is None and env.fail_first is None:
            statement = statements[0]
            if len(statement.pipeline.commands) == 1 and statement.op is None and statement.pipeline.negation is None:
                # A lone command with nothing before, around or after it keeps its own verdict.
                return self._ended(self.command(statement.pipeline.commands[0], env, shell))
        self.spend(len(statements))
        lists = Lists(statements)
        ends = lists.ends
        findings: list[Finding] = []
        chain, checked, errexit_chain = 0, False, 0
        start, first_or, ands, may_fail = 0, None, False, False  # the current list, and what came before
        for index, statement in enumerate(statements):
            errexit = env.errexit and not env.errexit_ignored
            if index == 0 or statements[index - 1].op not in ("&&", "||"):
                self.chains += 1
                chain, checked = self.chains, checked and errexit
                start, first_or, ands, may_fail = index, None, False, False
            # The statement is judged by the shell as it was before it ran: a group's own
            # `exit $?` after its check must not count as an exit before it.
            before = _new(Before, (env.risk, env.pipefail, env.maybe_pipefail, errexit, env.fail_first, start,
                                   first_or, ands, may_fail))
            end = ends[index]
            commands = statement.pipeline.commands
            background = statements[end].op == "&"
            alone = len(commands) == 1 and not background
            first = commands[0].words
            waits = waited(statements, index, end, env, self.text) \
                if (background or (first and first[0].text == "coproc")) and shell == "bash" else None
            ignored = statement.op == "&&" or statement.op == "||" or statement.pipeline.negation is not None
            where = (HERE if alone else ELSEWHERE) if waits is None and not ignored else \
                _new(Where, (alone, waits is not None and not background, ignored))
            mine: list[Finding] = []
            for position, command in enumerate(commands):
                inner = self.command(command, env, shell, where)
                if inner:
                    verdict = place(self, statements, lists, index, position, before=before, shell=shell, env=env,
                                    waited=waits)
                    for finding in inner:
                        finding.degrade(verdict.source, verdict.reasons, verdict.cmdlet, verdict.unattributed,
                                        chain=verdict.chain_source)
                    mine.extend(inner)
            if mine:  # most statements find nothing
                if errexit and not errexit_chain:
                    errexit_chain = chain  # under `set -e` the rest of the script is one chain
                self._chained(mine, errexit_chain if errexit else chain, after=checked)
                checked = True
                findings.extend(self._ended(mine))
            if statement.op == "||" and first_or is None:
                first_or = index
            elif statement.op == "&&":
                ands = True
                may_fail = may_fail or len(commands) != 1 or not always_succeeds(commands[0], env)
            if index < last or shared:
                update(env, statements, index, end, shell=shell, text=self.text)
        return findings

    @staticmethod
    def _chained(findings: list[Finding], chain: int, *, after: bool) -> None:
        """The findings of one statement of a chain: ``after`` another check in it."""
        for finding in findings:
            if finding.chain is None and finding.chain_source != "masked":
                finding.chain = chain
                finding.after_check = after

    def _ended(self, findings: list[Finding]) -> list[Finding]:
        """The statement holding ``findings`` has ended: what mutates from here on runs after them."""
        for finding in findings:
            if finding.mutations_at is None:
                finding.mutations_at = self.mutations
        return findings

    def command(self, command: Command, env: ShellState, shell: Shell, where: Where = HERE) -> list[Finding]:
        for redirect in command.redirects:
            if redirect_writes(redirect):
                self.affect(MUTATING)
                self.written().append(redirect_written(redirect.target, redirect.span))
        kind = command.kind
        body = command.body
        if kind == "simple":
            words = command.words
            if not words:
                findings = []
            else:  # a function defined earlier runs its body, unless an alias (or `hash -p`) runs first
                head = words[0].value
                if shell == "bash" and head is not None and head in env.functions and not (
                        (env.expand_aliases and head in env.aliases) or head in env.shadowed
                        or "*" in env.shadowed):
                    findings = self.call(command, env, shell, where)
                else:
                    findings = self.program(command, env, shell, where)
        elif body is None:
            findings = []
        elif kind == "subshell":  # its own shell: only a signal to this one (`kill $$`) reaches out
            inner = env.copy()
            inner.errexit_ignored = inner.errexit_ignored or where.ignored
            findings = self.scan(body, inner, shell, shared=self._signals(command.span))
            env.absorb(inner)
        elif kind == "group":  # in this shell when alone; in a pipeline or the background, a subshell's
            findings = self.scan_here(body, env if where.here else env.copy(), shell, ignored=where.ignored)
        elif kind == "function":
            # Defining a function copies the table of functions (a state shares what it has not
            # changed): counted as work, so that thousands of definitions cannot take quadratic time.
            self.spend(len(env.functions) // 16)
            findings = self.compound(command, env, shell, merge=False)
        else:
            path = single_path(command, env) if shell == "bash" else None
            findings = self.compound(command, env, shell, merge=where.here) if path is None else \
                self.path(command, path, env, shell, where)
        # Under `set -e`, `out=$(check)` leaves with the check's failing status, as the check alone would.
        carried = _carried(command) if command.opaque and shell == "bash" and env.errexit \
            and not env.errexit_ignored else None
        for opaque in command.opaque:
            findings.extend(self.opaque(opaque, env, shell, carried=opaque is carried))
        return findings

    def _signals(self, span: Span) -> bool:
        """Whether code in ``span`` may signal the shell (``kill``): then its last statement counts too."""
        return "kill" in self.text[span.start : span.end]

    def scan_here(self, body: Script, env: ShellState, shell: Shell, *, ignored: bool) -> list[Finding]:
        """Scan code that runs in ``env``'s own shell (a group, a function's body, `eval`)."""
        was = env.errexit_ignored
        env.errexit_ignored = was or ignored
        try:
            return self.scan(body, env, shell, shared=True)
        finally:
            env.errexit_ignored = was

    def compound(self, command: Command, env: ShellState, shell: Shell, *, merge: bool) -> list[Finding]:
        """A loop, a conditional or a function definition: its checks may run any number of times, or
        not at all; what it does to the shell may or may not happen."""
        assert command.body is not None
        inner = env.copy()
        findings = self.scan(command.body, inner, shell, shared=merge)
        if merge:
            inner.maybe(env)
            env.assign(inner)
        else:
            env.absorb(inner)
        where = _COMPOUND_NAMES.get(command.kind, f"`{command.kind}`")
        for finding in findings:
            finding.degrade("masked", [reason("inside-compound", _head_span(command, self.text), where=where)])
            if command.kind == "function":
                finding.runs = False  # defining a function runs nothing; its calls are analysed
        return findings

    def path(self, command: Command, path: Path, env: ShellState, shell: Shell, where: Where) -> list[Finding]:
        """A compound statement that surely runs ``path``: its checks keep their verdicts there."""
        assert command.body is not None
        on_path = set(path.replaces or path.statements)
        rest = Script(tuple(s for s in command.body.statements if s not in on_path), None, None)
        findings = self.scan_here(Script(path.statements, None, None), env if where.here else env.copy(), shell,
                                  ignored=where.ignored)
        head = _head_span(command, self.text)
        keep = [reason("single-path", head, where=path.where)]
        if path.otherwise is not None:
            keep.append(reason("may-not-run", path.otherwise, "else", piece=excerpt(self.text, path.otherwise)))
        unset = env.nounset and shell == "bash" and any(may_be_unset(word.text) for word in command.words)
        if unset:  # `set -u; case "$CI" in *) check;; esac`: an unset CI ends the script first
            keep.append(reason("may-not-run", head, "nounset", piece=excerpt(self.text, head)))
        for finding in findings:
            finding.degrade("check", keep, unattributed=path.otherwise is not None or unset)
        if rest.statements:
            others = self.compound(command._replace(body=rest), env, shell, merge=False)
            findings.extend(others)
        return findings

    def opaque(self, opaque: Opaque, env: ShellState, shell: Shell, *, carried: bool = False) -> list[Finding]:
        """A substitution (or script block): its checks are masked, unless the command around it is
        an assignment whose status is the substitution's (``carried``: ``out=$(check)``)."""
        if opaque.body is None:
            self.affect(UNKNOWN)
            return []
        inner = env.copy()
        if opaque.kind == "substitution" and shell == "bash":
            inner.errexit = inner.maybe_errexit = False  # a command substitution does not inherit `set -e`
        findings = self.scan(opaque.body, inner, shell, shared=self._signals(opaque.span))
        env.absorb(inner)
        if carried:
            kept = reason("assigned", opaque.span, piece=excerpt(self.text, opaque.span))
            for finding in findings:
                finding.degrade("check", [kept])
            return findings
        where = _OPAQUE_NAMES.get(opaque.kind, opaque.kind)
        for finding in findings:
            finding.degrade("masked", [reason("inside-substitution", opaque.span, where=where)])
        return findings

    def program(self, command: Command, env: ShellState, shell: Shell, where: Where) -> list[Finding]:
        """A simple command that runs a program, a builtin or a wrapper (not a function)."""
        unwrapped = unwrap(command.words, shell)
        if unwrapped.nested is not None:
            return self.nested(command, unwrapped, unwrapped.nested, env, shell, where)
        if unwrapped.problem is not None:
            self.affect(UNKNOWN)
            return []
        argv = unwrapped.argv
        if unwrapped.inert is not None or not argv:
            return []
        if env.positional is not None:
            argv = spliced(argv, env.positional)
        identified = identify(argv, shell)
        if identified is None:
            self.affect(program_effect(argv, shell))
            if shell == "bash":
                self._writers.append((command, argv))
            return []
        if identified.fixes:
            self.affect(MUTATING)
        moved = env.dirs or unwrapped.directories or identified.directories
        environment = (*env.exports, *(word.text for word in command.assignments), *unwrapped.context) \
            if env.exports or command.assignments or unwrapped.context else ()
        # (A command the grammar misread around a syntax error may end before its words: `>; tsc`.)
        finding = Finding(identified, _new(Span, (argv[0].span.start, max(command.span.end, argv[0].span.end))),
                          _directory(env, unwrapped, identified) if moved else None, environment=environment)
        if (self._writes or self._writers) and shell == "bash":
            self._rewritten(finding, (*unwrapped.wrappers, *argv), env, environment, launchers=len(unwrapped.wrappers))
        if env.nounset and shell == "bash" and may_be_unset(self.text[command.span.start : command.span.end]):
            # `set -u; pytest "$X"`: an unset X ends the script before the check runs
            finding.degrade("check", [reason("may-not-run", command.span, "nounset",
                                             piece=excerpt(self.text, command.span))], unattributed=True)
        forcing = forced(identified.family, identified.kind, identified.statement, environment)
        if forcing is not None:  # `ruff check --exit-zero`, `PYTEST_ADDOPTS=--co pytest`
            variant = "environment" if forcing in environment else ""
            finding.degrade("masked", [reason("forced-success", finding.span, variant, piece=forcing)])
        if command.assignments or command.redirects or unwrapped.wrappers or env.shadowed or env.aliases \
                or env.functions or unwrapped.background is not None or unwrapped.forced or unwrapped.unproven:
            finding.degrade(*self._simple_verdict(command, unwrapped, env, where))
        return [finding]

    def _rewritten(self, finding: Finding, words: tuple[Word, ...], env: ShellState, environment: tuple[str, ...],
                   *, launchers: int) -> None:
        """Mask ``finding`` when the line wrote what its check reads before it ran (see :mod:`._writes`):
        ``words`` are its launchers' (wrappers, shells) and then its own argv."""
        argv = words[launchers:]
        values = [word.value for word in argv]
        module = values[values.index("-m") + 1] if "-m" in values[:-1] and program_name(values[0] or "").startswith(
            "python") else None
        found = self._written_before(tuple(word.value or "" for word in words[: launchers + 1]), env, environment,
                                     family=finding.identified.family, module=module, words=argv[1:])
        if found is not None:
            finding.degrade("masked", [found])

    def _written_before(self, programs: tuple[str, ...], env: ShellState, environment: tuple[str, ...], *,
                        family: str = "", module: str | None = None, words: tuple[Word, ...] = ()) -> Reason | None:
        """Why what ``programs`` run (with the check of ``family``) is not what their names promise: the
        line wrote one of them, or the check's configuration, before (see :mod:`._writes`)."""
        path_changed = env.path_changed or any(item.startswith("PATH=") for item in environment)
        found = rewritten(self.written(), programs=programs, family=family, module=module, words=words,
                          activated=env.activated, path_changed=path_changed)
        if found is None:
            return None
        piece = excerpt(self.text, found.span)
        return reason("rewritten", found.span, piece=piece, target=found.target) if found.target is not None \
            else reason("rewritten", found.span, "unlisted", piece=piece)

    def _simple_verdict(self, command: Command, unwrapped: Unwrapped, env: ShellState,
                        where: Where) -> tuple[ExitSource, list[Reason]]:
        """What a check's own simple command does to its status: prefixes, wrappers and redirects
        keep it; a detaching wrapper or a redefined program masks it."""
        text = self.text
        reasons: list[Reason] = []
        source: ExitSource = "check"
        for word in command.assignments:
            reasons.append(reason("env-prefix", word.span, piece=excerpt(text, word.span)))
        passed = [*command.assignments, *(w for w in command.words if w.span.start < unwrapped.argv[0].span.start)] \
            if unwrapped.wrappers else command.assignments
        for word in passed:  # `BASH_ENV=./x.sh ./run_tests.sh`, `env SHELLOPTS=noexec ./ci.sh`
            if INHERITED.match(word.value or word.text):
                source = "masked"
                reasons.append(reason("early-exit", word.span, "environment", piece=excerpt(text, word.span)))
            elif (why := assignment_problem(word)) is not None:  # `LD_PRELOAD=./fake.so pytest`
                source = "masked"
                reasons.append(reason("unproven", word.span, piece=excerpt(text, word.span), why=why))
        for word in unwrapped.wrappers:
            reasons.append(reason("wrapper", word.span, piece=str(word.value)))
        for item in command.redirects:
            reasons.append(reason("redirect", item.span, piece=excerpt(text, item.span)))
        source = _wrapper_notes(unwrapped, text, reasons, source)
        background = unwrapped.background
        if background is not None:
            coproc = any(word.span == background and word.value == "coproc" for word in unwrapped.wrappers)
            if not (coproc and where.waited):
                source = "masked"
                reasons.append(reason("background", background, "coproc" if coproc else "wrapper"))
        for word in redefined(unwrapped, env):
            source = "masked"
            reasons.append(reason("shadowed", word.span, piece=program_name(word.value or "")))
        return source, reasons

    def call(self, command: Command, env: ShellState, shell: Shell, where: Where) -> list[Finding]:
        """A call of a function defined earlier: its body runs here, with the call's arguments."""
        name = command.words[0].value or ""
        # `npm() { …; }; npm test`, `timeout() { :; }; timeout 60 pytest`: the check the words name
        # is not what runs.
        findings = self.program(command, env.copy(), shell, where)
        for finding in findings:
            if not any(item.code == "shadowed" for item in finding.reasons):
                finding.degrade("masked", [reason("shadowed", command.words[0].span, piece=name)])
            finding.runs = False
        self.calls += 1
        if name in self.calling or self.calls > _CALLS:
            env.flag(reason("early-exit", command.span, "calls", piece=excerpt(self.text, command.span)))
            return findings
        definition = env.functions[name]
        assert definition.body is not None
        inner = env if where.here else env.copy()
        outer = inner.positional
        inner.positional = tuple(command.words[1:])
        calling = self.calling
        self.calling = calling | {name}
        try:
            found = self.scan_here(definition.body, inner, shell, ignored=where.ignored)
        finally:
            self.calling = calling
            inner.positional = outer
        for finding in found:
            finding.degrade("check", [reason("function-call", command.words[0].span, piece=name)])
        return findings + found

    def nested(self, command: Command, unwrapped: Unwrapped, nested: Nested, env: ShellState,
               shell: Shell, where: Where = HERE) -> list[Finding]:
        problem = inherited(command, unwrapped, self.text)
        stdin = nested.stdin
        frame = self.frame
        if stdin:  # `bash <<'EOF' … EOF`: the script is the here-document (or here-string)
            found = stdin_script(command, nested, self.text, frame)
            if found is None:
                return []
            nested, problem = found[0], problem or found[1]
        elif frame is not None:  # a string in a string (`bash -c 'bash -c …'`): its words' characters
            nested = nested._replace(positions=frame.located(nested.positions, _starts(command)))
        dialect: Shell = "pwsh" if nested.shell == "pwsh" else "bash"
        script = parse_nested(nested.text, nested.positions, dialect)
        unreadable = nested.shell == "cmd" and not _plain_cmd(nested.text)
        eval_like = (nested.via.value or "") == "eval"
        self.frame = Frame(nested.text, nested.positions)
        try:
            if eval_like:
                inner_env = env if where.here else env.copy()
                findings = self.scan_here(script, inner_env, dialect, ignored=where.ignored)
            else:
                child = self._child(env, unwrapped, nested)
                # A child shell inherits what was exported or assigned for it (`GOOS=x bash -c 'go test'`).
                child.exports = (*env.exports, *(word.text for word in command.assignments), *unwrapped.context)
                findings = self.scan(script, child, dialect)
        finally:
            self.frame = frame
        if stdin and problem is None:
            problem = consumed(script, findings, self.text, linked(self.written()) if self._writes or self._writers
                               else frozenset())
        if findings and problem is None and nested.shell == "bash" and (
                env.posix_sh if eval_like else _posix_reader(nested)):
            # `sh -c 'check &>/dev/null'`: dash runs `check &`, then `>/dev/null`
            unlike = posix_problem(script, self.text)
            if unlike is not None:
                problem = reason("dialect", unlike, piece=excerpt(self.text, unlike))
        via = unwrapped.wrappers[-1] if unwrapped.wrappers else nested.via
        launched = self._written_before(tuple(word.value or "" for word in unwrapped.wrappers), env,
                                        tuple(word.text for word in command.assignments)) \
            if findings and unwrapped.wrappers and (self._writes or self._writers) and shell == "bash" else None
        for finding in findings:
            reasons = [reason("nested", via.span, piece=str(via.value))]
            if launched is not None:  # `printf … > bin/bash; PATH=bin:$PATH bash -c 'pytest'`
                reasons.append(launched)
            for wrapper in unwrapped.wrappers[:-1]:
                reasons.insert(0, reason("wrapper", wrapper.span, piece=str(wrapper.value)))
            for wrapper in unwrapped.wrappers:
                if wrapper.value is not None and env.redefines(wrapper.value):
                    reasons.append(reason("shadowed", wrapper.span, piece=program_name(wrapper.value)))
            _wrapper_notes(unwrapped, self.text, reasons, "check")
            if script.error is not None:
                reasons.append(reason("parse-error", script.error_span, "nested", error=script.error))
            elif unreadable:
                reasons.append(reason("cmd-syntax", via.span))
            elif problem is not None:
                reasons.append(problem)
            masks = any(item.level == "masks" for item in reasons)
            finding.degrade("masked" if masks else "check", reasons)
        if script.error is not None or unreadable:
            self.affect(UNKNOWN)
        return findings

    def _child(self, env: ShellState, unwrapped: Unwrapped, nested: Nested) -> ShellState:
        """The shell a command string starts in: its options, and what it inherits (the directory,
        exported functions)."""
        options = nested.options
        posix = _posix_reader(nested)
        inner_dirs = env.dirs + tuple(word_text(w) for w in unwrapped.directories)
        child = ShellState(options.pipefail, inner_dirs, posix_sh=posix)
        if options.errexit:
            child.errexit = child.maybe_errexit = True
        child.nounset = options.nounset
        child.expand_aliases = options.aliases
        child.extdebug = options.extdebug
        if env.exported:
            child.functions = MappingProxyType({n: d for n, d in env.functions.items() if n in env.exported})
            child.exported = env.exported
        via = nested.via
        if options.interactive or ((options.login or program_name(via.value or "") == "zsh") and (any(
                name in self.text for name in STARTUP_MENTIONS) or startup_written(self.written()) is not None)):
            # `-i` reads ~/.bashrc; a login shell its profile and zsh ~/.zshenv: refused outright for
            # -i, and when this command line names (so may write) one of them or moves HOME
            child.risk = reason("early-exit", via.span, "startup", piece=str(via.value))
        elif options.onecmd:
            child.risk = reason("early-exit", via.span, "onecmd", piece=str(via.value))
        return child

    # -- extras ----------------------------------------------------------------------------------

    def _mentions(self, script: Script) -> list[Reason]:
        reasons: list[Reason] = []
        words = _all_words(script)
        # One look at all the words first: a newline is never part of a mention nor next to one, so
        # the words joined by it mention something exactly when one of them does (the common case
        # is none, decided in one call).
        if not words or not mentions("\n".join([w.value if w.value is not None else w.text for w in words])):
            return reasons
        for word in words:
            found = mentions(word.value if word.value is not None else word.text)
            if found:
                reasons.append(reason("mention-only", word.span, piece=max(found, key=len)))
                if len(reasons) >= 3:
                    break
        return reasons

    def _expected_negative(self, script: Script) -> bool:
        if script.error is not None or len(script.statements) != 1:
            return False
        pipeline = script.statements[0].pipeline
        if len(pipeline.commands) != 1 or pipeline.negation is not None:
            return False
        command = pipeline.commands[0]
        if command.kind != "simple" or command.opaque or not command.words:
            return False
        argv = self.unwrap(command, self.shell).argv
        if not argv or argv[0].value is None:
            return False
        name = program_name(argv[0].value)
        values = [w.value or "" for w in argv[1:]]
        if name in _GREP or name in ("test", "[", "[["):
            return True
        return name == "git" and "diff" in values and ("--quiet" in values or "--exit-code" in values)


# -- helpers -------------------------------------------------------------------------------------


def parse_nested(text: str, positions: list[int], dialect: Shell) -> Script:
    """Parse a command string found inside another command, keeping outer spans."""
    data = text.encode("utf-8", "surrogatepass")
    offsets = OffsetMap(text, data, outer=positions)
    if dialect == "pwsh":
        from ._pwsh import parse_pwsh  # the PowerShell grammar loads only when needed

        return parse_pwsh(text, offsets, data=data)
    return parse_bash(text, offsets, data=data)


def _validation(finding: Finding) -> Validation:
    """The check's identity: its statement, and what its key is made of (see :mod:`._identity`)."""
    identified = finding.identified
    identity, words, environment = finding.identity()
    key = finding.key()
    context = f"{identified.kind}\0{identified.family}\0" + "\0".join(environment)
    chosen = selection(identified.family, words, context)
    anywhere = digest(identified.kind, None, identity, environment) if finding.directory is not None else key
    return _new(Validation, (identified.kind, identified.family, finding.statement(), finding.directory, key,
                             finding.span, identity_text(environment, identity), environment, anywhere, chosen))


def _carried(command: Command) -> Opaque | None:
    """The command substitution whose status an assignment-only command leaves with (``out=$(check)``,
    ``out="$(check 2>&1)"``): the only substitution, the whole value of the only assignment, to a
    name bash does not act on, with no redirect."""
    if command.kind != "simple" or command.words or command.redirects or len(command.assignments) != 1 \
            or len(command.opaque) != 1 or command.opaque[0].kind != "substitution":
        return None
    word = command.assignments[0]
    name, equals, value = word.text.partition("=")
    inner = command.opaque[0].span
    whole = word.span.start + len(name) + 1 + (1 if value.startswith('"') else 0)
    if not equals or not name.isidentifier() or variable_rule(name) is not None or value.startswith("'") or (
            inner.start != whole or inner.end != word.span.end - (1 if value.startswith('"') else 0)):
        return None
    return command.opaque[0]


def _wrapper_notes(unwrapped: Unwrapped, text: str, reasons: list[Reason], source: ExitSource) -> ExitSource:
    """A wrapper option that lets the status be 0 whatever the check does, or one its grammar does
    not list: either masks (their reasons are added to ``reasons``)."""
    if unwrapped.forced is not None:
        reasons.append(reason("forced-success", unwrapped.forced, "wrapper", piece=excerpt(text, unwrapped.forced)))
        source = "masked"
    if unwrapped.unproven is not None:
        reasons.append(reason("unproven", unwrapped.unproven, piece=excerpt(text, unwrapped.unproven),
                              why="an option the wrapper's grammar does not list, or a word only run time knows"))
        source = "masked"
    return source


def _source_order(item: Reason) -> tuple[bool, tuple[int, int]]:
    return item.span is None, item.span or (0, 0)


def _directory(env: ShellState, unwrapped: Unwrapped, identified: Identified) -> str | None:
    """Where the check runs: the shell's directory, then the wrappers' and the check's own options."""
    moves = unwrapped.directories + identified.directories
    return directory(env.dirs + tuple(word_text(word) for word in moves))



def _head_span(command: Command, text: str) -> Span:
    """The first line of a compound command, for a caret that does not cover a whole loop."""
    start, end = command.span
    newline = text.find("\n", start, end)
    return Span(start, newline if newline > 0 else end)


def _posix_reader(nested: Nested) -> bool:
    """Whether a POSIX ``sh`` rather than bash runs ``nested``: a shell other than bash (``sh``,
    ``dash``, ``zsh`` …), or the one a program chooses (``script -c``: ``$SHELL``, else ``/bin/sh``)."""
    return nested.options.posix or program_name(nested.via.value or "") in POSIX_READERS


def _starts(command: Command) -> list[int]:
    """Where each word of ``command`` starts (its argv, assignments and redirect targets)."""
    return [word.span.start for word in (*command.words, *command.assignments,
                                         *(r.target for r in command.redirects if r.target is not None))]


def _plain_cmd(text: str) -> bool:
    """cmd.exe strings whose meaning is the same under bash rules (no ^ escapes, %VARS%, groups)."""
    return not any(char in text for char in "^%!()'`$")


def _all_words(script: Script) -> list[Word]:
    words: list[Word] = []
    stack = [script]
    while stack:
        current = stack.pop()
        for statement in current.statements:
            for command in statement.pipeline.commands:
                if command.kind == "simple":
                    words.extend(command.words[1:])
                if command.assignments:
                    words.extend(command.assignments)
                if command.redirects:
                    words.extend(r.target for r in command.redirects if r.target is not None)
                if command.body is not None:
                    stack.append(command.body)
                if command.opaque:
                    stack.extend(o.body for o in command.opaque if o.body is not None)
    return words
