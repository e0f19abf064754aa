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
