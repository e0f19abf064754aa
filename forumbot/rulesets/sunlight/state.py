"""What a game of sunlight (阳光下的罪恶) keeps between phases: the killers in order, every round's record,
the scores and the clues."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from forumbot.engine.votes import Ballot, Vote
from forumbot.rulesets.sunlight.actions import CLUE_POLL


@dataclass
class VoteRecord:
    """One closed vote round, for scores, clues, the win index and the final post. Points are floats."""

    round: int
    killer: int
    ballots: list[Ballot]
    received: dict[int, float]  # seat -> points received
    n: int  # valid ballots, the killer's included (「1.5·n」)
    good_scores: dict[int, float]
    killer_score: float
    correct: dict[int, float]  # voter -> points a good gave the killer
    total: dict[int, float]  # voter -> points the ballot gave in all
    out: int | None
    tied: list[int]
    warned: list[int]
    suicides: list[int]


@dataclass
class KillRecord:
    """One closed kill round: the killer then, and his victim (None: no kill)."""

    round: int
    killer: int
    victim: int | None


@dataclass
class ClueSnapshot:
    """The three clues as of one vote round (published later, if chosen)."""

    round: int
    voted_out: str
    voted_out_was_killer: bool
    good_scores: list[float]
    index_reached: bool


@dataclass
class State:
    """The game's record. ``killers``: the first killer then each successor, in order."""

    killers: list[int] = field(default_factory=list)
    survival: dict[int, float] = field(default_factory=dict)
    good_scores: dict[int, dict[int, float]] = field(default_factory=dict)  # seat -> round -> points
    killer_scores: dict[int, dict[int, float]] = field(default_factory=dict)  # seat -> round -> points
    votes: list[VoteRecord] = field(default_factory=list)
    kills: list[KillRecord] = field(default_factory=list)
    published: dict[int, Any] = field(default_factory=dict)  # clue number -> content, in order
    to_publish: list[dict[str, Any]] = field(default_factory=list)
    successor_pending: int | None = None
    clue_options: list[int] = field(default_factory=list)
    clue_poll: Vote = field(default_factory=lambda: Vote(CLUE_POLL))
    clue_snapshot: ClueSnapshot | None = None
    # the last clue poll published nothing: "no_clue" ("no clue" alone on top) or "no_votes"; said in the kill post
    poll_nothing: str | None = None
    final_survival: dict[int, float] = field(default_factory=dict)  # seat -> the final survival points
