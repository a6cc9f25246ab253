"""Transcript readers: Claude Code, Codex, Pi, GitHub Copilot CLI, Gemini CLI, Qwen Code and Factory Droid sessions as
``obligations`` events.

The format is judged from the first lines' content, never the file name. Files are streamed
line by line; each event's ``origin`` is ``"<file name>:<line number>"``. A corrupt or
truncated line is skipped and counted with its line number, entries of unknown types are
ignored and counted, and a file that is not a transcript raises ``NotATranscript`` (from
``obligations.errors``) with the reason — also, once read, a file none of whose entries its
reader knows. An entry the host wrote twice (the same id and time) is read once. Exit codes are
recovered wherever the host records one; a result without one is never a pass. The per-format
decisions are in the private modules' docstrings.

A replay can be resumed: ``events(checkpoint=…)`` hands over a :class:`Position` once every line is
replayed (plain JSON with ``to_dict``), and a later ``transcript.resume(position)`` accepts it for
the same file still holding the same bytes up to there, when what was appended withdraws nothing
before it; ``events(start=…)`` then reads only what was appended, and answers exactly as a replay
of the whole file (the caller restores its own tracker from the same checkpoint).

>>> import json, pathlib, tempfile
>>> from obligations import Tracker
>>> path = pathlib.Path(tempfile.mkdtemp()) / "notes.txt"
>>> lines = [{"type": "session", "version": 3, "id": "s1", "cwd": "/work"},
...          {"type": "message", "id": "a1", "parentId": None, "message": {"role": "user", "content": "fix it"}},
...          {"type": "message", "id": "a2", "parentId": "a1", "message": {"role": "bashExecution",
...           "command": "pytest -q", "output": "1 failed", "exitCode": 1}}]
>>> _ = path.write_text("".join(json.dumps(line) + "\\n" for line in lines))
>>> transcript = open_transcript(path)
>>> transcript.format
'pi'
>>> tracker = Tracker()
>>> for event in transcript.events():
...     _ = tracker.handle(event)
>>> [(item.check, item.state) for item in tracker.open_items()]
[('pytest -q', 'open')]
>>> transcript.report.summary()
'pi: 3 lines, 3 events, 1 tool calls'

The public API is this module's ``__all__``.
"""

from ..errors import NotATranscript
from ._catalogues import host_tools
from ._detect import FORMATS, detect_format, file_kind
from ._position import Position, Resume
from ._report import TranscriptReport
from ._transcript import Transcript, open_transcript

__all__ = [
    "FORMATS",
    "NotATranscript",
    "Position",
    "Resume",
    "Transcript",
    "TranscriptReport",
    "detect_format",
    "file_kind",
    "host_tools",
    "open_transcript",
]
