"""A real loopback HTTP server that speaks the OpenAI chat-completions protocol.

For tests (ours and the web service's): it listens on ``127.0.0.1`` on a random
free port, records every request, and replays scripted replies in order:
plain answers, slow answers, HTTP errors with ``Retry-After``, malformed JSON,
prose around the verdict. Nothing here calls the internet.

>>> from sadame.llm._openai import OpenAICompatProvider
>>> with FakeOpenAIServer("YES", Reply(status=429, headers={"Retry-After": "0"}), "NO") as server:
...     provider = OpenAICompatProvider(server.base_url, "fake-model")
...     provider.complete([{"role": "user", "content": "q"}])
...     provider.complete([{"role": "user", "content": "q"}])  # 429, retried, then "NO"
...     server.request_count
'YES'
'NO'
3
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["FakeOpenAIServer", "RecordedRequest", "Reply", "completion_body"]


@dataclass(frozen=True)
class Reply:
    """One scripted answer.

    ``content`` becomes a chat-completion body; ``body`` (str/bytes) is sent
    verbatim instead (malformed JSON, HTML error pages); ``status`` and
    ``headers`` set the HTTP status and headers; ``delay`` sleeps before answering.
    """

    content: str | None = None
    status: int = 200
    delay: float = 0.0
    headers: Mapping[str, str] = field(default_factory=dict)
    body: str | bytes | None = None


@dataclass(frozen=True)
class RecordedRequest:
    """A request the server received: method, path, headers, raw body and parsed JSON."""

    method: str
    path: str
    headers: Mapping[str, str]
    raw: bytes
    json: Any

    @property
    def messages(self) -> list[dict[str, Any]]:
        """The chat messages of a chat-completions request ([] otherwise)."""
        if isinstance(self.json, dict) and isinstance(self.json.get("messages"), list):
            return list(self.json["messages"])
        return []

    @property
    def prompt(self) -> str:
        """All message contents joined, for assertions on what the model was told."""
        return "\n".join(str(m.get("content", "")) for m in self.messages)


def completion_body(content: str, model: str = "fake-model") -> dict[str, Any]:
    """A minimal OpenAI chat-completion response carrying ``content``."""
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}
        ],
        "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
    }


Responder = Callable[[RecordedRequest], "Reply | str"]


class FakeOpenAIServer:
    """A threaded HTTP server on 127.0.0.1:<random port> replaying scripted replies.

    Replies are taken in order from the script; when it is empty, ``responder``
    (a function of the request) answers, else ``default``, else HTTP 500 with
    ``{"error": "no scripted reply"}`` so a test that under-scripts fails loudly.
    """

    def __init__(
        self,
        *replies: Reply | str,
        default: Reply | str | None = None,
        responder: Responder | None = None,
    ) -> None:
        self._script: deque[Reply] = deque(_as_reply(r) for r in replies)
        self._default = _as_reply(default) if default is not None else None
        self.responder = responder
        self.requests: list[RecordedRequest] = []
        self._lock = threading.Lock()
        self._in_flight = 0
        self.max_in_flight = 0
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def default(self) -> Reply | None:
        """The reply used when the script is empty and there is no responder."""
        return self._default

    @default.setter
    def default(self, reply: Reply | str | None) -> None:
        self._default = _as_reply(reply) if reply is not None else None

    # -- lifecycle -------------------------------------------------------
    def start(self) -> FakeOpenAIServer:
        """Bind a free loopback port and serve in a daemon thread."""
        if self._server is not None:
            raise RuntimeError("FakeOpenAIServer is already running")
        handler = _make_handler(self)
        server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        server.daemon_threads = True
        self._server = server
        self._thread = threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.02}, name="fake-openai", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and release the port."""
        if self._server is None:
            return
        self._server.shutdown()
        self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._server = None
        self._thread = None

    def __enter__(self) -> FakeOpenAIServer:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()

    # -- scripting and inspection ----------------------------------------
    @property
    def port(self) -> int:
        if self._server is None:
            raise RuntimeError("FakeOpenAIServer is not running")
        return int(self._server.server_address[1])

    @property
    def base_url(self) -> str:
        """The OpenAI-style base URL, ``http://127.0.0.1:<port>/v1``."""
        return f"http://127.0.0.1:{self.port}/v1"

    def script(self, *replies: Reply | str) -> None:
        """Append replies to the script."""
        with self._lock:
            self._script.extend(_as_reply(r) for r in replies)

    @property
    def chat_requests(self) -> list[RecordedRequest]:
        """The chat-completions requests received so far."""
        with self._lock:
            return [r for r in self.requests if r.path.rstrip("/").endswith("/chat/completions")]

    @property
    def request_count(self) -> int:
        """How many chat-completions requests arrived (each retry counts)."""
        return len(self.chat_requests)

    # -- internals ---------------------------------------------------------
    def _next_reply(self, request: RecordedRequest) -> Reply:
        with self._lock:
            self.requests.append(request)
            if self._script:
                return self._script.popleft()
        if self.responder is not None:
            try:
                return _as_reply(self.responder(request))
            except Exception as exc:  # a broken responder is a loud 500, not a hung test
                return Reply(
                    status=500, body=json.dumps({"error": {"message": f"responder failed: {exc!r}"}})
                )
        if self._default is not None:
            return self._default
        return Reply(status=500, body=json.dumps({"error": {"message": "no scripted reply"}}))

    def _enter(self) -> None:
        with self._lock:
            self._in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self._in_flight)

    def _leave(self) -> None:
        with self._lock:
            self._in_flight -= 1


def _as_reply(reply: Reply | str) -> Reply:
    return Reply(content=reply) if isinstance(reply, str) else reply


class _FakeHandler(BaseHTTPRequestHandler):
    owner: FakeOpenAIServer  # set per server by _make_handler
    protocol_version = "HTTP/1.1"
    # One segment per answer, sent at once: no Nagle / delayed-ACK stalls on keep-alive.
    disable_nagle_algorithm = True
    wbufsize = -1

    def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
        return

    def _record(self) -> RecordedRequest:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            parsed: Any = json.loads(raw) if raw else None
        except ValueError:
            parsed = None
        return RecordedRequest(self.command, self.path, dict(self.headers.items()), raw, parsed)

    def _send(self, reply: Reply, model: str) -> None:
        if reply.body is not None:
            payload = reply.body.encode("utf-8") if isinstance(reply.body, str) else reply.body
        else:
            payload = json.dumps(completion_body(reply.content or "", model), ensure_ascii=False).encode()
        try:
            self.send_response(reply.status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            for name, value in reply.headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(payload)
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout test)
            pass

    def do_GET(self) -> None:
        request = self._record()
        with self.owner._lock:
            self.owner.requests.append(request)
        if self.path.rstrip("/").endswith("/models"):
            body = json.dumps({"object": "list", "data": [{"id": "fake-model", "object": "model"}]})
            self._send(Reply(body=body), "fake-model")
        else:
            self._send(Reply(status=404, body='{"error": "not found"}'), "fake-model")

    def do_POST(self) -> None:
        request = self._record()
        if not self.path.rstrip("/").endswith("/chat/completions"):
            with self.owner._lock:
                self.owner.requests.append(request)
            self._send(Reply(status=404, body='{"error": "not found"}'), "fake-model")
            return
        # In flight means "being answered": it ends before the answer is sent, since a
        # client that has its answer may start its next request before this thread runs on.
        self.owner._enter()
        try:
            reply = self.owner._next_reply(request)
            if reply.delay:
                time.sleep(reply.delay)
        finally:
            self.owner._leave()
        model = (
            request.json.get("model", "fake-model")
            if isinstance(request.json, dict)
            else "fake-model"
        )
        self._send(reply, str(model))


def _make_handler(owner: FakeOpenAIServer) -> type[BaseHTTPRequestHandler]:
    return type("Handler", (_FakeHandler,), {"owner": owner})
