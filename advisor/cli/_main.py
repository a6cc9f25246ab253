"""The ``witness`` entry point.

The command line is a click group (``_group``), but ``witness check`` and ``witness hook`` are
started once per tool call by hooks and scripts, and click alone costs more start-up time than
the analysis: their common forms are run here without importing click (``_fast`` parses
``check``'s arguments). Anything unusual — ``--help``, an unknown option, a bad value — goes to
click, which reports it. Every exception that ends a command becomes an exit status in
``_exits``, the one place that maps them.

A ``witness check`` or ``witness hook`` process also spares itself the cyclic garbage collector:
loading the analyser, or the tracker's models, allocates tens of thousands of long-lived objects
and almost no garbage, so the collections that start-up would trigger, and the last one the
interpreter makes at exit, only walk objects that are all still in use
(``benchmarks/startup_bench.py`` and ``benchmarks/audit_bench.py`` measure those processes).
"""

from __future__ import annotations

import gc
import os
import sys

from ._exits import ExitCode, end_cleanly_on_sigterm, exit_code_for


def main(argv: list[str] | None = None) -> int:
    """Run ``witness`` with ``argv`` (default: the process arguments); return the exit status.

    Run by the ``witness`` console script itself (no ``argv``), it is the whole process, which ends
    after it: ``witness check`` then freezes what it leaves for the collector (see ``_run_check``);
    a program calling ``main()`` keeps its collector as it was."""
    args = list(sys.argv[1:] if argv is None else argv)
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if stream is None:  # started with the descriptor closed: what it would say goes nowhere
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115 (lives as long as the process)
            continue
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    whole_process = argv is None and _is_the_console_script()
    try:
        if whole_process:
            from ._output import guard_standard_streams

            guard_standard_streams()
            _keep_bytecode()
        code = _run(args, whole_process=whole_process)
    except (Exception, KeyboardInterrupt, SystemExit) as error:
        code = exit_code_for(error, sys.stderr, command=_command_name(args))
    from ._output import finish

    return finish(code)


def _is_the_console_script() -> bool:
    """Whether this process is the installed ``witness`` command (its main program the console
    script), so that what it leaves at exit is its own: a program that calls :func:`main` is not."""
    program = getattr(sys.modules.get("__main__"), "__file__", None)
    return isinstance(program, str) and os.path.basename(program).split(".")[0].removesuffix("-script") == "witness"


def _keep_bytecode() -> None:
    """Keep compiled copies of witness's modules in its state directory when Python writes no
    bytecode (see ``_bytecode``): a process per tool call would otherwise compile them all."""
    if sys.dont_write_bytecode:
        from advisor._home import home_directory

        home = home_directory()
        if os.path.isabs(home):  # else the command says what is wrong with it, if it needs it
            from ._bytecode import install

            install(os.path.join(home, "bytecode"))


def _run(args: list[str], *, whole_process: bool) -> int:
    if args[:1] == ["check"]:
        code = _run_check(args[1:], whole_process=whole_process)
        if code is not None:
            return code
    if args[:1] == ["hook"]:
        return _run_hook(args[1:], whole_process=whole_process)
    if whole_process and args[:1] in (["audit"], ["consult"], ["packet"]):
        # Only the commands that copy streams: serve and mcp have their own way to stop, and the
        # others hold nothing to clean up.
        end_cleanly_on_sigterm()
    return _run_click(args)


def _run_check(args: list[str], *, whole_process: bool) -> int | None:
    """``witness check`` in its common forms, without click; ``None``: let click parse ``args``.

    The collector is paused while the analyser loads (it would only rescan what loading keeps) and,
    for one command, while it is judged (a bounded amount of work: ``MAX_COMMAND_CHARS``). A batch
    runs with it, as long as its input. When this is the whole process (``main()`` run as the
    console script), what is left is frozen at the end, so the interpreter's last collection skips
    it: all that escapes is cyclic garbage, and the analysis leaves none that holds a resource."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        from ._fast import parse_check

        options = parse_check(args)
        if options is None:
            return None
        from ._check import run_check

        if options.batch is not None and was_enabled:
            gc.enable()
        code = run_check(options, sys.stdout, sys.stderr)
    finally:
        if was_enabled:
            gc.enable()
    if whole_process and options.batch is None:
        gc.freeze()
    return code


def _run_hook(args: list[str], *, whole_process: bool) -> int:
    """``witness hook``, never through click's usage errors: to the hosts exit 2 means "block".

    As the whole process, the hook runs without the cyclic collector, as ``witness check`` does:
    a Stop call loads the tracker's models and replays a transcript, which leaves almost no
    cyclic garbage (a test holds the real transcripts to that), and the collections would walk
    only what is still in use."""
    if {"-h", "--help"} & set(args):
        import contextlib

        with contextlib.suppress(BaseException):  # help that cannot be shown is still no block
            _run_click(["hook", "--help"])
        return ExitCode.OK
    from ._hook import run_hook

    if not whole_process or not gc.isenabled():
        return run_hook(args)
    gc.disable()
    try:
        code = run_hook(args)
    finally:
        gc.enable()
    gc.freeze()
    return code


def _command_name(args: list[str]) -> str | None:
    """The subcommand ``args`` run, to name it in an error message (``witness audit: …``)."""
    from ._group import SUBCOMMANDS

    return args[0] if args and args[0] in SUBCOMMANDS else None


def _run_click(args: list[str]) -> int:
    from ._group import cli

    result = cli.main(args=args, prog_name="witness", standalone_mode=False)
    return result if isinstance(result, int) else ExitCode.OK
