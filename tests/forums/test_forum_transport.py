"""The HTTP transport: retries, typed errors, write pacing and the request counter (no network)."""

from __future__ import annotations

import httpx
import pytest

from forumbot.forums._http import Transport
from forumbot.forums.errors import ForumDown, ForumError, RateLimited


class FakeTime:
    def __init__(self) -> None:
        self.now = 100.0
        self.slept: list[float] = []

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def make(handler, **options) -> tuple[Transport, FakeTime]:
    fake = FakeTime()
    transport = Transport(
        "http://forum.test", sleep=fake.sleep, clock=fake.clock, transport=httpx.MockTransport(handler), **options
    )
    return transport, fake


def test_get_retries_transient_failures_with_backoff():
    answers = iter([httpx.ConnectError("refused"), httpx.Response(503), httpx.Response(200, text="ok")])

    def handler(request):
        answer = next(answers)
        if isinstance(answer, Exception):
            raise answer
        return answer

    http, fake = make(handler, retries=3, backoff_seconds=1)
    assert http.get("/x").text == "ok"
    assert http.request_count == 3
    assert len(fake.slept) == 2 and fake.slept[1] > fake.slept[0]


def test_get_gives_forum_down_after_the_retries():
    def handler(request):
        raise httpx.ConnectError("refused")

    http, _ = make(handler, retries=2)
    with pytest.raises(ForumDown, match=r"forum.test"):
        http.get("/x")
    assert http.request_count == 3


def test_post_is_not_repeated_when_the_forum_may_have_acted():
    def handler(request):
        raise httpx.ReadTimeout("slow")

    http, _ = make(handler, retries=3)
    with pytest.raises(ForumDown, match="may or may not"):
        http.post("/reply", {"content": "x"})
    assert http.request_count == 1


def test_post_is_retried_when_it_never_arrived():
    answers = iter([httpx.ConnectError("refused"), httpx.Response(302, headers={"location": "/post/5"})])

    def handler(request):
        answer = next(answers)
        if isinstance(answer, Exception):
            raise answer
        return answer

    http, _ = make(handler, retries=3)
    assert http.post("/reply", {"content": "x"}).headers["location"] == "/post/5"
    assert http.request_count == 2


@pytest.mark.parametrize(("header", "wait"), [({"Retry-After": "42"}, 42.0), ({}, 60.0)])
def test_429_is_rate_limited_with_the_wait(header, wait):
    http, _ = make(lambda request: httpx.Response(429, headers=header))
    with pytest.raises(RateLimited) as caught:
        http.get("/x")
    assert caught.value.wait_seconds == wait


def test_writes_are_spaced_by_the_minimum_interval():
    def handler(request):
        return httpx.Response(302, headers={"location": "/"}) if request.method == "POST" else httpx.Response(200)

    http, fake = make(handler, min_write_interval_seconds=15)
    http.post("/a", {})
    fake.now += 4
    http.post("/b", {})
    assert fake.slept == [pytest.approx(11)]
    fake.now += 20
    http.post("/c", {})
    http.get("/read")  # reads are never delayed
    assert len(fake.slept) == 1


def test_a_redirect_loop_is_a_forum_error():
    http, _ = make(lambda request: httpx.Response(302, headers={"location": "/loop"}))
    with pytest.raises(ForumError, match="unusable answer"):
        http.get("/loop")


def test_every_request_has_a_timeout():
    http, _ = make(lambda request: httpx.Response(200), timeout_seconds=7)
    assert http.client.timeout == httpx.Timeout(7)


def test_get_retries_http_500_too():
    answers = iter([httpx.Response(500), httpx.Response(500), httpx.Response(200, text="ok")])
    http, _ = make(lambda request: next(answers), retries=3)
    assert http.get("/x").text == "ok"
    assert http.request_count == 3


def test_a_short_retry_after_is_waited_before_reading_again():
    answers = iter([httpx.Response(503, headers={"Retry-After": "5"}), httpx.Response(200, text="ok")])
    http, fake = make(lambda request: next(answers), retries=3, backoff_seconds=0.1, max_backoff_seconds=8)
    assert http.get("/x").text == "ok"
    assert fake.slept == [pytest.approx(5)]


def test_a_long_retry_after_is_rate_limited_at_once():
    http, fake = make(lambda request: httpx.Response(503, headers={"Retry-After": "120"}), retries=3)
    with pytest.raises(RateLimited) as caught:
        http.get("/x")
    assert caught.value.wait_seconds == 120 and fake.slept == [] and http.request_count == 1


@pytest.mark.parametrize("answer", [httpx.ReadTimeout("held"), httpx.Response(500), httpx.Response(504)])
def test_an_unanswered_or_failed_write_is_uncertain(answer):
    from forumbot.forums.errors import WriteUncertain

    def handler(request):
        if isinstance(answer, Exception):
            raise answer
        return answer

    http, _ = make(handler, retries=3)
    with pytest.raises(WriteUncertain):
        http.post("/reply", {"content": "x"})
    assert http.request_count == 1


def test_write_wait_counts_from_the_answer_to_the_previous_write():
    def handler(request):
        fake.now += 3  # the forum takes 3 s to answer
        return httpx.Response(302, headers={"location": "/"})

    http, fake = make(handler, min_write_interval_seconds=16)
    assert http.write_wait_seconds() == 0
    http.post("/a", {})
    assert http.write_wait_seconds() == pytest.approx(16)
    fake.now += 10
    assert http.write_wait_seconds() == pytest.approx(6)
