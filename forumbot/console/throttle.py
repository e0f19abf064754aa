"""Throttled failed logins: after too many failures for one key (an account, an address) within a window,
further attempts for that key are refused until the oldest failure leaves the window.

Kept in memory: a restarted console forgets them, as it forgets nothing else an attacker would gain (the
password hashes are argon2id, whose cost is the slowdown that survives a restart)."""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable


class Throttle:
    """At most ``limit`` failures per key within ``window`` seconds (of ``clock``, default
    :func:`time.monotonic`). Thread-safe: the console's request handlers may run in several threads.

    >>> t = Throttle(limit=2, window=60, clock=lambda: 0.0)
    >>> t.fail("bob"); t.fail("bob"); t.wait("bob")
    60.0
    """

    def __init__(self, limit: int, window: float, clock: Callable[[], float] = time.monotonic) -> None:
        if limit < 1 or window <= 0:
            raise ValueError("a throttle needs limit >= 1 and window > 0")
        self.limit, self.window, self.clock = limit, window, clock
        self._failures: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def _recent(self, key: str, now: float) -> deque[float]:
        failures = self._failures.get(key)
        if failures is None:
            return deque()
        while failures and failures[0] <= now - self.window:
            failures.popleft()
        if not failures:
            del self._failures[key]
        return failures

    def wait(self, key: str) -> float:
        """Seconds until ``key`` may try again (0.0: it may now)."""
        with self._lock:
            now = self.clock()
            failures = self._recent(key, now)
            if len(failures) < self.limit:
                return 0.0
            return failures[len(failures) - self.limit] + self.window - now

    def fail(self, key: str) -> None:
        """Count a failure of ``key`` now."""
        with self._lock:
            now = self.clock()
            self._recent(key, now)
            self._failures.setdefault(key, deque()).append(now)
            self._prune(now)

    def clear(self, key: str) -> None:
        """Forget ``key``'s failures (a successful login of that account)."""
        with self._lock:
            self._failures.pop(key, None)

    def _prune(self, now: float) -> None:
        # keys whose failures are all old are dropped now and then, so a stream of made-up account names
        # cannot grow the table without end
        if len(self._failures) > 10_000:
            for key in list(self._failures):
                self._recent(key, now)
