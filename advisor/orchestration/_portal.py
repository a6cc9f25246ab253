"""The host's async core runs on one event loop of its own, in a daemon thread.

Model clients keep connection pools bound to the loop they first ran on, and the limiter's
FIFO queue is a set of futures of one loop: so every consultation runs on this loop, whoever
asked. Synchronous callers block on the result from any thread but the loop's own; asynchronous
callers (on any other loop) await it without blocking theirs.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


class Portal:
    """A private event loop in a daemon thread, started on first use."""

    def __init__(self, name: str = "advisor-host") -> None:
        self._name = name
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._tasks: set[concurrent.futures.Future[Any]] = set()

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        """The loop (started if it was not)."""
        with self._lock:
            if self._loop is None:
                ready = threading.Event()
                loop = asyncio.new_event_loop()

                def serve() -> None:
                    asyncio.set_event_loop(loop)
                    ready.set()
                    loop.run_forever()

                self._thread = threading.Thread(target=serve, name=self._name, daemon=True)
                self._thread.start()
                ready.wait()
                self._loop = loop
            return self._loop

    def on_loop(self) -> bool:
        """Whether the caller runs on the portal's own loop thread."""
        return self._thread is not None and threading.current_thread() is self._thread

    def call(self, coroutine: Coroutine[Any, Any, T]) -> T:
        """Run ``coroutine`` on the loop and wait for it (not from the loop itself)."""
        if self.on_loop():
            coroutine.close()
            raise RuntimeError("a synchronous AdvisorHost method was called from inside its own loop; "
                               "await the `a…` variant instead")
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is not None:
            coroutine.close()
            raise RuntimeError("a synchronous AdvisorHost method was called from a running event loop, where "
                               "blocking would stall it; await the `a…` variant (aconsult, aon_pre_step, "
                               "aon_turn_stopping) instead")
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result()

    async def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        """Await ``coroutine`` on the portal loop from any loop (directly when already on it)."""
        if self.on_loop():
            return await coroutine
        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(coroutine, self.loop))

    def spawn(self, coroutine: Coroutine[Any, Any, Any]) -> concurrent.futures.Future[Any]:
        """Start ``coroutine`` in the background on the loop."""
        future = asyncio.run_coroutine_threadsafe(coroutine, self.loop)
        self._tasks.add(future)
        future.add_done_callback(self._tasks.discard)
        return future

    def drain(self, timeout: float | None = None) -> None:
        """Wait for the background work started so far."""
        concurrent.futures.wait(list(self._tasks), timeout=timeout)

    def close(self, last: Callable[[], Coroutine[Any, Any, None]] | None = None) -> None:
        """Stop the loop (background work still running is cancelled; ``last`` runs after that,
        on the loop, to release what belongs to it)."""
        with self._lock:
            loop, thread, self._loop, self._thread = self._loop, self._thread, None, None
        if loop is None or thread is None:
            return

        async def cancel_all() -> None:
            current = asyncio.current_task()
            tasks = [t for t in asyncio.all_tasks() if t is not current]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            if last is not None:
                await last()

        if thread is not threading.current_thread():
            asyncio.run_coroutine_threadsafe(cancel_all(), loop).result(timeout=10)
            loop.call_soon_threadsafe(loop.stop)
            thread.join(timeout=10)
            loop.close()
