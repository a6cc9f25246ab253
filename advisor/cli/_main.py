"""The ``witness`` entry point.

The command line is a click group (``_group``), but ``witness check`` and ``witness hook`` are
started once per tool call by hooks and scripts, and click alone costs more start-up time than
the analysis: their common forms are run here without importing click (``_fast`` parses
``check``'s arguments). Anything unusual — ``--help``, an unknown option, a bad value — goes to
click, which reports it. Every exception that ends a command becomes an exit status in
``_exits``, the one place that maps them.
"""

from __future__ import annotations

import sys

from ._exits import ExitCode, exit_code_for


def main(argv: list[str] | None = None) -> int:
    """Run ``witness`` with ``argv`` (default: the process arguments); return the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    try:
        return _run(args)
    except (Exception, KeyboardInterrupt) as error:
        return exit_code_for(error, sys.stderr)


def _run(args: list[str]) -> int:
    if args[:1] == ["check"]:
        from ._fast import parse_check

        options = parse_check(args[1:])
        if options is not None:
            from ._check import run_check

            return run_check(options, sys.stdout, sys.stderr)
    if args[:1] == ["hook"] and not {"-h", "--help"} & set(args):
        from ._hook import run_hook

        return run_hook(args[1] if len(args) > 1 else "")
    return _run_click(args)


def _run_click(args: list[str]) -> int:
    from ._group import cli

    result = cli.main(args=args, prog_name="witness", standalone_mode=False)
    return result if isinstance(result, int) else ExitCode.OK
