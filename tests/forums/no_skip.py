"""What the adapters' no-skip tests share: requests that fail on purpose and the events hypothesis plays.

A fault is ``(kind, where)``: "connect" (the connection refused: no request reaches the forum), "proxy" (a
proxy's 502 page, HTTP 200, the forum not reached), "lost" (the forum answered, so acted, but the answer
never arrived), "cut" (the answer arrives cut short after the fraction ``where`` of its bytes).
:class:`Faulty` injects them at chosen request numbers; :func:`events` is the strategy of a game's events:
``("pm", player)``, ``("post", player)``, ``("wait", steps)`` (when asked for) and ``("poll", faults)``,
``faults`` mapping the n-th request of that poll (from 0) to its fault.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
from hypothesis import strategies as st

PROXY = "<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>"

FAULT = st.tuples(st.sampled_from(["connect", "lost", "cut", "proxy"]), st.floats(0.05, 0.999))


def events(players: int, fault_at: int = 8, waits: bool = False) -> st.SearchStrategy[tuple[str, Any]]:
    """One event: a message or a post by one of ``players`` players (an index), a wait of 0 to 3 steps (with
    ``waits``), or a poll whose requests 0 to ``fault_at`` may fail (at most three of them)."""
    kinds = [st.tuples(st.just("pm"), st.integers(0, players - 1)),
             st.tuples(st.just("post"), st.integers(0, players - 1))]
    if waits:
        kinds.append(st.tuples(st.just("wait"), st.integers(0, 3)))
    kinds.append(st.tuples(st.just("poll"), st.dictionaries(st.integers(0, fault_at), FAULT, max_size=3)))
    return st.one_of(*kinds)


class Faulty:
    """A transport's handler: ``answer`` answers each request, but for the faults set for its number
    (``faults``: request number, counted from 0 in ``requests``, to ``(kind, where)``)."""

    def __init__(self, answer: Callable[[httpx.Request], httpx.Response]):
        self.answer = answer
        self.requests = 0
        self.faults: dict[int, tuple[str, float]] = {}

    def handle(self, request: httpx.Request) -> httpx.Response:
        n, self.requests = self.requests, self.requests + 1
        kind, where = self.faults.get(n, ("", 0.0))
        if kind == "connect":
            raise httpx.ConnectError("injected", request=request)
        if kind == "proxy":
            return httpx.Response(200, text=PROXY, headers={"content-type": "text/html"})
        response = self.answer(request)
        if kind == "lost":
            raise httpx.ReadTimeout("injected: the answer was lost", request=request)
        if kind == "cut":
            return httpx.Response(response.status_code, content=response.content[: int(len(response.content) * where)],
                                  headers=response.headers)
        return response

    def poll(self, consumer: Any, faults: dict[int, tuple[str, float]]) -> bool:
        """``consumer.poll()`` with the ``k``-th request it makes failing as ``faults[k]`` says; its result."""
        self.faults = {self.requests + k: f for k, f in faults.items()}
        try:
            return bool(consumer.poll())
        finally:
            self.faults = {}


def play(consumer: Any, faulty: Faulty, played: list[tuple[str, Any]], write: Callable[[str, Any], None],
         before: Callable[[], None] = lambda: None) -> None:
    """Plays ``played`` (from :func:`events`): ``before()`` ahead of each event, then a poll through ``faulty``
    or ``write(kind, value)`` for any other event."""
    for kind, value in played:
        before()
        if kind == "poll":
            faulty.poll(consumer, value)
        else:
            write(kind, value)


def poll_until_read(consumer: Any, pms: dict[int, str], posts: dict[int, str]) -> None:
    """Three polls without faults each read every source; then the stored messages and posts are ``pms``
    and ``posts`` (id to text), each once."""
    for _ in range(3):
        assert consumer.poll()
    assert consumer.stored["pm"] == pms
    assert consumer.stored["thread"] == posts
