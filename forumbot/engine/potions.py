"""A once-a-game inventory, shared by every ruleset with one-shot powers (vampire_village's witch: one
antidote and one poison, each once a game, at most one a night)."""

from __future__ import annotations


class Potions:
    """How many of each kind are left. ``kinds``: kind -> count at the start."""

    def __init__(self, kinds: dict[str, int]) -> None:
        self._left = dict(kinds)

    def has(self, kind: str) -> bool:
        """Is at least one ``kind`` left?"""
        return self._left.get(kind, 0) > 0

    def use(self, kind: str) -> None:
        """Use one ``kind``; ValueError when none is left."""
        if not self.has(kind):
            raise ValueError(f"no {kind} left")
        self._left[kind] -= 1

    def left(self) -> dict[str, int]:
        """What is left, kind -> count."""
        return dict(self._left)

    def any(self) -> bool:
        """Is anything left?"""
        return any(v > 0 for v in self._left.values())
