"""Generators for the exit-attribution classes: shapes that can fake a pass, and honest shapes
that carry the check's status exactly.

Each class is a list of templates around a wrapped check (``{c}``; ``{p}`` is the program a stub
replaces, ``{q}`` the check shell-quoted for a command string). A template may write a small file
in the working directory (``printf 'exit 0\\n' > env.sh``) and read ``input.txt``; it never names
a path outside it except ``/dev/null``, ``/dev/fd/0``, ``/proc/self/fd/0`` and ``/bin/true``, and
it moves only into ``sub`` (or fails to move into ``missing``, which must not exist).
"""

from __future__ import annotations

import re
import shlex

from hypothesis import strategies as st

_FAKE_EXIT = "printf 'exit 0\\n' > env.sh; "


def _before(command: str, prefixes: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(prefix + command for prefix in prefixes)


FALSE_WITNESS: dict[str, tuple[str, ...]] = {
    # A shell fed a here-document or here-string whose text is not what it runs.
    "stdin-expansion": (
        "bash <<EOF\n{c}; exit $?\nEOF", "bash <<EOF\n{c}\nexit ${{PIPESTATUS[0]}}\nEOF",
        "bash <<EOF\n{c}; rc=$?; exit $rc\nEOF", "sh <<EOF\n{c}\nexit `echo $?`\nEOF",
        "bash <<EOF\nstatus=0\n{c} || status=$?\nexit $status\nEOF", "bash <<EOF\n{c}\nexit $(echo 0)\nEOF",
    ),
    "stdin-replaced": (
        "bash <<'EOF' </dev/null\n{c}\nEOF", "bash <<< {q} < /dev/null", "bash -s <<< {q} 0</dev/null",
        "bash -s <<'EOF' 0<input.txt\n{c}\nEOF",
    ),
    "stdin-consumed": (
        "bash <<'EOF'\nread -r line\n{c}\nEOF", "bash <<'EOF'\ncat >/dev/null\n{c}\nexit $?\nEOF",
        "bash <<'EOF'\n{c}\nstatus=$?\nhead -n 1 >/dev/null\nexit $status\nEOF", "sh <<'EOF'\nread x\n{c}\nEOF",
        "bash <<'EOF'\nmapfile -t lines\n{c}\nEOF", "bash -s <<'EOF'\ntail -n 1 >/dev/null\n{c}\nEOF",
    ),
    # Here-document end lines bash does not accept: the check is body text and never runs.
    "heredoc-end": (
        "cat <<EOF > notes.txt\nx\nEOF \n{c}", "cat <<EOF > notes.txt\nx\n EOF\n{c}",
        "cat <<EOF > notes.txt\nx\nEOF\r\n{c}", "cat <<EOF > notes.txt\nx\nEOF\t\n{c}",
        "cat > notes.txt <<'EOF'\nx\nEOF; true\n{c}", "cat <<-EOF > notes.txt\n\tx\n  EOF\n{c}",
        "cat <<'END' > notes.txt\nEND \n{c}\nEND",
    ),
    "trap": (
        "trap -- 'exit 0' EXIT; {c}", "t() {{ exit 0; }}; trap t EXIT; {c}", "a='exit 0'; trap \"$a\" EXIT; {c}",
        "trap 'e\\xit 0' EXIT; {c}", "trap 'ex\"\"it 0' EXIT; {c}", _FAKE_EXIT + "trap '. ./env.sh' EXIT; {c}",
        "trap 'eval \"exit 0\"' EXIT; {c}", "trap '$(echo exit) 0' EXIT; {c}", "trap \"exit $?\" EXIT; {c}",
        "shopt -s extdebug; trap false DEBUG; {c}", "trap false DEBUG; shopt -s extdebug\n{c}",
        "trap 'exit 0' DEBUG; {c}", "trap 'exit 0' ERR; {c}",
        "trap 'echo bye' EXIT; echo() {{ builtin exit 0; }}; {c}",
    ),
    "redefinition": (
        "{p}() {{ :; }}; {c}", "function {p} {{ :; }}; {c}", "function {p}() {{ return 0; }}\n{c}",
        "exit() {{ builtin exit 0; }}; {c}; exit $?",
        "set() {{ :; }}; set -o pipefail; {c} | tee log.txt | tail -1",
        "shopt() {{ :; }}; shopt -so pipefail; {c} | tee log.txt | tail -1",
        "cd() {{ builtin exit 0; }}; cd sub && {c}", "pushd() {{ builtin exit 0; }}; pushd sub && {c}",
        "eval() {{ :; }}; eval {q}", "bash() {{ :; }}; bash -c {q}",
        "sh() {{ :; }}; sh -c {q}", "timeout() {{ :; }}; timeout 300 {c}", "env() {{ :; }}; env CI=1 {c}",
        "nice() {{ :; }}; nice {c}", "command() {{ :; }}; command {c}", "nohup() {{ :; }}; nohup {c}",
        "shopt -s expand_aliases\nalias {p}=true\n{c}", "shopt -s expand_aliases\nBASH_ALIASES[{p}]=true\n{c}",
        "shopt -s expand_aliases\nalias exit=echo\n{c}; exit $?", "hash -p /bin/true {p}; {c}",
        "BASH_CMDS[{p}]=/bin/true; {c}", "enable -n exit; {c} || exit; echo done",
        "{p}() {{ builtin exit 0; }}; export -f {p}; bash -c {q}", "set -a; {p}() {{ builtin exit 0; }}; bash -c {q}",
        _FAKE_EXIT + "BASH_ENV=./env.sh bash -c {q}", _FAKE_EXIT + "export BASH_ENV=./env.sh; bash -c {q}",
        "env SHELLOPTS=noexec bash -c {q}", _FAKE_EXIT + "ENV=./env.sh sh -i -c {q}",
        "printf 'exit 0\\n' > .bashrc; bash -i -c {q}", "printf 'exit 0\\n' > .bash_profile; bash -lc {q}",
        "HOME=. bash -l -c {q}",
        "env BASHOPTS=expand_aliases bash -c {qa}",
        "shopt -s expand_aliases; declare -A BASH_ALIASES=([{p}]=true)\n{c}",
        "declare -A BASH_CMDS=([{p}]=/bin/true); {c}",
    ),
    # The saved status overwritten between saving and re-raising it, by arithmetic a variable's
    # value steers, a reference, or a builtin that assigns the name it is given.
    "status-overwritten": (
        "{c}; rc=$?; test -v rc[rc=0]; exit $rc", "{c}; rc=$?; a[rc=0]=1; exit $rc",
        "{c}; rc=$?; echo ${{a[rc=0]}}; exit $rc", "y='rc=0'; {c}; rc=$?; echo ${{a[y]}}; exit $rc",
        "y='rc=0'; {c}; rc=$?; x=abc; echo ${{x:y}}; exit $rc", "y='rc=0'; {c}; rc=$?; echo $((y)); exit $rc",
        "declare -n r=rc; {c}; rc=$?; r=0; exit $rc", "declare -i x; {c}; rc=$?; x=rc=0; exit $rc",
        "{c}; rc=$?; [[ rc=0 -eq 0 ]]; exit $rc", "y='rc=0'; {c}; rc=$?; [[ $y -eq 0 ]]; exit $rc",
        "{c}; rc=$?; a=([rc=0]=1); exit $rc", "rc=0; {c} || rc=$?; sleep 0 & wait -p rc $!; exit $rc",
        "y=rc=0; {c}; rc=$?; declare $y; exit $rc", "y=rc; {c}; rc=$?; unset \"$y\"; exit $rc",
        "a=(1); y='rc=0'; v='([y]=1)'; {c}; rc=$?; declare a=\"$v\"; exit $rc",
        "typeset -i n=0; y='rc=0'; {c}; rc=$?; n=y; exit $rc", "declare -n r; {c}; rc=$?; r=rc; r=0; exit $rc",
        "declare \"-n\" r; {c}; rc=$?; r=rc; r=0; exit $rc", "o=n; declare -$o r; {c}; rc=$?; r=rc; r=0; exit $rc",
        "typeset -g\"n\" r; {c}; rc=$?; r=rc; r=0; exit $rc", "de$'\\x63'lare -n r; {c}; rc=$?; r=rc; r=0; exit $rc",
        "f() {{ local -\"n\" r; {c}; rc=$?; r=rc; r=0; return $rc; }}; f",
        "y=rc=0; a=(1 2); {c}; rc=$?; echo ${{a[@]:y}}; exit $rc", "y=rc=0; {c}; rc=$?; echo ${{@:y}}; exit $rc",
        "y=rc=0; {c}; rc=$?; echo ${{*:y:1}}; exit $rc", "y='a[rc=0]'; a=(1); {c}; rc=$?; echo ${{!y}}; exit $rc",
        "y=rc=0; a=(1 2); {c}; rc=$?; echo \"${{a[*]:0:y}}\"; exit $rc",
        "y='a[rc=0]'; a=(1); {c}; rc=$?; test -v \"$y\"; exit $rc", "a=(1); {c}; rc=$?; test -v a\"[rc=0]\"; exit $rc",
        "y=rc=0; {c}; rc=$?; for ((i=0; i<y; i++)); do :; done; exit $rc",
        "y=rc; {c}; rc=$?; command unset $y; exit $rc", "y=rc; {c}; rc=$?; command read $y <<< 0; exit $rc",
        "y='$((rc=0))'; {c}; rc=$?; echo ${{y@P}}; exit $rc", "{c}; rc=$?; : <<EOF\n$((rc=0))\nEOF\nexit $rc",
    ),
    # Statements that can end the script, or run code that cannot be read, before the check.
    "unseen-end": (
        "x=exit; $x 0; {c}", "${{X:-exit}} 0; {c}", "$(echo exit) 0; {c}", "cmd='exit 0'; $cmd; {c}",
        "set -n; {c}", "set -o noexec; {c}", "set -n\n{c}", "bash -n -c {q}", "bash -o noexec -c {q}",
        "sh -n -c {q}", "mapfile -C 'exit 0;' -c 1 < input.txt; {c}", "readarray -C 'exit 0;' -c 1 < input.txt; {c}",
        _FAKE_EXIT + "source ./env.sh; {c}", _FAKE_EXIT + ". ./env.sh; {c}", ". /dev/fd/0 <<< 'exit 0'; {c}",
        "source /proc/self/fd/0 <<< 'exit 0'; {c}", "X='exit 0'; eval \"$X\"; {c}", "eval $(echo exit 0); {c}",
        "kill $$; {c}", "kill -9 $$; {c}", "builtin {c}", "time -v {c}", "time -f %e {c}",
        "IFS=12; {c}; rc=$?; exit $rc", "IFS=12; {c} | tee log.txt; exit ${{PIPESTATUS[0]}}",
        "{c}; rc=$?; IFS=12; exit $rc",
    ),
    # pipefail switched off, or switched on where it does not reach this shell (two pass-through
    # consumers: without pipefail the last one's status is reported).
    "pipefail": (*_before("{c} | tee log.txt | tail -1", (
        "set -o pipefail; shopt -u -o pipefail; ", "set -o pipefail; shopt -uo pipefail; ",
        "shopt -so pipefail; set +o pipefail; ", "set -o pipefail; builtin set +o pipefail; ",
        "set -o pipefail; command set +o pipefail; ", "set -o pipefail +o pipefail; ",
        "set -eo pipefail +o pipefail; ", "set -o pipefail -o errexit +o pipefail; ",
        "set -o pipefail; f() {{ set +o pipefail; }}; f; ", "( set -o pipefail ); ", "set -o pipefail & wait; ",
        "set -o pipefail | true; ", "eval 'set -o pipefail' | true; ", "( eval 'set -o pipefail' ); ",
        "{{ set -o pipefail; }} | true; ", "true || set -o pipefail; ", "if false; then set -o pipefail; fi; ",
        "set -o pipefail; if true; then set +o pipefail; fi; ", "false && set -o pipefail && true; ",
        "printf 'set +o pipefail\\n' > p.sh; set -o pipefail; . ./p.sh; ",
        "shopt -s lastpipe; set -o pipefail; true | set +o pipefail; ",
    )), "echo x | {c} | tee log.txt; exit ${{PIPESTATUS[0]}}", "{c} | tee log.txt | tail -1; exit ${{PIPESTATUS[1]}}",
        "{c} | tee log.txt | tail -1; rc=${{PIPESTATUS[1]}}; exit $rc"),
    # Loops and lists that run the check more than once: a failure can be hidden by a later pass.
    "retry": (
        "for i in 1 2 3; do {c} && break; done", "{c} || {c}", "for i in 1 2; do {c}; done",
        "for f in a b; do {c} || continue; done", "if ! {c}; then {c}; fi", "{c} || sleep 0 && {c}",
        "{c}; {c}", "f() {{ {c}; }}; f; f",
    ),
}
"""Shapes that can report 0 for a failed or never-run check (they must never witness)."""

RESIDUAL: dict[str, tuple[str, ...]] = {
    # One pass-through consumer with pipefail off (or not reaching): exactly a reporting pipe.
    "pipefail-residual": _before("{c} | tee log.txt", (
        "set -o pipefail; shopt -u -o pipefail; ", "set -o pipefail; set +o pipefail; ", "( set -o pipefail ); ",
        "set -o pipefail | true; ", "true || set -o pipefail; ", "set -o pipefail; f() {{ set +o pipefail; }}; f; ",
    )),
}
"""Shapes whose status is one pass-through consumer's: a reporting pipe, never ``check``."""

NOT_RUN: dict[str, tuple[str, ...]] = {
    # The check may never run; then the status is another command's failure (never a 0).
    "never-ran": (
        "set -e; cd missing; {c}", "cd missing && {c}", "cd missing || exit 1; {c}", "[ -d missing ] || exit 1; {c}",
        "set -e\nmkdir missing/x\n{c}", "if [ -d missing ]; then {c}; else exit 1; fi", "cd missing && {c} && true",
    ),
    # A consumer that stops reading early kills a passing check with SIGPIPE (141).
    "sigpipe": ("set -o pipefail; {c} | head -n 1", "set -o pipefail; {c} 2>&1 | head -1",
                "{c} | head -1; exit ${{PIPESTATUS[0]}}", "set -eo pipefail; {c} | head -n 2"),
}
"""Shapes that witness a pass but whose failure is not surely the check's."""

HONEST: dict[str, tuple[str, ...]] = {
    "succeeding-tail": (
        "{c} && true", "{c} && :", "{c} && echo ok", "{c} && exit 0", "{c} && printf 'ok\\n'",
        "pushd sub >/dev/null && {c} && popd >/dev/null", "{c} && echo ok && true", "{c} && exit",
    ),
    "saved-status": (
        "{c}; rc=$?; echo \"exit: $rc\"; exit $rc", "rc=0; {c} || rc=$?; echo done; exit $rc",
        "{c} || {{ rc=$?; echo failed >&2; exit $rc; }}",
        "{c} | tee log.txt; rc=${{PIPESTATUS[0]}}; tail -1 log.txt; exit $rc", "{c} | tee log.txt; exit $PIPESTATUS",
        "{c}; status=$?; if [ \"$status\" -ne 0 ]; then echo failed; fi; exit $status",
        "{c}\nrc=$?\nls >/dev/null\nexit \"$rc\"", "{c} || {{ status=$?; exit $status; }}",
        "{c}; rc=$?; declare -a seen; typeset -i n=0; declare -l name=x; exit $rc",
        "declare -a seen; typeset -r name=x; {c}; rc=$?; echo \"$name\"; exit $rc",
        "f() {{ local -a seen; local x=1; {c}; rc=$?; echo \"$x\"; return $rc; }}; f",
        "x=abc; a=(1 2 3); {c}; rc=$?; echo ${{x:1}} ${{a[@]:1:1}} ${{@:1}}; exit $rc",
        "{c}; rc=$?; command -v {p} >/dev/null; command -p echo done; exit $rc",
        "{c}; rc=$?; cat <<'EOF'\n$((rc=0))\nEOF\nexit $rc",
    ),
    "errexit": (
        "set -e; {c}; echo done", "set -euo pipefail; {c} | tee log.txt; echo done", "bash -ec {qd}",
        "set -o errexit\n{c}\nprintf 'done\\n'", "set -e\n{c}\nexit 0", "set -e; {c} || exit $?; echo done",
    ),
    "single-path": (
        "for x in 1; do {c}; done", "for x in once; do {c}; done", "case a in a) {c};; esac",
        "case x in y) echo no;; *) {c};; esac", "if true; then {c}; fi", "if :; then {c}; else echo no; fi",
        "if [ -d sub ]; then {c}; else exit 1; fi", "if [ -f input.txt ]; then {c}; else echo missing >&2; exit 2; fi",
    ),
    "waited": ("{c} & wait $!", "{c} & wait \"$!\"", "{c} & wait %1", "{c} & wait %%", "coproc {c}; wait $COPROC_PID"),
    "pipefail-reaching": (*_before("{c} | tee log.txt | tail -1", (
        "set -o errexit -o pipefail; ", "set -oe pipefail; ", "shopt -so pipefail; ", "shopt -s -o pipefail; ",
        "set -eo pipefail; ", "set -o pipefail -o nounset; ", "set -o pipefail; set -o pipefail +o nounset; ",
        "[ -d sub ] && set -o pipefail && ",
    )), "bash -s -o pipefail <<'EOF'\n{c} | tee log.txt | tail -1\nEOF", "bash -o pipefail -c {qp}",
        "set -o pipefail; eval {qp}"),
    "function-wrapper": (
        "f() {{ {c} \"$@\"; }}; f", "function f {{ {c}; }}; f", "function f() {{ {c}; }}\nf", "run() ( {c} ); run",
        "f() {{ {c}; return $?; }}; f", "check() {{ {c} \"$@\"; }}; echo start; check",
    ),
    "alias-in-bash-c": ("bash -c {qa}", "bash -c {qs}"),
    "unset-function": ("{p}() {{ :; }}; unset -f {p}; {c}", "unset -f {p}; {c}"),
    "harmless-trap": (
        "trap 'rm -f tmp.txt' EXIT; {c}", "trap 'echo bye' EXIT; {c}", "trap 'echo failed >&2' ERR; {c}",
        "trap - EXIT; {c}", "trap '' INT; {c}", "trap 'printf x >/dev/null' DEBUG; {c}",
        "trap 'rm -f tmp.txt' EXIT INT TERM; {c}",
    ),
}
"""Shapes whose status provably is the check's (they must witness)."""


def bare(template: str) -> bool:
    """Whether the check must be a plain one: a word before ``{c}`` makes it an argument (a wrapper's
    command, which takes no assignments or keywords), or the template names the program (``{p}``)."""
    return re.search(r"(?:\w|%\w|-\w) \{c\}", template.replace("then {c}", "").replace("do {c}", "")) is not None \
        or "{p}" in template or "{qa}" in template or "{qs}" in template


def fill(template: str, check: str, program: str) -> str:
    """``template`` around ``check``; ``program`` is the check's program (a stub replaces it)."""
    return template.format(
        c=check, p=program, q=shlex.quote(check), qd=shlex.quote(check + "; echo done"),
        qp=shlex.quote(check + " | tee log.txt | tail -1"),
        qa=shlex.quote(f"alias {program}=true\n{check}"), qs=shlex.quote(f"alias {program}=true; {check}"))


def templates(classes: dict[str, tuple[str, ...]], shape: str | None) -> st.SearchStrategy[tuple[str, str]]:
    """A class name and one of its templates (of ``shape`` only, when it is given)."""
    if shape is not None and shape not in classes:
        raise ValueError(f"unknown shape {shape!r}; one of {', '.join(classes)}")
    pairs = [(name, template) for name, group in classes.items() if shape in (None, name) for template in group]
    return st.sampled_from(pairs)
