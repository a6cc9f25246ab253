"""Progress on long work, drawn with rich on a terminal's standard error, and nothing otherwise.

``witness audit`` shows the bytes read of all the files it audits (file by file when it runs them
in parallel, as they are read when it runs one at a time, so a single large file moves too);
``witness consult`` shows what the consultation is doing (see ``_consult_status``). rich is
imported only when there is a terminal to draw on; piped, redirected or ``--json`` output gets
no progress at all.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import IO, TYPE_CHECKING

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID


def shows_progress(err: IO[str]) -> bool:
    """Whether ``err`` is a terminal to draw progress on."""
    try:
        return err.isatty()
    except (AttributeError, ValueError, OSError):
        return False


class ReadProgress:
    """A progress bar of bytes read across files, on ``err`` when it is a terminal (see the module
    docstring); a context manager. Without one (or with ``None``) every method does nothing."""

    def __init__(self, files: list[Path], err: IO[str] | None, *, label: str = "auditing") -> None:
        self.sizes = [_size(path) for path in files]
        self.err = err
        self.label = label
        self.done = 0
        """Bytes of the files finished."""
        self._progress: Progress | None = None
        self._task: TaskID | None = None

    def __enter__(self) -> ReadProgress:
        if self.err is None or not shows_progress(self.err) or not self.sizes:
            return self
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            DownloadColumn,
            Progress,
            TextColumn,
            TimeRemainingColumn,
            TransferSpeedColumn,
        )

        self._progress = Progress(TextColumn("{task.description}"), BarColumn(), DownloadColumn(),
                                  TransferSpeedColumn(), TimeRemainingColumn(),
                                  console=Console(file=self.err), transient=True)
        self._progress.start()
        files = f"{len(self.sizes)} files" if len(self.sizes) > 1 else "1 file"
        self._task = self._progress.add_task(f"{self.label} {files}", total=sum(self.sizes))
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        if self._progress is not None:
            self._progress.stop()

    def reading(self, index: int) -> Callable[[int], None] | None:
        """The callback for the bytes read of file ``index`` while it is read here (``None``: nothing drawn)."""
        if self._progress is None:
            return None
        return lambda read: self._show(self.done + min(read, self.sizes[index]))

    def finished(self, index: int) -> None:
        """File ``index`` is done."""
        self.done += self.sizes[index]
        self._show(self.done)

    def _show(self, completed: int) -> None:
        if self._progress is not None and self._task is not None:
            self._progress.update(self._task, completed=completed)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0
