"""Which tests a run selects, so that a pass of a wider run can witness a failure of a narrower one.

Agents run the failing test alone, then the whole suite. A genuine pass of the same runner, in
the same directory and environment, with the same other options, whose selection *covers* the
failed run's selection witnesses it: ``go test ./...`` covers ``go test ./pkg/x -run TestY``,
``pytest`` covers ``pytest tests/test_a.py::test_b``, ``cargo test`` covers ``cargo test parser::``.
Never the other way round, and never across runners.

A selection has three parts, read by the family's grammar (one row a family and subcommand,
found by :func:`grammar_for`; path-taking linters have one too: ``ruff check .`` covers
``ruff check src/a.py``):

- the *suite*: everything else that decides what the run checks (runner, subcommand, directory,
  environment, every non-cosmetic option that is not a filter or a target), as a digest;
- the *targets*: packages, paths or test ids, each covered by a wider one (``./...`` covers
  ``./pkg``, ``tests`` covers ``tests/test_a.py::test_b``); none means the runner's default;
- the *filters*: test-name filters (``-run``, ``-k``, ``-t``, a cargo name filter); a pass covers a
  failure's filter only without one of its own, or with the same one (for cargo, a name filter
  contained in the failed one: every test ``monorepo_x`` selects, ``monorepo`` selects too).
"""

import posixpath
from typing import Literal, NamedTuple

from ._sha import short_digest

TargetStyle = Literal["go", "path", "cargo", "same"]
"""How one target covers another: Go package patterns (``./...``), file-system paths and test
ids (``tests/a.py::t``), cargo's target selectors (``--workspace`` covers ``-p x``), or only by
being equal."""


class Grammar(NamedTuple):
    """How one family's runs select tests."""

    runner: tuple[str, ...]
    """The words after the program that make it a test run (``("test",)`` for ``go test``)."""
    style: TargetStyle
    """How targets cover each other."""
    filters: tuple[str, ...] = ()
    """Options whose value is a test-name filter (``-run``, ``-k``)."""
    filter_flags: tuple[str, ...] = ()
    """Options that narrow the run without a value (``--lf``, ``--exact``)."""
    targets: tuple[str, ...] = ()
    """Options whose value is a target (cargo's ``-p``)."""
    target_flags: tuple[str, ...] = ()
    """Options that are targets by themselves (cargo's ``--lib``, ``--workspace``)."""
    values: tuple[str, ...] = ()
    """Other options that take the next word as their value (kept in the suite with it)."""
    default: tuple[str, ...] = ()
    """The targets of a run that names none (``go test`` is ``go test .``); empty: everything."""
    positional_filter: bool = False
    """The first positional word is a name filter, not a target (``cargo test parser::``)."""
    separated_suite: bool = False
    """The words after ``--`` are another tool's options, part of the suite (``cargo clippy --
    -D warnings``); otherwise they are read like the others (a test binary's filters)."""


_CARGO_TARGETS = ("-p", "--package", "--test", "--bin", "--example", "--bench")
_CARGO_TARGET_FLAGS = ("--lib", "--bins", "--tests", "--examples", "--benches", "--doc", "--all-targets",
                       "--workspace", "--all")
_CARGO_VALUES = ("--features", "-F", "--target", "--manifest-path", "--profile", "--config", "-Z", "--target-dir",
                 "--exclude")
_GRAMMARS: dict[str, tuple[Grammar, ...]] = {
    "go": (Grammar(("test",), "go", filters=("-run", "-skip"), default=(".",),
                  values=("-bench", "-benchtime", "-tags", "-ldflags", "-gcflags", "-mod", "-exec", "-cpu",
                          "-shuffle", "-vet", "-C", "-modfile", "-overlay", "-pkgdir", "-asmflags", "-memprofile",
                          "-cpuprofile", "-blockprofile", "-mutexprofile", "-trace", "-fuzz", "-fuzztime")),
           Grammar(("vet",), "go", default=(".",), values=("-tags", "-C", "-mod", "-vettool"))),
    # A marker expression (`-m live`) chooses another suite, not a subset of the default run: a project's
    # `addopts = -m "not live"` keeps those tests out of a plain `pytest`, which then never covers them.
    "pytest": (Grammar((), "path", filters=("-k", "--deselect", "--ignore", "--ignore-glob"),
                      filter_flags=("--lf", "--last-failed", "--sw", "--stepwise", "--sw-skip"),
                      values=("-m", "-p", "-o", "-c", "--rootdir", "--confcutdir", "-W", "--basetemp", "--junitxml",
                              "--junit-xml", "--cov", "--cov-report", "--cov-config", "--cov-fail-under",
                              "--import-mode", "--log-level", "--timeout", "--randomly-seed", "-P")),),
    "cargo": (Grammar(("test",), "cargo", filters=("--skip",), filter_flags=("--exact", "--ignored",
                                                                             "--include-ignored"),
                      targets=_CARGO_TARGETS, target_flags=_CARGO_TARGET_FLAGS, values=_CARGO_VALUES,
                      positional_filter=True),
              Grammar(("clippy",), "cargo", targets=_CARGO_TARGETS, target_flags=_CARGO_TARGET_FLAGS,
                      values=_CARGO_VALUES, separated_suite=True),
              Grammar(("check",), "cargo", targets=_CARGO_TARGETS, target_flags=_CARGO_TARGET_FLAGS,
                      values=_CARGO_VALUES, separated_suite=True)),
    "jest": (Grammar((), "same", filters=("-t", "--testNamePattern", "--testPathPattern", "--testPathPatterns",
                                         "--selectProjects"),
                    filter_flags=("--onlyChanged", "-o", "--onlyFailures", "-f", "--changedSince", "--lastCommit"),
                    values=("-c", "--config", "--coverageThreshold", "--testTimeout", "--shard", "--env",
                            "--testEnvironment", "--roots", "--rootDir")),),
    "vitest": tuple(Grammar(runner, "same", filters=("-t", "--testNamePattern", "--project"),
                            filter_flags=("--changed",),
                            values=("-c", "--config", "--root", "--dir", "--environment", "--shard", "--mode",
                                    "--testTimeout", "--coverage.thresholds.lines"))
                    for runner in (("run",), ())),
    "dotnet": (Grammar(("test",), "same", filters=("--filter",),
                      values=("-c", "--configuration", "-f", "--framework", "-r", "--runtime", "-a", "--arch",
                              "-s", "--settings", "--results-directory", "--collect", "-e", "--environment",
                              "--blame-hang-timeout", "--blame-crash-dump-type")),),
    "bats": (Grammar((), "path", filters=("-f", "--filter", "--filter-tags", "--filter-status"),
                     values=("-j", "--jobs", "-F", "--formatter", "-o", "--output", "--report-formatter")),),
    # Linters that take paths: `ruff check .` covers `ruff check src/a.py`.
    "ruff": (Grammar(("check",), "path", default=(".",),
                     values=("--select", "--ignore", "--extend-select", "--extend-ignore", "--config",
                             "--target-version", "--line-length", "--exclude", "--extend-exclude",
                             "--per-file-ignores", "--fixable", "--unfixable", "--stdin-filename")),
             Grammar(("format",), "path", default=(".",),
                     values=("--config", "--line-length", "--target-version", "--exclude", "--extend-exclude",
                             "--stdin-filename"))),
    "eslint": (Grammar((), "path", default=(".",),
                       values=("-c", "--config", "--ext", "--rule", "--max-warnings", "--parser", "--plugin",
                               "--ignore-pattern", "--ignore-path", "--env", "--global",
                               "--resolve-plugins-relative-to", "--rulesdir", "--parser-options")),),
    "flake8": (Grammar((), "path", default=(".",),
                       values=("--config", "--select", "--ignore", "--extend-ignore", "--extend-select",
                               "--max-line-length", "--exclude", "--extend-exclude", "--per-file-ignores",
                               "--max-complexity")),),
    "black": (Grammar((), "path", values=("--config", "-l", "--line-length", "-t", "--target-version",
                                          "--include", "--exclude", "--extend-exclude", "--force-exclude")),),
    "prettier": (Grammar((), "path", values=("--config", "--ignore-path", "--parser", "--plugin",
                                             "--stdin-filepath")),),
    "golangci-lint": (Grammar(("run",), "go", default=("./...",), filters=("--new-from-rev", "--new-from-patch"),
                              filter_flags=("--new", "-n", "--fast", "--fast-only"),
                              values=("-c", "--config", "-E", "--enable", "-D", "--disable", "--build-tags",
                                      "--enable-only", "-p", "--presets")),),
}


def grammar_for(family: str, words: tuple[str, ...]) -> Grammar | None:
    """The selection grammar of a run of ``family`` whose statement is ``words``, if one is known."""
    for grammar in _GRAMMARS.get(family, ()):
        if words[1 : 1 + len(grammar.runner)] == grammar.runner:
            return grammar
    return None


class Selection(NamedTuple):
    """What a test run selects (see the module docstring)."""

    suite: str
    """A digest of everything but the targets and filters: equal suites are comparable runs."""
    style: TargetStyle
    """How targets cover each other."""
    targets: tuple[str, ...]
    """Packages, paths or test ids, normalised; empty: everything the runner runs by default."""
    filters: tuple[str, ...]
    """Test-name filters with their option (``-run=TestX``); empty: none."""

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready dictionary."""
        return {"suite": self.suite, "style": self.style, "targets": list(self.targets),
                "filters": list(self.filters)}


def selection(family: str, words: tuple[str, ...], context: str) -> Selection | None:
    """The selection of a test run of ``family`` whose cosmetic-free statement is ``words``
    (program first); ``context`` is the rest of its identity (kind, directory, environment)."""
    grammar = grammar_for(family, words)
    if grammar is None:
        return None
    args = list(words[1:])
    suite = [words[0], *grammar.runner]
    targets: list[str] = []
    filters: list[str] = []
    _read(grammar, args[len(grammar.runner) :], suite, targets, filters)
    digest = short_digest("\0".join((context, *suite)))
    chosen = tuple(sorted(set(targets))) or grammar.default
    return Selection(suite=digest, style=grammar.style, targets=chosen, filters=tuple(sorted(filters)))


def _read(grammar: Grammar, args: list[str], suite: list[str], targets: list[str], filters: list[str]) -> None:
    index = 0
    separated = False
    while index < len(args):
        word = args[index]
        index += 1
        if word == "--" and not separated:
            separated = True
            if grammar.separated_suite:
                suite.extend(args[index - 1 :])
                return
            continue
        option, equals, attached = word.partition("=")
        if word.startswith("-") and len(word) > 1:
            takes = option in grammar.filters or option in grammar.targets or option in grammar.values
            value = attached if equals else (args[index] if takes and index < len(args) else "")
            if takes and not equals:
                index += 1
            if option in grammar.filters:
                filters.append(f"{option}={value}")
            elif option in grammar.filter_flags:
                filters.append(word)
            elif option in grammar.targets:
                targets.append(f"{option}={value}")
            elif option in grammar.target_flags:
                targets.append(option)
            else:
                suite.append(word if not takes else f"{option}={value}")
            continue
        if grammar.positional_filter and not any(f.startswith("name=") for f in filters):
            filters.append(f"name={word}")
        elif grammar.positional_filter:
            suite.append(word)  # a second name filter: cargo refuses it; compared as it is
        else:
            targets.append(_normal(grammar.style, word))


def _normal(style: TargetStyle, target: str) -> str:
    if style == "path":
        path, sep, rest = target.partition("::")
        normal = posixpath.normpath(path.replace("\\", "/")) if path else path
        return normal + sep + rest
    if style == "go" and target not in (".", "./..."):
        return target.rstrip("/")
    return target


def covers(passing: Selection, failing: Selection) -> bool:
    """Whether a genuine pass of ``passing`` witnesses a failure of ``failing``: the same suite, no
    filter of its own (or the failed run's, or for cargo a name filter within it), and targets that
    cover every one of the failed run's."""
    if passing.suite != failing.suite or passing.style != failing.style:
        return False
    if not _filters_cover(passing, failing):
        return False
    if passing.style == "cargo":
        return _cargo_covers(passing.targets, failing.targets)
    if not passing.targets:
        return True
    if not failing.targets:
        return False
    return all(any(_target_covers(passing.style, wide, narrow) for wide in passing.targets)
               for narrow in failing.targets)


def _filters_cover(passing: Selection, failing: Selection) -> bool:
    if not passing.filters or passing.filters == failing.filters:
        return True
    if passing.style != "cargo":
        return False
    # cargo's name filter selects the tests whose names contain it: a shorter filter inside the
    # failed one selects all those tests and more.
    mine = [f for f in passing.filters if not f.startswith("name=")]
    theirs = [f for f in failing.filters if not f.startswith("name=")]
    wide = next((f[5:] for f in passing.filters if f.startswith("name=")), None)
    narrow = next((f[5:] for f in failing.filters if f.startswith("name=")), None)
    if mine != theirs or "--exact" in mine:
        return False
    return wide is None or (narrow is not None and wide in narrow)


def _target_covers(style: TargetStyle, wide: str, narrow: str) -> bool:
    if wide == narrow:
        return True
    if style == "go":
        if wide == "./...":
            return narrow == "." or narrow.startswith("./")
        if wide.endswith("/..."):
            base = wide[:-4]
            return narrow == base or narrow.startswith(base + "/")
        return False
    if style == "path":
        if wide == ".":
            return not narrow.startswith(("/", "../"))
        path = narrow.split("::", 1)[0]
        return narrow.startswith(wide + "::") or path.startswith(wide.rstrip("/") + "/")
    return False


_CARGO_PACKAGES = ("-p=", "--package=")
_CARGO_WHOLE = frozenset({"--workspace", "--all"})
_CARGO_DEFAULT_KINDS = ("--lib", "--bins", "--bin=", "--tests", "--test=", "--doc")
"""The targets a plain ``cargo test`` runs: the library, binaries, integration tests and doc tests."""


def _cargo_covers(wide: tuple[str, ...], narrow: tuple[str, ...]) -> bool:
    """cargo's selectors: packages (``-p x``, ``--workspace``; none means the default members)
    and target kinds (``--lib``, ``--test x`` …; none means what a plain ``cargo test`` runs)."""
    wide_packages = {t.partition("=")[2] for t in wide if t.startswith(_CARGO_PACKAGES)} or {""}
    narrow_packages = {t.partition("=")[2] for t in narrow if t.startswith(_CARGO_PACKAGES)} or {""}
    if _CARGO_WHOLE.isdisjoint(wide) and (not _CARGO_WHOLE.isdisjoint(narrow) or not narrow_packages <= wide_packages):
        return False
    wide_kinds = [t for t in wide if not t.startswith(_CARGO_PACKAGES) and t not in _CARGO_WHOLE]
    narrow_kinds = [t for t in narrow if not t.startswith(_CARGO_PACKAGES) and t not in _CARGO_WHOLE]
    if not wide_kinds:
        return all(kind.startswith(_CARGO_DEFAULT_KINDS) for kind in narrow_kinds)
    if not narrow_kinds:
        return False
    return all(kind in wide_kinds or ("--tests" in wide_kinds and kind.startswith("--test="))
               or ("--bins" in wide_kinds and kind.startswith("--bin=")) for kind in narrow_kinds)
