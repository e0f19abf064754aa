"""The final standings of a finished game as the command line prints them, for any ruleset: who won, then each
player's rank (where the ruleset scores), role, fate and score, in the words of the season's locale (the report
page's ``report/words.html``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import typer

from forumbot.cli.outcome import outcome
from forumbot.cli.text import pad


@dataclass(frozen=True)
class Standing:
    """One player at the end: ``rank`` and ``score`` where the ruleset scores (else None), ``won``."""

    name: str
    seat: int
    role: str
    alive: bool
    won: bool
    rank: int | None = None
    score: float | None = None


def standings(game: Any) -> list[Standing]:
    """Every player of a finished ``game`` (a :class:`forumbot.engine.game.Game`), by rank then seat."""
    summary = game.ruleset.summary()
    scores, ranks = summary.get("scores", {}), summary.get("ranks", {})
    rows = [Standing(p.name, p.seat, p.role, p.alive, game.ruleset.won(p.seat), ranks.get(p.seat), scores.get(p.seat))
            for p in game.players]
    return sorted(rows, key=lambda r: (r.rank if r.rank is not None else 0, r.seat))


def standings_lines(game: Any, locale: str) -> list[str]:
    """The standings of a finished ``game`` as lines: the outcome, the sunlight win index where there is one, then
    one line a player (rank, name, role, alive or out, won, score)."""
    from forumbot.report.html import environment

    words: Any = environment(locale).get_template("report/words.html").module
    roles: dict[str, str] = words.roles
    lines = [outcome(game.winner, locale)]
    summary = game.ruleset.summary()
    if "win_index" in summary:
        lines.append(f"win index: {summary['win_index']:.2%}")
    for r in standings(game):
        rank = f"{r.rank:>3}. " if r.rank is not None else "   - "
        score = f" {r.score:g}" if r.score is not None else ""
        lines.append(f"{rank}{pad(r.name, 12)} {pad(roles.get(r.role, r.role), 14)} {'alive' if r.alive else 'out':<6}"
                     f"{'won' if r.won else '':<4}{score}")
    return lines


def print_standings(game: Any, locale: str) -> None:
    """The final standings of a finished sunlight ``game``, roles and fates in the words of ``locale``'s
    final post (sunlight/final.j2)."""
    from forumbot.render import renderer

    data = game.ruleset.final_data()
    words = renderer(locale).env.get_template("sunlight/final.j2").make_module(data)
    labels, outs, alive = words.labels, words.outs, words.alive_word  # type: ignore[attr-defined]
    # the winning camp in the final post's words ("killer" is a camp, not a role: labels has no word for it)
    won = "nobody (the organiser ended the game)" if data["winner"] is None else words.winners[data["winner"]]  # type: ignore[attr-defined]
    typer.echo(f"\nWinner: {won}  win index {data['correct']:g}/{data['total']:g} = {data['win_index']:.2%}")
    typer.echo(f"Killers: {' -> '.join(data['killers'])}")
    for p in data["players"]:
        fate = alive if p["alive"] else outs.get(p["out"], p["out"])
        typer.echo(f"{p['rank']:>3}. {pad(p['name'], 10)} {pad(labels[p['role']], 13)} {pad(fate, 8)} {p['total']:g}")
