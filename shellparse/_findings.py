"""A check found in a command line, and the verdict on it as the analysis judges it outwards."""

from __future__ import annotations

import hashlib
import shlex

from ._identify import Identified
from ._model import Span
from ._reasons import reason
from ._results import Reason
from ._vocabulary import ExitSource

RANK: dict[ExitSource, int] = {"check": 0, "reporting-pipe": 1, "masked": 2}
"""How bad an exit source is: a verdict only ever gets worse."""


class Finding:
    """A check found, and the verdict so far as it is judged outwards."""

    __slots__ = ("_key", "_statement", "cmdlet", "directory", "identified", "reasons", "runs", "source", "span",
                 "unattributed")

    def __init__(self, identified: Identified, span: Span, directory: str | None, runs: bool = True):
        self.identified = identified
        self.span = span
        self.directory = directory
        self.source: ExitSource = "check"
        self.reasons: list[Reason] = []
        self.cmdlet = False  # its reporting pipe feeds a PowerShell cmdlet
        self.unattributed = False  # a non-zero status may be another command's failure
        self.runs = runs  # False for a check only named (a function definition's, a redefined name's)
        self._statement: str | None = None
        self._key: str | None = None

    def statement(self) -> str:
        if self._statement is None:
            self._statement = statement_of(self.identified.statement)
        return self._statement

    def key(self) -> str:
        """Kind, directory and statement, digested: equal keys are the same check."""
        if self._key is None:
            identified = self.identified
            self._key = hashlib.sha256(f"{identified.kind}\0{self.directory or ''}\0{self.statement()}".encode(
                "utf-8", "surrogatepass")).hexdigest()[:16]
        return self._key

    def degrade(self, source: ExitSource, reasons: list[Reason], cmdlet: bool = False,
                unattributed: bool = False) -> None:
        self.unattributed = self.unattributed or unattributed
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


def statement_of(parts: tuple[str, ...]) -> str:
    """The argv as a shell would read it back: each word quoted by ``shlex.quote`` as needed."""
    joined = "".join(parts)
    if all(parts) and shlex.quote(joined) == joined:
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
