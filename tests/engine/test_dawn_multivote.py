"""The shared engine modules on their own: simultaneous night plans and dawn reports
(forumbot.engine.dawn), the spread ballot (forumbot.engine.votes)."""

from __future__ import annotations

import pytest

from forumbot.engine.dawn import DawnReports, NightPlans
from forumbot.engine.game import Game, Setup
from forumbot.engine.types import Step
from forumbot.engine.votes import BallotError, Vote, VoteRule


def test_night_plans_replace_and_collide():
    plans = NightPlans()
    assert plans.set(1, "suck", (3, 4)) is None
    assert plans.set(1, "suck", (4, 5)).targets == (3, 4)
    plans.set(2, "suck", (5, 6))
    plans.set(7, "suck", (5,))
    plans.set(2, "convert", (4,))
    assert plans.targets(1, "suck") == (4, 5) and plans.targets(9, "suck") == ()
    assert plans.actors("suck") == [1, 2, 7] and plans.actors("convert") == [2]
    assert plans.named_by("suck", 5) == [1, 2, 7] and plans.named_by("suck", 5, among=[1, 2]) == [1, 2]
    assert plans.contested("suck") == {5} and plans.contested("suck", among=[1, 7]) == {5}
    assert plans.contested("suck", among=[1]) == set()
    assert plans.drop(7, "suck").targets == (5,) and plans.of(7, "suck") is None
    plans.clear()
    assert plans.actors("suck") == []


def test_a_repeated_name_in_one_plan_is_no_collision():
    plans = NightPlans()
    plans.set(1, "suck", (3, 3))
    assert plans.contested("suck") == set()


def test_dawn_reports_merge_and_go_out_once_per_seat_in_seat_order():
    g = Game(Setup("interview_vampire", tuple("ABCDEF"), roles={"A": "vampire"}))
    g.start()
    reports = DawnReports()
    reports.add(3, fed=True)
    reports.add(1, fed=False)
    reports.add(3, criminal=True)
    reports.add(5, fed=True)
    assert reports.seats() == [1, 3, 5] and reports.of(3) == {"fed": True, "criminal": True}
    out = Step()
    sent = reports.send(g, "interview_vampire/dawn_report", out, [1, 3], defaults={"criminal": False}, round=2)
    assert sent == [1, 3]
    assert [(r.to, r.data) for r in out.replies] == [
        ("A", {"fed": False, "criminal": False, "round": 2}), ("C", {"fed": True, "criminal": True, "round": 2})]
    assert reports.seats() == []


SPREAD = VoteRule("spread", split="spread", change="replace")


def multi_vote(weights):  # the spread vote
    return Vote(SPREAD, weights=weights)


def test_multivote_spreads_votes_and_finds_the_top():
    box = multi_vote({1: 2, 2: 2, 3: 1})
    assert box.cast(1, (5,)).shares == (2,)
    assert box.cast(2, (5, 6)).shares == (1, 1)
    assert box.cast(2, (6, 6)).shares == (2,)  # a name written twice counts once: both votes on it
    box.cast(3, (7,))
    assert box.received() == {5: 2, 6: 2, 7: 1}
    assert box.close(None).chosen is None  # a tie at the top decides nothing
    box.cast(3, (5,))
    assert box.close(None).chosen == 5 and box.received() == {5: 3, 6: 2}
    assert [b.voter for b in box.ballots] == [1, 2, 3]
    with pytest.raises(BallotError) as err:
        box.cast(3, (5, 6))
    assert err.value.reason == "too_many"
    with pytest.raises(BallotError) as err:
        box.cast(9, (5,))
    assert err.value.reason == "no_votes"


def test_multivote_leading_includes_ties_and_says_nothing_of_counts():
    box = multi_vote({1: 2, 2: 2, 3: 1, 4: 1})
    box.cast(1, (9, 8))
    box.cast(2, (9,))
    box.cast(3, (7,))
    box.cast(4, (6,))
    # 9: 3, 8: 1, 7: 1, 6: 1 -> the top three places with the tie at third: every name, sorted
    assert box.leading(3) == [6, 7, 8, 9]
    assert box.leading(1) == [9]
    assert multi_vote({1: 1}).leading(3) == [] and multi_vote({1: 1}).close(None).chosen is None
    assert box.close([6, 7]).chosen is None and box.close([9]).chosen == 9 and box.received()[9] == 3
