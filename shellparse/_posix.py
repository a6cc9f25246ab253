"""What a POSIX ``sh`` reads as bash does: the part of bash's syntax a command string run by another
shell may use and still be read with bash's meaning.

``sh -c STR`` runs ``STR`` in dash on Debian and Ubuntu (and ``script -c``, ``flock -c``, ``npx -c``
hand theirs to ``$SHELL`` or ``/bin/sh``). dash reads much of bash's syntax otherwise: ``check
&>/dev/null`` is ``check &`` followed by ``>/dev/null`` (the check runs in the background and the
string exits 0), ``${PIPESTATUS[0]}`` is a bad substitution that ends the shell, ``|&``, ``<<<``,
``[[``, arrays and ``function f {`` are syntax errors or commands not found. The analysis reads such
a string as bash and accepts it only when every construct in it is in the tables below, each of which
real dash runs as bash does (``tests/shellparse/test_proof_table.py``, row ``command-string``); any
other construct refuses the checks of the string (reason ``dialect``).

- :data:`COMMAND_KINDS`: compound commands both shells share (``function f {`` and C-style ``for``
  excepted);
- :data:`REDIRECTS`: redirect operators both shells share (``>&`` and ``<&`` to a descriptor only);
- :data:`_PARAMETER`: the parameter expansions POSIX defines, and no variable only bash sets;
- :data:`BUILTIN_OPTIONS`: the options each builtin both shells have may take; a bash builtin or
  keyword dash lacks (:data:`BASH_ONLY`) refuses.
"""

from __future__ import annotations

from ._builtins import BASH_BUILTINS
from ._model import Command, Script, Span, Word
from ._patterns import lazy
from ._vocabulary import CommandKind

COMMAND_KINDS: frozenset[CommandKind] = frozenset({"simple", "subshell", "group", "if", "for", "while", "until",
                                                   "case", "function"})
"""Commands both shells run alike (not ``select``, ``((…))``, ``[[ … ]]``)."""
REDIRECTS = frozenset({">", ">>", "<", "<>", ">|", "<<", "<<-", ">&", "<&"})
"""Redirect operators both shells share (not ``&>``, ``&>>``, ``<<<``)."""
DASH_BUILTINS = frozenset({
    ".", ":", "[", "alias", "bg", "break", "cd", "command", "continue", "echo", "eval", "exec", "exit", "export",
    "false", "fg", "getopts", "hash", "jobs", "kill", "local", "printf", "pwd", "read", "readonly", "return", "set",
    "shift", "test", "times", "trap", "true", "type", "ulimit", "umask", "unalias", "unset", "wait",
})
"""dash's builtins (dash 0.5.12)."""
BASH_ONLY = (BASH_BUILTINS - DASH_BUILTINS) | {"[[", "time", "coproc", "select", "function"}
"""Names bash runs itself that dash looks up as programs (``source``, ``declare``, ``shopt``, the
``time`` keyword …)."""
BUILTIN_OPTIONS: dict[str, str] = {
    "wait": "", "exec": "", "local": "", "trap": "", "getopts": "", "type": "", "alias": "", "printf": "",
    "export": "p", "readonly": "p", "unset": "fv", "read": "rp", "cd": "LP", "pwd": "LP", "command": "pvV",
    "hash": "r", "umask": "S", "unalias": "a", "jobs": "lp", "set": "euxvfC",
}
"""The option letters each builtin may take in both shells (``wait -n``, ``read -a``, ``exec -a``,
``printf -v``, ``set -h`` are bash's); a builtin not listed takes what it likes (``echo -n``)."""
SET_NAMES = frozenset({"errexit", "nounset", "xtrace", "verbose", "noglob", "noclobber"})
"""The options ``set -o`` may name (``pipefail`` is dash's fatal error, refused elsewhere)."""
TEST_OPERATORS = frozenset({"==", "=~", "-v", "-R", "-N", "<", ">"})
"""``test`` operators only bash knows (``[ a == a ]`` is an error in dash)."""
TRAP_CONDITIONS = frozenset({"ERR", "DEBUG", "RETURN"})
"""Trap conditions only bash knows (dash also refuses a signal name with ``SIG``)."""

_PARAMETER = lazy(r"\$\{(?:#?(?:[A-Za-z_]\w*|[0-9]+|[@*#?$!-])\}|(?:[A-Za-z_]\w*|[0-9]+|[@*#?$!-])"
                  r"(?::?[-=?+]|%%?|##?))")
"""A parameter expansion POSIX defines: ``${x}``, ``${#x}``, ``${x:-w}``, ``${x%w}`` … (not
``${x[0]}``, ``${x/a/b}``, ``${x:1}``, ``${!x}``, ``${x^^}``)."""
_BASH_VARIABLE = lazy(r"\$\{?#?(?:PIPESTATUS|BASH\w*|COPROC\w*|FUNCNAME)\b")
"""Variables only bash sets: in dash they expand to nothing (``exit $PIPESTATUS`` is a bare ``exit``)."""
_BASH_QUOTE = lazy(r"\$['\"]|\$\[")
"""``$'…'``, ``$"…"`` and ``$[…]``: a literal ``$`` to dash."""
_ASSIGNMENT = lazy(r"[A-Za-z_]\w*(?:\+=|\[|=\()")
"""``x+=1``, ``a[0]=1``, ``a=(1 2)``: commands or syntax errors to dash."""
_NUMBERS = frozenset({"$!", "${!}", "$?", "${?}", "$$", "${$}", "$#", "${#}"})
"""Special parameters that hold a number, never an option (``wait $!``)."""
_QUOTED = lazy(r"'[^']*'|\"(?:[^\"\\]|\\.)*\"|\$\{[^}]*\}")
_BRACES = lazy(r"\{[^{}]*(?:,|\.\.)[^{}]*\}")
"""Brace expansion, which dash leaves as it is written."""
_KEYWORD_FORMS = lazy(r"function\b|for\s*\(\(")


def posix_problem(script: Script, text: str, *, in_function: bool = False) -> Span | None:
    """The first construct of ``script`` (spans into ``text``) that a POSIX ``sh`` reads otherwise
    than bash, or ``None`` when every one is in the tables of this module."""
    for statement in script.statements:
        pipes = statement.pipeline.pipes
        for pipe in pipes:
            if pipe.end - pipe.start > 1:
                return pipe  # `|&`
        for command in statement.pipeline.commands:
            found = _command_problem(command, text, in_function=in_function)
            if found is not None:
                return found
    return None


def _command_problem(command: Command, text: str, *, in_function: bool) -> Span | None:
    kind = command.kind
    if kind not in COMMAND_KINDS or _KEYWORD_FORMS.match(text, command.span.start):
        return command.span
    if kind == "case" and any(word.text in (";&", ";;&") for word in command.words):
        return command.span
    for redirect in command.redirects:
        target = redirect.target
        if redirect.op not in REDIRECTS or (redirect.fd is not None and not (
                len(redirect.fd) == 1 and redirect.fd.isdigit())) or (redirect.op in (">&", "<&") and (
                target is None or not (target.text.isdigit() or target.text == "-"))):
            return redirect.span
        if target is not None and _word_problem(target):
            return target.span
    for word in command.assignments:
        if _ASSIGNMENT.match(word.text) or _word_problem(word):
            return word.span
    for word in command.words:
        if _word_problem(word):
            return word.span
    if kind == "simple" and command.words and _builtin_problem(command.words, in_function=in_function):
        return command.span
    for opaque in command.opaque:
        if opaque.kind != "substitution" or opaque.body is None:
            return opaque.span
        found = posix_problem(opaque.body, text)
        if found is not None:
            return found
    if command.body is not None:
        return posix_problem(command.body, text, in_function=in_function or kind == "function")
    return None


def _word_problem(word: Word) -> bool:
    """Whether dash expands ``word`` otherwise than bash."""
    written = word.text
    if "$" in written:
        if _BASH_QUOTE.search(written) or _BASH_VARIABLE.search(written):
            return True
        start = written.find("${")
        while start >= 0:
            if _PARAMETER.match(written, start) is None:
                return True
            start = written.find("${", start + 2)
    return word.value is None and "{" in written and _BRACES.search(_QUOTED.sub("", written)) is not None


def _builtin_problem(words: tuple[Word, ...], *, in_function: bool) -> bool:
    """Whether a simple command is a bash builtin dash lacks, or a shared one given bash's options."""
    while True:
        name = words[0].value
        if name is None or (name not in BASH_BUILTINS and name not in BASH_ONLY):
            return False  # a program (or a name only run time knows, refused elsewhere)
        if name in BASH_ONLY or (name == "local" and not in_function):
            return True
        rest = words[1:]
        if name in ("command", "exec") and rest and not (rest[0].value or "-").startswith("-"):
            words = rest  # `command declare x`: the builtin after it
            continue
        return _options_problem(name, rest)


def _options_problem(name: str, args: tuple[Word, ...]) -> bool:
    values = [word.value for word in args]
    if name in ("test", "["):
        return any(value in TEST_OPERATORS for value in values)
    if name == "trap":
        conditions = values[2:] if values[:1] == ["-"] else values[1:]
        return any(value is None or value in TRAP_CONDITIONS or value.startswith("SIG") for value in conditions) \
            or any((value or "").startswith("-") and value != "-" for value in values[:1])
    allowed = BUILTIN_OPTIONS.get(name)
    if allowed is None:
        return False
    index = 0
    while index < len(values):
        value = values[index]
        if value is None:  # an operand when it starts with a name or a path, or is a number, else maybe an option
            text = args[index].text.strip('"')
            return not (text[:1].isalnum() or text[:1] in "_./~" or text in _NUMBERS)
        if value in ("--", "-") or value[:1] not in "-+" or len(value) == 1:
            return False  # operands from here
        index += 1
        letters = value[1:]
        if name == "set" and "o" in letters:  # `set -o errexit`, `set -eo nounset`
            if index < len(values) and values[index] not in SET_NAMES:
                return True
            index += 1
            letters = letters.replace("o", "")
        if not set(letters) <= set(allowed):
            return True
    return False
