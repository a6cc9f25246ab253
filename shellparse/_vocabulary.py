"""The words shellparse answers in, as types: every field that holds one of them is typed with it."""

from __future__ import annotations

from typing import Literal, get_args

Shell = Literal["bash", "pwsh"]
"""The dialect of a command line. The caller says which: the text cannot reliably tell."""

Policy = Literal["seed", "strict"]
"""``seed``: a reporting pipe (``| tail``) witnesses. ``strict``: it does not, outside
PowerShell cmdlet pipes."""

ExitSource = Literal["check", "reporting-pipe", "masked"]
"""``check``: the reported exit status is the check's own. ``reporting-pipe``: one pipe carries
the check's output to a pass-through consumer (``| tail -5``), whose status is reported.
``masked``: something else decides the status, or may."""

Level = Literal["masks", "residual", "keeps", "note"]
"""How a reason bears on the verdict: it ``masks`` the check's status; it is an accepted
``residual`` risk (a reporting pipe); it explains why a shape ``keeps`` attribution; or it is a
``note`` (identity, directory, parse details)."""

Effect = Literal["read-only", "mutating", "unknown"]
"""What running the command may do to the workspace; ``unknown`` is treated as mutating."""

CheckKind = Literal["test", "lint", "typecheck", "build"]
"""What a check verifies."""

SHELLS: tuple[Shell, ...] = get_args(Shell)
POLICIES: tuple[Policy, ...] = get_args(Policy)
EXIT_SOURCES: tuple[ExitSource, ...] = get_args(ExitSource)
LEVELS: tuple[Level, ...] = get_args(Level)
EFFECTS: tuple[Effect, ...] = get_args(Effect)
CHECK_KINDS: tuple[CheckKind, ...] = get_args(CheckKind)
