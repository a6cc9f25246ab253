"""Exit attribution an agent cannot fool: the rules, shape by shape, without running bash.

Every shape that can report 0 for a failed or never-run check is refused under both policies;
every shape that provably carries the check's status witnesses. test_oracle.py holds the same
classes to real bash.
"""

from __future__ import annotations

import pytest

from shellparse import Analysis, analyze


def verdict(command: str, policy: str = "seed") -> Analysis:
    return analyze(command, "bash", policy, cache=False)


def refused(command: str) -> bool:
    """Neither policy lets the command witness its check."""
    return not verdict(command).witness_eligible and not verdict(command, "strict").witness_eligible


def codes(analysis: Analysis) -> set[str]:
    return {reason.code for reason in analysis.reasons}


# -- here-documents ---------------------------------------------------------------------------

BAD_END_LINES = ["EOF ", " EOF", "EOF\r", "EOF\t", "EOF; true", "EOF)", "\tEOF"]


@pytest.mark.parametrize("end", BAD_END_LINES)
def test_a_here_document_bash_does_not_end_hides_the_check_after_it(end: str) -> None:
    """A here-document end line bash does not accept makes the rest body text: never a witness."""
    command = f"cat <<EOF > notes.txt\nx\n{end}\npytest"
    analysis = verdict(command)
    assert analysis.parse_error is not None and refused(command), analysis.reasons


@pytest.mark.parametrize("command", ["cat <<EOF > notes.txt\nx\nEOF\npytest",
                                     "cat <<-EOF > notes.txt\n\tx\n\t\tEOF\npytest",
                                     "cat <<'END' > notes.txt\nEOF\nEND\npytest", "cat <<EOF > notes.txt\nEOF\npytest"])
def test_a_here_document_that_ends_where_bash_ends_it_keeps_what_follows(command: str) -> None:
    """The exact delimiter line (tabs stripped for <<-) ends the here-document; the check after it witnesses."""
    assert verdict(command).exit_source == "check"


def test_spaces_do_not_indent_a_dash_here_document_end() -> None:
    """`<<-` strips tabs only: an end line indented with spaces is body text."""
    assert verdict("cat <<-EOF > notes.txt\n\tx\n  EOF\npytest").parse_error is not None


# -- scripts a shell reads from standard input ------------------------------------------------

@pytest.mark.parametrize("command", [
    "bash <<EOF\npytest; exit $?\nEOF",  # this shell expands $? first
    "bash <<EOF\npytest\nexit ${PIPESTATUS[0]}\nEOF",
    "bash <<EOF\npytest\nexit `echo 0`\nEOF",
    "bash <<'EOF' </dev/null\npytest\nEOF",  # a later redirect replaces the script
    "bash <<< 'pytest' < /dev/null",
    "bash <<'EOF'\nread -r line\npytest\nEOF",  # the script's own reader swallows the check
    "bash <<'EOF'\ncat >/dev/null\npytest\nexit $?\nEOF",
    "bash <<'EOF'\npytest\nrc=$?\nhead -n 1 >/dev/null\nexit $rc\nEOF",
    "bash <<< \"pytest; exit $?\"",
    "bash 3<<'EOF'\npytest\nEOF",
])
def test_a_stdin_script_that_is_not_what_the_shell_runs_never_witnesses(command: str) -> None:
    """Unquoted delimiters, replaced standard input and readers inside the script are refused."""
    assert refused(command), verdict(command).reasons


@pytest.mark.parametrize("command", [
    "bash <<'EOF'\nset -e\ncd sub\npytest\nEOF", "bash <<\"EOF\"\npytest; exit $?\nEOF", "bash <<\\EOF\npytest\nEOF",
    "bash <<EOF\npytest\nEOF", "bash -s <<'EOF'\npytest\nEOF", "bash -s a b <<'EOF'\npytest\nEOF",
    "bash <<< 'pytest'", "sh <<'EOF'\necho start\npytest\nEOF",
])
def test_a_stdin_script_read_as_written_keeps_the_checks_status(command: str) -> None:
    """A quoted (or expansion-free) here-document fed to a shell is its script, analysed as such."""
    assert verdict(command).exit_source == "check", verdict(command).reasons


# -- traps ------------------------------------------------------------------------------------

@pytest.mark.parametrize("command", [
    "trap -- 'exit 0' EXIT; pytest", "t() { exit 0; }; trap t EXIT; pytest", "trap \"$a\" EXIT; pytest",
    "trap 'e\\xit 0' EXIT; pytest", "trap 'ex\"\"it 0' EXIT; pytest", "trap '. ./x.sh' EXIT; pytest",
    "trap 'eval \"$x\"' EXIT; pytest", "trap '$(echo exit) 0' EXIT; pytest", "trap \"exit $?\" EXIT; pytest",
    "trap 'rc=0' DEBUG; pytest; rc=$?; exit $rc", "shopt -s extdebug; trap false DEBUG; pytest",
    "trap false DEBUG; shopt -s extdebug\npytest", "trap 'exit 0' RETURN; pytest",
    "trap 'echo bye' EXIT; echo() { builtin exit 0; }; pytest", "builtin trap 'exit 0' EXIT; pytest",
    "eval \"trap 'exit 0' EXIT\"; pytest", "f() { trap 'exit 0' EXIT; }; f; pytest",
])
def test_a_trap_that_is_not_plainly_harmless_masks(command: str) -> None:
    """A trap whose action can exit, redefine, skip commands or cannot be read never lets the check witness."""
    assert refused(command), verdict(command).reasons


@pytest.mark.parametrize("command", [
    "trap 'rm -f tmp.txt' EXIT; pytest", "trap 'echo bye' EXIT; pytest", "trap 'echo failed >&2' ERR; pytest",
    "trap - EXIT; pytest", "trap '' INT; pytest", "trap 'printf x' DEBUG; pytest", "trap -p; pytest",
    "(trap 'exit 0' EXIT); pytest",
])
def test_a_harmless_trap_keeps_the_checks_status(command: str) -> None:
    """`echo`, `rm -f`, resets and listings in a trap cannot change the status; a subshell's trap stays there."""
    assert verdict(command).exit_source == "check", verdict(command).reasons


# -- redefinitions ----------------------------------------------------------------------------

@pytest.mark.parametrize("command", [
    "pytest() { :; }; pytest", "function pytest { :; }; pytest", "function pytest() { :; }\npytest",
    "exit() { builtin exit 0; }; pytest; exit $?", "set() { :; }; set -o pipefail; pytest | tee log | tail -1",
    "shopt() { :; }; shopt -so pipefail; pytest | tee log | tail -1", "cd() { builtin exit 0; }; cd sub && pytest",
    "eval() { :; }; eval 'pytest'", "bash() { :; }; bash -c 'pytest'", "timeout() { :; }; timeout 60 pytest",
    "alias pytest=true; pytest", "BASH_ALIASES[pytest]=true; pytest", "hash -p /bin/true pytest; pytest",
    "BASH_CMDS[pytest]=/bin/true; pytest", "enable -n exit; pytest || exit; echo done",
    "command_not_found_handle() { return 0; }; pytest",
    "pytest() { exit 0; }; export -f pytest; bash -c pytest", "set -a; pytest() { exit 0; }; bash -c pytest",
    "BASH_ENV=./x.sh bash -c pytest", "export BASH_ENV=./x.sh; bash -c pytest", "env SHELLOPTS=noexec bash -c pytest",
    "ENV=./x.sh sh -i -c pytest", "env BASHOPTS=expand_aliases bash -c pytest", "bash -i -c pytest",
    "BASH_ENV=./x.sh ./run_tests.sh",
])
def test_a_redefinition_of_anything_the_verdict_relies_on_masks(command: str) -> None:
    """Functions, aliases, hash and enable, and what child shells inherit, never let a redefined name witness."""
    assert refused(command), verdict(command).reasons


@pytest.mark.parametrize("command", [
    "bash -c 'alias pytest=true; pytest'", "pytest() { :; }; unset -f pytest; pytest", "unset -f pytest; pytest",
    "npm() { command npm \"$@\"; }; npm test", "hash -p /bin/true pytest; timeout 5 pytest",
    "alias pytest=true; command pytest",
])
def test_a_name_that_still_runs_its_program_keeps_the_checks_status(command: str) -> None:
    """Aliases are off in `bash -c`, `unset -f` removes a function, `command` and programs skip functions."""
    assert verdict(command).exit_source == "check", verdict(command).reasons


# -- code that cannot be read, ends that cannot be seen ---------------------------------------

@pytest.mark.parametrize("command", [
    "$x 0; pytest", "${X:-exit} 0; pytest", "$(echo exit) 0; pytest", "$cmd; pytest", "set -n; pytest",
    "set -o noexec; pytest", "shopt -so noexec; pytest", "set $opts; pytest", "mapfile -C 'exit 0;' -c 1 < f; pytest",
    "readarray -C cb < f; pytest", "source ./x.sh; pytest", ". .venv/bin/activate x && pytest", ". /dev/fd/0; pytest",
    "source /proc/self/fd/0; pytest", "eval \"$x\"; pytest", "eval $(echo exit 0); pytest", "kill $$; pytest",
    "(kill $$); pytest", "echo $(kill -9 $$); pytest", "time exit 0; pytest", "command exit 0; pytest",
])
def test_code_that_can_end_the_script_unseen_masks(command: str) -> None:
    """A run-time command name, noexec, sourced files, run-time eval and kill of this shell refuse the check."""
    assert refused(command), verdict(command).reasons


@pytest.mark.parametrize("command", ["bash -n -c 'pytest'", "bash -o noexec -c 'pytest'", "sh -n -c pytest",
                                     "builtin pytest", "time -v pytest", "time -f %e pytest", "bash --version"])
def test_a_command_that_runs_no_check_is_not_a_check(command: str) -> None:
    """bash -n runs nothing, `builtin` runs only builtins, bash's `time` keyword takes only -p."""
    assert verdict(command).exit_source is None


# -- pipefail and PIPESTATUS ------------------------------------------------------------------

@pytest.mark.parametrize("command", [
    "set -o pipefail; shopt -u -o pipefail; pytest | tee log | tail -1",
    "set -o pipefail; shopt -uo pipefail; pytest | tee log | tail -1",
    "set -o pipefail; builtin set +o pipefail; pytest | tee log | tail -1",
    "set -o pipefail; command set +o pipefail; pytest | tee log | tail -1",
    "set -o pipefail; time set +o pipefail; pytest | tee log | tail -1",
    "set -o pipefail +o pipefail; pytest | tee log | tail -1",
    "set -eo pipefail +o pipefail; pytest | tee log | tail -1",
    "set -o pipefail; f() { set +o pipefail; }; f; pytest | tee log | tail -1",
    "( set -o pipefail ); pytest | tee log | tail -1", "set -o pipefail & wait; pytest | tee log | tail -1",
    "set -o pipefail | true; pytest | tee log | tail -1", "eval 'set -o pipefail' | true; pytest | tee log | tail -1",
    "{ set -o pipefail; } | true; pytest | tee log | tail -1", "true || set -o pipefail && pytest | tee log | tail -1",
    "if false; then set -o pipefail; fi; pytest | tee log | tail -1",
    "set -o pipefail; if true; then set +o pipefail; fi; pytest | tee log | tail -1",
    "set -o pipefail; for x in 1 2; do set +o pipefail; done; pytest | tee log | tail -1",
    "shopt -s lastpipe; set -o pipefail; true | set +o pipefail; pytest | tee log | tail -1",
    "echo x | pytest | tee log; exit ${PIPESTATUS[0]}", "pytest | tee log | tail -1; exit ${PIPESTATUS[1]}",
])
def test_pipefail_that_does_not_reach_the_shell_does_not_keep_the_status(command: str) -> None:
    """pipefail switched off, or set where it does not reach, leaves two pass-through pipes masked."""
    assert refused(command), verdict(command).reasons


@pytest.mark.parametrize("command", [
    "set -o errexit -o pipefail; pytest | tee log | tail -1", "set -oe pipefail; pytest | tee log | tail -1",
    "shopt -so pipefail; pytest | tee log | tail -1", "shopt -s -o pipefail; pytest | tee log | tail -1",
    "set -o pipefail -o nounset; pytest | tee log | tail -1", "[ -d sub ] && set -o pipefail && pytest | tee log",
    "bash -s -o pipefail <<'EOF'\npytest | tee log | tail -1\nEOF", "set -o pipefail; eval 'pytest | tee log | cat'",
    "pytest | tee log; exit ${PIPESTATUS[0]}", "echo x | pytest | tee log; exit ${PIPESTATUS[1]}",
])
def test_pipefail_that_reaches_the_shell_keeps_the_status(command: str) -> None:
    """Grouped options, several -o, shopt -so and a static eval all switch pipefail on where it counts."""
    assert verdict(command).exit_source == "check", verdict(command).reasons


def test_a_single_pipe_without_pipefail_is_a_reporting_pipe_again() -> None:
    """pipefail switched off leaves one pass-through pipe a reporting pipe: strict refuses it, never `check`."""
    analysis = verdict("set -o pipefail; set +o pipefail; pytest | tee log")
    assert analysis.exit_source == "reporting-pipe"
    assert not verdict("set -o pipefail; set +o pipefail; pytest | tee log", "strict").witness_eligible


# -- honest shapes ----------------------------------------------------------------------------

HONEST = [
    ("pytest && true", "always-succeeds"), ("pytest && :", "always-succeeds"), ("pytest && echo ok", "always-succeeds"),
    ("pytest && exit 0", "always-succeeds"), ("pytest && printf 'ok\\n'", "always-succeeds"),
    ("pushd sub >/dev/null && pytest && popd >/dev/null", "always-succeeds"),
    ("pytest; rc=$?; echo \"exit: $rc\"; exit $rc", "saved-status"),
    ("rc=0; pytest || rc=$?; echo; exit $rc", "saved-status"),
    ("pytest || { rc=$?; echo failed >&2; exit $rc; }", "failure-exit"),
    ("pytest | tee log; rc=${PIPESTATUS[0]}; tail -1 log; exit $rc", "saved-status"),
    ("pytest | tee log; exit $PIPESTATUS", "exit-propagation"),
    ("pytest; status=$?; if [ \"$status\" -ne 0 ]; then echo failed; fi; exit $status", "saved-status"),
    ("set -e; pytest; echo done", "errexit"), ("set -euo pipefail; pytest | tee log; echo done", "errexit"),
    ("bash -ec 'pytest; echo done'", "errexit"), ("pytest || exit $?; echo done", "always-succeeds"),
    ("for x in 1; do pytest; done", "single-path"), ("case a in a) pytest;; esac", "single-path"),
    ("case x in y) echo no;; *) pytest;; esac", "single-path"), ("if true; then pytest; fi", "single-path"),
    ("if [ -d sub ]; then pytest; else exit 1; fi", "single-path"),
    ("pytest & wait $!", "waited"), ("pytest & wait %1", "waited"), ("coproc pytest; wait $COPROC_PID", "waited"),
    ("f() { pytest \"$@\"; }; f", "function-call"), ("function f { pytest; }; f", "function-call"),
    ("f() { pytest; return $?; }; f", "function-call"),
]


@pytest.mark.parametrize(("command", "code"), HONEST)
def test_a_shape_that_carries_the_status_witnesses(command: str, code: str) -> None:
    """Succeeding tails, saved and re-raised status, set -e, one-path compounds, wait, wrapping functions."""
    analysis = verdict(command)
    assert analysis.exit_source == "check" and analysis.witness_eligible, analysis.reasons
    assert code in codes(analysis), analysis.reasons


@pytest.mark.parametrize("command", [
    "pytest; rc=$?; rc=0; exit $rc", "pytest; rc=$?; unset rc; exit $rc", "pytest; rc=$?; echo $((rc=0)); exit $rc",
    "pytest; rc=$?; read rc < f; exit $rc", "pytest; rc=$?; for rc in 0; do :; done; exit $rc",
    "pytest; rc=$?; x=$((rc=0)); exit $rc", "pytest; rc=$?; rc+=0; exit $rc",
    "f() { rc=0; }; pytest; rc=$?; f; exit $rc",
    "pytest; rc=$?; trap 'exit 0' EXIT; exit $rc", "pytest; rc=$?; true && exit $rc", "pytest; RC=$?; exit $rc",
    "pytest || { rc=$?; exit 0; }", "pytest || { echo failed; exit $?; }", "pytest || exit $?; exit 3",
    "set -e; pytest && true; echo done", "set -e; cd missing && pytest; echo done",
    "set -e; { pytest; echo x; } && true",
    "set -e; f() { pytest; echo x; }; f && true", "rc=5; pytest || rc=$?; exit $rc",
])
def test_a_shape_that_can_lose_the_status_on_the_way_masks(command: str) -> None:
    """Anything between the save and the re-raise that can change it, or a tail that can fail, masks."""
    assert refused(command), verdict(command).reasons


@pytest.mark.parametrize("command", [
    "set -e; pytest; false", "set -eu; pytest; echo \"$UNSET\"", "pytest && echo ok > report.txt",
    "pytest && echo \"$(date)\"",
])
def test_a_tail_that_runs_only_after_a_pass_and_can_fail_masks_only_a_failure(command: str) -> None:
    """A tail that can fail but runs only after a pass: a zero still proves the pass, a non-zero is no failure of it."""
    for policy in ("seed", "strict"):
        analysis = verdict(command, policy)
        assert analysis.exit_source == "masked" and analysis.witness_eligible, analysis.reasons
        assert not analysis.failure_attributable and not any(check.failure_eligible for check in analysis.checks)


@pytest.mark.parametrize("command", [
    "for i in 1 2 3; do pytest && break; done", "pytest || pytest", "for i in 1 2; do pytest; done",
    "if ! pytest; then pytest; fi", "pytest; pytest", "f() { pytest; }; f; f", "for f in *.py; do pytest; done",
    "if [ -d missing ]; then pytest; fi", "case $x in a) pytest;; esac", "case x in y) pytest;; esac",
    "case a in a) pytest;& b) echo;; esac", "pytest & wait", "pytest & sleep 1; wait $!",
])
def test_a_retry_or_a_path_that_may_skip_the_check_masks(command: str) -> None:
    """A later run can hide a failure, and a branch or arm that may not run the check can report 0."""
    assert refused(command), verdict(command).reasons


# -- failure attribution ----------------------------------------------------------------------

@pytest.mark.parametrize(("command", "attributable"), [
    ("pytest", True), ("cd sub; pytest", True), ("pytest; exit $?", True), ("set -o pipefail; pytest | tee log", True),
    ("cd missing && pytest", False), ("npm ci && npm test", False), ("true && pytest", True),
    ("cd missing || exit 1; pytest", False), ("set -e; cd missing; pytest", False), ("set -e; pytest", True),
    ("if [ -d sub ]; then pytest; else exit 1; fi", False), ("set -o pipefail; pytest | head -5", False),
    ("pytest | head -1; exit ${PIPESTATUS[0]}", False), ("pytest | tail -5", False), ("pytest || true", False),
    ("pushd sub; pytest && popd", False), ("pytest && echo ok", True),
])
def test_a_failure_is_the_checks_only_when_nothing_else_can_fail_first(command: str, attributable: bool) -> None:
    """`failure_attributable` is false wherever the check may not have run, or a pass can die of SIGPIPE."""
    analysis = verdict(command)
    assert analysis.failure_attributable is attributable, analysis.reasons
    assert analysis.to_dict()["failure_attributable"] is attributable
    assert all(check.failure_attributable is check.to_dict()["failure_attributable"] for check in analysis.checks)


def test_a_pass_through_consumer_that_stops_early_says_so() -> None:
    """`| head` under pipefail still witnesses a pass, with a note that a failure may be SIGPIPE's."""
    analysis = verdict("set -o pipefail; pytest | head -n 5")
    assert (analysis.exit_source, analysis.witness_eligible) == ("check", True)
    assert "sigpipe" in codes(analysis)
