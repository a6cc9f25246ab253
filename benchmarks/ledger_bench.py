"""What the advisor's ledger costs, side by side with the raw context it replaces, in one run.

Sessions: the fifteen real ones in ``tests/fixtures/transcripts/real`` (Claude Code, Codex, Pi;
27 to 540 tool calls each) and two synthetic Claude Code sessions of 1,000 and 10,000 entries
(events) with realistic tool outputs (test runs passing and failing, file reads, greps, edits;
about 2.2 KB per result on average, as in the real sessions), a user message every ~45 tool calls
(mostly a line or two, now and then a pasted log, as in the real sessions), and a
compaction whenever the context passes about 150,000 tokens, as Claude Code compacts, with a
summary written as Claude Code writes one (its sections, then the user's newest messages; 7 to 9
thousand characters, as the real ones are).

At a consultation point every 25 tool rounds (``--every``) two requests are sized:

- **ledger**: what ``advisor.ledger.Ledger`` (kept across the session, default settings and
  token budget) sends: system prompt, the investigation tools' schemas, the ledger's messages;
- **baseline**: the raw context as upstream sent it before the ledger — the same system prompt,
  an inventory of the executor's tools with their descriptions and JSON schemas (the declarations
  the real Claude Code 2.1.332, Codex 0.171.0 and Pi 0.73.1 send, recorded in
  ``tests/fixtures/hosts/tool_declarations.json``; a tool a session calls that is not among them
  gets a schema of the arguments it was called with), and every message and tool result of the
  executor's context serialised (reasoning included, images at 4,800 characters each; after a
  compaction what the host's own context keeps: the summary, and Codex's kept user messages or
  Pi's kept entries). The executor's own system prompt is left out, so the baseline is on the
  small side.

Both are serialised the same way (``{"system", "tools", "messages"}`` as JSON) and measured in
bytes and in tokens as characters / 4. Printed per session and in total: the requests' tokens, the
reduction, the share of each ledger request's bytes in the prefix it shares with the previous
request (what a provider's prompt cache can reuse), requests larger than their baseline (must be
0), user messages lost (each user message's first 60 characters must be in every later request;
must be 0), and the compile time per consultation at the start and at the end of the 10k session
(events added since the previous point plus compiling, the median of twenty points at each end;
incremental: the ratio stays near 1).
Targets: at least 92 % fewer tokens than the baseline in total, at least 95 % of each request's
bytes in the shared prefix. Beside the share it prints the bytes each request adds past that prefix
(the cards of the rounds since the previous point, the new verbatim tail, the closing message): a
share of 95 % needs a request at least twenty times that size.

    .venv/bin/python benchmarks/ledger_bench.py [--every 25] [--sizes 1000,10000] [--seed 7]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from advisor.ledger import Ledger, redact
from advisor.prompt import ADVISOR_SYSTEM_PROMPT, AdvisorPrompt, investigation_tools
from obligations import (
    AssistantMessage,
    Compaction,
    Event,
    HostMessage,
    SessionAgent,
    ToolCompleted,
    ToolDispatched,
    UserMessage,
)
from obligations.sources import host_tools, open_transcript

ROOT = Path(__file__).resolve().parent.parent
REAL = ROOT / "tests" / "fixtures" / "transcripts" / "real"
DECLARATIONS = ROOT / "tests" / "fixtures" / "hosts" / "tool_declarations.json"
"""The tool declarations the real hosts send their model (``record_tool_declarations.py`` beside it)."""
HOSTS = ("claude-code", "codex", "pi")
IMAGE_CHARS = 4800
COMPACT_AT = 600_000
"""Characters of context at which the synthetic sessions compact (about 150,000 tokens, where Claude Code does)."""
DECLARED = investigation_tools()
TOOLS = [{"type": "function", "function": {"name": t.name, "description": t.description, "parameters": t.parameters}}
         for t in DECLARED]


def serialise(system: str, tools: list[Any], messages: list[dict[str, Any]]) -> str:
    """A request as JSON, system and tools first (the order a provider puts them in the prompt)."""
    return json.dumps({"system": system, "tools": tools, "messages": messages}, ensure_ascii=False,
                      separators=(",", ":"))


def tokens(chars: int) -> int:
    return math.ceil(chars / 4)


def shared_prefix(a: bytes, b: bytes) -> int:
    """The length of the longest common prefix of ``a`` and ``b`` (a binary search over slices)."""
    low, high = 0, min(len(a), len(b))
    while low < high:
        middle = (low + high + 1) // 2
        if a[:middle] == b[:middle]:
            low = middle
        else:
            high = middle - 1
    return low


# -- the baseline -----------------------------------------------------------------------------------


def _schema(examples: list[dict[str, Any]]) -> dict[str, Any]:
    kinds = {bool: "boolean", int: "integer", float: "number", str: "string", list: "array", dict: "object"}
    properties: dict[str, Any] = {}
    for arguments in examples:
        for key, value in arguments.items():
            properties.setdefault(key, {"type": kinds.get(type(value), "string")})
    return {"type": "object", "properties": dict(sorted(properties.items()))}


def _declared(host: str | None) -> dict[str, tuple[str, Any]]:
    """The tools the real host declares to its model (recorded from it), as name → (description, schema)."""
    recorded = json.loads(DECLARATIONS.read_text(encoding="utf-8")).get(host or "", {}).get("tools", [])
    found: dict[str, tuple[str, Any]] = {}
    for tool in recorded:
        for member in tool.get("tools", [tool]):
            spec = member.get("function", member)
            if "name" in spec:
                found[spec["name"]] = (spec.get("description", ""),
                                       spec.get("input_schema") or spec.get("parameters") or spec.get("format") or {})
    return found


def inventory(host: str | None, events: list[Event]) -> str:
    """Upstream's tool inventory: every tool with its description and its JSON schema (key-sorted) — the host's
    real declarations, and for tools it did not declare there (MCP, newer tools) a schema of the arguments seen."""
    examples: dict[str, list[dict[str, Any]]] = {}
    for event in events:
        if isinstance(event, ToolDispatched):
            examples.setdefault(event.tool, []).append(event.arguments)
    declared = _declared(host)
    described = {t.name: t.description for t in host_tools(host)} if host in HOSTS else {}  # type: ignore[arg-type]
    tools = {**{name: (described.get(name, ""), _schema(seen)) for name, seen in examples.items()}, **declared}
    return "\n\n".join(f"### {name}\n{description}\nParameters: {json.dumps(schema, sort_keys=True)}"
                       for name, (description, schema) in sorted(tools.items()))


@dataclass(frozen=True)
class _Item:
    seq: int
    chars: int
    size: int
    user: bool


@dataclass
class Baseline:
    """The raw context, sized incrementally: each message is serialised once, when it arrives. A
    compaction leaves what the host's own context keeps: Claude Code the summary (which lists the
    user's messages), Codex the user's messages and the summary (its replacement history), Pi the
    summary and the entries from ``firstKeptEntryId`` on."""

    system: str
    inventory: str
    host: str | None = None
    items: list[_Item] = field(default_factory=list)
    chars: int = 0
    size: int = 0
    """Bytes."""
    fixed_chars: int = 0
    fixed_bytes: int = 0
    seq: int = 0
    _seen: dict[str, int] = field(default_factory=dict)
    _own: SessionAgent = field(default_factory=SessionAgent)

    def __post_init__(self) -> None:
        shell = serialise(self.system, [], [{"role": "user", "content": self.inventory},
                                            {"role": "user", "content": "Advise the executor."}])
        self.fixed_chars, self.fixed_bytes = len(shell), len(shell.encode())

    def _item(self, item: dict[str, Any], extra: int = 0, user: bool = False) -> None:
        text = json.dumps(item, ensure_ascii=False, separators=(",", ":"))
        kept = _Item(self.seq, len(text) + 1 + extra, len(text.encode()) + 1 + extra, user)
        self.items.append(kept)
        self.chars += kept.chars
        self.size += kept.size

    def _compact(self, event: Compaction) -> None:
        if self.host == "codex":
            keep = [item for item in self.items if item.user]
        elif self.host == "pi" and event.first_kept in self._seen:
            keep = [item for item in self.items if item.seq >= self._seen[event.first_kept]]
        else:
            keep = []
        self.items = keep
        self.chars, self.size = sum(i.chars for i in keep), sum(i.size for i in keep)
        self._item({"role": "user", "content": event.summary})

    def add(self, event: Event) -> None:
        """Take an event of the session."""
        self.seq += 1
        if event.entry_id is not None:
            self._seen.setdefault(event.entry_id, self.seq)
        if not self._own.owns(event):
            return
        if isinstance(event, UserMessage):
            self._item({"role": "user", "content": event.text}, IMAGE_CHARS * event.images, user=True)
        elif isinstance(event, HostMessage):
            self._item({"role": "user", "content": event.text})
        elif isinstance(event, AssistantMessage):
            self._item({"role": "assistant", "content": event.text, "reasoning": event.reasoning})
        elif isinstance(event, ToolDispatched) and not event.excluded:
            self._item({"id": event.call_id, "type": "function", "function": {
                "name": event.tool, "arguments": json.dumps(event.arguments, ensure_ascii=False)}})
        elif isinstance(event, ToolCompleted):
            self._item({"role": "tool", "tool_call_id": event.call_id, "content": event.output or "",
                        "is_error": event.is_error}, IMAGE_CHARS * event.images)
        elif isinstance(event, Compaction) and event.kind == "compaction":
            self._compact(event)
        elif isinstance(event, Compaction):
            self._item({"role": "user", "content": event.summary})

    @property
    def request_chars(self) -> int:
        return self.fixed_chars + self.chars

    @property
    def request_bytes(self) -> int:
        return self.fixed_bytes + self.size


# -- measuring a session ----------------------------------------------------------------------------


@dataclass
class Point:
    ledger_bytes: int
    ledger_tokens: int
    baseline_bytes: int
    baseline_tokens: int
    shared: int | None
    """Bytes shared with the previous request's prefix (``None`` for the first)."""
    lost: int
    seconds: float


@dataclass
class Result:
    name: str
    rounds: int = 0
    points: list[Point] = field(default_factory=list)


def request_text(prompt: AdvisorPrompt) -> str:
    """The ledger's request serialised as the baseline is."""
    return serialise(prompt.system, TOOLS, [{"role": m.role, "content": m.text} for m in prompt.messages])


def measure(name: str, host: str | None, events: list[Event], every: int) -> Result:
    """Consult every ``every`` tool rounds of the session and size both requests."""
    result = Result(name)
    ledger = Ledger(host=host)  # type: ignore[arg-type]
    baseline = Baseline(ADVISOR_SYSTEM_PROMPT, inventory(host, events), host)
    said: list[str] = []
    previous: bytes | None = None
    spent = 0.0
    for event in events:
        started = time.perf_counter()
        ledger.add(event)
        spent += time.perf_counter() - started
        baseline.add(event)
        if event.agent_id != ledger.agent_id:
            continue
        if isinstance(event, UserMessage) and event.text.strip():
            said.append(json.dumps(redact(event.text.strip())[:60], ensure_ascii=False)[1:-1])
        if not isinstance(event, ToolCompleted):
            continue
        result.rounds += 1
        if result.rounds % every:
            continue
        started = time.perf_counter()
        prompt = ledger.compile(tools=DECLARED).prompt
        spent += time.perf_counter() - started
        text = request_text(prompt)
        data = text.encode()
        result.points.append(Point(len(data), tokens(len(text)), baseline.request_bytes,
                                   tokens(baseline.request_chars),
                                   None if previous is None else shared_prefix(previous, data),
                                   sum(1 for snippet in said if snippet not in text), spent))
        previous, spent = data, 0.0
    return result


# -- synthetic sessions ------------------------------------------------------------------------------

_CODE = ["def {f}(request, *, timeout: float = 5.0) -> Response:", '    """Send {f} and wait for the answer."""',
         "    for attempt in range(retries):", "        try:",
         "            return client.send(request, timeout=timeout)",
         "        except TransientError as error:", "            log.warning('retrying %s: %s', request.id, error)",
         "    raise Unavailable(request)", "", "class {C}(BaseModel):", "    id: str", "    created: datetime",
         "    items: list[Item] = Field(default_factory=list)"]
_TESTS = ["tests/test_api.py", "tests/test_models.py", "tests/unit/test_retry.py", "tests/test_cli.py"]


def _code(rng: random.Random, lines: int) -> str:
    names = ["fetch", "store", "retry", "parse", "render"]
    body = [rng.choice(_CODE).format(f=rng.choice(names), C=rng.choice(["Order", "Invoice", "Batch"]))
            for _ in range(lines)]
    return "\n".join(f"{n:6}\t{line}" for n, line in enumerate(body, start=1))


def _pytest(rng: random.Random, failed: bool) -> str:
    head = ("============================= test session starts ==============================\n"
            "platform linux -- Python 3.12.3, pytest-8.3.2, pluggy-1.5.0\nrootdir: /home/dev/app\n"
            f"collected {rng.randint(80, 400)} items\n\n")
    body = "".join(f"{path} {'.' * rng.randint(10, 60)}{'F' if failed and rng.random() < 0.3 else ''} "
                   f"[{rng.randint(1, 99):3}%]\n" for path in rng.sample(_TESTS, 3))
    if not failed:
        passed = f"{rng.randint(80, 400)} passed in {rng.uniform(1, 30):.2f}s"
        return head + body + f"\n============================== {passed} ==============================\n"
    trace = "".join(f'  File "/home/dev/app/src/app/{m}.py", line {rng.randint(10, 400)}, in {m}\n    result = call()\n'
                    for m in ("api", "retry", "models"))
    return (head + body + "\n=================================== FAILURES ===================================\n"
            + "____ test_retry_gives_up ____\n\nTraceback (most recent call last):\n" + trace
            + "E   AssertionError: assert 3 == 5\n\n=========================== short test summary info "
            "============================\nFAILED tests/unit/test_retry.py::test_retry_gives_up - AssertionError\n"
            f"========================= 1 failed, {rng.randint(80, 400)} passed in 9.81s =========================\n")


def _call(rng: random.Random, n: int) -> tuple[ToolDispatched, ToolCompleted]:
    kind = rng.random()
    cid, ident = f"toolu_{n:06d}", f"s{n:06d}"
    if kind < 0.45:
        command, failed = rng.choice([("uv run pytest -q 2>&1 | tail -30", False), ("uv run pytest -q", True),
                                      ("uv run pytest -q", False), ("npm test; echo done", True),
                                      ("git status --short", None), ("rg -n retry src", None),
                                      ("ls -la src/app", None), ("uv run ruff check .", False)])
        if failed is None:
            output = "\n".join(f"src/app/{rng.choice(['api', 'retry', 'models'])}.py:{rng.randint(1, 400)}: "
                               "def retry(request):" for _ in range(rng.randint(3, 30)))
        else:
            output = _pytest(rng, failed)
        error = bool(failed) and "|" not in command and ";" not in command
        exit_code = 1 if error else 0
        call = ToolDispatched(call_id=cid, tool="Bash", arguments={"command": command, "description": "run it"},
                              cwd="/home/dev/app", entry_id=f"d{n:06d}")
        text = f"Exit code 1\n{output}" if error else output
        return call, ToolCompleted(call_id=cid, exit_code=exit_code, is_error=error, output=text, entry_id=ident)
    path = f"src/app/{rng.choice(['api', 'retry', 'models', 'cli', 'store'])}.py"
    if kind < 0.75:
        return (ToolDispatched(call_id=cid, tool="Read", arguments={"file_path": path}, entry_id=f"d{n:06d}"),
                ToolCompleted(call_id=cid, output=_code(rng, rng.choice([20, 40, 80, 160, 400])), entry_id=ident))
    if kind < 0.92:
        old, new = _code(rng, rng.randint(1, 12)), _code(rng, rng.randint(1, 16))
        return (ToolDispatched(call_id=cid, tool="Edit", arguments={"file_path": path, "old_string": old,
                                                                    "new_string": new}, entry_id=f"d{n:06d}"),
                ToolCompleted(call_id=cid, output=f"The file {path} has been updated.", entry_id=ident))
    return (ToolDispatched(call_id=cid, tool="Grep", arguments={"pattern": "retry", "path": "src"},
                           entry_id=f"d{n:06d}"),
            ToolCompleted(call_id=cid, output="\n".join(f"{path}:{rng.randint(1, 400)}:    retry(request)"
                                                         for _ in range(rng.randint(2, 40))), entry_id=ident))


_SUMMARY = ("This session is being continued from a previous conversation that ran out of context. The "
            "conversation is summarized below:\nAnalysis:\n" + "The executor read the retry module, ran the tests, "
            "found the failing case and edited the loop; the suite was re-run with the last result shown. " * 35)


def _summary(said: list[str]) -> str:
    """A compaction summary as Claude Code writes one: its sections, then the user's messages (the newest
    twenty, each by its start): 7 to 9 thousand characters, as the real ones in the fixtures are."""
    return _SUMMARY + "\n\n6. All user messages:\n" + "\n".join(f"- {text[:150]}" for text in said[-20:])


_WORDS = ["fix", "the", "retry", "loop", "so", "tests", "pass", "and", "document", "it", "please", "also", "check"]


def _user_words(rng: random.Random, n: int) -> str:
    """What a user types: mostly a line or two, sometimes a paragraph, now and then a pasted log (the real
    sessions' user messages: median about 100 characters, mean about 1,300)."""
    kind = rng.random()
    words = rng.randint(4, 35) if kind < 0.8 else rng.randint(50, 300)
    text = f"Task {n}: " + " ".join(rng.choice(_WORDS) for _ in range(words))
    if kind >= 0.95:
        text += "\n\n" + _pytest(rng, True) * rng.randint(2, 6)
    return text


def synthetic(entries: int, seed: int) -> list[Event]:
    """A Claude Code session of about ``entries`` events."""
    rng = random.Random(seed)
    events: list[Event] = []
    said: list[str] = []
    n = context = 0
    while len(events) < entries:
        n += 1
        if n % 25 == 1:
            said.append(_user_words(rng, n))
            events.append(UserMessage(text=said[-1], entry_id=f"u{n:06d}"))
            context += len(said[-1])
        if context > COMPACT_AT:
            events.append(Compaction(summary=_summary(said), entry_id=f"k{n:06d}"))
            context = 0
        reasoning = " ".join(rng.choice(["the", "retry", "gives", "up", "too", "early", "check", "the", "test"])
                             for _ in range(rng.randint(10, 250))) if rng.random() < 0.7 else ""
        events.append(AssistantMessage(text="Let me look at " + rng.choice(["the test", "the retry", "the model"]),
                                       reasoning=reasoning, entry_id=f"a{n:06d}"))
        context += len(reasoning) + 20
        for _ in range(rng.choice([1, 1, 1, 2, 3])):
            n += 1
            call, done = _call(rng, n)
            events += [call, done]
            context += len(json.dumps(call.arguments)) + len(done.output or "")
    return events[:entries]


# -- the report --------------------------------------------------------------------------------------


def _share(points: list[Point]) -> tuple[float, float]:
    later = [p for p in points if p.shared is not None]
    if not later:
        return 1.0, 1.0
    return sum(p.shared or 0 for p in later) / sum(p.ledger_bytes for p in later), \
        min((p.shared or 0) / p.ledger_bytes for p in later)


def report(results: list[Result]) -> None:
    header = f"{'session':42} {'calls':>5} {'points':>6} {'ledger tok':>11} {'baseline tok':>13} {'saved':>7} " \
             f"{'p50 ledger':>10} {'p50 base':>9} {'prefix':>7} {'min pfx':>7} {'larger':>6} {'lost':>4}"
    print(header)
    for r in results:
        if not r.points:
            print(f"{r.name:42} {r.rounds:5}      0  (fewer tool rounds than a consultation point)")
            continue
        ledger = sum(p.ledger_tokens for p in r.points)
        base = sum(p.baseline_tokens for p in r.points)
        share, lowest = _share(r.points)
        print(f"{r.name:42} {r.rounds:5} {len(r.points):6} {ledger:11,} {base:13,} {1 - ledger / base:7.1%} "
              f"{statistics.median(p.ledger_tokens for p in r.points):10,.0f} "
              f"{statistics.median(p.baseline_tokens for p in r.points):9,.0f} {share:7.1%} {lowest:7.1%} "
              f"{sum(p.ledger_bytes > p.baseline_bytes for p in r.points):6} {sum(p.lost for p in r.points):4}")
    for label, chosen in (("real sessions", [r for r in results if not r.name.startswith("synthetic")]),
                          ("synthetic sessions", [r for r in results if r.name.startswith("synthetic")])):
        part = [p for r in chosen for p in r.points]
        if part:
            ledger, base = sum(p.ledger_tokens for p in part), sum(p.baseline_tokens for p in part)
            print(f"{label}: ledger {ledger:,} vs baseline {base:,} tokens: {1 - ledger / base:.1%} fewer")
    points = [p for r in results for p in r.points]
    ledger_tokens = sum(p.ledger_tokens for p in points)
    base_tokens = sum(p.baseline_tokens for p in points)
    ledger_bytes = sum(p.ledger_bytes for p in points)
    base_bytes = sum(p.baseline_bytes for p in points)
    shares = [(p.shared or 0) / p.ledger_bytes for p in points if p.shared is not None]
    later = [p for p in points if p.shared is not None]
    aggregate = sum(p.shared or 0 for p in later) / sum(p.ledger_bytes for p in later)
    print(f"\ntotal over {len(points)} consultations: ledger {ledger_tokens:,} tokens ({ledger_bytes / 1e6:.1f} MB) vs "
          f"baseline {base_tokens:,} tokens ({base_bytes / 1e6:.1f} MB): {1 - ledger_tokens / base_tokens:.1%} fewer "
          "tokens (target ≥ 92 %; seed: 89.5 %)")
    print(f"shared prefix with the previous request: {aggregate:.1%} of all request bytes; per request median "
          f"{statistics.median(shares):.1%}, {sum(s >= 0.95 for s in shares)} of {len(shares)} at ≥ 95 % "
          "(target ≥ 95 %)")
    fresh = statistics.median(p.ledger_bytes - (p.shared or 0) for p in later)
    size = statistics.median(p.ledger_bytes for p in later)
    print(f"new bytes per consultation (past the shared prefix): median {fresh:,.0f}, request median {size:,.0f}; "
          f"95 % shared needs a request of at least 20x its new bytes ({20 * fresh:,.0f} at the median)")
    print(f"requests larger than their baseline: {sum(p.ledger_bytes > p.baseline_bytes for p in points)} (must be 0)")
    print(f"user messages lost: {sum(p.lost for p in points)} (must be 0)")


def timing(result: Result, window: int = 20) -> None:
    start = statistics.median(p.seconds for p in result.points[1:window + 1])
    end = statistics.median(p.seconds for p in result.points[-window:])
    print(f"compile time per consultation, {result.name} (median of {window} points): at the start "
          f"{start * 1e3:.2f} ms, at the end {end * 1e3:.2f} ms: {end / start:.2f}x (incremental: near 1)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--every", type=int, default=25, help="tool rounds between consultation points")
    parser.add_argument("--sizes", default="1000,10000", help="entries of the synthetic sessions")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    started = time.perf_counter()
    results = []
    for path in sorted(REAL.glob("*/*.jsonl")):
        transcript = open_transcript(path)
        events = list(transcript.events())
        results.append(measure(f"{path.parent.name}/{path.name}", transcript.format, events, args.every))
    sizes = [int(size) for size in args.sizes.split(",") if size]
    for size in sizes:
        results.append(measure(f"synthetic/claude-code-{size // 1000}k", "claude-code", synthetic(size, args.seed),
                               args.every))
    report(results)
    if sizes:
        timing(results[-1])
    print(f"total wall time: {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
