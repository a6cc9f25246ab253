"""``install`` and ``uninstall``: the files one host's entries live in, changed (or only planned)."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from ._edit import FileChange, Record, plan_file, write
from ._table import INSTALL_HOSTS, ROWS, InstallHost, Row, Scope, entry_value, rows_for

_HOMES = {"$CODEX_HOME": ("CODEX_HOME", ".codex"), "$COPILOT_HOME": ("COPILOT_HOME", ".copilot")}


def resolve(row: Row, *, project: Path | None, home: Path, environ: Mapping[str, str]) -> Path:
    """The file of ``row``: under ``project`` for project settings, else under ``home`` (or the host's own
    home variable: ``CODEX_HOME``, ``COPILOT_HOME``)."""
    if row.scope == "project":
        if project is None:
            raise ConfigError("project settings need the project's directory")
        return project / row.path
    head, _, rest = row.path.partition("/")
    if head == "~":
        return home / rest
    variable, default = _HOMES[head]
    base = environ.get(variable)
    return (Path(base) if base else home / default) / rest


def default_program() -> str:
    """How the hooks should start witness: ``witness`` when that is this program on the ``PATH``, else this
    program's full path (a virtual environment's script the host would not find)."""
    found = shutil.which("witness")
    here = Path(sys.argv[0]).resolve() if sys.argv and sys.argv[0] else None
    if found is not None and (here is None or here.name.split(".")[0] != "witness" or Path(found).resolve() == here):
        return "witness"
    if here is not None and here.name.split(".")[0] == "witness":
        return shlex.quote(str(here))
    return "witness"


class Ledger:
    """What each install made (files, containers), kept in ``$WITNESS_HOME/installed.json`` so that uninstall
    removes exactly that and nothing the user had (an empty ``hooks`` object of their own stays)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = {}
        self.records: dict[str, Record] = {}
        for name, fields in (data.items() if isinstance(data, dict) else ()):
            if isinstance(fields, dict):
                containers = [list(map(str, keys)) for keys in fields.get("containers", []) if isinstance(keys, list)]
                self.records[name] = Record(created=fields.get("created") is True, containers=containers)

    def record(self, path: Path) -> Record:
        """The record of ``path`` (a fresh one the first time)."""
        return self.records.setdefault(str(path), Record())

    def save(self, changes: list[FileChange], *, installing: bool) -> None:
        """Keep the records of the files installed into; forget those uninstalled from."""
        for change in changes:
            if not installing or change.after is None:
                self.records.pop(str(change.path), None)
        kept = {name: {"created": record.created, "containers": record.containers}
                for name, record in self.records.items() if record.created or record.containers}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text(json.dumps(kept, indent=2) + "\n", encoding="utf-8")


def _changes(host: str, scope: Scope, *, install: bool, review: bool, mcp: bool, program: str,
             project: Path | None, home: Path | None, environ: Mapping[str, str] | None,
             ledger: Ledger) -> list[FileChange]:
    if host not in INSTALL_HOSTS:
        raise ConfigError(f"unknown host {host!r}; expected one of {', '.join(INSTALL_HOSTS)}")
    known: InstallHost = host  # (narrowed by the check above)
    environ = os.environ if environ is None else environ
    home = Path.home() if home is None else home
    if install:
        rows = rows_for(known, scope, review=review, mcp=mcp)
        if mcp and not any(row.piece == "mcp" for row in rows):
            raise ConfigError(f"{host} has no documented {scope} MCP settings; install the MCP server in the user's "
                              f"settings instead (without --project)")
    else:
        rows = [row for row in ROWS if row.host == known and row.scope == scope]
    by_file: dict[Path, list[Row]] = {}
    for row in rows:
        by_file.setdefault(resolve(row, project=project, home=home, environ=environ), []).append(row)
    changes = [plan_file(path, group, host=known, install=install, values=[entry_value(row, program) for row in group],
                         record=ledger.record(path))
               for path, group in by_file.items()]
    return [change for change in changes if change.before is not None or change.after is not None]


def install(host: str, *, scope: Scope = "user", review: bool = False, mcp: bool = False,
            program: str | None = None, project: Path | None = None, home: Path | None = None,
            environ: Mapping[str, str] | None = None, dry_run: bool = False,
            ledger_path: Path | None = None) -> list[FileChange]:
    """Write witness's Stop hook (``review``: with the completion review; ``mcp``: and its MCP server) into
    ``host``'s settings, and return what changed in each file (with ``dry_run``, what would: nothing is
    written). Raises ``ConfigError`` for an unknown host or a file that cannot be read as the host writes it
    (then no file is changed)."""
    ledger = Ledger(_ledger_path(ledger_path))
    changes = _changes(host, scope, install=True, review=review, mcp=mcp, program=program or default_program(),
                       project=project, home=home, environ=environ, ledger=ledger)
    if not dry_run:
        for change in changes:
            write(change)
        ledger.save(changes, installing=True)
    return changes


def uninstall(host: str, *, scope: Scope = "user", project: Path | None = None, home: Path | None = None,
              environ: Mapping[str, str] | None = None, dry_run: bool = False,
              ledger_path: Path | None = None) -> list[FileChange]:
    """Remove every entry of witness's from ``host``'s settings (hooks, MCP server, permission), and the
    containers and files that held nothing else; return what changed (with ``dry_run``, what would)."""
    ledger = Ledger(_ledger_path(ledger_path))
    changes = _changes(host, scope, install=False, review=False, mcp=False, program="witness", project=project,
                       home=home, environ=environ, ledger=ledger)
    if not dry_run:
        for change in changes:
            write(change)
        ledger.save(changes, installing=False)
    return changes


def _ledger_path(path: Path | None) -> Path:
    from .._home import witness_home

    return path if path is not None else witness_home() / "installed.json"


def summary(changes: list[FileChange]) -> dict[str, Any]:
    """Plain JSON of a list of changes."""
    return {"files": [change.to_dict() for change in changes],
            "changed": sum(change.action != "unchanged" for change in changes)}
