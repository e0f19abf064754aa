"""The facts the engine itself records (:class:`~forumbot.engine.types.Event` subclasses, one per kind).

A ruleset's own facts (its orders, ballots, the close of its phases) are declared next to its rules.
Seats are ints, names forum account names, ``phase_id`` a :attr:`forumbot.engine.types.Phase.id`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from forumbot.engine.types import Event, Winner, optional


@dataclass(frozen=True)
class RolesDealt(Event):
    """The seeded draw: each player's role by name."""

    kind: ClassVar[str] = "roles_dealt"
    seed: Any
    roles: dict[str, str]


@dataclass(frozen=True)
class PhaseOpened(Event):
    """A phase opened (:meth:`forumbot.engine.game.Game.open_phase`)."""

    kind: ClassVar[str] = "phase_opened"
    keys: ClassVar[dict[str, str]] = {"phase_kind": "kind"}
    phase_id: int
    phase_kind: str
    round: int
    day: int


@dataclass(frozen=True)
class DeadlinePassed(Event):
    """The open phase's deadline passed and it closed."""

    kind: ClassVar[str] = "deadline"
    phase_id: int


@dataclass(frozen=True)
class PlayerOut(Event):
    """``seat`` left the game for ``reason`` ("voted", "killed", "suicide", "penalty"…)."""

    kind: ClassVar[str] = "player_out"
    seat: int
    name: str
    reason: str
    phase_id: int


@dataclass(frozen=True)
class GameOver(Event):
    """The game ended; ``winner`` as :data:`~forumbot.engine.types.Winner`."""

    kind: ClassVar[str] = "game_over"
    winner: Winner


@dataclass(frozen=True)
class Rejected(Event):
    """A command refused with ``reason`` (a ``rejected`` template id, or a parse error code); ``thread``: it
    was a marked command in the thread (:meth:`forumbot.engine.game.Game.thread_error`)."""

    kind: ClassVar[str] = "rejected"
    seat: int
    verb: str | None
    reason: str
    thread: bool = optional(False)


@dataclass(frozen=True)
class Unvote(Event):
    """``voter`` withdrew the ballot naming ``choices``."""

    kind: ClassVar[str] = "unvote"
    phase_id: int
    voter: int
    choices: list[Any]


@dataclass(frozen=True)
class LastWords(Event):
    """A dead player's post read as his last words."""

    kind: ClassVar[str] = "last_words"
    seat: int
    name: str


@dataclass(frozen=True)
class DeadPlayerPost(Event):
    """A dead player's post that is not last words, and ``why`` ("again", "no_last_words", "window_closed")."""

    kind: ClassVar[str] = "dead_player_post"
    seat: int
    name: str
    why: str


@dataclass(frozen=True)
class CommandInThread(Event):
    """A command the ruleset takes only by private message, posted in the thread (answered, not applied)."""

    kind: ClassVar[str] = "command_in_thread"
    seat: int
    name: str
    verb: str


@dataclass(frozen=True)
class OrganiserPenalty(Event):
    """An organiser penalised ``seat`` (taken out if alive) for ``reason``."""

    kind: ClassVar[str] = "organiser_penalty"
    organiser: str
    verb: str
    seat: int
    reason: str


@dataclass(frozen=True)
class OrganiserReplace(Event):
    """An organiser put account ``new`` in ``seat`` in place of ``old``."""

    kind: ClassVar[str] = "organiser_replace"
    organiser: str
    verb: str
    seat: int
    old: str
    new: str


@dataclass(frozen=True)
class DeadlineExtended(Event):
    """An organiser moved the open phase's deadline ``seconds`` later."""

    kind: ClassVar[str] = "deadline_extended"
    organiser: str
    verb: str
    phase_id: int
    seconds: int


@dataclass(frozen=True)
class GamePaused(Event):
    """An organiser paused the game."""

    kind: ClassVar[str] = "game_paused"
    organiser: str
    verb: str


@dataclass(frozen=True)
class GameResumed(Event):
    """An organiser resumed the game."""

    kind: ClassVar[str] = "game_resumed"
    organiser: str
    verb: str


@dataclass(frozen=True)
class OrganiserEnd(Event):
    """An organiser ended the game now."""

    kind: ClassVar[str] = "organiser_end"
    organiser: str
    verb: str


@dataclass(frozen=True)
class Draw(Event):
    """A seeded draw of ``chosen`` among ``among`` for ``purpose`` (:func:`forumbot.engine.votes.seeded_draw`)."""

    kind: ClassVar[str] = "draw"
    purpose: str
    among: list[int]
    chosen: int


@dataclass(frozen=True)
class ModifierDrawn(Event):
    """A weighted seeded draw of the day's modifier (weather, events) for ``purpose``."""

    kind: ClassVar[str] = "modifier_drawn"
    purpose: str
    day: int
    chosen: Any


@dataclass(frozen=True)
class Chance(Event):
    """A seeded coin with probability ``p`` for ``purpose``."""

    kind: ClassVar[str] = "chance"
    purpose: str
    p: float
    hit: bool


@dataclass(frozen=True)
class SeatsReshuffled(Event):
    """A seeded reshuffle of the seating for ``purpose``."""

    kind: ClassVar[str] = "seats_reshuffled"
    purpose: str
    seating: list[int]


@dataclass(frozen=True)
class TitleGiven(Event):
    """``seat`` holds ``title`` (sheriff, sage…), ``how``: "elected", "drawn", "named"…"""

    kind: ClassVar[str] = "title"
    title: str
    seat: int
    how: str


@dataclass(frozen=True)
class TeamOrder(Event):
    """A team's standing order of the night (:meth:`forumbot.engine.night.Night.order`)."""

    kind: ClassVar[str] = "team_order"
    team: str
    actor: int
    verb: str
    target: int
    replaced: int | None
    phase_id: int
