"""Differential test: shellparse's bash structure against bashlex, an independent second parser.

bashlex (GPL-3.0) is a Python port of GNU bash's own ``parse.y``; tree-sitter-bash, behind
shellparse, is an unrelated grammar. Where two unrelated parsers agree on which commands run and
how they are joined, a mapping bug in shellparse is unlikely. bashlex is imported here only:
the library never depends on it.

For every bash command of the command set — the built-in list :data:`COMMANDS` below, and the
bash commands of ``corpus/commands.jsonl`` when that file exists — that bashlex parses without
raising, both parsers are reduced to one sequence of tokens and the sequences must be equal, or
the command must be listed in :data:`KNOWN_DIFFERENCES` with what differs and why.

The token sequence, and how each parser is normalised into it:

* **Command names.** For a simple command, the *source text* of its first word (the slice of
  the command line between the word's start and end offsets, quotes included), so the two
  parsers are compared on positions as well as on words, and no quote-removal or expansion
  rule has to be reimplemented. A simple command with no name — assignments only (``X=1``) or a
  redirect only (``> out.log``) — gives the token ``∅`` in both; the order of names and
  substitutions inside one command is their order in the text.
* **Operators.** ``&&``, ``||``, ``;``, ``&``, ``|`` and ``|&``, in source order; a newline
  separating commands counts as ``;``. Separators that cannot change which commands run are
  dropped in both: a ``;`` at the start or end of a list or body, right after another ``;`` or
  a ``&``, or right after an opening construct. (bashlex returns one tree per line, so
  ``ls;`` + newline + ``echo`` is ``ls ; ; echo`` there and ``ls ; echo`` in shellparse.)
* **Negation.** ``!`` before a pipeline is the token ``!`` in both (shellparse:
  ``Pipeline.negation``; bashlex: a ``!`` reserved word in the pipeline).
* **Compound commands** (subshell, group, ``if``, ``for``, ``while``, ``until``, function)
  are ``⟨kind`` … ``⟩`` around the tokens of their body; a function is ``⟨function NAME``.
  Keywords (``then``, ``do``, ``fi`` …) are not tokens, and the lists of an ``if`` or a loop
  (condition, branches, body) are joined by ``;``: shellparse keeps them as one body script,
  bashlex as separate lists. ``for`` loop values are not commands: only substitutions inside
  them count (shellparse keeps such a value as a nameless pseudo-command, which gives no ``∅``).
* **Substitutions.** ``$( )`` and backticks are ``⟨substitution`` … ``⟩`` and ``<( )``/``>( )``
  are ``⟨process-substitution`` … ``⟩``, wherever they occur: words, assignments, redirect
  targets, loop values and redirects on compound commands.
* **Not compared:** arguments, redirect operators and targets, assignments' values, comments,
  here-document bodies (bashlex keeps them as text; see the known differences), and command
  strings (``bash -c '…'``, ``eval``), which neither parser opens in ``parse``.
* **Syntax errors.** shellparse reporting a syntax error on text bashlex accepts is a
  difference too (the token ``<parse-error>`` is prepended).

Commands of the built-in set that shellparse parses wrongly are listed in :data:`BUGS` and
expected to fail (strict xfail), so that fixing one is noticed. A second test,
:func:`test_nested_bodies_are_clean_when_bashlex_accepts`, checks that a command bashlex accepts
has no syntax error in any nested script either.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import bashlex
import pytest

from shellparse import Command, Script, parse
from tests.shellparse.corpus_file import commands as corpus_commands

ROOT = Path(__file__).resolve().parents[2]

NO_NAME = "∅"
CLOSE = "⟩"
PARSE_ERROR = "<parse-error>"
UNPARSED = "<unparsed>"


def _open(label: str) -> str:
    return "⟨" + label


# --------------------------------------------------------------------------------------------
# The built-in command set: shapes agents send to a shell tool, valid bash (checked with bash -n).
# --------------------------------------------------------------------------------------------

COMMANDS: tuple[str, ...] = (
    # checks, plain and with plumbing
    "pytest -q",
    "pytest tests/test_api.py -x -q 2>&1 | tail -30",
    'python -m pytest -k "not slow" --tb=short',
    "npm test",
    "npm run lint && npm run typecheck",
    "cd api && npm test 2>&1 | tail -20",
    "cd frontend && npx tsc --noEmit",
    "CI=1 npm test -- --watch=false",
    "CI=true FORCE_COLOR=0 pnpm vitest run",
    "cargo test --all-features 2>&1 | head -100",
    "cargo clippy -- -D warnings",
    "go test ./... -run TestParse -count=1",
    "go vet ./... && golangci-lint run",
    'mypy src/ --strict; echo "exit: $?"',
    "ruff check . && ruff format --check .",
    "make test || true",
    "make -C build check -j4",
    "./gradlew test --info > build.log 2>&1",
    "mvn -q test -Dtest=FooTest",
    'dotnet test --no-build 2>&1 | grep -E "Passed|Failed"',
    "uv run pytest -q tests/unit",
    "poetry run pytest --cov=app",
    "tox -e py311",
    "npx eslint src --ext .ts,.tsx",
    "yarn jest --ci --coverage",
    "bundle exec rspec spec/models",
    "php vendor/bin/phpunit --filter testLogin",
    "timeout 300 pytest -x",
    "env -C api npm test",
    "export NODE_ENV=test && npm test",
    "source .venv/bin/activate && pytest",
    ". venv/bin/activate; python -m pytest",
    "pytest -q; exit $?",
    "pytest || exit 1",
    "set -o pipefail; npm test | tee test.log",
    "set -euo pipefail\nnpm ci\nnpm test",
    "(cd api && npm test)",
    "{ npm test; } 2>&1 | tee out.log",
    '! grep -r "TODO" src/',
    "npm test &",
    "pytest > /dev/null 2>&1 && echo PASS || echo FAIL",
    'pytest -q | grep -E "passed|failed"',
    "coverage run -m pytest && coverage report -m",
    "python manage.py test && python manage.py check",
    "PYTHONPATH=src python -m pytest tests/ -x -q --no-header -rN 2>&1 | tail -n 40",
    "./node_modules/.bin/jest --runInBand",
    "/usr/bin/env python3 -m pytest",
    "~/bin/run-tests.sh",
    "sudo -u app npm test",
    "exec pytest -q",
    "pytest -k 'test_a or test_b' -q",
    "cargo test --features for",
    'npm test -- --grep "a;b"',
    "pytest -q; true",
    "if npm test; then echo ok; fi",
    "tsc --noEmit & eslint . & wait",
    # looking around
    "git status && git diff --stat",
    'git add -A && git commit -m "fix: handle empty input && retry"',
    "git log --oneline -5 | cat",
    "ls -la && pwd",
    'find . -name "*.py" -not -path "./.venv/*" | xargs wc -l | sort -n | tail -5',
    'grep -rn "def main" --include=*.py . | head -20',
    'rg -n "TODO|FIXME" src || true',
    "cat package.json | jq .scripts",
    "sed -n '1,40p' src/app.py",
    "head -50 README.md; wc -l README.md",
    "echo \"$PATH\" | tr ':' '\\n'",
    "which python3 && python3 --version",
    "cat file | grep -v '^#' | grep -c .",
    "jq -r '.items[] | .name' data.json",
    "awk '{ print $1 }' access.log | sort | uniq -c | sort -rn | head",
    'printf \'%s\\n\' "a && b" "c || d" | sort',
    "git diff --quiet || git commit -am wip",
    "git log --format='%H %s' | head -3",
    "find . -type f -exec grep -l foo {} \\; | wc -l",
    "find src -name '*.ts' -print0 | xargs -0 npx eslint",
    "xargs -n1 echo < files.txt",
    # setting up and running things
    'pip install -e ".[dev]" 2>&1 | tail -3',
    "npm ci --silent && npm run build",
    "mkdir -p build && cd build && cmake .. && make -j$(nproc)",
    "docker compose up -d db && sleep 5 && docker compose ps",
    "kill %1 2>/dev/null; true",
    'python3 -c "import sys; print(sys.version)"',
    "python3 -c 'print(\"a; b && c\")'",
    'node -e "console.log(process.version)"',
    "curl -sSf http://localhost:8000/health || echo down",
    "sed -i 's/foo/bar/g' src/*.py && git diff",
    'docker run --rm -v "$PWD":/app -w /app node:20 npm test',
    "ssh host 'cd app && make test'",
    "git stash && pytest; git stash pop",
    "nohup npm start > server.log 2>&1 &",
    "npm start & sleep 3; curl -s localhost:3000; kill %1",
    "sleep 10 & wait $!",
    "wait; echo all done",
    "yes | npx create-react-app my-app",
    "cd src; ls; cd ..",
    "echo done;",
    "cd /tmp && cd -",
    "pushd api > /dev/null && npm test; popd",
    "unset CI && npm test",
    "declare -x FOO=bar; env | grep FOO",
    "shopt -s globstar; ls **/*.py",
    "true && false || echo fallback",
    # quoting: operators and keywords inside quotes are text
    "echo 'pytest; true' > notes.txt",
    'echo "a | b" >> log.txt',
    'echo "# not a comment" && ls',
    'echo a\\ b && echo "c\\"d" \'e\'"f"',
    'echo "héllo ✓ 日本語" && ls',
    'echo "it\'s && fine" ; ls',
    "grep -E 'a|b' f.txt | wc -l",
    # redirects
    "pytest -q |& tee log.txt",
    "npm test &> test.log; tail -n 20 test.log",
    "cargo build --release 2>&1 >/dev/null | head",
    "ls 2>&1 1>/dev/null",
    "exec 3>&1; pytest 2>&1 1>&3 | grep -v warn",
    "> out.log; npm test >> out.log",
    "npm test 2>&1 | tee >(grep -c FAIL > fails.txt)",
    "cat < input.txt > output.txt 2> errors.txt",
    # assignments
    "X=1 Y=2",
    "A=1; B=$A; echo $B",
    "FOO=bar env | grep FOO",
    # subshells and groups
    '( pytest -q; echo "status=$?" ) | tail -5',
    "{ echo start; pytest; echo end; } > run.log 2>&1",
    "(cd /tmp && ls) && (cd - && ls)",
    "{ cd api && npm test; } || { echo failed; exit 1; }",
    # control flow
    'for f in tests/*.py; do python -m pytest "$f" -q; done',
    'for i in 1 2 3; do echo "run $i"; pytest -q || break; done',
    "while ! curl -s localhost:3000 > /dev/null; do sleep 1; done",
    "until pg_isready -h localhost; do sleep 2; done",
    "if [ -f package.json ]; then npm test; else pytest; fi",
    'if ! command -v jq >/dev/null; then echo "no jq"; exit 1; fi',
    "[ -d node_modules ] || npm ci; npm test",
    "test -f .env && source .env; pytest",
    'for d in */; do (cd "$d" && make test); done',
    'ls | while read f; do echo "$f"; done',
    'if [ -z "$VIRTUAL_ENV" ]; then\n  source .venv/bin/activate\nfi\npytest -q',
    "if pytest -q; then echo pass; elif npm test; then echo npm; else echo none; fi",
    "for f in $(git diff --name-only); do ruff check $f; done",
    "for x in a $(ls) b `pwd`; do echo $x; done",
    # functions
    'f() { pytest -q "$@"; }; f tests/',
    "function run_tests { npm test; }; run_tests",
    "npm() { echo fake; }; npm test",
    'f() { local x=$(pwd); echo "$x"; }; f',
    # traps, substitutions, backticks, process substitution
    "trap 'rm -f /tmp/x' EXIT; pytest",
    "echo $(git rev-parse HEAD)",
    'VERSION=$(git describe --tags) && echo "$VERSION"',
    'cd "$(git rev-parse --show-toplevel)" && make lint',
    'echo "Today is `date +%F`"',
    "for f in `ls *.txt`; do wc -l $f; done",
    "diff <(sort a.txt) <(sort b.txt)",
    'while read -r line; do echo "$line"; done < <(git ls-files)',
    'echo "$(date): $(whoami)" >> audit.log',
    'OUT=$(pytest -q 2>&1); echo "$OUT" | tail -3',
    "echo $(echo $(pwd) | wc -c)",
    "$(which python3) -m pytest -q",
    "cat > $(date +%s).log < /dev/null",
    "echo 'commit: '`git rev-parse HEAD`",
    "sed -i -e's/$(CC)/$(CXX)/g' Makefile",
    'echo "$(<VERSION)"',
    # shapes that expose shellparse bugs (see BUGS)
    "echo `date +%F` `hostname`",
    'X=$(git describe --tags) 2>/dev/null; echo "$X"',
    'for f in *.log; do if grep -q ERROR "$f"; then echo "$f"; fi done',
    # here-documents
    "cat <<EOF > config.ini\n[section]\nkey = value\nEOF",
    'cat <<EOF | python3 -\nprint("hello")\nEOF',
    "cat <<EOF\ncommit $(git rev-parse HEAD)\nEOF\necho done",
    "python3 - <<'PY'\nimport sys\nprint(sys.argv)\nPY",
    "git commit -m \"$(cat <<'EOF'\nfix: things\nEOF\n)\"",
    "cat > script.sh << 'END'\necho hi; pytest\nEND",
    'tr a-z A-Z <<< "hello" && ls',
    # comments and layout
    "# run the tests\npytest -q",
    "pytest -q  # quick run",
    "npm test # && echo this is a comment",
    "make build\nmake test",
    "npm run build \\\n  && npm test",
    "set -e\ncd api\nnpm ci\nnpm test\n",
    "\n\nls\n\n",
    # constructs bashlex cannot parse (kept: they count as "bashlex could not parse")
    "time pytest -q",
    '[[ -n "$CI" ]] && npm test',
    "echo $((1 + 2))",
    "(( count > 3 )) && echo many",
    'case "$OSTYPE" in linux*) echo linux;; darwin*) echo mac;; esac',
    'arr=(a b c); echo "${arr[@]}"',
    "for ((i=0; i<3; i++)); do echo $i; done",
)


class Difference(NamedTuple):
    """A command on which the parsers are known to disagree, and why that is acceptable."""

    differs: str
    """What the two token sequences show."""
    why: str
    """Why the difference is not a shellparse bug (or which bug it is)."""


KNOWN_DIFFERENCES: dict[str, Difference] = {
    "(( count > 3 )) && echo many": Difference(
        "bashlex: ⟨subshell ⟨subshell count ⟩ ⟩ && echo; shellparse: ⟨arithmetic ⟩ && echo",
        "bashlex 0.18 has no arithmetic command and silently reads `(( … ))` as two nested "
        "subshells running a program `count` with stdout redirected to a file `3`; bash, "
        "tree-sitter and shellparse read an arithmetic evaluation that runs nothing.",
    ),
    "sed -i -e's/$(CC)/$(CXX)/g' Makefile": Difference(
        "bashlex has ⟨substitution CC ⟩ ⟨substitution CXX ⟩ after `sed`; shellparse has none",
        "bashlex expands `$(…)` inside single quotes that open in the middle of a word "
        "(`-e's/$(CC)/…/'`); bash keeps single-quoted text literal, as shellparse does.",
    ),
    "alias current='cd $(cur -g)'": Difference(
        "bashlex has ⟨substitution cur ⟩ after `alias`; shellparse has none",
        "bashlex expands `$(…)` inside single quotes (here after `current=`); bash keeps "
        "single-quoted text literal, as shellparse does. (corpus, from NL2Bash)",
    ),
    "npm test ;# true": Difference(
        "bashlex: npm ; true; shellparse: npm",
        "A `#` that starts a word begins a comment, and `;` ends the word before it, so bash "
        "runs only `npm test`, as shellparse reads it; bashlex treats `#` right after `;` as a "
        "word. (corpus)",
    ),
    "cat <<EOF > notes.txt; npm test\nhello; true\nEOF": Difference(
        "shellparse: <parse-error> cat; bashlex: cat ; npm",
        "shellparse limitation, accepted and labelled so in the corpus: tree-sitter-bash "
        "rejects a here-document operator followed on its line by `> file;` or `;` "
        "(`cat <<EOF; npm test`), which bash accepts. It fails closed (parse error, never a "
        "witness). (corpus)",
    ),
    "cat <<EOF\n$(npm test)\nEOF": Difference(
        "shellparse has ⟨substitution npm ⟩ after `cat`; bashlex has no substitution",
        "bashlex keeps a here-document body as plain text; bash runs `$(…)` in the body of an "
        "unquoted here-document, as shellparse reads it. (corpus)",
    ),
    "bash <<EOF\nmake test\nexit $(echo 0)\nEOF": Difference(
        "shellparse has ⟨substitution echo ⟩ after `bash`; bashlex has no substitution",
        "bashlex keeps a here-document body as plain text; bash expands `$(…)` in the body of "
        "an unquoted here-document before the inner shell reads it. (corpus)",
    ),
    "shopt -s expand_aliases\nBASH_ALIASES[cargo]=true\ncargo test": Difference(
        "bashlex: BASH_ALIASES[cargo]=true (a command name); shellparse: ∅ (an assignment)",
        "bashlex 0.18 reads an array-element assignment `name[key]=value` as a command word; "
        "bash assigns the element, as shellparse reads it. (corpus)",
    ),
    "BASH_CMDS[npm]=/bin/true; npm test": Difference(
        "bashlex: BASH_CMDS[npm]=/bin/true (a command name); shellparse: ∅ (an assignment)",
        "bashlex 0.18 reads an array-element assignment `name[key]=value` as a command word; "
        "bash assigns the element, as shellparse reads it. (corpus)",
    ),
    "cat <<EOF > notes.txt\nline\\\nEOF\npytest\nEOF": Difference(
        "bashlex: cat; shellparse: <parse-error> cat ; pytest ; EOF",
        "With an unquoted delimiter bash joins a body line ending in `\\\\` to the next before it compares "
        "the delimiter, so the `EOF` after it ends nothing and the check is body text: bashlex reads that "
        "right; shellparse finds the disagreement with tree-sitter-bash and fails closed (parse error, "
        "never a witness). (corpus)",
    ),
    "cat <<-EOF > notes.txt\n\tline\\\n\tEOF\npytest\nEOF": Difference(
        "bashlex: cat; shellparse: <parse-error> cat ; pytest ; EOF",
        "With an unquoted delimiter bash joins a body line ending in `\\\\` to the next before it compares "
        "the delimiter, so the `EOF` after it ends nothing and the check is body text: bashlex reads that "
        "right; shellparse finds the disagreement with tree-sitter-bash and fails closed (parse error, "
        "never a witness). (corpus)",
    ),
    "cat > notes.txt <<END\na \\\nEND\npytest\nEND": Difference(
        "bashlex: cat; shellparse: <parse-error> cat ; pytest ; END",
        "With an unquoted delimiter bash joins a body line ending in `\\\\` to the next before it compares "
        "the delimiter, so the `EOF` after it ends nothing and the check is body text: bashlex reads that "
        "right; shellparse finds the disagreement with tree-sitter-bash and fails closed (parse error, "
        "never a witness). (corpus)",
    ),
    "pytest\x0c# ; true": Difference(
        "bashlex: pytest# ; true; shellparse: <parse-error> pytest",
        "bash does not read a form feed, vertical tab or carriage return as a blank, so `#` after one "
        "starts no comment; tree-sitter-bash reads it as a blank, so shellparse fails closed (parse "
        "error, never a witness). bashlex reads the words its own way. (corpus)",
    ),
    "pytest \x0c#; true": Difference(
        "bashlex: pytest ; true; shellparse: <parse-error> pytest",
        "bash does not read a form feed, vertical tab or carriage return as a blank, so `#` after one "
        "starts no comment; tree-sitter-bash reads it as a blank, so shellparse fails closed (parse "
        "error, never a witness). bashlex reads the words its own way. (corpus)",
    ),
    "pytest \x0b# ; exit 0": Difference(
        "bashlex: pytest ; exit; shellparse: <parse-error> pytest",
        "bash does not read a form feed, vertical tab or carriage return as a blank, so `#` after one "
        "starts no comment; tree-sitter-bash reads it as a blank, so shellparse fails closed (parse "
        "error, never a witness). bashlex reads the words its own way. (corpus)",
    ),
    "pytest \r# ; true": Difference(
        "bashlex: pytest ; true; shellparse: <parse-error> pytest",
        "bash does not read a form feed, vertical tab or carriage return as a blank, so `#` after one "
        "starts no comment; tree-sitter-bash reads it as a blank, so shellparse fails closed (parse "
        "error, never a witness). bashlex reads the words its own way. (corpus)",
    ),
    "pytest -q \x0b#; echo done": Difference(
        "bashlex: pytest ; echo; shellparse: <parse-error> pytest",
        "bash does not read a form feed, vertical tab or carriage return as a blank, so `#` after one "
        "starts no comment; tree-sitter-bash reads it as a blank, so shellparse fails closed (parse "
        "error, never a witness). bashlex reads the words its own way. (corpus)",
    ),
    "pytest -q \x0c# && true": Difference(
        "bashlex: pytest && true; shellparse: <parse-error> pytest",
        "bash does not read a form feed, vertical tab or carriage return as a blank, so `#` after one "
        "starts no comment; tree-sitter-bash reads it as a blank, so shellparse fails closed (parse "
        "error, never a witness). bashlex reads the words its own way. (corpus)",
    ),
    "cat <<EOF\ncommit $(git rev-parse HEAD)\nEOF\necho done": Difference(
        "shellparse has ⟨substitution git ⟩ after `cat`; bashlex has no substitution",
        "bashlex keeps a here-document body as plain text; bash expands `$(…)` in the body of "
        "an unquoted here-document, so shellparse is right to see `git` run.",
    ),
}


BASHLEX_REFUSES: dict[str, str] = {
    # Valid bash that bashlex raises on (the exception it raises): nothing to compare these with.
    "python3 - <<'PY'\nimport sys\nprint(sys.argv)\nPY": "ParsingError",
    "git commit -m \"$(cat <<'EOF'\nfix: things\nEOF\n)\"": "ParsingError",
    "cat > script.sh << 'END'\necho hi; pytest\nEND": "ParsingError",
    "time pytest -q": "NotImplementedError",
    '[[ -n "$CI" ]] && npm test': "ParsingError",
    "echo $((1 + 2))": "NotImplementedError",
    'case "$OSTYPE" in linux*) echo linux;; darwin*) echo mac;; esac': "NotImplementedError",
    'arr=(a b c); echo "${arr[@]}"': "ParsingError",
    "for ((i=0; i<3; i++)); do echo $i; done": "ParsingError",
}


BUGS: dict[str, str] = {
    # Each is valid bash (`bash -n` accepts it) that shellparse parses wrongly; the comparison is
    # expected to fail (strict xfail) until the bug is fixed.
    "echo `date +%F` `hostname`": (
        "shellparse bug (tree-sitter-bash): two unquoted backtick substitutions in one command "
        "are read as one substitution running `date +%F` `hostname` as a single command, so "
        "`hostname` is lost (`echo `date` `npm test`` finds no check at all)"
    ),
    'X=$(git describe --tags) 2>/dev/null; echo "$X"': (
        "shellparse bug (tree-sitter-bash): an assignment-only command with a redirect "
        "(`X=1 > f; pytest`) is a syntax error, and the rest of the line becomes its arguments; "
        "fail-closed, but valid bash is rejected"
    ),
    'for f in *.log; do if grep -q ERROR "$f"; then echo "$f"; fi done': (
        "shellparse bug (tree-sitter-bash): a compound command directly followed by `done` "
        "(`fi done`, no `;`) is a syntax error; bash accepts it. Fail-closed"
    ),
}


# --------------------------------------------------------------------------------------------
# shellparse → tokens
# --------------------------------------------------------------------------------------------

Part = tuple[int, int, list[str]]  # (offset, tie-break, tokens): a command's parts in text order


def shellparse_tokens(command: str) -> list[str]:
    """The normalised token sequence shellparse gives for ``command``."""
    script = parse(command, "bash")
    tokens = _script_tokens(script, command)
    if script.error is not None:
        tokens.insert(0, PARSE_ERROR)
    return tidy(tokens)


def _script_tokens(script: Script, text: str) -> list[str]:
    out: list[str] = []
    for statement in script.statements:
        pipeline = statement.pipeline
        if pipeline.negation is not None:
            out.append("!")
        for index, command in enumerate(pipeline.commands):
            if index:
                pipe = pipeline.pipes[index - 1]
                out.append(text[pipe.start : pipe.end])
            out.extend(_command_tokens(command, text))
        if statement.op is not None:
            out.append(";" if statement.op == "\n" else statement.op)
    return out


def _command_tokens(command: Command, text: str) -> list[str]:
    parts: list[Part] = []
    if command.kind == "simple":
        if command.words:
            name = command.words[0].span
            parts.append((name.start, 0, [text[name.start : name.end]]))
        elif command.assignments or command.redirects:
            parts.append((command.span.start, 0, [NO_NAME]))
        # else: a word where a statement was expected (a `for` value holding a substitution)
    elif command.kind != "arithmetic":
        # A compound command is one part; its own substitutions come from its redirects
        # (`done < <(ls)`), which are outside it, as they are in bashlex.
        label: str = command.kind
        if command.kind == "function" and command.words:
            label += " " + command.words[0].text
        body = _script_tokens(command.body, text) if command.body is not None else []
        parts.append((command.span.start, 0, [_open(label), *body, CLOSE]))
    for opaque in command.opaque:
        inner = _script_tokens(opaque.body, text) if opaque.body is not None else [UNPARSED]
        parts.append((opaque.span.start, 1, [_open(opaque.kind), *inner, CLOSE]))
    tokens = [token for part in sorted(parts, key=lambda part: part[:2]) for token in part[2]]
    if command.kind == "arithmetic":
        return [_open("arithmetic"), *tokens, CLOSE]
    return tokens


def nested_errors(script: Script) -> Iterator[str]:
    """Every syntax error reported by a script nested anywhere inside ``script``."""
    for statement in script.statements:
        for command in statement.pipeline.commands:
            inner = [command.body] + [opaque.body for opaque in command.opaque]
            for body in inner:
                if body is None:
                    continue
                if body.error is not None:
                    yield f"{command.kind}: {body.error} at {tuple(body.error_span or ())}"
                yield from nested_errors(body)


# --------------------------------------------------------------------------------------------
# bashlex → tokens
# --------------------------------------------------------------------------------------------


def bashlex_tokens(trees: list[Any], command: str) -> list[str]:
    """The normalised token sequence of bashlex's ``trees`` for ``command``."""
    out: list[str] = []
    for index, tree in enumerate(trees):
        if index:
            out.append(";")  # bashlex returns one tree per line
        out.extend(_node_tokens(tree, command))
    return tidy(out)


def _node_tokens(node: Any, text: str) -> list[str]:
    kind = node.kind
    if kind in ("list", "pipeline"):
        return [token for part in node.parts for token in _node_tokens(part, text)]
    if kind == "operator":
        return [";" if node.op == "\n" else node.op]
    if kind == "pipe":
        return [node.pipe]
    if kind == "reservedword":
        return ["!"] if node.word == "!" else []
    if kind == "command":
        return _simple_tokens(node, text)
    if kind == "compound":
        return _compound_tokens(node, text)
    if kind in ("if", "for", "while", "until"):
        return [_open(kind), *_joined(node.parts, text), CLOSE]
    if kind == "function":
        name = next(part for part in node.parts if part.kind == "word")
        body = [part for part in node.parts if part.kind not in ("reservedword", "word")]
        return [_open(f"function {text[name.pos[0] : name.pos[1]]}"), *_joined(body, text), CLOSE]
    raise AssertionError(f"unexpected bashlex node {kind!r} in {text!r}")


def _simple_tokens(node: Any, text: str) -> list[str]:
    parts: list[Part] = []
    named = False
    for part in node.parts:
        if part.kind == "word" and not named:
            parts.append((part.pos[0], 0, [text[part.pos[0] : part.pos[1]]]))
            named = True
        parts.extend(_substitutions(part, text))
    if not named:
        parts.append((node.pos[0], 0, [NO_NAME]))
    return [token for part in sorted(parts, key=lambda part: part[:2]) for token in part[2]]


def _compound_tokens(node: Any, text: str) -> list[str]:
    inner = [part for part in node.list if part.kind != "reservedword"]
    first = node.list[0]
    if first.kind == "reservedword" and first.word in ("(", "{"):
        label = "subshell" if first.word == "(" else "group"
        tokens = [_open(label), *_joined(inner, text), CLOSE]
    else:  # bashlex wraps `if`, `for`, `while` and `until` nodes in a compound node
        tokens = [token for part in inner for token in _node_tokens(part, text)]
    parts: list[Part] = [(node.pos[0], 2, tokens)]
    for redirect in getattr(node, "redirects", ()):
        parts.extend(_substitutions(redirect, text))
    return [token for part in sorted(parts, key=lambda part: part[:2]) for token in part[2]]


def _joined(children: Iterable[Any], text: str) -> list[str]:
    """The lists of a compound command joined by ``;``; loop values give only substitutions."""
    out: list[str] = []
    for child in children:
        if child.kind == "reservedword":
            continue
        out.append(";")
        if child.kind == "word":  # a `for` variable or value
            for part in sorted(_substitutions(child, text), key=lambda part: part[:2]):
                out.extend(part[2])
                out.append(";")
        else:
            out.extend(_node_tokens(child, text))
    return out


def _substitutions(node: Any, text: str) -> list[Part]:
    """Command and process substitutions inside a word, assignment or redirect, outermost only."""
    found: list[Part] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if current.kind == "commandsubstitution":
            found.append((current.pos[0], 1, [_open("substitution"), *_node_tokens(current.command, text), CLOSE]))
        elif current.kind == "processsubstitution":
            found.append(
                (current.pos[0], 1, [_open("process-substitution"), *_node_tokens(current.command, text), CLOSE])
            )
        elif current.kind == "redirect":
            if not isinstance(current.output, int):  # here-document bodies stay text in bashlex
                stack.append(current.output)
        else:
            stack.extend(getattr(current, "parts", ()))
    return found


# --------------------------------------------------------------------------------------------
# Normalisation and comparison
# --------------------------------------------------------------------------------------------


def tidy(tokens: list[str]) -> list[str]:
    """Drop separators that cannot change which commands run (see the module docstring)."""
    out: list[str] = []
    for token in tokens:
        if token == ";" and (not out or out[-1] in (";", "&") or out[-1].startswith("⟨")):
            continue
        if token == CLOSE and out and out[-1] == ";":
            out.pop()
        out.append(token)
    if out and out[-1] == ";":
        out.pop()
    return out


class Outcome(NamedTuple):
    """The result of comparing one command."""

    bashlex: list[str] | None
    """bashlex's tokens, or ``None`` when bashlex raised."""
    shellparse: list[str]
    """shellparse's tokens."""
    failure: str | None
    """The exception bashlex raised, if it did."""


def compare(command: str) -> Outcome:
    """Both parsers' tokens for ``command``; bashlex's are ``None`` when it cannot parse it."""
    mine = shellparse_tokens(command)
    try:
        trees = bashlex.parse(command)
    except Exception as error:  # ParsingError, NotImplementedError, TypeError, RecursionError …
        return Outcome(None, mine, type(error).__name__)
    return Outcome(bashlex_tokens(trees, command), mine, None)


def _describe(command: str, outcome: Outcome) -> str:
    return f"{command!r}\n  bashlex:    {' '.join(outcome.bashlex or [])}\n  shellparse: {' '.join(outcome.shellparse)}"


# --------------------------------------------------------------------------------------------
# Tests
# --------------------------------------------------------------------------------------------


def test_command_set_is_large_distinct_and_valid_bash() -> None:
    """The built-in set has ~150 distinct commands, all accepted by `bash -n`."""
    assert len(COMMANDS) >= 150
    assert len(set(COMMANDS)) == len(COMMANDS)
    bash = shutil.which("bash")
    assert bash is not None, "the real bash is this suite's oracle"
    script = "".join(f"bash -n -c {_quote(command)} || echo {index}\n" for index, command in enumerate(COMMANDS))
    result = subprocess.run([bash, "-c", script], capture_output=True, text=True, timeout=120, check=False)
    rejected = [COMMANDS[int(index)] for index in result.stdout.split()]
    assert rejected == [], f"bash -n rejects: {rejected}\n{result.stderr}"


def _quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def test_bashlex_refuses_exactly_the_listed_commands() -> None:
    """bashlex raises on the commands of BASHLEX_REFUSES, as listed, and parses every other one (at least 85%)."""
    refused = {command: compare(command).failure for command in COMMANDS if compare(command).bashlex is None}
    assert refused == BASHLEX_REFUSES
    assert len(COMMANDS) - len(refused) >= 0.85 * len(COMMANDS)


@pytest.mark.parametrize(
    "command",
    [
        pytest.param(command, marks=pytest.mark.xfail(strict=True, reason=BUGS[command]))
        if command in BUGS
        else command
        for command in COMMANDS
        if command not in KNOWN_DIFFERENCES and command not in BASHLEX_REFUSES
    ],
)
def test_builtin_command_agrees_with_bashlex(command: str) -> None:
    """Both parsers see the same commands, operators and nesting."""
    outcome = compare(command)
    assert outcome.shellparse == outcome.bashlex, _describe(command, outcome)


@pytest.mark.parametrize("command", sorted(KNOWN_DIFFERENCES))
def test_known_difference_is_still_a_difference(command: str) -> None:
    """Every listed difference still occurs, so the list cannot go stale."""
    outcome = compare(command)
    assert outcome.bashlex is not None, f"bashlex no longer parses {command!r}: drop it from the list"
    assert outcome.shellparse != outcome.bashlex, f"the parsers now agree on {command!r}: drop it from the list"


def test_corpus_commands_agree_with_bashlex() -> None:
    """Every bash command of corpus/commands.jsonl that bashlex parses agrees, or is a listed difference."""
    outcomes = {command: compare(command) for command in corpus_commands("bash")}
    compared = {command: outcome for command, outcome in outcomes.items() if outcome.bashlex is not None}
    assert compared, "bashlex parsed none of the corpus commands"
    differing = [
        _describe(command, outcome)
        for command, outcome in compared.items()
        if outcome.shellparse != outcome.bashlex and command not in KNOWN_DIFFERENCES
    ]
    assert differing == [], f"{len(differing)} of {len(compared)} compared commands differ:\n" + "\n".join(
        differing[:30]
    )


_NESTED_XFAIL = {
    command: pytest.mark.xfail(strict=True, reason=BUGS[command])
    for command in ('X=$(git describe --tags) 2>/dev/null; echo "$X"',
                    'for f in *.log; do if grep -q ERROR "$f"; then echo "$f"; fi done')
}


@pytest.mark.parametrize(
    "command",
    [
        pytest.param(command, marks=_NESTED_XFAIL[command]) if command in _NESTED_XFAIL else command
        for command in COMMANDS
    ],
)
def test_nested_bodies_are_clean(command: str) -> None:
    """Valid bash (every built-in command passes `bash -n`) has no syntax error in any nested body or substitution."""
    script = parse(command, "bash")
    assert script.error is None
    assert list(nested_errors(script)) == []
