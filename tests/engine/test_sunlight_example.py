"""The rulebook's worked example (shared/seeds/001, 实例演示) and each slip of its arithmetic."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from forumbot.render import Renderer
from forumbot.replay import load_transcript, replay

EXAMPLE = Path(__file__).parent.parent / "transcripts" / "sunlight_worked_example.yaml"


@pytest.fixture(scope="module")
def result():
    return replay(load_transcript(EXAMPLE))


def score(result, name):
    g = result.game
    return g.ruleset.scores()[g.seat_of(name)]


def vote_round(result, number):
    return next(v for v in result.game.ruleset.s.votes if v.round == number)


def test_corrected_finals(result):
    assert {p.name: score(result, p.name) for p in result.game.players} == {
        "A": 11, "B": 8, "C": 1.5, "D": 6, "E": 0, "F": 0, "G": 5,
    }


def test_goods_win_with_index_27_over_73(result):
    g = result.game
    correct, total = g.ruleset.win_sums()
    assert (correct, total) == (27, 73)
    assert g.finished and g.winner == "good"
    assert [p.name for p in g.players if p.alive] == ["A", "G"]


def test_json_shape(result):
    data = result.to_json(Renderer("en"))
    assert data["ruleset"] == "sunlight" and data["finished"] is True and data["winner"] == "good"
    assert data["win_index"] == pytest.approx(27 / 73)
    by_name = {p["name"]: p for p in data["players"]}
    assert by_name["A"]["rank"] == 1 and by_name["B"]["rank"] == 2 and by_name["E"]["rank"] == by_name["F"]["rank"] == 6
    assert by_name["C"]["role"] == "killer" and by_name["B"]["role"] == "killer" and by_name["A"]["role"] == "good"
    assert [ph["phase"] for ph in data["phases"]] == ["prologue", "vote", "poll", "kill", "vote", "kill", "vote", "kill", "vote"]
    assert [ph["out"] for ph in data["phases"]] == [[], ["C"], [], ["E"], [], ["D"], [], ["F"], ["B"]]


def test_slip_round5_killer_score_is_1_not_2(result):
    # The text: 凶手分1.5x4-2=+2. B received 3 (A) + 2 (F) = 5 points: 1.5 x 4 - 5 = 1.
    assert vote_round(result, 5).received[2] == 5
    assert vote_round(result, 5).killer_score == 1


def test_slip_first_killer_inherits_successor_killer_scores_only(result):
    # The text adds B's round-1 good score (+3) to C's inheritance: 5.5. Only killer scores pass on:
    # B's killer scores 2.5 + 1 - 1.5 = 2, so C = -0.5 + 2 = 1.5.
    parts = result.game.ruleset.breakdown(3)
    assert parts["killer"] == -0.5 and parts["inherited"] == 2 and parts["total"] == 1.5


def test_slip_round7_without_dead_f(result):
    # The text's round 7 ballots name F, dead since round 6; resent without F the received points
    # are A 5, B 6, G 0 (the text says A 2, B 6, G 2) and the round's total is 11, not 15.
    r7 = vote_round(result, 7)
    assert r7.received == {2: 6, 1: 5}
    assert sum(r7.total.values()) == 11 and sum(r7.correct.values()) == 6


def test_slip_win_index_denominator_is_73_not_77(result):
    assert Fraction(27, 73) == Fraction(*map(int, result.game.ruleset.win_sums()))


def test_slip_a_final_is_11_not_9(result):
    parts = result.game.ruleset.breakdown(1)
    assert (parts["survival"], parts["good"], parts["bonus"]) == (4, 4, 3)


def test_slip_example_has_seven_players_not_eight(result):
    assert len(result.game.players) == 7


def test_round_scores_as_the_text(result):
    r1 = vote_round(result, 1)
    assert r1.good_scores == {1: -5, 2: 3, 4: 3, 5: -3, 6: -1, 7: 3}
    assert r1.killer_score == -0.5 and sum(r1.correct.values()) == 11 and sum(r1.total.values()) == 27
    r3 = vote_round(result, 3)
    assert r3.killer_score == 2.5 and r3.tied == [1, 7] and r3.out is None


def test_replay_is_deterministic():
    a = replay(load_transcript(EXAMPLE)).to_json(Renderer("en"))
    b = replay(load_transcript(EXAMPLE)).to_json(Renderer("en"))
    assert a == b
