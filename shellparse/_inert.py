"""What is proven inert: the closed tables a statement before a check is judged by.

A statement that runs in the shell that later runs the check can change what the check's status
means: end the shell, redefine a name, switch an option, set a variable bash acts on. The analysis
does not look for such dangers; it accepts a statement only when every word of it is in a table
below, each row of which says why bash cannot let it touch the status (the row's oracle test in
``tests/shellparse/test_proof_table.py`` holds it to real bash). Anything else is *unproven* and
refuses the checks after it.

- :data:`BUILTINS`: the builtins accepted before a check, each with the arguments it may take;
- :data:`SET_OPTIONS`, :data:`SHOPT_OPTIONS`: the options ``set`` and ``shopt`` may switch;
- :data:`SHELL_VARIABLES`: the variables bash (or the dynamic loader) acts on, with what an
  assignment to each may hold; every other name is only data to bash;
- :func:`plain_expansions`: the expansions a word may hold where its value must not run code.
"""

from __future__ import annotations

from typing import Literal

from ._patterns import lazy

BuiltinRule = Literal["any", "no-v", "directory", "set", "shopt", "names", "trap", "source", "alias", "hash",
                      "kill", "exec", "read", "tracked"]
"""How a builtin's arguments are judged: ``any`` (every argument is data to it), ``no-v`` (no
``-v NAME`` that assigns), ``directory`` (``cd``, ``pushd``, ``popd``), ``set`` and ``shopt`` (options
from the tables below), ``names`` (declarations: names and options judged by
:data:`SHELL_VARIABLES`), ``trap`` (an inert body), ``source`` (a virtual environment's
activation script only), ``alias`` (names written out: the analysis follows what an alias
redefines), ``hash`` (the analysis follows the names ``-p`` binds, in any spelling of the
option), ``kill`` (job specs only), ``exec`` (redirects only), ``read`` (names judged as
assignments), ``tracked`` (the analysis follows it: ``exit``, ``eval`` of a static string,
``command``, ``builtin``)."""

BUILTINS: dict[str, BuiltinRule] = {
    # Print, test or report: they read their arguments and change nothing in the shell.
    "echo": "any", ":": "any", "true": "any", "false": "any", "test": "any", "[": "any", "pwd": "any",
    "type": "any", "dirs": "any", "jobs": "any", "times": "any", "help": "any", "wait": "any", "umask": "any",
    "unalias": "any", "disown": "any", "printf": "no-v",
    # Move: the directory is part of the check's identity, never of its status.
    "cd": "directory", "pushd": "directory", "popd": "directory",
    "set": "set", "shopt": "shopt",
    "export": "names", "declare": "names", "typeset": "names", "local": "names", "readonly": "names",
    "unset": "names", "read": "read", "mapfile": "read", "readarray": "read", "getopts": "read",
    "trap": "trap", "source": "source", ".": "source", "alias": "alias", "hash": "hash", "kill": "kill",
    "exec": "exec",
    # Followed by the analysis itself (`exit` may end the script; a static `eval` is read in place).
    "exit": "tracked", "return": "tracked", "logout": "tracked", "eval": "tracked", "command": "tracked",
    "builtin": "tracked",
}
"""The builtins a line may run before its check, and how their arguments are judged. Not here, so
refused: ``enable`` and ``bind`` (they redefine names and keys), ``complete``/``compgen``/
``compopt``, ``fc`` and ``history`` (they run history), ``break`` and ``continue`` (they skip the
rest of a loop, the check with it), ``shift`` (a function's ``"$@"`` is then not the words the
analysis reads), ``suspend``, ``ulimit``, ``caller``, ``let`` (arithmetic a variable's value can
steer), ``bg``, ``fg``."""

SET_OPTIONS: dict[str, str | None] = {
    # letter (or name) -> the option's `set -o` name; None: no effect on the status
    "e": "errexit", "u": "nounset", "x": None, "v": None, "f": None, "C": None, "h": None, "B": None,
    "errexit": "errexit", "nounset": "nounset", "pipefail": "pipefail", "xtrace": None, "verbose": None,
    "noglob": None, "noclobber": None, "hashall": None, "braceexpand": None,
}
"""The options ``set`` (and ``shopt -o``) may switch before a check: ``errexit``, ``nounset`` and
``pipefail``, which the analysis follows, and options that only change what is printed or how
words expand (``xtrace`` prints each command after ``PS4``, which :data:`SHELL_VARIABLES` keeps
inert). Not here, so refused: ``noexec`` (nothing after it runs), ``onecmd``, ``allexport``,
``keyword`` (assignments anywhere on a command line reach its environment), ``functrace`` and
``errtrace`` (traps reach into functions), ``monitor``, ``posix``, ``privileged``, ``physical``."""

SHOPT_OPTIONS = frozenset({
    "nullglob", "failglob", "globstar", "dotglob", "extglob", "nocaseglob", "nocasematch", "globasciiranges",
    "checkwinsize", "histappend", "cdspell", "dirspell", "direxpand", "autocd", "xpg_echo", "checkhash",
    "cmdhist", "lithist", "progcomp", "promptvars", "sourcepath", "interactive_comments", "complete_fullquote",
    "patsub_replacement", "varredir_close", "globskipdots", "assoc_expand_once", "noexpand_translation",
    "checkjobs", "huponexit", "shift_verbose", "force_fignore", "hostcomplete", "no_empty_cmd_completion",
})
"""The options ``shopt -s``/``-u`` may switch before a check: how words and globs expand, and what
an interactive shell does. Not here, so refused: ``extdebug`` (a failing DEBUG trap then skips the
command it runs before), ``expand_aliases`` (aliases then redefine names), ``lastpipe`` (a
pipeline's last command then runs in this shell), ``inherit_errexit``, ``execfail`` (a failed
``exec`` no longer ends the shell), ``login_shell``, ``restricted_shell``, ``compat*``."""

VariableRule = Literal["refused", "prompt", "tracked"]
"""What an assignment to a variable bash acts on may hold: ``refused`` (nothing: the line is not
proven), ``prompt`` (a value whose expansion runs nothing and assigns nothing), ``tracked`` (the
analysis follows it: ``IFS``, ``PATH``, ``HOME``, ``ZDOTDIR``, the alias and command tables)."""

SHELL_VARIABLES: dict[str, VariableRule] = {
    # A shell starting runs it, or reads options from it.
    "BASH_ENV": "refused", "ENV": "refused", "SHELLOPTS": "refused", "BASHOPTS": "refused",
    # Expanded each time `set -x` prints a command: an arithmetic expansion there assigns.
    "PS4": "prompt",
    # Changes which file a name runs, or which program the loader injects into every program.
    "EXECIGNORE": "refused", "BASH_LOADABLES_PATH": "refused", "LD_PRELOAD": "refused", "LD_LIBRARY_PATH": "refused",
    "LD_AUDIT": "refused", "DYLD_INSERT_LIBRARIES": "refused", "DYLD_LIBRARY_PATH": "refused",
    # The shell `script -c` and `flock -c` run their command string in (`SHELL=/bin/true script -qec
    # pytest /dev/null` exits 0 without running it).
    "SHELL": "refused",
    # Changes how this shell runs what follows.
    "BASH_XTRACEFD": "refused", "TMOUT": "refused", "FUNCNEST": "refused", "POSIXLY_CORRECT": "refused",
    "BASH_COMPAT": "refused", "BASH_ARGV0": "refused", "BASH_ARGV": "refused", "BASH_ARGC": "refused",
    "IFS": "tracked", "PATH": "tracked", "HOME": "tracked", "ZDOTDIR": "tracked", "BASH_ALIASES": "tracked",
    "BASH_CMDS": "tracked",
}
"""The variables bash (or the dynamic loader, or a program running a command string) acts on, and
what an assignment to each may hold;
``BASH_FUNC_*`` (exported functions) is refused by its prefix. Every other name is only data to
bash: its value reaches programs' environments (and a check's identity), never the status."""

_PLAIN = lazy(r"\$(?:[A-Za-z_][A-Za-z0-9_]*|\{[A-Za-z_][A-Za-z0-9_]*\}|[?$!#@*0-9-]|\{[?$!#@*0-9-]\})")


def variable_rule(name: str) -> VariableRule | None:
    """How an assignment to ``name`` is judged (``None``: bash does not act on it)."""
    if name.startswith("BASH_FUNC_"):
        return "refused"
    return SHELL_VARIABLES.get(name)


def plain_expansions(text: str) -> bool:
    """Whether every expansion in ``text`` is a plain parameter (``$x``, ``${x}``, ``$?``): no
    substitution, arithmetic, subscript, default or indirection, which could run code or assign."""
    rest = _PLAIN.sub("", text)
    return "$" not in rest and "`" not in rest
