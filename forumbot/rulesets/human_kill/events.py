"""The facts of the human_kill ruleset (:class:`~forumbot.engine.types.Event` subclasses, one per kind)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from forumbot.engine.types import Event


@dataclass(frozen=True)
class Setup(Event):
    """What the set-up drew, for the log."""

    kind: ClassVar[str] = "setup"
    counts: dict[Any, Any]
    windows: list[str]


@dataclass(frozen=True)
class Iku(Event):
    """Iku's choice of the round."""

    kind: ClassVar[str] = "iku"
    round: int
    choice: str


@dataclass(frozen=True)
class Check(Event):
    """A check (seer, detective…) of ``target`` by ``seat`` and what it showed."""

    kind: ClassVar[str] = "check"
    seat: int
    target: int | None
    seen: Any
    round: int


@dataclass(frozen=True)
class ExorciseBallot(Event):
    """A ballot in the exorcism vote."""

    kind: ClassVar[str] = "exorcise_ballot"
    round: int
    voter: int
    choice: int | None


@dataclass(frozen=True)
class Volunteer(Event):
    """A player volunteered to stand in for another."""

    kind: ClassVar[str] = "volunteer"
    keys: ClassVar[dict[str, str]] = {"for_": "for"}
    round: int
    seat: int
    for_: int | None


@dataclass(frozen=True)
class Withdrawn(Event):
    """A player withdrew his standing choice."""

    kind: ClassVar[str] = "withdrawn"
    seat: int
    phase: str


@dataclass(frozen=True)
class Ballot(Event):
    """A ballot cast."""

    kind: ClassVar[str] = "ballot"
    keys: ClassVar[dict[str, str]] = {"phase_kind": "kind"}
    phase_kind: str
    round: int
    number: int
    voter: int
    choice: int | None
    weight: Any


@dataclass(frozen=True)
class ExorcismClosed(Event):
    """The exorcism vote closed."""

    kind: ClassVar[str] = "exorcism_closed"
    round: int
    target: int | None
    how: str
    protected: bool


@dataclass(frozen=True)
class SageChanged(Event):
    """The sage's title passed from one seat to another."""

    kind: ClassVar[str] = "sage_changed"
    keys: ClassVar[dict[str, str]] = {"from_": "from"}
    from_: int | None
    to: int | None


@dataclass(frozen=True)
class BanishClosed(Event):
    """A banishment vote closed."""

    kind: ClassVar[str] = "banish_closed"
    keys: ClassVar[dict[str, str]] = {"vote_kind": "kind"}
    round: int
    number: int
    vote_kind: str
    chosen: int | None
    tied: list[Any]


@dataclass(frozen=True)
class SageVoteClosed(Event):
    """A sage vote closed."""

    kind: ClassVar[str] = "sage_vote_closed"
    keys: ClassVar[dict[str, str]] = {"vote_kind": "kind"}
    number: int
    vote_kind: str
    chosen: int | None
    tied: list[Any]


@dataclass(frozen=True)
class SageElected(Event):
    """The sage was elected, and why."""

    kind: ClassVar[str] = "sage_elected"
    seat: int | None
    why: str


@dataclass(frozen=True)
class LongPost(Event):
    """A post over the length limit."""

    kind: ClassVar[str] = "long_post"
    seat: int
    length: int


@dataclass(frozen=True)
class SageOut(Event):
    """The sage left the game: his successor is due."""

    kind: ClassVar[str] = "sage_out"
    seat: int


@dataclass(frozen=True)
class UtsuhoSpeech(Event):
    """Utsuho spoke in the thread."""

    kind: ClassVar[str] = "utsuho_speech"
    seat: int


@dataclass(frozen=True)
class SealedPost(Event):
    """A sealed player posted in the thread."""

    kind: ClassVar[str] = "sealed_post"
    seat: int
    name: str


@dataclass(frozen=True)
class Substituted(Event):
    """A volunteer stood in for a player."""

    kind: ClassVar[str] = "substituted"
    keys: ClassVar[dict[str, str]] = {"for_": "for"}
    round: int
    for_: int | None
    by: int | None
