"""The clue poll of sunlight (阳光下的罪恶), the rulings (docs/sunlight.md): 「after a vote round in which someone was voted
out, the survivors choose by PM among the clues not yet published and "no clue"; the result is published in
the next kill round's post」. Each clue is published at most once."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from forumbot.engine.votes import Vote
from forumbot.rulesets.sunlight import events as ev
from forumbot.rulesets.sunlight.actions import CLUE_POLL, CLUES
from forumbot.rulesets.sunlight.state import ClueSnapshot

if TYPE_CHECKING:
    from forumbot.engine.types import Step
    from forumbot.rulesets.sunlight import Sunlight
    from forumbot.rulesets.sunlight.state import VoteRecord


def prepare(rs: Sunlight, record: VoteRecord) -> None:
    """After the vote round ``record``: the clues as of this round and the poll's options (the clues not yet
    published; none when nobody was voted out or the season holds no clue poll), no choices yet."""
    s = rs.s
    snapshot = _snapshot(rs, record) if record.out is not None else None
    s.clue_options = [c for c in CLUES if c not in s.published] if (rs.params.clue_poll and snapshot) else []
    s.clue_snapshot = snapshot
    s.clue_poll = Vote(CLUE_POLL)


def _snapshot(rs: Sunlight, record: VoteRecord) -> ClueSnapshot:
    """「Clue 1: was the player voted out this round a good or the killer at that time. Clue 2: the anonymous
    table of the surviving goods' scores as of that vote round (survival + good scores so far, no bonus),
    sorted. Clue 3: is the win index so far at or above the threshold」."""
    g, s = rs.game, rs.s
    goods = [seat for seat in g.alive() if seat != record.killer]
    scores = sorted((s.survival.get(seat, 0) + sum(s.good_scores.get(seat, {}).values()) for seat in goods),
                    reverse=True)
    correct, total = rs.win_sums()
    reached = total > 0 and correct / total >= rs.params.win_threshold
    assert record.out is not None  # a snapshot is taken only when a player went out
    return ClueSnapshot(record.round, g.name(record.out), record.out == record.killer, scores, reached)


def _content(rs: Sunlight, number: int, snap: ClueSnapshot) -> dict[str, Any]:
    """What clue ``number`` (1, 2 or 3) says, as of the vote round of ``snap``."""
    if number == 1:
        return {"round": snap.round, "player": snap.voted_out, "was_killer": snap.voted_out_was_killer}
    if number == 2:
        return {"round": snap.round, "scores": snap.good_scores}
    return {"round": snap.round, "reached": snap.index_reached, "threshold": rs.params.win_threshold}


def close(rs: Sunlight, out: Step) -> None:
    """The poll closes: 「The clue(s) with the most votes are published, all of them when 2 or 3 are tied,
    even when "no clue" ties with them; "no clue" alone on top, or no votes, publishes nothing」 (kept for the
    next kill round's post, :attr:`State.to_publish`); then no poll is open."""
    g, s = rs.game, rs.s
    if s.clue_options and s.clue_snapshot is not None:
        outcome = s.clue_poll.close(None)
        counts = outcome.received
        leaders = [c for c in s.clue_poll.decide(g, outcome, "clue", out).winners if c != 0]
        for number in leaders:
            content = _content(rs, number, s.clue_snapshot)
            s.published[number] = content
            s.to_publish.append({"number": number, **content})
        if not leaders:
            s.poll_nothing = "no_clue" if counts else "no_votes"
        out.events.append(ev.CluePollClosed(round=g.phase.round, counts=counts, published=leaders))
    s.clue_options, s.clue_poll, s.clue_snapshot = [], Vote(CLUE_POLL), None
