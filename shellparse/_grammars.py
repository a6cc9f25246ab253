"""The tree-sitter grammars, loaded once and only when first needed.

The grammar packages' ``__init__`` modules import ``importlib.resources`` (and through it
``pathlib``, ``tempfile`` …) only to offer highlight queries this project never uses; that costs
more start-up time than parsing. Their compiled ``_binding`` module is loaded directly when it is
where those packages put it, and through the normal import otherwise.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
from functools import cache
from types import ModuleType
from typing import Any

from tree_sitter import Language, Parser


def _binding(package: str) -> ModuleType:
    spec = importlib.util.find_spec(package)
    locations = spec.submodule_search_locations if spec is not None else None
    if locations:
        for directory in locations:
            for suffix in importlib.machinery.EXTENSION_SUFFIXES:
                path = os.path.join(directory, "_binding" + suffix)
                if os.path.exists(path):
                    name = package + "._binding"
                    loader = importlib.machinery.ExtensionFileLoader(name, path)
                    module_spec = importlib.util.spec_from_file_location(name, path, loader=loader)
                    if module_spec is not None:
                        module = importlib.util.module_from_spec(module_spec)
                        loader.exec_module(module)
                        return module
    return importlib.import_module(package)


@cache
def bash_parser() -> Any:
    """A tree-sitter parser for bash."""
    return Parser(Language(_binding("tree_sitter_bash").language()))


@cache
def pwsh_parser() -> Any:
    """A tree-sitter parser for PowerShell."""
    return Parser(Language(_binding("tree_sitter_pwsh").language()))
