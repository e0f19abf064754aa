"""``forumbot standings SEASON...``: standings across a series of games with the same roster (the club
plays several in a row), and what the next game's season file needs for rules that look back."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from forumbot.cli.root import app
from forumbot.engine.series import game_result, merge_standings, ranked


@app.command("standings")
def standings(
    seasons: list[Path] = typer.Argument(..., help="the season files of the series' games, oldest first"),
    as_json: bool = typer.Option(False, "--json", help="print the standings as JSON"),
    html: Path = typer.Option(None, "--html", help="also write the series page (HTML, offline) into this folder"),
) -> None:
    """Games played and won by each player, in all and by role, over finished seasons; and, for rulesets
    that look back at earlier games (killer_club), the first-night victims for the next game's season file."""
    from forumbot.cli.season import _bot, _load, _no_database

    table: dict = {}
    victims: list[str] = []
    games: list[dict] = []
    locale = "zh-Hans"
    looks_back = False  # a ruleset with [params.series] (killer_club: the first-night victims)
    for path in seasons:
        config = _load(path)
        if _no_database(config):  # looking must not create the season's database
            typer.echo(f"{path}: season {config.name!r} has not started, no games played yet; left out", err=True)
            continue
        bot = _bot(config)
        if not bot.game.finished:
            state = "is not over" if bot.started else "has not started, no games played yet"
            typer.echo(f"{path}: season {bot.config.name!r} {state}; left out", err=True)
            continue
        looks_back = looks_back or "series" in type(bot.game.ruleset).Params.model_fields
        result = game_result(bot.game)
        table = merge_standings(table, result)
        games.append({"name": bot.config.name, "ruleset": result["ruleset"], "winner": result["winner"]})
        locale = bot.config.locale
        victims.append(result.get("first_night_victim") or "")
    if not games:
        typer.echo("error: no finished game yet: no standings", err=True)
        raise typer.Exit(1)
    if html is not None:
        from forumbot.cli.report import write

        rows = [{**row, "roles": dict(sorted(table[row["name"]]["roles"].items()))} for row in ranked(table)]
        write({"kind": "series", "games": games, "rows": rows}, locale, html, page="series")
    if as_json:
        typer.echo(json.dumps({"standings": table, "first_night_victims": victims}, ensure_ascii=False, indent=2))
        return
    typer.echo(f"{'rank':>4}  {'player':<14} {'played':>6} {'won':>4}  by role (won/played)")
    for row in ranked(table):
        roles = ", ".join(f"{role} {r['won']}/{r['played']}" for role, r in sorted(table[row["name"]]["roles"].items()))
        typer.echo(f"{row['rank']:>4}  {row['name']:<14} {row['played']:>6} {row['won']:>4}  {roles}")
    if looks_back:
        typer.echo("\nFor the next game's season file:\n[params.series]\nprevious_first_victims = "
                   + json.dumps(victims, ensure_ascii=False))
