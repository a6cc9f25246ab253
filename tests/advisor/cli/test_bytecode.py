"""Compiled copies of witness's own modules under `$WITNESS_HOME/bytecode` when Python writes no
bytecode: kept by the console script only, for its own packages only, used while their source is
unchanged, and never a reason for a command to fail."""

from __future__ import annotations

import importlib
import importlib.util
import marshal
import os
import py_compile
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from advisor.cli import _bytecode, main
from advisor.cli._bytecode import CopiesFinder, CopyingLoader
from tests.advisor.sessions import WITNESS

ROOT = Path(__file__).resolve().parents[3]
COMMAND = "cd api && npm test 2>&1 | tail -5"


PACKAGES = ("shellparse", "obligations", "advisor")


@pytest.fixture(scope="module")
def sources(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The three packages as an editable install has them under ``PYTHONDONTWRITEBYTECODE``: sources only."""
    folder = tmp_path_factory.mktemp("sources")
    for package in PACKAGES:
        shutil.copytree(ROOT / package, folder / package, ignore=shutil.ignore_patterns("__pycache__"))
    return folder


def witness_env(sources: Path, home: Path, **env: str) -> dict[str, str]:
    """An environment that runs witness from ``sources`` and tells Python to write no bytecode."""
    return {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONPATH": str(sources), "WITNESS_HOME": str(home),
            **env}


def run_witness(sources: Path, home: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """The `witness` console script, from ``sources``, with Python writing no bytecode."""
    return subprocess.run([WITNESS, *args], capture_output=True, text=True, timeout=60, cwd=ROOT,
                          env=witness_env(sources, home, **env))


def copies(home: Path) -> dict[Path, int]:
    """Every compiled copy under ``home``, with the time it was written."""
    return {path: path.stat().st_mtime_ns for path in (home / "bytecode").rglob("*.pyc")}


def test_the_console_script_keeps_copies_of_its_own_modules_and_of_nothing_else(sources: Path,
                                                                                 tmp_path: Path) -> None:
    """A `witness check` process writes compiled copies of the shellparse and advisor modules it loads, at
    their sources' paths mirrored under `$WITNESS_HOME/bytecode`, none of another package, and says the same."""
    done = run_witness(sources, tmp_path, "check", "--", COMMAND)
    kept = copies(tmp_path)
    mirrored = {path.relative_to(tmp_path / "bytecode").with_suffix("").with_suffix(".py") for path in kept}
    packages = {(sources / name).relative_to(sources.anchor) for name in PACKAGES}
    assert (sources / "shellparse" / "_analysis.py").relative_to(sources.anchor) in mirrored
    assert (sources / "advisor" / "cli" / "_check.py").relative_to(sources.anchor) in mirrored
    assert all(any(package in source.parents for package in packages) for source in mirrored)
    assert all(path.name.endswith(f".{sys.implementation.cache_tag}.pyc") for path in kept)
    assert not list(sources.rglob("__pycache__"))
    assert (tmp_path / "bytecode").stat().st_mode & 0o777 == 0o700
    off = run_witness(sources, tmp_path / "off", "check", "--", COMMAND, WITNESS_BYTECODE_CACHE="0")
    assert (done.returncode, done.stdout) == (off.returncode, off.stdout) and "reporting pipe" in done.stdout
    assert not (tmp_path / "off" / "bytecode").exists()


def test_a_second_process_reads_the_copies_and_writes_none(sources: Path, tmp_path: Path) -> None:
    """The next `witness` process finds every copy it needs valid: it rewrites none of them."""
    run_witness(sources, tmp_path, "check", "--", COMMAND)
    first = copies(tmp_path)
    again = run_witness(sources, tmp_path, "check", "--", COMMAND)
    assert again.returncode == 0 and first and copies(tmp_path) == first


def test_code_compiled_without_asserts_never_runs_with_them(sources: Path, tmp_path: Path) -> None:
    """A process under `python -O` keeps copies of its own, apart from those of a process without it."""
    run_witness(sources, tmp_path, "check", "--", COMMAND)
    plain = copies(tmp_path)
    done = subprocess.run([sys.executable, "-O", WITNESS, "check", "--", COMMAND], capture_output=True, text=True,
                          timeout=60, cwd=ROOT, env=witness_env(sources, tmp_path))
    optimised = set(copies(tmp_path)) - set(plain)
    assert done.returncode == 0 and optimised and all(".opt-1." in path.name for path in optimised)
    assert all(copies(tmp_path)[path] == written for path, written in plain.items())


def test_an_unwritable_state_directory_changes_nothing_the_user_sees(sources: Path, tmp_path: Path) -> None:
    """With `$WITNESS_HOME` a file (nothing can be written under it), `witness check` says and exits as ever."""
    blocked = tmp_path / "home"
    blocked.write_text("not a directory")
    done = run_witness(sources, blocked, "check", "--", COMMAND)
    off = run_witness(sources, tmp_path / "off", "check", "--", COMMAND, WITNESS_BYTECODE_CACHE="0")
    assert (done.returncode, done.stdout, done.stderr) == (off.returncode, off.stdout, off.stderr)


def imported_by(sources: Path, home: Path, *args: str, stdin: str = "", **env: str) -> set[str]:
    """The modules a `witness ARGS` console-script process imports, keeping copies under ``home``."""
    done = subprocess.run([sys.executable, "-X", "importtime", WITNESS, *args], input=stdin, capture_output=True,
                          text=True, timeout=60, cwd=ROOT, env=witness_env(sources, home, **env))
    return {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time")}


def test_the_check_keeping_copies_loads_what_it_loads_without_them(sources: Path, tmp_path: Path) -> None:
    """A `witness check` console-script process keeping copies imports the modules it imports with them off,
    and the finder's own: neither `importlib.util` nor `hashlib`, whether it writes the copies or reads them."""
    without = imported_by(sources, tmp_path, "check", "--", COMMAND, WITNESS_BYTECODE_CACHE="0")
    for _ in ("writing", "reading"):
        assert imported_by(sources, tmp_path / "home", "check", "--", COMMAND) == without | {"advisor.cli._bytecode"}
    assert not {"importlib.util", "hashlib"} & without


def test_the_hook_keeping_copies_still_loads_neither_typing_nor_importlib_util(sources: Path,
                                                                              tmp_path: Path) -> None:
    """The finder adds nothing heavy to the lightest path: a PostToolUse answer, as the console script."""
    payload = '{"hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_input": {"command": "npm test"}}'
    imported = imported_by(sources, tmp_path, "hook", "claude-code", stdin=payload)
    assert "advisor.cli._bytecode" in imported and "advisor.hosts._hook" in imported
    assert not {"typing", "importlib", "importlib.util", "contextlib"} & imported
    assert copies(tmp_path)


def test_a_program_calling_main_gets_no_finder(monkeypatch: pytest.MonkeyPatch) -> None:
    """`main(args)` inside another program that writes no bytecode leaves `sys.meta_path` alone: the copies
    are the command's affair."""
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    before = list(sys.meta_path)
    assert main(["check", "--", "npm test"]) == 0
    assert sys.meta_path == before and not _bytecode.installed()


def test_a_directory_others_may_enter_or_a_link_keeps_no_copies(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Copies are code every verdict runs: a directory another user could write, or a link to one, is not used."""
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    monkeypatch.setattr(sys, "meta_path", list(sys.meta_path))
    monkeypatch.delenv("WITNESS_BYTECODE_CACHE", raising=False)
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o777)
    shared.chmod(0o777)
    (tmp_path / "link").symlink_to(tmp_path / "private")
    (tmp_path / "private").mkdir(mode=0o700)
    assert _bytecode.install(str(shared)) is False and _bytecode.install(str(tmp_path / "link")) is False
    assert not _bytecode.installed()
    assert _bytecode.install(str(tmp_path / "new" / "bytecode")) is True
    assert (tmp_path / "new" / "bytecode").stat().st_mode & 0o777 == 0o700


@pytest.mark.parametrize(("writes_bytecode", "switch"), [(True, ""), (False, "0"), (False, "off"), (False, "False")])
def test_the_copies_stay_off_where_python_writes_bytecode_or_they_are_switched_off(
        writes_bytecode: bool, switch: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`install` adds no finder when Python keeps its own `__pycache__`, or when `WITNESS_BYTECODE_CACHE` says off."""
    monkeypatch.setattr(sys, "dont_write_bytecode", not writes_bytecode)
    monkeypatch.setenv("WITNESS_BYTECODE_CACHE", switch)
    monkeypatch.setattr(sys, "meta_path", list(sys.meta_path))
    assert _bytecode.install(str(tmp_path)) is False and not _bytecode.installed()


# -- the finder and the loader, on a package of the test's own ---------------------------------------


@pytest.fixture
def demo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A package `demo_copies` with one module, importable through a finder keeping copies for it alone."""
    package = tmp_path / "src" / "demo_copies"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "mod.py").write_text("VALUE = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path / "src"))
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    monkeypatch.setattr(sys, "meta_path", [CopiesFinder(str(tmp_path / "copies"), frozenset({"demo_copies"})),
                                           *sys.meta_path])
    yield package
    for name in [name for name in sys.modules if name.partition(".")[0] == "demo_copies"]:
        del sys.modules[name]


def fresh_import(name: str) -> ModuleType:
    """``name`` imported anew, as a new process would."""
    for loaded in [loaded for loaded in sys.modules if loaded.partition(".")[0] == name.partition(".")[0]]:
        del sys.modules[loaded]
    importlib.invalidate_caches()
    return importlib.import_module(name)


def copy_of(module: ModuleType) -> Path:
    """Where the finder keeps the compiled copy of ``module``."""
    assert module.__spec__ is not None and module.__file__ is not None
    loader = module.__spec__.loader
    assert isinstance(loader, CopyingLoader)
    return Path(loader.copy_path(module.__file__))


def test_a_copy_is_used_while_its_source_is_unchanged(demo: Path) -> None:
    """A copy whose header matches the source is what runs, even when it says otherwise than the source."""
    copy = copy_of(fresh_import("demo_copies.mod"))
    data = copy.read_bytes()
    copy.write_bytes(data[:16] + marshal.dumps(compile("VALUE = 2\n", str(demo / "mod.py"), "exec")))
    assert fresh_import("demo_copies.mod").VALUE == 2


def test_an_edited_source_is_compiled_afresh(demo: Path) -> None:
    """Once the source changes, its old copy is not used, and a new one replaces it."""
    copy = copy_of(fresh_import("demo_copies.mod"))
    old = copy.read_bytes()
    (demo / "mod.py").write_text("VALUE = 33  # edited\n")
    assert fresh_import("demo_copies.mod").VALUE == 33
    assert copy.read_bytes() != old


def test_a_same_size_edit_is_compiled_afresh_whatever_its_times(demo: Path) -> None:
    """A copy is validated by its source's content: an edit of the same size, its times set back to the old
    ones (a reproducible build or a copy that keeps them), runs the new source."""
    module = fresh_import("demo_copies.mod")
    before = os.stat(module.__file__ or "")
    (demo / "mod.py").write_text("VALUE = 7\n")
    os.utime(demo / "mod.py", ns=(before.st_atime_ns, before.st_mtime_ns))
    assert fresh_import("demo_copies.mod").VALUE == 7


def test_a_copy_from_another_interpreter_is_compiled_over(demo: Path) -> None:
    """A copy whose magic number is not this interpreter's is never run."""
    copy = copy_of(fresh_import("demo_copies.mod"))
    data = copy.read_bytes()
    copy.write_bytes(b"\x00\x00" + data[2:16] + marshal.dumps(compile("VALUE = 2\n", str(demo / "mod.py"), "exec")))
    assert fresh_import("demo_copies.mod").VALUE == 1
    assert copy.read_bytes() == data


def test_a_source_this_process_could_not_rewrite_gets_no_copy(demo: Path, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """For a read-only install, a planted copy would be a way to change what runs: none is read or written."""
    copy = copy_of(fresh_import("demo_copies.mod"))
    copy.write_bytes(copy.read_bytes()[:16] + marshal.dumps(compile("VALUE = 2\n", str(demo / "mod.py"), "exec")))
    monkeypatch.setattr(os, "access", lambda path, mode: False)
    assert fresh_import("demo_copies.mod").VALUE == 1
    copy.unlink()
    fresh_import("demo_copies.mod")
    assert not copy.exists()


@pytest.mark.parametrize("damage", [b"", b"\x00" * 8, None])
def test_a_damaged_copy_is_compiled_afresh(damage: bytes | None, demo: Path) -> None:
    """A truncated copy, or one whose code is not marshalled code, is compiled over, never trusted."""
    copy = copy_of(fresh_import("demo_copies.mod"))
    data = copy.read_bytes()
    copy.write_bytes(data[:16] + (marshal.dumps("not code") if damage is None else damage))
    assert fresh_import("demo_copies.mod").VALUE == 1
    assert copy.read_bytes() == data


@pytest.mark.parametrize("mode", list(py_compile.PycInvalidationMode))
def test_a_valid_pycache_file_is_preferred_and_nothing_is_written(mode: py_compile.PycInvalidationMode,
                                                                  demo: Path, tmp_path: Path) -> None:
    """Where Python's own `__pycache__` holds bytecode it would accept, timestamped or hash-based (a compiled or
    reproducible install), that is what runs, under the source's own path, and the finder writes nothing."""
    for name in ("__init__.py", "mod.py"):
        py_compile.compile(str(demo / name), doraise=True, invalidation_mode=mode)
    cached = importlib.util.cache_from_source(str(demo / "mod.py"))
    moved = "VALUE = 3\ndef where():\n    return where.__code__.co_filename\n"
    Path(cached).write_bytes(Path(cached).read_bytes()[:16] + marshal.dumps(
        compile(moved, str(tmp_path / "elsewhere" / "mod.py"), "exec")))  # as if the tree had moved since
    module = fresh_import("demo_copies.mod")
    assert (module.VALUE, module.where()) == (3, str(demo / "mod.py"))
    assert not (tmp_path / "copies").exists()


def test_a_stale_pycache_file_is_passed_over_for_a_copy(demo: Path, tmp_path: Path) -> None:
    """A `__pycache__` file left from before an edit is not run; the copy of the edited source is."""
    py_compile.compile(str(demo / "mod.py"), doraise=True)
    (demo / "mod.py").write_text("VALUE = 44  # edited since\n")
    assert fresh_import("demo_copies.mod").VALUE == 44
    assert list((tmp_path / "copies").rglob("mod.*.pyc"))


def test_an_unwritable_directory_only_means_compiling(demo: Path, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Copies that cannot be written leave the import as it would be, and no partial file behind."""
    (tmp_path / "blocked").write_text("a file where the directory would be")
    monkeypatch.setattr(sys, "meta_path", [CopiesFinder(str(tmp_path / "blocked"), frozenset({"demo_copies"})),
                                           *sys.meta_path[1:]])
    assert fresh_import("demo_copies.mod").VALUE == 1
    assert sorted(path.name for path in tmp_path.iterdir()) == ["blocked", "src"]


def test_other_packages_are_left_to_python(demo: Path, tmp_path: Path) -> None:
    """A module outside the finder's packages keeps the loader Python gives it, and gets no copy."""
    (tmp_path / "src" / "demo_other.py").write_text("VALUE = 5\n")
    try:
        spec = fresh_import("demo_other").__spec__
        assert spec is not None and type(spec.loader) is importlib.machinery.SourceFileLoader
    finally:
        sys.modules.pop("demo_other", None)
    assert not (tmp_path / "copies").exists()


def test_the_header_is_the_one_importlib_publishes(demo: Path) -> None:
    """A copy's header is a checked hash-based `.pyc` header as `importlib.util` makes it for the source."""
    copy = copy_of(fresh_import("demo_copies.mod"))
    source = (demo / "mod.py").read_bytes()
    expected = importlib.util.MAGIC_NUMBER + (0b11).to_bytes(4, "little") + importlib.util.source_hash(source)
    assert copy.read_bytes()[:16] == expected
