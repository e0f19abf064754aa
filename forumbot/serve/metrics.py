"""Health and Prometheus metrics of ``forumbot serve``: ``/healthz`` (JSON; HTTP 503 when the service loop
has stalled) and ``/metrics`` (the Prometheus text format), on one port.

Metrics (labels ``season`` and ``forum``, the forum's base URL): ``forumbot_polls_total`` (complete reads
of the forum), ``forumbot_poll_lag_seconds`` (how long ago every source was last read past),
``forumbot_deadline_lag_seconds`` (a histogram: how long after a deadline fell it was applied; at least the
schedule's grace), ``forumbot_outbox_rows`` (by ``status``: pending, sending, failed... — the outbox
depth), ``forumbot_failed_writes_total`` (writes refused or unanswered), ``forumbot_cycle_seconds``
(a histogram of the time one cycle takes); per worker: ``forumbot_seasons`` (by ``state``: running, starting, blocked) and
``forumbot_leases_lost_total``.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from forumbot.runtime.bot import Bot

LAG_BUCKETS = (0.25, 0.5, 1, 2, 3, 5, 10, 20, 30, 60, 120, 300, 600, float("inf"))


class _Unserved:
    """A metric nobody reads: every Prometheus call on it does nothing."""

    def labels(self, *_: Any) -> _Unserved:
        return self

    def inc(self, *_: Any) -> None:
        pass

    set = observe = remove = inc


class Metrics:
    """The metrics of one service, in their own registry. ``served`` false (no ``--metrics-port``): nothing
    is counted and prometheus_client is not even imported (≈2 MB of a process that would never show them);
    :meth:`observe` still drains each season's deadline lags."""

    def __init__(self, served: bool = True) -> None:
        self.served = served
        self._seen: dict[int, tuple[int, int]] = {}
        self._lock = threading.Lock()
        if not served:
            self.registry: Any = None
            unserved: Any = _Unserved()
            self.polls = self.poll_lag = self.deadline_lag = self.outbox = self.failed_writes = self.cycle = \
                self.seasons = self.leases_lost = unserved
            return
        from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

        self.registry = CollectorRegistry()
        labels = ("season", "forum")
        r = self.registry
        self.polls = Counter("forumbot_polls", "complete reads of the forum", labels, registry=r)
        self.poll_lag = Gauge("forumbot_poll_lag_seconds", "seconds since every source was last read past", labels,
                              registry=r)
        self.deadline_lag = Histogram("forumbot_deadline_lag_seconds", "seconds from a deadline to its application",
                                      labels, buckets=LAG_BUCKETS, registry=r)
        self.outbox = Gauge("forumbot_outbox_rows", "outbox rows by status", (*labels, "status"), registry=r)
        self.failed_writes = Counter("forumbot_failed_writes", "writes refused or unanswered", labels, registry=r)
        self.cycle = Histogram("forumbot_cycle_seconds", "seconds one cycle takes", labels, registry=r)
        self.seasons = Gauge("forumbot_seasons", "seasons of this worker by state", ("state",), registry=r)
        self.leases_lost = Counter("forumbot_leases_lost", "season leases this worker lost", registry=r)

    def observe(self, bot: Bot) -> None:
        """Account for one cycle of ``bot`` (called by the runner after each cycle, in the season's thread)."""
        if not self.served:
            bot.deadline_lags.clear()
            return
        season, forum = bot.config.name, bot.config.forum.base_url
        polls, failed = bot.polls, bot.delivery.failed_writes
        with self._lock:
            before_polls, before_failed = self._seen.get(id(bot), (0, 0))
            self._seen[id(bot)] = (polls, failed)
        if polls > before_polls:
            self.polls.labels(season, forum).inc(polls - before_polls)
        if failed > before_failed:
            self.failed_writes.labels(season, forum).inc(failed - before_failed)
        read = bot.read_past()
        if read is not None:
            self.poll_lag.labels(season, forum).set(max(0.0, (datetime.now(UTC) - read).total_seconds()))
        while bot.deadline_lags:
            self.deadline_lag.labels(season, forum).observe(max(0.0, bot.deadline_lags.pop(0)))
        counts = bot.store.outbox_counts()
        for status in ("pending", "sending", "failed", "sent", "undeliverable", "cancelled"):
            self.outbox.labels(season, forum, status).set(counts.get(status, 0))
        if bot.last_cycle_seconds is not None:
            self.cycle.labels(season, forum).observe(bot.last_cycle_seconds)

    def forget(self, season: str, forum: str) -> None:
        """Drop the gauges of a season this worker no longer judges (its counters and histograms stay, so
        that rates and the deadline lag over time still count it)."""
        with contextlib.suppress(KeyError):
            self.poll_lag.remove(season, forum)
        for status in ("pending", "sending", "failed", "sent", "undeliverable", "cancelled"):
            with contextlib.suppress(KeyError):
                self.outbox.remove(season, forum, status)


class _Quiet(WSGIRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


class HealthServer:
    """``/healthz`` and ``/metrics`` on ``host``:``port`` (port 0: any free port, see :attr:`port`), in a
    daemon thread. ``health()`` gives the JSON body; its ``"ok"`` false answers 503."""

    def __init__(self, metrics: Metrics, health: Callable[[], dict[str, Any]], port: int, host: str = "127.0.0.1"):
        from prometheus_client import make_wsgi_app

        prometheus = make_wsgi_app(metrics.registry)

        def app(environ, start_response):
            if environ.get("PATH_INFO") == "/healthz":
                body = health()
                status = "200 OK" if body.get("ok") else "503 Service Unavailable"
                start_response(status, [("Content-Type", "application/json")])
                return [json.dumps(body, ensure_ascii=False).encode()]
            if environ.get("PATH_INFO") == "/metrics":
                return prometheus(environ, start_response)
            start_response("404 Not Found", [("Content-Type", "text/plain")])
            return [b"/healthz or /metrics\n"]

        self.server: WSGIServer = make_server(host, port, app, handler_class=_Quiet)
        self.port = self.server.server_port
        self.thread = threading.Thread(target=self.server.serve_forever, name="forumbot-health", daemon=True)

    def start(self) -> HealthServer:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

