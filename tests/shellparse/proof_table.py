"""The table of shapes that carry a check's exit status, as data: each row's honest instances and
the neighbours it refuses. ``docs/shellparse.md`` shows the table; ``test_proof_table.py`` runs
every row under real bash (:mod:`tests.shellparse.proof_sandbox`).

The check is ``pytest`` (the sandbox's stub) unless a row names a real tool.
"""

from __future__ import annotations

from typing import NamedTuple

from tests.shellparse.proof_cases import MAKEFILE, PYTEST_PROJECT, RUFF_PROJECT, SLOW_SCRIPT, VENVS


class Row(NamedTuple):
    """One row of the table of shapes."""

    honest: tuple[str, ...]
    """Instances: bash follows the check in every run, and the analysis witnesses them."""
    refused: tuple[str, ...]
    """Neighbours outside the row: the analysis refuses them, and bash does not follow the check."""
    program: str = "pytest"
    files: tuple[tuple[str, str], ...] = ()
    real: tuple[str, ...] = ()


ROWS: dict[str, Row] = {
    "alone": Row(
        honest=("pytest -q", "pytest # ; true", "pytest\t# ; true", "time pytest"),
        refused=("pytest\f# ; true", "pytest \v# ; exit 0", "pytest \r# ; true", "pytest; true"),
    ),
    "prefix": Row(
        honest=("CI=1 pytest", "CI=1 FOO='a b' pytest > out.log 2>&1", "pytest &>/dev/null", "PS4='+ ' CI=1 pytest"),
        refused=("LD_PRELOAD=x.so pytest; true", "pytest; > out.log", "EXECIGNORE='*' pytest; true"),
    ),
    "wrapper": Row(
        honest=("timeout 600 env CI=1 nice -n 5 pytest", "timeout -k5 60 pytest", "env -i PATH=\"$PATH\" pytest",
                "flock .lock pytest", "script -qec pytest /dev/null", "nohup pytest", "command pytest"),
        refused=("env -S'true' pytest", "script -qc pytest /dev/null", "env -iS true pytest",
                 "timeout --frobnicate 60 pytest; true", "N='0 true'; nice -n $N pytest",
                 "X='x true'; env FOO=$X pytest", "SHELL=/bin/true script -qec pytest /dev/null"),
        real=("flock", "script"),
    ),
    "prelude": Row(
        honest=("cd sub && export CI=1 && pytest", "set -euo pipefail; shopt -s nullglob; pytest",
                "source .venv/bin/activate && pytest", ". venv/bin/activate; cd sub && pytest",
                "declare -a seen; umask 022; hash -r; pytest", "printf 'x\\n' > notes.txt; mkdir -p build; pytest",
                "mkdir -p bin; printf 'x\\n' > bin/notes.txt; PATH=bin:$PATH timeout 60 pytest"),
        refused=("for x in 1; do break; pytest; done", "shopt -s -o noexec; pytest", "hash -p/bin/true pytest; pytest",
                 "source ./env.sh && pytest", "set -o functrace; trap 'printf -v rc 0' RETURN; f() { :; }; pytest; "
                 "rc=$?; f; exit $rc", "PS4='+$((rc=0))'; set -x; pytest; rc=$?; echo x; exit $rc",
                 "mkdir -p bin; printf '#!/bin/sh\\nexit 0\\n' > bin/timeout; chmod +x bin/timeout; "
                 "PATH=bin:$PATH timeout 60 pytest"),
        files=(*VENVS, ("env.sh", "pytest() { :; }\n")), real=("chmod",),
    ),
    "and-list": Row(
        honest=("cd sub && pytest", "true && pytest", "[ -d sub ] && cd sub && pytest"),
        refused=("true || pytest", "cd sub || pytest", "pytest || pytest"),
    ),
    "succeeding-tail": Row(
        honest=("pytest && true", "pytest && echo ok", "pytest && exit 0", "pytest && printf 'ok\\n'"),
        refused=("pytest || echo failed", "pytest && true || true", "pytest; echo done"),
    ),
    "exit-propagation": Row(
        honest=("pytest; exit $?", "pytest\nexit $?", "pytest; exit $(( $? ))", "pytest | tee log.txt; exit "
                "${PIPESTATUS[0]}", "pytest; exit $? 2>/dev/null"),
        refused=("pytest; exit $? 2>missing/x; true", "pytest; exit $(( $? & 0 ))",
                 "echo x | pytest | tee log.txt; exit ${PIPESTATUS[0]}"),
    ),
    "failure-exit": Row(
        honest=("pytest || exit", "pytest || exit $?", "pytest || { rc=$?; echo failed >&2; exit $rc; }",
                "if pytest; then :; else exit $?; fi", "pytest || exit $?; echo done"),
        refused=("pytest || exit 1; true", "pytest || exit $? 2>missing/x; echo done",
                 "if pytest; then :; else exit 0; fi", "if pytest; then :; else echo failed; fi"),
    ),
    "saved-status": Row(
        honest=("pytest; rc=$?; echo \"exit: $rc\"; exit $rc", "rc=0; pytest || rc=$?; echo done; exit $rc",
                "pytest && rc=0 || rc=$?; exit $rc", "pytest; rc=$?; shopt -s nullglob; exit $rc",
                "set -u; pytest; rc=$?; echo \"exit: $rc\"; exit $rc"),
        refused=("pytest && rc=0 || rc=0; exit $rc", "pytest; rc=$?; shopt -so noexec; exit $rc",
                 "trap 'printf -v rc 0' DEBUG; pytest; rc=$?; exit $rc", "pytest; rc=$?; printf -v rc 0; exit $rc",
                 "pytest; rc=$?; exit $rc 2>missing/x; true", "set -u; pytest; rc=$?; echo $undefined; exit $rc"),
    ),
    "errexit": Row(
        honest=("set -e; pytest; echo done", "set -e\npytest\nexit 0", "set -e; out=$(pytest); echo \"$out\"",
                "bash -ec 'pytest; echo done'"),
        refused=("set -e; out=$(pytest) || true; echo \"$out\"", "set -e; export out=$(pytest); echo \"$out\"",
                 "set -e; pytest || true; echo ok", "set -e; x=$(pytest; true); echo \"$x\""),
    ),
    "pipefail": Row(
        honest=("set -o pipefail; pytest | tee log.txt", "set -euo pipefail; pytest 2>&1 | tee log.txt | tail -1",
                "bash -o pipefail -c 'pytest | tail -5'"),
        refused=("pytest | tee log.txt | tail -1", "set -o pipefail; set +o pipefail; pytest | tee log.txt | tail -1",
                 "( set -o pipefail ); pytest | tee log.txt | tail -1"),
    ),
    "waited": Row(
        honest=("pytest & wait $!", "pytest & wait %1", "pytest & wait %%", "pytest & wait -n",
                "pytest & pid=$!; wait $pid", "pytest & p=$!; true & wait $p", "coproc pytest; wait $COPROC_PID"),
        refused=("sleep 0 & pytest & wait %1", "pytest & true & wait -n",
                 "pytest & pid=$!; true & pid=$!; wait $pid", "pytest & wait", "pytest & true & wait %2"),
    ),
    "single-path": Row(
        honest=("for x in 1; do pytest; done", "case a in a) pytest;; esac", "case \"$CI\" in *) pytest;; esac",
                "if true; then pytest; fi", "if [ -d sub ]; then pytest; else exit 1; fi"),
        refused=("for x in 1 2; do pytest; done", "case \"$CI\" in x) pytest;; esac",
                 "if [ -d missing ]; then pytest; fi", "for i in 1 2 3; do pytest && break; done"),
    ),
    "group": Row(
        honest=("(cd sub && pytest)", "{ pytest; }", "time { pytest; }", "{ pytest; exit $?; }"),
        refused=("{ exit 0; pytest; }", "(pytest); true", "! { pytest; }"),
    ),
    "command-string": Row(
        honest=("bash -c 'cd sub && pytest'", "eval 'pytest -q'", "bash <<'EOF'\nset -e\ncd sub\npytest\nEOF",
                "bash <<'EOF'\ncat input.txt >/dev/null\npytest\nEOF", "sh -c 'pytest'",
                "sh -c 'cd sub && pytest > out.log 2>&1; exit $?'", "sh -c 'pytest & wait %1'"),
        refused=("bash <<EOF\npytest; exit $?\nEOF", "bash <<'EOF'\ncommand read x\npytest\nEOF",
                 "bash <<'EOF'\nhead -n 1 <&0 >/dev/null\npytest\nEOF", "bash -c 'pytest'; bash -c 'true'",
                 "sh -c 'pytest &>/dev/null'", "sh -c 'pytest | tee log.txt; exit ${PIPESTATUS[0]}'",
                 "sh -c 'pytest | tee log.txt; exit $PIPESTATUS'", "bash -c \"sh -c 'pytest &> out.log'\"",
                 "script -qec 'pytest &>/dev/null' /dev/null", "sh -c 'pytest & wait -n'"),
        real=("script",),
    ),
    "login-shell": Row(
        honest=("bash -lc ./run_tests.sh", "bash --login -c ./run_tests.sh", "printf 'x\\n' > notes.txt; bash -lc "
                "./run_tests.sh"),
        refused=("printf 'exit 0\\n' > .bash\\_profile; bash -lc ./run_tests.sh",
                 "printf 'exit 0\\n' > .bash_profile; exec -l bash -c ./run_tests.sh",
                 "printf 'exit 0\\n' | tee .bash_{profile,login} >/dev/null; bash -lc ./run_tests.sh"),
        program="./run_tests.sh",
    ),
    "function-call": Row(
        honest=("f() { pytest \"$@\"; }; f", "function f { pytest; }; f", "run() ( pytest ); run",
                "run() { \"$@\"; }; run pytest"),
        refused=("pytest() { :; }; pytest", "f() { exit 0; }; f; pytest", "f() { pytest; }; f; f",
                 "run() { set -- true; \"$@\" pytest; }; run"),
    ),
    "inert-trap": Row(
        honest=("trap 'echo done >> log.txt' EXIT; pytest", "trap 'rm -f tmp.txt' EXIT INT TERM; pytest",
                "trap 'echo failed >&2' ERR; pytest", "trap 'echo x >> log.txt' DEBUG; pytest; rc=$?; exit $rc"),
        refused=("trap 'exit 0' EXIT; pytest", "trap ': $((rc=0))' DEBUG; pytest; rc=$?; exit $rc",
                 "trap 'printf -v rc 0' ERR; pytest; rc=$?; test -f nothing; exit $rc",
                 "shopt -s extdebug; trap false DEBUG; pytest"),
    ),
}
"""The rows, by name (the name ``docs/shellparse.md`` shows)."""

TOOL_ROWS: dict[str, Row] = {
    "forced-success (ruff)": Row(honest=("ruff check .", "ruff check -q ."),
                                 refused=("ruff check --exit-zero .", "ruff check -e ."),
                                 program="ruff", files=RUFF_PROJECT, real=("ruff",)),
    "forced-success (pytest)": Row(honest=("pytest -q", "PYTEST_ADDOPTS=-q pytest"),
                                   refused=("pytest --co", "PYTEST_ADDOPTS=--co pytest", "pytest --setup-plan",
                                            "pytest --fixtures", "pytest -qh", "pytest -o addopts=--co"),
                                   program="pytest", files=PYTEST_PROJECT, real=("pytest",)),
    "forced-success (make)": Row(honest=("make test", "make -k test"),
                                 refused=("make -ik test", "MAKEFLAGS=i make test"),
                                 program="make", files=MAKEFILE, real=("make",)),
    "forced-success (timeout)": Row(honest=("timeout 1 ./run_tests.sh",),
                                    refused=("touch slow; timeout --preserve-status 1 ./run_tests.sh",),
                                    program="./run_tests.sh", files=SLOW_SCRIPT, real=("./run_tests.sh",)),
    "rewritten (configuration)": Row(
        honest=("printf 'x\\n' > notes.txt && pytest -q",
                "pytest -q; rc=$?; printf '[pytest]\\n' > pytest.ini; exit $rc"),
        refused=("printf '[pytest]\\naddopts = --co\\n' > pytest.ini && pytest -q",
                 "printf 'def pytest_sessionfinish(session):\\n    session.exitstatus = 0\\n' > conftest.py; "
                 "pytest -q"),
        program="pytest", files=PYTEST_PROJECT, real=("pytest",)),
}
"""Rows whose neighbours need the real tool (an option or a configuration that forces success):
the project passes or fails by ``CHECK_STATUS``."""
