"""What the players of sunlight (阳光下的罪恶) may do, declared once (:mod:`forumbot.engine.actions`): the
roles, the two votes (the vote round and the clue poll), the four actions and what each records.

Every check of who may act, when and on whom is declared here; the handlers only record what passed (the
order or ballot, its event, the confirmation reply).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from forumbot.engine.actions import Action, Count, Distinct, Each, Refusal, Standing, living, not_self
from forumbot.engine.orders import Order
from forumbot.engine.votes import VoteRule
from forumbot.language.types import Command
from forumbot.rulesets.sunlight import events as ev

if TYPE_CHECKING:
    from forumbot.engine.types import Step
    from forumbot.rulesets.sunlight import Sunlight

#: The roles (「比赛前抽签产生1名凶手」): one killer, everyone else good.
KILLER, GOOD = "killer", "good"
#: The clues a clue poll may publish (the rulings (docs/sunlight.md): 「Clue 1 ... Clue 2 ... Clue 3」); option 0 is "no clue".
CLUES = (1, 2, 3)
#: A vote round (the rulings, docs/sunlight.md): 「A ballot names one or two distinct living players, ranked: 3 points for
#: the first, 2 for the second」; 「A ballot that names the voter is a self-vote: void」; 「The player with the
#: most points received is out; a tie at the top, or no ballots, puts nobody out」 (the first ballot stands).
#: ``points`` is a parameter.
VOTE_ROUND = VoteRule("vote round", votes=1, last_tie="nobody", points=(3, 2), self_vote="void")
#: The clue poll (the rulings, docs/sunlight.md): 「the clue(s) with the most votes are published, all of them when 2 or 3
#: are tied, even when "no clue" ties with them; "no clue" alone on top, or no votes, publishes nothing」; a
#: later choice replaces the earlier one in its place. Option 0 is "no clue".
CLUE_POLL = VoteRule("clue poll", votes=1, last_tie="all", change="replace_in_place")


# --- the checks -------------------------------------------------------------------------------------
def _names_data(rs: Sunlight, seat: int, bad: list[int]) -> dict[str, Any]:
    return {"targets": rs.game.names(bad)}


def _already_voted(rs: Sunlight, seat: int, cmd: Command) -> Refusal | None:
    """The first ballot stands: a second is refused."""
    existing = rs.vote.ballot_of(seat)
    return None if existing is None else Refusal("already_voted", {"ballot": rs.game.names(existing.choices),
                                                                  "void": existing.void})


def _clue_option(rs: Sunlight, seat: int, cmd: Command) -> Refusal | None:
    number = cmd.number if cmd.number is not None else -1
    if number != 0 and number not in rs.s.clue_options:
        return Refusal("clue_option", {"number": number, "options": rs.s.clue_options})
    return None


# --- the handlers: what an accepted command records -----------------------------------------------------
def _vote(rs: Sunlight, seat: int, cmd: Command, out: Step) -> None:
    """The ballot is cast; a self-vote is recorded void (and told so)."""
    g = rs.game
    targets = list(cmd.targets)
    ballot = rs.vote.cast(seat, targets)
    assert ballot is not None  # he has no standing ballot (the first stands: checked before)
    void = ballot.void  # a self-vote
    out.events.append(ev.Ballot(round=g.phase.round, voter=seat, choices=targets, void=void))
    key = "sunlight/vote_self" if void else "sunlight/vote_recorded"
    points = list(rs.params.points[: len(targets)])
    g.reply(seat, key, out, round=g.phase.round, choices=g.names(targets), points=points, read_as=g.read_as(cmd))


def _kill(rs: Sunlight, seat: int, cmd: Command, out: Step) -> None:
    """The killer's order (a later one replaces it)."""
    g = rs.game
    target = cmd.targets[0]
    previous = rs.orders.give(KILLER, Order(seat, "kill", target))
    out.events.append(ev.KillOrder(round=g.phase.round, killer=seat, target=target))
    g.reply(
        seat, "sunlight/kill_recorded", out, round=g.phase.round, target=g.name(target),
        replaced=g.name(previous.target) if previous else None, read_as=g.read_as(cmd),
    )


def _successor(rs: Sunlight, seat: int, cmd: Command, out: Step) -> None:
    """The voted-out killer's successor takes over at once."""
    g = rs.game
    target = cmd.targets[0]
    g.reply(seat, "sunlight/successor_recorded", out, successor=g.name(target), read_as=g.read_as(cmd))
    rs.make_successor(target, "named", out)


def _clue(rs: Sunlight, seat: int, cmd: Command, out: Step) -> None:
    """A choice in the clue poll (a later one replaces it in its place)."""
    g = rs.game
    number = cmd.number if cmd.number is not None else -1
    before = rs.s.clue_poll.ballot_of(seat)
    previous = before.choices[0] if before else None
    rs.s.clue_poll.cast(seat, (number,), weight=1)  # whole votes: the counts are published as integers
    out.events.append(ev.ClueVote(round=g.phase.round, voter=seat, clue=number))
    g.reply(seat, "sunlight/clue_recorded", out, number=number, replaced=previous)


# --- what each records (the status reply) ---------------------------------------------------------------
def _ballot(rs: Sunlight, seat: int) -> Standing | None:
    ballot = rs.vote.ballot_of(seat)
    return Standing(tuple(ballot.choices), note="void" if ballot.void else None) if ballot else None


def _kill_order(rs: Sunlight, seat: int) -> Standing | None:
    order = rs.orders.of(KILLER)
    return Standing((order.target,)) if order else None


def _clue_choice(rs: Sunlight, seat: int) -> Standing | None:
    ballot = rs.s.clue_poll.ballot_of(seat)
    return Standing(number=ballot.choices[0]) if ballot else None


ACTIONS = (
    # the dead are told they are out before the phase, in any phase
    Action("vote", ("vote",), _vote, phases=("vote",),
           targets=(Count(1, lambda rs, seat: len(rs.params.points), "vote_count"),
                    Distinct("vote_duplicate", lambda rs, seat, cmd: {"targets": rs.game.names(cmd.targets)}),
                    living(shape="targets")),
           again="refused", already=_already_voted, standing=_ballot,
           owes=lambda rs, seat: rs.vote.ballot_of(seat) is None),
    Action("kill", ("kill",), _kill, phases=("kill",), who=lambda rs, seat: seat == rs.killer,
           targets=(Count(1, 1, "kill_count"), not_self("kill_self"), living(shape="targets")),
           standing=_kill_order, owes=lambda rs, seat: rs.orders.of(KILLER) is None),
    # a voted-out killer (out of the game) names his successor in the poll window
    Action("successor", ("successor",), _successor, phases=("poll",), alive=None,
           who=lambda rs, seat: rs.s.successor_pending == seat, who_reason="no_successor_due",
           targets=(Count(1, 1, "successor_count"),
                    Each(lambda rs, seat, t: rs.game.player(t).alive and t != seat, "dead_target", _names_data)),
           standing=lambda rs, seat: None, owes=lambda rs, seat: True),  # naming him closes the window
    Action("clue", ("clue",), _clue, phases=("poll",), when=lambda rs: bool(rs.s.clue_options),
           phase_reason="no_clue_poll", checks=(_clue_option,), standing=_clue_choice, owes=lambda rs, seat: rs.s.clue_poll.ballot_of(seat) is None,
           numbers=lambda rs: (0, *rs.s.clue_options)),
)
