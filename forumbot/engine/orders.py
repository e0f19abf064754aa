"""Team orders: a team (the killers, the police, the vampires; a team of one for sunlight's killer)
gives one order per phase and the last order from any member before the deadline stands."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Order:
    """``actor`` seat ordered ``verb`` on ``target`` seat."""

    actor: int
    verb: str
    target: int


class TeamOrders:
    """The standing order of each team in the current phase. Call :meth:`clear` when a phase opens."""

    def __init__(self) -> None:
        self._orders: dict[str, Order] = {}

    def give(self, team: str, order: Order) -> Order | None:
        """Make ``order`` the team's standing order; returns the one it replaced, if any."""
        previous = self._orders.get(team)
        self._orders[team] = order
        return previous

    def of(self, team: str) -> Order | None:
        """The team's standing order, or None."""
        return self._orders.get(team)

    def clear(self) -> None:
        """Forget every order (a new phase)."""
        self._orders.clear()
