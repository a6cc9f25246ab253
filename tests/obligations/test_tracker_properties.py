"""Properties of the obligation tracker over random event sequences.

The tests build event scripts from a small vocabulary (checks, masked and piped variants, a check
that writes a file, non-checks, edits, reads, an unknown tool, two working directories, exit
codes 0/1/none with and without the host's error flag, timeouts and cancellations, outputs with
failure summaries, a worker under the root agent, a second root agent that is sometimes disposed,
new tasks and goal continuations, claims and corrections, lost and duplicate completions) and
hold the tracker to an *independent* reading of the witness rule: `History` re-derives, from the
event log alone, which obligations must exist, in which state, and which run witnessed each one.
Nothing here reads the tracker's internals; the only inputs besides the log are the vocabulary's
own table of what each command is (checked against shellparse once, in
`test_vocabulary_matches_shellparse`).

The rule (docs/obligations.md, "The witness rule"): a validation failure of a root agent (or of a
worker in its tree, which the root inherits) in its current task opens an item keyed by (root,
task, the check, the place it ran: the dispatch's cwd joined with the command's `cd`); a non-zero
exit is a failure only of a check whose status it is, and an output showing the check's failure
summary is one whatever the exit. It closes only by a later run of the same check in the same
place in the same task by an agent of the root's tree, dispatched after
the item's latest failure completed, exiting 0, witness-eligible, not refuted by its output, with
no potential mutation of the root's tree in flight when it completes or completed since it was
dispatched (other than itself). Any later potential mutation re-opens a resolved item.
Dispositions and corrections never close; a claim also needs a correction before its witness.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from hypothesis import example, given, note, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

import shellparse
from obligations import DispositionKind, Event, Item, Tracker, TrackerConfig, event_from_dict

# -- the vocabulary ---------------------------------------------------------------------------

ROOT, WORKER, OTHER = "root", "worker", "other"
CWDS = ("/repo", "/repo/api")
CWD_CHOICES = ("/repo", "/repo", "/repo", "/repo/api")  # mostly one directory, so checks recur
FILES = ("src/app.py", "src/util.ts", "README.md")
PASSED = "3 passed in 0.1s"
PYTEST_FAILED = "1 failed, 2 passed in 0.1s"
JEST_FAILED = "Tests: 1 failed, 2 passed, 3 total"
OUTPUTS: tuple[str | None, ...] = (None, "", PASSED, PASSED, PYTEST_FAILED, JEST_FAILED)


class Result(NamedTuple):
    """How a call ends, as the host reports it."""

    exit_code: int | None
    is_error: bool = False
    error_code: str | None = None


# Mostly exit 0; failures with and without the host's error flag; no exit code at all (with and
# without the flag); and structured errors that say nothing about the code (timeout, cancelled).
RESULTS = (Result(0), Result(0), Result(0), Result(1, True), Result(1), Result(None), Result(None, True),
           Result(None, True, "timeout"), Result(130, True, "cancelled"))
CLAIM_IDS = ("c1", "c2")
# Which outputs show a failure summary to which check family (shellparse's failure markers).
REFUTING: dict[str, frozenset[str]] = {
    "pytest": frozenset({PYTEST_FAILED}),
    "npm-script": frozenset({PYTEST_FAILED, JEST_FAILED}),
}


@dataclass(frozen=True)
class Shape:
    """What a call is, as this test's table says (not as the tracker says)."""

    check: str | None
    """The check it runs; equal names mean the same validation key. ``None``: not a check."""
    family: str | None
    """The check's family, for failure markers."""
    eligible: bool
    """Exit 0 of this command line proves the check passed (policy ``seed``); a non-zero exit then
    proves it failed, and otherwise proves nothing — unless :attr:`fails` says otherwise."""
    mutates: bool
    """The call may change the workspace (anything not proven read-only)."""
    directory: str | None = None
    """Where the command moves before the check (``cd api &&``): the check runs in the dispatch's
    cwd joined with it, and is the same check as a run of it there."""
    fails: bool | None = None
    """A non-zero exit proves the check failed; ``None``: as :attr:`eligible` says. ``cd api &&
    npm test`` exiting 1 may be ``cd``'s failure (the check never ran)."""

    @property
    def failure_eligible(self) -> bool:
        return self.eligible if self.fails is None else self.fails

    def place(self, cwd: str | None) -> str | None:
        """Where the check runs when the command is dispatched in ``cwd``."""
        return cwd if self.directory is None or cwd is None else f"{cwd}/{self.directory}"

    def refuted_by(self, output: str | None) -> bool:
        """The output shows this check's failure summary."""
        return self.family is not None and output in REFUTING[self.family]


COMMANDS: dict[str, Shape] = {
    "pytest -q": Shape("pytest -q", "pytest", True, False),
    "python -m pytest -q": Shape("pytest -q", "pytest", True, False),
    "pytest -q 2>&1 | tail -5": Shape("pytest -q", "pytest", True, False),  # one reporting pipe witnesses
    "pytest -q || true": Shape("pytest -q", "pytest", False, False),
    "pytest -q > out.log": Shape("pytest -q", "pytest", True, True),  # a check that also writes a file
    "npm test": Shape("npm test", "npm-script", True, False),
    "npm test | tail -5": Shape("npm test", "npm-script", True, False),
    "npm test; echo done": Shape("npm test", "npm-script", False, False),
    "npm test | grep passing": Shape("npm test", "npm-script", False, False),
    "cd api && npm test": Shape("npm test", "npm-script", True, False, "api", fails=False),
    "cd api && npm test; echo done": Shape("npm test", "npm-script", False, False, "api"),
    "ls": Shape(None, None, False, False),
    "git status": Shape(None, None, False, False),
    "touch notes.txt": Shape(None, None, False, True),
}
TOOLS: dict[str, Shape] = {
    "Edit": Shape(None, None, False, True),
    "Read": Shape(None, None, False, False),
    "mcp__db__migrate": Shape(None, None, False, True),  # an unknown tool: not proven read-only
}
# Dispatch actions: a shell command (run by `Bash`) or a tool name; checks are listed twice so
# that failures and re-runs of the same check are common.
ACTIONS: tuple[str, ...] = (*COMMANDS, "pytest -q", "npm test", "cd api && npm test", *TOOLS, "Edit")
CHECKS = sorted({shape.check for shape in COMMANDS.values() if shape.check is not None})
# For each check: one eligible read-only run of it, and one masked run of it.
GENUINE = {"pytest -q": "pytest -q", "npm test": "npm test"}
MASKED = {"pytest -q": "pytest -q || true", "npm test": "npm test; echo done"}
KEYS: dict[str, str] = {}
for _command, _shape in COMMANDS.items():
    _validation = shellparse.analyze(_command).validation
    if _shape.check is not None and _validation is not None:
        KEYS.setdefault(_shape.check, _validation.check_key)
CHECK_OF_KEY = {key: check for check, key in KEYS.items()}


def shape_of(tool: str, arguments: dict[str, Any]) -> Shape:
    """The table's reading of a dispatched call."""
    if tool == "Bash":
        return COMMANDS[arguments["command"]]
    return TOOLS[tool]


def action_shape(action: str) -> Shape:
    """The table's reading of a dispatch action (a tool name, or a command for `Bash`)."""
    return TOOLS[action] if action in TOOLS else COMMANDS[action]


# -- building consistent scripts --------------------------------------------------------------

VARIANTS = {check: [command for command, shape in COMMANDS.items() if shape.check == check] for check in CHECKS}


@dataclass(frozen=True)
class Call:
    """A call the script dispatched."""

    call_id: str
    agent: str
    action: str
    cwd: str


class Script:
    """Makes event dictionaries that a host could send: fresh call ids, completions of dispatched
    calls, worker events only while the worker exists. It remembers which checks it made fail, so
    that re-runs of failed checks (what agents do) are common."""

    def __init__(self) -> None:
        self.pending: list[Call] = []
        self.done: list[Call] = []
        self.failed: list[Call] = []
        self.worker = False
        self.count = 0

    def agents(self) -> list[str]:
        """The agents that may act now (the root twice: it acts most)."""
        return [ROOT, ROOT, OTHER, *([WORKER] if self.worker else [])]

    def fresh(self, prefix: str) -> str:
        self.count += 1
        return f"{prefix}{self.count}"

    def dispatch(self, agent: str, action: str, cwd: str) -> dict[str, Any]:
        call = Call(self.fresh("c"), agent, action, cwd)
        self.pending.append(call)
        if action in TOOLS:
            tool, arguments = action, {"file_path": FILES[self.count % len(FILES)]}
        else:
            tool, arguments = "Bash", {"command": action}
        return {"type": "tool_dispatched", "agent_id": agent, "call_id": call.call_id, "tool": tool,
                "arguments": arguments, "cwd": cwd}

    def complete(self, index: int, result: Result, output: str | None) -> dict[str, Any]:
        call = self.pending.pop(index % len(self.pending))
        self.done.append(call)
        shape = COMMANDS.get(call.action)
        if shape is not None and shape.check is not None and result.error_code is None \
                and (result.is_error or result.exit_code not in (0, None) or shape.refuted_by(output)):
            self.failed.append(call)
        return {"type": "tool_completed", "agent_id": call.agent, "call_id": call.call_id, **result._asdict(),
                "output": output}

    def run(self, agent: str, action: str, cwd: str, result: Result, output: str | None) -> list[dict[str, Any]]:
        """A call dispatched and completed with nothing in between (most calls in real sessions)."""
        return [self.dispatch(agent, action, cwd), self.complete(-1, result, output)]

    def rerun(self, index: int, variant: int) -> tuple[str, str, str]:
        """Agent, command and cwd of a re-run of a failed check (in any of its shapes)."""
        failed = self.failed[index % len(self.failed)]
        check = COMMANDS[failed.action].check
        assert check is not None
        agent = failed.agent if failed.agent != WORKER or self.worker else ROOT
        return agent, VARIANTS[check][variant % len(VARIANTS[check])], failed.cwd

    def lost(self, agent: str, result: Result) -> dict[str, Any]:
        """A result whose dispatch the tracker never saw."""
        return {"type": "tool_completed", "agent_id": agent, "call_id": self.fresh("lost"), **result._asdict()}

    def duplicate(self, index: int, result: Result) -> dict[str, Any]:
        """A second result for a call that already completed."""
        call = self.done[index % len(self.done)]
        agent = call.agent if call.agent != WORKER or self.worker else ROOT
        return {"type": "tool_completed", "agent_id": agent, "call_id": call.call_id, **result._asdict()}

    def user(self, agent: str, goal: bool) -> dict[str, Any]:
        return {"type": "user_message", "agent_id": agent, "text": "next, please", "goal": goal}

    def spawn(self) -> dict[str, Any]:
        self.worker = True
        return {"type": "agent_spawned", "agent_id": WORKER, "parent_id": ROOT, "role": "local-subagent"}

    def dispose(self) -> dict[str, Any]:
        self.worker = False
        return {"type": "agent_disposed", "agent_id": WORKER}

    @staticmethod
    def retire() -> dict[str, Any]:
        """The second root agent ends; an event naming it later starts a new agent of that name."""
        return {"type": "agent_disposed", "agent_id": OTHER}

    def say(self, agent: str, claim_id: str | None, cited: str | None) -> dict[str, Any]:
        claim = None if claim_id is None else {"claim_id": claim_id, "summary": "all tests pass",
                                               "validation_call_id": cited}
        return {"type": "assistant_message", "agent_id": agent, "text": "done", "claim": claim}

    def cite(self, index: int) -> str:
        """A call id for a claim to cite: mostly a completed check run (newest first), sometimes any
        call seen so far, or one never seen."""
        checks = [call.call_id for call in self.done if action_shape(call.action).check is not None][::-1]
        seen = [call.call_id for call in self.done + self.pending][::-1]
        if index < 0 or not seen:
            return "c999"
        choices = seen if index % 4 == 3 or not checks else checks
        return choices[index % len(choices)]

    @staticmethod
    def compaction() -> dict[str, Any]:
        return {"type": "compaction", "summary": "earlier work"}


STEPS = ("run",) * 6 + ("rerun",) * 4 + ("dispatch",) * 3 + ("complete",) * 4 + (
    "user", "lost", "duplicate", "spawn", "dispose", "retire", "say", "claim", "compaction")


def draw_step(draw: st.DrawFn, script: Script) -> list[dict[str, Any]]:
    """The events of one random step of a script."""
    step = draw(st.sampled_from(STEPS))
    if step == "complete" and script.pending:
        return [script.complete(draw(st.integers(0, 63)), draw(st.sampled_from(RESULTS)),
                                draw(st.sampled_from(OUTPUTS)))]
    if step == "user":
        return [script.user(draw(st.sampled_from([ROOT, ROOT, OTHER, *([WORKER] if script.worker else [])])),
                            draw(st.booleans()))]
    if step == "lost":
        return [script.lost(draw(st.sampled_from(script.agents())), draw(st.sampled_from(RESULTS)))]
    if step == "duplicate" and script.done:
        return [script.duplicate(draw(st.integers(0, 63)), draw(st.sampled_from(RESULTS)))]
    if step == "spawn" and not script.worker:
        return [script.spawn()]
    if step == "dispose" and script.worker:
        return [script.dispose()]
    if step == "retire":
        return [script.retire()]
    if step in ("say", "claim"):
        claim_id = draw(st.sampled_from(CLAIM_IDS)) if step == "claim" else None
        cited = draw(st.one_of(st.none(), st.integers(-1, 63).map(script.cite)))
        return [script.say(draw(st.sampled_from([ROOT, ROOT, OTHER])), claim_id, cited)]
    if step == "compaction":
        return [script.compaction()]
    if step == "rerun" and script.failed:
        agent, action, cwd = script.rerun(draw(st.integers(0, 63)), draw(st.integers(0, 63)))
    else:
        agent, action, cwd = (draw(st.sampled_from(script.agents())), draw(st.sampled_from(ACTIONS)),
                              draw(st.sampled_from(CWD_CHOICES)))
    if step in ("run", "rerun") and draw(st.integers(0, 3)):
        return script.run(agent, action, cwd, draw(st.sampled_from(RESULTS)), draw(st.sampled_from(OUTPUTS)))
    return [script.dispatch(agent, action, cwd)]


@st.composite
def sessions(draw: st.DrawFn, max_steps: int = 40) -> tuple[list[dict[str, Any]], Script]:
    """A random, host-consistent event script (as JSON-ready dictionaries), and its builder (which
    knows the calls still pending)."""
    script, out = Script(), []
    for _ in range(draw(st.integers(0, max_steps))):
        out += draw_step(draw, script)
    return out, script


def scripts() -> st.SearchStrategy[list[dict[str, Any]]]:
    """A random, host-consistent event script."""
    return sessions().map(lambda session: session[0])


MUTATORS = tuple(action for action in dict.fromkeys(ACTIONS) if action_shape(action).mutates)


@st.composite
def overlapping_reruns(draw: st.DrawFn) -> list[dict[str, Any]]:
    """A check fails, then a re-run of it (in an eligible shape) runs while other calls start and
    end around it — mostly potential mutations — and completes with a clean exit 0."""
    script, out = Script(), []
    for _ in range(draw(st.integers(0, 3))):
        out += draw_step(draw, script)
    check, cwd = draw(st.sampled_from(CHECKS)), draw(st.sampled_from(CWDS))
    out += script.run(ROOT, GENUINE[check], cwd, Result(1, True), PYTEST_FAILED)
    rerun = script.dispatch(ROOT, draw(st.sampled_from([c for c in VARIANTS[check] if COMMANDS[c].eligible])), cwd)
    out.append(rerun)
    for _ in range(draw(st.integers(0, 4))):
        overlap = draw(st.sampled_from(["mutation", "mutation", "dispatch", "complete", "step"]))
        if overlap == "mutation":
            out += script.run(draw(st.sampled_from(script.agents())), draw(st.sampled_from(MUTATORS)), cwd,
                              Result(0), None)
        elif overlap == "dispatch":
            out.append(script.dispatch(draw(st.sampled_from(script.agents())), draw(st.sampled_from(MUTATORS)), cwd))
        elif overlap == "complete" and len(script.pending) > 1:
            others = [i for i, call in enumerate(script.pending) if call.call_id != rerun["call_id"]]
            out.append(script.complete(draw(st.sampled_from(others)), Result(0), None))
        else:
            out += draw_step(draw, script)
    pending = [i for i, call in enumerate(script.pending) if call.call_id == rerun["call_id"]]
    if pending:
        out.append(script.complete(pending[0], Result(0), PASSED))
    return out


@st.composite
def corrected_claims(draw: st.DrawFn) -> list[dict[str, Any]]:
    """The root agent claims a check run, the claim is (usually) corrected, and the check is re-run
    with other calls around it; ``{"correct": claim_id}`` marks where the host calls `correct`."""
    script, out = Script(), []
    for _ in range(draw(st.integers(0, 3))):
        out += draw_step(draw, script)
    check, cwd = draw(st.sampled_from(CHECKS)), draw(st.sampled_from(CWDS))
    cited = script.run(ROOT, GENUINE[check], cwd, draw(st.sampled_from([Result(0), Result(1, True)])),
                       draw(st.sampled_from([PASSED, PYTEST_FAILED])))
    claim_id = draw(st.sampled_from(CLAIM_IDS))
    out += [*cited, script.say(ROOT, claim_id, cited[0]["call_id"])]
    if draw(st.booleans()):
        out += script.run(ROOT, GENUINE[check], cwd, Result(0), PASSED)  # a re-run before the correction
    for _ in range(draw(st.integers(0, 2))):
        out += draw_step(draw, script)
    if draw(st.integers(0, 4)):
        out.append({"correct": claim_id})
    rerun = script.dispatch(ROOT, draw(st.sampled_from([c for c in VARIANTS[check] if COMMANDS[c].eligible])), cwd)
    out.append(rerun)
    for _ in range(draw(st.integers(0, 2))):
        if draw(st.booleans()):
            out += script.run(draw(st.sampled_from(script.agents())), draw(st.sampled_from(MUTATORS)), cwd,
                              Result(0), None)
        else:
            out += draw_step(draw, script)
    pending = [i for i, call in enumerate(script.pending) if call.call_id == rerun["call_id"]]
    if pending:
        out.append(script.complete(pending[0], Result(0), PASSED))
    return out


def events(script: Iterable[dict[str, Any]]) -> list[Event]:
    """Fresh event objects (the tracker stamps ticks onto the ones it handles)."""
    return [event_from_dict(data) for data in script]


# -- the independent checker ----------------------------------------------------------------


@dataclass(frozen=True)
class Correction:
    """A correction the tracker accepted, between two events of the log."""

    agent: str
    claim_id: str


Entry = Event | Correction


@dataclass
class Run:
    """A dispatched call, and its completion when the log has one."""

    call_id: str
    agent: str
    root: str
    """The root of the dispatching agent's tree at dispatch."""
    task: int
    """That root's task at dispatch (the tick of its latest new-task user message, or 0)."""
    life: int
    """Which agent of the root's name dispatched it (a disposed root's name starts a new agent)."""
    tick: int
    shape: Shape
    cwd: str | None
    command: str | None
    done: int | None = None
    result: Result | None = None
    output: str | None = None
    orphaned: bool = False
    """Its agent was disposed before the result came: the result counts for nothing but its effects."""

    @property
    def exit_code(self) -> int | None:
        return self.result.exit_code if self.result is not None else None

    @property
    def place(self) -> str | None:
        """Where its check ran."""
        return self.shape.place(self.cwd)

    @property
    def excluded(self) -> bool:
        """A structured error (denied, cancelled, timed out …): it says nothing about the code."""
        return self.result is not None and self.result.error_code is not None

    @property
    def failed(self) -> bool:
        """Completed as a failure of its check: the host's error flag or a non-zero exit when the
        status is the check's own, or an output that shows its failure summary whatever the exit —
        unless a structured error code excludes it."""
        if self.result is None or self.shape.check is None or self.excluded:
            return False
        if self.shape.refuted_by(self.output):
            return True
        return self.shape.failure_eligible and (self.result.is_error or self.exit_code not in (0, None))

    @property
    def genuine_pass(self) -> bool:
        """Completed with exit 0 of an eligible check run, not refuted by its output."""
        return (self.result is not None and self.shape.check is not None and self.exit_code == 0
                and not self.result.is_error and not self.excluded and self.shape.eligible
                and not self.shape.refuted_by(self.output))


@dataclass
class ClaimRecord:
    """A claim registration the log shows was accepted."""

    root: str
    task: int
    claim_id: str
    created: int
    cited: str | None
    check: str | None = None
    cwd: str | None = None
    bound: int | None = None
    """The tick from which it has a check (at creation, or when registered again with a call)."""


class Ident(NamedTuple):
    """What identifies an item: its kind, root agent, task, check, cwd and (for claims) claim id."""

    kind: str
    root: str
    task: int
    check: str | None
    cwd: str | None
    claim_id: str | None


class Expected(NamedTuple):
    """What the rule says about an item."""

    state: str
    latest_failure_tick: int
    latest_failure_call: str | None
    repeat_count: int
    witness: str | None


@dataclass
class History:
    """What the log says happened, re-derived without the tracker."""

    tick: int = 0
    runs: dict[str, Run] = field(default_factory=dict)
    lost: list[tuple[int, str]] = field(default_factory=list)
    """Completions whose dispatch was unknown (tick, the root they count against)."""
    root_of: dict[str, str] = field(default_factory=dict)
    task: dict[str, int] = field(default_factory=dict)
    life: dict[str, int] = field(default_factory=dict)
    """How many times an agent of this name was disposed."""
    claims: dict[tuple[str, int, str], ClaimRecord] = field(default_factory=dict)
    corrections: list[tuple[int, str, int, str]] = field(default_factory=list)
    """(tick, root, task, claim id): the tick is the last event's; the correction came after it."""

    def root(self, agent: str) -> str:
        """An agent never announced is a root."""
        return self.root_of.setdefault(agent, agent)

    @classmethod
    def replay(cls, log: Sequence[Entry]) -> History:
        """Read the log; ticks are the events' positions (1-based)."""
        history = cls()
        for entry in log:
            if isinstance(entry, Correction):
                root = history.root(entry.agent)
                history.corrections.append((history.tick, root, history.task.get(root, 0), entry.claim_id))
            else:
                history.tick += 1
                history.take(entry)
        return history

    def take(self, event: Event) -> None:
        data = event.model_dump()
        kind, agent = data["type"], data["agent_id"]
        if kind == "tool_dispatched":
            root = self.root(agent)
            self.runs[data["call_id"]] = Run(data["call_id"], agent, root, self.task.get(root, 0),
                                             self.life.get(root, 0), self.tick,
                                             shape_of(data["tool"], data["arguments"]), data["cwd"],
                                             data["arguments"].get("command"))
        elif kind == "tool_completed":
            run = self.runs.get(data["call_id"])
            if run is None or run.done is not None:
                self.lost.append((self.tick, self.root(agent)))
            else:
                run.done, run.output = self.tick, data["output"]
                run.result = Result(data["exit_code"], data["is_error"], data["error_code"])
                run.orphaned = run.agent != run.root and run.agent not in self.root_of
        elif kind == "user_message":
            if not data["goal"] and self.root(agent) == agent:
                self.task[agent] = self.tick
        elif kind == "agent_spawned":
            parent = data["parent_id"]
            self.root_of[agent] = self.root(parent) if parent is not None and data["role"] != "root" else agent
        elif kind == "agent_disposed" and agent in self.root_of:
            # Its items, claims and corrections go with it; an agent of the same name later is a
            # new agent, and results of the old one's calls say nothing about the new one's task.
            self.root_of.pop(agent)
            self.task.pop(agent, None)
            self.life[agent] = self.life.get(agent, 0) + 1
            self.claims = {key: claim for key, claim in self.claims.items() if claim.root != agent}
            self.corrections = [row for row in self.corrections if row[1] != agent]
        elif kind == "assistant_message" and data["claim"] is not None:
            self.register(agent, data["claim"]["claim_id"], data["claim"]["validation_call_id"])

    def register(self, agent: str, claim_id: str, cited: str | None) -> None:
        """A claim is accepted from a root agent, citing nothing or a completed check run of its own
        in its current task; a keyless claim gains the check of its first valid citation."""
        root = self.root(agent)
        if root != agent:
            return
        task = self.task.get(root, 0)
        evidence = None
        if cited is not None:
            evidence = self.runs.get(cited)
            if evidence is None or not self.own(evidence, root, task, tree=False) or evidence.done is None \
                    or evidence.excluded:
                return
        record = self.claims.get((root, task, claim_id))
        if record is None:
            record = self.claims[(root, task, claim_id)] = ClaimRecord(root, task, claim_id, self.tick, cited)
        elif record.check is not None:
            return
        if evidence is not None:
            record.check, record.cwd, record.bound = evidence.shape.check, evidence.place, self.tick

    def own(self, run: Run, root: str, task: int, check: str | None = None, cwd: str | None = None,
            tree: bool = True) -> bool:
        """A check run in ``task`` by an agent of the (current) root's tree — by the root itself
        without ``tree`` — (of ``check`` in ``cwd``, if given)."""
        return ((run.agent == root or tree) and run.root == root and run.task == task and not run.orphaned
                and run.shape.check is not None and run.life == self.life.get(root, 0)
                and (check is None or (run.shape.check == check and run.place == cwd)))

    def current_roots(self) -> list[str]:
        return sorted(agent for agent, root in self.root_of.items() if agent == root)

    def mutations(self, root: str, exclude: Run | None = None) -> list[Run]:
        """Potential mutations of ``root``'s tree (any agent, any task)."""
        return [run for run in self.runs.values() if run.root == root and run.shape.mutates and run is not exclude]

    def mutation_during(self, root: str, witness: Run) -> str | None:
        """A potential mutation in flight when ``witness`` completed, or completed while it ran."""
        assert witness.done is not None
        for run in self.mutations(root, exclude=witness):
            if run.tick < witness.done and (run.done is None or run.done > witness.done):
                return f"{run.call_id} was in flight"
            if run.done is not None and witness.tick < run.done < witness.done:
                return f"{run.call_id} completed while it ran"
        for tick, owner in self.lost:
            if owner == root and witness.tick < tick < witness.done:
                return f"a lost result (tick {tick}) arrived while it ran"
        return None

    def mutation_after(self, root: str, tick: int) -> str | None:
        """A potential mutation of ``root``'s tree that started after ``tick``."""
        for run in self.mutations(root):
            if run.tick > tick:
                return f"{run.call_id} was dispatched at {run.tick}"
        for lost, owner in self.lost:
            if owner == root and lost > tick:
                return f"a lost result arrived at {lost}"
        return None

    def latest_correction(self, root: str, task: int, claim_id: str, before: int) -> int | None:
        ticks = [tick for tick, r, t, c in self.corrections if (r, t, c) == (root, task, claim_id) and tick < before]
        return max(ticks) if ticks else None

    def qualifies(self, witness: Run, root: str, latest_failure: int, claim: ClaimRecord | None) -> bool:
        """The rule's conditions on a genuine pass, given the item's latest failure tick."""
        assert witness.done is not None
        if witness.tick <= latest_failure or self.mutation_during(root, witness) is not None:
            return False
        if claim is not None:
            corrected = self.latest_correction(root, claim.task, claim.claim_id, witness.done)
            return corrected is not None and corrected < witness.tick
        return True

    def expected(self) -> dict[Ident, Expected]:
        """Every item the rule says exists in the current tasks, with its state and witness."""
        items: dict[Ident, Expected] = {}
        for root in self.current_roots():
            task = self.task.get(root, 0)
            failing = {(run.shape.check, run.place) for run in self.runs.values()
                       if self.own(run, root, task) and run.failed}
            for check, cwd in failing:
                assert check is not None
                items[Ident("validation-failure", root, task, check, cwd, None)] = self.fold(root, task, check, cwd)
            for claim in self.claims.values():
                if (claim.root, claim.task) == (root, task):
                    ident = Ident("claim-contradicted", root, task, claim.check, claim.cwd, claim.claim_id)
                    items[ident] = self.fold(root, task, claim.check, claim.cwd, claim)
        return items

    def fold(self, root: str, task: int, check: str | None, cwd: str | None,
             claim: ClaimRecord | None = None) -> Expected:
        """Walk the item's failures, passes and the tree's mutations in tick order."""
        since = -1 if claim is None else claim.bound if claim.bound is not None else self.tick + 1
        timeline: list[tuple[int, str, Run | None]] = []
        for run in self.runs.values():
            if check is not None and self.own(run, root, task, check, cwd) and run.done is not None \
                    and run.done > since:
                if run.failed:
                    timeline.append((run.done, "failure", run))
                elif run.genuine_pass:
                    timeline.append((run.done, "pass", run))
        timeline += [(run.tick, "mutation", None) for run in self.mutations(root)]
        timeline += [(tick, "mutation", None) for tick, owner in self.lost if owner == root]
        state: str | None = None if claim is None else "open"
        latest: tuple[int, str | None] = (0, None) if claim is None else (claim.created, claim.cited)
        repeats, witness = 0 if claim is None else 1, None
        for tick, what, step in sorted(timeline, key=lambda row: row[0]):
            if what == "failure":
                assert step is not None
                state, latest, witness = "open", (tick, step.call_id), None
                repeats += claim is None
            elif what == "mutation" and state == "resolved":
                state, witness = "open", None
            elif what == "pass" and state == "open":
                assert step is not None
                if self.qualifies(step, root, latest[0], claim):
                    state, witness = "resolved", step.call_id
        assert state is not None
        return Expected(state, latest[0], latest[1], repeats, witness)

    # The same rule stated as direct questions about one item, rather than by walking a timeline.

    def witness_problems(self, item: Item) -> list[str]:
        """Why ``item``'s recorded witness does not satisfy the rule ([] when it does)."""
        assert item.resolution is not None
        witness = self.runs.get(item.resolution.witness_call_id)
        if witness is None:
            return [f"witness {item.resolution.witness_call_id} was never dispatched"]
        root, check = item.agent_id, CHECK_OF_KEY.get(item.key or "")
        problems = []
        if witness.root != root:
            problems.append(f"run by {witness.agent}, not by an agent of the root {root}'s tree")
        if witness.task != item.task or self.task.get(root, 0) != item.task:
            problems.append("not in the item's (current) task")
        if witness.shape.check != check or witness.place != item.cwd:
            problems.append(f"a run of {witness.shape.check} in {witness.place}, not of {check} in {item.cwd}")
        if witness.done is None:
            return [*problems, "it has not completed"]
        if witness.exit_code != 0 or witness.excluded or (witness.result and witness.result.is_error):
            problems.append(f"it ended with {witness.result}")
        if not witness.shape.eligible:
            problems.append(f"`{witness.command}` is masked")
        if witness.shape.refuted_by(witness.output):
            problems.append("its output shows a failure")
        claim = self.claims.get((root, item.task, item.claim_id or "")) if item.kind == "claim-contradicted" else None
        since = -1 if claim is None else claim.bound if claim.bound is not None else self.tick + 1
        failures = [run for run in self.runs.values()
                    if self.own(run, root, item.task, check, item.cwd) and run.failed and run.done is not None
                    and run.done > since]
        earlier = [run.done for run in failures if run.done is not None and run.done < witness.done]
        latest = max([*earlier, claim.created if claim is not None else 0])
        if witness.tick <= latest:
            problems.append(f"dispatched at {witness.tick}, not after the latest failure at {latest}")
        during = self.mutation_during(root, witness)
        if during is not None:
            problems.append(during)
        after = self.mutation_after(root, witness.done)
        if after is not None:
            problems.append(f"a potential mutation came after it: {after}")
        later = [run.call_id for run in failures if run.done is not None and run.done > witness.done]
        if later:
            problems.append(f"the check failed again after it: {later}")
        if claim is not None:
            corrected = self.latest_correction(root, item.task, claim.claim_id, witness.done)
            if corrected is None or corrected >= witness.tick:
                problems.append(f"no correction before it was dispatched (latest: {corrected})")
        return problems

    def failure_problems(self, item: Item) -> list[str]:
        """Why ``item``'s latest failure is not the latest real failure in the log ([] when it is)."""
        root, check = item.agent_id, CHECK_OF_KEY.get(item.key or "")
        claim = self.claims.get((root, item.task, item.claim_id or "")) if item.kind == "claim-contradicted" else None
        since = -1 if claim is None else claim.bound if claim.bound is not None else self.tick + 1
        failures = sorted((run.done, run.call_id) for run in self.runs.values()
                          if self.own(run, root, item.task, check, item.cwd) and run.failed and run.done is not None
                          and run.done > since)
        if claim is not None and not failures:
            if (item.latest_failure_tick, item.latest_failure_call) != (claim.created, claim.cited):
                return [f"a claim never contradicted by a run should date from its registration {claim.created}"]
            return []
        if not failures:
            return ["no failure of its check in its task"]
        latest = failures[-1]
        if (item.latest_failure_tick, item.latest_failure_call) != latest:
            return [f"latest failure recorded as {item.latest_failure_call} at {item.latest_failure_tick}, "
                    f"the log's is {latest[1]} at {latest[0]}"]
        return []


def observed(tracker: Tracker) -> dict[Ident, Expected]:
    """The tracker's items in the checker's terms."""
    items = {}
    for item in tracker.all_items():
        check = CHECK_OF_KEY[item.key] if item.key is not None else None
        witness = item.resolution.witness_call_id if item.resolution is not None else None
        items[Ident(item.kind, item.agent_id, item.task, check, item.cwd, item.claim_id)] = Expected(
            item.state, item.latest_failure_tick, item.latest_failure_call, item.repeat_count, witness)
    return items


def open_view(tracker: Tracker) -> list[tuple[str, str, int]]:
    return [(item.id, item.state, item.revision) for item in tracker.open_items()]


def round_trip(tracker: Tracker) -> Tracker:
    """The tracker restored from its snapshot, through JSON text."""
    return Tracker.restore(json.loads(json.dumps(tracker.snapshot())))


def render(log: Sequence[Entry]) -> str:
    """The log as a Python script of events (ticks in the margin), for failure messages."""
    lines, tick = [], 0
    for entry in log:
        if isinstance(entry, Correction):
            lines.append(f"     tracker.correct({entry.claim_id!r}, 'doc', 'change', 'evidence', "
                         f"agent_id={entry.agent!r})")
            continue
        tick += 1
        fields = entry.model_dump(exclude_defaults=True, exclude={"tick", "text", "summary"})
        arguments = ", ".join(f"{key}={value!r}" for key, value in fields.items())
        lines.append(f"{tick:4} {type(entry).__name__}({arguments})")
    return "\n".join(lines)


def check_against_history(tracker: Tracker, log: Sequence[Entry]) -> None:
    """Every resolved item has a qualifying witness, every item's latest failure is real, and the
    whole item set is what the rule derives from the log."""
    history = History.replay(log)
    problems = []
    for item in tracker.all_items():
        found = history.witness_problems(item) if item.state == "resolved" else history.failure_problems(item)
        problems += [f"{item.id} ({item.check} in {item.cwd}, {item.state}): {problem}" for problem in found]
    assert not problems, "\n".join(problems) + "\n" + render(log)
    expected, actual = history.expected(), observed(tracker)
    assert actual == expected, (f"\nexpected {expected}\nactual   {actual}\n" + render(log))


# -- the stateful test --------------------------------------------------------------------------


INTERLUDES = ("user", "user", "goal", "assistant", "claim", "claim", "lost", "duplicate", "spawn", "dispose",
              "retire", "compaction")


class TrackerMachine(RuleBasedStateMachine):
    """Random sessions, checked after every step against the independent checker."""

    def __init__(self) -> None:
        super().__init__()
        self.tracker = Tracker()
        self.script = Script()
        self.log: list[Entry] = []

    def feed(self, data: dict[str, Any]) -> None:
        event = event_from_dict(data)
        tick = self.tracker.handle(event)
        self.log.append(event)
        assert tick == sum(not isinstance(entry, Correction) for entry in self.log)

    def acting(self, agent: str) -> str:
        """The worker acts only while it exists (the root instead)."""
        return agent if agent != WORKER or self.script.worker else ROOT

    def complete_checked(self, data: dict[str, Any]) -> None:
        """Feed a completion; a masked run, or a run without an exit code, resolves nothing."""
        before = {item.id for item in self.tracker.all_items() if item.state == "resolved"}
        self.feed(data)
        run = History.replay(self.log).runs[data["call_id"]]
        if not run.shape.eligible or run.exit_code is None:
            after = {item.id for item in self.tracker.all_items() if item.state == "resolved"}
            assert after <= before, f"`{run.command}` exiting {run.exit_code} resolved {after - before}\n" \
                                    + render(self.log)

    def play(self, agent: str, action: str, cwd: str, result: Result, output: str | None) -> None:
        dispatched, completed = self.script.run(agent, action, cwd, result, output)
        self.feed(dispatched)
        self.complete_checked(completed)

    @rule(agent=st.sampled_from([ROOT, ROOT, ROOT, OTHER, WORKER]), action=st.sampled_from(ACTIONS),
          cwd=st.sampled_from(CWD_CHOICES), result=st.sampled_from(RESULTS), output=st.sampled_from(OUTPUTS))
    def run(self, agent: str, action: str, cwd: str, result: Result, output: str | None) -> None:
        """A call runs to completion with nothing in between."""
        self.play(self.acting(agent), action, cwd, result, output)

    @precondition(lambda self: self.script.failed)
    @rule(index=st.integers(0, 63), variant=st.integers(0, 63), result=st.sampled_from(RESULTS),
          output=st.sampled_from(OUTPUTS))
    def rerun(self, index: int, variant: int, result: Result, output: str | None) -> None:
        """The agent re-runs a check that failed, in one of its shapes."""
        self.play(*self.script.rerun(index, variant), result, output)

    @precondition(lambda self: self.script.failed)
    @rule(index=st.integers(0, 63), variant=st.integers(0, 63))
    def rerun_dispatch(self, index: int, variant: int) -> None:
        """The agent starts a re-run of a check that failed; other calls may happen before it ends."""
        self.feed(self.script.dispatch(*self.script.rerun(index, variant)))

    @rule(agent=st.sampled_from([ROOT, ROOT, OTHER, WORKER]), action=st.sampled_from(ACTIONS),
          cwd=st.sampled_from(CWD_CHOICES))
    def dispatch(self, agent: str, action: str, cwd: str) -> None:
        """A call starts."""
        self.feed(self.script.dispatch(self.acting(agent), action, cwd))

    @precondition(lambda self: self.script.pending)
    @rule(index=st.integers(0, 63), result=st.sampled_from(RESULTS), output=st.sampled_from(OUTPUTS))
    def complete(self, index: int, result: Result, output: str | None) -> None:
        """A pending call completes."""
        self.complete_checked(self.script.complete(index, result, output))

    @rule(step=st.sampled_from(INTERLUDES), agent=st.sampled_from([ROOT, ROOT, OTHER, WORKER]),
          index=st.integers(-1, 63), result=st.sampled_from(RESULTS), claim_id=st.sampled_from(CLAIM_IDS))
    def interlude(self, step: str, agent: str, index: int, result: Result, claim_id: str) -> None:
        """Conversation and agent-tree events, lost and duplicate results."""
        agent = self.acting(agent)
        if step in ("user", "goal"):
            self.feed(self.script.user(agent, step == "goal"))
        elif step in ("assistant", "claim"):
            cited = self.script.cite(index) if step == "claim" and index % 4 else None
            self.feed(self.script.say(agent, claim_id if step == "claim" else None, cited))
        elif step == "lost" or (step == "duplicate" and not self.script.done):
            self.feed(self.script.lost(agent, result))
        elif step == "duplicate":
            self.feed(self.script.duplicate(index, result))
        elif step in ("spawn", "dispose"):
            self.feed(self.script.dispose() if self.script.worker else self.script.spawn())
        elif step == "retire":
            self.feed(self.script.retire())
        else:
            self.feed(self.script.compaction())

    @rule(agent=st.sampled_from([ROOT, OTHER]), claim_id=st.sampled_from(CLAIM_IDS))
    def correct(self, agent: str, claim_id: str) -> None:
        """A correction is accepted exactly when the claim is open; it closes nothing by itself."""
        history = History.replay(self.log)
        task = history.task.get(agent, 0)
        claim_open = any(ident.kind == "claim-contradicted" and value.state == "open"
                         and (ident.root, ident.task, ident.claim_id) == (agent, task, claim_id)
                         for ident, value in history.expected().items())
        result = self.tracker.correct(claim_id, "README.md", "the claim was wrong", "the failing run",
                                      agent_id=agent)
        assert result.accepted == claim_open, result.message
        if result.accepted:
            self.log.append(Correction(agent, claim_id))

    @precondition(lambda self: self.tracker.all_items())
    @rule(index=st.integers(0, 63), kind=st.sampled_from(["not-applicable", "accept-risk"]))
    def dispose_item(self, index: int, kind: DispositionKind) -> None:
        """A disposition is recorded and changes no item's state."""
        items = self.tracker.all_items()
        target = items[index % len(items)]
        result = self.tracker.dispose(target.id, kind, "flaky on this machine")
        assert result.accepted, result.message
        assert [item.state for item in self.tracker.all_items()] == [item.state for item in items]

    @rule()
    def restore(self) -> None:
        """The session continues on a tracker restored from a JSON snapshot (which round-trips)."""
        snapshot = self.tracker.snapshot()
        restored = round_trip(self.tracker)
        assert restored.snapshot() == snapshot
        self.tracker = restored

    @invariant()
    def items_follow_the_witness_rule(self) -> None:
        """Every item is where the rule, read from the log alone, puts it."""
        check_against_history(self.tracker, self.log)

    def teardown(self) -> None:
        note(render(self.log))


TrackerMachine.TestCase.settings = settings(max_examples=150, stateful_step_count=50, deadline=None)
TestTrackerMachine = TrackerMachine.TestCase
TestTrackerMachine.__doc__ = "Random sessions keep every item exactly where the witness rule puts it."


# -- plain properties ---------------------------------------------------------------------------

PROPERTY = settings(max_examples=150, deadline=None)


def test_vocabulary_matches_shellparse() -> None:
    """The test's own table of commands and outputs agrees with shellparse's verdicts."""
    for command, shape in COMMANDS.items():
        analysis = shellparse.analyze(command)
        assert analysis.parse_error is None and not analysis.expected_negative, command
        assert (analysis.effect != "read-only") == shape.mutates, command
        if shape.check is None:
            assert analysis.validation is None, command
            continue
        assert analysis.validation is not None, command
        assert analysis.validation.check_key == KEYS[shape.check], command
        assert analysis.validation.directory == shape.directory, command
        assert analysis.validation.family == shape.family, command
        assert analysis.witness_eligible == shape.eligible, command
        assert all(check.failure_eligible == shape.failure_eligible for check in analysis.checks), command
        for output in OUTPUTS:
            refuted = shellparse.failure_evidence(shape.family or "", output or "") is not None
            assert refuted == shape.refuted_by(output), (command, output)
    assert len(set(KEYS.values())) == len(CHECKS)
    assert {COMMANDS[GENUINE[check]].eligible for check in CHECKS} == {True}
    assert {COMMANDS[MASKED[check]].eligible for check in CHECKS} == {False}


@PROPERTY
@example(script=[  # a result of a disposed root's call, arriving after its name came back as a new agent
    {"type": "tool_dispatched", "agent_id": "other", "call_id": "c1", "tool": "Bash",
     "arguments": {"command": "pytest -q"}, "cwd": "/repo"},
    {"type": "agent_disposed", "agent_id": "other"},
    {"type": "assistant_message", "agent_id": "other", "text": "hello again"},
    {"type": "tool_completed", "agent_id": "other", "call_id": "c1", "exit_code": 1, "is_error": True},
])
@given(script=scripts())
def test_items_follow_the_witness_rule(script: list[dict[str, Any]]) -> None:
    """After any script, each resolved item's witness qualifies and each item is where the rule puts it."""
    tracker, log = Tracker(), events(script)
    tracker.handle_many(log)
    check_against_history(tracker, log)


@PROPERTY
@example(script=[  # a potential edit completes while a check that writes a file (`> out.log`) runs
    {"type": "tool_dispatched", "call_id": "c1", "tool": "Bash", "arguments": {"command": "pytest -q"}},
    {"type": "tool_completed", "call_id": "c1", "exit_code": 1},
    {"type": "tool_dispatched", "call_id": "c2", "tool": "Bash", "arguments": {"command": "pytest -q > out.log"}},
    {"type": "tool_dispatched", "call_id": "c3", "tool": "Edit", "arguments": {"file_path": "src/app.py"}},
    {"type": "tool_completed", "call_id": "c3", "exit_code": 0},
    {"type": "tool_completed", "call_id": "c2", "exit_code": 0},
])
@given(script=overlapping_reruns())
def test_reruns_overlapping_other_calls_follow_the_rule(script: list[dict[str, Any]]) -> None:
    """A re-run of a failed check with calls overlapping it resolves the item exactly when the rule says."""
    tracker, log = Tracker(), events(script)
    tracker.handle_many(log)
    check_against_history(tracker, log)


@PROPERTY
@given(steps=corrected_claims())
def test_corrected_claims_follow_the_rule(steps: list[dict[str, Any]]) -> None:
    """A claim is corrected only while open, and closes exactly when a later qualifying run follows its correction."""
    tracker, log = Tracker(), list[Entry]()
    for step in steps:
        if "correct" in step:
            claim_open = any(ident.kind == "claim-contradicted" and value.state == "open"
                             and (ident.root, ident.claim_id) == (ROOT, step["correct"])
                             for ident, value in History.replay(log).expected().items())
            result = tracker.correct(step["correct"], "README.md", "the claim was wrong", "the run", agent_id=ROOT)
            assert result.accepted == claim_open, result.message
            if result.accepted:
                log.append(Correction(ROOT, step["correct"]))
            continue
        event = event_from_dict(step)
        tracker.handle(event)
        log.append(event)
    check_against_history(tracker, log)


@PROPERTY
@given(script=scripts(), data=st.data())
def test_batching_does_not_change_the_outcome(script: list[dict[str, Any]], data: st.DataObject) -> None:
    """One by one, all at once, in random chunks, or across a JSON snapshot: the same items and snapshot."""
    one = Tracker()
    for event in events(script):
        one.handle(event)
    many = Tracker()
    many.handle_many(events(script))
    cuts = sorted(data.draw(st.lists(st.integers(0, len(script)), max_size=4), label="chunk cuts"))
    chunked = Tracker()
    for start, end in zip([0, *cuts], [*cuts, len(script)], strict=True):
        chunked.handle_many(events(script[start:end]))
    cut = data.draw(st.integers(0, len(script)), label="snapshot cut")
    first = Tracker()
    first.handle_many(events(script[:cut]))
    restored = round_trip(first)
    restored.handle_many(events(script[cut:]))
    for other in (many, chunked, restored):
        assert open_view(other) == open_view(one)
        assert other.snapshot() == one.snapshot()


@PROPERTY
@given(script=scripts(), cut=st.integers(0, 60))
def test_snapshots_round_trip(script: list[dict[str, Any]], cut: int) -> None:
    """A snapshot read back from JSON text gives a tracker with the same snapshot, mid-script and at the end."""
    tracker = Tracker()
    tracker.handle_many(events(script[:cut]))
    assert round_trip(tracker).snapshot() == tracker.snapshot()
    tracker.handle_many(events(script[cut:]))
    assert round_trip(tracker).snapshot() == tracker.snapshot()


@PROPERTY
@given(script=scripts(), cut=st.integers(0, 60))
def test_a_restored_tracker_keeps_the_recorded_policy(script: list[dict[str, Any]], cut: int) -> None:
    """A snapshot of a `strict` tracker, restored without a config, is still `strict` and round-trips."""
    tracker = Tracker(TrackerConfig(policy="strict"))
    tracker.handle_many(events(script[:cut]))
    restored = round_trip(tracker)
    assert restored.snapshot()["policy"] == "strict"
    assert restored.snapshot() == tracker.snapshot()
    for data in script[cut:]:
        tracker.handle(event_from_dict(data))
        restored.handle(event_from_dict(data))
    assert restored.snapshot() == tracker.snapshot()


def settle(tracker: Tracker, script: Script) -> None:
    """Complete every pending call with a clean exit 0."""
    while script.pending:
        tracker.handle(event_from_dict(script.complete(0, Result(0), "")))


@PROPERTY
@given(session=sessions(), result=st.sampled_from([Result(0), Result(None)]), settled=st.booleans())
def test_masked_or_exitless_passes_never_resolve(session: tuple[list[dict[str, Any]], Script],
                                                 result: Result, settled: bool) -> None:
    """A masked run exiting 0, or an eligible run without an exit code, resolves no open item."""
    script, builder = session
    tracker = Tracker()
    tracker.handle_many(events(script))
    if settled:
        settle(tracker, builder)
    for item in tracker.open_items():
        if item.key is None:
            continue
        check = CHECK_OF_KEY[item.key]
        command = MASKED[check] if result.exit_code == 0 else GENUINE[check]
        before = open_view(tracker)
        assert item.cwd is not None
        for data in builder.run(item.agent_id, command, item.cwd, result, PASSED):
            tracker.handle(event_from_dict(data))
        assert open_view(tracker) == before, command


@PROPERTY
@given(session=sessions())
def test_a_clean_rerun_once_everything_settles_resolves(session: tuple[list[dict[str, Any]], Script]) -> None:
    """Once nothing is in flight, a corrected claim or a failed check closes by one genuine re-run."""
    script, builder = session
    tracker = Tracker()
    tracker.handle_many(events(script))
    settle(tracker, builder)
    for item in tracker.open_items():
        if item.claim_id is not None and item.key is not None:
            assert tracker.correct(item.claim_id, "README.md", "retracted", "the run", agent_id=item.agent_id).accepted
    for root, key, cwd in dict.fromkeys((item.agent_id, item.key, item.cwd) for item in tracker.open_items()):
        if key is not None:
            assert cwd is not None
            for data in builder.run(root, GENUINE[CHECK_OF_KEY[key]], cwd, Result(0), PASSED):
                tracker.handle(event_from_dict(data))
    assert [(item.id, item.check, item.claim_id) for item in tracker.open_items() if item.key is not None] == []
