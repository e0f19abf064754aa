"""The shared engine modules vampire_village added, on their own: potions, linked deaths, an elected title
with a vote weight and succession, and the windows deaths open."""

from __future__ import annotations

import pytest

from forumbot.engine.game import Game, Setup
from forumbot.engine.links import Links
from forumbot.engine.potions import Potions
from forumbot.engine.title import Title
from forumbot.engine.triggers import Window, Windows
from forumbot.engine.types import Step
from forumbot.engine.votes import Vote
from forumbot.rulesets.vampire_village.actions import ELECTION


def test_potions_each_once():
    p = Potions({"save": 1, "poison": 1})
    assert p.has("save") and p.any()
    p.use("save")
    assert not p.has("save") and p.has("poison") and p.left() == {"save": 0, "poison": 1}
    with pytest.raises(ValueError):
        p.use("save")
    p.use("poison")
    assert not p.any() and not p.has("unknown")


def test_links_chain_and_forbid():
    links = Links()
    links.link(3, 1)
    links.link(1, 3)
    assert links.pairs == [(1, 3)] and links.linked(3, 1) and not links.linked(1, 2)
    assert links.partners(1) == [3] and links.partners(2) == []
    assert links.chain([1], [1, 2, 3]) == [3]
    assert links.chain([1], [1, 2]) == []          # the partner is already dead
    links.link(3, 5)
    assert links.chain([1], [1, 3, 5]) == [3, 5]   # through another who dies
    with pytest.raises(ValueError):
        links.link(2, 2)


def test_title_weight_and_history():
    g = Game(Setup("vampire_village", tuple("ABCDEFGHIJKLM")))
    out = Step()
    t = Title("sheriff", weight=2)
    assert t.weight_of(1) == 1
    t.give(2, "elected", out)
    assert t.weight_of(2) == 2 and t.weight_of(1) == 1 and out.events[0].data == {"title": "sheriff", "seat": 2, "how": "elected"}
    t.vacate()
    assert t.holder is None and t.history == [(2, "elected")]
    assert g.phase.id == 0


def settle_election(g, v, alive, purpose, out):
    d = v.decide(g, v.close(alive), purpose, out)
    return d.how, d.chosen


def test_settle_election():
    g = Game(Setup("vampire_village", tuple("ABCDEFGHIJKLM"), seed=3))
    v = Vote(ELECTION)
    assert settle_election(g, v, [1, 2, 3], "x", Step())[0] == "drawn"   # nobody voted: drawn among the pool
    v = Vote(ELECTION)
    v.cast(1, (2,), weight=2)
    v.cast(2, (3,))
    assert settle_election(g, v, [1, 2, 3], "x", Step()) == ("decided", 2)  # a weight-2 ballot
    v = Vote(ELECTION)
    v.cast(1, (2,)), v.cast(2, (1,))
    o = v.close([1, 2, 3])
    assert v.decide(g, o, "x", Step()).how == "runoff"
    v.next(o.tied)
    v.cast(1, (2,)), v.cast(2, (1,))
    out = Step()
    how, seat = settle_election(g, v, [1, 2, 3], "y", out)
    assert how == "drawn" and seat in (1, 2) and out.events[0].kind == "draw"
    assert settle_election(g, v, [1, 2, 3], "y", Step()) == (how, seat)  # seeded: the same again


def test_windows_fifo():
    w = Windows()
    w.add("shot", 4)
    w.add("successor", 2)
    w.add("shot", 4)
    assert w.waiting() == [Window("shot", 4), Window("successor", 2)]
    assert w.pop() == Window("shot", 4) and w.current == Window("shot", 4)
    assert w.pop() == Window("successor", 2)
    assert w.pop() is None and w.current is None
    w.add("shot", 1)
    w.clear()
    assert w.waiting() == [] and w.pop() is None
