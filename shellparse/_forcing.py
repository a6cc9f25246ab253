"""Options that force a check to succeed, per family: with them a zero status proves nothing.

``ruff check --exit-zero`` reports 0 whatever it finds, ``pytest --co`` only collects the tests,
``make -i`` ignores the failures of its recipes, ``npm test --if-present`` exits 0 when there is no
such script. Each row is the family's own documented option (real ``ruff``, ``pytest``, ``make`` and
``npm`` show it in ``tests/shellparse/test_proof_table.py``), in every spelling the program reads:
alone, in a cluster of short options (``make -ik``), with its value attached or apart, or in the
environment variable the family reads options from (``PYTEST_ADDOPTS``, ``MAKEFLAGS``). Options
after ``--`` belong to what the check runs, not to the check. A wrapper's options that do the same
(``timeout --preserve-status``) are the wrapper table's (:mod:`._wrappers`).
"""


import shlex
from typing import NamedTuple

from ._vocabulary import CheckKind


class Forcing(NamedTuple):
    """A family's options that force success."""

    words: tuple[str, ...] = ()
    """Options written as a word of their own (``--exit-zero``, ``-Dmaven.test.skip=true``)."""
    letters: str = ""
    """Short options that force success alone or in a cluster (``i`` for ``make -i``, ``-ik``)."""
    valued: tuple[tuple[str, str], ...] = ()
    """Options forcing success with one value (``--issues-exit-code 0``, ``=0``; gradle ``-x test``)."""
    environment: tuple[str, ...] = ()
    """Variables the family reads further options from (``PYTEST_ADDOPTS``)."""
    value_letters: str = ""
    """Short options that take a value: a cluster is read up to one (``make -j4i`` is ``-j 4i``)."""
    kinds: tuple[CheckKind, ...] = ()
    """The kinds of check the options force (empty: every kind). Skipping the tests forces a test
    run to pass, not a build (``mvn package -DskipTests`` builds, and its status is the build's)."""
    bare_letters: bool = False
    """The variable's first word may be short options without a dash (``MAKEFLAGS=ik``)."""
    overrides: tuple[str, ...] = ()
    """Options whose value ``NAME=VALUE`` overrides a configuration setting (``pytest -o``)."""
    setting: str = ""
    """The setting that holds further options (``addopts``): overridden, its options are read too."""


FORCING: dict[str, Forcing] = {
    "ruff": Forcing(words=("--exit-zero", "-e")),
    "flake8": Forcing(words=("--exit-zero",)),
    "pylint": Forcing(words=("--exit-zero",)),
    "golangci-lint": Forcing(valued=(("--issues-exit-code", "0"),)),
    # Only collect, show the plan, the fixtures, the markers, the cache, the version or the help:
    # no test runs, and pytest exits 0 (real pytest shows each; `-h` also in a cluster, `-V` alone).
    "pytest": Forcing(words=("--co", "--collect-only", "--collectonly", "--suppress-no-test-exit-code",
                             "--setup-plan", "--setup-only", "--fixtures", "--funcargs", "--fixtures-per-test",
                             "--markers", "--cache-show", "--version", "-V", "--help", "-h"),
                      letters="h", value_letters="kmpcorWn", environment=("PYTEST_ADDOPTS",),
                      overrides=("-o", "--override-ini"), setting="addopts"),
    "make": Forcing(words=("--ignore-errors",), letters="i", environment=("MAKEFLAGS", "MFLAGS", "GNUMAKEFLAGS"),
                    value_letters="fjloWICE", bare_letters=True),
    "npm-script": Forcing(words=("--if-present",), environment=("npm_config_if_present", "NPM_CONFIG_IF_PRESENT")),
    "cargo": Forcing(words=("--no-run",), kinds=("test",)),
    "maven": Forcing(words=("-DskipTests", "-DskipTests=true", "-Dmaven.test.skip=true",
                            "-Dmaven.test.failure.ignore=true", "-Dtest.failure.ignore=true"), kinds=("test",)),
    "gradle": Forcing(valued=(("-x", "test"), ("--exclude-task", "test")), kinds=("test",)),
}
"""The options that force success, by family name (:data:`._families.FAMILIES`)."""

OPTION_VARIABLES = frozenset(name for rule in FORCING.values() for name in rule.environment)
"""Every variable a family reads options from (its value is part of the check's identity even when
only run time knows it)."""


def forced(family: str, kind: CheckKind, statement: tuple[str, ...], environment: tuple[str, ...]) -> str | None:
    """The option (or ``NAME=value``) that forces the check ``statement`` (its argv, program first)
    of ``family`` and ``kind`` to succeed, run under ``environment`` (``NAME=value`` words); ``None``
    if none does."""
    rule = FORCING.get(family)
    if rule is None or (rule.kinds and kind not in rule.kinds):
        return None
    found = _in_words(rule, statement[1:])
    if found is not None or not environment:
        return found
    for assignment in environment:
        name, _, value = assignment.partition("=")
        if name in rule.environment:
            if "$" in value or "`" in value:
                return assignment  # options only run time knows
            if _in_variable(rule, name, value):
                return assignment
    return None


def _in_words(rule: Forcing, words: tuple[str, ...]) -> str | None:
    for index, word in enumerate(words):
        if word[:1] != "-":
            continue  # only an option forces success (a value is read with its option)
        if word == "--":
            return None
        option, equals, value = word.partition("=")
        if word in rule.words or (equals and (option, value) in rule.valued):
            return word
        if index + 1 < len(words) and (word, words[index + 1]) in rule.valued:
            return f"{word} {words[index + 1]}"
        if rule.letters and word[:1] == "-" and word[1:2] != "-" and _cluster_forces(rule, word[1:]):
            return word
        if rule.overrides and word.startswith(rule.overrides) and _overridden(
                rule, word, words[index + 1] if index + 1 < len(words) else ""):
            return word
    return None


def _overridden(rule: Forcing, word: str, following: str) -> bool:
    """Whether ``word`` (with the word after it) overrides the setting holding options with one that
    forces success (``-o addopts=--co``, ``--override-ini=addopts=--co``, ``-oaddopts=--co``)."""
    option, equals, value = word.partition("=")
    if equals and option in rule.overrides:
        setting = value
    elif word in rule.overrides:
        setting = following
    else:
        setting = next((word[len(short):] for short in rule.overrides
                        if len(short) == 2 and word.startswith(short) and len(word) > 2), "")
    name, equals, options = setting.partition("=")
    return bool(equals) and name.strip() == rule.setting and _in_variable(rule, rule.setting, options)


def _cluster_forces(rule: Forcing, letters: str) -> bool:
    for letter in letters:
        if letter in rule.letters:
            return True
        if letter in rule.value_letters:
            return False
    return False


def _in_variable(rule: Forcing, name: str, value: str) -> bool:
    """Whether the options in the variable ``name`` force success (``MAKEFLAGS=ik``: its first word
    may be letters without a dash)."""
    if name.lower() == "npm_config_if_present":
        return value.lower() not in ("", "false", "0")
    try:
        words = tuple(shlex.split(value))
    except ValueError:
        return True  # unbalanced quotes: not read
    if rule.bare_letters and words and "=" not in words[0] and not words[0].startswith("-") \
            and _cluster_forces(rule, words[0]):
        return True
    return _in_words(rule, words) is not None
