"""What redaction costs on the consultation path, beside the hand-written redactor it replaced, in one run.

The consultation path redacts twice: each event as a ``Ledger`` takes it (``obligations.redact_event``:
every text it carries, whole), and the prompt as ``consult`` starts (``AdvisorPrompt.redacted``, which
finds the ledger's prompt clean). Over the real sessions in ``tests/fixtures/transcripts/real``
this script times, best of ``--repeat`` runs:

- **redactor**: ``redact_event`` over every event of each session, and ``redacted()`` over the prompt a
  ledger of the whole session compiles (gitleaks' rules and witness's own, with the keyword prefilter);
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
import time
from collections.abc import Callable
from typing import Any

from advisor.ledger import Ledger
from benchmarks import baseline_redact
from obligations import Event, redact_event, redaction_kinds
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

    ours, theirs, rest = best(options.repeat, redactor, baseline, rest_of_path)
    size = sum(len(text) for text in every_text) + sum(len(text) for text in prompt_texts)
    events = sum(len(events) for _, events in sessions)
    print(f"{len(sessions)} real sessions, {events:,} events, {size / 1e6:.1f} MB of text redacted "
          f"(events and prompts), best of {options.repeat}")
    print(f"baseline (hand-written, 14 rules): {theirs * 1000:,.0f} ms")
    print(f"redactor (gitleaks + witness, {len(redaction_kinds())} kinds): {ours * 1000:,.0f} ms — "
          f"{ours / theirs:.2f}x the baseline")
    print(f"the rest of the consultation path (reading the transcripts, the ledger taking the events, the prompt): "
          f"{rest * 1000:,.0f} ms; redaction is {ours / (ours + rest):.0%} of the path")
    found = collections.Counter((r.kind, r.secret) for path in real_sessions() for r in session_redactions(path))
    print(f"replaced in the real sessions: {sum(found.values())} ({len(found)} distinct)")
    for (kind, secret), count in sorted(found.items()):
        print(f"  {kind}: {secret[:60]!r} ×{count}")


if __name__ == "__main__":
    main()
