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
``tasks``
    A task runner (``mise run test``, ``just lint``, ``task build``): the task's name picks the
    kind, read like a package-manager script's (:func:`script_kind`). ``runner`` lists the words
    that ask the program to run a task (``run`` for ``mise``; nothing for ``just``).

Kinds are ``test``, ``typecheck``, ``lint`` and ``build``. ``requires`` lists flags of which
one must be present for the program to be a check (``black --check``), ``fix`` flags that make
a check also rewrite files (``eslint --fix``).
"""

import re
from typing import TYPE_CHECKING, Literal, NamedTuple

from ._patterns import lazy
from ._vocabulary import CheckKind

FamilyStyle = Literal["program", "subcommand", "goals", "scripts", "tasks"]
"""How a family's check is found in the argv (see the module docstring)."""
_STRENGTH: dict[CheckKind, int] = {"test": 4, "typecheck": 3, "lint": 2, "build": 1}


class Family(NamedTuple):
    """One row of the table."""

    name: str
    """The family name reported to users (``pytest``, ``cargo``, ``npm-script`` …)."""
    programs: tuple[str, ...]
    """Program basenames, lower case, without ``.exe``/``.cmd``/``.bat``/``.ps1``."""
    style: FamilyStyle
    """``program``, ``subcommand``, ``goals``, ``scripts`` or ``tasks``."""
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
    runner: tuple[tuple[str, ...], ...] = ()
    """For ``tasks``: the word sequences that ask for a task (``("run",)``, ``("tasks", "run")``);
    empty when the task's name follows the options directly (``just test``)."""
    builtins: frozenset[str] = frozenset()
    """For ``tasks``: the program's own commands, never a task's name when the runner word is left
    out (``mise install`` is mise's; ``mise test`` runs the task ``test``)."""
    several: bool = False
    """For ``tasks``: every word (until ``--``) names a task (``just lint test``, ``turbo run build
    test``); otherwise the first names it and the rest are its arguments (``mise run test:e2e NAME``)."""

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


# Test runner scripts that projects ship (Django, sympy, redis, micropython, …), called without a
# path; with a path, any name RUNNER_NAME matches is one (see below).
_RUNNER_SCRIPTS = ("runtests.py", "run_tests.py", "run-tests.py", "runtests.sh", "run_tests.sh", "run-tests.sh",
                   "runtests", "run-tests", "runtest", "run_tests", "test.sh", "tests.sh")
_MISE_BUILTINS = frozenset({
    "activate", "alias", "backends", "bin-paths", "cache", "completion", "config", "deactivate", "doctor", "en",
    "env", "exec", "x", "fmt", "generate", "implode", "install", "i", "install-into", "latest", "link", "ls", "list",
    "ls-remote", "lock", "mcp", "outdated", "plugins", "p", "prune", "registry", "reshim", "run", "r", "search",
    "self-update", "set", "settings", "shell", "sh", "sync", "tasks", "t", "test-tool", "tool", "tool-alias",
    "trust", "uninstall", "unset", "unuse", "upgrade", "up", "usage", "use", "u", "version", "watch", "w", "where",
    "which", "help",
})
_NX_BUILTINS = frozenset({
    "add", "affected", "connect", "daemon", "exec", "generate", "g", "graph", "dep-graph", "import", "init",
    "list", "login", "logout", "migrate", "release", "repair", "report", "reset", "run", "run-many", "show",
    "sync", "sync:check", "view-logs", "watch", "format", "format:write", "record", "help",
})
_TURBO_BUILTINS = frozenset({
    "run", "login", "logout", "link", "unlink", "prune", "gen", "generate", "daemon", "info", "ls", "query", "scan",
    "telemetry", "watch", "bin", "boundaries", "devtools", "docs", "help",
})


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
    # nx: `nx test app`, `nx run app:test`, `nx run-many -t test`, `nx affected -t lint` (see _identify).
    Family("nx", ("nx",), "tasks", builtins=_NX_BUILTINS,
           value_options=("-c", "--configuration", "-p", "--projects", "--exclude", "--base", "--head",
                          "--parallel", "--output-style", "--runner", "--nxBail")),
    Family("turbo", ("turbo",), "tasks", runner=(("run",),), several=True, builtins=_TURBO_BUILTINS,
           value_options=("--filter", "-F", "--concurrency", "--cache-dir", "--output-logs", "--log-order",
                          "--env-mode", "--graph", "--summarize", "--log-prefix", "--cache", "--ui")),
    Family("npm-script", ("npm", "pnpm", "yarn", "bun"), "scripts"),
    # Task runners: the task's name picks the kind (`mise run test:e2e`, `just lint`, `task build`).
    Family("mise", ("mise", "rtx"), "tasks", runner=(("run",), ("r",), ("tasks", "run"), ("task", "run")),
           value_options=("-C", "--cd", "-E", "--env", "-j", "--jobs", "-o", "--output", "-t", "--tool",
                          "--shell", "-s"),
           dir_options=("-C", "--cd"), builtins=_MISE_BUILTINS),
    Family("just", ("just",), "tasks", several=True,
           value_options=("-f", "--justfile", "--set", "--shell", "--shell-arg", "--color", "--dotenv-filename",
                          "--dotenv-path", "--command-color", "--list-heading", "--list-prefix"),
           dir_options=("-d", "--working-directory")),
    Family("task", ("task", "go-task"), "tasks", several=True,
           value_options=("-t", "--taskfile", "-o", "--output", "-c", "--color", "-C", "--concurrency",
                          "--interval", "--output-group-begin", "--output-group-end"),
           dir_options=("-d", "--dir")),
    Family("pants", ("pants", "pants.sh"), "goals",
           (("test", "test"), ("lint", "lint"), ("check", "typecheck"), ("package", "build"))),
    # Go, Rust, JVM, .NET, C, Swift
    Family("go", ("go",), "subcommand", (("test", "test"), ("vet", "lint"), ("build", "build")),
           value_options=("-C",), dir_options=("-C",)),
    _p("golangci-lint", "lint", "golangci-lint", fix=("--fix",)),
    _p("staticcheck", "lint", "staticcheck"),
    _p("bats", "test", "bats"),
    Family("terraform", ("terraform", "tofu"), "subcommand", (("fmt", "lint"), ("validate", "lint"))),
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
    # Formatters are checks only with their checking flag (`shfmt -d` exits 1 on a diff; `gofmt -d`
    # and `-l` exit 0 either way, so they are read-only listings, never checks).
    _p("shfmt", "lint", "shfmt", requires=("-d", "--diff")),
    _p("rustfmt", "lint", "rustfmt", requires=("--check",)),
    _p("clang-format", "lint", "clang-format", requires=("--Werror", "-Werror")),
    Family("hk", ("hk",), "subcommand", (("check", "lint"), ("c", "lint"))),
    Family("openspec", ("openspec",), "subcommand", (("validate", "lint"),)),
    Family("pre-commit", ("pre-commit", "prek"), "subcommand", (("run", "lint"),), modules=("pre_commit",)),
    _p("hadolint", "lint", "hadolint"),
    # PowerShell
    _p("pester", "test", "invoke-pester"),
    _p("psscriptanalyzer", "lint", "invoke-scriptanalyzer"),
    _p("runtests", "test", *_RUNNER_SCRIPTS),
)

# Package-manager script and task names and their kind.
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

INTERPRETERS = lazy(r"^(python|pypy)(\d+(\.\d+)*)?[tw]?$|^py$")
SCRIPT_RUNNERS = frozenset({"node", "ruby", "php", "perl", "deno", "bun", "tsx", "ts-node", "jruby"})
_PROGRAMS: dict[str, Family] = {}
_MODULES: dict[str, Family] = {}
for _family in FAMILIES:
    for _program in _family.programs:
        _PROGRAMS.setdefault(_program, _family)
    for _module in _family.modules:
        _MODULES.setdefault(_module, _family)

RUNNER_NAME = lazy(r"^(?:tests?|run[-_]?tests?|runtests?)(?:\.[\w-]+)?$", re.IGNORECASE)
"""A test runner's own name, with any extension (``test``, ``run-tests.sh``, ``runtests.py``)."""
TEST_MODULE = lazy(r"^(?:test_\w+\.(?:py|rb)|\w+_test\.(?:py|rb|exs)|\w+_spec\.rb"
                         r"|[\w.-]+\.(?:test|spec)\.[cm]?[jt]sx?)$")
"""A test module by its runner's naming convention (``test_api.py``, ``parser_test.rb``, ``a.spec.ts``)."""
SCRIPTS_TEST = lazy(r"(?:^|/)scripts/test[^/]*(?:/|$)")
"""A script under ``scripts/test…`` (``scripts/test-e2e.sh``, ``scripts/tests/unit.sh``)."""


def is_test_script(path: str) -> bool:
    """Whether a program named by ``path`` (it holds a ``/``) is a test runner script: a runner's
    name, a test module, or a script under ``scripts/test…``. A name that merely contains "test"
    (``/tmp/app-test``, ``test-harness.sh``, ``build/tests/test-udt``) is not one."""
    normal = path.replace("\\", "/")
    name = normal.rsplit("/", 1)[-1]
    return RUNNER_NAME.match(name) is not None or TEST_MODULE.match(name) is not None \
        or SCRIPTS_TEST.search(normal) is not None


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


NOT_CHECK_SUFFIXES = (":fix", "-fix", "_fix", ":watch", "-watch", ":update", "-update", ":write", "-write")
"""A script or task whose name ends so rewrites files or never ends (``lint:fix``, ``test:watch``)."""
FORMAT_TASKS = lazy(r"^(?:fmt|format|fix|prettier|autofix|(?:fmt|format|fix)[:_-].+"
                          r"|.+[:_-](?:fix|write|fmt|format))$", re.IGNORECASE)
"""Task and script names that rewrite files (``mise run fmt``, ``just format``, ``lint-fix``): not
checks but mutations. A checking name wins (``fmt:check`` is a lint check: :func:`script_kind` is
asked first)."""


def script_kind(script: str) -> CheckKind | None:
    """The kind of a package-manager script or task called ``script``, if it is a check."""
    lowered = script.lower()
    if lowered.endswith(NOT_CHECK_SUFFIXES):
        return None
    kind = _SCRIPT_NAMES.get(lowered)
    return kind if kind is not None else kind_of(lowered, _SCRIPT_PREFIXES)


def rewrites(script: str) -> bool:
    """Whether a script or task of this name rewrites files (a formatter or fixer) rather than check them."""
    return script_kind(script) is None and FORMAT_TASKS.match(script) is not None


def strongest(kinds: list[CheckKind]) -> CheckKind | None:
    """The most demanding of several kinds (a test run also builds)."""
    if not kinds:
        return None
    return max(kinds, key=_STRENGTH.__getitem__)


_MENTIONABLE = frozenset(p for f in FAMILIES for p in f.programs if len(p) > 3 and "." not in p and " " not in p)
_MENTIONABLE_BEFORE_TEST = frozenset({"npm", "go", "cargo", "make"})  # `npm test`, `go test` …
# A word of program-name characters not glued to a path or another word, and a ` test` after it.
_CANDIDATE = lazy(r"(?<![\w./-])[\w-]+(?: test(?![\w-]))?")


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


if TYPE_CHECKING:
    from typing import TypeAlias

    _Separated: TypeAlias = "Cosmetic | None"
else:
    _Separated = object  # a string annotation would be compiled as the class is made (see `_model`)


class Cosmetic(NamedTuple):
    """One family's cosmetic options: they change what a run prints, never what it checks, so they
    are no part of the check's identity (``go test ./pkg -v`` is the check ``go test ./pkg``)."""

    flags: frozenset[str] = frozenset()
    """Options dropped as they are (``-v``, ``-q``, ``--no-header``)."""
    valued: frozenset[str] = frozenset()
    """Options dropped with their value, given as the next word or after ``=`` (``--tb short``,
    ``--tb=short``)."""
    prefixes: tuple[str, ...] = ()
    """Words dropped when they start so (``-r`` for ``-rA``, ``-j`` for ``-j8``)."""
    until: frozenset[str] = frozenset()
    """Words that end the options the family's own program reads (``run`` and ``test`` for a
    package manager: what follows belongs to the script)."""
    separated: _Separated = None
    """The cosmetic options after ``--`` (a test binary's, for ``cargo test -- --nocapture``); the
    ``--`` goes too when nothing is left after it."""


_COLOR = frozenset({"--color", "--colour", "--colors", "--no-color", "--no-colors", "--no-colour"})
_PYTEST = Cosmetic(
    flags=frozenset({"-v", "-vv", "-vvv", "-q", "-qq", "-qqq", "--verbose", "--quiet", "-s", "-l", "--showlocals",
                     "--no-header", "--no-summary", "-x", "--exitfirst", "--ff", "--failed-first", "--nf",
                     "--new-first", "--disable-warnings", "--disable-pytest-warnings", "--full-trace",
                     "--no-cov", "--cov-report=term", "--cov-report=term-missing", "-ra", "-rA"}),
    valued=frozenset({"--tb", "--color", "--code-highlight", "--durations", "--durations-min", "--maxfail", "-n",
                      "--numprocesses", "--dist", "--capture", "--show-capture", "--verbosity", "-r"}),
    prefixes=("-r", "-n"),
)
_CARGO_TEST_BINARY = Cosmetic(
    flags=frozenset({"--nocapture", "--no-capture", "--show-output", "-q", "--quiet", "--report-time"}),
    valued=frozenset({"--test-threads", "--color", "--format"}),
)
COSMETIC_OPTIONS: dict[str, Cosmetic] = {
    "pytest": _PYTEST,
    "unittest": Cosmetic(flags=frozenset({"-v", "-q", "--verbose", "--quiet", "-b", "--buffer", "-f",
                                          "--failfast", "-c", "--catch", "--locals"})),
    "tox": Cosmetic(flags=frozenset({"-q", "-qq", "-v", "-vv", "--quiet", "--verbose"})),
    "go": Cosmetic(flags=frozenset({"-v", "-json", "-failfast", "-x", "-cover", "-v=true"}),
                   valued=frozenset({"-count", "-timeout", "-p", "-parallel", "-coverprofile", "-covermode",
                                     "-coverpkg", "-o", "-outputdir"})),
    "cargo": Cosmetic(flags=frozenset({"-q", "--quiet", "-v", "-vv", "--verbose", "--no-fail-fast",
                                       "--hide-progress-bar"}),
                      valued=frozenset({"--color", "--message-format", "-j", "--jobs", "--status-level",
                                        "--final-status-level", "--failure-output", "--success-output"}),
                      prefixes=("-j",), separated=_CARGO_TEST_BINARY),
    "jest": Cosmetic(flags=frozenset({"--verbose", "--silent", "--colors", "--no-colors", "-i", "--runInBand",
                                      "--bail", "--watchAll=false", "--watch=false", "--no-watch", "--no-watchman",
                                      "--no-cache"}),
                     valued=frozenset({"--reporters", "-w", "--maxWorkers", "--coverageReporters", "--bail"})),
    "vitest": Cosmetic(flags=frozenset({"--silent", "--no-color", "--run", "--watch=false", "--no-watch", "--bail",
                                        "--hideSkippedTests"}),
                       valued=frozenset({"--reporter", "--bail", "--pool", "--maxWorkers", "--minWorkers",
                                         "--outputFile"})),
    "mocha": Cosmetic(flags=frozenset({"--colors", "-c", "--no-colors", "--bail", "-b"}),
                      valued=frozenset({"--reporter", "-R", "--reporter-option", "-O"})),
    "eslint": Cosmetic(flags=_COLOR | {"--quiet", "--cache", "--no-cache"},
                       valued=frozenset({"-f", "--format", "--cache-location"})),
    "ruff": Cosmetic(flags=frozenset({"-q", "--quiet", "-v", "--verbose", "-s", "--silent", "--no-cache",
                                      "--statistics", "--show-fixes", "--no-show-fixes"}),
                     valued=frozenset({"--output-format", "--color"})),
    "mypy": Cosmetic(flags=frozenset({"--pretty", "--no-pretty", "--no-error-summary", "--error-summary",
                                      "--show-error-codes", "--hide-error-codes", "--show-column-numbers",
                                      "--show-error-context", "--no-color-output", "--color-output",
                                      "--show-absolute-path", "--show-traceback", "-v", "--verbose"})),
    "pyright": Cosmetic(flags=frozenset({"--verbose", "--stats"})),
    "tsc": Cosmetic(flags=frozenset({"--pretty", "--listFiles", "--diagnostics", "--extendedDiagnostics",
                                     "--listEmittedFiles", "--explainFiles"})),
    "golangci-lint": Cosmetic(flags=frozenset({"-v", "--verbose", "--print-issued-lines", "--print-linter-name"}),
                              valued=frozenset({"--out-format", "--color", "--timeout", "--concurrency", "-j",
                                                "--output.text.path", "--output.text.colors"})),
    "dotnet": Cosmetic(flags=frozenset({"--nologo", "-nologo", "/nologo"}),
                       valued=frozenset({"-v", "--verbosity", "--logger", "-l", "-clp", "--consoleLoggerParameters"}),
                       prefixes=("-v:", "/v:", "-clp:", "/clp:", "-consoleLoggerParameters:", "--logger:")),
    "make": Cosmetic(flags=frozenset({"-s", "--silent", "--quiet", "-k", "--keep-going", "--no-print-directory",
                                      "-w", "--print-directory"}),
                     valued=frozenset({"-j", "--jobs", "-l", "--load-average", "-O", "--output-sync"}),
                     prefixes=("-j", "-O", "-l")),
    "npm-script": Cosmetic(flags=frozenset({"--silent", "-s", "--quiet", "-q", "--no-color", "--reporter=silent"}),
                           valued=frozenset({"--loglevel", "--color", "--reporter"}), until=frozenset({"test", "run"})),
    "mise": Cosmetic(flags=frozenset({"-q", "--quiet", "-S", "--silent", "-v", "--verbose", "--timings",
                                      "--no-timings", "-r", "--raw"}),
                     valued=frozenset({"-o", "--output"}), until=frozenset({"run"})),
    "just": Cosmetic(flags=frozenset({"-q", "--quiet", "-v", "--verbose", "--timestamp"}),
                     valued=frozenset({"--color", "--command-color"})),
    "task": Cosmetic(flags=frozenset({"-s", "--silent", "-v", "--verbose"}), valued=frozenset({"-o", "--output",
                                                                                             "-c", "--color"})),
    "rspec": Cosmetic(flags=_COLOR | {"--fail-fast"}, valued=frozenset({"-f", "--format"})),
    "phpunit": Cosmetic(flags=frozenset({"--testdox", "--no-progress", "--stop-on-failure", "--colors"}),
                        prefixes=("--colors=",)),
    "bats": Cosmetic(flags=frozenset({"-t", "--tap", "-T", "--timing", "-p", "--pretty", "--print-output-on-failure",
                                      "--verbose-run"}),
                     valued=frozenset({"-F", "--formatter", "-j", "--jobs"})),
}
"""Cosmetic options per family (see :class:`Cosmetic`); a family not listed has none."""

COSMETIC_ENVIRONMENT = frozenset({
    "CI", "FORCE_COLOR", "NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "COLORTERM", "TERM", "COLUMNS", "LINES",
    "PAGER", "GIT_PAGER", "MANPAGER", "LESS", "PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE", "PYTHONIOENCODING",
    "PY_COLORS", "RUST_BACKTRACE", "RUST_LIB_BACKTRACE", "RUST_LOG", "CARGO_TERM_COLOR", "CARGO_TERM_PROGRESS_WHEN",
    "CARGO_TERM_VERBOSE", "CARGO_TERM_QUIET", "NODE_NO_WARNINGS", "NPM_CONFIG_LOGLEVEL", "npm_config_loglevel",
    "npm_config_color", "NPM_CONFIG_COLOR", "DOTNET_NOLOGO", "DOTNET_CLI_TELEMETRY_OPTOUT",
    "DOTNET_SKIP_FIRST_TIME_EXPERIENCE", "HUSKY", "GIT_TERMINAL_PROMPT", "GH_PROMPT_DISABLED", "TQDM_DISABLE",
    # Where caches live changes how fast a check runs, not what it checks.
    "UV_CACHE_DIR", "PIP_CACHE_DIR", "npm_config_cache", "NPM_CONFIG_CACHE", "YARN_CACHE_FOLDER", "GOCACHE",
    "GOMODCACHE", "MYPY_CACHE_DIR", "RUFF_CACHE_DIR", "PYTHONPYCACHEPREFIX", "XDG_CACHE_HOME", "SCCACHE_DIR",
    "CARGO_INCREMENTAL", "RUSTC_WRAPPER",
})
"""Environment variables that change only how a check prints (colour, width, verbosity, paging):
dropped from its identity. Every other assignment in front of a check, exported before it or set
by a wrapper (``GOOS=windows``, ``NODE_ENV=test``, ``RUSTFLAGS=…``) is part of it."""
