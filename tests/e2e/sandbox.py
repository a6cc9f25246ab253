"""A throwaway world for one host run: its own HOME, project, witness state and egress trap.

Nothing a host does in a run reaches the real HOME: the environment it gets is built from
scratch (no variable of the test process leaks in), ``HOME``, ``TMPDIR`` and the XDG folders
point into the sandbox, and every proxy variable points at an :class:`EgressTrap` on loopback,
so an HTTP(S) request to anywhere but loopback is recorded instead of leaving the machine.
"""

from __future__ import annotations

import os
import shutil
import socketserver
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

WITNESS = Path(sys.executable).with_name("witness")
"""The ``witness`` command of the environment running the tests."""
RECORD_HOOK = Path(__file__).resolve().parent / "record_hook.py"
"""A hook that records each payload and a copy of the transcript as the hook saw it."""

SUM_JS_BROKEN = "module.exports = (a, b) => a - b;\n"
SUM_JS_FIXED = "module.exports = (a, b) => a + b;\n"
PROJECT_FILES = {
    "package.json": '{"name": "sum-app", "version": "1.0.0", "private": true,\n'
                    ' "scripts": {"test": "node sum.test.js"}}\n',
    "sum.js": SUM_JS_BROKEN,
    "sum.test.js": "const sum = require('./sum');\n"
                   "if (sum(2, 3) !== 5) { console.log('1 failed: sum(2, 3) is ' + sum(2, 3)); process.exit(1); }\n"
                   "console.log('1 passed');\n",
}
"""A one-file project whose `npm test` fails until ``sum.js`` adds instead of subtracting."""


PROXY_VARIABLES = ("HTTPS_PROXY", "HTTP_PROXY", "ALL_PROXY", "https_proxy", "http_proxy", "all_proxy")


class EgressTrap:
    """A loopback "proxy" that records every request made through it and refuses it (403)."""

    def __init__(self) -> None:
        self.attempts: list[str] = []
        """The first line of each request sent through it (``CONNECT host:443 HTTP/1.1`` …)."""
        trap = self

        class Handler(socketserver.BaseRequestHandler):
            def handle(self) -> None:
                self.request.settimeout(5)
                try:
                    first = self.request.recv(4096).split(b"\r\n", 1)[0]
                    trap.attempts.append(first.decode("latin-1"))
                    self.request.sendall(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                except OSError:
                    pass

        socketserver.ThreadingTCPServer.allow_reuse_address = True
        self._server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, name="egress-trap", daemon=True)

    def __enter__(self) -> EgressTrap:
        self._thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self._server.shutdown()
        self._server.server_close()


@dataclass
class Sandbox:
    """The folders and environment of one host run."""

    root: Path
    trap: EgressTrap
    extra_env: dict[str, str] = field(default_factory=dict)

    @property
    def home(self) -> Path:
        return self.root / "home"

    @property
    def project(self) -> Path:
        return self.root / "project"

    @property
    def witness_home(self) -> Path:
        """Where the witness hook keeps its block counters (``WITNESS_HOME``)."""
        return self.root / "witness-state"

    @property
    def hook_log(self) -> Path:
        """Where :data:`RECORD_HOOK` writes (one JSON line per hook call, transcript copies beside it)."""
        return self.root / "hook-log" / "calls.jsonl"

    def create(self) -> Sandbox:
        """Lay out the folders and the sample project."""
        for folder in (self.home, self.project, self.root / "tmp", self.hook_log.parent):
            folder.mkdir(parents=True, exist_ok=True)
        for name, text in PROJECT_FILES.items():
            (self.project / name).write_text(text, encoding="utf-8")
        return self

    def env(self) -> dict[str, str]:
        """The whole environment a host runs with."""
        node = shutil.which("node")
        folders = [str(Path(node).parent)] if node else []
        path = os.pathsep.join(dict.fromkeys([*folders, "/usr/local/bin", "/usr/bin", "/bin"]))
        proxy = dict.fromkeys(PROXY_VARIABLES, self.trap.url)
        return {
            "PATH": path, "HOME": str(self.home), "TMPDIR": str(self.root / "tmp"), "LANG": "C.UTF-8",
            "XDG_CONFIG_HOME": str(self.home / ".config"), "XDG_CACHE_HOME": str(self.home / ".cache"),
            "XDG_DATA_HOME": str(self.home / ".local/share"), "XDG_STATE_HOME": str(self.home / ".local/state"),
            "NO_COLOR": "1", "TERM": "dumb",
            **proxy, "NO_PROXY": "127.0.0.1,localhost,::1", "no_proxy": "127.0.0.1,localhost,::1",
            # The agent's own `npm test` must not look for npm updates either.
            "npm_config_update_notifier": "false", "npm_config_audit": "false", "npm_config_fund": "false",
            "WITNESS_HOME": str(self.witness_home), "E2E_HOOK_LOG": str(self.hook_log),
            **self.extra_env,
        }

