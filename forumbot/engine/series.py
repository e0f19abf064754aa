"""Series of games with the same roster (a club plays several in a row): standings across games and
the bookkeeping for rules that look at earlier games. Pure functions of plain data.

- :func:`game_result` turns a finished :class:`~forumbot.engine.game.Game` into plain data (ruleset,
  winner, each player's role, faction and whether they won, and the ruleset's ``first_night_victim``
  when it has one).
- :func:`merge_standings` adds one result to the standings (games played and won, in all and by role)
  and returns new standings; the old ones are left as they were.
- :func:`ranked` sorts standings for a table.
- :func:`repeated_victim` answers "may the first-night victim be X?" for the rule "not the same player
  ``limit`` games running".
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from forumbot.engine.game import Game


def game_result(game: Game) -> dict[str, Any]:
    """Plain data of a game for the series: ``ruleset``, ``winner``, ``first_night_victim`` (a name
    or None) and ``players`` ([{name, role, faction, won}] in seat order)."""
    factions = type(game.ruleset).roles
    summary = game.ruleset.summary()
    return {
        "ruleset": game.ruleset.id,
        "winner": game.winner,
        "first_night_victim": summary.get("first_night_victim"),
        "players": [
            {"name": p.name, "role": p.role, "faction": factions.get(p.role, p.role), "won": game.ruleset.won(p.seat)}
            for p in game.players
        ],
    }


def merge_standings(standings: dict[str, Any], result: dict[str, Any]) -> dict[str, Any]:
    """Standings after one more game. ``standings``: name -> {"played", "won", "roles": role ->
    {"played", "won"}} (``{}`` to start); ``result``: :func:`game_result`'s data. A game without a
    winner (ended by the organiser) counts as played, won by nobody."""
    new = copy.deepcopy(standings)
    for p in result["players"]:
        row = new.setdefault(p["name"], {"played": 0, "won": 0, "roles": {}})
        by_role = row["roles"].setdefault(p["role"], {"played": 0, "won": 0})
        row["played"] += 1
        by_role["played"] += 1
        if p["won"]:
            row["won"] += 1
            by_role["won"] += 1
    return new


def ranked(standings: dict[str, Any]) -> list[dict[str, Any]]:
    """Rows {name, played, won, rank} by games won, then fewer games played, then name; equal
    records share a rank."""
    rows = sorted(
        ({"name": n, "played": r["played"], "won": r["won"]} for n, r in standings.items()),
        key=lambda r: (-r["won"], r["played"], r["name"]),
    )
    for i, r in enumerate(rows):
        same = i and (rows[i - 1]["won"], rows[i - 1]["played"]) == (r["won"], r["played"])
        r["rank"] = rows[i - 1]["rank"] if same else i + 1
    return rows


def repeated_victim(previous: Sequence[str | None], limit: int = 3) -> str | None:
    """The player who may not be the first-night victim this game: the one who was the first-night
    victim in each of the last ``limit - 1`` games of ``previous`` (oldest first; None or "" = nobody
    died that night, as TOML has no null). None when there is no such player."""
    if limit < 2 or len(previous) < limit - 1:
        return None
    last = list(previous)[-(limit - 1):]
    if last[0] and all(v == last[0] for v in last):
        return last[0]
    return None
