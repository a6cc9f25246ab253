"""The ledger: an executor session compiled into the advisor's request, compact and cache-friendly.

:class:`Ledger` takes ``obligations`` events (from a transcript reader or a live host) one at a
time and compiles each entry once; :meth:`Ledger.prompt` gives the
:class:`~advisor.consult.AdvisorPrompt` for a consultation now, and :meth:`Ledger.expand` the
verbatim text behind a card (the ``expand`` that :class:`~advisor.consult.Investigation`
takes). :func:`compile_prompt` does it in one call. Requests of one session share a
byte-identical prefix (every message but the last), so a provider's prompt cache matches.
Everything in them passes :func:`redact`, the redactor shared with ``obligations``.

>>> from obligations import ToolCompleted, ToolDispatched, UserMessage
>>> ledger = Ledger(host="pi", session_id="s1")
>>> ledger.extend([
...     UserMessage(text="make the tests pass", entry_id="u1"),
...     ToolDispatched(call_id="c1", tool="bash", arguments={"command": "pytest -q; echo done"}, entry_id="a1"),
...     ToolCompleted(call_id="c1", exit_code=0, output="=== 1 failed, 2 passed in 0.12s ===\\ndone", entry_id="r1"),
...     ToolDispatched(call_id="c2", tool="read", arguments={"path": "app.py"}, entry_id="a2"),
...     ToolCompleted(call_id="c2", exit_code=0, output="x = 1", entry_id="r2"),
...     ToolDispatched(call_id="c3", tool="read", arguments={"path": "test_app.py"}, entry_id="a3"),
...     ToolCompleted(call_id="c3", exit_code=0, output="def test(): ...", entry_id="r3")])  # doctest: +ELLIPSIS
<advisor.ledger._compiler.Ledger object at ...>
>>> prompt = ledger.prompt(question="Done?")
>>> card = next(line for line in prompt.messages[-1].text.splitlines() if line.startswith("#r1"))
>>> print(*card.split(" · "), sep="\\n")
#r1 bash
pytest -q; echo done
2 lines
check: pytest -q (test)
masked by `; echo done`
output shows a failure: === 1 failed, 2 passed in 0.12s ===
>>> ledger.expand("#r2")
'read({"path":"app.py"})\\n→ ok (exit 0):\\nx = 1'

:func:`read_ledger` compiles a transcript file (any host's) into a :class:`TranscriptLedger`.
:class:`LedgerSettings` are its limits (``[ledger]`` in ``config.toml``, :func:`load_ledger_settings`);
A ledger is the :class:`~advisor.prompt.PromptSource` a consultation compiles its request from
(:func:`advisor.consult.consult`). The building blocks —
:func:`card`, :func:`verbatim`, :func:`primary_argument`, :func:`edit_shape`, :func:`size`,
:func:`catalogue_message`, :func:`first_sentence` — render one round or catalogue the way the
ledger does, for a host that shows its own.

The public API is this module's ``__all__``.
"""

from obligations import redact

from ._arguments import edit_shape, primary_argument
from ._cards import card, size, verbatim
from ._catalogue import catalogue_message, first_sentence
from ._compiler import Ledger, compile_prompt
from ._settings import LedgerSettings, load_ledger_settings
from ._transcript import TranscriptLedger, read_ledger
from ._wording import REVIEW_FEEDBACK, advice_in_feedback, review_feedback

__all__ = [
    "REVIEW_FEEDBACK",
    "Ledger",
    "LedgerSettings",
    "TranscriptLedger",
    "advice_in_feedback",
    "card",
    "catalogue_message",
    "compile_prompt",
    "edit_shape",
    "first_sentence",
    "load_ledger_settings",
    "primary_argument",
    "read_ledger",
    "redact",
    "review_feedback",
    "size",
    "verbatim",
]
