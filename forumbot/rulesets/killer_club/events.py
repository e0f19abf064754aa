"""The facts of the killer_club ruleset (殺人遊戲; :class:`~forumbot.engine.types.Event` subclasses, one per
kind). Seats are ints; rounds count nights and days from 1 (night r comes before day r)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from forumbot.engine.types import Event


@dataclass(frozen=True)
class Setup(Event):
    """What the draw dealt: ``counts`` (role -> players), ``last_words`` (N: the first N deaths leave last
    words, note 4) and ``banned_first_victim`` (the player the series rule keeps from being the night-1
    victim, if any)."""

    kind: ClassVar[str] = "setup"
    counts: dict[str, int]
    last_words: int
    banned_first_victim: str | None


@dataclass(frozen=True)
class Check(Event):
    """A check on night ``round`` of ``target`` by ``seat`` (``role`` "police" or "helper"): is he a killer
    (「法官會告訴警察此人是不是殺手」)."""

    kind: ClassVar[str] = "check"
    role: str
    seat: int
    target: int
    round: int


@dataclass(frozen=True)
class Ask(Event):
    """The nurse (``seat``) asks on night ``round`` whether ``target`` is police (once a night, before her
    save)."""

    kind: ClassVar[str] = "ask"
    seat: int
    target: int
    round: int


@dataclass(frozen=True)
class Ballot(Event):
    """``voter``'s vote for ``choice`` on day ``round``, in vote ``number`` (1: the day vote, 2 and 3: the
    run-offs among the tied); the first vote stands."""

    kind: ClassVar[str] = "ballot"
    round: int
    number: int
    voter: int
    choice: int


@dataclass(frozen=True)
class VictimChoice(Event):
    """The night victim (``seat``, dead) names ``chosen`` among the tied of the last vote to die with him
    (a later name replaces it)."""

    kind: ClassVar[str] = "victim_choice"
    seat: int
    chosen: int


@dataclass(frozen=True)
class NightClosed(Event):
    """Night ``round`` closed: the killers' ``target`` (None: no kill), ``saved`` when the nurse saved that
    same player (「若暗殺的人被護士所救，則此人不死」), and the ``victim`` who died (None: a peaceful night)."""

    kind: ClassVar[str] = "night_closed"
    round: int
    target: int | None
    saved: bool
    victim: int | None


@dataclass(frozen=True)
class VoteClosed(Event):
    """Vote ``number`` of day ``round`` closed, its tally's kind ``vote_kind`` ("decided": ``chosen`` has
    the most votes; "runoff": ``tied`` vote again; "exhausted": tied at the last vote; "none": no votes)."""

    kind: ClassVar[str] = "vote_closed"
    keys: ClassVar[dict[str, str]] = {"vote_kind": "kind"}
    round: int
    number: int
    vote_kind: str
    chosen: int | None
    tied: list[int]


@dataclass(frozen=True)
class ChoiceClosed(Event):
    """The night victim's choice on day ``round`` closed: ``chosen`` dies with him (None: nobody), ``how``
    the decision went ("named" by him; else the season's ``tie_fallback``: "drawn" or "nobody")."""

    kind: ClassVar[str] = "choice_closed"
    round: int
    chosen: int | None
    how: str
