"""The day's speaking order, shared by every ruleset: round the table from a given seat."""

from __future__ import annotations


def speaking_order(alive: list[int], after: int | None, seats: int) -> list[int]:
    """The living seats in table order, starting with the first living seat after ``after`` (the
    night's victim, say) and wrapping round; ``after`` None or 0 starts at seat 1. ``seats`` is the
    number of seats at the table (dead included)."""
    start = (after or 0) % seats + 1 if seats else 1
    living = set(alive)
    order = [((start - 1 + i) % seats) + 1 for i in range(seats)]
    return [s for s in order if s in living]
