"""A check found in a command line, and the verdict on it as the analysis judges it outwards."""

from __future__ import annotations

import re
import shlex

from ._identify import Identified
from ._identity import cosmetic_free, digest, semantic_environment
from ._model import Span
from ._reasons import reason
from ._results import Reason
from ._vocabulary import ExitSource

_UNSAFE = re.compile(r"[^\w@%+=:,./-]", re.ASCII)
"""A character ``shlex.quote`` quotes (its own test, without its function call per word)."""
RANK: dict[ExitSource, int] = {"check": 0, "reporting-pipe": 1, "masked": 2}
"""How bad an exit source is: a verdict only ever gets worse."""


class Finding:
    """A check found, and the verdict so far as it is judged outwards."""

    __slots__ = ("_identity", "_key", "_statement", "after_check", "chain", "chain_source", "cmdlet", "directory",
                 "environment", "identified", "mutations_at", "reasons", "runs", "source", "span", "unattributed")

    def __init__(self, identified: Identified, span: Span, directory: str | None, runs: bool = True,
                 environment: tuple[str, ...] = ()):
        self.identified = identified
        self.span = span
        self.directory = directory
        self.environment = environment
        """Assignments and wrapper choices it runs under (cosmetic ones are dropped from its key)."""
        self.source: ExitSource = "check"
        self.chain_source: ExitSource = "check"
        """The verdict as far as a zero status goes (see :attr:`._position.Verdict.chain_source`)."""
        self.reasons: list[Reason] = []
        self.cmdlet = False  # its reporting pipe feeds a PowerShell cmdlet
        self.unattributed = False  # a non-zero status may be another command's failure
        self.runs = runs  # False for a check only named (a function definition's, a redefined name's)
        self.mutations_at: int | None = None
        """How many potential mutations the command line had made when the check's statement ended."""
        self.chain: int | None = None
        """The `&&` list (or `set -e` script) whose first failure ends it, when the check's failing
        status ends it: of the checks in one chain, at most one failed in a failing run."""
        self.after_check = False
        """Another check ran before it in its chain: a failing status may be that one's."""
        self._statement: str | None = None
        self._identity: tuple[str, tuple[str, ...], tuple[str, ...]] | None = None
        self._key: str | None = None

    def statement(self) -> str:
        if self._statement is None:
            self._statement = statement_of(self.identified.statement)
        return self._statement

    def identity(self) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
        """The statement without cosmetic options, its words, and the semantic environment."""
        if self._identity is None:
            identified = self.identified
            words = cosmetic_free(identified.family, identified.statement)
            text = self.statement() if words == identified.statement else statement_of(words)
            environment = semantic_environment(self.environment) if self.environment else ()
            self._identity = (text, words, environment)
        return self._identity

    def key(self) -> str:
        """Kind, directory, identity and environment, digested: equal keys are the same check."""
        if self._key is None:
            text, _, environment = self.identity()
            self._key = digest(self.identified.kind, self.directory, text, environment)
        return self._key

    def degrade(self, source: ExitSource, reasons: list[Reason], cmdlet: bool = False,
                unattributed: bool = False, *, chain: ExitSource | None = None) -> None:
        """Judge the check by one more layer around it; ``chain``: the layer's verdict as far as a
        zero status goes, when it differs from ``source``."""
        self.unattributed = self.unattributed or unattributed
        self.chain_source = _worse(self.chain_source, source if chain is None else chain)
        if source == "check":  # keeps the verdict: only the reasons add up
            self.reasons.extend(reasons)
            return
        if self.source == "reporting-pipe" and source == "reporting-pipe":
            reasons = [*reasons, reason("extra-pipes", reasons[-1].span if reasons else None)]
            source = "masked"
        if RANK[source] > RANK[self.source]:
            self.source = source
            self.cmdlet = cmdlet
        self.reasons.extend(reasons)


def _worse(first: ExitSource, second: ExitSource) -> ExitSource:
    """The worse of two verdicts in a row: a reporting pipe inside another is two pipes."""
    if first == second == "reporting-pipe":
        return "masked"
    return first if RANK[first] >= RANK[second] else second


def statement_of(parts: tuple[str, ...]) -> str:
    """The argv as a shell would read it back: each word quoted by ``shlex.quote`` as needed."""
    if all(parts) and _UNSAFE.search("".join(parts)) is None:
        # No word is empty or holds a character to quote, so none needs quotes (one test for all).
        return " ".join(parts)
    return " ".join(map(shlex.quote, parts))



def mark_repeated(findings: list[Finding]) -> None:
    """A check that runs again after an earlier run of itself (`pytest; pytest`, `f; f`): a pass
    there hides the earlier run's failure, as a retry does."""
    seen: dict[str, Finding] = {}
    for finding in findings:
        if not finding.runs:
            continue
        key = finding.key()
        earlier = seen.get(key)
        if earlier is not None:
            finding.degrade("masked", [reason("repeated", earlier.span, piece=earlier.statement())])
        seen.setdefault(key, finding)
