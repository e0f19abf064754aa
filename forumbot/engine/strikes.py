"""Strikes for missed actions, shared by every ruleset (sunlight: a missed or self vote; the first is a
warning, the second makes the player a suicide)."""

from __future__ import annotations


class Strikes:
    """Counts strikes per seat over a whole game."""

    def __init__(self) -> None:
        self._count: dict[int, int] = {}

    def add(self, seat: int) -> int:
        """Give ``seat`` one strike; returns its total so far (1 for the first)."""
        self._count[seat] = self._count.get(seat, 0) + 1
        return self._count[seat]

    def of(self, seat: int) -> int:
        """Strikes ``seat`` has."""
        return self._count.get(seat, 0)
