"""How a POSIX shell is invoked: ``bash [options] -c STRING``, ``bash -s``, ``bash script.sh``.

The options a shell starts with decide what its script means for the status: ``-o pipefail`` and
``-e`` carry a check's status out of a pipeline or a failing line, ``-n`` runs nothing at all,
``-i`` reads ``~/.bashrc`` (which can redefine anything) and expands aliases, ``--debugger``
turns on ``extdebug``. :func:`invocation` reads them the way bash does: single-letter options
may be grouped (``-ec``), ``-o``/``-O`` take the next word, ``--`` or ``-`` ends the options,
and the first other word is the command string (with ``-c``) or the script.
"""

from typing import NamedTuple

from ._model import Word


class ShellOptions(NamedTuple):
    """The options a shell starts with that bear on a check's status."""

    pipefail: bool = False
    """``-o pipefail``: a pipeline fails when any command in it fails."""
    errexit: bool = False
    """``-e`` / ``-o errexit``: a failing command ends the shell with its status."""
    nounset: bool = False
    """``-u`` / ``-o nounset``: expanding an unset variable ends the shell (failing)."""
    interactive: bool = False
    """``-i``: the shell reads ``~/.bashrc`` (or ``--rcfile``) and expands aliases."""
    aliases: bool = False
    """Aliases expand (``-O expand_aliases``, an interactive shell, or a shell other than bash)."""
    extdebug: bool = False
    """``--debugger`` / ``-O extdebug``: a failing DEBUG trap skips the command it runs before."""
    onecmd: bool = False
    """``-t`` / ``-o onecmd``: the shell exits after one command."""
    login: bool = False
    """``-l`` / ``--login``: the shell reads the profile files (``~/.bash_profile``, ``~/.profile``)."""
    posix: bool = False
    """The string runs in whatever shell a program starts (``$SHELL``, else ``/bin/sh``): a POSIX
    ``sh`` (dash) may have no ``pipefail``, and expands aliases."""


PLAIN = ShellOptions()
"""No option that bears on the status."""
SOME_SHELL = ShellOptions(aliases=True, posix=True)
"""The options of a string a program hands to a shell of its own choosing (``script -c``, ``flock -c``)."""
_PLAIN_STATE: dict[str, bool] = PLAIN._asdict()
"""The options of :data:`PLAIN` by name, in field order (what :func:`invocation` starts from)."""
_LETTERS = {"e": "errexit", "u": "nounset", "t": "onecmd"}
_SET_NAMES = {"pipefail": "pipefail", "errexit": "errexit", "nounset": "nounset", "onecmd": "onecmd"}
_SHOPT_NAMES = {"expand_aliases": "aliases", "extdebug": "extdebug"}
_INERT_LONG = frozenset({"--help", "--version", "--dump-strings", "--dump-po-strings", "--pretty-print"})
_LONG_WITH_VALUE = frozenset({"--rcfile", "--init-file"})


class Invocation(NamedTuple):
    """A shell's command line, read up to its first operand."""

    operand: int
    """The index of the first operand: the command string (``-c``) or the script."""
    command: bool
    """``-c``: the first operand is a command string."""
    stdin: bool
    """``-s``: the script is read from standard input (the operands are its parameters)."""
    options: ShellOptions
    """What the options switch on."""
    runs_nothing: bool
    """``-n`` (without ``-i``), ``-D``, ``--version`` …: the shell runs no command."""
    problem: str | None
    """Why the invocation cannot be read (an option known only at run time)."""


def invocation(argv: list[Word], index: int, *, bash: bool) -> Invocation:
    """Read a shell's options from ``argv[index:]`` (``bash``: the shell is bash, whose non-interactive
    mode does not expand aliases; other shells do)."""
    state = dict(_PLAIN_STATE)
    state["aliases"] = not bash
    command = stdin = noexec = inert = False
    while index < len(argv):
        value = argv[index].value
        if value is None:
            return Invocation(index, command, stdin, _options(state), inert,
                              f"the shell option {argv[index].text} expands at run time")
        if value in ("--", "-"):
            index += 1
            break
        if value.startswith("--"):
            inert = inert or value in _INERT_LONG
            state["extdebug"] = state["extdebug"] or value == "--debugger"
            state["login"] = state["login"] or value == "--login"
            index += 2 if value in _LONG_WITH_VALUE else 1
            continue
        if value[:1] not in ("-", "+") or len(value) == 1:
            break
        on = value[0] == "-"
        index += 1
        for letter in value[1:]:
            if letter in "oO":
                name = argv[index].value if index < len(argv) else None
                table = _SET_NAMES if letter == "o" else _SHOPT_NAMES
                if name in table:
                    state[table[name]] = on
                noexec = noexec or (letter == "o" and name == "noexec" and on)
                index += 1
            elif letter == "c":
                command = True
            elif letter == "s":
                stdin = True
            elif letter == "i":
                state["interactive"] = state["aliases"] = on
            elif letter == "n":
                noexec = on
            elif letter == "D":
                inert = True
            elif letter == "l":
                state["login"] = on
            elif letter in _LETTERS:
                state[_LETTERS[letter]] = on
    options = _options(state)
    return Invocation(operand=index, command=command, stdin=stdin, options=options,
                      runs_nothing=inert or (noexec and not options.interactive), problem=None)


def _options(state: dict[str, bool]) -> ShellOptions:
    """``ShellOptions(**state)``: a table row naming no field fails as the constructor does."""
    return ShellOptions(**state)
