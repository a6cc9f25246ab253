"""The tree-sitter grammars, loaded once and only when first needed.

The grammar packages' ``__init__`` modules import ``importlib.resources`` (and through it
``pathlib``, ``tempfile`` …) only to offer highlight queries this project never uses; that costs
more start-up time than parsing. Their compiled ``_binding`` module is loaded directly when it is
where those packages put it, and through the normal import otherwise.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import os
from functools import cache
from types import ModuleType
from typing import Any

from tree_sitter import Language, Parser


def _binding(package: str) -> ModuleType:
    # Found as the path finder finds the package (not `importlib.util`, which costs start-up time);
    # anything unusual (no such file, another kind of installation) takes the normal import.
    spec = importlib.machinery.PathFinder.find_spec(package)
    for directory in (spec.submodule_search_locations or ()) if spec is not None else ():
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            path = os.path.join(directory, "_binding" + suffix)
            if os.path.exists(path):
                name = package + "._binding"
                loader = importlib.machinery.ExtensionFileLoader(name, path)
                module = loader.create_module(importlib.machinery.ModuleSpec(name, loader, origin=path))
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
