"""A scripted model server on loopback that speaks the providers' wire formats.

Real SDKs and real agent programs (the ``openai`` and ``anthropic`` SDKs, the Codex CLI,
Claude Code) talk to it as they would to the provider: OpenAI chat completions
(``POST /v1/chat/completions``), OpenAI Responses (``POST /v1/responses``), Anthropic Messages
(``POST /v1/messages``, and ``/v1/messages/count_tokens``), and ``GET /v1/models`` — streamed
(server-sent events exactly as each provider sends them) or not, text, reasoning and tool
calls. What it answers is scripted per request, from a queue or by matcher functions, and can
be a fault: 429 with ``retry-after``, a 5xx, a hang past the client's timeout, a dropped
connection, or raw bytes (a proxy's HTML page, JSON of another shape). Every request is
recorded (headers and JSON body) for assertions.

It is a test double for a remote model, and says so: its default model is
``scripted-test-double``.

::

    with ModelServer() as server:
        server.enqueue(Reply(text="Severity: none"), RateLimited(), Reply(tool_calls=[ToolCall("read", {"path": "a"})]))
        client = OpenAI(base_url=server.openai_base_url, api_key="test")
        ...
        assert server.requests[0].body["model"] == "gpt-test"

Uvicorn serves it from a background thread on an ephemeral port of 127.0.0.1.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from types import TracebackType
from typing import Any

import anyio
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from tests.support import wire_anthropic, wire_chat, wire_responses
from tests.support.ids import Ids
from tests.support.script import (
    Api,
    Drop,
    Hang,
    Held,
    HttpError,
    Matcher,
    RateLimited,
    Raw,
    RecordedRequest,
    Reply,
    Script,
    ServerError,
    estimate_tokens,
)

DEFAULT_MODEL = "scripted-test-double"
_ANTHROPIC_APIS = ("messages", "count_tokens")


class ModelServer:
    """A scripted model server; a context manager that serves while it is open."""

    def __init__(self, *, default: Script | None = None, models: Sequence[str] = (DEFAULT_MODEL,),
                 validate: bool = True, api_key: str | None = None, host: str = "127.0.0.1") -> None:
        """``default`` answers when nothing else is scripted (else a 400 says nothing was);
        ``validate`` refuses, with the provider's 400, requests the provider would refuse
        (unpaired tool calls and results, a missing ``max_tokens``, too many cache breakpoints);
        ``api_key``, when set, is required as the provider requires it (401 otherwise)."""
        self.default = default
        self.models = list(models)
        self.validate = validate
        self.api_key = api_key
        self.ids = Ids()
        self._host = host
        self._queue: deque[Script] = deque()
        self._matchers: list[Matcher] = []
        self._requests: list[RecordedRequest] = []
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self._port = 0
        self._in_flight: dict[str, int] = {}
        self._peak: dict[str, int] = {}

    # -- scripting ------------------------------------------------------------------------

    def enqueue(self, *scripts: Script) -> ModelServer:
        """Answer the next requests with these, in order (after any matcher that answers)."""
        with self._lock:
            self._queue.extend(scripts)
        return self

    def on(self, matcher: Matcher) -> Matcher:
        """Add a matcher: it sees each request first and answers it unless it returns ``None``.
        Usable as a decorator."""
        with self._lock:
            self._matchers.append(matcher)
        return matcher

    @property
    def requests(self) -> list[RecordedRequest]:
        """Every request received so far, in order."""
        with self._lock:
            return list(self._requests)

    def requests_to(self, api: Api) -> list[RecordedRequest]:
        """The requests received on one endpoint."""
        return [r for r in self.requests if r.api == api]

    @property
    def pending(self) -> int:
        """How many queued answers are still unused."""
        with self._lock:
            return len(self._queue)

    def peak_in_flight(self, model: str) -> int:
        """The most requests naming ``model`` the server was answering at once."""
        with self._lock:
            return self._peak.get(model, 0)

    def in_flight(self, model: str) -> int:
        """Requests naming ``model`` being answered now."""
        with self._lock:
            return self._in_flight.get(model, 0)

    def reset(self) -> None:
        """Forget the queue, the matchers and the recorded requests."""
        with self._lock:
            self._queue.clear()
            self._matchers.clear()
            self._requests.clear()

    def _next(self, request: RecordedRequest) -> Script | None:
        with self._lock:
            matchers = list(self._matchers)
        for matcher in matchers:
            answer = matcher(request)
            if answer is not None:
                return answer
        with self._lock:
            if self._queue:
                return self._queue.popleft()
        return self.default

    # -- addresses ------------------------------------------------------------------------

    @property
    def port(self) -> int:
        """The port it listens on (0 before it starts)."""
        return self._port

    @property
    def url(self) -> str:
        """``http://127.0.0.1:<port>`` — Anthropic's base URL form (the SDK adds ``/v1``)."""
        return f"http://{self._host}:{self._port}"

    @property
    def openai_base_url(self) -> str:
        """``http://127.0.0.1:<port>/v1`` — OpenAI's base URL form."""
        return self.url + "/v1"

    @property
    def anthropic_base_url(self) -> str:
        """The base URL to give the Anthropic SDK or Claude Code (``ANTHROPIC_BASE_URL``)."""
        return self.url

    # -- lifecycle ------------------------------------------------------------------------

    def start(self) -> ModelServer:
        """Serve from a background thread; returns once it accepts connections."""
        # IPPROTO_TCP, not 0: asyncio turns Nagle off only for sockets that say they are TCP, and a
        # response written in two parts would otherwise wait out the client's delayed ACK (~40 ms).
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((self._host, 0))
        listener.listen(128)
        self._port = listener.getsockname()[1]
        config = uvicorn.Config(self._app(), lifespan="off", log_level="critical", access_log=False,
                                http="h11", ws="none", loop="asyncio", timeout_graceful_shutdown=2)
        self._server = uvicorn.Server(config)
        self._stopping.clear()
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [listener]},
                                        name=f"model-server:{self._port}", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 30
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the scripted model server did not start")
            time.sleep(0.005)
        return self

    def stop(self) -> None:
        """Stop serving (a hanging answer ends at once)."""
        self._stopping.set()
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)
        self._server = self._thread = None

    def __enter__(self) -> ModelServer:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.stop()

    # -- the application ------------------------------------------------------------------

    def _app(self) -> Starlette:
        def endpoint(api: Api) -> Callable[[Request], Any]:
            async def handle(request: Request) -> Response:
                return await self._handle(request, api)
            return handle

        routes = [
            Route("/v1/chat/completions", endpoint("chat"), methods=["POST"]),
            Route("/v1/responses", endpoint("responses"), methods=["POST"]),
            Route("/v1/messages", endpoint("messages"), methods=["POST"]),
            Route("/v1/messages/count_tokens", endpoint("count_tokens"), methods=["POST"]),
            Route("/v1/models", endpoint("models"), methods=["GET"]),
            Route("/v1/models/{model:path}", endpoint("models"), methods=["GET"]),
        ]
        return Starlette(routes=routes)

    async def _handle(self, request: Request, api: Api) -> Response:
        raw = await request.body()
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            return self._error(api, 400, "We could not parse the JSON body of your request.", None)
        recorded = RecordedRequest(api=api, method=request.method, path=request.url.path,
                                   query=request.url.query, body=body,
                                   headers={k.lower(): v for k, v in request.headers.items()})
        with self._lock:
            self._requests.append(recorded)
        if not self._authorised(recorded):
            return self._error(api, 401, "invalid x-api-key" if api in _ANTHROPIC_APIS
                               else "Incorrect API key provided.", None)
        if api == "models":
            return JSONResponse(self._models(recorded))
        if api == "count_tokens":
            return JSONResponse({"input_tokens": estimate_tokens(raw.decode("utf-8", "replace"))})
        problem = self._problem(api, body) if self.validate else None
        if problem is not None:
            return self._error(api, 400, problem, None)
        model = str(recorded.model)
        with self._lock:
            self._in_flight[model] = self._in_flight.get(model, 0) + 1
            self._peak[model] = max(self._peak.get(model, 0), self._in_flight[model])
        try:
            script = self._next(recorded)
            if isinstance(script, Held):
                deadline = time.monotonic() + script.seconds
                while not script.release.is_set() and not self._stopping.is_set() and time.monotonic() < deadline:
                    await anyio.sleep(0.005)
                script = script.reply
            if script is None:
                return self._error(api, 400, "scripted model server: no answer is scripted for this request", None)
            return self._render(script, recorded)
        finally:
            with self._lock:
                self._in_flight[model] -= 1

    def _authorised(self, request: RecordedRequest) -> bool:
        if self.api_key is None:
            return True
        offered = {request.headers.get("x-api-key"), request.headers.get("authorization", "").removeprefix("Bearer ")}
        return self.api_key in offered

    def _models(self, request: RecordedRequest) -> dict[str, Any]:
        anthropic = "anthropic-version" in request.headers
        wanted = request.path.removeprefix("/v1/models").strip("/")
        rows = [{"type": "model", "id": m, "display_name": m, "created_at": "2026-01-01T00:00:00Z"} if anthropic
                else {"id": m, "object": "model", "created": 1767225600, "owned_by": "scripted"}
                for m in self.models]
        if wanted:
            return next((row for row in rows if row["id"] == wanted), rows[0])
        if anthropic:
            return {"data": rows, "has_more": False, "first_id": self.models[0], "last_id": self.models[-1]}
        return {"object": "list", "data": rows}

    @staticmethod
    def _problem(api: Api, body: Any) -> str | None:
        if api == "chat":
            return wire_chat.problem(body)
        if api == "responses":
            return wire_responses.problem(body)
        return wire_anthropic.problem(body)

    def _request_id_header(self, api: Api) -> dict[str, str]:
        if api in _ANTHROPIC_APIS:
            return {"request-id": self.ids.make("req_01")}
        return {"x-request-id": self.ids.make("req_", 32), "openai-processing-ms": "1"}

    def _error(self, api: Api, status: int, message: str, error_type: str | None,
               headers: dict[str, str] | None = None) -> Response:
        head = {**self._request_id_header(api), **(headers or {})}
        if api in _ANTHROPIC_APIS:
            body = wire_anthropic.error(status, message, error_type, head["request-id"])
        else:
            body = wire_chat.error(status, message, error_type)
        return JSONResponse(body, status_code=status, headers=head)

    def _render(self, script: Script, request: RecordedRequest) -> Response:
        api = request.api
        if isinstance(script, Held):  # _handle waited for its release; what is left is its reply
            script = script.reply
        if isinstance(script, RateLimited):
            wait = {"retry-after": str(max(0, round(script.retry_after))),
                    "retry-after-ms": str(round(script.retry_after * 1000))}
            return self._error(api, 429, script.message, None, wait)
        if isinstance(script, ServerError | HttpError):
            return self._error(api, script.status, script.message, getattr(script, "error_type", None))
        if isinstance(script, Hang):
            return _HangResponse(script.seconds, self._stopping)
        if isinstance(script, Raw):
            return Response(script.body, status_code=script.status, media_type=script.content_type,
                            headers=self._request_id_header(api))
        if isinstance(script, Drop):
            if request.stream:
                return self._stream(script.reply, request, cut_after=script.after_events)
            return _DropResponse()
        if request.stream:
            return self._stream(script, request)
        if api == "chat":
            body = wire_chat.completion(script, request, self.ids)
        elif api == "responses":
            body = wire_responses.response(script, request, self.ids)
        else:
            body = wire_anthropic.message(script, request, self.ids)
        return JSONResponse(body, headers=self._request_id_header(api))

    def _stream(self, reply: Reply, request: RecordedRequest, cut_after: int | None = None) -> Response:
        frames = list(_sse(reply, request, self.ids))

        async def body() -> AsyncIterator[bytes]:
            for number, frame in enumerate(frames):
                if cut_after is not None and number >= cut_after:
                    raise _Dropped
                yield frame
                await anyio.sleep(0)

        headers = {**self._request_id_header(request.api), "cache-control": "no-cache"}
        return StreamingResponse(body(), media_type="text/event-stream; charset=utf-8", headers=headers)


def _sse(reply: Reply, request: RecordedRequest, ids: Ids) -> Iterable[bytes]:
    """The server-sent event frames of a streamed answer."""
    if request.api == "chat":
        for chunk in wire_chat.stream(reply, request, ids):
            yield f"data: {json.dumps(chunk)}\n\n".encode()
        yield b"data: [DONE]\n\n"
        return
    events = wire_responses.stream(reply, request, ids) if request.api == "responses" \
        else wire_anthropic.stream(reply, request, ids)
    for name, data in events:
        yield f"event: {name}\ndata: {json.dumps(data)}\n\n".encode()


class _Dropped(Exception):
    """Raised inside the server to make Uvicorn close the connection mid-response."""


class _DropResponse(Response):
    """Sends the status line and headers of a JSON answer, a few bytes, then closes."""

    def __init__(self) -> None:
        super().__init__()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", b"4096")]})
        await send({"type": "http.response.body", "body": b'{"id": "cut-off', "more_body": True})
        raise _Dropped


class _HangResponse(Response):
    """Answers nothing until ``seconds`` pass, the client disconnects, or the server stops."""

    def __init__(self, seconds: float, stopping: threading.Event) -> None:
        super().__init__()
        self._seconds = seconds
        self._stopping = stopping

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        deadline = time.monotonic() + self._seconds
        while time.monotonic() < deadline and not self._stopping.is_set():
            with anyio.move_on_after(0.02):
                if (await receive())["type"] == "http.disconnect":
                    return
        await send({"type": "http.response.start", "status": 504,
                    "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": b'{"error": {"message": "scripted hang ended"}}'})
