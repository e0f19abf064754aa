"""HTTP transport shared by the adapters: timeouts, retries with backoff, write pacing, a request counter.

Reads (GET) are retried on connection errors, timeouts and HTTP 500/502/503/504, with exponential backoff
(tenacity); a ``Retry-After`` the forum sends with a 429 or 503 is honoured: a short one is waited before
the retry, a longer one becomes :class:`RateLimited` at once (the runtime then holds its poller back that
long instead of sleeping inside a cycle). Writes (POST) are retried only when the request surely never
reached the forum (connection refused, connect timeout), so a post is never doubled; a write that got no
answer, or a 5xx answer, may have been done and becomes :class:`WriteUncertain`. What is still failing
after the retries becomes :class:`ForumDown`; HTTP 429 becomes :class:`RateLimited`.

Writes are spaced: :meth:`Transport.write_wait_seconds` says how long until the next write may start, counted from
the *answer* to the previous one (forums stamp a write when they get it and compare the next one's stamp,
often in whole seconds: counting from the answer is what keeps a flood check quiet). The runtime waits
that long between reads; :meth:`Transport.post` still sleeps what is left, as a safety net.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from typing import Any

import httpx
from tenacity import (
    Retrying,
    retry_if_exception_type,
    stop_after_attempt,
    wait_exponential,
)

from forumbot.forums.errors import ForumDown, ForumError, RateLimited, WriteUncertain

log = logging.getLogger(__name__)

# No "bot", "crawl" or "spider" anywhere: Discuz! takes such a client for a search robot and answers 403 to
# misc.php, which its picture upload goes through (an earlier "forumbot-judge" was refused there).
USER_AGENT = "Mozilla/5.0 (X11; Linux x86_64) ForumJudge/0.1"


class _Transient(Exception):
    def __init__(self, what: str, retry_after: float = 0.0):
        super().__init__(what)
        self.what = what
        self.retry_after = retry_after


class Transport:
    """One cookie session with one forum.

    ``timeout_seconds`` bounds every request; ``min_write_interval_seconds`` is the least time between the
    end of one write and the start of the next (the call sleeps); ``retries`` extra attempts are made on
    transient failures, waiting ``backoff_seconds`` × 2^n (at most ``max_backoff_seconds``) in between.
    ``sleep``, ``clock`` and ``transport`` (an httpx transport) can be replaced in tests.
    """

    def __init__(
        self,
        base_url: str,
        *,
        timeout_seconds: float = 20.0,
        min_write_interval_seconds: float = 0.0,
        retries: int = 3,
        backoff_seconds: float = 0.5,
        max_backoff_seconds: float = 8.0,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
        transport: httpx.BaseTransport | None = None,
    ):
        self.base_url = base_url.rstrip("/")
        self.min_write_interval_seconds = float(min_write_interval_seconds)
        self._retries = int(retries)
        self._backoff = float(backoff_seconds)
        self._max_backoff = float(max_backoff_seconds)
        self._sleep = sleep
        self._clock = clock
        self._last_write_end: float | None = None
        self.request_count = 0
        self.client = httpx.Client(
            base_url=self.base_url,
            timeout=httpx.Timeout(timeout_seconds),
            follow_redirects=False,
            headers={"User-Agent": USER_AGENT},
            event_hooks={"request": [self._count], "response": []},
            transport=transport,
        )

    def _count(self, request: httpx.Request) -> None:
        self.request_count += 1

    def close(self) -> None:
        """Closes the connections."""
        self.client.close()

    def clear_cookies(self) -> None:
        """Forgets the session (as if it had expired)."""
        self.client.cookies.clear()

    def get(self, path: str, *, follow: bool = True, params: Mapping[str, Any] | None = None) -> httpx.Response:
        """GET ``path`` (relative to the base URL), following redirects unless ``follow`` is false."""
        return self._send("GET", path, follow=follow, params=params, write=False)

    def post(
        self,
        path: str,
        data: Mapping[str, Any] | None = None,
        *,
        follow: bool = False,
        content: bytes | None = None,
        headers: Mapping[str, str] | None = None,
        params: Mapping[str, Any] | None = None,
        keep_5xx: bool = False,
        method: str = "POST",
        files: Mapping[str, Any] | None = None,
        paced: bool = True,
    ) -> httpx.Response:
        """POST a form to ``path`` after the write interval; redirects are not followed by default.
        ``method`` sends another write verb (PUT, DELETE: a JSON API's edit or lock) the same way.

        ``content`` + ``headers`` send a body encoded by the caller (e.g. a GBK form) instead of ``data``;
        ``keep_5xx`` returns HTTP 5xx answers to the caller instead of raising :class:`ForumDown` (for
        engines that answer errors, or even successes, with a 503 page). ``files`` sends a multipart form
        (``{field: (filename, bytes, content type)}``, with ``data``'s fields). ``paced=False`` is for a
        write the forum's flood control does not count (Discuz!'s picture upload): it neither waits for
        the write interval nor restarts it.
        """
        if paced:
            self._pace()
        kwargs: dict[str, Any] = {"params": params}
        if content is not None:
            kwargs.update(content=content, headers=headers)
        else:
            kwargs.update(data=data, headers=headers)
        if files is not None:
            kwargs.update(files=files)
        try:
            return self._send(method, path, follow=follow, write=True, keep_5xx=keep_5xx, **kwargs)
        finally:
            if paced:
                self._last_write_end = self._clock()

    def sleep(self, seconds: float) -> None:
        """Sleeps with the transport's (replaceable) sleep."""
        if seconds > 0:
            self._sleep(seconds)

    def write_wait_seconds(self) -> float:
        """Seconds the next write must still wait: ``min_write_interval_seconds`` counted from the end
        (the answer) of the previous write; 0 when it may go now. The one place of the pacing rule."""
        if self._last_write_end is None or self.min_write_interval_seconds <= 0:
            return 0.0
        return max(0.0, self._last_write_end + self.min_write_interval_seconds - self._clock())

    def _pace(self) -> None:
        wait = self.write_wait_seconds()
        if wait > 0:
            log.debug("waiting %.1f s between writes", wait)
            self._sleep(wait)

    def _wait(self, state: Any) -> float:
        """Exponential backoff, or the forum's own ``Retry-After`` when it asked for longer."""
        backoff = wait_exponential(multiplier=self._backoff, max=self._max_backoff)(state)
        exc = state.outcome.exception() if state.outcome is not None else None
        return max(backoff, getattr(exc, "retry_after", 0.0))

    def _send(self, method: str, path: str, *, follow: bool, write: bool, keep_5xx: bool = False,
              **kwargs: Any) -> httpx.Response:
        retrying = Retrying(
            stop=stop_after_attempt(self._retries + 1),
            wait=self._wait,
            retry=retry_if_exception_type(_Transient),
            sleep=self._sleep,
            reraise=True,
        )
        try:
            return retrying(self._attempt, method, path, follow, write, kwargs, keep_5xx)
        except _Transient as exc:
            raise ForumDown(f"the forum at {self.base_url} is not answering ({exc.what})") from None

    def _attempt(self, method: str, path: str, follow: bool, write: bool, kwargs: dict,
                 keep_5xx: bool = False) -> httpx.Response:
        try:
            response = self.client.request(method, path, follow_redirects=follow, **kwargs)
        except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
            raise _Transient(f"cannot connect: {type(exc).__name__}") from exc
        except httpx.TransportError as exc:
            if write:  # the forum may have acted on it: do not send it twice
                raise WriteUncertain(
                    f"the forum at {self.base_url} did not answer a write ({type(exc).__name__}); "
                    "it may or may not have been done"
                ) from exc
            raise _Transient(f"{type(exc).__name__}") from exc
        except httpx.HTTPError as exc:  # redirect loops, bad URLs, undecodable bodies
            raise ForumError(f"the forum at {self.base_url} gave an unusable answer to {path}: {exc}") from exc
        status = response.status_code
        asked = response.headers.get("Retry-After")
        if status == 429 or (status == 503 and asked and not write and not keep_5xx):
            wait = _retry_after(asked)
            if not write and asked and wait <= self._max_backoff:  # short: wait it and read again
                raise _Transient(f"HTTP {status}, retry after {wait:g} s", wait)
            raise RateLimited(f"the forum at {self.base_url} asks to slow down (HTTP {status}, "
                              f"retry after {wait:g} s)", wait)
        if keep_5xx:
            return response
        if status in (500, 502, 503, 504) and not write:
            raise _Transient(f"HTTP {status}")
        if status >= 500:
            if write:
                raise WriteUncertain(f"the forum at {self.base_url} failed with HTTP {status} on {path}; "
                                     "the write may or may not have been done")
            raise ForumDown(f"the forum at {self.base_url} failed with HTTP {status} on {path}")
        return response


def _retry_after(value: str | None, default: float = 60.0) -> float:
    if not value:
        return default
    try:
        return max(0.0, float(value))
    except ValueError:
        from email.utils import parsedate_to_datetime

        try:
            when = parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return default
        return max(0.0, when.timestamp() - time.time())
