"""Simultaneous night actions resolved together at dawn, and per-player private dawn reports; shared by
every ruleset where each actor acts alone at night and nothing takes effect until dawn
(interview_vampire's sucks and conversions; any rulebook with "all at once" night resolution).

- :class:`NightPlans` holds each actor's standing plan for one night: per verb, the targets he named
  last (a later command replaces the earlier one for the same verb). At dawn :meth:`NightPlans.named_by`
  and :meth:`NightPlans.contested` say which targets were named by more than one actor, the usual
  "collisions fail for everyone" rule.
- :class:`DawnReports` collects what each player is to be told privately at dawn, from several rules
  (fed or not, a role change, a vote's top names...), and sends one private message per player, in seat
  order, so nobody can tell from the number of messages what happened to whom.

Nothing here reads a clock or draws at random.
"""

from __future__ import annotations

import builtins
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from forumbot.engine.types import Step

if TYPE_CHECKING:
    from forumbot.engine.game import Game


@dataclass(frozen=True)
class Plan:
    """``actor`` seat plans ``verb`` on ``targets`` (seats, in the order named)."""

    actor: int
    verb: str
    targets: tuple[int, ...]


class NightPlans:
    """Each actor's standing plans for one night, resolved all at once at dawn. Call :meth:`clear` when
    a night opens."""

    def __init__(self) -> None:
        self._plans: dict[tuple[int, str], Plan] = {}

    def set(self, actor: int, verb: str, targets: Iterable[int]) -> Plan | None:
        """Make ``targets`` the actor's standing plan for ``verb``; returns the plan it replaced."""
        key = (actor, verb)
        previous = self._plans.pop(key, None)
        self._plans[key] = Plan(actor, verb, tuple(targets))
        return previous

    def drop(self, actor: int, verb: str) -> Plan | None:
        """Withdraw the actor's plan for ``verb``; returns it (None when there was none)."""
        return self._plans.pop((actor, verb), None)

    def of(self, actor: int, verb: str) -> Plan | None:
        """The actor's standing plan for ``verb``, or None."""
        return self._plans.get((actor, verb))

    def targets(self, actor: int, verb: str) -> tuple[int, ...]:
        """The targets of the actor's standing plan for ``verb`` (empty when none)."""
        plan = self._plans.get((actor, verb))
        return plan.targets if plan else ()

    def actors(self, verb: str) -> list[int]:
        """Seats with a standing plan for ``verb``, in seat order."""
        return sorted(a for a, v in self._plans if v == verb)

    def named_by(self, verb: str, target: int, among: Iterable[int] | None = None) -> list[int]:
        """Actors (in seat order) whose standing ``verb`` plan names ``target``; only ``among`` when given."""
        pool = None if among is None else set(among)
        return sorted(a for (a, v), p in self._plans.items()
                      if v == verb and target in p.targets and (pool is None or a in pool))

    def contested(self, verb: str, among: Iterable[int] | None = None) -> builtins.set[int]:  # set: a method here
        """Targets named in the ``verb`` plans of two or more actors (of ``among`` when given)."""
        pool = None if among is None else set(among)
        count: dict[int, int] = {}
        for (a, v), p in self._plans.items():
            if v == verb and (pool is None or a in pool):
                for t in set(p.targets):
                    count[t] = count.get(t, 0) + 1
        return {t for t, k in count.items() if k >= 2}

    def clear(self) -> None:
        """Forget every plan (a new night)."""
        self._plans.clear()


class DawnReports:
    """What each player is told privately at dawn. :meth:`add` merges items into a seat's report;
    :meth:`send` makes one private message per seat (template ``key`` with the merged data plus
    ``common``), in seat order, to the seats ``to`` keeps (the living, say), and clears the reports."""

    def __init__(self) -> None:
        self._reports: dict[int, dict[str, Any]] = {}

    def add(self, seat: int, **items: Any) -> None:
        """Add ``items`` to ``seat``'s report (a later item with the same name replaces the earlier)."""
        self._reports.setdefault(seat, {}).update(items)

    def of(self, seat: int) -> dict[str, Any]:
        """``seat``'s report so far (empty when none)."""
        return dict(self._reports.get(seat, {}))

    def seats(self) -> list[int]:
        """Seats with a report, in seat order."""
        return sorted(self._reports)

    def send(self, game: Game, key: str, out: Step, to: Iterable[int] | None = None, /,
             defaults: dict[str, Any] | None = None, **common: Any) -> list[int]:
        """Send the reports (each ``defaults`` updated with the seat's items and ``common``); only to
        ``to`` when given. Returns the seats sent to. The reports are cleared."""
        keep = None if to is None else set(to)
        sent = []
        for seat in self.seats():
            if keep is not None and seat not in keep:
                continue
            game.reply(seat, key, out, **{**(defaults or {}), **self._reports[seat], **common})
            sent.append(seat)
        self._reports.clear()
        return sent
