"""The investigation tools' declarations: what the advisor is told it may call.

The tools themselves run in :mod:`advisor.consult` (:class:`~advisor.consult.Investigation`);
their declarations are part of every request's bytes, so they sit with the request's other
parts, below both the ledger (which sizes a request with them) and the consultation.
"""

from __future__ import annotations

from typing import Any

from advisor.models import ToolSpec


def _spec(name: str, description: str, properties: dict[str, Any], required: tuple[str, ...] = ()) -> ToolSpec:
    return ToolSpec(name=name, description=description, parameters={
        "type": "object", "properties": properties, "required": list(required), "additionalProperties": False})


_PATH = {"type": "string", "description": "A workspace-relative path."}


EXPAND = _spec("advisor_expand", "The verbatim text behind ledger cards: what happened in the session.",
               {"ids": {"type": "array", "items": {"type": "string"}, "minItems": 1,
                        "description": "Card ids, with or without the leading #."}}, ("ids",))
READ = _spec("read", "Read a text file of the workspace as it is now, by lines (an image is shown as an image "
             "when this consultation allows images).",
             {"path": _PATH, "offset": {"type": "integer", "minimum": 1, "description": "First line (1-based)."},
              "limit": {"type": "integer", "minimum": 1, "description": "Lines to read (default 2000)."}},
             ("path",))
GREP = _spec("grep", "Search workspace files for a Python regular expression; .gitignored, binary and "
             "credential files are skipped.",
             {"pattern": {"type": "string", "description": "The regular expression."},
              "path": {**_PATH, "description": "File or directory (default: the whole workspace)."},
              "glob": {"type": "string", "description": "Only files matching this glob, e.g. *.py or src/**/*.ts."}},
             ("pattern",))
FIND = _spec("find", "Find workspace files and directories by glob.",
             {"pattern": {"type": "string", "description": "A glob: *.py matches names, src/**/test_*.py paths."},
              "path": {**_PATH, "description": "Directory (default: the workspace root)."}},
             ("pattern",))
LS = _spec("ls", "List a workspace directory.",
           {"path": {**_PATH, "description": "Directory (default: the workspace root)."}})
GIT_DIFF = _spec("git_diff", "The workspace's uncommitted change: a --stat summary, or the patch with patch: true.",
                 {"path": {**_PATH, "description": "Only changes under this path."},
                  "patch": {"type": "boolean", "description": "The full patch instead of --stat."},
                  "staged": {"type": "boolean", "description": "Changes in the index instead of the work tree."}})

TOOL_NAMES = ("advisor_expand", "read", "grep", "find", "ls", "git_diff")
REPO_TOOLS = (READ, GREP, FIND, LS, GIT_DIFF)
"""The workspace tools, in the order they are declared."""


def investigation_tools(*, rounds: bool = True, workspace: bool = True) -> tuple[ToolSpec, ...]:
    """The declarations a consultation sends: none without investigation ``rounds`` (``max_rounds`` 0),
    only ``advisor_expand`` without a ``workspace`` to look at (a tool that can only refuse would spend
    the advisor's rounds), else all six, always in this order."""
    if not rounds:
        return ()
    return (EXPAND, *REPO_TOOLS) if workspace else (EXPAND,)
