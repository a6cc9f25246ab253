"""Suite-wide settings: Hypothesis profiles, the shared fixtures (the scripted model server), a
state directory of the run's own, and a guard that a run which tested nothing fails."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

pytest_plugins = ("tests.support.fixtures",)

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


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """A run in which no test passed is a failure, even if nothing failed (CI must not go green
    on an empty or all-skipped run)."""
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None or exitstatus != 0:
        return
    if not reporter.stats.get("passed"):
        session.exitstatus = pytest.ExitCode.NO_TESTS_COLLECTED
