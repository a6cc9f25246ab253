"""``witness packet TRANSCRIPT``: the case packet an advisor host would send at that point.

The transcript is replayed into an :class:`~advisor.AdvisorHost` with no model (nothing is sent,
nothing logged) and the packet for the chosen agent is built and fitted exactly as a
consultation would build it: sections, caps, ``truncation``, redaction, the 48 KB fit.
"""

from __future__ import annotations

from typing import IO, TYPE_CHECKING

from shellparse import printable

from ._exits import ExitCode
from ._output import inert_json, json_text

if TYPE_CHECKING:
    import click

EPILOG = """\
Exit status: 0 when the packet was built, 2 for usage or input errors (no such file, not a
transcript, an agent the transcript does not have, an --upto past its last tool call).
TRANSCRIPT may be - (standard input) or a named pipe such as <(zcat session.jsonl.gz).
"""
DEFAULT_QUESTION = "What should the agent do next?"


def run_packet(path: str, upto: int | None, agent: str | None, question: str, as_json: bool, out: IO[str],
               err: IO[str] | None = None) -> int:
    """Replay, build, print; the exit status. ``path`` is a file, or ``-`` or a named pipe (a stream)."""
    from ._inputs import display, one_transcript

    with one_transcript(path, who="witness packet", err=err) as file:
        # The host and its redactor load once the transcript is known to be one: a bad path is said at once.
        from advisor.errors import UnknownAgent
        from advisor.orchestration import AdvisorHost, feed_session
        from obligations import NoSuchCall, until_call
        from obligations.sources import open_transcript

        with AdvisorHost(None, log=False, run_log=False) as host:
            try:
                agents = feed_session(host, until_call(open_transcript(file).events(), upto))
            except NoSuchCall as problem:
                if err is not None:
                    err.write(printable(f"witness packet: --upto {upto}: {problem}\n"))
                return ExitCode.USAGE
            chosen = agent or (agents[0] if agents else "root")
            if chosen not in agents:
                raise UnknownAgent(f"{display(path)} has no agent {chosen!r} (it has {', '.join(agents) or 'none'})")
            fitted = host.packet(chosen, question)
    if as_json:
        out.write(inert_json(fitted.text) + "\n")
        return ExitCode.OK
    degraded = ", ".join(fitted.degraded) or "none"
    out.write(printable(f"case packet for {chosen}: {fitted.size:,} bytes of {48 * 1024:,} (degraded: {degraded})\n"))
    out.write(json_text(fitted.packet, indent=2) + "\n")
    return ExitCode.OK


def command() -> click.Command:
    """The click command."""
    import click

    from . import _options

    @click.command("packet", context_settings=_options.context_settings(), epilog=EPILOG)
    @click.argument("transcript")
    @click.option("--upto", type=click.IntRange(min=1), default=None,
                  help="Build it as if the session had ended after its N-th tool call (as `witness consult "
                       "--upto` does).")
    @click.option("--agent", default=None, help="The agent whose packet to build (default: the first root).")
    @click.option("--question", default=DEFAULT_QUESTION, show_default=True, help="The question the packet carries.")
    @click.option("--json", "as_json", is_flag=True, help="Print the packet exactly as sent (compact JSON).")
    def packet(transcript: str, upto: int | None, agent: str | None, question: str, as_json: bool) -> int:
        """Print the case packet an advisor would get for TRANSCRIPT.

        \b
          witness packet session.jsonl
          witness packet session.jsonl --upto 12 --json | jq .validation_summary
        """
        import sys

        return run_packet(transcript, upto, agent, question, as_json, sys.stdout, sys.stderr)

    return packet
