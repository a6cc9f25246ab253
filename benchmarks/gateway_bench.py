"""What does `witness serve` add to a request that runs no advisor, and how much does it carry?

Two servers run on loopback, each in a process of its own so that none competes with the client
for one interpreter: the scripted model server of the tests (a test double for the provider,
answering every chat completion at once with a short text), and the gateway forwarding to it.
The client is an `httpx2` client with keep-alive, sending the same small chat-completions body
(one user message, no advisor entry) either straight to the fake upstream — the **baseline** —
or through the gateway.

**Latency**: requests are sent one at a time, alternating baseline and gateway so drift in the
machine's load hits both alike (after a warm-up); for each path the p50 and p99 of the wall time
per request are printed, then the gateway's as a ratio to the baseline's (target p50 ≤ 1.2×) and
the absolute time it adds (target p50 < 2 ms). The ratio is against an upstream that answers in
well under a millisecond; a real provider takes hundreds of milliseconds, against which the same
absolute overhead is a ratio of about 1.00.

**Throughput**: 50 concurrent clients (one `httpx2.AsyncClient`, 50 connections) send a fixed
number of requests through each path; requests per second are printed, and the gateway's as a
fraction of the baseline's.

Run (about a minute on a 2-core machine):

    .venv/bin/python benchmarks/gateway_bench.py [--requests 2000] [--concurrent 50]
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import sys
import time
from multiprocessing.synchronize import Event
from pathlib import Path
from typing import Any

import httpx2

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

BODY = {"model": "gpt-bench", "messages": [{"role": "user", "content": "Say hello."}], "max_completion_tokens": 32}


def _serve_upstream(port: Any, stop: Event) -> None:
    import socket
    import threading

    import uvicorn

    from tests.support.model_server import ModelServer
    from tests.support.script import Reply

    # The model server's application, on a listener made with IPPROTO_TCP so that asyncio disables
    # Nagle on its connections (ModelServer.start binds a protocol-0 socket, which adds ~40 ms of
    # delayed ACK to every answer and would swamp what is measured here).
    fake = ModelServer(default=Reply(text="Hello there.", input_tokens=9, output_tokens=3))
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    listener.bind(("127.0.0.1", 0))
    listener.listen(512)
    server = uvicorn.Server(uvicorn.Config(fake._app(), lifespan="off", log_level="critical", access_log=False,
                                           http="h11", loop="asyncio"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.005)
    port.value = listener.getsockname()[1]
    stop.wait()
    server.should_exit = True
    thread.join(timeout=10)


def _serve_gateway(upstream: int, port: Any, stop: Event) -> None:
    import logging

    from tests.advisor.gateway.harness import GatewayServer

    logging.getLogger("witness.gateway.access").setLevel(logging.WARNING)

    class Upstream:  # what GatewayServer needs of a model server: its addresses
        openai_base_url = f"http://127.0.0.1:{upstream}/v1"
        url = f"http://127.0.0.1:{upstream}"

    with GatewayServer(Upstream(), env={"OPENAI_API_KEY": "bench"}) as server:  # type: ignore[arg-type]
        port.value = server.port
        stop.wait()


def _start(target: Any, *args: Any) -> tuple[multiprocessing.process.BaseProcess, int, Event]:
    context = multiprocessing.get_context("spawn")
    port = context.Value("i", 0)
    stop = context.Event()
    process = context.Process(target=target, args=(*args, port, stop), daemon=True)
    process.start()
    deadline = time.monotonic() + 60
    while port.value == 0:
        if not process.is_alive() or time.monotonic() > deadline:
            raise SystemExit("a benchmark server did not start")
        time.sleep(0.01)
    return process, port.value, stop


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def latency(direct: str, gateway: str, requests: int) -> tuple[list[float], list[float]]:
    """Wall time of each request, alternating the two paths, in milliseconds."""
    times: dict[str, list[float]] = {direct: [], gateway: []}
    with httpx2.Client(timeout=30) as client:
        for url in (direct, gateway):  # warm-up: connections, caches, the SDK's first request
            for _ in range(200):
                client.post(url, json=BODY).raise_for_status()
        for _ in range(requests):
            for url in (direct, gateway):
                started = time.perf_counter()
                response = client.post(url, json=BODY)
                elapsed = time.perf_counter() - started
                response.raise_for_status()
                times[url].append(elapsed * 1000)
    return times[direct], times[gateway]


async def throughput(url: str, requests: int, concurrent: int) -> float:
    """Requests per second with ``concurrent`` clients sending ``requests`` in all."""
    limits = httpx2.Limits(max_connections=concurrent, max_keepalive_connections=concurrent)
    async with httpx2.AsyncClient(timeout=60, limits=limits) as client:
        remaining = requests

        async def worker() -> None:
            nonlocal remaining
            while remaining > 0:
                remaining -= 1
                (await client.post(url, json=BODY)).raise_for_status()

        await asyncio.gather(*(client.post(url, json=BODY) for _ in range(concurrent)))  # open the connections
        started = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrent)))
        return requests / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=2000, help="requests per path for latency")
    parser.add_argument("--concurrent", type=int, default=50, help="concurrent clients for throughput")
    options = parser.parse_args()
    os.environ.setdefault("WITNESS_HOME", str(Path(os.environ.get("TMPDIR", "/tmp")) / "witness-bench"))
    upstream, upstream_port, upstream_stop = _start(_serve_upstream)
    gateway, gateway_port, gateway_stop = _start(_serve_gateway, upstream_port)
    try:
        direct = f"http://127.0.0.1:{upstream_port}/v1/chat/completions"
        through = f"http://127.0.0.1:{gateway_port}/v1/chat/completions"
        base, gate = latency(direct, through, options.requests)
        print(f"latency, {options.requests} sequential requests per path, no advisor (ms):")
        print(f"  {'':<28}{'p50':>8}{'p99':>8}")
        for name, values in (("fake upstream directly", base), ("through the gateway", gate)):
            print(f"  {name:<28}{_percentile(values, 0.5):>8.3f}{_percentile(values, 0.99):>8.3f}")
        for label, fraction in (("p50", 0.5), ("p99", 0.99)):
            b, g = _percentile(base, fraction), _percentile(gate, fraction)
            # The targets are set on the median only; the p99 line is for context.
            targets = " (target <= 1.2x)" if label == "p50" else ""
            added = " (target < 2 ms)" if label == "p50" else ""
            print(f"  {label}: gateway / direct = {g / b:.2f}x{targets}; "
                  f"added {g - b:.3f} ms{added}")
        total = options.requests * 2
        rate_direct = asyncio.run(throughput(direct, total, options.concurrent))
        rate_gateway = asyncio.run(throughput(through, total, options.concurrent))
        print(f"throughput, {options.concurrent} concurrent clients, {total} requests per path:")
        print(f"  fake upstream directly   {rate_direct:8.0f} requests/s")
        print(f"  through the gateway      {rate_gateway:8.0f} requests/s  "
              f"({rate_gateway / rate_direct:.2f} of direct)")
    finally:
        for stop, process in ((gateway_stop, gateway), (upstream_stop, upstream)):
            stop.set()
            process.join(timeout=15)


if __name__ == "__main__":
    main()
