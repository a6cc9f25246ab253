"""What does `witness serve` cost per request, and what does it add to a request's latency?

Two servers run on loopback, each in a process of its own:

- the **upstream**: the scripted model server of the tests (a test double for the provider), which
  answers chat completions, streamed or not, after a delay the benchmark sets (0 ms, or 300 ms like
  a real provider's quick answer). The executor model asks for one ``witness_advisor`` call when it
  is offered one and answers once the advice is in; the advisor model (``adv``) advises.
- the **gateway**: ``python -m advisor serve --upstream …`` — the command users run (Uvicorn on
  127.0.0.1, its access log on standard error, consultations logged under a scratch
  ``WITNESS_HOME``).

The client is the official ``openai`` SDK's ``AsyncOpenAI``, one for the upstream directly and one
for the gateway, in this process.

**CPU per request**: the gateway process's user + system CPU time (``/proc/<pid>/stat``, all its
threads) over N requests, divided by N, with the part spent in the kernel (system time: on loopback,
mostly the TCP work of the sockets) beside it; the upstream's own CPU per request over the same
requests is printed beside it as a baseline (another Python HTTP server doing comparable work).
Pass-through is a chat completion with no advisor entry, plain and streamed; advised is one with a
``witness:advisor`` entry, which costs the gateway one consultation: three upstream calls (the
executor's call for advice, the advisor, the executor's answer). Target: ≤ 1 ms per pass-through
request.

**Latency added**: the same request sent straight to the upstream and through the gateway,
alternately, so that the machine's load hits both alike; p50 and p99 of the wall time to the end of
the answer (the last event of a stream), and the gateway's minus the direct path's. At 0 ms the
requests go one at a time; at 300 ms 25 clients run at once so the run stays short, their starts
spread over one round trip as independent users' would be. Target at 300 ms: gateway / direct ≤
1.05 at p50 and p99.

**Load**: 250 requests at once through the gateway, the upstream answering each after 2 s, so all of
them are held open together (pass-through, and advised: three upstream calls each); errors (an
exception, a status other than 200, or a wrong answer) are counted, target 0, and the most requests
the upstream saw in flight at once is printed.

Absolute times vary with the machine; on a shared machine run it when it is quiet. Linux only
(``/proc``). Run (about 90 s on 2 cores; ``--quick`` about 30 s):

    .venv/bin/python benchmarks/gateway_bench.py [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from multiprocessing.sharedctypes import Synchronized
from multiprocessing.synchronize import Event
from pathlib import Path
from typing import Any, Literal

import httpx2
import openai

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

TARGET_CPU_MS = 1.0
TARGET_RATIO_300 = 1.05
LOAD_CONCURRENT = 250
LOAD_DELAY_MS = 2000
"""Long enough that all the load test's requests are sent before the first is answered."""
MESSAGES: Any = [{"role": "user", "content": "Say hello."}]
ADVISOR: Any = [{"type": "witness:advisor", "parameters": {"model": "adv", "max_uses": 1}}]
ANSWER = "Hello there."
FINAL = "Done, as advised."
Kind = Literal["pass-through", "pass-through streamed", "advised"]
STREAMED: tuple[Kind, ...] = ("pass-through", "pass-through streamed")
LOADED: tuple[Kind, ...] = ("pass-through", "advised")
CPU_SHARE: dict[Kind, int] = {"pass-through": 1, "pass-through streamed": 1, "advised": 4}
"""The advised kind runs a quarter as many requests: each is three upstream calls."""


@dataclass(frozen=True)
class Sizes:
    """How much each part of the run does."""

    cpu_requests: int
    """Requests per kind for the CPU figures (the advised kind runs a quarter as many)."""
    cpu_concurrent: int
    """Clients sending them at once."""
    sequential_pairs: int
    """Direct/gateway pairs at 0 ms, one request at a time."""
    delayed_clients: int
    """Clients at once at 300 ms."""
    delayed_pairs: int
    """Direct/gateway pairs per client at 300 ms."""
    load_rounds: int
    """Rounds of 250 requests at once, per kind."""


FULL = Sizes(cpu_requests=2000, cpu_concurrent=8, sequential_pairs=600, delayed_clients=25, delayed_pairs=16,
             load_rounds=2)
QUICK = Sizes(cpu_requests=400, cpu_concurrent=8, sequential_pairs=150, delayed_clients=25, delayed_pairs=4,
              load_rounds=1)


# -- the upstream -----------------------------------------------------------------------------


def _script(request: Any) -> Any:
    """Executor: ask the advisor when offered one, answer once its advice is in. Advisor: advise."""
    from tests.support.script import Reply, ToolCall

    if request.model == "adv":
        return Reply(text="Severity: none\nProceed.", input_tokens=20, output_tokens=5)
    messages = request.body.get("messages") or [{}]
    if messages[-1].get("role") == "tool":
        return Reply(text=FINAL, input_tokens=60, output_tokens=4)
    tools = [tool.get("function", {}).get("name") for tool in request.body.get("tools") or ()]
    if "witness_advisor" in tools:
        return Reply(tool_calls=[ToolCall("witness_advisor", {"prompt": "Is this right?"})], input_tokens=50,
                     output_tokens=4)
    return Reply(text=ANSWER, input_tokens=9, output_tokens=3)


class _Delayed:
    """ASGI middleware: waits ``delay`` ms before the scripted server answers, counting requests in flight."""

    def __init__(self, app: Any, *, delay: Synchronized[float], in_flight: Synchronized[int],
                 peak: Synchronized[int]) -> None:
        self.app, self.delay, self.in_flight, self.peak = app, delay, in_flight, peak

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        with self.in_flight.get_lock():
            self.in_flight.value += 1
            self.peak.value = max(self.peak.value, self.in_flight.value)
        try:
            if self.delay.value:
                await asyncio.sleep(self.delay.value / 1000)
            await self.app(scope, receive, send)
        finally:
            with self.in_flight.get_lock():
                self.in_flight.value -= 1


def _serve_upstream(port: Synchronized[int], stop: Event, shared: dict[str, Any]) -> None:
    import threading

    import uvicorn

    from tests.support.model_server import ModelServer

    # IPPROTO_TCP so that asyncio disables Nagle (see ModelServer.start).
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    listener.bind(("127.0.0.1", 0))
    listener.listen(1024)
    model_server = ModelServer()
    model_server.on(_script)
    app = _Delayed(model_server._app(), **shared)
    server = uvicorn.Server(uvicorn.Config(app, lifespan="off", log_level="critical", access_log=False,
                                           http="h11", loop="asyncio", backlog=1024))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.005)
    port.value = listener.getsockname()[1]
    stop.wait()
    server.should_exit = True
    thread.join(timeout=10)


@dataclass
class Upstream:
    """The upstream process and the values it shares with the benchmark."""

    process: multiprocessing.process.BaseProcess
    port: int
    stop: Event
    delay: Synchronized[float]
    """Milliseconds to wait before each answer."""
    peak: Synchronized[int]
    """The most requests in flight at once since it was last reset."""


@contextlib.contextmanager
def upstream() -> Iterator[Upstream]:
    """The scripted upstream, in a spawned process, until the block ends."""
    context = multiprocessing.get_context("spawn")
    port, stop = context.Value("i", 0), context.Event()
    shared = {"delay": context.Value("d", 0.0), "in_flight": context.Value("i", 0), "peak": context.Value("i", 0)}
    process = context.Process(target=_serve_upstream, args=(port, stop, shared), daemon=True)
    process.start()
    deadline = time.monotonic() + 60
    while port.value == 0:
        if not process.is_alive() or time.monotonic() > deadline:
            raise SystemExit("the upstream did not start")
        time.sleep(0.01)
    try:
        yield Upstream(process, port.value, stop, shared["delay"], shared["peak"])
    finally:
        stop.set()
        process.join(timeout=15)


# -- the gateway ------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.contextmanager
def gateway(upstream_port: int) -> Iterator[tuple[int, int]]:
    """``python -m advisor serve`` in front of the upstream; yields (pid, port)."""
    port = _free_port()
    with tempfile.TemporaryDirectory(prefix="witness-bench-") as home:
        env = {**os.environ, "OPENAI_API_KEY": "sk-bench", "WITNESS_HOME": home}
        command = [sys.executable, "-m", "advisor", "serve", "--port", str(port),
                   "--upstream", f"http://127.0.0.1:{upstream_port}/v1"]
        process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 60
            while not _healthy(port):
                if process.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit("the gateway did not start")
                time.sleep(0.05)
            yield process.pid, port
        finally:
            process.terminate()
            process.wait(timeout=15)


def _healthy(port: int) -> bool:
    try:
        return httpx2.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200
    except httpx2.HTTPError:
        return False


def cpu_seconds(pid: int) -> tuple[float, float]:
    """(user, system) CPU seconds of a process, all its threads, from ``/proc/<pid>/stat``."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


# -- requests ---------------------------------------------------------------------------------


async def request(client: openai.AsyncOpenAI, kind: Kind) -> None:
    """One request of ``kind``; raises unless it is answered in full with the scripted answer."""
    if kind == "pass-through streamed":
        stream = await client.chat.completions.create(model="gpt-bench", messages=MESSAGES, stream=True)
        text = "".join([chunk.choices[0].delta.content or "" async for chunk in stream if chunk.choices])
        expected = ANSWER
    elif kind == "advised":
        response = await client.chat.completions.create(model="gpt-bench", messages=MESSAGES, tools=ADVISOR)
        text, expected = response.choices[0].message.content or "", FINAL
        usage = (response.usage.model_extra if response.usage else None) or {}
        if usage.get("server_tool_use", {}).get("advisor_requests") != 1:
            raise AssertionError(f"expected one consultation, got usage {usage}")
    else:
        response = await client.chat.completions.create(model="gpt-bench", messages=MESSAGES)
        text, expected = response.choices[0].message.content or "", ANSWER
    if not text.endswith(expected):
        raise AssertionError(f"unexpected answer {text!r}")


async def _in_workers(workers: int, count: int, one: Callable[[], Awaitable[None]]) -> None:
    remaining = count

    async def worker() -> None:
        nonlocal remaining
        while remaining > 0:
            remaining -= 1
            await one()

    await asyncio.gather(*(worker() for _ in range(workers)))


async def cpu_per_request(clients: dict[str, openai.AsyncOpenAI], pids: dict[str, int], *, kind: Kind,
                          requests: int, concurrent: int) -> dict[str, float]:
    """Milliseconds of CPU per request of ``kind`` through the gateway: in the gateway, the part of it
    spent in the kernel (``system``), and in the upstream."""
    await _in_workers(concurrent, max(50, requests // 10), lambda: request(clients["gateway"], kind))  # warm-up
    before = {name: cpu_seconds(pid) for name, pid in pids.items()}
    await _in_workers(concurrent, requests, lambda: request(clients["gateway"], kind))
    after = {name: cpu_seconds(pid) for name, pid in pids.items()}
    per_request = {name: (sum(after[name]) - sum(before[name])) * 1000 / requests for name in pids}
    per_request["system"] = (after["gateway"][1] - before["gateway"][1]) * 1000 / requests
    return per_request


async def latencies(clients: dict[str, openai.AsyncOpenAI], *, kind: Kind, workers: int, pairs: int,
                    delay: float) -> dict[str, list[float]]:
    """Wall time per request in ms, by path; each worker alternates the paths, half of them gateway first."""
    times: dict[str, list[float]] = {"direct": [], "gateway": []}

    async def worker(number: int) -> None:
        # Independent clients do not send in step: started together, workers whose requests all take
        # the upstream's delay would reach the gateway in bursts of ``workers`` for the whole run.
        await asyncio.sleep(number * 2 * delay / 1000 / workers)
        order = ("direct", "gateway") if number % 2 == 0 else ("gateway", "direct")
        for _ in range(pairs):
            for path in order:
                started = time.perf_counter()
                await request(clients[path], kind)
                times[path].append((time.perf_counter() - started) * 1000)

    await asyncio.gather(*(worker(number) for number in range(workers)))
    return times


async def load(client: openai.AsyncOpenAI, *, kind: Kind, rounds: int) -> tuple[int, int, float]:
    """``LOAD_CONCURRENT`` requests at once, ``rounds`` times: (requests, errors, seconds)."""
    started = time.perf_counter()
    errors = 0
    for _ in range(rounds):
        results = await asyncio.gather(*(request(client, kind) for _ in range(LOAD_CONCURRENT)),
                                       return_exceptions=True)
        errors += sum(1 for result in results if isinstance(result, BaseException))
    return LOAD_CONCURRENT * rounds, errors, time.perf_counter() - started


# -- the report -------------------------------------------------------------------------------


def percentile(values: list[float], fraction: float) -> float:
    """The value below which ``fraction`` of ``values`` lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def verdict(met: bool) -> str:
    """The mark printed after a figure that has a target."""
    return "meets" if met else "below target"


def print_cpu(figures: dict[Kind, dict[str, float]]) -> None:
    print(f"\nCPU per request through the gateway (ms; target: pass-through <= {TARGET_CPU_MS:.1f} ms):")
    print(f"  {'':<24}{'gateway':>9}{'(kernel)':>10}{'upstream':>10}{'ratio':>8}")
    for kind, cpu in figures.items():
        mark = f"  {verdict(cpu['gateway'] <= TARGET_CPU_MS)}" if kind != "advised" else \
            "  (one consultation: 3 upstream calls)"
        print(f"  {kind:<24}{cpu['gateway']:>9.3f}{cpu['system']:>10.3f}{cpu['upstream']:>10.3f}"
              f"{cpu['gateway'] / cpu['upstream']:>7.2f}x{mark}")


def print_latency(delay: int, kind: Kind, times: dict[str, list[float]], *, workers: int) -> None:
    direct, through = times["direct"], times["gateway"]
    clients = "1 client" if workers == 1 else f"{workers} clients at once, starts spread"
    print(f"\nlatency, upstream {delay} ms, {kind}, {len(through)} requests per path, {clients} (ms):")
    print(f"  {'':<6}{'direct':>9}{'gateway':>9}{'added':>8}{'ratio':>8}")
    for label, fraction in (("p50", 0.5), ("p99", 0.99)):
        d, g = percentile(direct, fraction), percentile(through, fraction)
        mark = f"  {verdict(g / d <= TARGET_RATIO_300)} (target <= {TARGET_RATIO_300:.2f}x)" if delay else ""
        print(f"  {label:<6}{d:>9.2f}{g:>9.2f}{g - d:>8.2f}{g / d:>7.2f}x{mark}")


def print_load(kind: Kind, result: tuple[int, int, float], peak: int) -> None:
    requests, errors, seconds = result
    print(f"  {kind:<14}{requests:>5} requests in {seconds:5.1f} s, {errors} errors ({verdict(errors == 0)}, "
          f"target 0); at most {peak} in flight at the upstream")


async def run(sizes: Sizes, server: Upstream, gateway_pid: int, gateway_port: int) -> None:
    pids = {"gateway": gateway_pid, "upstream": server.process.pid or 0}
    async with openai.AsyncOpenAI(base_url=f"http://127.0.0.1:{server.port}/v1", api_key="sk-bench",
                                  max_retries=0, timeout=120) as direct, \
            openai.AsyncOpenAI(base_url=f"http://127.0.0.1:{gateway_port}/v1", api_key="unused",
                               max_retries=0, timeout=120) as through:
        clients = {"direct": direct, "gateway": through}
        cpu: dict[Kind, dict[str, float]] = {}
        for kind, share in CPU_SHARE.items():
            cpu[kind] = await cpu_per_request(clients, pids, kind=kind, requests=sizes.cpu_requests // share,
                                              concurrent=sizes.cpu_concurrent)
        print_cpu(cpu)
        for delay, workers, pairs in ((0, 1, sizes.sequential_pairs),
                                      (300, sizes.delayed_clients, sizes.delayed_pairs)):
            server.delay.value = delay
            for kind in STREAMED:
                await latencies(clients, kind=kind, workers=workers, pairs=2, delay=delay)  # warm-up
                times = await latencies(clients, kind=kind, workers=workers, pairs=pairs, delay=delay)
                print_latency(delay, kind, times, workers=workers)
        server.delay.value = LOAD_DELAY_MS
        print(f"\nload, {LOAD_CONCURRENT} requests at once through the gateway, upstream {LOAD_DELAY_MS} ms:")
        for kind in LOADED:
            server.peak.value = 0
            result = await load(through, kind=kind, rounds=sizes.load_rounds)
            print_load(kind, result, server.peak.value)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer requests (about 30 s)")
    options = parser.parse_args()
    sizes = QUICK if options.quick else FULL
    started = time.monotonic()
    with upstream() as server, gateway(server.port) as (gateway_pid, gateway_port):
        print(f"gateway: python -m advisor serve (pid {gateway_pid}); upstream: the scripted model server; "
              f"client: openai.AsyncOpenAI; {os.cpu_count()} CPUs")
        asyncio.run(run(sizes, server, gateway_pid, gateway_port))
    print(f"\n({time.monotonic() - started:.0f} s)")


if __name__ == "__main__":
    main()
