"""Exit attribution: is the status a command line reports its check's own?

The analysis walks the neutral model statement by statement, keeping what earlier statements
did to the shell (directory, ``pipefail``, functions, anything that may end the script early).
Each check found is judged twice: inside the construct that holds it (a subshell, a ``bash -c``
string, a script block) and by the position of that construct in its own script; the worse
verdict wins. Every decision leaves a :class:`Reason` with the span of the text responsible.
"""

from __future__ import annotations

import hashlib
import re

from ._bash import parse_bash
from ._effects import MUTATING, READ_ONLY, UNKNOWN, combine, program_effect, redirect_writes
from ._families import mention_pattern
from ._identify import Identified, identify
from ._model import Command, Opaque, Script, Span, Statement, Word
from ._offsets import OffsetMap
from ._quoting import bash_unquote
from ._results import Analysis, Check, Reason, Validation
from ._shellstate import (
    POSIX_SH,
    ShellState,
    directory,
    excerpt,
    exit_propagates,
    exits_with_status,
    pipestatus_exit,
    update,
    word_text,
)
from ._wrappers import SHELLS, Nested, Unwrapped, program_name, unwrap

_RANK = {"check": 0, "reporting-pipe": 1, "masked": 2}
PASS_THROUGH = frozenset({"tee", "tail", "head", "cat", "less", "more"})
_CMDLET_PASS_THROUGH = frozenset({"select-object", "select", "tee-object", "tee", "ft", "fl", "fw"})
_COMPOUND_NAMES = {
    "if": "`if`", "for": "a loop", "while": "a loop", "until": "a loop", "select": "`select`",
    "case": "`case`", "function": "a function definition", "try": "`try`", "block": "a script block",
    "arithmetic": "an arithmetic command", "assignment": "an assignment", "expression": "an expression",
    "test": "a test command",
}
_OPAQUE_NAMES = {
    "substitution": "a command substitution", "process-substitution": "a process substitution",
    "subexpression": "a subexpression", "script-block": "a script block",
}
_SAFE_WORD = re.compile(r"^[A-Za-z0-9_@%+=:,./-]+$", re.ASCII)
_GREP = frozenset({"grep", "egrep", "fgrep", "rg", "ag", "ack", "zgrep"})


class _Finding:
    """A check found, and the verdict so far as it is judged outwards."""

    __slots__ = ("cmdlet", "directory", "identified", "reasons", "source", "span")

    def __init__(self, identified: Identified, span: Span, directory: str | None):
        self.identified = identified
        self.span = span
        self.directory = directory
        self.source = "check"
        self.reasons: list[Reason] = []
        self.cmdlet = False  # its reporting pipe feeds a PowerShell cmdlet

    def degrade(self, source: str, reasons: list[Reason], cmdlet: bool = False) -> None:
        if self.source == "reporting-pipe" and source == "reporting-pipe":
            reasons = [*reasons, Reason("extra-pipes", "the check's output passes through more than one pipe; "
                                        "the status is the last consumer's", reasons[-1].span if reasons else None,
                                        "masks")]
            source = "masked"
        if _RANK[source] > _RANK[self.source]:
            self.source = source
            self.cmdlet = cmdlet
        self.reasons.extend(reasons)


class Analyzer:
    """One analysis of one command line."""

    def __init__(self, text: str, shell: str, policy: str):
        self.text = text
        self.shell = shell
        self.policy = policy
        self.effect = READ_ONLY
        self._unwrapped: dict[int, Unwrapped] = {}

    def unwrap(self, command: Command, shell: str) -> Unwrapped:
        """``unwrap`` of a simple command's words, once per command of this analysis."""
        found = self._unwrapped.get(id(command))
        if found is None:
            found = self._unwrapped[id(command)] = unwrap(command.words, shell)
        return found

    # -- entry point ------------------------------------------------------------------------

    def run(self, script: Script) -> Analysis:
        findings = self.scan(script, ShellState(), self.shell, shared=False)
        parse_error = script.error
        if parse_error is not None:
            self.effect = UNKNOWN
            for finding in findings:
                finding.degrade("masked", [Reason("parse-error", f"the command does not parse cleanly "
                                                  f"({parse_error}); nothing in it can witness",
                                                  script.error_span, "masks")])
        checks = tuple(self._check(finding) for finding in findings)
        primary = None
        for check in checks:
            if primary is None or _RANK[check.exit_source] <= _RANK[primary.exit_source]:
                primary = check
        if primary is None:
            reasons = self._mentions(script)
            if parse_error is not None:
                reasons.insert(0, Reason("parse-error", f"the command does not parse cleanly ({parse_error})",
                                         script.error_span, "masks"))
            if not script.statements and parse_error is None:
                reasons.insert(0, Reason("empty", "the command is empty", None, "note"))
            return Analysis(self.text, self.shell, self.policy, None, None, False, tuple(reasons), self.effect,
                            parse_error, checks, self._expected_negative(script))
        # A check is never a grep-like probe, so `expected_negative` is False here.
        return Analysis(self.text, self.shell, self.policy, primary.validation, primary.exit_source,
                        primary.witness_eligible, primary.reasons, self.effect, parse_error, checks, False)

    def _check(self, finding: _Finding) -> Check:
        identified = finding.identified
        statement = " ".join(_quote(part) for part in identified.statement)
        digest = hashlib.sha256(
            f"{identified.kind}\0{finding.directory or ''}\0{statement}".encode("utf-8", "surrogatepass")
        ).hexdigest()[:16]
        validation = Validation(identified.kind, identified.family, statement, finding.directory, digest,
                                finding.span)
        # Source order reads best: the caret lines then walk along the command.
        reasons = sorted(finding.reasons, key=lambda r: (r.span is None, r.span or (0, 0)))
        eligible = finding.source == "check"
        if finding.source == "reporting-pipe":
            if self.policy == "strict" and not finding.cmdlet:
                reasons.append(Reason("strict-policy", "policy `strict` refuses a reporting pipe outside "
                                      "PowerShell cmdlets", None, "masks"))
            else:
                eligible = True
        if finding.directory is not None:
            reasons.append(Reason("directory", f"runs in `{finding.directory}` (part of the check's identity)",
                                  None, "note"))
        return Check(validation, finding.source, eligible, tuple(reasons))

    # -- scanning -----------------------------------------------------------------------------

    def scan(self, script: Script, env: ShellState, shell: str, shared: bool = False) -> list[_Finding]:
        """Findings in ``script``, judged in place. ``shared``: ``env`` is also the shell of what
        follows the script (a `{ …; }` group, `eval`), so its last statement's effects matter."""
        statements = script.statements
        last = len(statements) - 1
        ends = _list_ends(statements)
        findings: list[_Finding] = []
        for index, statement in enumerate(statements):
            pipeline = statement.pipeline
            # The statement is judged by the shell as it was before it ran: a group's own
            # `exit $?` after its check must not count as an exit before it.
            before = (env.risk, env.pipefail, env.maybe_pipefail)
            for position, command in enumerate(pipeline.commands):
                inner = self.command(command, env, shell)
                if inner:
                    source, reasons, cmdlet = self.position(statements, ends, index, position, before, shell)
                    for finding in inner:
                        finding.degrade(source, reasons, cmdlet)
                    findings.extend(inner)
            if index < last or shared:
                update(env, statements, index, shell, self.text)
        return findings

    def command(self, command: Command, env: ShellState, shell: str) -> list[_Finding]:
        findings: list[_Finding] = []
        kind = command.kind
        for redirect in command.redirects:
            if redirect_writes(redirect):
                self.effect = MUTATING
        if kind == "simple":
            findings = self.simple(command, env, shell)
        elif kind in ("subshell", "group"):
            if command.body is not None:
                if kind == "subshell":
                    findings = self.scan(command.body, env.copy(), shell)
                else:
                    findings = self.scan(command.body, env, shell, shared=True)
        elif command.body is not None:
            findings = self.scan(command.body, env.copy(), shell)
            where = _COMPOUND_NAMES.get(kind, f"`{kind}`")
            for finding in findings:
                finding.degrade("masked", [Reason("inside-compound", f"the check runs inside {where}; the "
                                                  "status reported is the construct's, not the check's",
                                                  _head_span(command, self.text), "masks")])
        for opaque in command.opaque:
            findings.extend(self.opaque(opaque, env, shell))
        return findings

    def opaque(self, opaque: Opaque, env: ShellState, shell: str) -> list[_Finding]:
        if opaque.body is None:
            self.effect = combine(self.effect, UNKNOWN)
            return []
        findings = self.scan(opaque.body, env.copy(), shell)
        where = _OPAQUE_NAMES.get(opaque.kind, opaque.kind)
        for finding in findings:
            finding.degrade("masked", [Reason("inside-substitution", f"the check runs inside {where}; the "
                                              "command's status is not the check's", opaque.span, "masks")])
        return findings

    def simple(self, command: Command, env: ShellState, shell: str) -> list[_Finding]:
        if not command.words:
            return []
        unwrapped = self.unwrap(command, shell)
        if unwrapped.nested is not None:
            return self.nested(command, unwrapped, unwrapped.nested, env, shell)
        if unwrapped.problem is not None:
            self.effect = combine(self.effect, UNKNOWN)
            return []
        if unwrapped.inert is None and not unwrapped.argv and unwrapped.wrappers:
            stdin = _shell_stdin(command, unwrapped, self.text)
            if stdin is not None:  # `bash <<'EOF' … EOF`: the here-document is the script
                return self.nested(command, unwrapped, stdin, env, shell)
        if unwrapped.inert is not None or not unwrapped.argv:
            return []
        identified = identify(unwrapped.argv, shell)
        if identified is None:
            self.effect = combine(self.effect, program_effect(unwrapped.argv, shell))
            return []
        if identified.fixes:
            self.effect = MUTATING
        where = directory(env.dirs + tuple(word_text(w) for w in unwrapped.directories + identified.directories))
        finding = _Finding(identified, unwrapped.argv[0].span._replace(end=command.span.end), where)
        reasons: list[Reason] = []
        for assignment in command.assignments:
            reasons.append(Reason("env-prefix", f"`{excerpt(self.text, assignment.span)}` only sets the "
                                  "environment", assignment.span, "keeps"))
        for wrapper in unwrapped.wrappers:
            reasons.append(Reason("wrapper", f"`{wrapper.value}` runs the check and returns its status",
                                  wrapper.span, "keeps"))
        for redirect in command.redirects:
            reasons.append(Reason("redirect", f"`{excerpt(self.text, redirect.span)}` only redirects "
                                  "input or output", redirect.span, "keeps"))
        source = "check"
        if unwrapped.background is not None:
            source = "masked"
            reasons.append(Reason("background", "the wrapper detaches the check; its status never comes back",
                                  unwrapped.background, "masks"))
        for word in (*unwrapped.wrappers, unwrapped.argv[0]):
            name = program_name(word.value or "")
            if name in env.shadowed:
                source = "masked"
                reasons.append(Reason("shadowed", f"`{name}` is redefined (a function, an alias or `hash -p`) "
                                      "before this line", word.span, "masks"))
        finding.degrade(source, reasons)
        return [finding]

    def nested(self, command: Command, unwrapped: Unwrapped, nested: Nested, env: ShellState,
               shell: str) -> list[_Finding]:
        dialect = "pwsh" if nested.shell == "pwsh" else "bash"
        script = parse_nested(nested.text, nested.positions, dialect)
        unreadable = nested.shell == "cmd" and not _plain_cmd(nested.text)
        eval_like = (nested.via.value or "") == "eval"
        inner_dirs = env.dirs + tuple(word_text(w) for w in unwrapped.directories)
        if eval_like:
            inner_env = env
        else:
            posix = program_name(nested.via.value or "") in POSIX_SH
            inner_env = ShellState(nested.pipefail, inner_dirs, posix_sh=posix)
        findings = self.scan(script, inner_env, dialect, shared=eval_like)
        via = unwrapped.wrappers[-1] if unwrapped.wrappers else nested.via
        for finding in findings:
            reasons = [Reason("nested", f"`{via.value}` runs the command string and returns its status",
                              via.span, "keeps")]
            for wrapper in unwrapped.wrappers[:-1]:
                reasons.insert(0, Reason("wrapper", f"`{wrapper.value}` runs the check and returns its status",
                                         wrapper.span, "keeps"))
            if script.error is not None:
                finding.degrade("masked", [*reasons, Reason("parse-error", f"the command string does not parse "
                                                            f"cleanly ({script.error})", script.error_span,
                                                            "masks")])
            elif unreadable:
                finding.degrade("masked", [*reasons, Reason("cmd-syntax", "cmd.exe syntax (`^`, `%`, parentheses) "
                                                            "is not analysed", via.span, "masks")])
            else:
                finding.degrade("check", reasons)
        if script.error is not None or unreadable:
            self.effect = combine(self.effect, UNKNOWN)
        return findings

    # -- position of a check in its script ---------------------------------------------------------

    def position(self, statements: tuple[Statement, ...], ends: list[int], index: int, position: int,
                 before: tuple[Reason | None, bool, bool], shell: str) -> tuple[str, list[Reason], bool]:
        """The verdict on a check's place in its script: pipes, lists, what runs after it, and
        (``before``: risk, pipefail surely on, pipefail maybe on) what ran before it."""
        risk, pipefail, maybe_pipefail = before
        text = self.text
        reasons: list[Reason] = []
        source = "check"
        cmdlet = False
        statement = statements[index]
        pipeline = statement.pipeline
        if pipeline.negation is not None:
            source = "masked"
            reasons.append(Reason("negated", "`!` inverts the check's status", pipeline.negation, "masks"))
        if position > 0:
            feed = Span(pipeline.span.start, pipeline.pipes[position - 1].end)
            if shell == "bash" and maybe_pipefail:
                source = "masked"
                reasons.append(Reason("pipefail-producer", f"with pipefail on, a failure of `{excerpt(text, feed)}` "
                                      "becomes the pipeline's status", feed, "masks"))
            else:
                reasons.append(Reason("pipe-into-check", "a pipe into the check only feeds its input; the "
                                      "pipeline's status is the check's", feed, "keeps"))
        end = ends[index]
        tail, pipestatus = self.tail(statements, end, shell)
        consumers = pipeline.commands[position + 1 :]
        verdicts = [self.consumer(consumer, shell) for consumer in consumers]
        exact_exit = tail is not None and tail.code == "exit-propagation"
        if tail is not None and consumers and (
                (pipestatus == position and index == end)
                or (shell == "pwsh" and exact_exit and all(v == "cmdlet" for v in verdicts))):
            # `check | tee log; exit ${PIPESTATUS[0]}`, or PowerShell `check | Select-Object; exit
            # $LASTEXITCODE` (cmdlets never set it): the script leaves with the check's own status.
            tail = tail._replace(message=f"`{excerpt(text, tail.span)}` exits with the check's own status, "
                                 "whatever the pipe after it does")
        elif consumers:
            pipe_span = Span(pipeline.pipes[position].start, pipeline.span.end)
            deciding = [(c, v) for c, v in zip(consumers, verdicts, strict=True) if v == "deciding"]
            if deciding:
                consumer = deciding[0][0]
                source = "masked"
                name = excerpt(text, Span(pipeline.pipes[consumers.index(consumer) + position].start,
                                           consumer.span.end))
                reasons.append(Reason("deciding-consumer", f"`{name}` decides the pipeline's status, not the "
                                      "check", Span(pipeline.pipes[consumers.index(consumer) + position].start,
                                                    consumer.span.end), "masks"))
            elif shell == "bash" and pipefail:
                reasons.append(Reason("pipefail", "`pipefail` is on: the pipeline fails when the check fails",
                                      pipe_span, "keeps"))
            elif len(consumers) > 1:
                source = "masked"
                reasons.append(Reason("extra-pipes", "the check's output passes through more than one pipe; "
                                      "the status is the last consumer's", pipe_span, "masks"))
            else:
                source = _worse(source, "reporting-pipe")
                cmdlet = shell == "pwsh" and verdicts[0] == "cmdlet"
                piece = excerpt(text, pipe_span)
                if cmdlet:
                    message = f"`{piece}` passes the output through a cmdlet, which does not set the exit status"
                else:
                    message = (f"`{piece}` passes the output through; without pipefail its status is reported, "
                               "so a failing check can still report 0")
                reasons.append(Reason("reporting-pipe", message, pipe_span, "residual"))
        start = index
        while start > 0 and statements[start - 1].op in ("&&", "||"):
            start -= 1
        for earlier in range(start, index):
            if statements[earlier].op == "||":
                source = "masked"
                left = Span(statements[earlier].pipeline.span.start, _op_end(statements[earlier]))
                reasons.append(Reason("or-chain", f"`{excerpt(text, left)}` runs the check only when the left "
                                      "side fails; otherwise the check never runs and 0 is reported", left,
                                      "masks"))
            elif statements[earlier].op == "&&":
                left = Span(statements[earlier].pipeline.span.start, _op_end(statements[earlier]))
                reasons.append(Reason("and-before", f"`{excerpt(text, left)}` runs before the check; if it fails "
                                      "the check does not run", left, "keeps"))
        if index < end:
            after = Span(statement.op_span.start if statement.op_span else pipeline.span.end,
                         statements[end].pipeline.span.end)
            if statement.op == "||" and index + 1 == end and exits_with_status(statements[end], shell):
                reasons.append(Reason("failure-exit", f"`{excerpt(text, after)}` leaves with the check's own "
                                      "failing status", after, "keeps"))
            else:
                source = "masked"
                if statement.op == "||":
                    message = f"`{excerpt(text, after)}` runs when the check fails and its status replaces the check's"
                    reasons.append(Reason("or-chain", message, after, "masks"))
                else:
                    reasons.append(Reason("post-check-command", f"`{excerpt(text, after)}` runs after the check; "
                                          "the status reported is the last command's", after, "masks"))
        if statements[end].op == "&":
            source = "masked"
            reasons.append(Reason("background", "`&` runs the check in the background; the shell reports 0 at once",
                                  statements[end].op_span, "masks"))
        if tail is not None:
            if tail.level == "masks":
                source = "masked"
            reasons.append(tail)
        if risk is not None:
            source = "masked"
            reasons.append(risk)
        return source, reasons, cmdlet

    def tail(self, statements: tuple[Statement, ...], end: int, shell: str) -> tuple[Reason | None, int | None]:
        """The verdict on what runs after the check's list, if anything does, and the index ``N``
        of an ``exit ${PIPESTATUS[N]}`` that ends the script right after it."""
        text = self.text
        index = end + 1
        kept: Reason | None = None
        while index < len(statements):
            statement = statements[index]
            previous = statements[index - 1]
            span = Span(previous.op_span.start if previous.op_span else statement.pipeline.span.start,
                        statement.pipeline.span.end)
            commands = statement.pipeline.commands
            single = len(commands) == 1 and statement.pipeline.negation is None
            if single and statement.op in (None, ";", "\n"):
                pipestatus = pipestatus_exit(commands[0]) if shell == "bash" and index == end + 1 else None
                if exit_propagates(commands[0], shell) or pipestatus is not None:
                    return Reason("exit-propagation", f"`{excerpt(text, span)}` leaves with the status of the "
                                  "line before it", span, "keeps"), pipestatus
            if single and shell == "pwsh" and commands[0].kind == "expression" and commands[0].literal:
                kept = Reason("report-tail", f"`{excerpt(text, span)}` only prints a string; PowerShell keeps "
                              "the check's exit code", span, "keeps")
                index += 1
                continue
            return Reason(*_tail_message(text, span, commands[0] if single else None), span, "masks"), None
        return kept, None

    def consumer(self, command: Command, shell: str) -> str:
        """``pass-through``, ``cmdlet`` (a PowerShell pass-through cmdlet) or ``deciding``."""
        if command.kind != "simple" or command.opaque or not command.words:
            return "deciding"
        argv = self.unwrap(command, shell).argv
        if not argv or argv[0].value is None:
            return "deciding"
        name = program_name(argv[0].value)
        if shell == "pwsh" and (name in _CMDLET_PASS_THROUGH or name.startswith(("out-", "format-"))):
            return "cmdlet"
        if name in PASS_THROUGH:
            return "pass-through"
        return "deciding"

    # -- extras ----------------------------------------------------------------------------------

    def _mentions(self, script: Script) -> list[Reason]:
        reasons: list[Reason] = []
        for word in _all_words(script):
            value = word.value if word.value is not None else word.text
            found = [match.group(1) for match in mention_pattern().finditer(value)]
            if found:
                reasons.append(Reason("mention-only", f"`{max(found, key=len)}` appears only inside an argument "
                                      "or string, not as a command", word.span, "note"))
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


def parse_nested(text: str, positions: list[int], dialect: str) -> Script:
    """Parse a command string found inside another command, keeping outer spans."""
    data = text.encode("utf-8", "surrogatepass")
    offsets = OffsetMap(text, data, outer=positions)
    if dialect == "pwsh":
        from ._pwsh import parse_pwsh  # the PowerShell grammar loads only when needed

        return parse_pwsh(text, offsets)
    return parse_bash(text, offsets)


def _shell_stdin(command: Command, unwrapped: Unwrapped, text: str) -> Nested | None:
    """The script a shell reads from a here-document or here-string, when it is given no other."""
    shell = unwrapped.wrappers[-1]
    if program_name(shell.value or "") not in SHELLS:
        return None
    for redirect in command.redirects:
        if redirect.body is not None and redirect.op in ("<<", "<<-"):
            start, end = redirect.body
            return Nested(text[start:end], [*range(start, end), end], "bash", False, shell)
        if redirect.op == "<<<" and redirect.target is not None:
            unquoted = bash_unquote(redirect.target.text, redirect.target.span.start)
            if unquoted is not None:
                return Nested(unquoted[0], unquoted[1], "bash", False, shell)
    return None


def _list_ends(statements: tuple[Statement, ...]) -> list[int]:
    ends = [0] * len(statements)
    end = len(statements) - 1
    for index in range(len(statements) - 1, -1, -1):
        if statements[index].op not in ("&&", "||"):
            end = index
        ends[index] = end
    return ends


def _op_end(statement: Statement) -> int:
    return statement.op_span.end if statement.op_span is not None else statement.pipeline.span.end


def _worse(first: str, second: str) -> str:
    return first if _RANK[first] >= _RANK[second] else second


def _head_span(command: Command, text: str) -> Span:
    """The first line of a compound command, for a caret that does not cover a whole loop."""
    start, end = command.span
    newline = text.find("\n", start, end)
    return Span(start, newline if newline > 0 else end)


def _tail_message(text: str, span: Span, command: Command | None) -> tuple[str, str]:
    piece = excerpt(text, span)
    if command is not None and command.kind == "simple":
        if not command.words and command.redirects:
            return ("standalone-redirect", f"`{piece}` is a command of its own (it truncates the file) and its "
                    "status is reported")
        head = (command.words[0].value or "").lower() if command.words else ""
        if head in ("true", ":"):
            return "true-tail", f"`{piece}` always succeeds, hiding the check's status"
        if head in ("echo", "printf", "write-output", "write-host"):
            return "echo-tail", f"`{piece}` runs after the check and succeeds, hiding its status"
    if command is not None and command.kind == "expression":
        return "expression-tail", f"`{piece}` is evaluated after the check; the status reported is its own"
    return "post-check-command", f"`{piece}` runs after the check; the status reported is the last command's"


def _plain_cmd(text: str) -> bool:
    """cmd.exe strings whose meaning is the same under bash rules (no ^ escapes, %VARS%, groups)."""
    return not any(char in text for char in "^%!()'`$")


def _quote(part: str) -> str:
    if part and _SAFE_WORD.match(part):
        return part
    return "'" + part.replace("'", "'\"'\"'") + "'"


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
