"""Validation families: which programs are checks, of which kind, recognised how.

The table is data. Each :class:`Family` names the programs it covers and a *style* that says
how the check is found in the argv once wrappers are gone:

``program``
    The program itself is the check (``pytest``, ``tsc``, ``jest``).
``subcommand``
    The first word after the program's global options picks the kind (``go test``,
    ``cargo clippy``); other subcommands are not checks.
``goals``
    Every non-option word is a goal or task and the strongest one picks the kind
    (``mvn clean verify``, ``./gradlew :app:test``, ``make -C api check``).
``scripts``
    A package manager running a script from ``package.json``; the script's name picks the kind.

Kinds are ``test``, ``typecheck``, ``lint`` and ``build``. ``requires`` lists flags of which
one must be present for the program to be a check (``black --check``), ``fix`` flags that make
a check also rewrite files (``eslint --fix``).
"""

from __future__ import annotations

import re
from typing import Literal, NamedTuple

from ._vocabulary import CheckKind

FamilyStyle = Literal["program", "subcommand", "goals", "scripts"]
"""How a family's check is found in the argv (see the module docstring)."""
_STRENGTH: dict[CheckKind, int] = {"test": 4, "typecheck": 3, "lint": 2, "build": 1}


class Family(NamedTuple):
    """One row of the table."""

    name: str
    """The family name reported to users (``pytest``, ``cargo``, ``npm-script`` …)."""
    programs: tuple[str, ...]
    """Program basenames, lower case, without ``.exe``/``.cmd``/``.bat``/``.ps1``."""
    style: FamilyStyle
    """``program``, ``subcommand``, ``goals`` or ``scripts``."""
    kinds: tuple[tuple[str, CheckKind], ...] = ()
    """For ``program``: ``(("", kind),)``; otherwise word → kind (a trailing ``*`` matches a
    prefix, e.g. ``test-*``)."""
    value_options: tuple[str, ...] = ()
    """Options that take the next word as their value (skipped when looking for words)."""
    dir_options: tuple[str, ...] = ()
    """Options whose value is a directory the check runs in (folded into its identity)."""
    requires: tuple[str, ...] = ()
    """At least one of these flags must be present (``--check`` for formatters)."""
    fix: tuple[str, ...] = ()
    """Flags with which the check also rewrites files."""
    default: CheckKind | None = None
    """For ``goals``: the kind when no goal word is given (``make`` alone builds)."""
    modules: tuple[str, ...] = ()
    """``python -m`` module names that run this family."""

    @property
    def program_kind(self) -> CheckKind:
        """For a ``program`` family: the kind of check the program is (its one row in ``kinds``)."""
        (_, kind), = self.kinds
        return kind


def _p(name: str, kind: CheckKind, *programs: str, modules: tuple[str, ...] = (), requires: tuple[str, ...] = (),
       fix: tuple[str, ...] = (), value_options: tuple[str, ...] = ()) -> Family:
    """A ``program``-style family: the program itself is the check."""
    return Family(name, programs or (name,), "program", (("", kind),), value_options=value_options,
                  requires=requires, fix=fix, modules=modules)


# Test runner scripts that projects ship (Django, sympy, redis, micropython, …)
_RUNNER_SCRIPTS = ("runtests.py", "run_tests.py", "run-tests.py", "runtests.sh", "run_tests.sh", "run-tests.sh",
                   "runtests", "run-tests", "runtest", "run_tests", "test.sh", "tests.sh")


FAMILIES: tuple[Family, ...] = (
    # Python
    _p("pytest", "test", "pytest", "py.test", "pytest-3", modules=("pytest", "py.test"),
       fix=("--snapshot-update", "--inline-snapshot=fix", "--inline-snapshot=create")),
    Family("unittest", (), "program", (("", "test"),), modules=("unittest",)),
    _p("tox", "test", "tox", modules=("tox",)),
    _p("nox", "test", "nox", modules=("nox",)),
    _p("nose", "test", "nosetests", "nose2", modules=("nose", "nose2")),
    _p("behave", "test", "behave", modules=("behave",)),
    _p("mypy", "typecheck", "mypy", modules=("mypy",)),
    Family("dmypy", ("dmypy",), "subcommand", (("run", "typecheck"), ("check", "typecheck"))),
    _p("pyright", "typecheck", "pyright", "basedpyright", modules=("pyright", "basedpyright")),
    _p("pyre", "typecheck", "pyre"),
    Family("ty", ("ty",), "subcommand", (("check", "typecheck"),)),
    Family("ruff", ("ruff",), "subcommand", (("check", "lint"), ("format", "lint")), fix=("--fix",),
           requires=(), modules=("ruff",)),
    _p("flake8", "lint", "flake8", modules=("flake8",)),
    _p("pylint", "lint", "pylint", modules=("pylint",)),
    _p("black", "lint", "black", modules=("black",), requires=("--check", "--diff")),
    _p("isort", "lint", "isort", modules=("isort",), requires=("--check", "--check-only", "-c", "--diff")),
    Family("django", ("manage.py",), "subcommand", (("test", "test"), ("check", "lint"))),
    # JavaScript and TypeScript
    _p("jest", "test", "jest", fix=("-u", "--updateSnapshot", "--update-snapshot")),
    Family("vitest", ("vitest",), "subcommand",
           (("", "test"), ("run", "test"), ("related", "test"), ("typecheck", "typecheck")),
           fix=("-u", "--update")),
    _p("mocha", "test", "mocha", "_mocha"),
    _p("ava", "test", "ava"),
    _p("jasmine", "test", "jasmine"),
    _p("qunit", "test", "qunit"),
    _p("tap", "test", "tap", "tape"),
    Family("karma", ("karma",), "subcommand", (("start", "test"), ("run", "test"))),
    Family("playwright", ("playwright",), "subcommand", (("test", "test"),), fix=("--update-snapshots", "-u")),
    Family("cypress", ("cypress",), "subcommand", (("run", "test"),)),
    _p("tsc", "typecheck", "tsc", "vue-tsc", "tsgo"),
    _p("svelte-check", "typecheck", "svelte-check"),
    _p("eslint", "lint", "eslint", fix=("--fix", "--fix-dry-run")),
    _p("prettier", "lint", "prettier", requires=("--check", "-c", "--list-different", "-l")),
    _p("stylelint", "lint", "stylelint", fix=("--fix",)),
    Family("biome", ("biome",), "subcommand", (("check", "lint"), ("lint", "lint"), ("ci", "lint")),
           fix=("--write", "--fix", "--apply", "--apply-unsafe")),
    _p("oxlint", "lint", "oxlint", fix=("--fix",)),
    Family("deno", ("deno",), "subcommand", (("test", "test"), ("lint", "lint"), ("check", "typecheck"))),
    Family("gulp", ("gulp", "grunt"), "goals", (("test", "test"), ("lint", "lint"), ("build", "build"))),
    Family("nx", ("nx",), "subcommand",
           (("test", "test"), ("lint", "lint"), ("build", "build"), ("typecheck", "typecheck"), ("e2e", "test"))),
    Family("turbo", ("turbo",), "goals",
           (("test", "test"), ("lint", "lint"), ("build", "build"), ("typecheck", "typecheck"),
            ("check-types", "typecheck"), ("check", "lint")),
           value_options=("--filter", "-F", "--concurrency", "--cache-dir")),
    Family("npm-script", ("npm", "pnpm", "yarn", "bun"), "scripts"),
    # Go, Rust, JVM, .NET, C, Swift
    Family("go", ("go",), "subcommand", (("test", "test"), ("vet", "lint"), ("build", "build")),
           value_options=("-C",), dir_options=("-C",)),
    _p("golangci-lint", "lint", "golangci-lint"),
    Family("cargo", ("cargo",), "subcommand",
           (("test", "test"), ("nextest", "test"), ("check", "typecheck"), ("clippy", "lint"),
            ("build", "build"), ("fmt", "lint")),
           value_options=("--manifest-path", "--config", "-Z", "--color", "--target-dir"),
           fix=("--fix",)),
    Family("maven", ("mvn", "mvnw", "mvnd"), "goals",
           (("test", "test"), ("verify", "test"), ("install", "test"), ("integration-test", "test"),
            ("surefire:test", "test"), ("package", "build"), ("compile", "build"), ("test-compile", "build"),
            ("checkstyle:check", "lint"), ("spotless:check", "lint")),
           value_options=("-f", "--file", "-pl", "--projects", "-P", "--activate-profiles", "-T", "--threads",
                          "-s", "--settings", "-rf", "--resume-from", "-gs", "-t", "-l", "--log-file", "-b",
                          "-e"),
           ),
    Family("gradle", ("gradle", "gradlew"), "goals",
           (("test", "test"), ("check", "test"), ("build", "build"), ("assemble", "build"),
            ("connectedCheck", "test"), ("integrationTest", "test"), ("compileJava", "build"),
            ("compileKotlin", "build"), ("compileTestJava", "build"), ("lint", "lint"),
            ("detekt", "lint"), ("ktlintCheck", "lint"), ("spotlessCheck", "lint"), ("test*", "test")),
           value_options=("-x", "--exclude-task", "--tests", "-c", "--settings-file", "-b", "--build-file",
                          "-g", "--gradle-user-home", "--console", "--warning-mode", "-I", "--init-script",
                          "--max-workers", "--priority"),
           dir_options=("-p", "--project-dir")),
    Family("ant", ("ant",), "goals", (("test", "test"), ("test.*", "test"), ("test-*", "test"), ("build", "build"),
                                      ("compile", "build"), ("jar", "build")), default="build"),
    Family("sbt", ("sbt",), "goals", (("test", "test"), ("compile", "build"), ("testOnly", "test"))),
    Family("mill", ("mill",), "goals", (("test", "test"), ("compile", "build"))),
    Family("dotnet", ("dotnet",), "subcommand",
           (("test", "test"), ("build", "build"), ("format", "lint")),
           requires=(), fix=()),
    Family("make", ("make", "gmake"), "goals",
           (("test", "test"), ("tests", "test"), ("check", "test"), ("test-*", "test"), ("check-*", "test"),
            ("test_*", "test"), ("unittest", "test"), ("lint", "lint"), ("lint-*", "lint"),
            ("typecheck", "typecheck"), ("type-check", "typecheck"), ("mypy", "typecheck"),
            ("build", "build"), ("all", "build")),
           value_options=("-f", "--file", "--makefile", "-j", "--jobs", "-l", "-o", "-W", "-I"),
           dir_options=("-C", "--directory"), default="build"),
    _p("ctest", "test", "ctest", value_options=("--test-dir",)),
    Family("cmake", ("cmake",), "subcommand", (("--build", "build"),)),
    _p("ninja", "build", "ninja", value_options=("-C",)),
    Family("meson", ("meson",), "subcommand", (("test", "test"), ("compile", "build"))),
    Family("bazel", ("bazel", "bazelisk"), "subcommand", (("test", "test"), ("build", "build"))),
    Family("swift", ("swift",), "subcommand", (("test", "test"), ("build", "build")),
           value_options=("--package-path",), dir_options=("--package-path",)),
    Family("xcodebuild", ("xcodebuild",), "goals",
           (("test", "test"), ("build", "build"), ("build-for-testing", "build"), ("test-without-building", "test")),
           default="build",
           value_options=("-scheme", "-project", "-workspace", "-destination", "-configuration", "-sdk",
                          "-target", "-derivedDataPath", "-resultBundlePath", "-testPlan", "-only-testing",
                          "-skip-testing", "-xcconfig", "-toolchain", "-arch", "-jobs")),
    # Ruby, PHP, Elixir, Haskell, others
    _p("rspec", "test", "rspec"),
    _p("cucumber", "test", "cucumber"),
    Family("rake", ("rake",), "goals", (("test", "test"), ("spec", "test"), ("test:*", "test"), ("spec:*", "test"),
                                        ("rubocop", "lint"))),
    _p("rubocop", "lint", "rubocop", fix=("-a", "-A", "--autocorrect", "--autocorrect-all")),
    _p("phpunit", "test", "phpunit", "paratest", "pest"),
    _p("phpstan", "typecheck", "phpstan"),
    _p("psalm", "typecheck", "psalm"),
    Family("artisan", ("artisan",), "subcommand", (("test", "test"),)),
    Family("composer", ("composer",), "subcommand", (("test", "test"), ("lint", "lint"), ("phpstan", "typecheck"))),
    Family("mix", ("mix",), "subcommand", (("test", "test"), ("compile", "build"), ("credo", "lint"),
                                           ("dialyzer", "typecheck"))),
    Family("stack", ("stack", "cabal"), "subcommand", (("test", "test"), ("build", "build"))),
    Family("zig", ("zig",), "subcommand", (("test", "test"), ("build", "build"))),
    Family("dune", ("dune",), "subcommand", (("test", "test"), ("build", "build"), ("runtest", "test"))),
    _p("shellcheck", "lint", "shellcheck"),
    Family("pre-commit", ("pre-commit", "prek"), "subcommand", (("run", "lint"),), modules=("pre_commit",)),
    _p("hadolint", "lint", "hadolint"),
    # PowerShell
    _p("pester", "test", "invoke-pester"),
    _p("psscriptanalyzer", "lint", "invoke-scriptanalyzer"),
    _p("runtests", "test", *_RUNNER_SCRIPTS),
)

# Package-manager script names and their kind.
SCRIPT_KINDS: tuple[tuple[str, CheckKind], ...] = (
    ("test", "test"), ("t", "test"), ("tst", "test"), ("tests", "test"), ("test:*", "test"), ("test-*", "test"),
    ("test_*", "test"), ("e2e", "test"), ("lint-*", "lint"), ("typecheck-*", "typecheck"),
    ("unit", "test"), ("coverage", "test"), ("jest", "test"), ("vitest", "test"),
    ("lint", "lint"), ("lint:*", "lint"), ("eslint", "lint"), ("check", "lint"), ("check:*", "lint"),
    ("format:check", "lint"), ("fmt:check", "lint"), ("prettier:check", "lint"),
    ("typecheck", "typecheck"), ("type-check", "typecheck"), ("typecheck:*", "typecheck"),
    ("types", "typecheck"), ("tsc", "typecheck"), ("check-types", "typecheck"), ("check:types", "typecheck"),
    ("build", "build"), ("build:*", "build"), ("compile", "build"), ("ci", "test"), ("verify", "test"),
    ("validate", "test"),
)
# The more specific pattern wins: `check:types` is a typecheck, not a lint; a whole name before
# any prefix pattern, and a longer prefix before a shorter one.
_SCRIPT_NAMES: dict[str, CheckKind] = {name: kind for name, kind in SCRIPT_KINDS if not name.endswith("*")}
_SCRIPT_PREFIXES = tuple(sorted(((name, kind) for name, kind in SCRIPT_KINDS if name.endswith("*")),
                                key=lambda pair: -len(pair[0])))

PM_BUILTINS = frozenset({
    "install", "i", "ci", "add", "remove", "rm", "uninstall", "un", "update", "up", "upgrade", "audit",
    "init", "create", "publish", "pack", "link", "unlink", "outdated", "ls", "list", "why", "info", "view",
    "version", "login", "logout", "config", "cache", "dedupe", "prune", "rebuild", "start", "stop",
    "restart", "fund", "doctor", "help", "set", "import", "patch", "store", "setup", "env", "dlx",
    "exec", "x", "run", "run-script", "rum", "urn", "workspaces", "workspace", "upgrade-interactive",
    "pm", "completion", "search", "owner", "team", "token", "whoami", "explain", "query",
    "repo", "docs", "bugs", "edit", "explore", "hook", "org", "ping", "prefix", "root", "shrinkwrap",
    "star", "stars", "unpublish", "unstar", "deprecate", "dist-tag", "access", "adduser", "diff", "sbom",
})
PM_VALUE_OPTIONS = {
    "npm": ("--prefix", "-w", "--workspace", "--loglevel", "--registry", "--userconfig", "--cache", "-C"),
    "pnpm": ("-C", "--dir", "--filter", "-F", "--reporter", "--workspace-concurrency", "--loglevel",
             "--test-pattern", "--changed-files-ignore-pattern"),
    "yarn": ("--cwd",),
    "bun": ("--cwd", "--filter", "-F", "--config", "-c"),
}
PM_DIR_OPTIONS = {"npm": ("--prefix", "-C"), "pnpm": ("-C", "--dir"), "yarn": ("--cwd",), "bun": ("--cwd",)}

INTERPRETERS = re.compile(r"^(python|pypy)(\d+(\.\d+)*)?[tw]?$|^py$")
SCRIPT_RUNNERS = frozenset({"node", "ruby", "php", "perl", "deno", "bun", "tsx", "ts-node", "jruby"})
_PROGRAMS: dict[str, Family] = {}
_MODULES: dict[str, Family] = {}
for _family in FAMILIES:
    for _program in _family.programs:
        _PROGRAMS.setdefault(_program, _family)
    for _module in _family.modules:
        _MODULES.setdefault(_module, _family)

TEST_FILE = re.compile(
    r"^(test[_-].*|.*[_-]tests?|tests?)(\.(py|rb|js|mjs|cjs|ts|sh|pl|php|exe))?$|^.*\.(test|spec)\.[jt]sx?$|^.*_spec\.rb$"
)


def family_for_program(name: str) -> Family | None:
    """The family whose program ``name`` (a basename, lower case) is, if any."""
    return _PROGRAMS.get(name)


def family_for_module(name: str) -> Family | None:
    """The family a ``python -m name`` runs, if any."""
    return _MODULES.get(name)


def kind_of(word: str, table: tuple[tuple[str, CheckKind], ...]) -> CheckKind | None:
    """The kind ``word`` maps to in a word → kind table (``test-*`` patterns included)."""
    for pattern, kind in table:
        if pattern.endswith("*"):
            if word.startswith(pattern[:-1]) and len(word) > len(pattern) - 1:
                return kind
        elif word == pattern:
            return kind
    return None


def script_kind(script: str) -> CheckKind | None:
    """The kind of a package-manager script called ``script``, if it is a check."""
    lowered = script.lower()
    if lowered.endswith((":fix", ":watch", ":update")) or lowered in ("test:watch", "build:watch"):
        return None
    kind = _SCRIPT_NAMES.get(lowered)
    return kind if kind is not None else kind_of(lowered, _SCRIPT_PREFIXES)


def strongest(kinds: list[CheckKind]) -> CheckKind | None:
    """The most demanding of several kinds (a test run also builds)."""
    if not kinds:
        return None
    return max(kinds, key=_STRENGTH.__getitem__)


_MENTIONABLE = frozenset(p for f in FAMILIES for p in f.programs if len(p) > 3 and "." not in p and " " not in p)
_MENTIONABLE_BEFORE_TEST = frozenset({"npm", "go", "cargo", "make"})  # `npm test`, `go test` …
# A word of program-name characters not glued to a path or another word, and a ` test` after it.
_CANDIDATE = re.compile(r"(?<![\w./-])[\w-]+(?: test(?![\w-]))?")


def mentions(text: str) -> list[str]:
    """Family names that ``text`` mentions as words (``run pytest first``), in order: each one
    not glued to a path or another word, ``npm test``-like pairs as one mention."""
    words = _CANDIDATE.findall(text)
    if " test" not in text and _MENTIONABLE.isdisjoint(words) and "tsc" not in words:
        return []  # the common case, decided in C
    found: list[str] = []
    for word in words:
        if word[-5:] == " test":
            head = word[:-5]
            if head in _MENTIONABLE_BEFORE_TEST:
                found.append(word)
                continue
            word = head
        if word in _MENTIONABLE or word == "tsc":
            found.append(word)
    return found
