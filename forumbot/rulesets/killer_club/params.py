"""The season parameters of killer_club (殺人遊戲)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from forumbot.engine.ruleset import Params


class SeriesParams(BaseModel):
    """A game in a series with the same roster. ``previous_first_victims``: the first-night victims
    of the series' earlier games, oldest first (a name, or null when nobody died on night 1);
    ``limit``: the same player may not be the first-night victim this many games running."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    previous_first_victims: tuple[str | None, ...] = ()
    limit: int = Field(3, ge=2)


class KillerClubParams(Params):
    """Season parameters of killer_club; defaults are the rulebook's (the rulings mark those a season may set: config)."""

    killers: int | None = Field(None, ge=1, description="killers (default: the preset for the player count)")
    police: int | None = Field(None, ge=1, description="police (default: the preset)")
    helper: int | None = Field(None, ge=0, le=1, description="killer helper, 0 or 1 (default: the preset)")
    nurse: int | None = Field(None, ge=0, le=1, description="nurse, 0 or 1 (default: the preset)")
    last_words: int | None = Field(None, ge=0, description="first deaths that leave last words (default: note 4)")
    will_phases: int = Field(1, ge=0, description="phases after a death in which the last words may be posted")
    vote_in_thread: bool = Field(False, description="day votes are posted in the thread instead of sent by PM")
    votes: int = Field(3, ge=1, description="votes in a day before the last-tie rule (the first + run-offs)")
    tie_fallback: Literal["nobody", "draw"] = Field(
        "nobody", description="last tie with no night victim (or no choice in time): nobody dies, or a seeded draw")
    series: SeriesParams = Field(default_factory=SeriesParams, description="the series this game belongs to")
