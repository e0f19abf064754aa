"""The season parameters of sunlight (阳光下的罪恶)."""

from __future__ import annotations

from pydantic import Field

from forumbot.engine.ruleset import Params


class SunlightParams(Params):
    """Season parameters of sunlight; defaults are the rulebook's (the rulings mark those a season may set: config)."""

    win_threshold: float = Field(0.35, ge=0, le=1, description="win index at or above which the goods win")
    points: tuple[float, float] = Field((3, 2), description="points of a ballot's first and second name")
    camp_bonus: float = Field(3, description="bonus to every non-suicide member of the winning camp")
    suicide_score: float = Field(-20, description="final score of a suicide")
    penalty_score: float = Field(-30, description="final score of a player the organiser penalises")
    strikes_to_suicide: int = Field(2, ge=1, description="missed or self votes that make a suicide")
    successor_min_goods: int = Field(4, ge=1, description="goods alive for a voted-out killer to name a successor")
    clue_poll: bool = Field(True, description="hold a clue poll after a vote round that put someone out")
    will_phases: int = Field(1, ge=0, description="phases after his exit in which a player may post last words")
