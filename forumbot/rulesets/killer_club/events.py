"""The facts of the killer_club ruleset (:class:`~forumbot.engine.types.Event` subclasses, one per kind)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from forumbot.engine.types import Event


@dataclass(frozen=True)
class Setup(Event):
    """What the set-up drew, for the log."""

    kind: ClassVar[str] = "setup"
    counts: dict[Any, Any]
    last_words: Any
    banned_first_victim: Any


@dataclass(frozen=True)
class Check(Event):
    """A check (seer, detective…) of ``target`` by ``seat`` and what it showed."""

    kind: ClassVar[str] = "check"
    role: str
    seat: int
    target: int | None
    round: int


@dataclass(frozen=True)
class Ask(Event):
    """A question asked."""

    kind: ClassVar[str] = "ask"
    seat: int
    target: int | None
    round: int


@dataclass(frozen=True)
class Ballot(Event):
    """A ballot cast."""

    kind: ClassVar[str] = "ballot"
    round: int
    number: int
    voter: int
    choice: int | None


@dataclass(frozen=True)
class VictimChoice(Event):
    """The night victim's choice."""

    kind: ClassVar[str] = "victim_choice"
    seat: int
    chosen: int | None


@dataclass(frozen=True)
class NightClosed(Event):
    """The night closed."""

    kind: ClassVar[str] = "night_closed"
    round: int
    target: int | None
    saved: bool
    victim: int | None


@dataclass(frozen=True)
class VoteClosed(Event):
    """The vote closed."""

    kind: ClassVar[str] = "vote_closed"
    keys: ClassVar[dict[str, str]] = {"vote_kind": "kind"}
    round: int
    number: int
    vote_kind: str
    chosen: int | None
    tied: list[Any]


@dataclass(frozen=True)
class ChoiceClosed(Event):
    """The choice window closed."""

    kind: ClassVar[str] = "choice_closed"
    round: int
    chosen: int | None
    how: str
