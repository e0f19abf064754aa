"""The season parameters of human_kill (人类杀)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from forumbot.engine.ruleset import Params
from forumbot.rulesets.human_kill.roles import WEATHER, Row


class HumanKillParams(Params):
    """Season parameters of human_kill; defaults are the rulebook's (《人类杀》) and the rulings (human_kill)."""

    distribution: Literal["standard", "thirds"] = Field(
        "standard", description="standard: the table by player count; thirds: the rulebook's thirds rule")
    table: dict[int, Row] = Field(default_factory=dict, description="rows replacing the standard table's, by player count")
    extra_great: list[Literal["iku"]] = Field(
        default_factory=list, description="great youkai in no preset (iku), each dealt in an ordinary youkai's place; needs the weather")
    human_threshold: int = Field(8, ge=1, description="from this many players the humans win by 重创 (all ordinary or all great youkai out), below it by 清剿")
    exorcise_tie: Literal["nobody", "draw"] = Field("nobody", description="the exorcism ties or all abstain: nobody, or a seeded draw among the tied")
    banish_votes: int = Field(2, ge=1, description="banish votes a night: the first and the run-offs among the tied")
    change_vote: bool = Field(False, description="a later banish or sage ballot replaces the earlier one")
    last_words_rounds: int = Field(2, ge=0, description="players out in the first N rounds leave last words")
    will_phases: int = Field(1, ge=0, description="phases after a death in which the last words may be posted")
    sage: bool = Field(False, description="the optional sage election on round 1")
    sage_weight: float = Field(1.5, gt=0, description="the sage's banish vote")
    weather: bool = Field(False, description="the optional weather: one drawn each day")
    weather_weights: dict[str, float] = Field(default_factory=lambda: dict(WEATHER), description="weather id -> draw weight")
    kyokkou_chance: float = Field(0.05, ge=0, le=1, description="极光: the chance that the day's real weather is hidden")
    fail_chance: float = Field(0.5, ge=0, le=1, description="烈日: the chance that a role's action on a target fails; 台风: a ballot is blown away")
    noumu_limit: int = Field(10, ge=1, description="浓雾: the longest post, in characters")
