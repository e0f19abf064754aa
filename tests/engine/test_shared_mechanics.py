"""The engine's shared mechanics on their own: speaking order, run-off votes, first-deaths last words,
night actions."""

from __future__ import annotations

from forumbot.engine.game import Game, Setup
from forumbot.engine.lastwords import FirstDeaths
from forumbot.engine.night import NightActions
from forumbot.engine.orders import Order
from forumbot.engine.speaking import speaking_order
from forumbot.engine.types import Step
from forumbot.engine.votes import Vote, VoteRule, seeded_draw


def test_speaking_order():
    assert speaking_order([1, 2, 3, 4, 5], 3, 5) == [4, 5, 1, 2, 3]
    assert speaking_order([1, 2, 4, 5], 3, 5) == [4, 5, 1, 2]
    assert speaking_order([1, 2, 4], 5, 5) == [1, 2, 4]
    assert speaking_order([2, 3], None, 5) == [2, 3]
    assert speaking_order([], 2, 5) == []


THREE_VOTES = VoteRule("day vote", votes=3)


def test_runoff_vote_path():
    v = Vote(THREE_VOTES)
    for voter, target in [(1, 2), (2, 1), (3, 2), (4, 1)]:
        assert v.cast(voter, (target,))
    assert not v.cast(1, (3,))  # the first ballot stands
    o = v.close([1, 2, 3, 4, 5])
    assert o.kind == "runoff" and o.tied == (1, 2) and o.number == 1
    v.next(o.tied)
    assert v.is_runoff and v.eligible(1) and not v.eligible(3) and v.runoffs_left == 1
    v.cast(1, (2,))
    v.cast(2, (1,))
    v.next(v.close([1, 2, 3, 4, 5]).tied)
    v.cast(1, (2,))
    v.cast(2, (1,))
    assert v.close([1, 2, 3, 4, 5]).kind == "exhausted"
    assert [h.number for h in v.history] == [1, 2, 3]


def test_runoff_vote_decided_none_and_dead_candidates():
    v = Vote(THREE_VOTES)
    assert v.close([1, 2]).kind == "none"
    v = Vote(THREE_VOTES)
    v.cast(1, (2,)), v.cast(3, (2,)), v.cast(2, (1,))
    assert v.close([1, 2, 3]).chosen == 2
    v = Vote(THREE_VOTES)
    v.cast(1, (2,)), v.cast(3, (2,)), v.cast(2, (1,))
    assert v.close([1, 3]).chosen == 1  # votes for the dead are ignored


def test_tie_policies():
    g = Game(Setup("killer_club", tuple("ABCDEF"), seed=5))

    def tied(rule: VoteRule) -> Vote:
        v = Vote(rule)
        v.cast(1, (2,)), v.cast(2, (1,))
        return v

    for policy, how in (("nobody", "nobody"), ("chooser", "chooser"), ("all", "all")):
        v = tied(VoteRule("x", last_tie=policy))
        d = v.decide(g, v.close([1, 2, 3]), "p", Step())
        assert (d.how, d.chosen, d.among) == (how, None, (1, 2))
    assert d.winners == (1, 2)
    v = tied(VoteRule("x", last_tie="draw"))
    out = Step()
    d = v.decide(g, v.close([1, 2, 3]), "p", out)
    assert d.how == "drawn" and d.chosen in (1, 2) and out.events[0].data["purpose"] == "p"
    v = tied(VoteRule("x", votes=2))
    assert v.decide(g, v.close([1, 2, 3]), "p", Step()).how == "runoff"
    # nobody receiving a vote: nobody, a draw among the candidates, or a tie of every candidate
    assert Vote(VoteRule("x")).decide(g, Vote(VoteRule("x")).close([1, 2]), "p", Step()).how == "none"
    v = Vote(VoteRule("x", votes=2, no_votes="tie"), candidates=(1, 2))
    d = v.decide(g, v.close([1, 2, 3]), "p", Step())
    assert (d.how, d.among) == ("runoff", (1, 2))
    v = Vote(VoteRule("x", no_votes="draw"), candidates=(1, 2))
    assert v.decide(g, v.close([1, 2, 3]), "p", Step()).chosen in (1, 2)


def test_change_policies_and_abstention():
    v = Vote(VoteRule("x", change="replace", abstain=True))
    v.cast(1, (5,)), v.cast(2, (6,)), v.cast(1, ())
    assert [(b.voter, b.choices) for b in v.ballots] == [(2, (6,)), (1, ())]  # a change is received last
    assert v.received() == {6: 1.0} and v.withdraw(2) is not None and v.close([5, 6]).kind == "none"
    v = Vote(VoteRule("x", change="replace_in_place"))
    v.cast(1, (5,)), v.cast(2, (6,)), v.cast(1, (7,))
    assert [b.voter for b in v.ballots] == [1, 2] and list(v.received()) == [7, 6]
    v = Vote(VoteRule("x", points=(3, 2)))
    v.cast(1, (5, 6)), v.cast(2, (6, 5), void=True), v.cast(3, (6,), weight=2)
    assert v.received() == {5: 3.0, 6: 8.0} and v.withdraw(1) is None  # the first ballot stands


def test_seeded_draw_is_recorded_and_repeatable():
    g = Game(Setup("killer_club", tuple("ABCDEF"), seed=5))
    out = Step()
    a = seeded_draw(g, [3, 1, 2], "x", out)
    assert a == seeded_draw(g, [1, 2, 3], "x", Step())
    assert out.events[0].kind == "draw" and out.events[0].data["chosen"] == a


def test_first_deaths():
    f = FirstDeaths(2)
    assert f.record(5) and f.record(3) and not f.record(1)
    assert f.allowed(5) and not f.allowed(1) and not f.allowed(9)
    assert f.record(5)  # counted once


def test_night_actions_relay_repeat_and_close():
    g = Game(Setup("killer_club", tuple("ABCDEFGH"), roles={"A": "killer", "B": "killer", "C": "police"}))
    g.start()
    n = NightActions()
    out = Step()
    assert n.order(g, "k", [1, 2], Order(1, "kill", 5), out, "killer_club/order_relayed") is None
    assert [r.to for r in out.replies] == ["B"]
    prev = n.order(g, "k", [1, 2], Order(2, "kill", 6), out, "killer_club/order_relayed")
    assert prev.target == 5 and n.of("k").target == 6 and out.replies[-1].to == "A"
    n.use("check", Order(3, "check", 1))
    assert n.once("check").target == 1
    standing = n.close(["k", "nobody"])
    assert standing["k"].target == 6 and n.repeats("k", 6) and not n.repeats("k", 5)
    assert n.once("check") is None and n.of("k") is None
    n.close(["k"])
    assert not n.repeats("k", 6) and n.previous("k") is None
