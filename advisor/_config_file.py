"""The advisor's configuration file: ``config.toml`` under ``$WITNESS_HOME`` (or ``$WITNESS_CONFIG``).

One TOML file with a table per part — ``[model]`` for the reviewer model, ``[consult]`` for
the consultation loop — read by the part that owns it. A missing file is an empty
configuration; a malformed one, or an unknown key, is a :class:`~advisor.errors.ConfigError`
naming the file and the key.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from advisor._home import witness_home
from advisor.errors import ConfigError


def config_path() -> Path:
    """Where the configuration file is: ``$WITNESS_CONFIG``, else ``$WITNESS_HOME/config.toml``."""
    named = os.environ.get("WITNESS_CONFIG")
    return Path(named) if named else witness_home() / "config.toml"


def read_section(name: str, path: Path | None = None) -> dict[str, Any]:
    """The ``[name]`` table of the configuration file (empty when the file or the table is absent)."""
    path = path or config_path()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"cannot read the configuration file {path}: {error}") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path} is not valid TOML: {error}") from None
    table = data.get(name, {})
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [{name}] must be a table")
    return table


Settings = TypeVar("Settings", bound=BaseModel)


def load_table(model: type[Settings], name: str, flags: Mapping[str, Any] | None, path: Path | None,
               what: str) -> Settings:
    """``model`` from ``flags`` (``None`` values ignored) over the ``[name]`` table of the config file;
    a :class:`~advisor.errors.ConfigError` naming ``what``, the table and the file when it is wrong."""
    path = path or config_path()
    settings = dict(read_section(name, path))
    settings.update({key: value for key, value in (flags or {}).items() if value is not None})
    try:
        return model.model_validate(settings)
    except ValidationError as error:
        raise ConfigError(describe(error, f"{what} (flags, [{name}] in {path})")) from None


def describe(error: ValidationError, where: str) -> str:
    """A one-line account of what is wrong with a configuration, for a :class:`ConfigError`."""
    problems = []
    for item in error.errors():
        key = ".".join(str(part) for part in item["loc"]) or "(the table)"
        if item["type"] == "extra_forbidden":
            problems.append(f"unknown setting {key!r}")
        else:
            problems.append(f"{key}: {item['msg']}")
    return f"{where}: " + "; ".join(problems)
