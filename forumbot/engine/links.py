"""Linked deaths, shared by every ruleset where players die together (vampire_village's lovers: when one
dies, so does the other; they may not vote for or target each other)."""

from __future__ import annotations


class Links:
    """Pairs of linked seats. Links are symmetric; a seat may be in several pairs."""

    def __init__(self) -> None:
        self.pairs: list[tuple[int, int]] = []

    def link(self, a: int, b: int) -> None:
        """Link ``a`` and ``b`` (distinct seats)."""
        if a == b:
            raise ValueError("a seat cannot be linked to itself")
        pair = (min(a, b), max(a, b))
        if pair not in self.pairs:
            self.pairs.append(pair)

    def partners(self, seat: int) -> list[int]:
        """The seats linked to ``seat``, in seat order."""
        return sorted({b if a == seat else a for a, b in self.pairs if seat in (a, b)})

    def linked(self, a: int, b: int) -> bool:
        """Are ``a`` and ``b`` linked?"""
        return (min(a, b), max(a, b)) in self.pairs

    def chain(self, dying: list[int], alive: list[int]) -> list[int]:
        """Who else dies when ``dying`` die: every living seat linked to them, directly or through
        another who dies, in the order reached (``dying`` themselves not included)."""
        living = set(alive)
        seen = set(dying)
        queue, extra = list(dying), []
        while queue:
            for p in self.partners(queue.pop(0)):
                if p not in seen and p in living:
                    seen.add(p)
                    extra.append(p)
                    queue.append(p)
        return extra
