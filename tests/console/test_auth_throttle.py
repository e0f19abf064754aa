"""Failed logins are throttled per key (forumbot.console.throttle): a stepped clock, no wall-clock waits."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from forumbot.console.throttle import Throttle


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_limit_blocks_until_the_oldest_failure_leaves_the_window():
    clock = Clock()
    t = Throttle(limit=3, window=60, clock=clock)
    for _ in range(2):
        t.fail("bob")
        clock.now += 10
    assert t.wait("bob") == 0.0
    t.fail("bob")  # the third, at 1020
    assert t.wait("bob") == 40.0  # the first (1000) leaves at 1060
    clock.now = 1059.9
    assert t.wait("bob") > 0
    clock.now = 1060.0
    assert t.wait("bob") == 0.0


def test_keys_are_counted_apart_and_clear_forgets_one():
    clock = Clock()
    t = Throttle(limit=1, window=60, clock=clock)
    t.fail("bob")
    assert t.wait("bob") == 60.0 and t.wait("alice") == 0.0
    t.clear("bob")
    assert t.wait("bob") == 0.0


@given(st.lists(st.floats(min_value=0, max_value=50, allow_nan=False), min_size=1, max_size=60),
       st.integers(min_value=1, max_value=5))
def test_never_more_than_limit_attempts_get_through_in_any_window(steps, limit):
    """An attacker who tries whenever wait() says 0 gets at most ``limit`` tries in any window."""
    clock = Clock()
    window = 60.0
    t = Throttle(limit=limit, window=window, clock=clock)
    tried = []
    for step in steps:
        clock.now += step
        if t.wait("x") == 0.0:
            t.fail("x")
            tried.append(clock.now)
    for i, start in enumerate(tried):
        assert sum(1 for at in tried[i:] if at < start + window) <= limit


def test_a_throttle_needs_a_positive_limit_and_window():
    import pytest

    with pytest.raises(ValueError):
        Throttle(limit=0, window=60)
    with pytest.raises(ValueError):
        Throttle(limit=1, window=0)
