"""The ``witness`` entry point.

The command line is a click group (``_group``), but ``witness check`` and ``witness hook`` are
started once per tool call by hooks and scripts, and click alone costs more start-up time than
the analysis: their common forms are run here without importing click (``_fast`` parses
``check``'s arguments). Anything unusual — ``--help``, an unknown option, a bad value — goes to
click, which reports it. Every exception that ends a command becomes an exit status in
``_exits``, the one place that maps them.
"""

from __future__ import annotations

import os
import sys

from ._exits import ExitCode, exit_code_for


def main(argv: list[str] | None = None) -> int:
    """Run ``witness`` with ``argv`` (default: the process arguments); return the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if stream is None:  # started with the descriptor closed: what it would say goes nowhere
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115 (lives as long as the process)
            continue
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    try:
        code = _run(args)
    except (Exception, KeyboardInterrupt) as error:
        code = exit_code_for(error, sys.stderr)
    from ._output import finish

    return finish(code)


def _run(args: list[str]) -> int:
    if args[:1] == ["check"]:
        from ._fast import parse_check

        options = parse_check(args[1:])
        if options is not None:
            from ._check import run_check

            return run_check(options, sys.stdout, sys.stderr)
    if args[:1] == ["hook"]:
        return _run_hook(args[1:])
    return _run_click(args)


def _run_hook(args: list[str]) -> int:
    """``witness hook``, never through click's usage errors: to the hosts exit 2 means "block"."""
    if {"-h", "--help"} & set(args):
        import contextlib

        with contextlib.suppress(BaseException):  # help that cannot be shown is still no block
            _run_click(["hook", "--help"])
        return ExitCode.OK
    from ._hook import run_hook

    return run_hook(args)


def _run_click(args: list[str]) -> int:
    from ._group import cli

    result = cli.main(args=args, prog_name="witness", standalone_mode=False)
    return result if isinstance(result, int) else ExitCode.OK
