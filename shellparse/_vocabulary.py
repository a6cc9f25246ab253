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

CommandKind = Literal[
    "simple", "subshell", "group", "if", "for", "while", "until", "case", "select", "function", "arithmetic",
    "test", "expression", "assignment", "try", "block",
]
"""What one element of a pipeline is (see :class:`shellparse.Command`)."""

OpaqueKind = Literal["substitution", "process-substitution", "subexpression", "script-block"]
"""Code inside a command that runs in its own context (see :class:`shellparse.Opaque`)."""

Operator = Literal[";", "\n", "&", "&&", "||"]
"""What joins a statement to the next one (see :class:`shellparse.Statement`)."""

ReasonCode = Literal[
    "always-succeeds", "and-before", "assigned", "background", "cmd-syntax", "deciding-consumer", "dialect",
    "directory", "early-exit", "echo-tail", "empty", "env-prefix", "errexit", "exit-propagation", "exit-trap",
    "expression-tail", "extra-pipes", "failure-exit", "forced-success", "function-call", "inside-compound",
    "inside-substitution", "may-not-run", "mention-only", "negated", "nested", "or-chain", "parse-error",
    "pipe-into-check", "pipefail", "pipefail-producer", "post-check-command", "redirect", "repeated", "report-tail",
    "reporting-pipe", "rewritten", "saved-status", "shadowed", "sigpipe", "single-path", "standalone-redirect",
    "stdin-script", "strict-policy", "true-tail", "unproven", "unreadable", "waited", "wrapper",
]
"""A stable identifier for why the analysis reached its verdict (see :data:`shellparse.REASONS`)."""


SHELLS: tuple[Shell, ...] = get_args(Shell)
POLICIES: tuple[Policy, ...] = get_args(Policy)
EXIT_SOURCES: tuple[ExitSource, ...] = get_args(ExitSource)
LEVELS: tuple[Level, ...] = get_args(Level)
EFFECTS: tuple[Effect, ...] = get_args(Effect)
CHECK_KINDS: tuple[CheckKind, ...] = get_args(CheckKind)
COMMAND_KINDS: tuple[CommandKind, ...] = get_args(CommandKind)
OPAQUE_KINDS: tuple[OpaqueKind, ...] = get_args(OpaqueKind)
OPERATORS: tuple[Operator, ...] = get_args(Operator)
REASON_CODES: tuple[ReasonCode, ...] = get_args(ReasonCode)
