"""The facts of the vampire_village ruleset (:class:`~forumbot.engine.types.Event` subclasses, one per kind)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from forumbot.engine.types import Event


@dataclass(frozen=True)
class Setup(Event):
    """What the set-up drew, for the log."""

    kind: ClassVar[str] = "setup"
    counts: dict[Any, Any]


@dataclass(frozen=True)
class LinkOrder(Event):
    """Cupid's link of two lovers."""

    kind: ClassVar[str] = "link_order"
    seat: int
    targets: list[Any]


@dataclass(frozen=True)
class Check(Event):
    """A check (seer, detective…) of ``target`` by ``seat`` and what it showed."""

    kind: ClassVar[str] = "check"
    seat: int
    target: int | None
    round: int


@dataclass(frozen=True)
class SelfkillOrder(Event):
    """An order to kill oneself tonight."""

    kind: ClassVar[str] = "selfkill_order"
    seat: int
    round: int


@dataclass(frozen=True)
class CharmOrder(Event):
    """The piper's charm order."""

    kind: ClassVar[str] = "charm_order"
    seat: int
    targets: list[Any]


@dataclass(frozen=True)
class ShotOrder(Event):
    """The hunter's shot."""

    kind: ClassVar[str] = "shot_order"
    seat: int
    target: int | None


@dataclass(frozen=True)
class SuccessorOrder(Event):
    """A successor named."""

    kind: ClassVar[str] = "successor_order"
    seat: int
    target: int | None


@dataclass(frozen=True)
class Ballot(Event):
    """A ballot cast."""

    kind: ClassVar[str] = "ballot"
    keys: ClassVar[dict[str, str]] = {"vote_kind": "kind"}
    vote_kind: str
    round: int
    number: int
    voter: int
    choice: int | None
    weight: Any


@dataclass(frozen=True)
class NightClosed(Event):
    """The night closed."""

    kind: ClassVar[str] = "night_closed"
    round: int
    target: int | None
    guarded: int | None
    saved: bool
    dead: list[Any]


@dataclass(frozen=True)
class VoteClosed(Event):
    """The vote closed."""

    kind: ClassVar[str] = "vote_closed"
    keys: ClassVar[dict[str, str]] = {"vote_kind": "kind"}
    vote_kind: str
    number: int
    result: str
    chosen: int | None
    tied: list[Any]


@dataclass(frozen=True)
class Lovers(Event):
    """The lovers (none when the link failed)."""

    kind: ClassVar[str] = "lovers"
    seats: list[Any]


@dataclass(frozen=True)
class Potion(Event):
    """A potion used."""

    kind: ClassVar[str] = "potion"
    keys: ClassVar[dict[str, str]] = {"vote_kind": "kind"}
    vote_kind: str
    target: int | None
    round: int


@dataclass(frozen=True)
class Charmed(Event):
    """The players charmed tonight."""

    kind: ClassVar[str] = "charmed"
    seats: list[Any]
    round: int


@dataclass(frozen=True)
class Shot(Event):
    """A shot fired."""

    kind: ClassVar[str] = "shot"
    seat: int
    target: int | None


@dataclass(frozen=True)
class ElderLife(Event):
    """The elder lost a life."""

    kind: ClassVar[str] = "elder_life"
    seat: int
    lives: Any


@dataclass(frozen=True)
class PowersLost(Event):
    """The village lost its powers, and why."""

    kind: ClassVar[str] = "powers_lost"
    elder: int
    cause: str
