"""Promises the project makes about itself: public APIs, import hygiene, the README and CI."""

from __future__ import annotations

import ast
import importlib
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import advisor
import obligations
import shellparse

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = {"shellparse": shellparse, "obligations": obligations, "advisor": advisor}


@pytest.mark.parametrize("name", sorted(PACKAGES))
def test_all_is_exactly_the_public_surface(name: str) -> None:
    """Every name in `__all__` exists, and every public attribute is listed in `__all__`."""
    package = PACKAGES[name]
    exported = set(package.__all__)
    assert all(hasattr(package, item) for item in exported)
    public = {item for item in vars(package) if not item.startswith("_")}
    submodules = {item for item in public if type(getattr(package, item)).__name__ == "module"}
    assert public - submodules - {"annotations"} == exported


@pytest.mark.parametrize("name", ["advisor.consult", "advisor.models"])
def test_subpackages_export_exactly_their_public_surface(name: str) -> None:
    """The advisor's subpackages keep `__all__` honest too: every listed name exists, every public one is listed."""
    package = importlib.import_module(name)
    public = {item for item in vars(package) if not item.startswith("_")}
    submodules = {item for item in public if type(getattr(package, item)).__name__ == "module"}
    assert all(hasattr(package, item) for item in package.__all__)
    assert public - submodules - {"annotations"} == set(package.__all__)


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
            # `from shellparse import _bash` names the private module as an imported name.
            names.extend(f"{node.module}.{alias.name}" for alias in node.names if alias.name.startswith("_"))
    return names


@pytest.mark.parametrize("name", sorted(PACKAGES))
def test_no_package_imports_another_packages_private_modules(name: str) -> None:
    """Packages use each other only through their public `__init__`."""
    for path in (ROOT / name).rglob("*.py"):
        for module in _imports(path):
            top, _, rest = module.partition(".")
            if top in PACKAGES and top != name:
                assert not rest.startswith("_"), f"{path.relative_to(ROOT)} imports {module}"


def test_dependencies_flow_one_way() -> None:
    """shellparse imports neither obligations nor advisor; obligations does not import advisor."""
    for path in (ROOT / "shellparse").rglob("*.py"):
        assert not {m.split(".")[0] for m in _imports(path)} & {"obligations", "advisor"}, path
    for path in (ROOT / "obligations").rglob("*.py"):
        assert "advisor" not in {m.split(".")[0] for m in _imports(path)}, path


def test_importing_shellparse_stays_light() -> None:
    """Start-up matters for hooks: shellparse imports no pydantic, click, rich or hypothesis, and
    loads the PowerShell grammar only when asked for PowerShell."""
    code = ("import sys, shellparse; shellparse.analyze('npm test | tail'); "
            "print(sorted(m for m in ('pydantic', 'click', 'rich', 'hypothesis', 'tree_sitter_pwsh', "
            "'tree_sitter_pwsh._binding') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}, cwd=ROOT)
    assert done.stdout.strip() == "[]", done.stderr


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    block = re.search(r"^```[^\n]*\n(.*?)^```", text, re.S | re.M)
    assert block is not None
    return [line for line in block.group(1).splitlines() if line.strip() and not line.lstrip().startswith("#")]


def test_readme_opens_with_exactly_two_commands() -> None:
    """The README's first code block holds two commands: the main job, then the tests."""
    first, second = readme_commands()
    assert "witness audit" in first and "examples/" in first
    assert "pytest" in second and "mypy" in second and "ruff" in second


def test_ci_runs_the_readmes_test_command() -> None:
    """`.ci/run` takes the README's second command and runs nothing else of its own."""
    script = (ROOT / ".ci" / "run").read_text()
    extraction, marker, rest = script.partition("if [ -z")
    assert marker, ".ci/run no longer checks that a test command was found"
    # After extracting the command it only refuses an empty one, shows it, and runs it: nothing else.
    steps = [line.strip() for line in (marker + rest).splitlines() if line.strip()]
    assert steps == ['if [ -z "$test_command" ]; then', 'echo ".ci/run: no test command found in README.md" >&2',
                     "exit 2", "fi", 'echo "+ $test_command"', 'exec bash -c "$test_command"']
    assert "test_command=" in extraction and "exec" not in extraction
    extracted = subprocess.run(
        ["bash", "-c", extraction + 'printf %s "$test_command"', ".ci/run"],
        capture_output=True, text=True, cwd=ROOT, timeout=30,
    ).stdout
    assert extracted == readme_commands()[1]


def test_readme_example_runs() -> None:
    """The README's main job on the shipped session: the masked test re-run leaves it open, exit 1."""
    witness = Path(sys.executable).with_name("witness")
    done = subprocess.run([str(witness), "audit", "examples/session.jsonl"], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    assert done.returncode == 1, done.stderr
    assert "OPEN: `npm test` (test)" in done.stdout
    assert 'did not count — masked: `; echo "exit: $?"` runs after the check' in done.stdout
    assert "resolved: `npm run lint` (lint)" in done.stdout


def test_example_commands_are_judged() -> None:
    """The example command file shows each verdict: witness, reporting pipe, masked, not a check."""
    witness = Path(sys.executable).with_name("witness")
    done = subprocess.run([str(witness), "check", "--batch", "examples/commands.txt", "--format", "text"],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 1, done.stderr
    for headline in ("witness:", "reporting pipe:", "masked:", "not a check:"):
        assert headline in done.stdout
