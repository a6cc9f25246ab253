"""What earlier statements did to the shell that later runs the check.

Statements before a check matter in three ways: where they move (``cd api &&`` is part of the
check's identity), what they switch on (``set -o pipefail``, ``set -e``), and what can stop the
check from deciding the status at all — an ``exit`` that may end the script with 0 first, a trap,
a function, alias or ``hash -p`` that redefines a command the verdict relies on, code that
cannot be read. Everything here errs on the side of "may": a shape that could hide the check's
status masks it. :mod:`._commands` applies statements to a :class:`ShellState`.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from types import MappingProxyType

from ._model import Command, Span, Word
from ._patterns import lazy
from ._results import Reason

_DRIVE = lazy(r"[A-Za-z]:")
_EVERY_NAME = "*"


def excerpt(text: str, span: Span | None, limit: int = 60) -> str:
    """The text of ``span``, on one line, shortened for a message."""
    if span is None:
        return ""
    start, end = span
    if end - start > 4 * limit:
        # A long span (a here-document, the rest of a list): its first words decide the excerpt.
        head = " ".join(text[start : start + 4 * limit].split())
        if len(head) > limit:
            return head[: limit - 1] + "…"
    piece = " ".join(text[start:end].split())
    return piece if len(piece) <= limit else piece[: limit - 1] + "…"


class ShellState:
    """The shell as earlier statements left it.

    Every field starts at its class default and is replaced, never changed in place (the
    collections are immutable): a fresh state costs nothing, and a copy shares what it has not
    changed.
    """

    pipefail: bool = False
    """``pipefail`` is surely on (a pipeline fails when any command in it fails)."""
    maybe_pipefail: bool = False
    """``pipefail`` may be on (it was switched on somewhere that may not have run)."""
    errexit: bool = False
    """``set -e`` is surely on."""
    maybe_errexit: bool = False
    """``set -e`` may be on."""
    errexit_ignored: bool = False
    """The code runs where bash ignores ``set -e`` (before ``&&``/``||``, after ``!``)."""
    exports: tuple[str, ...] = ()
    """``NAME=value`` exported to later commands (``export GOOS=windows``, PowerShell
    ``$env:GOOS = "windows"``): part of the identity of a check they run before."""
    nounset: bool = False
    """``set -u`` may be on: expanding an unset variable ends the shell."""
    allexport: bool = False
    """``set -a`` may be on: functions defined now are exported to child shells."""
    dirs: tuple[str, ...] = ()
    """The ``cd`` targets so far, in order."""
    dir_stack: tuple[tuple[str, ...], ...] = ()
    """What ``pushd`` saved, for ``popd``."""
    functions: Mapping[str, Command] = MappingProxyType({})
    """Functions defined so far, by name: a call runs the definition's body here."""
    exported: frozenset[str] = frozenset()
    """Functions exported to child shells (``export -f``, ``declare -fx``, ``set -a``)."""
    shadowed: frozenset[str] = frozenset()
    """Names redefined by ``hash -p``, ``enable``, ``BASH_CMDS``, or a function that may or may not
    have been defined; ``*`` stands for every name."""
    aliases: frozenset[str] = frozenset()
    """Names defined as aliases (they redefine the name wherever aliases expand)."""
    expand_aliases: bool = True
    """Aliases may expand (the host's shell may enable them; ``bash -c`` does not)."""
    lastpipe: bool = False
    """``shopt -s lastpipe``: the last command of a pipeline may run in this shell."""
    extdebug: bool = False
    """``shopt -s extdebug`` may be on."""
    debug_trap: bool = False
    """A DEBUG trap is set."""
    trap_names: frozenset[str] = frozenset()
    """The commands the traps set so far run (redefining one of them makes its trap harmful)."""
    risk: Reason | None = None
    """The first earlier statement that can end the script before the check decides its status,
    or runs code the analysis cannot read."""
    escape: Reason | None = None
    """A risk that a subshell does not contain (``kill $$`` signals the parent too)."""
    fail_first: Reason | None = None
    """The first earlier statement that can end the script *failing* before the check runs: no
    false pass, but a non-zero status may be its own."""
    posix_sh: bool = False
    """The shell is a POSIX ``sh`` that may not know ``set -o pipefail``."""
    jobs: int = 0
    """Background jobs started so far (-1: unknown): ``wait %1`` is the check's only when none was."""
    ifs_changed: bool = False
    """``IFS`` may have been changed: an unquoted ``exit $rc`` may then be split away."""
    references: bool = False
    """A name may have been made a reference (``declare -n r``): ``r=rc; r=0`` then assigns ``rc``."""
    zeroed: frozenset[str] = frozenset()
    """Variables surely set to a literal ``0`` (``rc=0; check || rc=$?``)."""
    positional: tuple[Word, ...] | None = None
    """The arguments of the function call being followed, for its ``"$@"``; ``None`` elsewhere."""
    path_changed: bool = False
    """``PATH`` was assigned: a program may now be found where the line put one."""
    activated: tuple[str, ...] = ()
    """Virtual environments' activation scripts sourced so far (their files must not be written by
    the line before)."""
    list_base: ShellState | None = None
    """The state before the conditional part of the current ``&&``/``||`` list."""

    def __init__(self, pipefail: bool = False, dirs: tuple[str, ...] = (), posix_sh: bool = False):
        if pipefail:
            self.pipefail = self.maybe_pipefail = True
        if dirs:
            self.dirs = dirs
        if posix_sh:
            self.posix_sh = True

    def copy(self) -> ShellState:
        """The state a subshell, a substitution or a branch starts from."""
        other = object.__new__(ShellState)
        other.__dict__.update(self.__dict__)
        other.list_base = None
        return other

    def assign(self, other: ShellState) -> None:
        """Become ``other`` (its list snapshot excepted)."""
        base = self.list_base
        self.__dict__.clear()
        self.__dict__.update(other.__dict__)
        self.list_base = base

    def redefines(self, name: str) -> bool:
        """Whether ``name`` may not run what its name says: a function, an alias that may expand,
        ``hash -p``, ``enable``."""
        if name in self.functions or name in self.shadowed or _EVERY_NAME in self.shadowed:
            return True
        return self.expand_aliases and name in self.aliases

    def shadow(self, names: frozenset[str] | set[str]) -> None:
        self.shadowed = self.shadowed | names

    def flag(self, found: Reason | None) -> None:
        """Record ``found`` as the risk, unless an earlier one is recorded."""
        if self.risk is None and found is not None:
            self.risk = found

    def absorb(self, child: ShellState) -> None:
        """Keep what a subshell's code did that reaches this shell: a signal to it."""
        if child.escape is not None:
            if self.escape is None:
                self.escape = child.escape
            self.flag(child.escape)

    def maybe(self, base: ShellState) -> None:
        """This state is what some code left, and ``base`` what there was before it: become what
        holds whether the code ran or not (``[ -d api ] && cd api``, an ``if`` branch, a loop)."""
        if self.dirs is not base.dirs and self.dirs != base.dirs:
            known = base.dirs
            self.dirs = (*known, "<maybe " + "/".join(self.dirs[len(known) :]) + ">")
        if self.dir_stack is not base.dir_stack and self.dir_stack != base.dir_stack:
            self.dir_stack = ()
        self.pipefail = self.pipefail and base.pipefail
        self.maybe_pipefail = self.maybe_pipefail or base.maybe_pipefail
        self.errexit = self.errexit and base.errexit
        self.maybe_errexit = self.maybe_errexit or base.maybe_errexit
        if self.functions is not base.functions:
            changed = {name for name in {*self.functions, *base.functions}
                       if self.functions.get(name) is not base.functions.get(name)}
            self.functions = MappingProxyType({n: d for n, d in base.functions.items() if n not in changed})
            self.shadow(changed)  # defined on one path only: a call may run either
        if self.zeroed is not base.zeroed:
            self.zeroed = self.zeroed & base.zeroed
        if self.jobs != base.jobs:
            self.jobs = -1
        self.risk = self.risk or base.risk
        self.escape = self.escape or base.escape
        self.fail_first = self.fail_first or base.fail_first


def word_text(word: Word) -> str:
    """A word's value, or its text when only run time knows it (outer double quotes dropped)."""
    if word.value is not None:
        return word.value
    text = word.text
    if len(text) >= 2 and text[0] == text[-1] == '"':
        return text[1:-1]  # `cd "$DIR"`: show the expansion, not the quoting
    return text


def directory(parts: tuple[str, ...]) -> str | None:
    """Where a sequence of ``cd`` targets leads, relative to the start (``None``: nowhere)."""
    path = ""
    for part in parts:
        piece = part.replace("\\", "/")
        if piece.startswith("<maybe "):
            path = path + "/" + piece if path else piece  # uncertain, but after where we were
        elif piece.startswith(("/", "~", "$", "<")) or _DRIVE.match(piece) or not path:
            path = piece
        else:
            path = path + "/" + piece
    if not path:
        return None
    if "<" in path or ("." not in path and "//" not in path and not path.endswith("/")):
        return path  # nothing for normpath to fold (the common `cd api`)
    normal = posixpath.normpath(path)
    return None if normal == "." else normal
