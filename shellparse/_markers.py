"""Failure markers: the lines a check prints when it fails, family by family.

They are used to *refute* a reported pass, never to grant one: when a host reports exit 0 for
``npm run check 2>&1 | tail -5`` but the visible output reads ``npm error command failed``, the
run is not a witness. A marker must be specific enough that a passing run never prints it:
each matches a summary line with a non-zero failure count, or a runner's own failure banner.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from typing import TYPE_CHECKING, NamedTuple

from ._patterns import lazy

if TYPE_CHECKING:
    from ._results import Validation

_N = r"[1-9]\d*"  # a failure count that is not zero
_EOL = r"\s*(?=\n|\Z)"  # the end of a line (the markers are searched without re.MULTILINE)

MARKERS: dict[str, tuple[str, ...]] = {
    "npm": (r"^npm (ERR!|error) ", r"ERR_PNPM_\w+", r"^[ \t]*ELIFECYCLE\b.*\bfailed",
            rf"^error Command failed with exit code {_N}", rf'^error: script ".*" exited with code {_N}'),
    "pytest": (rf"^=*\s*(\d+ \w+, )*{_N} (failed|errors?)\b.* in [\d.]+s", rf"^{_N} (failed|errors?)\b.* in [\d.]+s",
               r"^(FAILED|ERROR) \S+::"),
    "unittest": (r"^FAILED \((failures|errors)=\d+",),
    "jest": (rf"^Tests:\s+.*\b{_N} failed", rf"^Test Suites:\s+.*\b{_N} failed"),
    "vitest": (rf"^[ \t]*Tests?\s+{_N} failed", rf"^[ \t]*Test Files\s+{_N} failed"),
    "mocha": (rf"^[ \t]*{_N} failing\b",),
    # A test binary or build script that exited non-zero or died of a signal (a stack overflow's
    # SIGABRT prints no "test result" line at all).
    "cargo": (r"^test result: FAILED", r"^error(\[E\d+\])?: ", r"^error: could not compile",
              r"^[ \t]*process didn't exit successfully: .*\((?:exit (?:status|code)|signal): "),
    "cargo-fmt": (r"^Diff in \S+",),
    "go": (r"^FAIL\b", r"^--- FAIL: ", r"^\S+\.go:\d+:\d+: "),
    "tsc": (r"\berror TS\d+:", rf"^Found {_N} errors?\b"),
    "mypy": (rf"^Found {_N} errors? in \d+ files?", r"^\S+\.pyi?:\d+(:\d+)?: error: "),
    # `ruff check --fix` that fixed everything says "Found 1 error (1 fixed, 0 remaining)." and passes.
    "ruff": (rf"^Found {_N} errors?\b(?! \(\d+ fixed, 0 remaining\))",),
    "ruff-format": (r"^Would reformat: ", rf"^{_N} files? would be reformatted"),
    "ty": (rf"^Found {_N} diagnostics?\b",),
    "eslint": (rf"^[ \t]*✖ {_N} problems?\b", rf"^{_N} problems? \("),
    "pyright": (rf"^{_N} errors?, \d+ warnings?", r"^[ \t]+\S+:\d+:\d+ - error: "),
    "golangci-lint": (rf"^{_N} issues?[:.]", r"^level=error\b", rf"^\S+\.go:\d+(:\d+)?: .+ \([\w-]+\){_EOL}"),
    "staticcheck": (rf"^\S+\.go:\d+:\d+: .+ \((?:SA|S|ST|QF|U)\d{{4}}\){_EOL}",),
    "mise": (r"^\[[^\]\s]+\] ERROR task failed", r"^mise ERROR "),
    "bats": (r"^not ok \d+ ",),
    "rustfmt": (r"^Diff in \S+",),
    "dotnet-format": (r"\berror WHITESPACE:", r": (?:error|warning) (?:IDE|CA)\d{4}:"),
    "dotnet": (rf"^Failed!\s+-\s+Failed:\s+{_N}", r"^Build FAILED\.", r"\berror (?:CS|MSB|NU|NETSDK|CA|IDE)\d{4}\b",
               # Localised summaries (`dotnet test` prints in the system's language).
               rf"^Başarısız!\s+-\s+Başarısız:\s+{_N}", rf"^Fehler!\s+-\s+Fehler:\s+{_N}",
               rf"^Échec !?\s+-\s+Échec :?\s+{_N}",
               r"^Test run summary: Failed!"),  # Microsoft.Testing.Platform's runner
    "maven": (r"^\[ERROR\] BUILD FAILURE", r"BUILD FAILURE", rf"Tests run: \d+, Failures: {_N}",
              rf"Tests run: \d+, Failures: \d+, Errors: {_N}"),
    "gradle": (r"^BUILD FAILED\b", r"^FAILURE: Build failed", rf"^\d+ tests? completed, {_N} failed"),
    "make": (r"^g?make(\[\d+\])?: \*\*\* .*Error \d+",),
    "rspec": (rf"^\d+ examples?, {_N} failures?",),
    "phpunit": (r"^FAILURES!", r"^ERRORS!", rf"^[ \t]*Tests:\s+{_N} failed"),  # the last: Pest's summary
    "ctest": (r"^The following tests FAILED:", rf"tests passed, {_N} tests? failed out of"),
    "tox": (r"^ERROR: .*commands? failed", r"^[ \t]*\S+: FAIL\b", r"^[ \t]*\S+: commands failed"),
    "nox": (r"^nox > Session .* failed",),
    "swift": (rf"with {_N} failures?", r"^error: "),
    # Swift Testing's summary, from `swift test` and `xcodebuild test` alike ("✘ Test run with 3 tests in 1
    # suite failed after 0.010 seconds with 1 issue.").
    "swift-testing": (rf"Test run with \d+ tests?(?: in \d+ suites?)? failed after [\d.]+ seconds with {_N} issues?",),
    "xcodebuild": (r"^\*\* (?:TEST|BUILD|TEST BUILD|ARCHIVE) FAILED \*\*",
                   r"^\S+\.(?:swift|mm?|c|cc|cpp|h):\d+:\d+: error: "),
    "mix": (rf"^(?:\d+ (?:doctests?|propert(?:y|ies)), )*\d+ tests?, {_N} failures?\b",
            r"^\*\* \((?:\w+\.)*\w*Error\) "),
    "deno": (rf"^FAILED \| \d+ passed(?: \(\d+ steps?\))? \| {_N} failed", r"^error: Test failed"),
    "bun": (rf"^[ \t]*{_N} fail{_EOL}",),
    "pester": (rf"Tests Passed: \d+, Failed: {_N}", rf"\bFailed: {_N}\b.*\bSkipped: \d+"),
    "rubocop": (rf"\b{_N} offenses? detected",),
    "flake8": (r"^\S+:\d+:\d+: [A-Z]\d+ ",),
    "pylint": (r"^\S+:\d+:\d+: [CRWEF]\d{4}: ",),
    "black": (r"^would reformat ", r"^Oh no!"),
    "prettier": (r"^\[warn\] Code style issues", r"^\[error\] "),
}

SUBCOMMAND_MARKERS: dict[tuple[str, str], str] = {
    ("ruff", "format"): "ruff-format", ("cargo", "fmt"): "cargo-fmt", ("dotnet", "format"): "dotnet-format",
}
"""Subcommands of a family that are another tool, with markers of their own (``ruff format --check``
never prints ``ruff check``'s "Found N errors")."""

# Which markers to look for per family. A runner behind a script (`npm test`, `make check`, a
# project's runtests.py) can be any of them, so script-like families look for all test markers.
_TEST_RUNNERS = ("pytest", "unittest", "jest", "vitest", "mocha", "cargo", "go", "dotnet", "maven", "gradle",
                 "rspec", "phpunit", "ctest", "tox", "nox", "pester", "bats", "bun", "deno", "mix", "swift-testing")
_ANY = (*_TEST_RUNNERS, "tsc", "mypy", "ruff", "ruff-format", "cargo-fmt", "ty", "eslint", "pyright", "golangci-lint",
        "staticcheck", "black", "prettier", "make", "npm")
FAMILY_MARKERS: dict[str, tuple[str, ...]] = {
    "npm-script": ("npm", *_ANY), "make": ("make", *_ANY), "runtests": _TEST_RUNNERS,
    "test-script": _TEST_RUNNERS, "django": ("unittest",), "turbo": ("npm", *_ANY), "nx": ("npm", *_ANY),
    "pre-commit": ("ruff", "ruff-format", "flake8", "black", "mypy", "eslint", "prettier"), "tox": ("tox", "pytest"),
    "nox": ("nox", "pytest"), "vitest": ("vitest",), "jest": ("jest",), "gulp": _ANY, "rake": ("rspec",),
    "ant": ("maven", "gradle"), "composer": ("phpunit",), "artisan": ("phpunit",), "deno": ("deno", "tsc"),
    "swift": ("swift", "swift-testing"), "xcodebuild": ("xcodebuild", "swift", "swift-testing"),
    "stack": (), "sbt": (), "dmypy": ("mypy",), "basedpyright": ("pyright",), "svelte-check": ("tsc",),
    # Task runners run whatever their task says: all markers, and their own.
    "mise": ("mise", *_ANY), "just": _ANY, "task": _ANY, "pants": _ANY, "hk": _ANY, "gofmt": (), "shfmt": (),
    "terraform": (), "openspec": (),
}


MARKER_CUES: dict[str, tuple[str, ...]] = {
    "npm": ("err", "fail"), "pytest": ("fail", "err"), "unittest": ("fail",), "jest": ("fail",),
    "vitest": ("fail",), "mocha": ("fail",), "cargo": ("fail", "err", "didn't exit successfully"),
    "cargo-fmt": ("diff in",), "go": ("fail", ".go:"), "tsc": ("err",), "mypy": ("err",), "ruff": ("err",),
    "ruff-format": ("reformat",), "ty": ("diagnostic",), "eslint": ("problem",), "pyright": ("err",),
    "golangci-lint": ("issue", "err", ".go:"), "staticcheck": (".go:",), "mise": ("err",), "bats": ("not ok",),
    "rustfmt": ("diff in",), "dotnet-format": ("err", "warn"),
    "dotnet": ("fail", "err", "başarısız", "fehler", "échec"), "maven": ("fail",), "gradle": ("fail",),
    "make": ("err",), "rspec": ("fail",), "phpunit": ("fail", "err"),
    "swift-testing": ("fail",), "xcodebuild": ("fail", "err"), "mix": ("fail", "err"), "deno": ("fail",),
    "bun": ("fail",), "ctest": ("fail",), "tox": ("fail", "err"),
    "nox": ("fail",), "swift": ("fail", "err"), "pester": ("fail",), "rubocop": ("offense",),
    "black": ("reformat", "oh no"), "prettier": ("warn", "err"),
    # A linter's diagnostic line names no failure in words: `src/app.py:3:80: E501 line too long
    # (92 > 79 characters)`, `app.py:1:0: C0114: Missing module docstring (missing-module-docstring)`.
    "flake8": (), "pylint": (),
}
"""For each family of :data:`MARKERS`, words (lower case) of which every match of its markers holds
one, case-insensitively; none for a family whose markers need hold no such word. A check's words
are looked for first, because most outputs are of passing runs and hold none of them — a pure
speed device, which never changes a verdict (the tests hold every marker to its family's words). A
check that reads the markers of a family without words reads its output without looking for any."""

SCAN_HEAD = 16_384
"""Characters read from the start of an output (up to the end of the line they reach into)."""
SCAN_TAIL = 49_152
"""Characters read from the end of an output (from the start of the first whole line in them).

A check prints its failure summary at the end of its output, and compilers their first errors
at the start; outputs reach megabytes, and the middle of one is never read. An output of at most
``SCAN_HEAD + SCAN_TAIL`` characters is read whole — the hosts cut what they show the agent well
below that (Claude Code at 30,000 characters)."""

_META = frozenset(".^$*+?{}[]()|\\")
_ANSI = lazy(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\\\)")


class _Floating(NamedTuple):
    """A marker that may match anywhere in a line, and a literal every match of it contains."""

    pattern: re.Pattern[str]
    literal: str


class _Markers(NamedTuple):
    """One family's markers, arranged for speed; :meth:`first` finds exactly what one alternation
    of them all (``re.MULTILINE``) would find first."""

    line_starts: re.Pattern[str] | None
    """The markers anchored at a line start (``^…``), as one pattern after a newline."""
    floating: tuple[_Floating, ...]
    """The others, each searched only where its literal occurs."""
    cues: tuple[str, ...] = ()
    """Words of which every match of every marker holds one (see :data:`MARKER_CUES`): text without
    one can be skipped. Empty: every text is searched."""

    def first(self, text: str, at_line_start: bool = True) -> int | None:
        """Where the first match of any marker starts in ``text``, if one does (``at_line_start``:
        ``text`` begins a line)."""
        starts = []
        if self.line_starts is not None:
            # A newline before the text stands for its first line start: the search then skips to
            # newlines, instead of trying every marker at every character.
            found = self.line_starts.search("\n" + text if at_line_start else text)
            if found is not None:
                starts.append(found.start() if at_line_start else found.start() + 1)
        for marker in self.floating:
            if marker.literal in text:
                found = marker.pattern.search(text)
                if found is not None:
                    starts.append(found.start())
        return min(starts) if starts else None


def _anchored(marker: str) -> bool:
    """The marker starts with ``^`` that anchors all of it (no ``|`` outside its groups)."""
    if not marker.startswith("^"):
        return False
    depth, index, in_class = 0, 0, False
    while index < len(marker):
        char = marker[index]
        if char == "\\":
            index += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char in "()":
            depth += 1 if char == "(" else -1
        elif char == "|" and depth == 0:
            return False
        index += 1
    return True


def _literal(marker: str) -> str:
    """The literal text a floating marker starts with (after a leading ``\\b``), which every match holds."""
    body = marker[2:] if marker.startswith("\\b") else marker
    literal = ""
    for char in body:
        if char in _META:
            break
        literal += char
    if len(literal) < len(body) and body[len(literal)] in "*?{":
        literal = literal[:-1]  # a quantifier makes the last character optional
    return literal


@cache
def _markers(family: str, besides: frozenset[str] = frozenset()) -> _Markers | None:
    groups = [group for group in FAMILY_MARKERS.get(family, (family,)) if group == family or group not in besides]
    cues = [MARKER_CUES.get(group, ()) for group in groups if group in MARKERS]
    return _arranged(dict.fromkeys(marker for group in groups for marker in MARKERS.get(group, ())),
                     cues=tuple(dict.fromkeys(word for words in cues for word in words)) if all(cues) else ())


def _arranged(alternatives: Iterable[str], *, cues: tuple[str, ...] = ()) -> _Markers | None:
    """``alternatives`` arranged for :meth:`_Markers.first` (``cues``: words of which each of their
    matches holds one); ``None`` when there are none."""
    alternatives = list(alternatives)
    if not alternatives:
        return None
    anchored = [marker[1:] for marker in alternatives if _anchored(marker)]
    line_starts = re.compile("\n(?:" + "|".join(f"(?:{marker})" for marker in anchored) + ")") if anchored else None
    floating = tuple(_Floating(re.compile(marker, re.MULTILINE), _literal(marker))
                     for marker in alternatives if not _anchored(marker))
    return _Markers(line_starts, floating, cues)


@cache
def _cue_pattern(cues: tuple[str, ...]) -> re.Pattern[str]:
    # Compiled when first needed (text outside ASCII): every `witness check` process imports this module.
    return re.compile("|".join(re.escape(word) for word in cues), re.IGNORECASE)


def _cued(text: str, cues: tuple[str, ...]) -> bool:
    """``text`` holds one of the words ``cues``, case-insensitively."""
    if text.isascii():
        lower = text.lower()
        return any(word in lower for word in cues)
    return _cue_pattern(cues).search(text) is not None


def _regions(output: str) -> tuple[tuple[int, int], ...]:
    """The parts of ``output`` that are read: all of it, or its head and its tail."""
    if len(output) <= SCAN_HEAD + SCAN_TAIL:
        return ((0, len(output)),)
    head_end = output.rfind("\n", 0, SCAN_HEAD) + 1 or SCAN_HEAD
    tail_start = output.find("\n", len(output) - SCAN_TAIL) + 1 or len(output) - SCAN_TAIL
    return (0, head_end), (tail_start, len(output))


def failure_evidence(check: str | Validation, output: str, *, besides: Iterable[str] = ()) -> str | None:
    """The first line of ``output`` that shows a check failed, if one does.

    ``check`` is the :class:`Validation` (its family and subcommand choose the markers: ``ruff
    format --check`` has others than ``ruff check``) or a :attr:`Validation.family`. ``besides``
    names marker families to leave out — those of the other checks of the same command line,
    whose failures a runner of anything (``make``, ``mise run``, an npm script) would otherwise
    read as its own (see :func:`marker_family`). It refutes a reported pass and proves a failure
    whose status was masked; a ``None`` proves nothing (the output may be cut, or quiet). Only the
    head and the tail of a long output are read (see :data:`SCAN_HEAD`, :data:`SCAN_TAIL`).
    """
    markers = _markers(check if isinstance(check, str) else marker_family(check), frozenset(besides))
    if markers is None or not output:
        return None
    for start, end in _regions(output):
        text = output[start:end]
        # Colour codes sit between a line's start and its first word (`\x1b[1mFound 2 errors`), or
        # even inside a word: they are gone before the cues are looked for.
        plain = _ANSI.sub("", text) if "\x1b" in text else text
        if markers.cues and not _cued(plain, markers.cues):
            continue
        found = markers.first(plain, at_line_start=start == 0 or output[start - 1] == "\n")
        if found is not None:
            return _line(output, start + found) if plain is text else _raw_line(text, plain, found)
    return None


def marker_family(validation: Validation) -> str:
    """Whose failure markers a check's output is read with: its family's, or its subcommand's."""
    words = validation.statement.split(" ", 2)
    if len(words) > 1:
        return SUBCOMMAND_MARKERS.get((validation.family, words[1]), validation.family)
    return validation.family


def _line(output: str, at: int) -> str:
    """The line holding position ``at``, stripped and cut to 200 characters."""
    start = output.rfind("\n", 0, at) + 1
    end = output.find("\n", at)
    line = output[start : end if end >= 0 else len(output)].strip()
    return line if len(line) <= 200 else line[:199] + "…"


def _raw_line(text: str, plain: str, at: int) -> str:
    """The line of ``text`` that holds position ``at`` of ``plain`` (``text`` without its colour
    codes): the evidence is the output's own line, escapes and all (a report shows it sanitised)."""
    if plain is text or text.count("\n") != plain.count("\n"):
        return _line(plain, at)  # nothing was removed, or an escape spanned lines
    number = plain.count("\n", 0, at)
    start = 0
    for _ in range(number):
        start = text.index("\n", start) + 1
    return _line(text, start)


REWRITE_MARKERS: tuple[str, ...] = (
    r"^\[This command modified \d+ files? you've previously read",  # Claude Code's own note on a result
    r"\bFixed [1-9]\d* files?\b",  # biome, ultracite
    r"\([1-9]\d* fixed, \d+ remaining\)",  # ruff check --fix
    r"\b[1-9]\d* files? reformatted\b",  # ruff format, black
    r"^reformatted \S+",  # black
    r"^[ \t]*Fixed \S+ \(\d+ fix(?:es)?\)",  # cargo clippy --fix, cargo fix
    r"^[ \t]*Formatted [1-9]\d* files?\b",  # dprint, deno fmt
)
"""Lines that show a command rewrote files while it ran (``npm run check`` running a formatter
with ``--write``): the run is a mutation as well as evidence."""


_REWRITE_WORDS = ("ixed", "ormatted", "modified")
"""Every match of a rewrite marker holds one of these (``Fixed``, ``fixed``, ``reformatted``,
``Formatted``, ``modified``), as written: no output needs lower-casing to rule the markers out."""


@cache
def _rewrites() -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{marker})" for marker in REWRITE_MARKERS), re.MULTILINE)


def rewrite_evidence(output: str) -> str | None:
    """The first line of ``output`` that shows the command rewrote files, if one does (the head
    and the tail of a long output are read, as for :func:`failure_evidence`)."""
    if not output:
        return None
    for start, end in _regions(output):
        text = output[start:end]
        plain = _ANSI.sub("", text) if "\x1b" in text else text
        if all(word not in plain for word in _REWRITE_WORDS):
            continue  # the common case, decided without a regular expression
        found = _rewrites().search(plain)
        if found is not None:
            return _raw_line(text, plain, found.start())
    return None


NOT_RUN_MARKERS: dict[str, tuple[str, ...]] = {
    "npm-script": (r"^npm (?:ERR!|error) [Mm]issing script: ", r"\bERR_PNPM_NO_SCRIPT\b",
                   r'^error Command "[^"]+" not found\.'),
    "make": (r"^make: \*\*\* No rule to make target '[^']+'\.\s+Stop\.",
             r"^make: \*\*\* No targets specified and no makefile found\."),
    "just": (r"^error: Justfile does not contain recipe ", r"^error: No justfile found"),
    "cargo": (r"^error: no library targets found in package ", r"^error: no (?:test|bin|example|bench) target named ",
              r"^error: package ID specification `[^`]+` did not match any packages",
              r"^error: could not find `Cargo\.toml` in ",
              # the toolchain or the network refused before anything was compiled
              r"^error: rustc \S+ is not supported by the following packages?:", r"^error: failed to download from `"),
    "pytest": (r"^ERROR: file or directory not found: ", r"^ERROR: not found: "),
    "go": (r"^no Go files in ", r"^go: cannot find main module"),
    "dotnet": (r"\berror MSB1009: ", r"\berror MSB1003: "),
}
"""Lines that show a check never ran: its runner found nothing to run as asked (no such script,
target, recipe, test target, file or project — ``cargo test --lib`` in a package without a
library, ``dotnet test`` from the wrong directory), or stopped before building anything (cargo's
toolchain too old for a dependency, a crate that could not be downloaded). Like exit 126/127,
such a run is neither a failure nor a pass: it says nothing about the code, and an obligation on
the check as written would stay open however the code changed. Only a family's own lines count
(``make test`` whose recipe runs a misspelt ``cargo test`` target did run, and failed)."""


@cache
def _not_run(family: str) -> _Markers | None:
    return _arranged(NOT_RUN_MARKERS.get(family, ()))


def not_run_evidence(check: str | Validation, output: str) -> str | None:
    """The first line of ``output`` that shows the check never ran (see :data:`NOT_RUN_MARKERS`),
    if one does; ``check`` is the :class:`Validation` or its :attr:`~Validation.family`."""
    markers = _not_run(check if isinstance(check, str) else check.family)
    if markers is None or not output:
        return None
    for start, end in _regions(output):
        text = output[start:end]
        plain = _ANSI.sub("", text) if "\x1b" in text else text
        # Each region is read as if it began a line, as one ``re.MULTILINE`` search of it would.
        found = markers.first(plain)
        if found is not None:
            return _raw_line(text, plain, found)
    return None
