"""Failure markers: the lines a check prints when it fails, family by family.

They are used to *refute* a reported pass, never to grant one: when a host reports exit 0 for
``npm run check 2>&1 | tail -5`` but the visible output reads ``npm error command failed``, the
run is not a witness. A marker must be specific enough that a passing run never prints it:
each matches a summary line with a non-zero failure count, or a runner's own failure banner.
"""

from __future__ import annotations

import re
from functools import cache

_N = r"[1-9]\d*"  # a failure count that is not zero

MARKERS: dict[str, tuple[str, ...]] = {
    "npm": (r"^npm (ERR!|error) ", r"ERR_PNPM_\w+", r"^\s*ELIFECYCLE\b.*\bfailed",
            rf"^error Command failed with exit code {_N}", rf'^error: script ".*" exited with code {_N}'),
    "pytest": (rf"^=*\s*(\d+ \w+, )*{_N} (failed|errors?)\b.* in [\d.]+s", rf"^{_N} (failed|errors?)\b.* in [\d.]+s",
               r"^(FAILED|ERROR) \S+::"),
    "unittest": (r"^FAILED \((failures|errors)=\d+",),
    "jest": (rf"^Tests:\s+.*\b{_N} failed", rf"^Test Suites:\s+.*\b{_N} failed"),
    "vitest": (rf"^\s*Tests?\s+{_N} failed", rf"^\s*Test Files\s+{_N} failed"),
    "mocha": (rf"^\s*{_N} failing\b",),
    "cargo": (r"^test result: FAILED", r"^error(\[E\d+\])?: ", r"^error: could not compile"),
    "go": (r"^FAIL\b", r"^--- FAIL: ", r"^\S+\.go:\d+:\d+: "),
    "tsc": (r"\berror TS\d+:", rf"^Found {_N} errors?\b"),
    "mypy": (rf"^Found {_N} errors? in \d+ files?",),
    "ruff": (rf"^Found {_N} errors?\b",),
    "eslint": (rf"^\s*✖ {_N} problems?\b", rf"^{_N} problems? \("),
    "pyright": (rf"^{_N} errors?, \d+ warnings?",),
    "dotnet": (rf"^Failed!\s+-\s+Failed:\s+{_N}", r"^Build FAILED\."),
    "maven": (r"^\[ERROR\] BUILD FAILURE", r"BUILD FAILURE", rf"Tests run: \d+, Failures: {_N}",
              rf"Tests run: \d+, Failures: \d+, Errors: {_N}"),
    "gradle": (r"^BUILD FAILED\b", r"^FAILURE: Build failed"),
    "make": (r"^g?make(\[\d+\])?: \*\*\* .*Error \d+",),
    "rspec": (rf"^\d+ examples?, {_N} failures?",),
    "phpunit": (r"^FAILURES!", r"^ERRORS!"),
    "ctest": (r"^The following tests FAILED:", rf"tests passed, {_N} tests? failed out of"),
    "tox": (r"^ERROR: .*commands? failed", r"^\s*\S+: FAIL\b", r"^\s*\S+: commands failed"),
    "nox": (r"^nox > Session .* failed",),
    "swift": (rf"with {_N} failures?", r"^error: "),
    "pester": (rf"Tests Passed: \d+, Failed: {_N}", rf"\bFailed: {_N}\b.*\bSkipped: \d+"),
    "rubocop": (rf"\b{_N} offenses? detected",),
    "flake8": (r"^\S+:\d+:\d+: [A-Z]\d+ ",),
    "pylint": (r"^\S+:\d+:\d+: [CRWEF]\d{4}: ",),
    "black": (r"^would reformat ", r"^Oh no!"),
    "prettier": (r"^\[warn\] Code style issues", r"^\[error\] "),
}

# Which markers to look for per family. A runner behind a script (`npm test`, `make check`, a
# project's runtests.py) can be any of them, so script-like families look for all test markers.
_TEST_RUNNERS = ("pytest", "unittest", "jest", "vitest", "mocha", "cargo", "go", "dotnet", "maven", "gradle",
                 "rspec", "phpunit", "ctest", "tox", "nox", "pester")
_ANY = (*_TEST_RUNNERS, "tsc", "mypy", "ruff", "eslint", "pyright", "make", "npm")
FAMILY_MARKERS: dict[str, tuple[str, ...]] = {
    "npm-script": ("npm", *_ANY), "make": ("make", *_ANY), "runtests": _TEST_RUNNERS,
    "test-script": _TEST_RUNNERS, "django": ("unittest",), "turbo": ("npm", *_ANY), "nx": ("npm", *_ANY),
    "pre-commit": ("ruff", "flake8", "black", "mypy", "eslint", "prettier"), "tox": ("tox", "pytest"),
    "nox": ("nox", "pytest"), "vitest": ("vitest",), "jest": ("jest",), "gulp": _ANY, "rake": ("rspec",),
    "ant": ("maven", "gradle"), "composer": ("phpunit",), "artisan": ("phpunit",), "deno": ("tsc",),
    "stack": (), "sbt": (), "dmypy": ("mypy",), "basedpyright": ("pyright",), "svelte-check": ("tsc",),
}


# Every marker above contains one of these (case-insensitively); checked first, because scanning
# output for dozens of anchored alternatives is slow and most outputs are of passing runs.
_CUES = re.compile(r"fail|err|problem|offense|reformat|oh no|✖|warn|[1-9]\d* failing", re.IGNORECASE)


@cache
def _pattern(family: str) -> re.Pattern[str] | None:
    groups = FAMILY_MARKERS.get(family, (family,))
    alternatives = [marker for group in groups for marker in MARKERS.get(group, ())]
    if not alternatives:
        return None
    return re.compile("|".join(f"(?:{marker})" for marker in alternatives), re.MULTILINE)


def failure_evidence(family: str, output: str) -> str | None:
    """The first line of ``output`` that shows a check of ``family`` failed, if one does.

    ``family`` is :attr:`Validation.family`. Only for refuting a reported pass: a ``None`` proves
    nothing (the output may be cut, or quiet).
    """
    pattern = _pattern(family)
    if pattern is None or not output:
        return None
    if _CUES.search(output) is None:
        return None  # a passing run's output usually has none of the words any marker needs
    match = pattern.search(output)
    if match is None:
        return None
    start = output.rfind("\n", 0, match.start()) + 1
    end = output.find("\n", match.start())
    line = output[start : end if end >= 0 else len(output)].strip()
    return line if len(line) <= 200 else line[:199] + "…"
