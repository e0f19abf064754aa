"""Recorded real Discuz! X3.5 answers served back to the adapter (the cassette idea of praw/vcrpy).

``captures/`` holds HTTP exchanges recorded on real X3.5 sites (UTF-8 and GBK) by a mobile-API client:
one JSON file per call, ``{"request": {method, path, query, form, user}, "_http": status,
"content_type", "json": body | "_nonjson": text}``; a few files are a bare answer body. See
``captures/README.md``. A :class:`Cassette` answers the adapter's requests with them, in the recorded
order, and fails the test when the adapter asks for something the real forum was not asked.

Matching: the next unused exchange with the same method and module whose recorded ``subop``, ``tid``,
``fid``, ``touid``, ``filter`` and ``page`` the request repeats (``version``, ``perpage``, ``ppp`` and
form fields are not compared: they are recorded in :attr:`Cassette.requests` for the test to check).
A GET ``forumindex`` or ``login`` is answered by the next recorded GET of either (both give the
session and its formhash), or, when the recording has none next, by the latest one served (the adapter reads the formhash at other moments than the recording client did); ``?check``
is answered by ``check`` (a recorded answer) or an empty body, as a fresh install answers.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import httpx
from fake_discuz import multipart

CAPTURES = Path(__file__).with_name("captures")
_KEYS = ("subop", "tid", "fid", "touid", "filter", "page")
_AMBIENT = {"forumindex", "login"}


@dataclass
class Exchange:
    """One recorded call: the request's method, query and user; the answer's status and body."""

    name: str
    method: str
    query: dict[str, str]
    status: int
    content_type: str
    body: bytes
    user: str = ""
    used: bool = False

    @property
    def module(self) -> str:
        return self.query.get("module", "")

    def answer(self) -> httpx.Response:
        return httpx.Response(self.status, content=self.body, headers={"content-type": self.content_type})


@dataclass
class Request:
    """What the adapter sent: method, query, form fields (decoded), raw body and headers."""

    method: str
    query: dict[str, str]
    form: dict[str, Any]
    content: bytes
    headers: dict[str, str]
    served: str
    at: float = 0.0

    @property
    def module(self) -> str:
        return self.query.get("module", "")


def capture(path: str) -> dict[str, Any]:
    """A capture file (relative to ``captures/``) as JSON."""
    return json.loads((CAPTURES / path).read_text("utf-8"))


def load(path: str, user: str | None = None) -> list[Exchange]:
    """The exchanges of a capture file, or of every ``*.json`` of a folder (file-name order), made by
    ``user`` only when given (captures mix the judge's and players' calls)."""
    root = CAPTURES / path
    files = sorted(root.glob("*.json")) if root.is_dir() else [root]
    out = []
    for f in files:
        data = json.loads(f.read_text("utf-8"))
        if "request" not in data:
            continue
        request = data["request"]
        if user is not None and request.get("user") != user:
            continue
        out.append(_exchange(f.name, data))
    return out


def body(path: str, method: str = "GET", **query: str) -> Exchange:
    """A bare recorded answer body (a file without its request) served to ``method`` with ``query``."""
    data = capture(path)
    return Exchange(Path(path).name, method, {k: str(v) for k, v in query.items()}, 200, "application/json",
                    json.dumps(data, ensure_ascii=False).encode("utf-8"))


def _exchange(name: str, data: dict[str, Any]) -> Exchange:
    request = data["request"]
    if "json" in data:
        content = json.dumps(data["json"], ensure_ascii=False).encode("utf-8")
    else:
        content = str(data.get("_nonjson", "")).encode("utf-8")
    return Exchange(name, request["method"], {k: str(v) for k, v in (request.get("query") or {}).items()},
                    int(data.get("_http") or 200), str(data.get("content_type") or "application/json"), content,
                    str(request.get("user") or ""))


@dataclass
class Cassette:
    """An httpx transport answering from recorded exchanges (see the module docstring).

    ``charset`` decodes form bodies for :attr:`requests` ("utf-8" or "gbk"); ``check`` is the answer
    to ``?check`` (a capture path) or None for an empty body; ``clock`` (seconds) stamps each request.
    """

    exchanges: list[Exchange]
    check: str | None = None
    charset: str = "utf-8"
    clock: Callable[[], float] | None = None
    requests: list[Request] = field(default_factory=list)
    _last_ambient: dict[str, Exchange] = field(default_factory=dict)

    @property
    def transport(self) -> httpx.MockTransport:
        return httpx.MockTransport(self.handle)

    def handle(self, request: httpx.Request) -> httpx.Response:
        query = dict(request.url.params.items())
        form = self._form(request)
        if "check" in query and "module" not in query:
            self._log(request, query, form, "check")
            if self.check is None:
                return httpx.Response(200, content=b"")
            return httpx.Response(200, content=json.dumps(capture(self.check)).encode(), headers={
                "content-type": "application/json"})
        module = query.get("module", request.url.path)
        found = self._next(request.method, query)
        if found is None and request.method == "GET" and module in _AMBIENT:
            found = self._last_ambient.get(module) or self._last_ambient.get("forumindex")
        if found is None:
            waiting = [f"{e.name} ({e.method} {e.module})" for e in self.exchanges if not e.used][:3]
            raise AssertionError(f"the real forum was not asked {request.method} {query} here; next recorded: {waiting}")
        found.used = True
        if found.method == "GET" and found.module in _AMBIENT:
            self._last_ambient[found.module] = found
            self._last_ambient.setdefault("login", found)
        self._log(request, query, form, found.name)
        return found.answer()

    def _next(self, method: str, query: dict[str, str]) -> Exchange | None:
        module = query.get("module", "")
        ambient = method == "GET" and module in _AMBIENT
        for e in self.exchanges:
            if e.used:
                continue
            if ambient and e.method == "GET" and e.module in _AMBIENT:
                return e  # a guest GET login and a GET forumindex both give the session and its formhash
            if e.method == method and e.module == module and all(
                    e.query[k] == query.get(k) for k in _KEYS if k in e.query):
                return e
            if e.method == "GET" and e.module in _AMBIENT:
                continue  # the recording client read the formhash here; the adapter need not
            return None
        return None

    def _form(self, request: httpx.Request) -> dict:
        if request.method != "POST" or not request.content:
            return {}
        if request.headers.get("content-type", "").startswith("multipart/form-data"):
            return multipart(request)  # a picture upload: text fields as str, the file as bytes
        text = request.content.decode("ascii", errors="replace")
        return {k: v[-1] for k, v in parse_qs(text, keep_blank_values=True, encoding=self.charset).items()}

    def _log(self, request: httpx.Request, query: dict[str, str], form: dict[str, str], served: str) -> None:
        at = self.clock() if self.clock is not None else 0.0
        self.requests.append(Request(request.method, query, form, request.content, dict(request.headers), served, at))

    def unused(self) -> list[str]:
        """Names of recorded exchanges not served (the adapter skipped a call the forum answered)."""
        return [e.name for e in self.exchanges if not e.used and not (e.method == "GET" and e.module in _AMBIENT)]

    def sent(self, module: str) -> list[Request]:
        """The requests of ``module`` the adapter sent, in order."""
        return [r for r in self.requests if r.module == module]
