"""Promises the project makes about itself: public APIs, import hygiene, the README and CI."""

from __future__ import annotations

import ast
import importlib
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
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


@pytest.mark.parametrize("name", ["advisor.consult", "advisor.gateway", "advisor.install", "advisor.ledger",
                                  "advisor.models", "advisor.prompt", "advisor.orchestration",
                                  "advisor.openai_agents"])
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


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _runtime_nodes(tree: ast.AST) -> Iterator[ast.AST]:
    """Every node of a module, at any depth (function-level imports included), except under
    ``if TYPE_CHECKING:``, which never runs."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            stack.extend(node.orelse)
            continue
        yield node
        stack.extend(ast.iter_child_nodes(node))


def import_graph() -> dict[str, set[str]]:
    """Each module of the three packages and the modules of theirs it imports, lazily or not.

    ``from package import submodule`` is an edge to the submodule; ``from module import name``
    an edge to the module; a package's ``_LAZY`` table (the one way a package loads a name on first
    use: ``advisor._lazy``) an edge to each module it names. A package's ``__init__`` running before
    its submodules is not an edge: Python imports parents first in any case."""
    paths = {_module_name(path): path for name in PACKAGES for path in (ROOT / name).rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for module, path in paths.items():
        edges: set[str] = set()
        for node in _runtime_nodes(ast.parse(path.read_text(), filename=str(path))):
            edges.update(f"{module}.{name}" for name in lazy_table(node))
            if isinstance(node, ast.Import):
                edges.update(alias.name for alias in node.names if alias.name in paths)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
                    for _ in range(node.level - 1):
                        package = package.rpartition(".")[0]
                    base = f"{package}.{base}" if base else package
                for alias in node.names:
                    target = f"{base}.{alias.name}" if f"{base}.{alias.name}" in paths else base
                    if target in paths:
                        edges.add(target)
        graph[module] = edges
    return graph


def lazy_table(node: ast.AST) -> list[str]:
    """The modules a ``_LAZY = {name: module, …}`` assignment names (nothing for any other node)."""
    if not (isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "_LAZY" for t in node.targets)):
        return []
    assert isinstance(node.value, ast.Dict), "a _LAZY table is a dict literal, so that its edges can be read"
    return [value.value for value in node.value.values if isinstance(value, ast.Constant)
            and isinstance(value.value, str)]


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles: strongly connected groups of more than one module, or a module importing itself."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        order[module] = low[module] = len(order)
        stack.append(module)
        for target in graph[module]:
            if target not in order:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], order[target])
        if low[module] == order[module]:
            group = stack[stack.index(module):]
            del stack[stack.index(module):]
            if len(group) > 1 or module in graph[module]:
                found.append(sorted(group))

    for module in sorted(graph):
        if module not in order:
            visit(module)
    return found


def test_no_import_cycles() -> None:
    """No module of the three packages imports, however lazily, a module that imports it back."""
    graph = import_graph()
    assert {"advisor.cli._main", "advisor.hosts._stop", "obligations._tracker", "shellparse._api"} <= set(graph)
    assert cycles(graph) == []


ADVISOR_LAYERS: dict[str, int] = {"models": 1, "prompt": 2, "ledger": 3, "consult": 3, "hosts": 4, "gateway": 4,
                                  "orchestration": 4, "mcp": 4, "openai_agents": 5, "cli": 5, "__main__": 6}
"""The advisor's rooms in a straight line: models ← the request types ← {ledger, consult} ← {hosts, gateway,
orchestration, mcp} ← {cli, the Agents SDK adapter} ← ``python -m advisor``. Its own small modules (errors,
the home directory, values, the lazy loader) sit under all of them (0)."""
PEER_EDGES = {("mcp", "hosts")}
"""Rooms of one layer that may import each other: witness's MCP server finds the calling session's
transcript through ``hosts``, the only room that knows the hosts' files."""


def _room(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] != "advisor" or len(parts) == 1:
        return None  # another package, or the advisor package's own lazy facade
    return parts[1] if parts[1] in ADVISOR_LAYERS else "base"


def layering_violations(graph: dict[str, set[str]]) -> list[str]:
    """Imports from an advisor room to one in its own layer or above it (other than :data:`PEER_EDGES`)."""
    found = []
    for source, targets in sorted(graph.items()):
        room = _room(source)
        for target in sorted(targets):
            other = _room(target)
            if room is None or other is None or other == room or (room, other) in PEER_EDGES:
                continue
            if ADVISOR_LAYERS.get(other, 0) >= ADVISOR_LAYERS.get(room, 0):
                found.append(f"{source} -> {target}")
    return found


def test_the_advisor_is_a_straight_line_of_layers() -> None:
    """models ← prompt ← {ledger, consult} ← {hosts, gateway, orchestration, mcp} ← {cli, openai_agents}: no room
    imports one beside it or above it, however lazily — the ledger and the consultation never import each other."""
    graph = import_graph()
    assert {"advisor.prompt._request", "advisor.ledger._compiler", "advisor.consult._consult"} <= set(graph)
    assert layering_violations(graph) == []


def test_the_layering_check_finds_an_import_across_a_layer() -> None:
    """The check above can fail: the ledger importing the consultation, or the request types importing the
    ledger, is reported; an allowed peer edge and an import downwards are not."""
    graph = {"advisor.ledger._compiler": {"advisor.consult._tools", "advisor.prompt._request"},
             "advisor.prompt._request": {"advisor.ledger._compiler"},
             "advisor.mcp._answers": {"advisor.hosts._sessions"}}
    assert layering_violations(graph) == ["advisor.ledger._compiler -> advisor.consult._tools",
                                          "advisor.prompt._request -> advisor.ledger._compiler"]


def public_modules() -> list[str]:
    """Every package and subpackage of the three that has a public surface (``__all__``)."""
    names = []
    for init in sorted(ROOT.glob("*/**/__init__.py")):
        parts = init.relative_to(ROOT).parent.parts
        if parts[0] in PACKAGES and not any(part.startswith("_") for part in parts):
            names.append(".".join(parts))
    return [*names, "shellparse.errors", "obligations.errors", "advisor.errors"]


def test_no_public_name_is_exported_by_two_packages_as_different_objects() -> None:
    """One name per concept: a name exported by two packages (or subpackages) is the same object in both —
    never a chat message in one and a tracker event in the other."""
    exported: dict[str, list[tuple[str, object]]] = {}
    for name in public_modules():
        module = importlib.import_module(name)
        for item in module.__all__:
            exported.setdefault(item, []).append((name, getattr(module, item)))
    clashes = {item: [where for where, _ in found] for item, found in exported.items()
               if len({id(value) for _, value in found}) > 1}
    assert clashes == {}
    assert len(public_modules()) >= 15


@pytest.mark.parametrize("name", sorted(PACKAGES))
def test_every_exception_lives_in_its_packages_errors_module(name: str) -> None:
    """Each exception class a package defines is in that package's ``errors`` module, under its base
    (``ShellparseError``, ``ObligationsError``, ``AdvisorError``) — none in a private module beside the code."""
    errors = importlib.import_module(f"{name}.errors")
    base = getattr(errors, {"shellparse": "ShellparseError", "obligations": "ObligationsError",
                            "advisor": "AdvisorError"}[name])
    strays = []
    for path in sorted((ROOT / name).rglob("*.py")):
        module = importlib.import_module(_module_name(path))
        for value in vars(module).values():
            mine = isinstance(value, type) and issubclass(value, BaseException) and value.__module__ == module.__name__
            if mine and not (module.__name__.endswith(".errors") and issubclass(value, base)):
                strays.append(f"{module.__name__}.{value.__name__}")
    assert strays == []


JUDGES = {"shellparse": {"analyze", "parse", "failure_evidence", "not_run_evidence", "covers", "rewrite_evidence",
                         "marker_family"},
          "obligations": {"classify", "shell_command", "fingerprint", "normalize", "closes_by"}}
"""The functions that judge a command or a tool call: the tracker calls them, everything above reads its record."""
SHOWS_AN_ANALYSIS = {"advisor.cli._check"}
"""``witness check``, whose whole answer is shellparse's analysis of a command line."""


def judging_imports(module: str, source: str) -> list[str]:
    """The judging functions ``source`` (the module ``module``) imports or calls through its package."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module in JUDGES:
            found += [f"{module}: {node.module}.{a.name}" for a in node.names if a.name in JUDGES[node.module]]
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and \
                node.attr in JUDGES.get(node.value.id, ()):
            found.append(f"{module}: {node.value.id}.{node.attr}")
    return found


def test_nothing_above_the_tracker_judges_a_tool_call_again() -> None:
    """One judge per fact: no advisor module reads a command or a result itself (its kind, its checks, its outcome,
    its fingerprint); each reads the tracker's ``CallRecord`` and reports; ``witness check`` alone shows an analysis."""
    found = []
    for path in sorted((ROOT / "advisor").rglob("*.py")):
        module = _module_name(path)
        if module not in SHOWS_AN_ANALYSIS:
            found += judging_imports(module, path.read_text(encoding="utf-8"))
    assert found == []
    assert sorted(judging_imports("m", "import obligations\nobligations.classify(c)\nfrom shellparse import analyze")) \
        == ["m: obligations.classify", "m: shellparse.analyze"]


def test_positional_construction_only_where_its_benchmark_row_keeps_it() -> None:
    """Named tuples are built by keyword; a module that builds them positionally (``tuple.__new__``, skipping the
    generated constructor) is one whose row in ``benchmarks/construct_bench.py`` shows it pays."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        construct_bench = importlib.import_module("construct_bench")
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    positional = sorted(_module_name(path).rsplit(".", 1)[1] for name in PACKAGES
                        for path in (ROOT / name).rglob("*.py") if "tuple.__new__" in path.read_text(encoding="utf-8"))
    assert positional == sorted(construct_bench.MODULES)


def test_every_lazy_package_loads_through_one_table() -> None:
    """A package that loads names on first use does it one way: a module ``__getattr__`` reading its ``_LAZY``
    table (which the import-graph test reads), and every name the table lists is public and loads."""
    lazy = []
    for name in PACKAGES_WITH_LAZY_NAMES:
        module = importlib.import_module(name)
        source = ast.parse(Path(module.__file__ or "").read_text())
        assert any(lazy_table(node) for node in ast.walk(source)), name
        for item in module._LAZY:
            assert item in module.__all__ and getattr(module, item) is not None, (name, item)
        lazy.append(name)
    getters = {".".join(path.relative_to(ROOT).parent.parts) for name in PACKAGES for path in (ROOT / name).rglob(
        "__init__.py") if "def __getattr__" in path.read_text()}
    assert getters == set(lazy)


PACKAGES_WITH_LAZY_NAMES = ("shellparse", "advisor", "advisor.cli", "advisor.hosts")


def test_the_cycle_finder_finds_cycles() -> None:
    """A lazy import back to a module that imports its importer is a cycle (the check above can fail)."""
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"a"}}) == [["a"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_importing_shellparse_stays_light() -> None:
    """Start-up matters for hooks: shellparse imports no pydantic, click, rich or hypothesis, and
    loads the PowerShell grammar only when asked for PowerShell."""
    code = ("import sys, shellparse; shellparse.analyze('npm test | tail'); "
            "print(sorted(m for m in ('pydantic', 'click', 'rich', 'hypothesis', 'tree_sitter_pwsh', "
            "'tree_sitter_pwsh._binding') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}, cwd=ROOT)
    assert done.stdout.strip() == "[]", done.stderr


SDKS_AND_SERVERS = ("openai", "anthropic", "mcp", "starlette", "uvicorn", "httpx", "httpx2")
"""What no hook or check process may load: model SDKs, web frameworks, HTTP clients."""

_RECORD = """
import sys
from advisor.cli import main
record, args = sys.argv[1], sys.argv[2:]
try:
    main(args)
finally:
    loaded = sorted(sys.modules)
    import json  # after the count: `witness check` itself may not need it

    with open(record, "w") as handle:
        json.dump(loaded, handle)
"""


def modules_loaded(tmp_path: Path, args: list[str], stdin: bytes = b"") -> set[str]:
    """The modules a `witness ARGS` process has imported by its end (bytecode not written, as in
    an editable install under ``PYTHONDONTWRITEBYTECODE``)."""
    record = tmp_path / "modules.json"
    done = subprocess.run([sys.executable, "-c", _RECORD, str(record), *args], input=stdin, capture_output=True,
                          timeout=60, cwd=ROOT, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1",
                                                     "WITNESS_HOME": str(tmp_path / "home")})
    assert record.exists(), done.stderr
    return set(json.loads(record.read_text()))


def _loaded(modules: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(name for name in names if any(m == name or m.startswith(name + ".") for m in modules))


def test_importing_advisor_stays_light() -> None:
    """`import advisor` loads no SDK, web framework or HTTP client, and not even click, pydantic or the tracker."""
    code = "import sys, json, advisor; print(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)
    modules = set(json.loads(done.stdout))
    assert _loaded(modules, (*SDKS_AND_SERVERS, "click", "pydantic", "shellparse", "obligations")) == []


def test_the_advisor_host_and_witness_packet_load_no_sdk(tmp_path: Path) -> None:
    """`advisor.AdvisorHost` and `witness packet` load no SDK, server or HTTP client (the SDKs load with a model)."""
    code = "import sys, json, advisor; advisor.AdvisorHost; print(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert _loaded(set(json.loads(done.stdout)), (*SDKS_AND_SERVERS, "agents")) == []
    packet = modules_loaded(tmp_path, ["packet", "examples/session.jsonl", "--json"])
    assert _loaded(packet, (*SDKS_AND_SERVERS, "agents")) == []


def test_witness_check_imports_only_what_check_needs(tmp_path: Path) -> None:
    """A `witness check` process loads shellparse and its own modules: no SDK or server, no click, no
    tracker or pydantic, nothing of `audit` or `hook`, and not OpenSSL's `hashlib` or `base64`."""
    modules = modules_loaded(tmp_path, ["check", "--json", "--", "cd api && npm test 2>&1 | tail -5"])
    assert "advisor.cli._check" in modules and "shellparse._api" in modules
    others = ("click", "pydantic", "obligations", "orjson", "rich", "advisor.hosts", "advisor.ledger",
              "advisor.cli._audit", "advisor.cli._audit_report", "advisor.cli._hook", "advisor.cli._group",
              "advisor.cli._consult", "advisor.cli._log", "hashlib", "base64")
    assert _loaded(modules, (*SDKS_AND_SERVERS, *others)) == []


def test_witness_check_printing_text_loads_only_the_analysis(tmp_path: Path) -> None:
    """A `witness check` printing its verdict as text loads no JSON codec, no output markers (they judge
    what a check printed), no Unicode database for an ASCII command, and neither `importlib.util` nor
    `binascii` (PowerShell's encoded commands) nor the PowerShell grammar."""
    modules = modules_loaded(tmp_path, ["check", "--", "cd api && npm test 2>&1 | tail -5"])
    assert {"advisor.cli._check", "advisor.cli._verdict", "shellparse._api"} <= modules
    others = ("json", "shellparse._markers", "unicodedata", "importlib.util", "binascii", "base64",
              "tree_sitter_pwsh", "shellparse._pwsh")
    assert _loaded(modules, others) == []
    assert "json" in modules_loaded(tmp_path, ["check", "--json", "--", "npm test"])


def test_the_check_paths_named_tuples_have_no_string_annotations(tmp_path: Path) -> None:
    """No NamedTuple class a `witness check` process makes has a field annotated by a string (`typing` would
    compile each one as the class is made, and the process's first compile is costly)."""
    code = ("import sys, typing; from advisor.cli import _fast, _check, _verdict; import shellparse._analysis; "
            "print([f'{m.__name__}.{n}.{f}' for m in list(sys.modules.values()) "
            "if m.__name__.startswith(('shellparse', 'advisor')) "
            "for n, c in vars(m).items() if isinstance(c, type) and issubclass(c, tuple) and "
            "c.__module__ == m.__name__ for f, a in getattr(c, '__annotations__', {}).items() "
            "if isinstance(a, (str, typing.ForwardRef))])")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.stdout.strip() == "[]", done.stdout + done.stderr


def test_output_markers_load_when_first_used() -> None:
    """`shellparse`'s output markers are public names that load their module on first use, as the
    same objects, and then sit in the package like any other name; unknown names still fail."""
    code = ("import sys, shellparse; loaded = 'shellparse._markers' in sys.modules; "
            "found = shellparse.failure_evidence; from shellparse import not_run_evidence; "
            "import shellparse._markers as markers; "
            "print(loaded, found is markers.failure_evidence, not_run_evidence is markers.not_run_evidence, "
            "'failure_evidence' in vars(shellparse), 'rewrite_evidence' in dir(shellparse), "
            "hasattr(shellparse, 'no_such_name'))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.stdout.split() == ["False", "True", "True", "True", "True", "False"], done.stderr
    assert set(shellparse._LAZY) <= set(shellparse.__all__)


def test_a_grammar_loads_directly_or_through_its_package_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    """The grammar's compiled module, loaded from its file, parses as the grammar package does; when the
    file is not where the package usually puts it, or the package is found another way, the normal
    import serves."""
    import tree_sitter

    from shellparse import _grammars

    def tree(module: object) -> str:
        parser = tree_sitter.Parser(tree_sitter.Language(module.language()))  # type: ignore[attr-defined]
        return str(parser.parse(b"cd api && npm test 2>&1 | tail -5").root_node)

    direct = _grammars._binding("tree_sitter_bash")
    assert direct.__name__ == "tree_sitter_bash._binding"
    monkeypatch.setattr("importlib.machinery.EXTENSION_SUFFIXES", [])
    no_file = _grammars._binding("tree_sitter_bash")
    monkeypatch.undo()
    monkeypatch.setattr("importlib.machinery.PathFinder.find_spec", lambda *_args, **_kwargs: None)
    not_found = _grammars._binding("tree_sitter_bash")  # (already imported: the import finds it loaded)
    monkeypatch.undo()
    assert no_file.__name__ == not_found.__name__ == "tree_sitter_bash"
    assert tree(direct) == tree(no_file) == tree(not_found)


@pytest.mark.parametrize("enabled", [True, False])
def test_witness_check_in_process_leaves_the_collector_as_it_was(enabled: bool,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """`main(args)` called by a program pauses the garbage collector only while it checks, and freezes
    nothing: that is for the `witness` process alone, which ends with the check."""
    import gc

    from advisor.cli import main

    (gc.enable if enabled else gc.disable)()
    try:
        assert main(["check", "--", "npm test | tail -5"]) == 0
        assert main(["check", "--batch", str(ROOT / "examples" / "commands.txt")]) in (0, 1)
        assert gc.isenabled() is enabled
        assert gc.get_freeze_count() == 0
    finally:
        gc.enable()
    assert "reporting pipe" in capsys.readouterr().out


def test_only_the_witness_process_itself_freezes_the_collector() -> None:
    """A program that sets `sys.argv` and calls `main()` gets its collector back unfrozen; the `witness` command
    (which does freeze, as it ends) prints the same verdict."""
    code = ("import gc, sys; from advisor.cli import main; "
            "sys.argv = ['witness', 'check', '--', 'npm test | tail -5']; code = main(); "
            "print(code, gc.get_freeze_count(), gc.isenabled(), file=sys.stderr)")
    program = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert program.stderr.split() == ["0", "0", "True"], program.stderr
    witness = str(Path(sys.executable).with_name("witness"))
    command = subprocess.run([witness, "check", "--", "npm test | tail -5"], capture_output=True, text=True,
                             timeout=60, cwd=ROOT)
    assert (command.returncode, command.stdout) == (0, program.stdout) and "reporting pipe" in command.stdout


def test_witness_hook_answers_tool_events_with_almost_nothing_loaded(tmp_path: Path) -> None:
    """A `witness hook` process answering PostToolUse loads neither the analyser nor the tracker,
    click, pydantic, SDKs or servers, nor anything of `check` or `audit` — not even `typing`."""
    payload = json.dumps({"hook_event_name": "PostToolUse", "tool_name": "Bash",
                          "tool_input": {"command": "npm test"}}).encode()
    modules = modules_loaded(tmp_path, ["hook", "claude-code"], payload)
    assert "advisor.hosts._hook" in modules
    others = ("click", "pydantic", "shellparse", "obligations", "typing", "rich", "advisor.hosts._stop",
              "advisor.cli._check", "advisor.cli._fast", "advisor.cli._verdict", "advisor.cli._audit",
              "advisor.cli._group", "advisor.ledger", "advisor.cli._consult")
    assert _loaded(modules, (*SDKS_AND_SERVERS, *others)) == []


def test_witness_hook_stop_imports_the_tracker_and_nothing_of_other_commands(tmp_path: Path) -> None:
    """A Stop call replays the transcript (the tracker, pydantic) and still loads no SDK, server or
    click, and nothing of `check` or `audit`."""
    payload = json.dumps({"hook_event_name": "Stop", "session_id": "s",
                          "transcript_path": str(ROOT / "examples" / "session.jsonl")}).encode()
    modules = modules_loaded(tmp_path, ["hook", "claude-code"], payload)
    assert {"advisor.hosts._stop", "obligations._tracker", "obligations.sources._claude"} <= modules
    others = ("click", "rich", "advisor.ledger", "advisor.cli._check", "advisor.cli._fast", "advisor.cli._verdict",
              "advisor.cli._audit", "advisor.cli._group", "obligations.sources._codex", "obligations.sources._pi")
    assert _loaded(modules, (*SDKS_AND_SERVERS, *others)) == []


def test_the_stop_hooks_models_are_built_without_reading_source() -> None:
    """Importing what a Stop call needs reads no source file of ours: no model extracts its field
    docstrings from source (pydantic's `use_attribute_docstrings`), which would cost every Stop call."""
    code = ("import linecache, obligations, advisor.hosts._stop; "
            "print(sorted(name for name in linecache.cache if name.startswith(sys.argv[1])))")
    done = subprocess.run([sys.executable, "-c", "import sys; " + code, str(ROOT)], capture_output=True, text=True,
                          timeout=60, cwd=ROOT)
    assert done.stdout.strip() == "[]", done.stdout + done.stderr


def test_a_dry_run_piped_loads_no_sdk_and_no_rich(tmp_path: Path) -> None:
    """`witness consult --dry-run` into a pipe compiles the ledger without an SDK, HTTP client or rich."""
    modules = modules_loaded(tmp_path, ["consult", "--dry-run", "--json", str(ROOT / "examples" / "session.jsonl")])
    assert {"advisor.ledger._compiler", "advisor.cli._consult"} <= modules
    assert _loaded(modules, (*SDKS_AND_SERVERS, "rich")) == []


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


def test_no_tracked_file_holds_a_merge_conflict_marker() -> None:
    """No tracked text file carries an unresolved merge conflict (the README's first block is CI's command)."""
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    marker = re.compile(rb"^(<{7}|>{7})( |$)", re.M)
    texts = {".md", ".py", ".toml", ".jsonl", ".json", ".txt", ".cfg"}
    paths = [ROOT / name for name in tracked.decode().split("\0") if Path(name).suffix in texts]
    conflicted = [str(path.relative_to(ROOT)) for path in paths if path.is_file() and marker.search(path.read_bytes())]
    assert conflicted == []
