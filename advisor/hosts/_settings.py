"""The Stop hook's settings, from the environment the host runs it in.

=========================  ===========================================================  =======
variable                   meaning                                                      default
=========================  ===========================================================  =======
``WITNESS_POLICY``         ``seed`` (a reporting pipe such as ``| tail`` counts as a     ``seed``
                           re-run) or ``strict`` (it does not)
``WITNESS_STOP_BLOCKS``    blocks per agent and task, a whole number ≥ 0                 ``3``
``WITNESS_HOOK_DEADLINE``  seconds a hook call may take before it allows the stop        ``20``
                           (a number > 0, at most 3600; the hosts' own hook time-out    (``150``
                           is 60 s unless configured)                                   with
                                                                                        ``--review``)
``WITNESS_HOME``           where the block counts and kept replays are (an absolute     ``~/.local/
                           path; ``~`` is the user's home)                              state/witness``
=========================  ===========================================================  =======

A value that is set but not one of these is a configuration error, raised as ``ConfigError``
naming the variable: the hook then checks nothing and says so to the user, rather than guessing
what was meant (a mistyped ``strict`` must not quietly become ``seed``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import NamedTuple

from advisor._home import home_setting
from advisor.errors import ConfigError
from obligations import REMINDER_BUDGET
from shellparse import POLICIES, Policy

from ._constants import DEADLINE_VARIABLE, DEFAULT_DEADLINE, MAX_DEADLINE, REVIEW_DEADLINE
from ._deadline import deadline_seconds


class HookSettings(NamedTuple):
    """What the environment asks of the hook."""

    policy: Policy
    """The pipe policy re-runs are judged by."""
    blocks: int
    """How many times an agent's stop may be blocked in one task."""
    deadline: float
    """Seconds the hook call may take."""


def hook_settings(environ: Mapping[str, str] | None = None, *, review: bool = False) -> HookSettings:
    """The settings in ``environ`` (default: the process environment); ``review`` for ``--review``'s
    default deadline. Raises ``ConfigError``."""
    env = os.environ if environ is None else environ
    home_setting(env)  # raises ConfigError for a WITNESS_HOME the hook's state cannot be kept under
    return HookSettings(pipe_policy(env), blocks_allowed(env), deadline(env, REVIEW_DEADLINE if review else None))


def pipe_policy(env: Mapping[str, str]) -> Policy:
    """``WITNESS_POLICY``."""
    value = env.get("WITNESS_POLICY", "").strip()
    if not value:
        return "seed"
    for known in POLICIES:
        if value == known:
            return known
    raise ConfigError(f"WITNESS_POLICY={value!r} is not a policy: use seed (a reporting pipe such as `| tail` "
                      "counts as a re-run) or strict (it does not)")


def blocks_allowed(env: Mapping[str, str]) -> int:
    """``WITNESS_STOP_BLOCKS``."""
    value = env.get("WITNESS_STOP_BLOCKS", "").strip()
    if not value:
        return REMINDER_BUDGET
    if not value.isdecimal() or not value.isascii():
        raise ConfigError(f"WITNESS_STOP_BLOCKS={value!r} is not a whole number of blocks (0 or more)")
    return int(value)


def deadline(env: Mapping[str, str], default: float | None = None) -> float:
    """``WITNESS_HOOK_DEADLINE`` (``default`` when it is not set, else :data:`DEFAULT_DEADLINE`)."""
    value = env.get(DEADLINE_VARIABLE, "").strip()
    if not value:
        return DEFAULT_DEADLINE if default is None else default
    seconds = deadline_seconds(value)
    if seconds is None:
        raise ConfigError(f"{DEADLINE_VARIABLE}={value!r} is not a number of seconds greater than 0 and at most "
                          f"{MAX_DEADLINE:g}")
    return seconds
