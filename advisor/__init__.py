"""The advisor: a reviewer-model consultation pipeline built on ``shellparse`` and
``obligations`` (not built yet), the host layer, and the ``witness`` command line.

- :mod:`advisor.cli` — the ``witness`` command (``main``) and its click group (``cli``);
- :mod:`advisor.hosts` — Claude Code's and Codex's hook wire formats and the Stop-hook logic;
- :mod:`advisor.errors` — the exceptions the advisor raises on purpose.

Importing this package stays cheap: the ``witness`` command starts a process per hook call,
so nothing is imported here; each room loads what it needs when it is used.
"""

__all__: list[str] = []
