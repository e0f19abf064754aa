"""What a season file may say but probably does not mean: told by ``forumbot check`` and printed by
``run`` and ``serve``, which go on (an error stops them; a warning does not)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from forumbot.config import SeasonConfig
    from forumbot.engine.game import Game


def season_warnings(config: SeasonConfig, text: str, game: Game | None) -> list[str]:
    """Each warning about ``config`` (read from ``text``; ``game`` the game it starts), "line N: key: ..."."""
    return []
