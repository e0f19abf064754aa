"""The running vote count of a vote cast in the thread (issue 13): each target with its voters in the
order received, who has not voted, and nothing when no vote is cast in the thread."""

from __future__ import annotations

from forumbot.engine.game import Game, Setup
from forumbot.engine.types import Deadline, Message
from forumbot.engine.votecount import NO_LYNCH, vote_count
from forumbot.engine.votes import Vote, VoteRule

KC_PLAYERS = tuple("ABCDEFGHIJKLMN")
KC_ROLES = {"A": "killer", "B": "killer", "C": "killer", "D": "police", "E": "police", "F": "police",
            "G": "helper", "H": "nurse"}


def day_vote(vote_in_thread: bool = True) -> Game:
    g = Game(Setup("killer_club", KC_PLAYERS, {"vote_in_thread": vote_in_thread}, KC_ROLES, seed=1,
                   organisers=("Org",)))
    g.start()
    g.apply(Deadline(0))  # night 1
    assert vote_count(g) is None  # nothing is voted in the thread at night
    g.apply(Deadline(g.phase.id))
    assert g.phase.kind == "vote"
    return g


def names(g: Game, count) -> list[tuple[str, list[str]]]:
    return [(g.name(t), g.names(v)) for t, v in count.targets]


def test_count_orders_targets_by_votes_and_voters_by_arrival():
    g = day_vote()
    alive = g.alive()
    for voter, target in [("D", "A"), ("E", "B"), ("F", "B"), ("G", "A"), ("I", "B")]:
        g.apply(Message(voter, f"投 {target}", "thread"))
    count = vote_count(g)
    assert count is not None and count.phase_id == g.phase.id and count.number == 1
    assert names(g, count) == [("B", ["E", "F", "I"]), ("A", ["D", "G"])]
    assert g.names(count.not_voted) == [g.name(s) for s in alive if g.name(s) not in "DEFGI"]
    assert count.votes == 5
    data = count.data(g)
    assert data["targets"][0] == {"name": "B", "no_lynch": False, "voters": ["E", "F", "I"], "count": 3}
    assert data["alive"] == len(alive)


def test_a_tie_lists_first_the_target_voted_first():
    g = day_vote()
    for voter, target in [("D", "C"), ("E", "B"), ("F", "B"), ("G", "C")]:
        g.apply(Message(voter, f"投 {target}", "thread"))
    assert [t for t, _ in names(g, vote_count(g))] == ["C", "B"]


def test_unvote_where_the_first_vote_stands_leaves_the_count():
    g = day_vote()
    g.apply(Message("D", "投 A", "thread"))
    before = vote_count(g)
    g.apply(Message("D", "unvote", "thread"))
    assert vote_count(g) == before


def test_withdrawn_and_changed_ballots_where_votes_may_change():
    g = day_vote()
    g.ruleset.vote = Vote(VoteRule("day vote", change="replace"))  # a rulebook whose votes may change
    vote = g.ruleset.vote
    d, e, f = (g.players[i].seat for i in (3, 4, 5))  # D E F
    vote.cast(d, (g.players[0].seat,))
    vote.cast(e, (g.players[0].seat,))
    vote.cast(f, (NO_LYNCH,))
    vote.cast(d, (g.players[1].seat,))  # D changes to B
    vote.withdraw(e)  # E withdraws
    count = vote_count(g)
    assert count is not None
    assert [(t, g.names(v)) for t, v in count.targets] == [(NO_LYNCH, ["F"]), (g.players[1].seat, ["D"])]
    assert "E" in g.names(count.not_voted) and "D" not in g.names(count.not_voted)
    assert count.data(g)["targets"][0]["no_lynch"] is True


def test_no_count_when_votes_go_by_private_message():
    g = day_vote(vote_in_thread=False)
    assert vote_count(g) is None


def test_interview_vampire_day_vote_is_counted():
    players = tuple(f"P{i}" for i in range(1, 13))
    g = Game(Setup("interview_vampire", players, {}, None, seed=3, organisers=("Org",)))
    g.start()
    while g.phase.kind != "day" and not g.finished:
        assert vote_count(g) is None
        g.apply(Deadline(g.phase.id))
    alive = g.alive()
    voter, target = g.name(alive[0]), g.name(alive[1])
    g.apply(Message(voter, f"投 {target}", "thread"))
    count = vote_count(g)
    assert count is not None and names(g, count) == [(target, [voter])]
    assert len(count.not_voted) == len(alive) - 1


def test_an_unvote_follows_the_open_vote_s_declaration():
    """The one on_unvote reads the open vote's rule: where ballots may change the unvote withdraws
    the standing ballot (and the count drops it); where the first vote stands it changes nothing."""
    g = day_vote()
    g.apply(Message("D", "投 A", "thread"))
    step = g.apply(Message("D", "unvote", "thread"))
    assert [r.data.get("rule") for r in step.replies] == ["first_vote_stands"] and vote_count(g).votes == 1
    g.ruleset.vote = Vote(VoteRule("day vote", change="replace"))
    g.apply(Message("D", "投 A", "thread"))
    step = g.apply(Message("D", "unvote", "thread"))
    assert [e.kind for e in step.events] == ["unvote"] and [r.key for r in step.replies] == ["common/unvoted"]
    assert vote_count(g).votes == 0 and "D" in g.names(vote_count(g).not_voted)
