"""Night actions, shared by every ruleset with secret night roles (killer_club, vampire_village...).

A :class:`NightActions` holds one night's actions:

- team orders (killers' kill, vampires' kill): the last order from any living member stands
  (:class:`~forumbot.engine.orders.TeamOrders`), and each order is relayed at once to the team's other
  living members so they can agree as they would face to face;
- once-a-night actions (a check, a question) that are answered at once (:meth:`once`, :meth:`use`);
- what each team ordered the night before, for the rules "not the same target two nights running"
  (:meth:`repeats`).

:func:`tell` sends one private answer to several seats (a check result to every living police).
Nothing here reads a clock or draws at random.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from forumbot.engine.events import TeamOrder
from forumbot.engine.orders import Order, TeamOrders
from forumbot.engine.types import Step

if TYPE_CHECKING:
    from forumbot.engine.game import Game


def tell(game: Game, seats: Iterable[int], key: str, out: Step, /, **data: Any) -> None:
    """The same private message (template ``key`` with ``data``) to each of ``seats``, in order."""
    for seat in seats:
        game.reply(seat, key, out, **data)


class NightActions:
    """One night's orders and once-a-night actions, plus the previous night's standing orders.

    Call :meth:`close` at the night's deadline (after resolving it): it returns the standing orders,
    remembers them for :meth:`repeats` and clears everything for the next night.
    """

    def __init__(self) -> None:
        self.orders = TeamOrders()
        self._used: dict[str, Order] = {}
        self._previous: dict[str, int] = {}

    # --- team orders ------------------------------------------------------------------------------
    def order(
        self, game: Game, team: str, members: Iterable[int], order: Order, out: Step, relay_key: str, /, **data: Any
    ) -> Order | None:
        """Make ``order`` the standing order of ``team`` and relay it (template ``relay_key`` with
        ``actor``, ``verb``, ``target`` names, ``replaced`` and ``data``) to every other member of
        ``members`` who is alive. Returns the order it replaced, if any."""
        previous = self.orders.give(team, order)
        out.events.append(TeamOrder(team, order.actor, order.verb, order.target,
                                    previous.target if previous else None, game.phase.id))
        others = [s for s in members if s != order.actor and game.player(s).alive]
        tell(
            game, others, relay_key, out, actor=game.name(order.actor), verb=order.verb, target=game.name(order.target),
            replaced=game.name(previous.target) if previous else None, **data,
        )
        return previous

    def of(self, team: str) -> Order | None:
        """The team's standing order tonight, or None."""
        return self.orders.of(team)

    def repeats(self, team: str, target: int) -> bool:
        """True when ``target`` was ``team``'s standing order the night before (a "not two nights
        running" rule); a night without an order breaks the run."""
        return self._previous.get(team) == target

    def previous(self, team: str) -> int | None:
        """The target of ``team``'s standing order the night before, or None."""
        return self._previous.get(team)

    # --- once-a-night actions ---------------------------------------------------------------------
    def once(self, key: str) -> Order | None:
        """The once-a-night action ``key`` ("check:police", "ask") already taken tonight, or None."""
        return self._used.get(key)

    def use(self, key: str, order: Order) -> None:
        """Record the once-a-night action ``key``."""
        self._used[key] = order

    # --- the night's end --------------------------------------------------------------------------
    def close(self, teams: Iterable[str]) -> dict[str, Order]:
        """End the night: returns the standing orders of ``teams``, remembers their targets for
        :meth:`repeats` (a team without an order has no previous target) and clears the night."""
        standing = {t: o for t in teams if (o := self.orders.of(t)) is not None}
        self._previous = {t: o.target for t, o in standing.items()}
        self.orders.clear()
        self._used.clear()
        return standing
