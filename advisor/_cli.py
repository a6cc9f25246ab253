"""The ``witness`` entry point.

The command line is defined with click (:mod:`advisor._commands`). ``witness check`` is called
once per tool call by hooks and scripts, so its common forms are parsed here without importing
click (click alone costs more start-up time than the analysis); anything unusual — ``--help``,
an unknown option, a bad value — is handed to click, which reports it. The two parsers share
:data:`CHECK_CHOICES` and :data:`CHECK_FLAGS`, and a test keeps them in agreement.

Exit codes: 0 ok (witness-eligible), 1 findings (not eligible), 2 usage or input error — except
``witness hook``, which always exits 0: to the hosts that call it, exit 2 means "block".
"""

from __future__ import annotations

import os
import sys
from typing import Any

from shellparse import POLICIES, SHELLS

CHECK_CHOICES: dict[str, tuple[str, ...]] = {"--shell": SHELLS, "--policy": POLICIES, "--format": ("text", "json")}
"""``witness check`` options that take one value from a fixed set."""
CHECK_FLAGS = ("--json", "--explain")
"""``witness check`` options without a value."""


def main(argv: list[str] | None = None) -> int:
    """Run ``witness`` with ``argv`` (default: the process arguments); return the exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    try:
        if args[:1] == ["check"]:
            parsed = parse_check_fast(args[1:])
            if parsed is not None:
                return run_check(**parsed)
        if args[:1] == ["hook"] and not {"-h", "--help"} & set(args):
            return run_hook_command(args[1] if len(args) > 1 else "")
        return _run_click(args)
    except BrokenPipeError:  # `witness check … | head -1`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        sys.stderr.write("witness: interrupted\n")
        return 130


def parse_check_fast(args: list[str]) -> dict[str, Any] | None:
    """Parse the common forms of ``witness check`` arguments; ``None`` means "let click do it"."""
    options: dict[str, Any] = {"shell": "bash", "policy": "seed", "format": None, "explain": False,
                               "batch": None, "words": []}
    index = 0
    while index < len(args):
        arg = args[index]
        if arg == "--":
            options["words"] = args[index + 1 :]
            break
        if not arg.startswith("-") or arg == "-":
            options["words"] = args[index:]
            break
        name, equals, value = arg.partition("=")
        if name in CHECK_CHOICES:
            if not equals:
                if index + 1 >= len(args):
                    return None
                value = args[index + 1]
                index += 1
            if value not in CHECK_CHOICES[name]:
                return None
            options[name[2:]] = value
        elif arg in CHECK_FLAGS:
            if arg == "--json":
                options["format"] = "json"
            else:
                options["explain"] = True
        elif name == "--batch":
            if equals:
                options["batch"] = value
            elif index + 1 < len(args) and (not args[index + 1].startswith("-") or args[index + 1] == "-"):
                options["batch"] = args[index + 1]
                index += 1
            else:
                options["batch"] = "-"
        else:
            return None
        index += 1
    if (options["batch"] is None) == (not options["words"]):
        return None  # neither a command nor --batch, or both: click explains the usage
    return options


def run_check(shell: str, policy: str, format: str | None, explain: bool, batch: str | None,
              words: list[str]) -> int:
    """Carry out ``witness check`` once its arguments are known."""
    from ._check import check_batch, check_command, read_lines

    if batch is not None:
        try:
            return check_batch(read_lines(batch), shell, policy, format or "json", explain, sys.stdout)
        except BrokenPipeError:
            raise  # a reader of our output that went away, not a file we failed to read: see main()
        except OSError as error:
            sys.stderr.write(f"witness check: cannot read {batch}: {error.strerror or error}\n")
            return 2
    return check_command(" ".join(words), shell, policy, format or "text", explain, sys.stdout)


def run_hook_command(host: str) -> int:
    """``witness hook HOST``: answer the host's hook call. Always exits 0 (2 would mean "block")."""
    from ._hook import run_hook

    answer = run_hook(host, sys.stdin.buffer.read())
    if answer:
        sys.stdout.write(answer + "\n")
    return 0


def _run_click(args: list[str]) -> int:
    import click

    from ._commands import cli

    try:
        result = cli.main(args=args, prog_name="witness", standalone_mode=False)
    except click.exceptions.Exit as done:
        return done.exit_code
    except click.ClickException as error:
        error.show()
        return error.exit_code
    except click.Abort:
        sys.stderr.write("witness: aborted\n")
        return 1
    return result if isinstance(result, int) else 0
