"""Every exception the ``advisor`` package raises on purpose.

::

    AdvisorError                                   base of everything below
    ├── ConfigError(AdvisorError, ValueError)       bad configuration: flags, file, environment
    ├── ModelError(AdvisorError, RuntimeError)      the reviewer model gave no usable answer
    │   ├── ModelUnavailable(ModelError, ConnectionError)
    │   │                                           unreachable, timed out, or failing (5xx, 429)
    │   │                                           after the retries allowed
    │   ├── ModelRefused(ModelError)                the provider refused the request (4xx other
    │   │                                           than 429: authentication, bad request)
    │   └── BudgetExceeded(ModelError)              a token or money budget would be exceeded;
    │                                               raised before the request is sent
    ├── VerdictError(AdvisorError, ValueError)      an answer or verdict submission that breaks
    │                                               the verdict rules
    ├── WorkspaceError(AdvisorError, ValueError)    the workspace given to the investigation tools
    │                                               is not a directory
    ├── ToolFailure(AdvisorError, RuntimeError)     an investigation tool call that cannot be carried
    │                                               out (a refused path, a bad pattern); caught by the
    │                                               tools: its message is the advisor's error result
    ├── LedgerTooLarge(AdvisorError, ValueError)    even trimmed, the ledger exceeds its token
    │                                               budget: the consultation is skipped
    ├── ConsultationNotFound(AdvisorError, LookupError)
    │                                               no consultation in the log has that id (or
    │                                               the prefix names several)
    ├── InputError(AdvisorError, OSError)           a path or stream given to a command that it
    │   │                                           cannot read (missing, a directory, a device,
    │   │                                           a pipe nobody writes to), or a file of its own
    │   │                                           state under ``$WITNESS_HOME`` it cannot read
    │   └── StreamProblem(InputError)               the same said of a stream without naming it
    │                                               (the command names it when it reports it)
    ├── BinaryInput(AdvisorError, ValueError)       ``witness check --batch``: its input holds a NUL
    │                                               byte (binary data, which may never end)
    ├── SessionNotFound(AdvisorError, LookupError)  ``witness mcp``: no transcript is known to hold
    │                                               the call (it is answered from no session's)
    ├── Unjudged(AdvisorError, ValueError)          a Stop hook cannot judge the stopping agent's
    │                                               work (no transcript, one it cannot read); the
    │                                               hook allows the stop and says why
    ├── OrchestrationError(AdvisorError, RuntimeError)
    │   │                                           ``AdvisorHost`` refuses a lifecycle call
    │   ├── UnknownAgent(OrchestrationError, KeyError)
    │   │                                           the agent was never registered (or is disposed)
    │   ├── RegistrationError(OrchestrationError, ValueError)
    │   │                                           an agent registered with a role, parent or
    │   │                                           identity the tree cannot hold
    │   ├── StepRefused(OrchestrationError, PermissionError)
    │   │                                           an advisor step without a live activation
    │   │                                           (or with a foreign message in its batch)
    │   ├── ToolNotPermitted(OrchestrationError, PermissionError)
    │   │                                           an advisor tool outside its ceiling
    │   ├── BudgetRefused(OrchestrationError, PermissionError)
    │   │                                           the task tree's budget cannot cover one more
    │   │                                           consultation (a refusal report, never raised out)
    │   └── TurnRefused(OrchestrationError, PermissionError)
    │                                               a consultation turn refused before dispatch
    │                                               (coverage, model, continuation, lease …); the
    │                                               host answers it as a ``refused`` report
    └── GatewayError(AdvisorError, RuntimeError)    ``witness serve``: a request it cannot carry out;
        │                                           each carries its HTTP status and error code
        ├── BadRequest(GatewayError, ValueError)    the client's fault: malformed JSON, unknown
        │                                           tool types, bad advisor parameters (400),
        │                                           no or wrong key (401), too large (413)
        └── UpstreamFailed(GatewayError, ConnectionError)
            │                                       the upstream provider failed or refused the
            │                                       gateway (502), rate-limited it (429), or the
            │                                       server-tool loop ran past its bounds (502)
            └── UpstreamTimeout(UpstreamFailed, TimeoutError)
                                                    the upstream did not answer in time (504)

Each class also subclasses its natural standard-library base, so callers that only know the
standard library (``except ValueError``) still catch what they mean. Modules that add an
exception add it here and to the drawing above.
"""

from __future__ import annotations

__all__ = [
    "AdvisorError",
    "BadRequest",
    "BinaryInput",
    "BudgetExceeded",
    "BudgetRefused",
    "ConfigError",
    "ConsultationNotFound",
    "GatewayError",
    "InputError",
    "LedgerTooLarge",
    "ModelError",
    "ModelRefused",
    "ModelUnavailable",
    "OrchestrationError",
    "RegistrationError",
    "SessionNotFound",
    "StepRefused",
    "StreamProblem",
    "ToolFailure",
    "ToolNotPermitted",
    "TurnRefused",
    "Unjudged",
    "UnknownAgent",
    "UpstreamFailed",
    "UpstreamTimeout",
    "VerdictError",
    "WorkspaceError",
]


class AdvisorError(Exception):
    """Base class of every exception the advisor raises on purpose."""


class ConfigError(AdvisorError, ValueError):
    """The configuration (command-line flags, a config file, environment variables) is invalid."""


class ModelError(AdvisorError, RuntimeError):
    """The reviewer model gave no usable answer."""


class ModelUnavailable(ModelError, ConnectionError):
    """The model could not be reached, timed out, or kept failing (5xx, 429) past the retries."""


class ModelRefused(ModelError):
    """The provider refused the request: authentication, permission, or a malformed request."""


class BudgetExceeded(ModelError):
    """A per-call or per-session budget (tokens, or money when prices are set) would be exceeded.

    Raised before the request that would exceed it is sent, so nothing is billed for it."""


class VerdictError(AdvisorError, ValueError):
    """An answer or a verdict submission breaks the verdict rules."""


class WorkspaceError(AdvisorError, ValueError):
    """The workspace the investigation tools are confined to is not a directory, or is the file system's root or
    the home directory."""


class LedgerTooLarge(AdvisorError, ValueError):
    """Even with every earlier block left out and the verbatim tail cut down, the request exceeds its
    token budget: the task and the most recent work alone are too large to consult on."""


class ToolFailure(AdvisorError, RuntimeError):
    """An investigation tool call that cannot be carried out (a refused path, a bad pattern …); its message
    is the error result the advisor sees."""


class Unjudged(AdvisorError, ValueError):
    """A Stop hook cannot judge the stopping agent's work; the message says why (the stop is allowed)."""

    def __init__(self, message: str, *, unreadable: bool = False) -> None:
        super().__init__(message)
        self.unreadable = unreadable
        """The transcript is no session a reader knows: the user is told nothing was checked."""


class ConsultationNotFound(AdvisorError, LookupError):
    """No consultation in the log has the id asked for, or the prefix given names several."""


class InputError(AdvisorError, OSError):
    """A path or stream a command was given that it cannot read, or a file of witness's own state it
    cannot read; the message names it and says why."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class StreamProblem(InputError):
    """A stream that cannot be read as asked; the message says why without naming the stream (the
    command names it as the user wrote it when it reports the problem)."""


class BinaryInput(AdvisorError, ValueError):
    """The ``witness check --batch`` input holds a NUL byte: it is binary data (``/dev/zero``), not
    commands, and may never end."""


class SessionNotFound(AdvisorError, LookupError):
    """The MCP client's call names no session witness can find: it sent none of the ids a host sends
    with a call, or no transcript it names holds the call (then the answer must not come from
    another session's transcript)."""


class OrchestrationError(AdvisorError, RuntimeError):
    """``AdvisorHost`` refuses a lifecycle call."""


class UnknownAgent(OrchestrationError, KeyError):
    """The agent named was never registered with the host, or has been disposed."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else "unknown agent"


class RegistrationError(OrchestrationError, ValueError):
    """An agent registration the tree cannot hold: an unknown parent, a role its parent rules
    out, or an id already taken by a live agent of another role."""


class StepRefused(OrchestrationError, PermissionError):
    """An advisor step was refused before reaching the model: no live activation, an expired,
    spent or overlapping one, or a message in the step that is not the authorised delivery."""


class ToolNotPermitted(OrchestrationError, PermissionError):
    """An advisor tool call outside the advisor's ceiling (pinned ceiling ∩ the root's current
    policy ∩ what the requester can see), or a tool never granted to advisors at all."""


class BudgetRefused(OrchestrationError, PermissionError):
    """The task tree's budget cannot cover one more consultation (the total or the agent's manual cap)."""


class TurnRefused(OrchestrationError, PermissionError):
    """A consultation turn refused before dispatch: nothing was sent, spent or held."""

    def __init__(self, message: str, *, backoff: bool = False) -> None:
        super().__init__(message)
        self.backoff = backoff
        """An automatic trigger that failed this way backs off before it is tried again."""


class GatewayError(AdvisorError, RuntimeError):
    """``witness serve`` cannot carry out a request (the client's or the upstream's fault).

    The gateway answers it as an OpenAI-style error object with :attr:`status`::

        {"error": {"message": ..., "type": ..., "param": ..., "code": ...}}
    """

    status: int = 500
    """The HTTP status the gateway answers with."""
    kind: str = "server_error"
    """The error object's ``type``."""

    def __init__(self, message: str, *, code: str, status: int | None = None, param: str | None = None,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.message = message
        """What went wrong, for the client."""
        self.code = code
        """The error object's ``code``: one word a program can act on."""
        self.param = param
        """The request field at fault, when there is one."""
        self.headers = dict(headers or {})
        """Headers to send with the answer (``retry-after`` of a rate limit)."""
        if status is not None:
            self.status = status

    def body(self) -> dict[str, dict[str, str | None]]:
        """The OpenAI-style error object."""
        return {"error": {"message": self.message, "type": self.kind, "param": self.param, "code": self.code}}


class BadRequest(GatewayError, ValueError):
    """The client's request cannot be carried out as sent (400, or 401/413 where it says so)."""

    status = 400
    kind = "invalid_request_error"


class UpstreamFailed(GatewayError, ConnectionError):
    """The upstream provider failed, refused the gateway's key, or rate-limited it (502 or 429)."""

    status = 502
    kind = "upstream_error"


class UpstreamTimeout(UpstreamFailed, TimeoutError):
    """The upstream provider did not answer in time (504)."""

    status = 504
