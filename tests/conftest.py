"""Suite-wide settings: Hypothesis profiles, the shared fixtures (the scripted model server), a
state directory of the run's own, a guard that a run which tested nothing fails, and one that a
run which left files in the checkout fails."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

pytest_plugins = ("tests.support.fixtures",)
ROOT = Path(__file__).resolve().parent.parent
_UNTRACKED = pytest.StashKey["set[str] | None"]()

# Hypothesis loads its own `ci` profile (derandomised, no deadline) when CI is set. Locally the
# default profile is kept, without a deadline: timings on a shared machine are noise.
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
if not os.environ.get("CI"):
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


@pytest.fixture(autouse=True, scope="session")
def _witness_home(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Every `witness` process the tests start writes its state (block counts, logs, compiled copies)
    under a temporary directory, never the developer's own; a test that needs its own sets it."""
    os.environ["WITNESS_HOME"] = str(tmp_path_factory.mktemp("witness-home"))


def _untracked() -> set[str] | None:
    """The checkout's untracked files that git does not ignore; ``None`` outside a git checkout."""
    try:
        done = subprocess.run(["git", "-C", str(ROOT), "ls-files", "--others", "--exclude-standard", "-z"],
                              capture_output=True, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None
    return set(os.fsdecode(done.stdout).split("\0")) - {""}


def _controller(session: pytest.Session) -> bool:
    """Whether this process runs the session (not one of pytest-xdist's workers)."""
    return not hasattr(session.config, "workerinput")


def pytest_sessionstart(session: pytest.Session) -> None:
    if _controller(session):
        session.config.stash[_UNTRACKED] = _untracked()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """A run in which no test passed is a failure, even if nothing failed (CI must not go green
    on an empty or all-skipped run); so is a run that left new files in the checkout (every test
    writes under a temporary directory, and every command run under real bash runs in one)."""
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    before = session.config.stash.get(_UNTRACKED, None) if _controller(session) else None
    if before is not None:
        left = sorted((_untracked() or set()) - before)
        if left:
            if reporter is not None:
                reporter.write_line(f"the run left files in the checkout: {', '.join(left)}", red=True)
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
            return
    if reporter is None or exitstatus != 0:
        return
    if not reporter.stats.get("passed"):
        session.exitstatus = pytest.ExitCode.NO_TESTS_COLLECTED
