"""The one vote mechanism (forumbot.engine.votes) on its own: the tally, the change and abstention rules,
the tie and no-vote policies, the chooser, spread ballots; properties over random ballots."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forumbot.engine.game import Game, Setup
from forumbot.engine.types import Step
from forumbot.engine.votes import BallotError, Vote, VoteRule


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


def test_abstention_and_self_votes_follow_the_rule():
    with pytest.raises(BallotError) as err:
        Vote(VoteRule("x")).cast(1, ())
    assert err.value.reason == "no_abstention"
    v = Vote(VoteRule("x", abstain=True))
    assert v.cast(1, ()) is not None and v.close([1, 2]).kind == "none"
    v = Vote(VoteRule("x", self_vote="void"))
    assert v.cast(1, (1, 2)).void and not v.cast(2, (1,)).void and v.received() == {1: 1.0}


def test_the_chooser_names_one_or_the_fallback_applies():
    g = Game(Setup("killer_club", tuple("ABCDEF"), seed=5))
    v = Vote(VoteRule("x", last_tie="chooser", no_choice="draw"))
    assert v.named(g, 2, [1, 2], "c", Step()).how == "named"
    out = Step()
    d = v.named(g, None, [1, 2], "c", out)
    assert d.how == "drawn" and d.chosen == random.Random("5:c").choice([1, 2]) and len(out.events) == 1
    assert v.named(g, None, [], "c", Step()).how == "nobody"  # nobody left to draw among
    assert Vote(VoteRule("x", no_choice="nobody")).named(g, None, [1, 2], "c", Step()).how == "nobody"


ballots = st.lists(st.tuples(st.integers(1, 8), st.integers(1, 6), st.sampled_from([1.0, 1.5, 2.0])), max_size=20)


@settings(max_examples=200, deadline=None)
@given(ballots, st.sets(st.integers(1, 6), min_size=1), st.sampled_from(["replace", "replace_in_place", "first_stands"]))
def test_the_tally_is_the_plurality_of_the_standing_ballots(cast, alive, change):
    v = Vote(VoteRule("x", votes=2, change=change))
    standing: dict[int, tuple[int, float]] = {}
    order: list[int] = []
    for voter, choice, weight in cast:
        recorded = v.cast(voter, (choice,), weight=weight)
        if voter in standing and change == "first_stands":
            assert recorded is None
            continue
        standing[voter] = (choice, weight)
        if change == "replace" and voter in order:
            order.remove(voter)
        if voter not in order:
            order.append(voter)
    assert [b.voter for b in v.ballots] == order
    got: dict[int, float] = {}
    for choice, weight in standing.values():
        got[choice] = got.get(choice, 0) + weight
    living = {c: p for c, p in got.items() if c in alive}
    o = v.close(sorted(alive))
    if not living:
        assert o.kind == "none" and o.chosen is None
    else:
        best = max(living.values())
        leaders = sorted(c for c, p in living.items() if p == best)
        assert (o.chosen, o.tied) == ((leaders[0], ()) if len(leaders) == 1 else (None, tuple(leaders)))
        assert o.kind == ("decided" if len(leaders) == 1 else "runoff")
    assert o.counts == sorted(got.items(), key=lambda kv: (-kv[1], kv[0]))


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 10_000), st.sets(st.integers(1, 12), min_size=2, max_size=6), st.text(min_size=1, max_size=8))
def test_a_seeded_tie_break_draws_once_from_the_game_stream(seed, tied, purpose):
    g = Game(Setup("killer_club", tuple("ABCDEFGHIJKL"), seed=seed))
    v = Vote(VoteRule("x", last_tie="draw"))
    for voter, choice in enumerate(sorted(tied), start=20):
        v.cast(voter, (choice,))
    out = Step()
    d = v.decide(g, v.close(None), purpose, out)
    assert d.chosen == random.Random(f"{seed}:{purpose}").choice(sorted(tied))
    assert [(e.kind, e.data) for e in out.events] == [("draw", {"purpose": purpose, "among": sorted(tied), "chosen": d.chosen})]


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 4), st.lists(st.integers(1, 9), max_size=5))
def test_a_spread_ballot_shares_out_every_vote(votes, names):
    v = Vote(VoteRule("x", split="spread", change="replace"), weights={1: votes})
    distinct = list(dict.fromkeys(names))
    if not distinct or len(distinct) > votes:
        with pytest.raises(BallotError):
            v.cast(1, names)
        return
    b = v.cast(1, names)
    assert b is not None and b.choices == tuple(distinct) and sum(b.shares) == votes
    assert max(b.shares) - min(b.shares) <= 1 and list(b.shares) == sorted(b.shares, reverse=True)
