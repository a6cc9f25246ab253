"""The reason catalogue: every code a :class:`~shellparse.Reason` can carry, what it means, how
strongly it bears on the verdict, and the messages it is worded with.

The table is the only place a reason's level and wording are written; the analysis builds every
reason through :func:`reason`, and ``docs/shellparse.md`` shows the table (a test keeps the two
in step). Messages are templates: ``{piece}`` is the text of the command the reason points at,
shortened to one line.
"""

from collections.abc import Mapping
from typing import NamedTuple

from ._model import Span
from ._patterns import lazy
from ._results import Reason
from ._vocabulary import REASON_CODES, Level, ReasonCode


class ReasonInfo(NamedTuple):
    """One row of the catalogue."""

    level: Level
    """How every reason with this code bears on the verdict."""
    meaning: str
    """What the code says about the command, for people reading a report."""
    messages: Mapping[str, str]
    """The message templates, by the situation they word (``""`` when there is one)."""


def _one(level: Level, meaning: str, message: str) -> ReasonInfo:
    return ReasonInfo(level, meaning, {"": message})


REASONS: Mapping[ReasonCode, ReasonInfo] = {
    # Kept: the status is still the check's.
    "and-before": _one("keeps", "an `&&` before the check: if the left side fails, the check does not run",
                       "`{piece}` runs before the check; if it fails the check does not run"),
    "env-prefix": _one("keeps", "an assignment in front of the check only sets its environment",
                       "`{piece}` only sets the environment"),
    "wrapper": _one("keeps", "a wrapper (`time`, `timeout`, `uv run` …) runs the check and returns its status",
                    "`{piece}` runs the check and returns its status"),
    "redirect": _one("keeps", "a redirect changes where input or output goes, not the status",
                     "`{piece}` only redirects input or output"),
    "pipe-into-check": _one("keeps", "a pipe into the check only feeds its input (without pipefail)",
                            "a pipe into the check only feeds its input; the pipeline's status is the check's"),
    "nested": _one("keeps", "a shell (`bash -c`, `pwsh -Command`, `eval` …) runs a command string holding the "
                   "check and returns its status", "`{piece}` runs the command string and returns its status"),
    "report-tail": _one("keeps", "a PowerShell quoted-literal statement after the check only prints",
                        "`{piece}` only prints a string; PowerShell keeps the check's exit code"),
    "exit-propagation": ReasonInfo("keeps", "the script leaves right after the check with the check's own status", {
        "": "`{piece}` leaves with the status of the line before it",
        "pipe": "`{piece}` exits with the check's own status, whatever the pipe after it does",
    }),
    "failure-exit": _one("keeps", "`|| exit` after the check leaves with the check's failing status",
                         "`{piece}` leaves with the check's own failing status"),
    "pipefail": _one("keeps", "`pipefail` is on, so pass-through consumers cannot hide a failure",
                     "`pipefail` is on: the pipeline fails when the check fails"),
    "always-succeeds": _one("keeps", "what runs after the check runs only when it passed, and always succeeds",
                            "`{piece}` runs only after the check passed and always succeeds: the status stays the "
                            "check's"),
    "saved-status": _one("keeps", "the check's status is saved in a variable and the script leaves with it",
                         "`{piece}` saves the check's status and leaves with it; nothing in between can change it"),
    "errexit": _one("keeps", "`set -e` is on, so a failing check ends the script with its own status",
                    "`set -e` is on: a failing check ends the script with its own status, and `{piece}` runs only "
                    "after a pass"),
    "assigned": _one("keeps", "under `set -e`, an assignment leaves with the status of its command substitution, "
                     "which runs the check", "`{piece}` is the only substitution of an assignment, which leaves with "
                     "its status (under `set -e`, a failure ends the script)"),
    "waited": _one("keeps", "the check runs in the background and `wait` returns its status",
                   "`{piece}` waits for the check and returns its status"),
    "function-call": _one("keeps", "a function defined earlier runs the check and returns its status",
                          "`{piece}` calls a function whose body runs the check here"),
    "single-path": _one("keeps", "a compound statement that surely runs the check once, as its last command",
                        "{where} runs the check exactly once, as its last command: its status is the check's"),
    # A residual risk the policy accepts or refuses.
    "reporting-pipe": ReasonInfo("residual", "one pipe from the check to a pass-through consumer, whose status "
                                 "is reported", {
        "": "`{piece}` passes the output through; without pipefail its status is reported, so a failing check "
            "can still report 0",
        "cmdlet": "`{piece}` passes the output through a cmdlet, which does not set the exit status",
    }),
    # Masked: something else decides the status, or may.
    "post-check-command": ReasonInfo("masks", "a command runs after the check and its status is reported", {
        "": "`{piece}` runs after the check; the status reported is the last command's",
        "pipestatus": "`{piece}` leaves with the status of another command of the check's pipeline",
    }),
    "echo-tail": _one("masks", "an `echo`/`printf`/`Write-Output` after the check succeeds and hides its status",
                      "`{piece}` runs after the check and succeeds, hiding its status"),
    "true-tail": _one("masks", "`true` or `:` after the check always succeeds",
                      "`{piece}` always succeeds, hiding the check's status"),
    "expression-tail": _one("masks", "a PowerShell expression after the check reports its own status",
                            "`{piece}` is evaluated after the check; the status reported is its own"),
    "standalone-redirect": _one("masks", "a redirect with no command after the check is a command of its own",
                                "`{piece}` is a command of its own (it truncates the file) and its status is "
                                "reported"),
    "or-chain": ReasonInfo("masks", "the check is in an `||` list", {
        "left": "`{piece}` runs the check only when the left side fails; otherwise the check never runs and 0 is "
                "reported",
        "right": "`{piece}` runs when the check fails and its status replaces the check's",
    }),
    "background": ReasonInfo("masks", "the check runs in the background, so its status never comes back", {
        "operator": "`&` runs the check in the background; the shell reports 0 at once",
        "wrapper": "the wrapper detaches the check; its status never comes back",
        "coproc": "`coproc` runs the check in the background; the shell reports 0 at once",
    }),
    "negated": _one("masks", "`!` inverts the check's status", "`!` inverts the check's status"),
    "inside-substitution": _one("masks", "the check runs inside a substitution or script block",
                                "the check runs inside {where}; the command's status is not the check's"),
    "inside-compound": _one("masks", "the check runs inside a compound statement (`if`, a loop, a function …)",
                            "the check runs inside {where}; the status reported is the construct's, not the "
                            "check's"),
    "deciding-consumer": _one("masks", "a pipe carries the check's output to a command that decides the status",
                              "`{piece}` decides the pipeline's status, not the check"),
    "pipefail-producer": _one("masks", "with pipefail on, a failing command piped into the check becomes the "
                              "status", "with pipefail on, a failure of `{piece}` becomes the pipeline's status"),
    "extra-pipes": _one("masks", "two or more pipes after the check (without pipefail)",
                        "the check's output passes through more than one pipe; the status is the last consumer's"),
    "early-exit": ReasonInfo("masks", "something before the check can end the script first, or runs code that "
                             "cannot be read", {
        "exit": "`{piece}` can end the script before the check runs",
        "exec": "`{piece}` replaces the shell before the check runs",
        "source": "`{piece}` runs code that cannot be read here, in this shell",
        "dash": "`{piece}`: a POSIX `sh` (dash) has no pipefail and exits here",
        "dynamic": "`{piece}` runs a command whose name is known only at run time (it can be `exit`, or anything)",
        "noexec": "`{piece}` turns on `noexec`: the commands after it are read, never run",
        "onecmd": "`{piece}` makes the shell exit after the next command",
        "kill": "`{piece}` can signal this shell and end it",
        "environment": "`{piece}` changes what a shell runs when it starts (`BASH_ENV`, `ENV`, `SHELLOPTS`, "
                       "`BASHOPTS`, exported functions)",
        "startup": "`{piece}` starts a shell that reads a startup file (`~/.bashrc`, a profile, `~/.zshenv`) this "
                   "command line may have written, or expands aliases",
        "calls": "`{piece}` calls functions more deeply or more often than the analysis follows",
    }),
    "forced-success": ReasonInfo("masks", "an option makes the check (or the wrapper running it) exit 0 whatever "
                                 "the check finds, so a zero status proves nothing", {
        "": "`{piece}` makes the check exit 0 whatever it finds",
        "environment": "`{piece}` hands the check an option that makes it exit 0 whatever it finds",
        "wrapper": "`{piece}` lets the status be 0 although the check failed, was stopped or never ran",
    }),
    "rewritten": ReasonInfo("masks", "the line writes what the check reads (its program, its configuration or "
                            "plugins) before it runs", {
        "": "`{piece}` writes `{target}`, which the check reads (its program, its configuration or plugins), "
            "before it runs",
        "unlisted": "`{piece}` runs code (or writes files) the analysis cannot list before the check: it may "
                    "write the check's program, configuration or plugins",
    }),
    "unproven": _one("masks", "a statement before the check is not among the shapes proven inert: it could change "
                     "what the status means", "`{piece}` is not proven inert ({why})"),
    "repeated": _one("masks", "the same check runs earlier in the command line; a pass here hides a failure there",
                     "`{piece}` runs earlier in this command line too: a pass here hides a failure there, as a retry "
                     "does"),
    "exit-trap": ReasonInfo("masks", "a trap whose action is not proven inert can change the final status", {
        "": "`{piece}`: a trap whose action is not proven inert can exit, assign, redefine or skip commands",
        "extdebug": "`{piece}`: with `extdebug` on, a DEBUG trap that fails skips the command it runs before",
        "redefined": "`{piece}` redefines a command that a trap set earlier runs",
    }),
    "shadowed": _one("masks", "a command the verdict relies on (the check's program, a wrapper, a shell builtin) "
                     "is redefined before it runs",
                     "`{piece}` is redefined (a function, an alias, `hash -p` or `enable`) before this line"),
    "stdin-script": ReasonInfo("masks", "a shell reads its script from standard input, and something can change "
                               "what it reads", {
        "expanded": "`{piece}`: the delimiter is unquoted, so this shell expands `$…` and backquotes in the "
                    "here-document before the inner shell reads it",
        "replaced": "`{piece}` replaces the standard input the script was to be read from",
        "consumed": "`{piece}` may read the rest of the script from standard input, so the commands after it may "
                    "never run",
    }),
    "dialect": _one("masks", "a command string runs in a shell other than bash (a POSIX `sh`: dash), and uses "
                    "syntax that shell reads otherwise",
                    "`{piece}` is bash's syntax, which the shell running this string (a POSIX `sh`: dash) reads "
                    "otherwise, or not at all"),
    "cmd-syntax": _one("masks", "a `cmd /c` string uses cmd.exe syntax, which is not analysed",
                       "cmd.exe syntax (`^`, `%`, parentheses) is not analysed"),
    "parse-error": ReasonInfo("masks", "the command, or a command string in it, does not parse cleanly", {
        "": "the command does not parse cleanly ({error})",
        "check": "the command does not parse cleanly ({error}); nothing in it can witness",
        "nested": "the command string does not parse cleanly ({error})",
    }),
    "unreadable": ReasonInfo("masks", "the text cannot be a command line at all", {
        "nul": "the command contains a NUL byte, which no shell can receive",
        "surrogate": "the command is not valid Unicode (a lone surrogate at character {index})",
        "too-long": "the command is {length} characters long; commands over {limit} characters are not analysed",
        "work": "the command ({length} characters) needs more work to analyse than any command line of its length "
                "should (functions called over and over); it is not analysed",
    }),
    "strict-policy": _one("masks", "policy `strict` refuses a reporting pipe outside PowerShell cmdlets",
                          "policy `strict` refuses a reporting pipe outside PowerShell cmdlets"),
    # Notes: identity and context, no bearing on the exit source.
    "may-not-run": ReasonInfo("note", "something can keep the check from running; a non-zero status may then be "
                              "its own, not the check's", {
        "exit": "`{piece}` can end the script failing before the check runs: a non-zero status may be its own",
        "errexit": "`{piece}` can fail before the check runs, and `set -e` then ends the script with its status",
        "else": "`{piece}` runs instead of the check when the condition fails: a non-zero status may be its own",
        "nounset": "`{piece}` expands a variable that may be unset, and `set -u` then ends the script failing",
    }),
    "sigpipe": _one("note", "a consumer that may stop reading early can kill a passing check with SIGPIPE",
                    "`{piece}` may stop reading before the check finishes; the check then dies of SIGPIPE (status "
                    "141) even when it passes, so a failure is not surely the check's"),
    "directory": _one("note", "where the check runs, part of its identity",
                      "runs in `{directory}` (part of the check's identity)"),
    "mention-only": _one("note", "a check's name appears only inside an argument or a string",
                         "`{piece}` appears only inside an argument or string, not as a command"),
    "empty": _one("note", "the command is empty", "the command is empty"),
}
"""The catalogue: every :data:`ReasonCode`, its level, meaning and messages."""


_new = tuple.__new__
_FIELD = lazy(r"\{(\w+)\}")


class _Wording(NamedTuple):
    """A message template split for fast filling: ``prefix + fields[name] + suffix`` when it has
    one placeholder (all of the catalogue's have at most one), ``str.format_map`` otherwise."""

    level: Level
    template: str
    prefix: str
    name: str | None
    suffix: str


def _wording(level: Level, template: str) -> _Wording:
    names = _FIELD.findall(template)
    if len(names) == 1:
        prefix, _, suffix = template.partition("{" + names[0] + "}")
        return _Wording(level, template, prefix, names[0], suffix)
    return _Wording(level, template, template, None, "")


_WORDINGS: dict[str, dict[str, _Wording]] = {}
"""Each code's split templates, made when the code is first used (a command meets a few codes)."""


def _wordings(code: ReasonCode) -> dict[str, _Wording]:
    info = REASONS[code]
    made = _WORDINGS[code] = {variant: _wording(info.level, template) for variant, template in info.messages.items()}
    return made


def reason(code: ReasonCode, span: Span | None, variant: str = "", **fields: str) -> Reason:
    """The reason ``code`` about ``span``, worded by its ``variant`` message with ``fields`` filled in."""
    wordings = _WORDINGS.get(code)
    wording = (wordings if wordings is not None else _wordings(code))[variant]
    if wording.name is not None:
        text = wording.prefix + fields[wording.name] + wording.suffix
    elif fields:
        text = wording.template.format_map(fields)
    else:
        text = wording.template
    return _new(Reason, (code, text, span, wording.level))


def message(code: ReasonCode, variant: str = "", **fields: str) -> str:
    """The wording of ``code`` alone (``parse_error`` reports it without a reason around it)."""
    return REASONS[code].messages[variant].format_map(fields)


if set(REASONS) != set(REASON_CODES):  # pragma: no cover - a table edited without its type
    raise AssertionError("REASONS must list every ReasonCode exactly once")
