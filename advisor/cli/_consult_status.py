"""The live status of ``witness consult`` on a terminal: how long it has run, what it is doing — reading
the session (the bytes read), compiling the ledger, waiting for the model's answer to request N, or
running the tool the advisor asked for — drawn with rich on standard error, and gone when the advice
is printed. Nothing at all when standard error is not a terminal (rich is not even imported)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import IO, TYPE_CHECKING

from ._progress import shows_progress

if TYPE_CHECKING:
    from rich.live import Live
    from rich.spinner import Spinner
    from rich.text import Text

    from advisor.consult import Step


class ConsultStatus:
    """The status line of one ``witness consult`` (a context manager; on a terminal only)."""

    def __init__(self, err: IO[str]) -> None:
        self.err = err
        self.started = time.monotonic()
        self.doing = "starting"
        """What it is doing now, in words."""
        self.advisor: str | None = None
        """The advisor model, once known."""
        self._live: Live | None = None
        self._spinner: Spinner | None = None

    def __enter__(self) -> ConsultStatus:
        if shows_progress(self.err):
            from rich.console import Console
            from rich.live import Live
            from rich.spinner import Spinner

            self._spinner = Spinner("dots", style="cyan")
            self._live = Live(self, console=Console(file=self.err), transient=True, refresh_per_second=8)
            self._live.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        if self._live is not None:
            self._live.stop()
            self._live = None

    def reading(self, path: Path) -> Callable[[int], None]:
        """The callback for the bytes read of the transcript at ``path``."""
        try:
            total = path.stat().st_size
        except OSError:
            total = 0

        def read(done: int) -> None:
            self.doing = f"reading the session · {_megabytes(done)} of {_megabytes(total)}"

        self.doing = "reading the session"
        return read

    def compiling(self) -> None:
        """The session is read: its ledger is compiled."""
        self.doing = "compiling the ledger"

    def step(self, step: Step) -> None:
        """A step of the consultation (``advisor.consult.Step``). The tool and its argument are the
        model's words: they pass the terminal sanitiser (``shellparse.printable``)."""
        if step.kind == "request":
            self.doing = f"request {step.request} · waiting for the answer"
        else:
            from shellparse import printable

            argument = f"({step.argument})" if step.argument else ""
            self.doing = printable(f"request {step.request} · running {step.tool}{argument}")

    def __rich__(self) -> Spinner | Text:
        from rich.text import Text

        elapsed = time.monotonic() - self.started
        who = f"consulting {self.advisor}" if self.advisor else "witness consult"
        line = Text.assemble((who, "bold"), f" · {elapsed:.0f} s · ", (self.doing, "dim"))
        if self._spinner is None:
            return line
        self._spinner.update(text=line)
        return self._spinner


def _megabytes(size: int) -> str:
    return f"{size / 1_000_000:,.1f} MB"
