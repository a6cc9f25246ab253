"""The ledger compiler: events in, the advisor's request out — incrementally, one entry at a time.

Each entry becomes at most a block or two, compiled once from that entry alone (a tool round
when its result arrives, from its call and result) and never changed afterwards; a completed
consultation closes the segment it ends. So a :class:`Ledger` kept across a session pays for
new entries only, and the request for any prefix of a session is a prefix of the request for
the whole of it — every message but the last byte for byte. What still depends on what comes
next — the newest rounds shown verbatim, the step being written, calls still running, the
question, the open obligations — lives in the last message only.

Executor activity is data, inside user turns; the advisor's own past advice is the only
assistant turn. The session's sub-agents are not shown (their delegation call's card and
result are), entries the host kept out of the agent's context are withheld, and everything
shown is redacted: each event as it is taken, before anything is derived from it or cut.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from advisor.errors import LedgerTooLarge
from advisor.models import ToolSpec
from advisor.prompt import ADVISOR_SYSTEM_PROMPT, AdvisorPrompt, Compiled, investigation_tools
from obligations import (
    ROOT_AGENT,
    AssistantMessage,
    CallRecord,
    Compaction,
    Event,
    HostMessage,
    ObligationsReport,
    SessionAgent,
    ToolCatalogue,
    ToolCompleted,
    ToolDispatched,
    ToolInfo,
    Tracker,
    TrackerConfig,
    TranscriptFormat,
    UserMessage,
    is_advisor_tool,
    redact,
    redact_event,
)
from obligations.sources import host_tools
from shellparse import Policy

from ._cards import clean_card, user_shell_card
from ._catalogue import catalogue_message, tool_lines
from ._compaction import restart
from ._expand import Source, full_text
from ._log import Block, BlockKind, Log, Round, join_blocks
from ._render import Draft, Segment, segment_text
from ._settings import LedgerSettings
from ._text import clip, expandable
from ._trim import Fitted, fit
from ._wording import (
    CONSULT_INSTRUCTION,
    CONSULT_INSTRUCTION_BARE,
    PASTED,
    PRIOR_HEADER,
    REVIEW_INSTRUCTION,
    REVIEW_INSTRUCTION_BARE,
    TOOLS_DECLARED,
    advice_in_feedback,
    obligations_text,
    summary_label,
)

REVIEW_EXTENSION = "advisor-review"
"""The extension message a delivered completion review is recorded as (Pi)."""


@dataclass(slots=True)
class _Step:
    """An assistant step being written: its prose waits until its calls are known, because the prose
    beside an advisor call is that consultation's question, not a log entry."""

    event: AssistantMessage
    handle: str
    asks: bool = False


class Ledger:
    """An executor session compiled for the advisor, kept up to date one event at a time.

    ``host`` (``claude-code``, ``codex``, ``pi``) names the host's built-in tools for the catalogue
    and its summaries' label; ``tools`` adds tools the host declares up front. ``agent_id`` is the
    agent whose work is shown (default: the session's own agent — the first that no event announced
    as a sub-agent); obligations are tracked for every agent. Events of any type may be given;
    those the ledger does not show still reach its tracker. ``investigation=False`` is for an advisor
    that has no investigation tools (a host with neither a workspace nor ``advisor_expand``): then
    nothing in the request points to them — clipped text says only how much was left out — and
    :meth:`compile` declares no tools unless given some.
    """

    def __init__(self, *, host: TranscriptFormat | None = None, tools: Iterable[ToolInfo] = (),
                 settings: LedgerSettings | None = None, session_id: str | None = None, agent_id: str | None = None,
                 policy: Policy = "seed", system: str = ADVISOR_SYSTEM_PROMPT, investigation: bool = True) -> None:
        self.host: TranscriptFormat | None = host
        self.settings = settings or LedgerSettings()
        self.session_id = session_id
        self._own = SessionAgent(agent_id)
        self.policy: Policy = policy
        self.system = system
        self.investigation = investigation
        """Whether the advisor has the investigation tools the request may point to."""
        known = (*(host_tools(host) if host else ()), *tools)
        self._catalogue = catalogue_message(known)
        self._declared = {tool.name for tool in known}
        self._closed: list[Segment] = []
        self._open = Log()
        self._pending: dict[str, ToolDispatched] = {}
        self._asked: dict[str, str] = {}
        self._excluded: set[str] = set()
        self._step: _Step | None = None
        self._reasoning: tuple[str, str | None] | None = None
        self._prior: list[str] = []
        self._spans: list[list[Block]] = []
        self._seen: dict[str, int] = {}
        self._sources: dict[str, Source] = {}
        self._call_handles: dict[str, str] = {}
        self._counter = 0
        self._tracker = Tracker(TrackerConfig(policy=policy, escalation=None))
        self._records: dict[str, CallRecord] = {}
        """The tracker's records of calls just completed, for their cards (taken as each result arrives)."""
        self._tracker.watch(self._record)
        self._anchor = 0
        self._dispatching = False
        self.events = 0
        """Events taken so far."""

    @property
    def agent_id(self) -> str | None:
        """The agent whose work is shown (``None`` until the session's own agent's first event)."""
        return self._own.agent_id

    # -- taking events ---------------------------------------------------------------------------

    def extend(self, events: Iterable[Event]) -> Ledger:
        """Take events in order; returns the ledger."""
        for event in events:
            self.add(event)
        return self

    def add(self, event: Event) -> None:
        """Take one event: redacted first (:func:`obligations.redact_event`), so that everything the
        ledger derives from it — cards, check evidence, obligations, excerpts, expanded text — is cut
        from clean text, and no cut leaves half a secret to go unrecognised."""
        event = redact_event(event)
        self.events += 1
        self._tracker.handle(event)
        if event.entry_id is not None:
            self._seen.setdefault(event.entry_id, self.events)
        if not self._own.owns(event):
            return
        if isinstance(event, ToolDispatched):
            self._dispatched(event)
            self._dispatching = True
            return
        self._dispatching = False
        self._flush()
        if isinstance(event, AssistantMessage):
            self._step = _Step(event, self._handle_of(event))
            # Only the newest step's reasoning is shown: the step that asks (or the last one written).
            self._reasoning = (event.reasoning, self._step.handle) if event.reasoning.strip() else None
        elif isinstance(event, ToolCompleted):
            self._completed(event)
        elif isinstance(event, UserMessage):
            self._user(event)
        elif isinstance(event, Compaction):
            self._compaction(event)
        elif isinstance(event, HostMessage):
            self._host_message(event)
        elif isinstance(event, ToolCatalogue):
            self._catalogued(event)

    def _handle_of(self, event: Event) -> str:
        """A short id for an entry, unique in the ledger: the host's entry id (its first 8 characters
        when it is long, as a UUID is), else a counter; a clash gets ``-2``, ``-3`` …"""
        ident = event.entry_id
        if ident is None:
            self._counter += 1
            base = f"e{self._counter}"
        else:
            base = ident[:8] if len(ident) > 12 else ident
        handle, number = base, 2
        while handle in self._sources:
            handle, number = f"{base}-{number}", number + 1
        self._sources[handle] = Source(event)
        return handle

    def _clipped(self, text: str, limit: int, handle: str | None) -> str:
        """:func:`expandable`, pointing to ``advisor_expand`` only when the advisor has it."""
        return expandable(text, limit, handle if self.investigation else None)

    def _block(self, kind: BlockKind, text: str, handle: str | None = None, round: Round | None = None) -> None:
        self._open.append(Block(kind, text, handle, round, self.events))

    def _flush(self) -> None:
        """The held step's prose becomes a block, unless it was an advisor call's question."""
        step, self._step = self._step, None
        if step is not None and not step.asks and step.event.text.strip():
            self._block("executor", self._executor_text(step), step.handle)

    def _executor_text(self, step: _Step, limit: int | None = None) -> str:
        limit = self.settings.executor_max_chars if limit is None else limit
        return "[executor] " + self._clipped(step.event.text.strip(), limit, step.handle)

    def _dispatched(self, event: ToolDispatched) -> None:
        if event.excluded:
            self._excluded.add(event.call_id)
        elif is_advisor_tool(event.tool):
            if not self._dispatching:
                self._asked.clear()  # an earlier turn's call still unanswered never will be
            self._asked[event.call_id] = self._question(event)
        else:
            self._pending[event.call_id] = event

    def _question(self, event: ToolDispatched) -> str:
        """An advisor call's question: its ``prompt`` argument (the gateway's advisor tools) or its
        ``question`` (witness's MCP tool), else the prose of the step that made it (Claude Code's and
        Pi's ``advisor`` take no input)."""
        limit = self.settings.user_message_max_chars
        for key in ("prompt", "question"):
            asked = event.arguments.get(key)
            if isinstance(asked, str) and asked.strip():
                return self._clipped(asked.strip(), limit, None)
        step = self._step
        if step is None or not step.event.text.strip():
            return ""
        step.asks = True
        return self._clipped(step.event.text.strip(), limit, step.handle)

    def _record(self, record: CallRecord) -> None:
        self._records[record.call_id] = record

    def _completed(self, event: ToolCompleted) -> None:
        record = self._records.pop(event.call_id, None)
        if event.call_id in self._excluded:
            self._excluded.discard(event.call_id)
            return
        if event.call_id in self._asked:
            question = self._asked.pop(event.call_id)
            usable = not event.is_error and event.error_code is None and bool((event.output or "").strip())
            self._close(question or None, event.output.strip() if usable and event.output else None)
            return
        call = self._pending.pop(event.call_id, None)
        if call is None:
            return  # a result whose call was never seen: nothing to show it by
        handle = self._handle_of(event if event.entry_id else call)
        self._sources[handle] = Source(call, event)
        self._call_handles[call.call_id] = handle
        if call.user_shell:
            self._block("user-shell", user_shell_card(handle, call, event), handle)
        else:
            self._block("round", clean_card(handle, call, event, record), handle, Round(call, event, record))

    def _close(self, question: str | None, advice: str | None, review: bool = False) -> None:
        self._closed.append(Segment(self._open, question, advice, review, self.events))
        self._open = Log()
        self._reasoning = None

    def _user(self, event: UserMessage) -> None:
        handle = self._handle_of(event)
        text = "[user] " + self._clipped(event.text, self.settings.user_message_max_chars, handle)
        if event.images:
            text += "\n" + PASTED.format(n=event.images)
        self._block("user", text, handle)

    def _compaction(self, event: Compaction) -> None:
        summary: Block | None = None
        if event.summary.strip():
            handle = self._handle_of(event)
            label = summary_label(event.kind, self.host)
            text = self._clipped(event.summary.strip(), self.settings.summary_max_chars, handle)
            summary = Block("summary", f"{label}\n{text}", handle, None, self.events)
        if event.kind == "branch":
            if summary is not None:
                self._open.append(summary)
            return
        kept_from = self._seen.get(event.first_kept) if event.first_kept else None
        fresh = restart(self._closed, self._open, summary, kept_from)
        self._closed, self._open = fresh.closed, fresh.open
        self._spans.append(fresh.dropped_users)
        self._prior = self._restate()
        self._anchor = 0

    def _host_message(self, event: HostMessage) -> None:
        """A hook's feedback is shown as the host's, whatever its visibility (the agent acted on it); an
        extension's message only when the user saw it; a delivered completion review — Pi's extension
        message, or witness's Stop hook holding the agent with its advice — is past advice."""
        text = event.text.strip()
        reviewed = advice_in_feedback(text) if event.kind == "hook-feedback" else None
        if event.kind == "extension" and event.name == REVIEW_EXTENSION:
            self._close(None, text or None, review=True)
        elif reviewed is not None:
            self._close(None, reviewed, review=True)
        elif event.kind == "hook-feedback" and text:
            handle = self._handle_of(event)
            preview = self._clipped(text, self.settings.custom_preview_chars, handle)
            self._block("host", f"[host: hook feedback, not the user's words] {preview}", handle)
        elif event.kind == "extension" and text and not event.hidden:
            handle = self._handle_of(event)
            preview = clip(text, self.settings.custom_preview_chars)
            self._block("host", f"[extension message: {event.name or 'unnamed'}] {preview}", handle)

    def _restate(self) -> list[str]:
        """The user's words every compaction replaced: the newest compaction's span at
        ``restated_max_chars`` each, earlier spans' at ``restated_older_chars`` (rebuilt at a compaction,
        which starts the request afresh anyway)."""
        older, newest = self._spans[:-1], self._spans[-1]
        limit = self.settings.restated_older_chars
        return [*(self._restated(block, limit) for span in older for block in span),
                *(self._restated(block, self.settings.restated_max_chars) for block in newest)]

    def _restated(self, block: Block, limit: int) -> str:
        """A user message a summary replaced, for the restated words (a tighter cap: they are older)."""
        source = self._sources.get(block.handle or "")
        if source is None or not isinstance(source.event, UserMessage):
            return block.text
        event = source.event
        text = "[user] " + self._clipped(event.text, limit, block.handle)
        return text + ("\n" + PASTED.format(n=event.images) if event.images else "")

    def _catalogued(self, event: ToolCatalogue) -> None:
        new = [tool for tool in event.tools if tool.name not in self._declared]
        self._declared.update(tool.name for tool in new)
        if new:
            self._block("tools", TOOLS_DECLARED + "\n" + "\n".join(tool_lines(new)))

    # -- reading ---------------------------------------------------------------------------------

    def expand(self, handle: str) -> str | None:
        """The verbatim (redacted) text behind a card id, with or without its ``#`` (``None``:
        no such entry). This is the ``expand`` an :class:`~advisor.consult.Investigation` takes."""
        source = self._sources.get(handle.strip().removeprefix("#"))
        return None if source is None else full_text(source)

    def obligations(self) -> ObligationsReport:
        """The shown agent's verification obligations, as its tracker reports them (what ``witness audit``
        says of the same session): open in its current task, left unresolved by earlier tasks, resolved."""
        return self._tracker.report(self.agent_id or ROOT_AGENT)

    def _card_of(self, call_id: str | None) -> str:
        handle = self._call_handles.get(call_id or "")
        return f"#{handle}" if handle else "a call not shown"

    def _draft(self, question: str | None, review: bool) -> Draft:
        tail = self.settings.tail_tool_calls
        promoted = [i for i, block in enumerate(self._open.blocks) if block.kind == "round"][-tail:] if tail else []
        tail_start = promoted[0] if promoted else len(self._open)
        step = self._step
        writing = step is not None and not step.asks and bool(step.event.text.strip())
        provisional = [self._executor_text(step, self.settings.user_message_max_chars)] if step and writing else []
        running = [Block("round", "", None, Round(call, None)) for call in self._pending.values()]
        asked = next(iter(self._asked.values()), None)
        shown = redact(question) if question else asked
        instruction = (REVIEW_INSTRUCTION if review else CONSULT_INSTRUCTION) if self.investigation else \
            (REVIEW_INSTRUCTION_BARE if review else CONSULT_INSTRUCTION_BARE)
        closing = "\n\n".join([obligations_text(self.obligations(), self._card_of), instruction])
        prior = PRIOR_HEADER + "\n\n" + join_blocks(self._prior) if self._prior else None
        return Draft(self._catalogue, prior, self._closed, self._open, tail_start, provisional, running,
                     self._reasoning, shown or None, closing, self.investigation)

    def compile(self, *, question: str | None = None, review: bool = False, tools: Sequence[ToolSpec] | None = None,
                token_budget: int | None = None) -> Compiled:
        """The request for a consultation now (never raises for size: see ``fits``).

        ``question`` is the executor's question (default: the prose of an advisor call still in
        flight); ``review`` asks for a completion review of the executor's last answer instead;
        ``tools`` are the investigation declarations (default: all of them); ``token_budget``
        overrides the settings'."""
        default = investigation_tools() if self.investigation else ()
        declared = tuple(default if tools is None else tools)
        budget = self.settings.token_budget if token_budget is None else token_budget
        fixed = len(self.system) + sum(len(t.name) + len(t.description) + len(json.dumps(t.parameters,
                                       separators=(",", ":"))) for t in declared)
        fitted: Fitted = fit(self._draft(question, review), fixed_chars=fixed, budget=budget,
                             cap=self.settings.tail_max_chars, anchor=self._anchor)
        if fitted.fits:
            self._anchor = fitted.cut
        trimmed = fitted.cut > 0 or fitted.cap < self.settings.tail_max_chars
        prompt = AdvisorPrompt(system=self.system, messages=tuple(fitted.messages),
                               stable_prefix_messages=len(fitted.messages) - 1, tools=declared,
                               session_id=self.session_id, trimmed=trimmed)
        return Compiled(prompt, fitted.fits, fitted.tokens, fitted.cut)

    def prompt(self, *, question: str | None = None, review: bool = False, tools: Sequence[ToolSpec] | None = None,
               token_budget: int | None = None) -> AdvisorPrompt:
        """The request for a consultation now; raises :class:`~advisor.errors.LedgerTooLarge` when even
        the trimmed request exceeds the token budget (the consultation should be skipped)."""
        compiled = self.compile(question=question, review=review, tools=tools, token_budget=token_budget)
        if not compiled.fits:
            budget = self.settings.token_budget if token_budget is None else token_budget
            raise LedgerTooLarge(f"the task and the most recent tool rounds take {compiled.tokens} tokens, more than "
                                 f"the budget of {budget}, even with every earlier block left out")
        return compiled.prompt

    @property
    def trim_anchor(self) -> int:
        """Leading blocks an earlier request left out to fit; later requests leave out at least as many.
        A host that rebuilds the ledger for every consultation (a stateless one) restores the value the
        session's previous request left here after taking the events, so the prefix stays shared."""
        return self._anchor

    @trim_anchor.setter
    def trim_anchor(self, blocks: int) -> None:
        self._anchor = max(0, blocks)


def segment_message(segment: Segment) -> str:
    """A closed segment's message (for tests and tools that show segments)."""
    return segment_text(segment.log.text(), segment.question, segment.review)


def compile_prompt(events: Iterable[Event], *, question: str | None = None, review: bool = False,
                   **options: Any) -> AdvisorPrompt:
    """The request for a consultation at the end of ``events`` (``options`` as for :class:`Ledger`);
    raises :class:`~advisor.errors.LedgerTooLarge` as :meth:`Ledger.prompt` does."""
    return Ledger(**options).extend(events).prompt(question=question, review=review)
