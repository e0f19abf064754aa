"""The season parameters of vampire_village (吸血鬼村莊)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from forumbot.engine.ruleset import Params


class VampireVillageParams(Params):
    """Season parameters of vampire_village; defaults are the rulebook's (docs/vampire_village.md: the rulings
    marked config)."""

    counts: dict[str, int] | None = Field(
        None, description="role counts overriding the preset (role -> count); villagers fill the rest")
    team_order: Literal["last", "first"] = Field(
        "last", description="the vampires' kill: the last order from any vampire stands, or the first")
    guard_and_save: Literal["lives", "dies"] = Field(
        "lives", description="guarded and saved by the witch the same night: lives, or dies (同守同救)")
    tell_charmed: bool = Field(True, description="charmed players are told so at dawn")
    tie_fallback: Literal["nobody", "draw"] = Field(
        "nobody", description="day vote tied again after the run-off: nobody dies, or a seeded draw among the tied")
    votes: int = Field(2, ge=1, le=3, description="day votes before the tie rule (the first + run-offs)")
    reveal_roles_at_death: bool = Field(False, description="announce a dead player's role")
    elder_lives: int = Field(2, ge=1, description="the elder's lives against vampire kills")
    last_words: bool = Field(True, description="the dead may post last words in the thread")
    will_phases: int = Field(1, ge=0, description="phases after a death in which the last words may be posted")
