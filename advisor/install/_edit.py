"""Writing witness's entries into host settings files, and taking them out again.

Each file is read whole, changed in its text (JSON through :mod:`._jsonc`, TOML through ``tomlkit``, which keeps
comments and layout), and written back atomically only when it changed. An entry is witness's when it runs
``witness hook <host>`` (any path to the program, any options) or is named ``witness`` among the MCP servers:
installing again finds it (unchanged, or replaced when the options changed), and uninstalling removes exactly
it, then the containers that held nothing else, so ``install`` followed by ``uninstall`` gives the file back
byte for byte (a file witness created is removed).
"""

from __future__ import annotations

import difflib
import json
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from obligations import redact
from shellparse import printable

from ..errors import ConfigError
from . import _jsonc
from ._table import HOOK_OF, InstallHost, Row

Action = Literal["created", "changed", "unchanged", "removed"]
"""What happened to a file (or would, with ``--dry-run``)."""
_COMMAND_KEYS = ("command", "bash", "powershell")


@dataclass(frozen=True)
class FileChange:
    """One settings file before and after."""

    path: Path
    """The file."""
    action: Action
    """What happened to it."""
    before: str | None
    """Its text before (``None``: it did not exist)."""
    after: str | None
    """Its text after (``None``: it is removed)."""

    def diff(self) -> str:
        """The change as a unified diff (empty when unchanged), shown to a person: a settings file can hold a
        credential (an ``env`` block's API key) or bytes that drive a terminal, so the diff is redacted and
        made printable; the file itself is written as it is."""
        lines = difflib.unified_diff((self.before or "").splitlines(keepends=True),
                                     (self.after or "").splitlines(keepends=True),
                                     fromfile=str(self.path) if self.before is not None else "/dev/null",
                                     tofile=str(self.path) if self.after is not None else "/dev/null")
        text = "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)
        return printable(redact(text))

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON."""
        return {"path": str(self.path), "action": self.action, "diff": self.diff()}


def ours(value: Any, host: InstallHost) -> bool:
    """Whether a hook entry runs ``witness hook <host>`` (in any of its command fields, at any depth)."""
    hook = HOOK_OF.get(host, host)
    pattern = re.compile(rf"(?:^|[\s/\\\"'])witness(?:\.exe)?[\"']?\s+hook\s+{re.escape(hook)}(?:\s|$)")
    if isinstance(value, dict):
        return any(isinstance(value.get(key), str) and pattern.search(value[key]) for key in _COMMAND_KEYS) \
            or any(ours(item, host) for item in value.values() if isinstance(item, (dict, list)))
    if isinstance(value, list):
        return any(ours(item, host) for item in value)
    return False


def _skeleton(row: Row) -> str:
    return json.dumps(json.loads(row.skeleton), indent=2) + "\n"


@dataclass
class Record:
    """What an install made in one file, kept so that uninstall removes exactly that (``Ledger``)."""

    created: bool = False
    """The file did not exist before."""
    containers: list[list[str]] = field(default_factory=list)
    """The objects and lists it added to hold the entries (key paths), removed again once empty."""


def plan_file(path: Path, rows: list[Row], *, host: InstallHost, install: bool, values: list[Any],
              record: Record) -> FileChange:
    """What installing (or uninstalling) ``rows`` does to the file at ``path``; nothing is written. Installing
    adds to ``record`` what it creates; uninstalling removes only the containers and the file ``record`` names."""
    try:
        before: str | None = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        before = None
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path} cannot be read ({getattr(error, 'strerror', None) or error}); "
                          f"it was left as it is") from None
    if before is None and not install:
        return FileChange(path, "unchanged", None, None)
    toml = rows[0].format == "toml"
    text = before if before is not None and before.strip() else "" if toml else _skeleton(rows[0])
    name = str(path)
    if before is None:
        record.created = True
    if toml:
        after: str | None = _toml(text, rows, values, install=install, name=name, record=record)
    else:
        comments = rows[0].format == "jsonc"
        for row, value in zip(rows, values, strict=True):
            if install:
                text = _json_install(text, row, value, host=host, comments=comments, name=name, record=record)
            else:
                text = _json_uninstall(text, row, host=host, comments=comments, name=name, record=record)
        after = text
    if not install and after is not None and record.created and _left_empty(after, rows[0]):
        after = None
    if before is None:
        return FileChange(path, "created", None, after)
    if after == before:
        return FileChange(path, "unchanged", before, before)
    return FileChange(path, "removed" if after is None else "changed", before, after)


def _left_empty(text: str, row: Row) -> bool:
    """Whether an uninstall left the file as witness would have created it: it is removed."""
    if row.format == "toml":
        return not text.strip()
    return text == _skeleton(row) or (row.own_file and _empty_own(text))


def _empty_own(text: str) -> bool:
    try:
        data = json.loads(text)
    except ValueError:
        return False
    return isinstance(data, dict) and not any(data.get("hooks") or {}) and set(data) <= {"version", "hooks"}


def _root(text: str, *, comments: bool, name: str) -> _jsonc.Node:
    root = _jsonc.parse(text, comments=comments, name=name)
    if not isinstance(root.value, dict):
        raise ConfigError(f"{name} holds JSON that is not an object; it was left as it is")
    return root


def _walk(text: str, keys: tuple[str, ...], *, comments: bool, name: str) -> tuple[_jsonc.Node, int]:
    """The deepest existing node along ``keys``, and how many keys lead to it."""
    node = _root(text, comments=comments, name=name)
    for depth, key in enumerate(keys):
        child = node.member(key)
        if child is None:
            return node, depth
        if not isinstance(child.value, (dict, list)) or (depth < len(keys) - 1 and not isinstance(child.value, dict)):
            raise ConfigError(f"{name}: {'.'.join(keys[:depth + 1])} is not what the host expects there "
                              f"(an object or a list); it was left as it is")
        node = child
    return node, len(keys)


def _json_install(text: str, row: Row, value: Any, *, host: InstallHost, comments: bool, name: str,
                  record: Record) -> str:
    listed = row.piece != "mcp"  # hooks and permissions are list elements; an MCP server is a named member
    keys = row.where if listed else row.where[:-1]
    node, depth = _walk(text, keys, comments=comments, name=name)
    if depth < len(keys):
        record.containers += [list(keys[:end]) for end in range(depth + 1, len(keys) + 1)]
        nested: Any = [value] if listed else {row.where[-1]: value}
        for key in reversed(keys[depth + 1:]):
            nested = {key: nested}
        return _jsonc.insert_member(text, node, keys[depth], nested)
    if not listed:
        current = node.member(row.where[-1])
        if current is not None and current.value == value:
            return text
        if current is not None:
            text = _jsonc.remove_member(text, node, row.where[-1])
            node, _ = _walk(text, keys, comments=comments, name=name)
        return _jsonc.insert_member(text, node, row.where[-1], value)
    if not isinstance(node.value, list):
        raise ConfigError(f"{name}: {'.'.join(keys)} is not a list; it was left as it is")
    mine = [index for index, item in enumerate(node.items) if _is_mine(item.value, row, host)]
    if [node.items[index].value for index in mine] == [value]:
        return text
    for index in reversed(mine):
        text = _jsonc.remove_item(text, node, index)
        node, _ = _walk(text, keys, comments=comments, name=name)
    return _jsonc.append_item(text, node, value)


def _is_mine(value: Any, row: Row, host: InstallHost) -> bool:
    return value == "mcp__witness" if row.piece == "permission" else ours(value, host)


def _json_uninstall(text: str, row: Row, *, host: InstallHost, comments: bool, name: str, record: Record) -> str:
    listed = row.piece != "mcp"
    keys = row.where if listed else row.where[:-1]
    node, depth = _walk(text, keys, comments=comments, name=name)
    if depth < len(keys):
        return text
    if listed:
        if not isinstance(node.value, list):
            return text
        mine = [index for index, item in enumerate(node.items) if _is_mine(item.value, row, host)]
        if not mine:
            return text
        for index in reversed(mine):
            text = _jsonc.remove_item(text, node, index)
            node, _ = _walk(text, keys, comments=comments, name=name)
    else:
        if node.member(row.where[-1]) is None:
            return text
        text = _jsonc.remove_member(text, node, row.where[-1])
    return _prune(text, keys, comments=comments, name=name, record=record)


def _prune(text: str, keys: tuple[str, ...], *, comments: bool, name: str, record: Record) -> str:
    """Remove the containers along ``keys`` that an install made and an uninstall left empty, deepest first."""
    for depth in range(len(keys), 0, -1):
        if list(keys[:depth]) not in record.containers:
            return text
        node, reached = _walk(text, keys[:depth], comments=comments, name=name)
        if reached < depth or node.value:
            return text
        parent, _ = _walk(text, keys[:depth - 1], comments=comments, name=name)
        text = _jsonc.remove_member(text, parent, keys[depth - 1])
    return text


def _toml(text: str, rows: list[Row], values: list[Any], *, install: bool, name: str, record: Record) -> str:
    import tomlkit
    from tomlkit.exceptions import TOMLKitError
    from tomlkit.items import InlineTable

    try:
        document = tomlkit.parse(text)
    except TOMLKitError as error:
        raise ConfigError(f"{name} cannot be read as TOML ({error}); it was left as it is") from None
    for row, value in zip(rows, values, strict=True):
        table_key, key = row.where
        table = document.get(table_key)
        if table is not None and not isinstance(table, dict):
            raise ConfigError(f"{name}: {table_key} is not a table; it was left as it is")
        current = table.get(key) if table is not None else None
        if install and current is not None and current == value:
            continue
        if install and current is None:
            # Appended as a block of its own, which uninstall can take out whole (tomlkit would join the
            # blank line before it to the table above).
            appended = text + _toml_block(row, value)
            try:
                document = tomlkit.parse(appended)
            except TOMLKitError:
                pass  # the file holds the table inline: the entry goes through tomlkit below
            else:
                text = appended
                continue
        if not install and current is not None:
            block = _toml_block(row, current.unwrap() if hasattr(current, "unwrap") else current)
            if block in text:
                text = text.replace(block, "", 1)
                document = tomlkit.parse(text)
                continue
        if table is None:
            table = tomlkit.table(is_super_table=True)
            document[table_key] = table
            record.containers.append([table_key])
        if key in table:
            del table[key]
        if install:
            entry = tomlkit.inline_table() if isinstance(table, InlineTable) else tomlkit.table()
            entry.update(value)
            table[key] = entry
        elif not table and [table_key] in record.containers:
            del document[table_key]
        text = tomlkit.dumps(document)
    return text


def _toml_block(row: Row, value: Any) -> str:
    """The text ``install`` appends for ``value``: a comment naming witness, and the table."""
    import tomlkit

    document = tomlkit.document()
    outer = tomlkit.table(is_super_table=True)
    inner = tomlkit.table()
    inner.update(value)
    outer[row.where[1]] = inner
    document[row.where[0]] = outer
    return f"\n# witness ({row.host}): `witness uninstall {row.host}` removes this table\n{tomlkit.dumps(document)}"


def write(change: FileChange) -> None:
    """Carry out ``change``: write the file's new text atomically (keeping its mode), or remove it."""
    if change.action == "unchanged":
        return
    if change.after is None:
        change.path.unlink(missing_ok=True)
        return
    change.path.parent.mkdir(parents=True, exist_ok=True)
    mode = change.path.stat().st_mode & 0o7777 if change.before is not None else None
    handle, temporary = tempfile.mkstemp(dir=change.path.parent, prefix=f".{change.path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
            stream.write(change.after)
        if mode is not None:
            os.chmod(temporary, mode)
        os.replace(temporary, change.path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
