"""Verification obligations: tool-call events in, open obligations out (not built yet).

A failed check opens an obligation that only a genuine later pass of the same check, with
nothing changed since, can close. See ``docs/`` once this package lands.
"""

__all__: list[str] = []
