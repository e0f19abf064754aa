"""Recorded real phpBB 3.3 answers served back to the adapter (the cassette idea of vcrpy).

``captures/*.json`` each hold one scenario recorded live against phpBB 3.3.17 (prosilver, English) by
:class:`Recorder` wrapped around the adapter's own transport: a list of exchanges ``{"method", "path"
(query included, ``sid`` removed), "form" (what the adapter sent; passwords masked), "status",
"headers" (location, date, content-type), "body"}``. Responses only: no phpBB code.

A :class:`Cassette` answers the adapter's requests with them in the recorded order and fails the test
when the adapter asks for something else than the real forum was asked at that point.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import httpx

CAPTURES = Path(__file__).with_name("captures")
_KEPT_HEADERS = ("location", "date", "content-type")


def _path_of(url: httpx.URL) -> str:
    query = "&".join(f"{k}={v}" for k, v in parse_qsl(url.query.decode(), keep_blank_values=True) if k != "sid")
    return url.path + (f"?{query}" if query else "")


def _form_of(request: httpx.Request) -> dict[str, str]:
    if request.method != "POST":
        return {}
    fields = dict(parse_qsl(request.content.decode("utf-8", "replace"), keep_blank_values=True))
    if "password" in fields:
        fields["password"] = "***"
    return fields


class Recorder(httpx.BaseTransport):
    """An httpx transport that forwards to the real forum and keeps every exchange (see module doc)."""

    def __init__(self) -> None:
        self.inner = httpx.HTTPTransport()
        self.exchanges: list[dict[str, Any]] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self.inner.handle_request(request)
        response.read()
        headers = {k: response.headers[k] for k in _KEPT_HEADERS if k in response.headers}
        if "location" in headers:
            headers["location"] = re.sub(r"([?&])sid=[0-9a-f]+&?", r"\1", headers["location"]).rstrip("?&")
        self.exchanges.append({"method": request.method, "path": _path_of(request.url), "form": _form_of(request),
                               "status": response.status_code, "headers": headers,
                               "body": response.content.decode("utf-8", "replace")})
        return httpx.Response(response.status_code, headers=response.headers, content=response.content,
                              request=request)

    def save(self, name: str) -> Path:
        path = CAPTURES / f"{name}.json"
        path.write_text(json.dumps(self.exchanges, ensure_ascii=False, indent=1), "utf-8")
        return path


def load(name: str) -> list[dict[str, Any]]:
    """The exchanges of ``captures/NAME.json``."""
    return json.loads((CAPTURES / f"{name}.json").read_text("utf-8"))


@dataclass
class Cassette(httpx.BaseTransport):
    """Serves recorded exchanges in order; :attr:`sent` keeps what the adapter sent (method, path, form)."""

    exchanges: list[dict[str, Any]]
    sent: list[tuple[str, str, dict[str, str]]] = field(default_factory=list)
    position: int = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        method, path, form = request.method, _path_of(request.url), _form_of(request)
        self.sent.append((method, path, form))
        if self.position >= len(self.exchanges):
            raise AssertionError(f"the adapter sent {method} {path} after the end of the recording")
        recorded = self.exchanges[self.position]
        if (recorded["method"], recorded["path"]) != (method, path):
            raise AssertionError(f"request {self.position}: the adapter sent {method} {path}, the recording has "
                                 f"{recorded['method']} {recorded['path']}")
        self.position += 1
        return httpx.Response(recorded["status"], headers=recorded["headers"],
                              content=recorded["body"].encode("utf-8"), request=request)

    @property
    def done(self) -> bool:
        """True when every recorded exchange was asked for."""
        return self.position == len(self.exchanges)

    def posts(self) -> list[tuple[str, dict[str, str]]]:
        """(path, form) of every POST the adapter sent."""
        return [(path, form) for method, path, form in self.sent if method == "POST"]
