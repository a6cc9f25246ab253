"""The constructs the differential fuzzer (:func:`shellparse.strategies.fuzzed_commands`) composes
around a check: the shapes that carry the check's status (the proven set, and the honest
neighbours of each danger) and the constructs outside that set, one class per danger.

A template holds placeholders for the parts it is composed with:

``{s}``
    the check inside a status-carrying shape (``pytest -q; rc=$?; echo done; exit $rc``);
``{c}``
    the check with its env prefixes, wrappers and redirect (``CI=1 timeout 300 pytest -q 2>&1``);
``{b}``
    the bare check (``pytest -q``): a word or assignment goes in front of it;
``{p}``
    the program a stub replaces (``pytest``, ``npx`` for ``npx jest``);
``{q}``
    ``{s}`` shell-quoted, for a command string; ``{qe}`` the same followed by ``; exit $?``;
``«…»``
    the text between the marks, filled and then shell-quoted (``sh -c «{b} &>/dev/null»``).

Every template stays in the working directory: it writes only there (``notes.txt``, ``bin/``,
``.bash_profile`` …), reads ``input.txt``, moves only into ``sub``, and names no absolute path
but ``/dev/null``, ``/dev/stdin``, ``/dev/fd/0``, ``/proc/self/fd/0`` and ``/bin/true``.
"""

from __future__ import annotations

import re
import shlex
from typing import NamedTuple

from ._vocabulary import CheckKind

_PLACEHOLDER = re.compile(r"\{(s|c|b|p|qe|q)\}")
_QUOTED = re.compile(r"«([^«»]*)»")


class Parts(NamedTuple):
    """What a template is filled with."""

    shaped: str
    core: str
    bare: str
    program: str


def compose(template: str, parts: Parts) -> str:
    """``template`` with its placeholders replaced (braces of the shell are left alone)."""
    values = {"s": parts.shaped, "c": parts.core, "b": parts.bare, "p": parts.program,
              "q": shlex.quote(parts.shaped), "qe": shlex.quote(parts.shaped + "; exit $?")}
    text = _PLACEHOLDER.sub(lambda match: values[match.group(1)], template)
    while True:  # innermost marks first, so that a quoted string may hold another
        quoted = _QUOTED.sub(lambda match: shlex.quote(match.group(1)), text)
        if quoted == text:
            return text
        text = quoted


class Shape(NamedTuple):
    """A way to carry the check's status to the line's exit status."""

    templates: tuple[str, ...]
    """Templates around ``{c}``."""
    reporting: bool = False
    """The status passes one pass-through consumer without pipefail: a reporting pipe."""


SHAPES: dict[str, Shape] = {
    "plain": Shape(("{c}",)),
    "succeeding-tail": Shape(("{c} && true", "{c} && echo ok", "{c} && :")),
    "exit-status": Shape(("{c}; exit $?", "{c} || exit", "{c} || exit $?", "{c}\nexit $?", "{c}; exit $? >/dev/null",
                          '{c}; exit "$?" 2>&1')),
    "saved-status": Shape((
        '{c}; rc=$?; echo "exit: $rc"; exit $rc', "rc=0; {c} || rc=$?; echo done; exit $rc",
        "{c} || { rc=$?; echo failed >&2; exit $rc; }", "{c} && rc=0 || rc=$?; exit $rc",
        '{c}; status=$?; if [ "$status" -ne 0 ]; then echo failed; fi; exit $status',
    )),
    "exit-arithmetic": Shape(("{c}; exit $(( $? ))",)),
    "if-else-exit": Shape(("if {c}; then :; else exit $?; fi",)),
    "errexit": Shape(("set -e; {c}; echo done", "set -e\n{c}\nexit 0", 'set -e; out=$({c}); echo "$out"')),
    "waited": Shape(("{c} & wait $!", "{c} & pid=$!; wait $pid", "{c} & wait -n", "{c} & wait %1")),
    "pipefail": Shape(("set -o pipefail; {c} | tee log.txt", "set -euo pipefail; {c} 2>&1 | tail -5",
                       "set -o pipefail; {c} | tee log.txt | tail -1")),
    "pipestatus": Shape(("{c} | tee log.txt; exit ${PIPESTATUS[0]}",
                         "{c} 2>&1 | tail -5; rc=${PIPESTATUS[0]}; exit $rc")),
    "reporting-pipe": Shape(("{c} | tee log.txt", "{c} 2>&1 | tail -20", "{c} |& tee log.txt"), reporting=True),
    "one-path": Shape(('case "$CI" in *) {c};; esac', "for x in 1; do {c}; done", "if true; then {c}; fi")),
    "function": Shape(("f() { {c}; }; f", 'run() { {c} "$@"; }; run')),
}
"""Status-carrying shapes of the proven set (docs/shellparse.md, "Exit attribution")."""

PRELUDES: dict[str, tuple[str, ...]] = {
    "separator": ("echo start; ", "true && ", "ls >/dev/null\n", "[ -d node_modules ] || echo missing; ",
                  "printf 'x\\n' > notes.txt; ", "mkdir -p build && "),
    "assignment": ("export CI=1; ", "CI=1; ", "unset FOO; "),
    "move": ("cd sub && ", "cd sub; ", "cd sub || exit 1; "),
    "activate": ("source .venv/bin/activate && ", ". .venv/bin/activate; "),
    "comment": ("echo start # ; exit 0\n", "echo start\t# ; exit 0\n"),
    "xtrace-literal": ("set -x; ", "PS4='+ '; set -x; "),
    "shopt-inert": ("shopt -s nullglob; ", "shopt -s globstar\n"),
    "trap-writes-file": ("trap 'echo bye >> log.txt' EXIT; ", "trap 'echo failed >&2' ERR; ", "trap - EXIT; ",
                         "trap '' INT; "),
    "path-not-written": ('export PATH="$HOME/.local/bin:$PATH"; ',),
}
"""Statements before the check that leave its status alone: the proven set and the honest
neighbours of the dangers below (a trap whose body only writes, ``set -x`` with a literal ``PS4``)."""

CONTAINERS: dict[str, tuple[str, ...]] = {
    "subshell": ("( {s}\n)",),
    "group": ("{ {s}\n}",),
    "command-string": ("bash -c {q}",),
    "function-body": ("run() {\n{s}\n}\nrun",),
}
"""Containers that pass their content's status on."""

NEIGHBOURS: dict[str, tuple[str, ...]] = {
    "env-i": ('env -i PATH="$PATH" HOME="$HOME" {b}',),
    "flock": ("flock .lock {b}",),
    "script": ("script -qec {q} /dev/null",),
    "login-shell": ("bash -lc {q}", "bash --login -c {q}"),
    "stdin-script": ("bash <<'EOF'\necho start\n{s}\nEOF", "bash -s <<'EOF'\nls >/dev/null\n{s}\nEOF"),
    "heredoc-quoted": ("cat <<'EOF' > notes.txt\nline \\\nEOF\n{s}", "cat <<\\EOF > notes.txt\nx\\\nEOF\n{s}"),
    "written-elsewhere": ("mkdir -p bin && printf 'x\\n' > bin/notes.txt; {s}",
                          "printf 'echo hi\\n' > notes.sh; {s}"),
    "trap-signals": ("trap 'echo stop >> log.txt' INT TERM HUP; {s}", "trap 'echo bye >> log.txt' 0; {s}"),
    "job-own": ("( true & ); {c} & wait %1",),
    "nested-bash": ("bash -c {q} --", "bash -ec {q}", "bash -c {q} _ arg"),
    "nested-posix": ("sh -c «{b} > out.log 2>&1; exit $?»", "sh -c «set -e; {b}; echo done»",
                     "sh <<'EOF'\n{b} 2>&1\nEOF", "sh -c «{b} & wait $!»"),
    "wrapper-words": ('run() { "$@"; }; run {b}', 'env FOO="$HOME/x" {b}', 'nice -n 5 {b}'),
    "nounset": ('set -u; {c}; rc=$?; echo "exit: $rc"; exit $rc', "set -u; {s}"),
    "stdin-written": ("printf 'x\\n' > in.txt; bash <<'EOF'\ncat in.txt >/dev/null\n{s}\nEOF",),
}
"""Honest neighbours of the dangers: shapes that carry the status, built like a danger but
without what makes it one (inside the proven set: the analysis should accept them)."""


class Danger(NamedTuple):
    """A construct outside the proven set, and why it can decide the exit status."""

    cause: str
    """One line: how bash lets the construct decide the status."""
    templates: tuple[str, ...]


_WINDOW = "{c}; rc=$?; echo done; exit $rc"
"""A saved-status window: a construct around it may assign ``rc`` before ``exit $rc``."""


def _window(*prefixes: str) -> tuple[str, ...]:
    return tuple(prefix + _WINDOW for prefix in prefixes)


def _login(writes: tuple[str, ...], shells: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(f"{write}; {shell}" for write in writes for shell in shells)


_EXIT_0 = "printf 'exit 0\\n'"
_FAKE = "printf '#!/bin/sh\\nexit 0\\n'"

DANGERS: dict[str, Danger] = {
    "exit-redirect": Danger("a redirect on exit/return that fails: bash does not exit and the next line decides", (
        "{c}; exit $? >nodir/x; exit 0", "{c}; exit $? 2>nodir/x\nexit 0", "{c}; exit $? <missing.txt; true",
        "{c} || exit $? >&7; echo done", '{c}; rc=$?; echo "rc=$rc"; exit $rc >nodir/x; exit 0',
        "f() { {c}; return $? >nodir/x; true; }; f", "{c} || exit >nodir/x; :",
        '{c}; exit "$?" 2>&1 >nodir/x\necho done',
    )),
    "trap-window": Danger("a trap firing between saving and re-raising the status assigns it (builtin option, "
                          "arithmetic, subscript)", (
        *_window("trap 'printf -v rc %s 0' DEBUG; ", "trap ': $((rc=0))' DEBUG; ", "trap 'a[rc=0]=1' DEBUG; ",
                 "trap 'let rc=0' DEBUG; ", "trap 'declare rc=0' DEBUG; ", "trap 'test -v a[rc=0]' DEBUG; ",
                 "trap 'read -r rc < input.txt' DEBUG; ", "trap 'rc=0' CHLD; ", "trap 'printf -v rc 0' ERR; "),
        "set -T; trap 'rc=0' RETURN; f() { :; }; {c}; rc=$?; f; exit $rc",
        "{c}; rc=$?; trap 'rc=0' DEBUG; echo done; exit $rc", "trap 'rc=0' CHLD; {c}; rc=$?; sleep 0; exit $rc",
        "{c}; rc=$?; trap 'rc=0' ERR; false; exit $rc", "trap 'rc=0' USR1; {c}; rc=$?; kill -USR1 $$; exit $rc",
        "{c}; rc=$?; trap 'printf -v rc 0' RETURN; f() { :; }; f; exit $rc",
    )),
    "trap-signal": Danger("a trap on CHLD, RETURN (with functrace), ERR (with errtrace), a signal the line sends, "
                          "or EXIT spelt another way ends the shell with 0", (
        "trap 'exit 0' CHLD; {s}", "trap 'exit 0' SIGCHLD; {s}", "trap 'exit 0' 17; {s}", "trap 'exit 0' 0; {s}",
        "trap 'exit 0' exit; {s}", "trap \"exit 0\" EXIT; {s}", "trap $'exit 0' EXIT; {s}", "trap 'exit 0' 'EXIT'; {s}",
        "set -T; trap 'exit 0' RETURN; f() { {c}; }; f", "set -o functrace; trap 'exit 0' RETURN; f() { {c}; }; f",
        "set -E; trap 'exit 0' ERR; f() { {c}; }; f", "trap 'exit 0' USR1; {c}; rc=$?; kill -USR1 $$; exit $rc",
        "trap 'exit 0' CHLD INT; {s}", "trap -- 'exit 0' CHLD; {s}",
    )),
    "xtrace-ps4": Danger("set -x with a PS4 whose expansion assigns the saved status (set earlier, or ANSI-C quoted)", (
        *_window("PS4='$((rc=0))'; set -x; ", "set -x; PS4='+$((rc=0)) '; ", "PS4=$'\\x24((rc=0))'; set -x; ",
                 "PS4='${a[rc=0]}'; set -o xtrace; ", "set -x; PS4='$(( rc = 0 ))'; "),
        "set -x; {c}; rc=$?; PS4='$((rc=0))'; echo done; exit $rc",
        "export PS4='$((rc=0))'; bash -xc «{b}; rc=$?; echo done; exit $rc»",
    )),
    "shopt-options": Danger("shopt with arguments sets shell options (extdebug, expand_aliases, noexec) that change "
                            "what runs", (
        "shopt -s extdebug; trap false DEBUG; {s}", "shopt -qs extdebug; trap false DEBUG; {s}",
        "shopt -s nullglob extdebug; trap false DEBUG; {s}", "shopt -s -q extdebug\ntrap 'return 1' DEBUG\n{s}",
        "shopt -s expand_aliases\nalias {p}=true\n{s}", "shopt -qs expand_aliases\nalias {p}=true\n{s}",
        "shopt -s nullglob expand_aliases\nalias {p}=true\n{s}", "shopt -so noexec; {s}", "shopt -os noexec; {s}",
        "shopt -s -o noexec; {s}",
    )),
    "job-spec": Danger("wait %N, %%, %+, %- or %name names another job than the check's", (
        "true & {c} & wait %1", "sleep 0 & {c} & wait %1", "{c} & true & wait %%", "{c} & true & wait %+",
        "true & {c} & wait %-", "true & {c} & wait %true", "echo x & {c} & wait %ech", "true & {c} & wait %?ru",
        "true & wait; {c} & wait %2",
    )),
    "option-cluster": Danger("an option cluster or attached option value changes what runs or that nothing runs", (
        "hash -p/bin/true {p}; {s}", "hash -rp /bin/true {p}; {s}", "env -S'true' {b}", "env -Strue {b}",
        "env -uFOO -S'true' {b}", "env --split-string=true {b}", "bash -nc {q}", "bash -enc {q}", "sh -nc {q}",
        "bash -vnc {q}", "set -vn; {s}", "set -en; {s}", "set -nv\n{s}",
    )),
    "stdin-reader": Danger("a script fed to a shell on stdin has a line that reads stdin, swallowing the check", (
        *(f"bash <<'EOF'\n{reader}\n{{s}}\nEOF" for reader in (
            "command read x", "builtin read x", "read -u0 x", "read -u 0 x", "builtin mapfile -n1 x",
            "command readarray -n1 x", "head -c1 /dev/stdin >/dev/null", "cat /dev/stdin >/dev/null",
            "cat /dev/fd/0 >/dev/null", "cp /dev/stdin copy.txt", "sort - >/dev/null", "wc -l - >/dev/null",
            "exec 3<&0; cat <&3 >/dev/null", "cat <&0 >/dev/null", "x=$(cat)", 'echo "$(head -n1)" >/dev/null',
            "date -f - >/dev/null", "trap 'read x' DEBUG", "tee copy.txt >/dev/null", 'x=$(</dev/stdin)',
            "cat /dev/./stdin >/dev/null", "ln -s /dev/stdin in.txt; cat in.txt >/dev/null",
        )),
        "bash -s <<'EOF'\ncommand read x\n{s}\nEOF", "sh <<'EOF'\ncommand read x\n{s}\nEOF",
        "ln -sf /dev/stdin in.txt; bash <<'EOF'\ncat in.txt >/dev/null\n{s}\nEOF",
    )),
    "heredoc-continuation": Danger("a body line ending in a backslash before an unquoted here-document delimiter (bash "
                                   "joins them and reads on), or a delimiter quoted in part: the check is body text", (
        "cat <<EOF > notes.txt\nline \\\nEOF\n{s}\nEOF", "cat > notes.txt <<EOF\n\\\nEOF\n{s}\nEOF",
        "cat <<END >/dev/null\nx\\\nEND\n{s}\nEND", "cat <<-EOF > notes.txt\n\tx\\\n\tEOF\n{s}\nEOF",
        "cat <<\"EOF\"x > notes.txt\nEOF\n{s}\nEOFx",
    )),
    "control-character": Danger("\\f, \\v or \\r before # is not blank to bash: no comment starts, what follows "
                                "runs", (
        "{s}; \f# ; exit 0", "{s}; \v# ; exit 0", "{s}; \r# ; exit 0", "{b} \f# || exit 0", "{b} \v# || exit 0",
        "echo start\f# ; exit 0\n{s}", "echo start\v# ; exit 0\n{s}", "echo start\r# ; exit 0\n{s}",
    )),
    "comment-word": Danger("a # inside a word starts no comment: what follows runs", (
        "{b} a#; exit 0", "{b} \\#; exit 0", '{b} ""#; exit 0', "{b} $#; exit 0", "{b} ${#}; exit 0",
        "echo x#; exit 0\n{s}",
    )),
    "login-startup": Danger("a startup or logout file for a login shell written in the same line, by any spelling", (
        *_login((f"{_EXIT_0} > '.bash_profile'", f"{_EXIT_0} > \".bash_profile\"", f"{_EXIT_0} > .bash\\_profile",
                 f"{_EXIT_0} > ./.bash_profile", f"{_EXIT_0} > ~/.bash_profile", f"{_EXIT_0} > \"$HOME/.profile\"",
                 f"{_EXIT_0} | tee .bash_{{profile,login}} >/dev/null", f"{_EXIT_0} > .bash_login",
                 f"{_EXIT_0} >> .profile", f"{_EXIT_0} > x.sh; cp x.sh .profile"),
                ("bash -lc {q}", "bash --login -c {q}", "exec -l bash -c {q}", "exec -a -bash bash -c {q}",
                 "sh -lc {q}")),
        *_login((f"{_EXIT_0} > .bash_logout",), ("bash -lc {qe}", "exec -l bash -c {qe}")),
    )),
    "program-created": Danger("the same line puts a program where the check's is found (a PATH prefix to a "
                              "directory it wrote, a link, a copy)", (
        f"mkdir -p bin && {_FAKE} > bin/{{p}} && chmod +x bin/{{p}}; PATH=bin:$PATH {{b}}",
        f"mkdir -p bin; {_FAKE} > bin/{{p}}; chmod 755 bin/{{p}}; export PATH=\"$PWD/bin:$PATH\"; {{s}}",
        "mkdir -p bin && ln -s /bin/true bin/{p} && PATH=./bin:$PATH {b}",
        "mkdir -p bin; cp /bin/true bin/{p}; PATH=\"$(pwd)/bin:$PATH\"; {s}",
        "mkdir -p bin; ln -sf /bin/true bin/{p}; export PATH=bin${PATH:+:$PATH}; {s}",
        f"mkdir -p .venv/bin; {_FAKE} > .venv/bin/{{p}}; chmod +x .venv/bin/{{p}}; . .venv/bin/activate; {{s}}",
        f"{_EXIT_0} > .venv/bin/activate; . .venv/bin/activate; {{s}}",
        "mkdir -p bin; ln -s /bin/true bin/{p}; hash -p bin/{p} {p}; {s}",
        f"mkdir -p bin && {_FAKE} > bin/timeout && chmod +x bin/timeout; PATH=bin:$PATH timeout 60 {{b}}",
        f"mkdir -p bin; {_FAKE} > bin/bash; chmod +x bin/bash; PATH=\"$PWD/bin:$PATH\" bash -c «{{b}}»",
        "mkdir -p bin; ln -sf /bin/true bin/env; export PATH=bin:$PATH; env CI=1 {b}",
    )),
    "status-expansion": Danger("the re-raised status goes through an expansion that can change it", (
        "{c}; exit ${?:+0}", "{c}; exit ${?/1/0}", "{c}; rc=$?; exit ${rc/1/0}", "{c}; rc=$?; exit ${rc:+0}",
        "{c}; rc=$?; exit ${rc%1}", "{c}; exit $(( $? >> 1 ))", "{c}; exit $(( $? > 1 ))",
        "{c}; rc=$?; exit $((rc-rc))", "{c} | tee log.txt; exit ${PIPESTATUS[0]:+0}", "X=a; {c}; exit $? $X\ntrue",
    )),
    "wrapper-expansion": Danger("an expansion in a wrapper's words can name the command it runs", (
        "E=true; env $E {b}", "N='0 true'; nice -n $N {b}", "T='1 true'; timeout $T {b}", 'a=(true); env "${a[@]}" {b}',
        'set -- true; "$@" {b}', "w=true; command $w {b}", "X='x true'; env FOO=$X {b}",
        "T=--preserve-status; timeout $T 60 {b}", "SHELL=/bin/true script -qec «{b}» /dev/null",
        'run() { set -- true; "$@" {b}; }; run',
    )),
    "quoted-builtin": Danger("a quoted or escaped exit before the check ends the shell with 0", (
        '"exit" 0; {s}', "e'x'it 0; {s}", "$'exit' 0; {s}", "\\exit 0; {s}", "ex\\\nit 0; {s}", "e\"\"xit 0\n{s}",
    )),
    "nested-dialect": Danger("a command string run by sh (dash), which reads bash syntax otherwise (&> backgrounds, "
                             "${PIPESTATUS[0]} is an error)", (
        "sh -c «{b} &>/dev/null»", "sh -c «{b} &> out.log»", "sh -c «{b} &>/dev/null; exit $?»",
        "bash -c «sh -c «{b} &>/dev/null»»", "sh -c «{b} |& tee log.txt»",
        "sh -c «{b} | tee log.txt; exit ${PIPESTATUS[0]}»", "sh -c «{b} | tee log.txt; exit $PIPESTATUS»",
        "script -qec «{b} &>/dev/null» /dev/null", "sh -c «{b} & wait -n»", "sh <<'EOF'\n{b} &>/dev/null\nEOF",
        "bash -c «bash -c «sh -c «{b} &> out.log»»»",
    )),
    "set-options": Danger("a shell option that ends the shell before the check or changes what runs", (
        "set -t; echo start; {s}", "set -t\n{s}", "set -o onecmd; {s}", "set -k; {s}",
        "set -o posix; {s}", "set -u; {c}; rc=$?; echo $undefined; exit $rc",
        "set -u; echo $undefined; {s}", 'set -u; {b} "$UNSET"', "bash -uc «{c}; rc=$?; echo $x; exit $rc»",
    )),
    "ignored-errexit": Danger("a function's set -e is ignored where the call is tested: the check's failure goes on", (
        "f() { set -e; {c}; echo done; }; f || exit 1; exit 0", "f() { set -e; {c}; echo done; }; if f; then :; fi",
    )),
}
"""Constructs outside the proven set, one class each (the class names are
:data:`shellparse.strategies.FUZZ_SHAPES`)."""


REAL_TARGETS: dict[str, CheckKind] = {"test": "test", "check": "test", "lint": "lint"}
"""The make targets and package scripts the project defines, which a real-program template may
name (``{t}``), with their check kind."""
REAL_ABSENT: dict[str, CheckKind] = {"typecheck": "typecheck", "build": "build"}
"""Package scripts the project does not define, which a template may name (``{u}``)."""
REAL_BODY = "check-body"
"""The program the project's Makefile targets, package scripts and test module run: the stub that decides."""

REAL_DANGERS: dict[str, Danger] = {
    "force-success": Danger("an option, or the variable carrying options, makes the check exit 0 whatever its body "
                            "does, or run no test", (
        "make -i {t}", "make --ignore-errors {t}", "make -ik {t}", "make -ki {t}", "MAKEFLAGS=-i make {t}",
        "make {t} -i", "make -i -j2 {t}", "pytest --co", "pytest --collect-only -q", "pytest --setup-plan",
        "pytest --setup-only", "pytest --fixtures", "pytest --version", "PYTEST_ADDOPTS=--co pytest",
        "pytest -p no:python", "pytest -qh", "pytest -o addopts=--co", "pytest --markers", "pytest --cache-show",
        "pytest --fixtures-per-test", "npm run {u} --if-present", "npm run --if-present {u}",
        "npm_config_if_present=true npm run {u}",
    )),
    "config-created": Danger("the same line writes what the check reads at start-up (Makefile, conftest.py, .npmrc, "
                             "pytest.ini): a write before the check to anything it reads", (
        "printf 'test:\\n\\t@:\\ncheck:\\n\\t@:\\nlint:\\n\\t@:\\n' > GNUmakefile; make {t}",
        "printf '.IGNORE:\\n' >> Makefile; make {t}", "export MAKEFLAGS=i; make {t}",
        "printf 'import os\\nos._exit(0)\\n' > conftest.py; pytest",
        "printf '[pytest]\\naddopts = --co\\n' > pytest.ini; pytest",
        "printf '[tool.pytest.ini_options]\\naddopts = \"--co\"\\n' > pyproject.toml; pytest",
        "printf 'collect_ignore = [\"tests\"]\\n' > conftest.py; pytest",
        "printf '{\"scripts\": {\"{t}\": \"true\"}}\\n' > package.json; npm run {t}",
        "printf 'if-present=true\\n' > .npmrc; npm run {u}",
    )),
}
"""Dangers only a real program shows (a stub ignores options and configuration): ``{t}`` is a
make target or package script the project defines, ``{u}`` a package script it does not."""

REAL_NEIGHBOURS: tuple[str, ...] = ("make {t}", "make -s {t}", "make -j2 {t}", "make -k {t}", "pytest -x",
                                    "pytest -q tests", "printf 'x\\n' > notes.txt; make {t}", "npm run {t}",
                                    "npm run {t} --silent", "npm run {t} --if-present")
"""Honest neighbours of the real-program dangers."""
