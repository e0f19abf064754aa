"""Who won, for the standings of a series: sides, a piper alone, the lovers alone, both camps, a
surviving criminal with the winning camp (Ruleset.won)."""

from __future__ import annotations

from pathlib import Path

import pytest

from forumbot.engine.series import game_result
from forumbot.replay import load_transcript, replay

T = Path(__file__).parent.parent / "transcripts"


def winners(name):
    result = game_result(replay(load_transcript(T / f"{name}.yaml")).game)
    return {(p["name"], p["role"]) for p in result["players"] if p["won"]}


@pytest.mark.parametrize("name,expected", [
    ("vampire_village_piper", {("Jay", "piper")}),
    ("vampire_village_lovers", {("阿明", "vampire"), ("小強", "villager")}),
])
def test_solo_winners_win_alone(name, expected):
    assert winners(name) == expected


def test_both_camps_and_criminals():
    both = winners("interview_vampire_both_camps")
    assert {r for _, r in both} >= {"human", "vampire"}
    assert ("乙", "criminal") in winners("interview_vampire_criminals")


def test_sides():
    won = winners("sunlight_worked_example")
    assert ("A", "good") in won and not any(r == "killer" for _, r in won)
