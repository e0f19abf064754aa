"""The facts of the interview_vampire ruleset (夜访吸血鬼; :class:`~forumbot.engine.types.Event` subclasses, one
per kind). Seats are ints; night ``round`` comes before day ``round``. Dicts keyed by seat have the seat as a
string (their JSON form)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from forumbot.engine.types import Event


@dataclass(frozen=True)
class Setup(Event):
    """What the draw dealt: ``vampires`` (「游戏刚开始的时候仅有1名吸血鬼」, or the season's number) and
    ``criminals`` (0 unless a fixed draw deals some)."""

    kind: ClassVar[str] = "setup"
    vampires: int
    criminals: int


@dataclass(frozen=True)
class SuckPlan(Event):
    """Biter ``seat``'s sucks on night ``round`` (【关于吸血】), replacing any earlier order that night."""

    kind: ClassVar[str] = "suck_plan"
    seat: int
    targets: list[int]
    round: int


@dataclass(frozen=True)
class ConvertPlan(Event):
    """Vampire ``seat`` will make ``target`` drink his blood on night ``round`` (【关于转化同伴】); it takes
    effect at dawn, or fails silently."""

    kind: ClassVar[str] = "convert_plan"
    seat: int
    target: int
    round: int


@dataclass(frozen=True)
class ConvertWithdrawn(Event):
    """Vampire ``seat`` withdrew his conversion of ``target`` on night ``round`` (取消转化)."""

    kind: ClassVar[str] = "convert_withdrawn"
    seat: int
    target: int
    round: int


@dataclass(frozen=True)
class CrimeBallot(Event):
    """``voter``'s ballot in night ``round``'s criminal vote (【夜间暗投】): ``choices`` and the ``votes`` on each
    (a vampire's 2 on one name or two, a criminal's 1); a later ballot replaces it."""

    kind: ClassVar[str] = "crime_ballot"
    voter: int
    choices: list[int]
    votes: list[int]
    round: int


@dataclass(frozen=True)
class Ballot(Event):
    """``voter``'s vote in the thread for ``choice`` on day ``round`` (【白天的处决】); the first vote stands."""

    kind: ClassVar[str] = "ballot"
    round: int
    voter: int
    choice: int


@dataclass(frozen=True)
class Dawn(Event):
    """What dawn ``round`` decided: ``fed`` (biter -> fed), ``converted`` (new vampire -> his converter),
    ``criminals`` (vampires who sucked a vampire: criminals from now), ``kills`` (biter -> the player he
    killed), ``starved``, ``executed`` (the criminal the criminal vote put to death, or None) and ``dead``
    (everyone who died, seat order)."""

    kind: ClassVar[str] = "dawn"
    round: int
    fed: dict[str, bool]
    converted: dict[str, int]
    criminals: list[int]
    kills: dict[str, int]
    starved: list[int]
    executed: int | None
    dead: list[int]


@dataclass(frozen=True)
class VoteClosed(Event):
    """Day ``round``'s vote closed: ``vote_kind`` "decided" (``chosen`` had the most), "none" (no vote) or
    "exhausted" (a tie among ``tied``: nobody is put in the sun); ``burns``: ``chosen`` is a vampire or a criminal and dies at
    nightfall (「天黑时会被晒死」)."""

    kind: ClassVar[str] = "vote_closed"
    keys: ClassVar[dict[str, str]] = {"vote_kind": "kind"}
    round: int
    vote_kind: str
    chosen: int | None
    tied: list[int]
    burns: bool
