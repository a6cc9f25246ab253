"""``witness check``: run the analysis and print it, for people or for programs.

Kept free of click and of JSON until needed: hooks start a process per tool call, and this
module is on that path. :func:`command` builds the click command only when click parses the
arguments (help, unusual forms, errors).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import IO, TYPE_CHECKING, Any

from advisor.errors import BinaryInput
from shellparse import POLICIES, SHELLS, Policy, Shell, analyze, printable

from . import _options
from ._exits import ExitCode
from ._fast import CheckOptions
from ._options import OutputFormat
from ._output import Output, json_text
from ._verdict import render, short, use_color

if TYPE_CHECKING:
    import click

EPILOG = """\
Exit status: 0 when the command's exit status witnesses its check, 1 when it does not
(masked, a reporting pipe under --policy strict, not a check, unreadable), 2 for usage or
input errors (with --batch: a malformed line, or no command at all to check).
"""
MAX_COMMAND_CHARS = 65_536
"""The longest command analysed, as the tracker does (``TrackerConfig.max_command_chars``): a
longer one is ``unreadable``, fail-closed, at once."""
MAX_LINE_BYTES = 1024 * 1024
"""The longest ``--batch`` line read; a longer one gets an error record and is not held in memory."""


def run_check(options: CheckOptions, out: IO[str], err: IO[str]) -> int:
    """Carry out ``witness check`` once its arguments are known; return its exit status."""
    if options.batch is not None:
        from advisor.errors import StreamProblem

        from ._inputs import display

        try:
            return check_batch(read_lines(options.batch, err), options.shell, options.policy,
                               options.output or "json", options.explain, out, err)
        except BinaryInput as binary:
            err.write(printable(f"witness check: {display(options.batch)}: {binary}; the batch stopped there\n"))
            return ExitCode.USAGE
        except StreamProblem as problem:
            err.write(printable(f"witness check: {display(options.batch)}: {problem}\n"))
            return ExitCode.USAGE
        except OSError as error:
            err.write(printable(f"witness check: cannot read {options.batch}: {error.strerror or error}\n"))
            return ExitCode.USAGE
    return check_command(" ".join(options.words), options.shell, options.policy, options.output or "text",
                         options.explain, out)


def check_command(command: str, shell: Shell, policy: Policy, output: OutputFormat, explain: bool,
                  out: IO[str]) -> int:
    """Analyse one command, print the verdict, return the exit status (0 eligible, 1 not; the same
    when nobody can read the verdict)."""
    analysis = analyze(command, shell, policy, max_chars=MAX_COMMAND_CHARS)
    if output == "json":
        Output(out).write(json_text(analysis.to_dict()) + "\n")
    else:
        Output(out).write(render(analysis, explain=explain, color=use_color(out)))
    return ExitCode.OK if analysis.witness_eligible else ExitCode.FINDINGS


def check_batch(lines: Iterable[bytes | None], shell: Shell, policy: Policy, output: OutputFormat, explain: bool,
                out: IO[str], err: IO[str]) -> int:
    """Analyse one command per line (or JSONL objects); one JSON result per line (or, with
    ``output="text"``, one human verdict per command). Lines are counted from 1; ``None`` is a line
    too long to read.

    Returns 2 if any line was malformed (it gets an error record and the run goes on) or no line
    held a command (nothing checked is not an all-clear), else 1 if any command is not
    witness-eligible, else 0. When the output goes away (``| head``), the batch stops there.
    """
    malformed = ineligible = False
    checked = 0
    color = use_color(out)
    sink = Output(out)
    for number, raw in enumerate(lines, start=1):
        record = _batch_record(number, raw, shell, policy)
        if record is None:
            continue
        checked += 1
        analysis = record.pop("analysis", None)
        if "error" in record:
            malformed = True
        elif not record["witness_eligible"]:
            ineligible = True
        if output == "json":
            sink.write(json_text(record) + "\n")
        elif analysis is None:
            sink.write(printable(f"line {number}: {record['error']}\n\n"))
        else:
            prompt = "PS>" if analysis.shell == "pwsh" else "$"
            sink.write(f"{prompt} {printable(short(analysis.command, 200))}\n" +
                       render(analysis, explain=explain, color=color) + "\n")
        if sink.gone:
            break
    if not checked:
        err.write("witness check: no command in the --batch input (only blank lines, or none); nothing was checked, "
                  "which is not an all-clear\n")
    if malformed or not checked:
        return ExitCode.USAGE
    return ExitCode.FINDINGS if ineligible else ExitCode.OK


def _batch_record(number: int, raw: bytes | None, shell: Shell, policy: Policy) -> dict[str, Any] | None:
    import json

    if raw is None:
        return {"line": number, "error": f"line longer than {MAX_LINE_BYTES:,} bytes; not read"}
    line = raw[:-1] if raw.endswith(b"\n") else raw
    line = line[:-1] if line.endswith(b"\r") else line
    if not line.strip():
        return None
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as error:
        return {"line": number, "error": f"line is not valid UTF-8 (byte {error.start + 1})"}
    extra: dict[str, Any] = {}
    if text.lstrip().startswith("{"):
        try:
            item = json.loads(text)
        except ValueError as error:
            return {"line": number, "error": f"line starts with '{{' but is not valid JSON: {error}"}
        except RecursionError:
            return {"line": number, "error": "line starts with '{' but its JSON is nested too deeply to read"}
        if not isinstance(item, dict) or not isinstance(item.get("command"), str):
            return {"line": number, "error": 'a JSON line must be an object with a string "command"'}
        text = item["command"]
        shell = item.get("shell", shell)
        policy = item.get("policy", policy)
        if shell not in SHELLS:
            return {"line": number, "error": f'"shell" must be one of {", ".join(SHELLS)}'}
        if policy not in POLICIES:
            return {"line": number, "error": f'"policy" must be one of {", ".join(POLICIES)}'}
        if "id" in item:
            extra["id"] = item["id"]
    analysis = analyze(text, shell, policy, max_chars=MAX_COMMAND_CHARS)
    return {"line": number, **extra, **analysis.to_dict(), "analysis": analysis}


def read_lines(path: str, err: IO[str] | None = None) -> Iterator[bytes | None]:
    """Lines of a file, or of standard input for ``-``, as bytes (decoding is per line); ``None`` for a
    line longer than ``MAX_LINE_BYTES``, which is read past in chunks, never held. A device that never
    ends is refused and a named pipe nobody writes to is not waited for forever (``StreamProblem``,
    see ``_inputs``); a NUL byte ends the input (``BinaryInput``)."""
    from ._inputs import open_stream

    with open_stream(path, err=err, who="witness check") as handle:
        yield from _bounded(handle)


def _bounded(handle: IO[bytes]) -> Iterator[bytes | None]:
    number = 0
    while raw := handle.readline(MAX_LINE_BYTES + 1):
        number += 1
        _text_only(raw, number)
        if len(raw) <= MAX_LINE_BYTES or raw.endswith(b"\n"):
            yield raw
            continue
        while (rest := handle.readline(MAX_LINE_BYTES)) and not rest.endswith(b"\n"):
            _text_only(rest, number)
        yield None


def _text_only(raw: bytes, number: int) -> None:
    if b"\x00" in raw:
        raise BinaryInput(f"line {number} holds a NUL byte: this is binary data, not commands")


def command() -> click.Command:
    """The click command (built on demand: the common forms never import click)."""
    import click

    @click.command("check", context_settings=_options.context_settings(allow_interspersed_args=False),
                   epilog=EPILOG)
    @_options.shell_option()
    @_options.policy_option(", outside PowerShell cmdlets")
    @click.option(_options.FORMAT, "output", type=click.Choice(_options.OUTPUT_FORMATS), default=None,
                  help="Output format (default: text for one command, json for --batch).")
    @click.option(_options.JSON, "output", flag_value="json", help="Same as --format json.")
    @click.option(_options.EXPLAIN, "explain", is_flag=True,
                  help="Show every reason, the check's identity and the effect.")
    @click.option(_options.BATCH, metavar="[FILE|-]", is_flag=False, flag_value="-", default=None,
                  help="Analyse one command per line (or JSONL objects with a \"command\"); "
                       "print one JSON result per line. Without FILE, read standard input.")
    @click.argument("command", nargs=-1)
    def check(shell: Shell, policy: Policy, output: OutputFormat | None, explain: bool, batch: str | None,
              command: tuple[str, ...]) -> int:
        """Say whether COMMAND is a check and whether its exit status witnesses it.

        \b
          witness check -- 'npm test 2>&1 | tail -20'
          witness check --shell pwsh -- 'npm test; "EXIT=$LASTEXITCODE"'
          witness check --batch examples/commands.txt > verdicts.jsonl
          witness check --batch examples/commands.txt --format text

        The words of COMMAND are joined with spaces; quote it as one argument to keep its own
        quoting. Put it after -- so that its options are not read as witness's.
        """
        if batch is not None and command:
            raise _options.usage_error("give either a COMMAND or --batch, not both")
        if batch is None and not command:
            raise _options.usage_error("give a COMMAND to check (after --), or --batch FILE")
        options = CheckOptions(shell, policy, output, explain, batch, list(command))
        return run_check(options, sys.stdout, sys.stderr)

    return check
