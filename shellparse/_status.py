"""Simple commands read for what they do to ``$?``: leave with a status, save it, always succeed,
or leave a saved status alone.

These recognisers decide the shapes that carry a check's status past the check itself:
``check; exit $?``, ``check && echo ok``, ``check; rc=$?; echo done; exit $rc``,
``check | tee log; exit ${PIPESTATUS[0]}``. Each is strict: a command they do not know, a name
that may be redefined, or an expansion that can fail (``${X?}``) is refused.
"""

import re
from functools import lru_cache
from typing import Literal, NamedTuple

from ._builtins import BASH_BUILTINS
from ._model import Command, Redirect, Statement, Word
from ._patterns import lazy
from ._prelude import unproven_options
from ._shellstate import ShellState

_LAST = frozenset({"$?", '"$?"', "${?}", '"${?}"'})
_PIPESTATUS = lazy(r'^"?\$(?:\{PIPESTATUS\[(\d+)\]\}|PIPESTATUS|\{PIPESTATUS\})"?$')
_VARIABLE = lazy(r'^"?\$(?:([A-Za-z_]\w*)|\{([A-Za-z_]\w*)\})"?$')
_FAILING_EXPANSION = lazy(r"\$\{[^}]*\?")
_ARITHMETIC_OF = lazy(r'^"?\$\(\(\s*(\$\?|\$?[A-Za-z_][A-Za-z0-9_]*)\s*\)\)"?$')
"""``$(( $? ))`` or ``$(( rc ))``: arithmetic that is the status (or the variable) itself."""
_PRINTF_FORMAT = lazy(r"(?:[^%\\]|%%|%s|\\[nt\\])*")
_QUIET_TARGETS = frozenset({"/dev/null"})
_DESCRIPTORS = frozenset({"0", "1", "2"})
# Builtins that leave every variable but their arguments alone and cannot end the shell.
_QUIET_BUILTINS = frozenset({
    "echo", "printf", ":", "true", "false", "test", "[", "pwd", "cd", "pushd", "popd", "dirs", "type", "hash",
    "export", "readonly", "declare", "typeset", "local", "unset", "wait", "jobs", "set", "command", "shopt", "umask",
})
_IFS = frozenset({"IFS"})
# Arithmetic that a variable's *value* can steer (`y='rc=0'; echo ${a[y]}` assigns `rc`): a subscript
# that is not a literal index, `$((…))`, `$[…]`, `((…))` (`for ((…))` too), the offset or length of a
# substring unless written in digits (`${x:y}`, `${x:0:y}`, `${a[@]:y}`, `${@:y}`, `${*:y:z}`), an
# indirect expansion (`${!y}` with y='a[rc=0]') and `-v`/`-R` of a name an expansion gives
# (`test -v "$y"`), and a prompt expansion (`${y@P}` with y='$((rc=0))' expands the value again).
# Searched in the command as written and with its quotes removed (`test -v a"[y]"`).
_ARITHMETIC = lazy(
    r"\w\[(?![\d@*]*\])|=\([^)]*\[|\$\(\(|\$\[|\(\(|\$\{!|(?<!\S)-[vR]\s+[^\s;&|]*\$|@P\}"
    r"|\$\{#?(?:\w+|[@*#?$!-])(?:\[[^]]*\])?:(?![-=?+])(?!\d+(?::\d+)?\})")
_COMPARED = lazy(r"(\S+)\s+-(?:eq|ne|lt|le|gt|ge)\s+(\S+)")
"""``[[ A -eq B ]]`` evaluates both operands as arithmetic (``[ … ]`` does not)."""
# `declare -n r=rc` anywhere in the command line: a reference (`r=0` then assigns `rc`) stays with the
# name. Read in the line with its quotes and backslashes removed (`declare "-n" r`, `de""clare -\n r`,
# in a command string or here-document too), up to the first word that ends the options.
_UNQUOTED = str.maketrans("", "", "\\'\"")
_REFERRING = lazy(r"(?<![\w./-])(?:declare|typeset|local|readonly)[ \t]+([^;&|()`\n]*)")
_NO_REFERENCE = lazy(r"[-+][A-Za-mo-z]*")
"""An option word that gives no reference: letters, none of them ``n``."""
# `declare -i x`: an assignment to x is arithmetic (`x=rc=0` assigns `rc`); the words it declares.
_DECLARATIONS = lazy(r"(?:^|[\s;&|({`])(?:declare|typeset|local|readonly)((?:[ \t]+[^\s;&|()]+)+)")
_EVAL = lazy(r"(?<![\w./-])eval(?![\w.-])")
"""``eval`` runs a string as commands, declarations too, which no word of the line spells out."""
_INTEGER_NAME = lazy(r"([a-z][a-z0-9_]*)(?:\+?=.*)?")
_DECLARING: dict[str, frozenset[str]] = {
    "declare": frozenset("aAilurxgtfFp"), "typeset": frozenset("aAilurxgtfFp"), "local": frozenset("aAilurxgtfFp"),
    "readonly": frozenset("aAfp"), "export": frozenset("fnp"), "unset": frozenset("fvn"),
}
"""The builtins that declare, export or unset the names they are given, and the options of each that
give no name a reference (``-n`` is ``export``'s and ``unset``'s own)."""
_NAME = lazy(r"[A-Za-z_][A-Za-z0-9_]*")
_SUCCEEDING = frozenset({"true", ":", "echo", "printf", "exit", "popd"})
_NAMING_BUILTINS = frozenset({"export", "readonly", "declare", "typeset", "local", "unset", "hash", "command", "wait"})
Exit = Literal["last", "pipestatus", "variable", "zero", "code"]


class ExitForm(NamedTuple):
    """What ``exit ARG`` (or ``return ARG``) leaves with."""

    kind: Exit
    """``last`` (``exit``, ``exit $?``), ``pipestatus`` (``exit ${PIPESTATUS[N]}``), ``variable``
    (``exit $rc``), ``zero`` (``exit 0``) or ``code`` (another literal status)."""
    position: int = 0
    """For ``pipestatus``: ``N``, the position in the pipeline whose status it is."""
    name: str = ""
    """For ``variable``: the variable's name."""
    split: bool = False
    """The argument is an unquoted expansion: a changed ``IFS`` can split it away (``IFS=1; exit
    $rc`` runs a bare ``exit``)."""


def exit_form(command: Command, *, names: tuple[str, ...] = ("exit",), state: ShellState | None = None
              ) -> ExitForm | None:
    """What ``command`` leaves with, when it is ``exit`` (or one of ``names``) with at most one argument."""
    if command.kind != "simple" or not command.words or command.words[0].value not in names:
        return None
    if len(command.words) > 2 or command.assignments or not quiet_redirects(command.redirects):
        return None  # a redirect that fails keeps bash from leaving: the next line decides
    if len(command.words) == 1:
        return ExitForm("last")
    form = _argument_form(command.words[1])
    if form is not None and form.split and state is not None and state.ifs_changed:
        return None
    return form


def _argument_form(word: Word) -> ExitForm | None:
    text = word.text
    split = text[:1] == "$"
    arithmetic = _ARITHMETIC_OF.match(text)
    if arithmetic is not None:  # `exit $(( $? ))`, `exit $((rc))`: the number itself
        text = "$" + arithmetic.group(1).lstrip("$") if arithmetic.group(1) != "$?" else "$?"
    if text in _LAST:
        return ExitForm("last", split=split)
    if text.isdigit():
        return ExitForm("zero" if int(text) % 256 == 0 else "code")
    match = _PIPESTATUS.match(text)
    if match is not None:
        return ExitForm("pipestatus", int(match.group(1) or 0), split=split)
    match = _VARIABLE.match(text)
    if match is not None:
        return ExitForm("variable", name=match.group(1) or match.group(2), split=split)
    return None


def saved_form(command: Command) -> tuple[str, ExitForm] | None:
    """``rc=$?`` or ``rc=${PIPESTATUS[N]}``: the variable, and which status it saves."""
    if command.kind != "simple" or command.words or len(command.assignments) != 1 or command.redirects:
        return None
    name, equals, value = command.assignments[0].text.partition("=")
    if not equals or not name.isidentifier():
        return None
    form = _argument_form(Word(value, None, command.assignments[0].span))
    if form is None or form.kind not in ("last", "pipestatus"):
        return None
    return name, form


def zeroes(command: Command) -> str | None:
    """``rc=0``: the variable an assignment-only command sets to a literal 0."""
    if command.kind != "simple" or command.words or len(command.assignments) != 1:
        return None
    name, equals, value = command.assignments[0].text.partition("=")
    return name if equals and name.isidentifier() and value == "0" else None


def quiet_redirects(redirects: tuple[Redirect, ...]) -> bool:
    """Redirects that cannot fail: to ``/dev/null``, or copies of the standard descriptors."""
    for redirect in redirects:
        target = redirect.target.value if redirect.target is not None else None
        if target in _QUIET_TARGETS:
            continue
        if redirect.op in (">&", "<&") and target in _DESCRIPTORS:
            continue
        return False
    return True


def always_succeeds(command: Command, state: ShellState) -> bool:
    """``true``, ``:``, ``echo …``, ``printf TEXT``, ``exit``/``exit 0``/``exit $?`` after a pass, and
    ``popd`` after a ``pushd``: a command that succeeds whatever the run."""
    if command.kind != "simple" or command.opaque or command.assignments or not command.words:
        return False
    head = command.words[0].value
    if head not in _SUCCEEDING or state.redefines(head) or not quiet_redirects(command.redirects):
        return False
    args = command.words[1:]
    for word in args:
        if word.value is None and ((state.nounset or "?" in word.text) and (
                state.nounset or _FAILING_EXPANSION.search(word.text))):
            return False  # `${X?}` fails; under `set -u` any unset variable does
    if head in ("true", ":", "echo"):
        return True
    if head == "printf":
        return len(args) >= 1 and args[0].value is not None and args[0].value != "-v" \
            and _PRINTF_FORMAT.fullmatch(args[0].value) is not None
    if head == "exit":
        form = exit_form(command, state=state)
        return form is not None and form.kind in ("last", "zero")
    return head == "popd" and bool(state.dir_stack) and not args


_PARAMETER = lazy(r"\$(?:\{#?([A-Za-z_]\w*|[0-9]+|[@*#?$!0-9-])|([A-Za-z_]\w*|[@*#?$!0-9-]))")
"""A parameter expansion, and the parameter it names."""
_ALWAYS_SET = frozenset({"?", "$", "#", "-", "0", "@", "*"})
"""Parameters bash always has a value for (``set -u`` never ends the shell on them)."""


def may_be_unset(piece: str, known: frozenset[str] = frozenset()) -> bool:
    """Whether ``piece`` may expand a parameter that has no value, which ends the shell under ``set
    -u``: any but those bash always sets (``$?``, ``$#``, ``"$@"`` …) and the ``known`` ones."""
    if "$" not in piece:
        return False
    for match in _PARAMETER.finditer(piece):
        name = match.group(1) or match.group(2)
        if name not in _ALWAYS_SET and name not in known:
            return True
    return False


def keeps_saved(command: Command, saved: frozenset[str], state: ShellState, text: str) -> bool:
    """Whether ``command`` (in ``text``), run after the status was saved in ``saved``, cannot end the
    shell nor change those variables (``exit $rc`` for a saved ``rc`` is allowed: it leaves with the
    status)."""
    saved = saved | _IFS  # a changed IFS can split an unquoted `$rc` away
    piece = text[command.span.start : command.span.end] + _expanded_bodies(command, text)
    integers = _integers(text)
    if integers is None or state.references or _touches(piece, saved | integers) or _arithmetic(piece) \
            or may_refer(text) or (state.nounset and may_be_unset(piece, saved)):
        return False  # under `set -u`, `echo $undefined` ends the shell with 127 after a pass
    if "[[" in piece and not _plain_comparisons(piece, saved):
        return False
    kind = command.kind
    if kind in ("if", "for", "case", "group", "subshell"):
        if kind == "for" and command.words and command.words[0].text in saved | integers:
            return False  # `for rc in 0`: the loop variable is assigned (arithmetically, if an integer)
        return command.body is not None and all(
            keeps_saved(inner, saved, state, text) for statement in command.body.statements
            for inner in statement.pipeline.commands)
    if kind != "simple" or not _quiet_opaque(command):
        return False
    for word in command.assignments:
        name, _, value = word.text.partition("=")
        name = name.partition("[")[0].rstrip("+")
        if name in saved or (name in integers and not value.isdigit()):
            return False
    if not command.words:
        return True
    head = command.words[0].value
    if head is None or state.redefines(head):
        return False
    if head == "exit":
        form = exit_form(command, state=state)
        return form is not None and form.kind == "variable" and form.name in saved - _IFS
    words = _after_command(command.words)
    return words is not None and _builtin_keeps(words, saved, integers)


def _expanded_bodies(command: Command, text: str) -> str:
    """The here-documents of ``command`` that bash expands (their delimiter unquoted): ``: <<EOF``
    with ``$((rc=0))`` in its body assigns ``rc`` when the command is a builtin."""
    bodies = [text[r.body.start : r.body.end] for r in command.redirects if r.body is not None
              and r.target is not None and not any(char in r.target.text for char in "'\"\\")]
    return "\n" + "\n".join(bodies) if bodies else ""


def _after_command(words: tuple[Word, ...]) -> tuple[Word, ...] | None:
    """``command unset $y`` runs ``unset $y``: the words from the builtin ``command`` runs (``None``
    when an expansion names it); ``command -v NAME`` only looks a name up, and stays as it is."""
    while words[0].value == "command" and len(words) > 1:
        rest = words[1:]
        while rest and rest[0].value in ("-p", "--"):
            rest = rest[1:]
        if not rest or (rest[0].value or "").startswith("-"):
            return words if rest else None
        if rest[0].value is None:
            return None
        words = rest
    return words


def _builtin_keeps(words: tuple[Word, ...], saved: frozenset[str], integers: frozenset[str]) -> bool:
    """Whether the command ``words`` (not ``exit``, not redefined) leaves the saved variables alone."""
    head = words[0].value or ""
    if head not in BASH_BUILTINS:
        return True  # a program runs in a child process: it can change no variable of this shell
    if head not in _QUIET_BUILTINS or (head == "printf" and len(words) > 1 and (words[1].value or "-v")[:2] == "-v"):
        return False  # `printf -v rc 0`, `printf -vrc 0`
    if head == "set" and any((w.value or "?")[1:] not in ("x", "v") for w in words[1:]):
        return False
    if head == "shopt" and unproven_options(head, words[1:]) is not None:
        return False  # `shopt -so noexec`: nothing after it runs, the exit neither
    if head in _DECLARING:
        return _declares_other_names(head, words[1:], saved, integers)
    # An option's value may be attached (`wait -prc`): any word naming a saved variable refuses.
    return head not in _NAMING_BUILTINS or not any(
        _names(word.text, saved) or (word.text.startswith("-") and any(name in word.text for name in saved))
        for word in words[1:])


def _declares_other_names(head: str, args: tuple[Word, ...], saved: frozenset[str], integers: frozenset[str]) -> bool:
    """``declare -a arr``, ``local x``, ``typeset -i n=0``, ``export NAME=value``: every word as written
    (no expansion can name ``rc`` or carry ``rc=0``), no option that makes a reference, names other
    than the saved ones, an integer given a number, and values that no array can read as a
    compound assignment (``declare arr='([x]=1)'`` evaluates ``x``, which may hold ``rc=0``)."""
    options, integer = True, False
    for word in args:
        text = word.value
        if text is None or _names(word.text, saved):
            return False
        if options and text == "--":
            options = False
        elif options and text[:1] in "-+" and len(text) > 1:
            if not set(text[1:]) <= _DECLARING[head]:
                return False
            integer = integer or (text[0] == "-" and "i" in text)  # `declare -i m=y` evaluates y
        else:
            options = False
            name, equals, value = text.partition("=")
            name = name.removesuffix("+") if equals else name
            if _NAME.fullmatch(name) is None or "(" in value or "[" in value \
                    or (equals and (integer or name in integers) and not value.isdigit()):
                return False
    return True


@lru_cache(maxsize=64)
def may_refer(text: str) -> bool:
    """Whether a ``declare``/``typeset``/``local`` in ``text`` may make a name a reference (``-n``):
    an option word with ``n`` once quotes are removed (``"-n"``, ``-"gn"``), or one whose letters
    only run time knows (``-$o``, ``$o``, ``{-n,r}``, ``?n`` matching a file ``-n``, a redirect
    first). Options end at the first word that begins with a name."""
    flat = text.replace("\\\n", "").translate(_UNQUOTED)
    for match in _REFERRING.finditer(flat):
        for word in match.group(1).split():
            if word in ("--", "-"):
                break
            if word[0] in "-+":
                if _NO_REFERENCE.fullmatch(word) is None:
                    return True
                continue
            if not (word[0].isalpha() or word[0] == "_"):
                return True
            break
    return False


def refers(args: tuple[Word, ...]) -> bool:
    """Whether a ``declare``/``typeset``/``local`` with ``args`` may make a name a reference: an
    option with ``n`` (after quote removal, ``$'\\x2dn'`` included), or an option word whose value
    only run time knows."""
    for word in args:
        value = word.value
        if value in ("--", "-"):
            return False
        if value is None or not value:
            return True
        if value[0] in "-+":
            if _NO_REFERENCE.fullmatch(value) is None:
                return True
            continue
        return not (value[0].isalpha() or value[0] == "_")
    return False


@lru_cache(maxsize=64)
def _integers(text: str) -> frozenset[str] | None:
    """The names a ``declare -i`` (``typeset``, ``local``) in ``text`` gives the integer attribute;
    ``None`` when one may give it to a name it does not spell out, or to one bash assigns itself
    (``declare -i $x``, ``typeset -i REPLY``, ``eval 'declare -i n'``). Read, as references are, in
    the line with its line continuations, quotes and backslashes removed (``"declare" -i n``,
    ``\\declare -i n``, ``declare "-i" n``, a continuation between the words)."""
    flat = text.replace("\\\n", "").translate(_UNQUOTED)
    if _EVAL.search(flat):
        return None
    names: set[str] = set()
    for match in _DECLARATIONS.finditer(flat):
        words = match.group(1).split()
        if any("$" in word.partition("=")[0] for word in words):
            return None  # an option or a name only run time knows
        if not any(word[:1] in "-+" and "i" in word for word in words):
            continue
        for word in words:
            if word[:1] in "-+":
                continue
            found = _INTEGER_NAME.fullmatch(word)
            if found is None:
                return None
            names.add(found.group(1))
    return frozenset(names)


def may_assign_ifs(statement: Statement, text: str) -> bool:
    """Whether ``statement`` evaluates arithmetic (``((…))``, ``$((…))``, a subscript, ``${x:=…}``)
    that may assign ``IFS``: an expression, or a variable's value, can name it (``y=IFS=1; : $((y))``)."""
    if not _exits_unquoted(text) or not _evaluates(text):
        return False  # the common case: no `exit $…` a changed IFS could split, or nothing evaluates arithmetic
    span = statement.pipeline.span
    piece = text[span.start : span.end]
    return any(command.kind == "arithmetic" for command in statement.pipeline.commands) or _evaluates(piece)


@lru_cache(maxsize=64)
def _exits_unquoted(text: str) -> bool:
    """Whether ``text`` may leave with an unquoted expansion (``exit $rc``), which IFS can split."""
    return "$" in text and ("exit" in text or "return" in text)


@lru_cache(maxsize=64)
def _evaluates(text: str) -> bool:
    """Whether ``text`` may evaluate arithmetic that assigns ``IFS`` (see :func:`may_assign_ifs`)."""
    if "[" not in text and "((" not in text and "${" not in text and "-v" not in text and "-R" not in text:
        return False  # every form of :data:`_ARITHMETIC` holds one of these (the common case: none)
    return "((" in text or _arithmetic(text) or "${IFS" in text or ("[[" in text and _COMPARED.search(text) is not None)


def _arithmetic(piece: str) -> bool:
    return _ARITHMETIC.search(piece) is not None or _ARITHMETIC.search(piece.translate(_UNQUOTED)) is not None


def _plain_comparisons(text: str, saved: frozenset[str]) -> bool:
    """Every arithmetic comparison of ``[[ … ]]`` in ``text`` compares literal numbers or the saved
    status itself (``[[ $rc -ne 0 ]]``): another operand is evaluated, and may assign (``rc=0``)."""
    for pair in _COMPARED.findall(text):
        for operand in pair:
            match = _VARIABLE.match(operand)
            if not (operand.lstrip("-").isdigit() or (match and (match.group(1) or match.group(2)) in saved)):
                return False
    return True


def _quiet_opaque(command: Command) -> bool:
    """Substitutions run in a subshell and change nothing here, unless they signal the shell."""
    for opaque in command.opaque:
        if opaque.body is None:
            return False
        for statement in opaque.body.statements:
            for inner in statement.pipeline.commands:
                if inner.kind == "simple" and inner.words and inner.words[0].value in (None, "kill"):
                    return False
    return True


def _touches(text: str, saved: frozenset[str]) -> bool:
    """An expansion that assigns a saved variable (``$((rc=0))``, ``${rc:=0}``) or one that fails."""
    if _FAILING_EXPANSION.search(text):
        return True
    if "$((" in text or "$[" in text:
        return any(_names(text, frozenset({name})) for name in saved)
    return any(f"${{{name}=" in text or f"${{{name}:=" in text for name in saved)


def _names(text: str, saved: frozenset[str]) -> bool:
    return any(re.search(rf"(?<![\w$]){re.escape(name)}(?!\w)", text) for name in saved)
