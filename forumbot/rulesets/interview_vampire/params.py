"""The season parameters of interview_vampire (夜访吸血鬼)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from forumbot.engine.ruleset import Params


class InterviewVampireParams(Params):
    """Season parameters; defaults are the rulings of docs/interview_vampire.md (those marked config). The
    rulebook leaves three of them to be calculated (「“1/4”、“保持两夜”、“处决三名犯罪的吸血鬼”，这几个参数
    是否合理还需要再精算」): the simulator answers that (docs/balance.md)."""

    vampires: int = Field(1, ge=1, description="vampires at the start (the rulebook: 1)")
    starve_nights: int = Field(2, ge=1, le=5, description="hungry this many nights running: the biter starves at dawn (2 or 3)")
    human_executions: int = Field(4, ge=1, description="vampires or criminals put to death by day votes for the humans to win")
    vampire_rule: Literal["final", "text"] = Field(
        "final", description='"final": a vampire alive at final_players or fewer with at most final_criminals criminals alive; '
        '"text": the text\'s first rule (share at hold_dawns dawns running with half the criminals out, or night_executions)')
    final_players: int = Field(4, ge=2, description='"final" rule: living players at most')
    final_criminals: int = Field(1, ge=0, description='"final" rule: living criminals at most')
    vampire_share: float = Field(0.25, gt=0, lt=1, description='"text" rule: living vampires above this share of the living')
    hold_dawns: int = Field(2, ge=1, description='"text" rule: dawns running at which the share holds')
    night_executions: int = Field(3, ge=1, description='"text" rule: criminals executed by the night vote')
    will_phases: int = Field(1, ge=0, description="phases after a death in which the dead may post last words")
    max_nights: int = Field(30, ge=1, description="safety net: after this many nights the game ends with no camp winning")
