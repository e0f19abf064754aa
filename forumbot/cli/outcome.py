"""How the command line names the end of a game: who won, its camps in English as the rest of its lines."""

from __future__ import annotations

from typing import Any


def camp_name(camp: str, locale: str) -> str:
    """``camp`` (a faction id such as "good" or "vampires") as the report page names it in ``locale``
    (``report/words.html``'s ``camps``); the id itself when the page has no word for it."""
    from forumbot.report.html import environment

    words: dict[str, str] = environment(locale).get_template("report/words.html").module.camps  # type: ignore[attr-defined]
    return words.get(camp, camp)


def outcome(winner: Any, locale: str) -> str:
    """The end of a finished game for a status line: ``winner`` is ``game.winner`` (a faction id, a list
    of camps that win together, "draw", or None: the organiser ended the game and nobody won).
    E.g. "over: Goods won", "over: Humans + Vampires won", "over: ended by the organiser, no winner".

    The command line speaks English whatever the season's ``locale`` (its other lines do), so the camps
    are named in English too: "over: 杀手 won" mixed two languages in one line."""
    del locale  # the season's locale is for its posts; kept in the signature for the callers that pass it
    if winner is None:
        return "over: ended by the organiser, no winner"
    if winner == "draw":
        return "over: a draw, no winner"
    camps = winner if isinstance(winner, (list, tuple)) else [winner]
    return "over: " + " + ".join(camp_name(str(c), "en") for c in camps) + " won"
