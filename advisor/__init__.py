"""The advisor: a reviewer-model consultation pipeline built on ``shellparse`` and
``obligations`` (not built yet), and the root of the ``witness`` command line.

Importing this package stays cheap: the ``witness`` command starts a process per hook call,
so nothing heavy is imported here.
"""

__all__: list[str] = []
