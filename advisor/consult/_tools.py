"""The advisor's read-only investigation tools: their declarations and how a call is run.

======================================  ==========================================================
tool                                    answers
======================================  ==========================================================
``advisor_expand({ids})``               what HAPPENED: the verbatim text behind ledger cards
``read({path, offset?, limit?})``       what IS: a file now, by lines
``grep({pattern, path?, glob?})``       where a pattern occurs (Python regular expressions)
``find({pattern, path?})``              which paths match a glob
``ls({path?})``                         a directory's entries
``git_diff({path?, patch?, staged?})``  the net uncommitted change (``--stat`` unless ``patch``)
======================================  ==========================================================

No tool writes, runs a command of the advisor's choosing, or leaves the workspace; no
mutating tool is ever declared. Every result is redacted whole, then capped at
``max_result_chars`` with a marker saying how to see the rest (a grep hit line is redacted before
it is cut to its width). A failing call is an error *result* the advisor reads, never an
exception.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

import obligations
from advisor._values import Frozen
from advisor.consult._settings import ConsultSettings
from advisor.consult._tool_expand import ExpandArgs, Expander, expand
from advisor.consult._tool_git import GitDiffArgs, git_diff
from advisor.consult._tool_ls import LsArgs, ls
from advisor.consult._tool_read import ReadArgs, read
from advisor.consult._tool_search import FindArgs, GrepArgs, find, grep
from advisor.consult._workspace import Workspace
from advisor.errors import ToolFailure
from advisor.models import ImagePart, ToolCall, ToolSpec
from advisor.prompt import clip_middle, investigation_tools

_ARGS: dict[str, type[BaseModel]] = {"advisor_expand": ExpandArgs, "read": ReadArgs, "grep": GrepArgs,
                                     "find": FindArgs, "ls": LsArgs, "git_diff": GitDiffArgs}
_MORE = {"advisor_expand": "expand fewer ids at a time", "read": "read with offset and limit for the rest",
         "grep": "narrow the pattern, path or glob", "find": "narrow the pattern or path",
         "ls": "list a subdirectory", "git_diff": "give git_diff a path to narrow it"}


class ToolOutcome(Frozen):
    """The result of one investigation call."""

    text: str
    """What the advisor reads."""
    is_error: bool = False
    """Whether the call failed."""
    argument: str = ""
    """Its primary argument (path, pattern or ids), for the consultation's record."""
    images: tuple[ImagePart, ...] = ()
    """Images it shows the advisor (an image ``read``, when the consultation allows images)."""


def primary_argument(arguments: dict[str, Any]) -> str:
    """The argument that says what a call looked at."""
    for key in ("path", "pattern", "ids"):
        value = arguments.get(key)
        if isinstance(value, list):
            return ", ".join(str(v) for v in value)
        if isinstance(value, str | int) and str(value).strip():
            return str(value)
    return ""


class Investigation:
    """What the investigation tools may look at: a workspace and a session's ledger."""

    def __init__(self, workspace: Path | str | None = None, *, expand: Expander | None = None,
                 settings: ConsultSettings | None = None, redact: Callable[[str], str] | None = None) -> None:
        """``workspace``: the directory the workspace tools are confined to (``None``: they refuse);
        ``expand``: card id → verbatim redacted text, from the ledger; ``redact``: applied to every
        result before it is cut (default: the shared redactor, :func:`obligations.redact`)."""
        self.settings = settings or ConsultSettings()
        self.channels: frozenset[str] = frozenset()
        """Tools a host adds as its own channel (a verdict tool): declared by the host, run by
        :meth:`run`, never counted against ``max_rounds``."""
        self.workspace = Workspace(workspace, self.settings.deny_patterns) if workspace is not None else None
        self._expand = expand
        self._redact = redact or obligations.redact

    def declarations(self) -> tuple[ToolSpec, ...]:
        """The tools declared to the advisor: none when ``max_rounds`` is 0, only ``advisor_expand``
        without repository tools or without a workspace (:func:`~advisor.prompt.investigation_tools`)."""
        return investigation_tools(rounds=self.settings.max_rounds > 0,
                                   workspace=self.settings.repo_tools and self.workspace is not None)

    def run(self, call: ToolCall) -> ToolOutcome:
        """Carry out one call; every failure is an error result, never an exception."""
        argument = primary_argument(call.arguments)
        try:
            found = self._dispatch(call)
        except ToolFailure as failure:
            return ToolOutcome(text=self._clean(str(failure)), is_error=True, argument=argument)
        except OSError as error:
            return ToolOutcome(text=self._clean(f"{call.name} failed: {error.strerror or error}"), is_error=True,
                               argument=argument)
        except Exception as error:  # the arguments are a model's: no call may end a consultation
            text = f"{call.name} failed unexpectedly ({type(error).__name__}: {error})"
            return ToolOutcome(text=self._clipped(text, 2000), is_error=True, argument=argument)
        text, images = found if isinstance(found, tuple) else (found, None)
        cap = self.settings.max_result_chars
        return ToolOutcome(text=clip_middle(self._clean(text), cap, _MORE[call.name]), argument=argument,
                           images=(images,) if images is not None else ())

    def _clean(self, text: str) -> str:
        return self._redact(text)

    def _clipped(self, text: str, limit: int) -> str:
        return obligations.redact_line(text, limit, redactor=self._redact)

    def _dispatch(self, call: ToolCall) -> str | tuple[str, ImagePart]:
        if call.name not in _ARGS:
            raise ToolFailure(f"Unknown tool: {call.name}")
        if call.invalid_arguments is not None:
            shown = self._clipped(call.invalid_arguments, 200)
            raise ToolFailure(f"{call.name}: the arguments are not a JSON object: {shown}")
        try:
            args = _ARGS[call.name].model_validate(call.arguments)
        except ValidationError as error:
            problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'arguments'}: {e['msg']}" for e in error.errors())
            raise ToolFailure(f"{call.name}: bad arguments: {problems}") from None
        if isinstance(args, ExpandArgs):
            return expand(self._expand, args, self.settings.max_result_chars)
        if not self.settings.repo_tools:
            raise ToolFailure("Repository tools are disabled for the advisor.")
        if self.workspace is None:
            raise ToolFailure(f"{call.name}: this consultation has no workspace to look at")
        if isinstance(args, ReadArgs):
            return read(self.workspace, args, images=self.settings.images, clean=self._redact)
        if isinstance(args, GrepArgs):
            return grep(self.workspace, args, self._redact)
        if isinstance(args, FindArgs):
            return find(self.workspace, args)
        if isinstance(args, LsArgs):
            return ls(self.workspace, args)
        assert isinstance(args, GitDiffArgs)
        return git_diff(self.workspace, args)
