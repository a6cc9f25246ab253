"""What redaction costs on the consultation path, beside the hand-written redactor it replaced, in one run.

The consultation path redacts twice: each event as a ``Ledger`` takes it (``obligations.redact_event``:
every text it carries, whole), and the prompt as ``consult`` starts (``AdvisorPrompt.redacted``, which
finds the ledger's prompt clean). Over the real sessions in ``tests/fixtures/transcripts/real``
this script times, best of ``--repeat`` runs:

- **redactor**: ``redact_event`` over every event of each session, and ``redacted()`` over the prompt a
  ledger of the whole session compiles (gitleaks' rules and witness's own, with the keyword prefilter);
- **the same rules on Python's engines**: the redactor with every pattern on ``re`` (else ``regex``), as
  before it ran gitleaks' rules on RE2 — what the linear-time engine changed;
- **baseline**: the redactor of before (``benchmarks/baseline_redact.py``: fourteen hand-written rules
  with a cue prefilter) over the same texts the events carry, and over the same prompt;
- **the rest of the path**: reading each transcript into events, the ledger taking the (already
  redacted) events and compiling the prompt — for scale.

It prints the times, the ratio of the redactor to the baseline (the row the docs quote), redaction's
share of the path, and what the redactor replaced in the sessions (the false positives are among them).

    .venv/bin/python benchmarks/redact_bench.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import collections
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any

import regex

import obligations._redact
from advisor.ledger import Ledger
from benchmarks import baseline_redact
from obligations import Event, redact_event, redaction_kinds
from obligations._secret_patterns import Compiled
from obligations.sources import open_transcript
from tests.support.redactions import real_sessions, session_redactions, strings

Session = tuple[str, list[Event]]


def best(repeat: int, *runs: Callable[[], Any]) -> list[float]:
    """The fastest of ``repeat`` runs of each, in seconds — interleaved, so that a machine busy for a while
    slows them alike."""
    times: list[list[float]] = [[] for _ in runs]
    for _ in range(repeat):
        for run, taken in zip(runs, times, strict=True):
            started = time.perf_counter()
            run()
            taken.append(time.perf_counter() - started)
    return [min(taken) for taken in times]


def texts(events: list[Event]) -> list[str]:
    """Every string the events carry, as ``redact_event`` sees them."""
    return [text for event in events for name in type(event).model_fields for text in strings(getattr(event, name))
            if text]


@cache
def python_compiled(pattern: str) -> Compiled:
    """``pattern`` on the standard library's engine, else ``regex``'s (the redactor's engines before RE2)."""
    if "[[:" not in pattern:  # a POSIX class, which `re` reads as a nested set
        try:
            return Compiled(re.compile(pattern, re.ASCII), linear=False)
        except re.error:
            pass
    return Compiled(regex.compile(pattern, regex.ASCII), linear=False)


@contextmanager
def python_engines() -> Iterator[None]:
    """The redactor with every pattern on Python's engines, for as long as the block runs."""
    redactor: Any = obligations._redact  # its engine is private: swapped here, for the comparison alone
    chosen = redactor.compiled
    redactor.compiled = python_compiled
    try:
        yield
    finally:
        redactor.compiled = chosen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--repeat", type=int, default=5)
    options = parser.parse_args()
    sessions: list[Session] = [(path.name, list(open_transcript(path).events())) for path in real_sessions()]
    sealed = [(name, [redact_event(event) for event in events]) for name, events in sessions]
    prompts = [Ledger().extend(events).compile(question="Done?").prompt for _, events in sealed]
    every_text = [text for _, events in sessions for text in texts(events)]
    prompt_texts = [message.text for prompt in prompts for message in prompt.messages]

    def redactor() -> None:
        for _, events in sessions:
            for event in events:
                redact_event(event)
        for prompt in prompts:
            prompt.redacted()

    def on_python_engines() -> None:
        with python_engines():
            redactor()

    def baseline() -> None:
        for text in every_text:
            baseline_redact.redact(text)
        for text in prompt_texts:
            baseline_redact.redact(text)

    def rest_of_path() -> None:
        for path in real_sessions():
            list(open_transcript(path).events())
        for _, events in sealed:
            Ledger().extend(events).compile(question="Done?")

    ours, python, theirs, rest = best(options.repeat, redactor, on_python_engines, baseline, rest_of_path)
    size = sum(len(text) for text in every_text) + sum(len(text) for text in prompt_texts)
    events = sum(len(events) for _, events in sessions)
    print(f"{len(sessions)} real sessions, {events:,} events, {size / 1e6:.1f} MB of text redacted "
          f"(events and prompts), best of {options.repeat}")
    print(f"baseline (hand-written, 14 rules): {theirs * 1000:,.0f} ms")
    print(f"redactor (gitleaks + witness, {len(redaction_kinds())} kinds): {ours * 1000:,.0f} ms — "
          f"{ours / theirs:.2f}x the baseline")
    print(f"the same rules on Python's engines (re, regex; before RE2): {python * 1000:,.0f} ms — "
          f"{python / theirs:.2f}x the baseline; RE2 takes {ours / python:.2f}x their time")
    print(f"the rest of the consultation path (reading the transcripts, the ledger taking the events, the prompt): "
          f"{rest * 1000:,.0f} ms; redaction is {ours / (ours + rest):.0%} of the path")
    found = collections.Counter((r.kind, r.secret) for path in real_sessions() for r in session_redactions(path))
    print(f"replaced in the real sessions: {sum(found.values())} ({len(found)} distinct)")
    for (kind, secret), count in sorted(found.items()):
        print(f"  {kind}: {secret[:60]!r} ×{count}")


if __name__ == "__main__":
    main()
