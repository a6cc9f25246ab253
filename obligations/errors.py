"""Every exception the ``obligations`` package raises on purpose.

::

    ObligationsError                                  base of everything below
    ├── NotATranscript(ObligationsError, ValueError)  a file the transcript readers cannot read as a
    │                                                 session (missing, empty, binary, another shape)
    ├── UnknownFormat(ObligationsError, ValueError)   a transcript format name no reader knows
    ├── InvalidConfig(ObligationsError, ValueError)   a TrackerConfig setting that is not valid
    │                                                 (raised when it is made, not at first use)
    ├── NotAnEvent(ObligationsError, TypeError)       ``Tracker.handle`` given something that is not
    │                                                 an event (a dict: read it with event_from_dict)
    ├── MalformedEntry(ObligationsError, ValueError)  one transcript entry of the wrong shape; the
    │                                                 readers skip and count its line, never stop
    ├── NoSuchCall(ObligationsError, ValueError)      a session cut after its N-th tool call
    │                                                 (``until_call``) that has fewer calls
    └── SnapshotError(ObligationsError, ValueError)   a tracker snapshot (or a replay's position) that
        │                                             cannot be restored
        ├── SnapshotVersionError(SnapshotError)       written by a tracker of another snapshot version
        └── Rewound(SnapshotError)                    inside the transcript readers only: the lines
                                                      after a replay's position withdraw entries
                                                      before it, so it cannot be resumed

Each class also subclasses its natural standard-library base, so callers that only know the
standard library (``except ValueError``) still catch what they mean. Modules that add an
exception add it here and to the drawing above.
"""

from __future__ import annotations

import os

__all__ = [
    "InvalidConfig",
    "MalformedEntry",
    "NoSuchCall",
    "NotATranscript",
    "NotAnEvent",
    "ObligationsError",
    "Rewound",
    "SnapshotError",
    "SnapshotVersionError",
    "UnknownFormat",
]


class ObligationsError(Exception):
    """Base class of every exception obligations raises on purpose."""


class NotATranscript(ObligationsError, ValueError):
    """The file is not a transcript this package reads (empty, binary, JSON of another shape, or
    entries none of which its reader knows)."""

    WHAT = "not a session transcript of a host witness reads"
    """What the file is not, in the message (the reason follows)."""

    def __init__(self, path: str | os.PathLike[str], reason: str) -> None:
        self.path = str(path)
        """The file."""
        self.reason = reason
        """Why it is not one."""
        super().__init__(f"{self.path}: {self.WHAT}: {reason}")


class UnknownFormat(ObligationsError, ValueError):
    """A transcript format was named that no reader knows."""


class InvalidConfig(ObligationsError, ValueError):
    """A ``TrackerConfig`` setting that is not valid: raised when the config is made."""


class NotAnEvent(ObligationsError, TypeError):
    """``Tracker.handle`` was given something that is not an event."""


class MalformedEntry(ObligationsError, ValueError):
    """One transcript entry has the wrong shape (a field of the wrong type, a payload that is not
    an object). Readers raise it for the entry; the replay skips and counts that line."""


class SnapshotError(ObligationsError, ValueError):
    """A snapshot the tracker cannot be restored from."""


class SnapshotVersionError(SnapshotError):
    """The snapshot was written in a format version this tracker does not read."""

    def __init__(self, found: object, expected: int) -> None:
        self.found = found
        """The version the snapshot names."""
        self.expected = expected
        """The version this tracker reads."""
        super().__init__(f"unsupported snapshot version {found!r} (this tracker reads {expected})")


class Rewound(SnapshotError):
    """The lines a resumed replay would read withdraw entries replayed before them (a rewind that
    reaches back): the file must be replayed from its start. Raised and caught inside
    ``obligations.sources``; ``Transcript.resume`` says it as its ``refused`` reason."""


class NoSuchCall(ObligationsError, ValueError):
    """A session asked to end after its ``N``-th tool call has fewer calls than that."""

    def __init__(self, wanted: int, found: int) -> None:
        super().__init__(f"the session has only {found} tool call(s), not {wanted}")
        self.wanted = wanted
        """The call asked for."""
        self.found = found
        """How many calls the session's own agent made."""
