"""Recorded real NodeBB 4 answers served back to the adapter (the cassette idea of vcrpy), and the recorder.

``captures/<scenario>/`` holds one JSON file per HTTP exchange recorded on a live NodeBB v4.11.2 by the
adapter itself (:class:`Recorder`, run by ``record_nodebb.py``): ``{"request": {"user", "method", "path",
"query", "json"}, "status", "content_type", "body"}``. Only what the forum answered is kept, never its
code; the login's password and the bearer token are not recorded (the password field is replaced by
``"***"``; the token travels in a header, and headers are not kept).

A :class:`Cassette` answers one account's requests with that account's recorded exchanges in order and
fails the test when the adapter asks for anything else (method and path, the query without ``lang``, the
JSON body without the password): the adapter must ask the real forum exactly what it asked when recorded.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

CAPTURES = Path(__file__).with_name("captures")


def _query(request: httpx.Request) -> dict[str, str]:
    return {k: v for k, v in request.url.params.items() if k != "lang"}


def _body(request: httpx.Request) -> Any:
    if not request.content:
        return None
    try:
        data = json.loads(request.content.decode("utf-8"))
    except ValueError:
        return request.content.decode("utf-8", errors="replace")
    if isinstance(data, dict) and "password" in data:
        data = {**data, "password": "***"}
    return data


@dataclass
class Exchange:
    name: str
    user: str
    method: str
    path: str
    query: dict[str, str]
    json: Any
    status: int
    content_type: str
    body: str
    used: bool = False

    def answer(self) -> httpx.Response:
        return httpx.Response(self.status, content=self.body.encode("utf-8"),
                              headers={"content-type": self.content_type})


def load(scenario: str, user: str | None = None) -> list[Exchange]:
    """The exchanges of ``captures/<scenario>/`` in file-name order, those of ``user`` only when given."""
    out = []
    for f in sorted((CAPTURES / scenario).glob("*.json")):
        if f.name.startswith("_"):  # _ctx.json: the ids the scenario was recorded with
            continue
        data = json.loads(f.read_text("utf-8"))
        r = data["request"]
        if user is not None and r["user"] != user:
            continue
        out.append(Exchange(f.name, r["user"], r["method"], r["path"], dict(r.get("query") or {}), r.get("json"),
                            int(data["status"]), str(data.get("content_type") or "application/json"),
                            str(data.get("body") or "")))
    return out


@dataclass
class Cassette:
    """An httpx transport answering ``user``'s requests from ``captures/<scenario>/``, strictly in order."""

    scenario: str
    user: str
    exchanges: list[Exchange] = field(default_factory=list)
    requests: list[httpx.Request] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.exchanges = load(self.scenario, self.user)

    @property
    def transport(self) -> httpx.MockTransport:
        return httpx.MockTransport(self.handle)

    def handle(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        nxt = next((e for e in self.exchanges if not e.used), None)
        asked = (request.method, request.url.path, _query(request), _body(request))
        if nxt is None or (nxt.method, nxt.path, nxt.query, nxt.json) != asked:
            expected = None if nxt is None else (nxt.name, nxt.method, nxt.path, nxt.query, nxt.json)
            raise AssertionError(f"{self.user} asked the forum {asked}; the recording has next {expected}")
        nxt.used = True
        return nxt.answer()

    def unused(self) -> list[str]:
        """Recorded exchanges the adapter did not ask for."""
        return [e.name for e in self.exchanges if not e.used]

    def paths(self) -> list[str]:
        """``METHOD path`` of every request sent, in order."""
        return [f"{r.method} {r.url.path}" for r in self.requests]


class Recorder(httpx.BaseTransport):
    """Sends requests to the live forum and writes each exchange to ``captures/<scenario>/`` (shared
    counter across the accounts of a scenario, so file names keep the real order)."""

    def __init__(self, scenario: str, user: str, counter: list[int]):
        self.folder = CAPTURES / scenario
        self.folder.mkdir(parents=True, exist_ok=True)
        self.user = user
        self.counter = counter
        self.inner = httpx.HTTPTransport()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self.inner.handle_request(request)
        response.read()
        self.counter[0] += 1
        slug = request.url.path.strip("/").replace("/", "_")[:60]
        name = f"{self.counter[0]:03d}_{self.user}_{request.method}_{slug}.json"
        text = response.content.decode("utf-8", errors="replace")
        record = {"request": {"user": self.user, "method": request.method, "path": request.url.path,
                              "query": _query(request), "json": _body(request)},
                  "status": response.status_code,
                  "content_type": response.headers.get("content-type", ""),
                  "body": text}
        (self.folder / name).write_text(json.dumps(record, ensure_ascii=False, indent=1) + "\n", "utf-8")
        return httpx.Response(response.status_code, headers=response.headers, content=response.content)
