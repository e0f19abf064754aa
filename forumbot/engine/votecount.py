"""The running vote count of a vote cast in the game thread, as forum-mafia players expect it: each
target with its voters in the order their votes were received, and who has not voted yet.

Derived from game state only (the ruleset's :meth:`~forumbot.engine.ruleset.Ruleset.thread_vote`); when
and how often it is posted is the runtime's business (:mod:`forumbot.runtime.votecount`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from forumbot.engine.game import Game

#: the choice a no-lynch ballot names (nobody executed)
NO_LYNCH = 0


@dataclass(frozen=True)
class VoteCount:
    """The standing ballots of one thread vote.

    ``phase_id``: the phase the vote belongs to; ``number``: 1 for the first vote, 2 for the first
    run-off...; ``targets``: ``(target seat, voters in order received)`` pairs, the most-voted target
    first (ties: the target whose first standing vote came first); target :data:`NO_LYNCH` is a vote
    that nobody is executed; ``not_voted``: living voters with no standing ballot, in seat order.
    """

    phase_id: int
    number: int
    targets: tuple[tuple[int, tuple[int, ...]], ...]
    not_voted: tuple[int, ...]

    @property
    def votes(self) -> int:
        """How many standing ballots there are."""
        return sum(len(voters) for _, voters in self.targets)

    def data(self, game: Game) -> dict[str, Any]:
        """The count with players' names, for templates: ``targets`` as ``{"name", "no_lynch", "voters",
        "count"}``, ``not_voted`` names, ``number``, ``votes`` and ``alive`` (how many may vote)."""
        return {
            "number": self.number,
            "votes": self.votes,
            "alive": self.votes + len(self.not_voted),
            "targets": [{"name": "" if t == NO_LYNCH else game.name(t), "no_lynch": t == NO_LYNCH,
                         "voters": game.names(v), "count": len(v)} for t, v in self.targets],
            "not_voted": game.names(self.not_voted),
        }


def vote_count(game: Game) -> VoteCount | None:
    """The count of the vote now being cast in the thread, or None when no vote is cast in the thread
    now (a night, a vote sent by private message, the game over). Ballots for a player who has since
    died still show (the ruleset ignores them when it tallies); voters are the living players."""
    if game.finished:
        return None
    vote = game.ruleset.thread_vote()
    if vote is None:
        return None
    order: dict[int, list[int]] = {}
    for ballot in vote.ballots:  # in the order received (a changed ballot moved to the end)
        if ballot.void or not ballot.choices:
            continue
        order.setdefault(ballot.choices[0], []).append(ballot.voter)
    first = {t: i for i, t in enumerate(order)}
    targets = sorted(order.items(), key=lambda tv: (-len(tv[1]), first[tv[0]]))
    voted = {b.voter for b in vote.ballots}
    not_voted = tuple(s for s in game.alive() if s not in voted)
    return VoteCount(game.phase.id, vote.number, tuple((t, tuple(v)) for t, v in targets), not_voted)
