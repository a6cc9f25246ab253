"""The rules of docs/shellparse.md, one table row at a time."""

from __future__ import annotations

import pytest

from shellparse import Analysis, analyze

Row = tuple[str, str, str | None, str | None]  # command, exit source, statement, masking reason


def verdict(command: str, shell: str = "bash", policy: str = "seed") -> Analysis:
    return analyze(command, shell, policy, cache=False)


def codes(analysis: Analysis, level: str = "masks") -> list[str]:
    return [reason.code for reason in analysis.reasons if reason.level == level]


KEPT_BASH: list[tuple[str, str]] = [
    ("pytest -q", "pytest -q"),
    ("grep x f; npm test", "npm test"),
    ("cd sub && npm test", "npm test"),
    ("CI=1 FOO='a b' npm test", "npm test"),
    ("export X=1; npm test", "npm test"),
    ("time npm test", "npm test"),
    ("timeout 300 pytest -x", "pytest -x"),
    ("timeout -s KILL -k 10 300 pytest", "pytest"),
    ("env -u HOME CI=1 pytest", "pytest"),
    ("nice -n 10 nohup pytest", "pytest"),
    ("uv run pytest -q", "pytest -q"),
    ("uv run --with pytest-xdist -- pytest -n 4", "pytest -n 4"),
    ("poetry run pytest", "pytest"),
    ("npx tsc -p tsconfig.json --noEmit", "tsc -p tsconfig.json --noEmit"),
    ("npx --yes jest --ci", "jest --ci"),
    ("pnpm exec vitest run", "vitest run"),
    ("bundle exec rspec spec/a_spec.rb", "rspec spec/a_spec.rb"),
    ("cross-env NODE_ENV=test jest", "jest"),
    ("npm test > out.log 2>&1", "npm test"),
    ("pytest &>/dev/null", "pytest"),
    ("npm test 2>&1", "npm test"),
    ("cat input.txt | pytest -q -", "pytest -q -"),
    ("(cd api && npm test)", "npm test"),
    ("{ npm test; }", "npm test"),
    ("bash -c 'npm test'", "npm test"),
    ("bash -lc \"cd api && npm test\"", "npm test"),
    ("sh -c 'exec pytest'", "pytest"),
    ("eval 'pytest -q'", "pytest -q"),
    ("pytest; exit $?", "pytest"),
    ("pytest || exit $?", "pytest"),
    ("pytest || exit", "pytest"),
    ("[ -d node_modules ] || npm ci; npm test", "npm test"),
    ("cd api || exit 1; npm test", "npm test"),
    ("set -o pipefail; npm test | tee log", "npm test"),
    ("set -euo pipefail; npm test 2>&1 | tee log | tail -5", "npm test"),
    ("bash -o pipefail -c 'npm test | tail -5'", "npm test"),
    ("pytest -k 'a or b'", "pytest -k 'a or b'"),
    ("cargo test --features for", "cargo test --features for"),
    ("echo '$(x)'; npm test", "npm test"),
    ("npm test # ; true", "npm test"),
    ("cat <<'EOF' > f\nnpm test; true\nEOF\nnpm test", "npm test"),
    ("git commit -m \"$(cat <<'EOF'\nmsg\nEOF\n)\" && npm test", "npm test"),
    ("npm run lint && npm test", "npm test"),
    ("npm test 2>&1 | tee log; exit ${PIPESTATUS[0]}", "npm test"),
    ("npm test | grep -c ok; exit ${PIPESTATUS[0]}", "npm test"),
    ("trap 'rm -f tmp' EXIT; pytest", "pytest"),
    ("bash <<'EOF'\nnpm test\nEOF", "npm test"),
    ('bash <<< "pytest -q"', "pytest -q"),
    ('xvfb-run -a su ci -c "npm test"', "npm test"),
]


@pytest.mark.parametrize(("command", "statement"), KEPT_BASH)
def test_kept_shapes_are_the_checks_own_status(command: str, statement: str) -> None:
    """Shapes that keep attribution report exit source `check` and witness."""
    result = verdict(command)
    assert result.validation is not None
    assert result.validation.statement == statement
    assert (result.exit_source, result.witness_eligible) == ("check", True), result.reasons


MASKED_BASH: list[tuple[str, str]] = [
    ("npm test; echo done", "echo-tail"),
    ("pytest; true", "true-tail"),
    ('npm test; "true"', "true-tail"),
    ("npm test; rm -rf dist", "post-check-command"),
    ("npm test && deploy || true", "post-check-command"),
    ("pytest || true", "or-chain"),
    ("false || npm test", "or-chain"),
    ("npm test || echo failed", "or-chain"),
    ("pytest || exit 0", "or-chain"),
    ("pytest || exit 1", "or-chain"),
    ("npm test &", "background"),
    ("npm test 2>&1 &", "background"),
    ("sudo -b npm test", "background"),
    ("! npm test", "negated"),
    ("echo $(npm test)", "inside-substitution"),
    ("x=`pytest`", "inside-substitution"),
    ('echo "$(npm test)"', "inside-substitution"),
    ("diff <(pytest) expected", "inside-substitution"),
    ("if npm test; then echo ok; fi", "inside-compound"),
    ("for f in *.py; do pytest $f; done", "inside-compound"),
    ("while true; do pytest; done", "inside-compound"),
    ("case $x in a) pytest;; esac", "inside-compound"),
    ("f() { pytest; }", "inside-compound"),
    ("npm test | grep ok", "deciding-consumer"),
    ("pytest | true", "deciding-consumer"),
    ("npm test | ./summarise.sh", "deciding-consumer"),
    ("npm test | jq .", "deciding-consumer"),
    ("npm test 2>&1 | tee log | tail -5", "extra-pipes"),
    ("npm test; > out.log", "standalone-redirect"),
    ("exit 0; npm test", "early-exit"),
    ("[ -f x ] || exit 0; pytest", "early-exit"),
    ("exec true; pytest", "early-exit"),
    ("trap 'exit 0' EXIT; pytest", "exit-trap"),
    ("npm() { true; }; npm test", "shadowed"),
    ("pytest -q ;;", "parse-error"),
    ('npm test "unterminated', "parse-error"),
    ("bash -c 'npm test; true'", "true-tail"),
    ("sh -c 'pytest || true'", "or-chain"),
    ("(npm test; true)", "true-tail"),
    ("(npm test | tee a) | tail", "extra-pipes"),
    ("set -o pipefail; npm test | grep ok", "deciding-consumer"),
    ("set -o pipefail; cat in.txt | pytest -q -", "pipefail-producer"),
    ("npm test | grep -c ok; exit ${PIPESTATUS[1]}", "deciding-consumer"),
    ("bash <<'EOF'\nnpm test || true\nEOF", "or-chain"),
    ("set -o pipefail; set +o pipefail; npm test | tee log | tail", "extra-pipes"),
]


@pytest.mark.parametrize(("command", "code"), MASKED_BASH)
def test_masking_shapes_never_witness(command: str, code: str) -> None:
    """Shapes that can hide the check's status are `masked`, with the reason that says why."""
    result = verdict(command)
    assert result.validation is not None, command
    assert result.exit_source == "masked"
    assert not result.witness_eligible
    assert code in codes(result), result.reasons


@pytest.mark.parametrize(
    "command",
    ["npm test | tail -5", "npm test 2>&1 | tail -n 30", "pytest | tee out.log", "pytest -q | head -50",
     "npm test |& tee log", "cd api && npm test 2>&1 | tail -20", "npm test | cat", "npm test | less"],
)
def test_one_pass_through_pipe_is_a_reporting_pipe(command: str) -> None:
    """One pipe to tee/tail/head/cat/less witnesses under seed and not under strict."""
    seed, strict = verdict(command), verdict(command, policy="strict")
    assert seed.exit_source == strict.exit_source == "reporting-pipe"
    assert seed.witness_eligible and not strict.witness_eligible
    assert "reporting-pipe" in codes(seed, "residual")
    assert "strict-policy" in codes(strict)


PWSH: list[tuple[str, str | None, bool, str]] = [
    ("npm test", "check", True, "npm test"),
    ('$env:CI = "1"; npm test', "check", True, "npm test"),
    ('npm test; "EXIT=$LASTEXITCODE"', "check", True, "npm test"),
    ("npm test; 'done'", "check", True, "npm test"),
    ("npm test; exit $LASTEXITCODE", "check", True, "npm test"),
    ("Set-Location api; npm test", "check", True, "npm test"),
    ('& "C:\\Program Files\\nodejs\\npm.cmd" test', "check", True, "npm test"),
    ("npm test -- --watch=false", "check", True, "npm test -- --watch=false"),
    ("cargo test -- --nocapture", "check", True, "cargo test -- --nocapture"),
    ("Invoke-Pester -Path tests -CI", "check", True, "Invoke-Pester -Path tests -CI"),
    ("npm test; echo done", "masked", False, "npm test"),
    ("npm test; Write-Output \"done\"", "masked", False, "npm test"),
    ("npm test; $LASTEXITCODE", "masked", False, "npm test"),
    ('npm test; "$(Remove-Item x)"', "masked", False, "npm test"),
    ("npm test || echo failed", "masked", False, "npm test"),
    ("npm test &", "masked", False, "npm test"),
    ("Measure-Command { npm test }", "masked", False, "npm test"),
    ("$x = npm test", "masked", False, "npm test"),
    ("if ($true) { npm test }", "masked", False, "npm test"),
    ("python -m pytest -x | Select-String FAILED", "masked", False, "pytest -x"),
    ("npm test 2>&1 | Select-Object -First 40 | Out-Host", "masked", False, "npm test"),
    ('pwsh -NoProfile -Command "npm test; exit 1"', "masked", False, "npm test"),
    ("npm test 2>&1 | Select-Object -Last 40; exit $LASTEXITCODE", "check", True, "npm test"),
    ("npm test | tail -5; exit $LASTEXITCODE", "reporting-pipe", True, "npm test"),
    ('Invoke-Expression "npm test"', "check", True, "npm test"),
    ("npm test; exit", "masked", False, "npm test"),
]


@pytest.mark.parametrize(("command", "source", "eligible", "statement"), PWSH)
def test_powershell_rules(command: str, source: str, eligible: bool, statement: str) -> None:
    """PowerShell keeps quoted-literal tails and `exit $LASTEXITCODE`; anything else after masks."""
    result = verdict(command, "pwsh")
    assert result.validation is not None, result.reasons
    assert (result.exit_source, result.witness_eligible) == (source, eligible), result.reasons
    assert result.validation.statement == statement


def test_bash_quoted_word_after_the_check_is_a_command() -> None:
    """`; "true"` masks in bash (a quoted word runs) but a quoted literal only prints in pwsh."""
    assert verdict('npm test; "true"').exit_source == "masked"
    assert verdict('npm test; "true"', "pwsh").exit_source == "check"


@pytest.mark.parametrize(
    ("command", "strict_eligible"),
    [("npm test 2>&1 | Select-Object -First 40", True), ("npm test | Tee-Object -FilePath log.txt", True),
     ("npm test | Out-String", True), ("npm test | Format-Table", True), ("npm test | tail -5", False)],
)
def test_powershell_cmdlet_pipes_stay_attributable_under_strict(command: str, strict_eligible: bool) -> None:
    """Strict refuses reporting pipes to native consumers, not to PowerShell cmdlets."""
    result = verdict(command, "pwsh", "strict")
    assert result.exit_source == "reporting-pipe"
    assert result.witness_eligible is strict_eligible


SAME_CHECK = [
    ["npx tsc -p tsconfig.json --noEmit", "npx tsc -p tsconfig.json --noEmit 2>&1 | tail -40",
     "npx tsc -p tsconfig.json --noEmit > out.log 2>&1", "CI=1 npx tsc -p tsconfig.json --noEmit",
     "tsc -p tsconfig.json --noEmit", "time npx tsc -p tsconfig.json --noEmit"],
    ["npm test", "npm run test", "npm t", "npm test; echo done", "npm test || true"],
    ["pytest -q", "python -m pytest -q", "python3 -m pytest -q", "uv run pytest -q", ".venv/bin/pytest -q",
     "py.test -q", "coverage run -m pytest -q"],
    ["cd api && npm test", "cd api; npm test", "(cd api && npm test)", "pushd api; npm test",
     "env -C api npm test", "npm --prefix api test", "cd api && npm test 2>&1 | tail -5", "cd ./api/ && npm test"],
]


@pytest.mark.parametrize("group", SAME_CHECK, ids=lambda group: group[0])
def test_output_plumbing_never_changes_identity(group: list[str]) -> None:
    """Redirects, pipes, env prefixes, wrappers and tails leave the validation key unchanged."""
    keys = set()
    for command in group:
        validation = verdict(command).validation
        assert validation is not None, command
        keys.add(validation.key)
    assert len(keys) == 1


def test_powershell_plumbing_shares_the_bash_key() -> None:
    """`$env:X` prefixes and cmdlet pipes are plumbing too, and the key does not depend on the dialect."""
    bash = verdict("npx tsc -p tsconfig.json --noEmit").validation
    for command in ['$env:CI = "1"; npx tsc -p tsconfig.json --noEmit',
                    "npx tsc -p tsconfig.json --noEmit 2>&1 | Select-Object -First 40"]:
        pwsh = verdict(command, "pwsh").validation
        assert bash is not None and pwsh is not None
        assert pwsh.key == bash.key


@pytest.mark.parametrize(
    ("first", "second"),
    [("npx vitest run a.spec.ts", "npx vitest run"), ("npm run lint", "npm test"), ("cd api && npm test", "npm test"),
     ("cd api && npm test", "cd web && npm test"), ("pytest tests/a", "pytest tests/b"),
     ("npm test", "yarn test"), ("go test ./...", "go vet ./..."), ("(cd api); npm test", "cd api; npm test")],
)
def test_a_different_target_is_a_different_check(first: str, second: str) -> None:
    """Another target, script, tool or directory gives another key."""
    one, two = verdict(first).validation, verdict(second).validation
    assert one is not None and two is not None
    assert one.key != two.key


def test_subshell_cd_does_not_leak_and_popd_returns() -> None:
    """`cd` inside `( … )` stays there; `popd` undoes `pushd`; `cd` in a pipeline changes nothing."""
    assert verdict("(cd api); npm test").validation.directory is None  # type: ignore[union-attr]
    assert verdict("pushd api; popd; npm test").validation.directory is None  # type: ignore[union-attr]
    assert verdict("cd api | cat; npm test").validation.directory is None  # type: ignore[union-attr]
    assert verdict("cd api && cd ../web && npm test").validation.directory == "web"  # type: ignore[union-attr]
    assert verdict("cd /srv/app && npm test").validation.directory == "/srv/app"  # type: ignore[union-attr]


FAMILIES: list[tuple[str, str, str]] = [
    ("pytest", "test", "pytest"),
    ("python -m unittest discover -s tests", "test", "unittest"),
    ("tox -e py311", "test", "tox"),
    ("nox -s tests", "test", "nox"),
    ("jest --ci", "test", "jest"),
    ("vitest run", "test", "vitest"),
    ("npx vitest", "test", "vitest"),
    ("mocha", "test", "mocha"),
    ("npm test", "test", "npm-script"),
    ("pnpm lint", "lint", "npm-script"),
    ("yarn typecheck", "typecheck", "npm-script"),
    ("bun run build", "build", "npm-script"),
    ("bun test", "test", "npm-script"),
    ("npm run check", "lint", "npm-script"),
    ("npm run test:unit", "test", "npm-script"),
    ("npm run check:types", "typecheck", "npm-script"),
    ("tsc --noEmit", "typecheck", "tsc"),
    ("eslint .", "lint", "eslint"),
    ("ruff check .", "lint", "ruff"),
    ("ruff format --check .", "lint", "ruff"),
    ("mypy src", "typecheck", "mypy"),
    ("pyright", "typecheck", "pyright"),
    ("go test ./...", "test", "go"),
    ("go vet ./...", "lint", "go"),
    ("go build ./...", "build", "go"),
    ("cargo test", "test", "cargo"),
    ("cargo check", "typecheck", "cargo"),
    ("cargo clippy", "lint", "cargo"),
    ("cargo build --release", "build", "cargo"),
    ("cargo +nightly test", "test", "cargo"),
    ("mvn test", "test", "maven"),
    ("mvn -q clean verify", "test", "maven"),
    ("./mvnw package", "build", "maven"),
    ("gradle test", "test", "gradle"),
    ("./gradlew check", "test", "gradle"),
    ("./gradlew :app:test", "test", "gradle"),
    ("./gradlew build -x test", "build", "gradle"),
    ("dotnet test", "test", "dotnet"),
    ("dotnet build", "build", "dotnet"),
    ("make test", "test", "make"),
    ("make check", "test", "make"),
    ("make", "build", "make"),
    ("ctest --test-dir build", "test", "ctest"),
    ("rspec", "test", "rspec"),
    ("bundle exec rspec", "test", "rspec"),
    ("phpunit", "test", "phpunit"),
    ("vendor/bin/phpunit --testdox", "test", "phpunit"),
    ("swift test", "test", "swift"),
    ("python manage.py test", "test", "django"),
    ("./tests/runtests.py", "test", "runtests"),
    ("./scripts/test-e2e.sh", "test", "test-script"),
    ("python tests/test_api.py", "test", "test-script"),
    ("ruby -I test test/test_utils.rb", "test", "test-script"),
    ("php vendor/bin/phpunit", "test", "phpunit"),
    ("node --test", "test", "node-test"),
    ("black --check .", "lint", "black"),
    ("prettier --check .", "lint", "prettier"),
]


@pytest.mark.parametrize(("command", "kind", "family"), FAMILIES)
def test_family_table(command: str, kind: str, family: str) -> None:
    """Each family of the table is recognised with its kind."""
    validation = verdict(command).validation
    assert validation is not None, command
    assert (validation.kind, validation.family) == (kind, family)


@pytest.mark.parametrize(
    "command",
    ["echo npm test", "git commit -m 'make npm test pass'", "echo ok > vitest", "cat vitest.log", "npm install",
     "pnpm add -D vitest", "ruff format .", "black .", "prettier --write .", "make install", "mvn clean",
     "python -c 'import pytest'", "xargs pytest", "ls pytest/", "test -f x", "npm run start", "npm run lint:fix",
     "cargo run", "go run .", "dotnet run", "command -v pytest", "sudo -l", "which jest", "grep -r pytest .",
     "npm test\r", "su ci", "cat <<'EOF'\nnpm test\nEOF"],
)
def test_a_mention_is_not_a_check(command: str) -> None:
    """A family word outside command position, or a non-check use of the program, is not a check."""
    result = verdict(command)
    assert result.validation is None, result.validation
    assert result.exit_source is None and not result.witness_eligible


EFFECTS = [
    ("ls -la", "read-only"), ("cat a | grep b | wc -l", "read-only"), ("git status && git diff", "read-only"),
    ("find . -name '*.py'", "read-only"), ("rg -n TODO src", "read-only"), ("pytest -q", "read-only"),
    ("npm run build", "read-only"), ("sed -n 1,20p f", "read-only"), ("git branch", "read-only"),
    ("echo x > out.txt", "mutating"), ("pytest > log.txt", "mutating"), ("sed -i s/a/b/ f", "mutating"),
    ("rm -rf dist", "mutating"), ("npm install", "mutating"), ("git stash", "mutating"),
    ("git checkout main", "mutating"), ("eslint --fix .", "mutating"), ("ruff format .", "mutating"),
    ("tee log < in", "mutating"), ("find . -delete", "unknown"), ("python script.py", "unknown"),
    ("./deploy.sh", "unknown"), ("ls 2>/dev/null", "read-only"), ("pytest -q ;;", "unknown"),
    ("echo $(rm x)", "mutating"), ("bash -c 'rm -f x'", "mutating"), ("find . | xargs grep x", "read-only"),
]


@pytest.mark.parametrize(("command", "effect"), EFFECTS)
def test_effects(command: str, effect: str) -> None:
    """Read-only only for the read-only table without file redirects; checks are evidence."""
    assert verdict(command).effect == effect


@pytest.mark.parametrize(
    ("command", "shell", "effect"),
    [("Get-ChildItem -Recurse", "pwsh", "read-only"), ("Remove-Item -Recurse dist", "pwsh", "mutating"),
     ("npm test *> log.txt", "pwsh", "mutating"), ("npm test 2>$null", "pwsh", "read-only")],
)
def test_powershell_effects(command: str, shell: str, effect: str) -> None:
    """PowerShell cmdlets and redirects are classified like their bash counterparts."""
    assert verdict(command, shell).effect == effect


@pytest.mark.parametrize(
    ("command", "expected"),
    [("grep -q x f", True), ("rg foo", True), ("git diff --quiet", True), ("[ -f x ]", True), ("test -d y", True),
     ("grep x f | head", False), ("grep x f; echo", False), ("pytest", False), ("git diff", False)],
)
def test_expected_negative_probes(command: str, expected: bool) -> None:
    """A lone grep/rg/`git diff --quiet`/test is a probe whose exit 1 means "no"."""
    assert verdict(command).expected_negative is expected


def test_every_masking_reason_points_at_the_text_responsible() -> None:
    """The span of a masking reason covers the text that masks."""
    command = "cd api && npm test 2>&1 | grep passed; echo done"
    result = verdict(command)
    spans = {reason.code: reason.span for reason in result.reasons if reason.span is not None}
    assert command[spans["deciding-consumer"].start : spans["deciding-consumer"].end] == "| grep passed"
    assert command[spans["echo-tail"].start : spans["echo-tail"].end] == "; echo done"


def test_spans_are_characters_not_bytes() -> None:
    """With multi-byte text before it, the span still indexes the right characters."""
    command = "echo 'héllo ✓ 日本'; npm test | grep ok"
    reason = next(r for r in verdict(command).reasons if r.code == "deciding-consumer")
    assert reason.span is not None
    assert command[reason.span.start : reason.span.end] == "| grep ok"


def test_spans_inside_command_strings_point_into_the_outer_text() -> None:
    """A reason found inside `bash -c '…'` points at the characters of the original command."""
    command = "bash -c 'npm test; echo done'"
    reason = next(r for r in verdict(command).reasons if r.code == "echo-tail")
    assert reason.span is not None
    assert command[reason.span.start : reason.span.end] == "; echo done"


def test_several_checks_each_get_their_own_verdict() -> None:
    """All checks are listed; the one whose status is reported is the primary validation."""
    result = verdict("npm run lint; npm test 2>&1 | tail -5")
    assert [(c.validation.statement, c.exit_source) for c in result.checks] == [
        ("npm run lint", "masked"), ("npm test", "reporting-pipe")]
    assert result.validation is not None and result.validation.statement == "npm test"


def test_unusable_text_fails_closed_with_a_reason() -> None:
    """NUL bytes and lone surrogates get a clear verdict instead of an exception."""
    for command in ["npm test\0", "npm test \udcff"]:
        result = verdict(command)
        assert result.parse_error is not None and not result.witness_eligible
        assert result.effect == "unknown"
        assert result.reasons[0].code == "unreadable"


def test_empty_command_is_not_a_check() -> None:
    """An empty or blank command is not a check and says so."""
    for command in ["", "   ", "\n\n"]:
        result = verdict(command)
        assert result.validation is None and result.reasons[0].code == "empty"


def test_results_are_cached_and_immutable() -> None:
    """The same question returns the identical, immutable result object."""
    first = analyze("pytest -q")
    assert analyze("pytest -q") is first
    with pytest.raises(AttributeError):
        first.exit_source = "masked"  # type: ignore[misc]


def test_arguments_are_validated() -> None:
    """An unknown shell or policy is a ValueError, a non-string command a TypeError."""
    with pytest.raises(ValueError, match="shell"):
        analyze("pytest", shell="fish")
    with pytest.raises(ValueError, match="policy"):
        analyze("pytest", policy="lenient")
    with pytest.raises(TypeError):
        analyze(b"pytest", cache=False)  # type: ignore[arg-type]


@pytest.mark.parametrize("command", ["bash -c 'pytest'; bash -c 'true'", "sh -c 'npm test'\nsh -c 'echo done'",
                                     "pwsh -Command a\necho;npx -c pytest"])
def test_each_command_string_is_judged_on_its_own(command: str) -> None:
    """A check in one command string is not found again in a later one: only the strings that
    run a check report one, and a check followed by another command string is masked."""
    first = analyze(command, cache=False)
    assert [check.validation.span.start for check in first.checks] == [command.index("pytest") if "pytest" in
                                                                       command else command.index("npm")]
    assert first.exit_source == ("check" if command.startswith("pwsh") else "masked")
