"""A fault-injecting HTTP proxy between the bot and a real FlaskBB (the test forum), for the e2e tests of a
misbehaving forum. It forwards every request unchanged (cookies, redirects, the Host the bot asked for)
and, by a seeded draw per request, misbehaves the way overloaded forums do:

- ``hold_post``: a POST is held ``hold_seconds`` (past the bot's timeout) and then forwarded: the forum
  performs it although the bot gave up on it (an overloaded forum working through its queue);
- ``fail``: the request fails: HTTP 500 or 503 (with ``Retry-After: 1``) without reaching the forum, the
  connection closed without an answer, or — for one failure in four — forwarded and performed, then
  answered 502 (the forum did it, the bot is told it failed).

And, for every request, slow on purpose (a forum that is slow, not a machine that is):

- ``delay_all``: every request is forwarded ``delay_all`` seconds after it arrived;
- ``delay_write``: every POST is forwarded ``delay_write`` seconds after it arrived (on top of ``delay_all``).

``counts`` tallies what was done, per kind, for the report; ``requests`` lists every request as
``(method, path, arrived, status)`` (a UTC datetime; the status the bot was given, 0 when it got none), so a
test can tell what the bot did between two instants in its own terms (e.g. how many times it read the inbox).
"""

from __future__ import annotations

import http.client
import random
import threading
import time
from collections import Counter
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

HOP = {"connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade",
       "content-length"}


class FaultProxy:
    """``FaultProxy(target).start()``; ``base_url`` is what the bot uses instead of ``target``."""

    def __init__(self, target: str, *, hold_post: float = 0.0, hold_seconds: float = 3.0, fail: float = 0.0,
                 seed: int = 1, delay_all: float = 0.0, delay_write: float = 0.0) -> None:
        parts = urlsplit(target)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.hold_post, self.hold_seconds, self.fail = hold_post, hold_seconds, fail
        self.delay_all, self.delay_write = delay_all, delay_write
        self.rng = random.Random(seed)
        self.lock = threading.Lock()
        self.counts: Counter[str] = Counter()
        self.requests: list[tuple[str, str, datetime, int]] = []
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args) -> None:  # quiet
                pass

            def _any(self) -> None:
                proxy.handle(self)

            do_GET = do_POST = do_HEAD = _any

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def start(self) -> FaultProxy:
        self.thread.start()
        return self

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def __enter__(self) -> FaultProxy:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()

    def _draw(self, method: str) -> str:
        with self.lock:
            if method == "POST" and self.rng.random() < self.hold_post:
                what = "held"
            elif self.rng.random() < self.fail:
                what = self.rng.choice(["500", "503", "drop", "done-502"])
            else:
                what = "ok"
            self.counts[f"{method} {what}"] += 1
            return what

    def handle(self, h: BaseHTTPRequestHandler) -> None:
        arrived = datetime.now(UTC)
        status = self._handle(h)
        with self.lock:
            self.requests.append((h.command, h.path, arrived, status))

    def _handle(self, h: BaseHTTPRequestHandler) -> int:
        length = int(h.headers.get("Content-Length") or 0)
        body = h.rfile.read(length) if length else b""
        what = self._draw(h.command)
        if what == "500":
            return self._answer(h, 500, [("Content-Type", "text/plain")], b"Internal Server Error (fault proxy)")
        if what == "503":
            return self._answer(h, 503, [("Retry-After", "1"), ("Content-Type", "text/plain")], b"busy (fault proxy)")
        if what == "drop":
            h.close_connection = True
            return 0
        delay = self.delay_all + (self.delay_write if h.command == "POST" else 0.0)
        if delay:
            time.sleep(delay)
        if what == "held":
            time.sleep(self.hold_seconds)
        try:
            status, headers, data = self._forward(h, body)
        except OSError:  # the forum is down (stopped by the test): the bot finds it as it would without us
            h.close_connection = True
            return 0
        if what == "done-502":
            status, headers, data = 502, [("Content-Type", "text/plain")], b"Bad Gateway (fault proxy)"
        return self._answer(h, status, headers, data)

    def between(self, after: datetime, before: datetime) -> list[tuple[str, str, datetime, int]]:
        """The requests that arrived after ``after`` and before ``before``."""
        with self.lock:
            return [r for r in self.requests if after < r[2] < before]

    def _forward(self, h: BaseHTTPRequestHandler, body: bytes) -> tuple[int, list[tuple[str, str]], bytes]:
        conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
        try:
            headers = {k: v for k, v in h.headers.items() if k.lower() not in HOP}
            conn.request(h.command, h.path, body=body or None, headers=headers)
            response = conn.getresponse()
            data = response.read()
            return response.status, [(k, v) for k, v in response.getheaders() if k.lower() not in HOP], data
        finally:
            conn.close()

    def _answer(self, h: BaseHTTPRequestHandler, status: int, headers: list[tuple[str, str]],
                data: bytes) -> int:
        try:
            h.send_response(status)
            for k, v in headers:
                h.send_header(k, v)
            h.send_header("Content-Length", str(len(data)))
            h.end_headers()
            h.wfile.write(data)
        except OSError:  # the bot gave up on this request (a held write): it was performed all the same
            h.close_connection = True
            return 0
        return status
