"""Exit attribution: is the status a command line reports its check's own?

The analysis walks the neutral model statement by statement, keeping what earlier statements
did to the shell (directory, ``pipefail``, functions, anything that may end the script early).
Each check found is judged twice: inside the construct that holds it (a subshell, a ``bash -c``
string, a script block) and by the position of that construct in its own script
(:mod:`._position`); the worse verdict wins. Every decision leaves a :class:`Reason` with the
span of the text responsible.
"""

from __future__ import annotations

import shlex

from ._bash import parse_bash
from ._effects import MUTATING, READ_ONLY, UNKNOWN, combine, program_effect, redirect_writes
from ._families import mentions
from ._identify import Identified, identify
from ._identity import cosmetic_free, digest, identity_text, semantic_environment
from ._model import Command, Opaque, Script, Span, Statement, Word
from ._offsets import OffsetMap
from ._position import Before, Consumer, consumer_of, place
from ._quoting import bash_unquote
from ._reasons import reason
from ._results import Analysis, Check, Reason, Validation
from ._selection import selection
from ._shellstate import POSIX_SH, ShellState, directory, excerpt, update, word_text
from ._vocabulary import CommandKind, Effect, ExitSource, OpaqueKind, Policy, Shell
from ._wrappers import SHELL_PROGRAMS, Nested, Unwrapped, program_name, unwrap

_RANK: dict[ExitSource, int] = {"check": 0, "reporting-pipe": 1, "masked": 2}
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


class _Finding:
    """A check found, and the verdict so far as it is judged outwards."""

    __slots__ = ("after_check", "chain", "chain_source", "cmdlet", "directory", "environment", "identified",
                 "mutations_at", "reasons", "source", "span")

    def __init__(self, identified: Identified, span: Span, directory: str | None,
                 environment: tuple[str, ...] = ()):
        self.identified = identified
        self.span = span
        self.directory = directory
        self.environment = environment
        """Assignments and wrapper choices it runs under (cosmetic ones are dropped later)."""
        self.source: ExitSource = "check"
        self.chain_source: ExitSource = "check"
        """The verdict as far as a zero status goes (see :attr:`._position.Verdict.chain_source`)."""
        self.reasons: list[Reason] = []
        self.cmdlet = False  # its reporting pipe feeds a PowerShell cmdlet
        self.mutations_at: int | None = None
        """How many potential mutations the command line had made when the check's statement ended."""
        self.chain: int | None = None
        """The `&&` list (or `set -e` script) whose first failure ends it, when the check's failing
        status ends it: of the checks in one chain, at most one failed in a failing run."""
        self.after_check = False
        """Another check ran before it in its chain: a failing status may be that one's."""

    def degrade(self, source: ExitSource, reasons: list[Reason], cmdlet: bool = False,
                chain: ExitSource | None = None) -> None:
        self.chain_source = _worse(self.chain_source, source if chain is None else chain)
        if source == "check":  # keeps the verdict: only the reasons add up
            self.reasons.extend(reasons)
            return
        if self.source == "reporting-pipe" and source == "reporting-pipe":
            reasons = [*reasons, reason("extra-pipes", reasons[-1].span if reasons else None)]
            source = "masked"
        if _RANK[source] > _RANK[self.source]:
            self.source = source
            self.cmdlet = cmdlet
        self.reasons.extend(reasons)


def _worse(first: ExitSource, second: ExitSource) -> ExitSource:
    """The worse of two verdicts in a row: a reporting pipe inside another is two pipes."""
    if first == second == "reporting-pipe":
        return "masked"
    return first if _RANK[first] >= _RANK[second] else second


class Analyzer:
    """One analysis of one command line."""

    def __init__(self, text: str, shell: Shell, policy: Policy):
        self.text = text
        self.shell: Shell = shell
        self.policy: Policy = policy
        self.effect: Effect = READ_ONLY
        self.mutations = 0
        """Commands (or redirects) seen so far that may change the workspace."""
        self.chains = 0
        """`&&` lists and `set -e` scripts seen so far (each finding's ``chain`` is one of them)."""

    def affect(self, effect: Effect) -> None:
        """Note the effect of one more part of the command line."""
        if effect != READ_ONLY:
            self.mutations += 1
            self.effect = combine(self.effect, effect)

    def unwrap(self, command: Command, shell: Shell) -> Unwrapped:
        """What a simple command runs once its wrappers are peeled off."""
        return unwrap(command.words, shell)

    def consumer(self, command: Command, shell: Shell) -> Consumer:
        """What ``command``, after a pipe, does to the pipeline's status."""
        return consumer_of(self, command, shell)

    # -- entry point ------------------------------------------------------------------------

    def run(self, script: Script) -> Analysis:
        findings = self.scan(script, ShellState(), self.shell)
        parse_error = script.error
        if parse_error is not None:
            self.effect = UNKNOWN
            for finding in findings:
                finding.degrade("masked", [reason("parse-error", script.error_span, "check", error=parse_error)])
        checks = (self._check(findings[0]),) if len(findings) == 1 else tuple(map(self._check, findings))
        primary = None
        for check in checks:
            if primary is None or _RANK[check.exit_source] <= _RANK[primary.exit_source]:
                primary = check
        if primary is None:
            return self._without_check(script, checks)
        # A check is never a grep-like probe, so `expected_negative` is False here.
        return Analysis(command=self.text, shell=self.shell, policy=self.policy, validation=primary.validation,
                        exit_source=primary.exit_source, witness_eligible=primary.witness_eligible,
                        reasons=primary.reasons, effect=self.effect, parse_error=parse_error, checks=checks,
                        expected_negative=False)

    def _without_check(self, script: Script, checks: tuple[Check, ...]) -> Analysis:
        reasons = self._mentions(script)
        if script.error is not None:
            reasons.insert(0, reason("parse-error", script.error_span, error=script.error))
        if not script.statements and script.error is None:
            reasons.insert(0, reason("empty", None))
        return Analysis(command=self.text, shell=self.shell, policy=self.policy, validation=None, exit_source=None,
                        witness_eligible=False, reasons=tuple(reasons), effect=self.effect,
                        parse_error=script.error, checks=checks, expected_negative=self._expected_negative(script))

    def _check(self, finding: _Finding) -> Check:
        identified = finding.identified
        statement = _statement(identified.statement)
        validation = _validation(identified, statement, finding)
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
        # host's pipefail); a consumer that fails on its own is the accepted residual, both ways.
        failure = finding.source in ("check", "reporting-pipe") and not finding.after_check
        after = finding.mutations_at is not None and self.mutations > finding.mutations_at
        return Check(validation, finding.source, eligible, tuple(reasons), failure, after, finding.chain)

    # -- scanning -----------------------------------------------------------------------------

    def scan(self, script: Script, env: ShellState, shell: Shell, shared: bool = False) -> list[_Finding]:
        """Findings in ``script``, judged in place. ``shared``: ``env`` is also the shell of what
        follows the script (a `{ …; }` group, `eval`), so its last statement's effects matter."""
        statements = script.statements
        last = len(statements) - 1
        if last == 0 and not shared and env.risk is None:
            statement = statements[0]
            if len(statement.pipeline.commands) == 1 and statement.op is None and statement.pipeline.negation is None:
                # A lone command with nothing before, around or after it keeps its own verdict.
                return self._ended(self.command(statement.pipeline.commands[0], env, shell))
        ends = _list_ends(statements)
        findings: list[_Finding] = []
        chain, checked, errexit_chain = 0, False, 0
        for index, statement in enumerate(statements):
            if index == 0 or statements[index - 1].op not in ("&&", "||"):
                self.chains += 1
                chain, checked = self.chains, checked and env.errexit
            # The statement is judged by the shell as it was before it ran: a group's own
            # `exit $?` after its check must not count as an exit before it.
            before = Before(env.risk, env.pipefail, env.maybe_pipefail, env.errexit)
            mine: list[_Finding] = []
            for position, command in enumerate(statement.pipeline.commands):
                inner = self.command(command, env, shell)
                if inner:
                    verdict = place(self, statements, ends, index, position, before=before, shell=shell)
                    for finding in inner:
                        finding.degrade(verdict.source, verdict.reasons, verdict.cmdlet, verdict.chain_source)
                    mine.extend(inner)
            if mine:
                if env.errexit and not errexit_chain:
                    errexit_chain = chain  # under `set -e` the rest of the script is one chain
                self._chained(mine, errexit_chain if env.errexit else chain, after=checked)
                checked = True
            findings.extend(self._ended(mine))
            if index < last or shared:
                update(env, statements, index, ends[index], shell=shell, text=self.text)
        return findings

    @staticmethod
    def _chained(findings: list[_Finding], chain: int, *, after: bool) -> None:
        """The findings of one statement of a chain: ``after`` another check in it."""
        for finding in findings:
            if finding.chain is None and finding.chain_source != "masked":
                finding.chain = chain
                finding.after_check = after

    def _ended(self, findings: list[_Finding]) -> list[_Finding]:
        """The statement holding ``findings`` has ended: what mutates from here on runs after them."""
        for finding in findings:
            if finding.mutations_at is None:
                finding.mutations_at = self.mutations
        return findings

    def command(self, command: Command, env: ShellState, shell: Shell) -> list[_Finding]:
        for redirect in command.redirects:
            if redirect_writes(redirect):
                self.affect(MUTATING)
        kind = command.kind
        body = command.body
        if kind == "simple":
            findings = self.simple(command, env, shell)
        elif body is None:
            findings = []
        elif kind == "subshell":
            findings = self.scan(body, env.copy(), shell)
        elif kind == "group":
            findings = self.scan(body, env, shell, shared=True)
        else:
            findings = self.scan(body, env.copy(), shell)
            where = _COMPOUND_NAMES.get(kind, f"`{kind}`")
            for finding in findings:
                finding.degrade("masked", [reason("inside-compound", _head_span(command, self.text), where=where)])
        for opaque in command.opaque:
            findings.extend(self.opaque(opaque, env, shell))
        return findings

    def opaque(self, opaque: Opaque, env: ShellState, shell: Shell) -> list[_Finding]:
        if opaque.body is None:
            self.affect(UNKNOWN)
            return []
        findings = self.scan(opaque.body, env.copy(), shell)
        where = _OPAQUE_NAMES.get(opaque.kind, opaque.kind)
        for finding in findings:
            finding.degrade("masked", [reason("inside-substitution", opaque.span, where=where)])
        return findings

    def simple(self, command: Command, env: ShellState, shell: Shell) -> list[_Finding]:
        if not command.words:
            return []
        unwrapped = unwrap(command.words, shell)
        if unwrapped.nested is not None:
            return self.nested(command, unwrapped, unwrapped.nested, env, shell)
        if unwrapped.problem is not None:
            self.affect(UNKNOWN)
            return []
        argv = unwrapped.argv
        if unwrapped.inert is None and not argv and unwrapped.wrappers:
            stdin = _shell_stdin(command, unwrapped, self.text)
            if stdin is not None:  # `bash <<'EOF' … EOF`: the here-document is the script
                return self.nested(command, unwrapped, stdin, env, shell)
        if unwrapped.inert is not None or not argv:
            return []
        identified = identify(argv, shell)
        if identified is None:
            self.affect(program_effect(argv, shell))
            return []
        if identified.fixes:
            self.affect(MUTATING)
        moved = env.dirs or unwrapped.directories or identified.directories
        environment = (*env.exports, *(word.text for word in command.assignments), *unwrapped.context) \
            if env.exports or command.assignments or unwrapped.context else ()
        finding = _Finding(identified, Span(argv[0].span.start, command.span.end),
                           _directory(env, unwrapped, identified) if moved else None, environment)
        if command.assignments or command.redirects or unwrapped.wrappers or env.shadowed \
                or unwrapped.background is not None:
            finding.degrade(*self._simple_verdict(command, unwrapped, env))
        return [finding]

    def _simple_verdict(self, command: Command, unwrapped: Unwrapped,
                        env: ShellState) -> tuple[ExitSource, list[Reason]]:
        """What a check's own simple command does to its status: prefixes, wrappers and redirects
        keep it; a detaching wrapper or a redefined program masks it."""
        text = self.text
        reasons: list[Reason] = []
        for word in command.assignments:
            reasons.append(reason("env-prefix", word.span, piece=excerpt(text, word.span)))
        for word in unwrapped.wrappers:
            reasons.append(reason("wrapper", word.span, piece=str(word.value)))
        for item in command.redirects:
            reasons.append(reason("redirect", item.span, piece=excerpt(text, item.span)))
        source: ExitSource = "check"
        if unwrapped.background is not None:
            source = "masked"
            reasons.append(reason("background", unwrapped.background, "wrapper"))
        if env.shadowed:
            for word in (*unwrapped.wrappers, unwrapped.argv[0]):
                name = program_name(word.value or "")
                if name in env.shadowed:
                    source = "masked"
                    reasons.append(reason("shadowed", word.span, piece=name))
        return source, reasons

    def nested(self, command: Command, unwrapped: Unwrapped, nested: Nested, env: ShellState,
               shell: Shell) -> list[_Finding]:
        dialect: Shell = "pwsh" if nested.shell == "pwsh" else "bash"
        script = parse_nested(nested.text, nested.positions, dialect)
        unreadable = nested.shell == "cmd" and not _plain_cmd(nested.text)
        eval_like = (nested.via.value or "") == "eval"
        if eval_like:
            inner_env = env
        else:
            posix = program_name(nested.via.value or "") in POSIX_SH
            inner_dirs = env.dirs + tuple(word_text(w) for w in unwrapped.directories)
            inner_env = ShellState(nested.pipefail, inner_dirs, posix_sh=posix)
            # A child shell inherits what was exported or assigned for it (`GOOS=x bash -c 'go test'`).
            inner_env.exports = (*env.exports, *(word.text for word in command.assignments), *unwrapped.context)
        findings = self.scan(script, inner_env, dialect, shared=eval_like)
        via = unwrapped.wrappers[-1] if unwrapped.wrappers else nested.via
        for finding in findings:
            reasons = [reason("nested", via.span, piece=str(via.value))]
            for wrapper in unwrapped.wrappers[:-1]:
                reasons.insert(0, reason("wrapper", wrapper.span, piece=str(wrapper.value)))
            if script.error is not None:
                reasons.append(reason("parse-error", script.error_span, "nested", error=script.error))
                finding.degrade("masked", reasons)
            elif unreadable:
                reasons.append(reason("cmd-syntax", via.span))
                finding.degrade("masked", reasons)
            else:
                finding.degrade("check", reasons)
        if script.error is not None or unreadable:
            self.affect(UNKNOWN)
        return findings

    # -- extras ----------------------------------------------------------------------------------

    def _mentions(self, script: Script) -> list[Reason]:
        reasons: list[Reason] = []
        for word in _all_words(script):
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


def _validation(identified: Identified, statement: str, finding: _Finding) -> Validation:
    """The check's identity: its statement, and what its key is made of (see :mod:`._identity`)."""
    words = cosmetic_free(identified.family, identified.statement)
    identity = statement if words == identified.statement else _statement(words)
    environment = semantic_environment(finding.environment) if finding.environment else ()
    key = digest(identified.kind, finding.directory, identity, environment)
    context = f"{identified.kind}\0{identified.family}\0" + "\0".join(environment)
    chosen = selection(identified.family, words, context)
    anywhere = digest(identified.kind, None, identity, environment) if finding.directory is not None else key
    return Validation(identified.kind, identified.family, statement, finding.directory, key, finding.span,
                      identity_text(environment, identity), environment, anywhere, chosen)


def _statement(parts: tuple[str, ...]) -> str:
    """The argv as a shell would read it back: each word quoted by ``shlex.quote`` as needed."""
    joined = "".join(parts)
    if all(parts) and shlex.quote(joined) == joined:
        # No word is empty or holds a character to quote, so none needs quotes (one test for all).
        return " ".join(parts)
    return " ".join(map(shlex.quote, parts))


def _source_order(item: Reason) -> tuple[bool, tuple[int, int]]:
    return item.span is None, item.span or (0, 0)


def _directory(env: ShellState, unwrapped: Unwrapped, identified: Identified) -> str | None:
    """Where the check runs: the shell's directory, then the wrappers' and the check's own options."""
    moves = unwrapped.directories + identified.directories
    return directory(env.dirs + tuple(word_text(word) for word in moves))


def _shell_stdin(command: Command, unwrapped: Unwrapped, text: str) -> Nested | None:
    """The script a shell reads from a here-document or here-string, when it is given no other."""
    shell = unwrapped.wrappers[-1]
    if program_name(shell.value or "") not in SHELL_PROGRAMS:
        return None
    for redirect in command.redirects:
        if redirect.body is not None and redirect.op in ("<<", "<<-"):
            start, end = redirect.body
            return Nested(text[start:end], [*range(start, end), end], "bash", False, shell)
        if redirect.op == "<<<" and redirect.target is not None:
            unquoted = bash_unquote(redirect.target.text, redirect.target.span.start)
            if unquoted is not None:
                string, positions = unquoted
                return Nested(string, positions, "bash", False, shell)
    return None


def _list_ends(statements: tuple[Statement, ...]) -> list[int]:
    """For each statement, the index of the last statement of its ``&&``/``||`` list."""
    if len(statements) == 1:
        return [0]
    ends = [0] * len(statements)
    end = len(statements) - 1
    for index in range(len(statements) - 1, -1, -1):
        if statements[index].op not in ("&&", "||"):
            end = index
        ends[index] = end
    return ends


def _head_span(command: Command, text: str) -> Span:
    """The first line of a compound command, for a caret that does not cover a whole loop."""
    start, end = command.span
    newline = text.find("\n", start, end)
    return Span(start, newline if newline > 0 else end)


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
                words.extend(command.words[1:] if command.kind == "simple" else ())
                words.extend(command.assignments)
                words.extend(r.target for r in command.redirects if r.target is not None)
                if command.body is not None:
                    stack.append(command.body)
                stack.extend(o.body for o in command.opaque if o.body is not None)
    return words
