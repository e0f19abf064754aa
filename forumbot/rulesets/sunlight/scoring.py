"""The scores of sunlight (阳光下的罪恶): each vote round's good and killer scores, the final scores and the
ranking (the rulings, docs/sunlight.md; the rulebook's 「个人积分及名次」). Points are floats (halves possible)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from forumbot.engine import scores as _scores
from forumbot.engine.votes import Vote
from forumbot.rulesets.sunlight.actions import GOOD, KILLER

if TYPE_CHECKING:
    from forumbot.rulesets.sunlight import Sunlight


@dataclass(frozen=True)
class RoundScores:
    """The scores of one vote round: ``n`` valid ballots (the killer's included), the points each seat
    ``received``, each good voter's ``good_scores``, the ``killer_score``; per voter, the points he gave
    the killer (``correct``, goods only) and in all (``total``), for the win index."""

    n: int
    received: dict[int, float]
    good_scores: dict[int, float]
    killer_score: float
    correct: dict[int, float]
    total: dict[int, float]


def score_round(vote: Vote, killer: int) -> RoundScores:
    """The scores of the vote round ``vote`` (its ballots in, before it is closed) with ``killer`` the
    killer: 「Good score = points given to the killer − points given to others (range −5..+3). Killer score
    = 1.5·n − points the killer received」."""
    valid = vote.valid()
    received = vote.received()
    good_scores: dict[int, float] = {}
    correct: dict[int, float] = {}
    total: dict[int, float] = {}
    for b in valid:
        given = vote.points_of(b)
        total[b.voter] = sum(pts for _, pts in given)
        if b.voter != killer:
            right = sum(pts for c, pts in given if c == killer)
            good_scores[b.voter] = right - (total[b.voter] - right)
            correct[b.voter] = right
    return RoundScores(len(valid), received, good_scores, 1.5 * len(valid) - received.get(killer, 0), correct, total)


def camp(rs: Sunlight, seat: int) -> str:
    """"killer" for every killer, first or successor (「all killers」); "good" for complete goods."""
    return KILLER if seat in rs.s.killers else GOOD


def breakdown(rs: Sunlight, seat: int) -> dict[str, Any]:
    """The parts of ``seat``'s final score: 「complete good = survival + good scores (+bonus); first killer =
    survival + own killer scores + every successor's killer scores (+bonus); successor = survival + own good
    scores + own killer scores + later successors' killer scores (+bonus); suicide −20; lurking or flooding,
    as judged by the organiser, −30」 (the flat figures are parameters)."""
    g, s, p = rs.game, rs.s, rs.params
    killers = s.killers
    own_killer = sum(s.killer_scores.get(seat, {}).values()) if seat in killers else 0
    later = sum(sum(s.killer_scores.get(k, {}).values()) for k in killers[killers.index(seat) + 1:]) if seat in killers else 0
    good = sum(s.good_scores.get(seat, {}).values())
    won = g.finished and g.winner == camp(rs, seat)
    flat = None
    if seat in g.penalties:
        flat = p.penalty_score
    elif g.player(seat).out_reason == "suicide":
        flat = p.suicide_score
    bonus = p.camp_bonus if (won and flat is None) else 0
    parts = {"survival": s.survival.get(seat, 0), "good": good, "killer": own_killer, "inherited": later, "bonus": bonus}
    return {**parts, "total": flat if flat is not None else sum(parts.values()), "flat": flat}


def scores(rs: Sunlight) -> dict[int, float]:
    """Final score of every seat (points)."""
    return {p.seat: breakdown(rs, p.seat)["total"] for p in rs.game.players}


def ranks(rs: Sunlight) -> dict[int, int]:
    """Rank of every seat by final score: 「Rank by final score, ties sharing a rank」 (1, 1, 3)."""
    return _scores.ranks(scores(rs))
