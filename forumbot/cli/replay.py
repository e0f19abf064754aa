"""``forumbot replay TRANSCRIPT [--json]``: play a whole game from a transcript."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer

from forumbot.cli.root import app
from forumbot.cli.text import pad
from forumbot.render import Renderer
from forumbot.replay import (
    ReplayResult,
    Transcript,
    TranscriptError,
    load_transcript,
    replay,
)


@app.command("replay")
def replay_command(
    transcript: Path = typer.Argument(..., help="the transcript (YAML)"),
    as_json: bool = typer.Option(False, "--json", help="print one JSON object instead of text"),
    locale: str = typer.Option(None, help="zh-Hans, zh-Hant or en (default: the transcript's)"),
    markup: str = typer.Option(None, help="markdown or bbcode (default: the transcript's)"),
    html: Path = typer.Option(None, "--html", help="also write the game's HTML report into this folder"),
    public: bool = typer.Option(False, "--public", help="with --html: only what the game thread showed"),
    organiser: bool = typer.Option(False, "--organiser", help="with --html: the full report of an unfinished game"),
) -> None:
    """Play a game from a transcript and print each phase's outcome, the posts and private messages
    the bot would send, and the final standings."""
    if public and organiser:  # one report or the other: --public would quietly win
        typer.echo("error: --public and --organiser ask for two different reports: give one", err=True)
        raise typer.Exit(2)
    for given, flag in ((public, "--public"), (organiser, "--organiser")):
        if given and html is None:  # it shapes only the report page: without it, it would do nothing
            typer.echo(f"error: {flag} needs --html DIR: it says what the HTML report shows", err=True)
            raise typer.Exit(2)
    try:
        t = load_transcript(transcript)
        renderer = Renderer(locale or t.locale, markup or t.markup)
        result = replay(t)
    except (TranscriptError, ValueError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    if html is not None:
        _write_html(t, result, transcript, html, public, organiser, renderer.locale)
    if as_json:
        typer.echo(json.dumps(result.to_json(renderer), ensure_ascii=False, indent=2))
    else:
        typer.echo(format_text(result, renderer))


def _write_html(t: Transcript, result: ReplayResult, transcript: Path, out: Path, public: bool, organiser: bool,
                locale: str) -> None:
    """The replay's report page (issue 13): refused, as for a season, when the game is not over and
    neither --public nor --organiser was given."""
    from forumbot.cli.report import REFUSED, write
    from forumbot.report.data import extract
    from forumbot.report.log import from_replay

    if not (public or organiser or result.game.finished):
        typer.echo(REFUSED.format(name=transcript.stem).replace("season", "game", 1), err=True)
        raise typer.Exit(2)
    write(extract(from_replay(t, result, transcript.stem), public=public), locale, out)


def format_text(result: ReplayResult, renderer: Renderer) -> str:
    """A readable account of a replay: phase by phase, then the standings."""
    data = result.to_json(renderer)
    lines: list[str] = []
    for ph in data["phases"]:
        title = ph["phase"] + (f" (round {ph['round']})" if ph["round"] else "")
        lines.append(f"=== {title} ===")
        for post in ph["posts"]:
            lines.append("--- post ---")
            lines.append(post.rstrip())
        for r in ph["replies"]:
            lines.append(f"--- PM to {r['to']} ---")
            lines.append(r["text"].rstrip())
        lines.append(f"out: {', '.join(ph['out']) if ph['out'] else '-'}")
        lines.append("")
    lines += standings_lines(result, data, renderer.locale)
    return "\n".join(lines)


def standings_lines(result: ReplayResult, data: dict[str, Any], locale: str) -> list[str]:
    """The end of a replay's account (``data``: its :meth:`~forumbot.replay.ReplayResult.to_json`) in ``locale``, in the report page's words (``report/words.html``) and the
    ruleset's own names for roles and camps (《阳光下的罪恶》: 凶手): the heading, who won (or the phase the
    game stopped in), the win index, then one line a player: rank, name, seat, role, alive or out, score."""
    from forumbot.report.html import environment

    T: Any = environment(locale).get_template("report/words.html").module
    W, g = T.words, result.game
    own = T.ruleset_words.get(g.ruleset.id, {})

    def camp(c: str) -> str:
        return str(own.get(c, T.camps.get(c, c)))

    if not g.finished:
        phase = str(T.kinds.get(g.phase.kind, g.phase.kind)) + (f" · {W['round_n'].format(g.phase.round)}" if g.phase.round else "")
        end = W["in_progress"].format(phase)
    elif g.winner is None:
        end = f"{W['finished']} · {W['no_winner']}"
    elif g.winner == "draw":
        end = f"{W['finished']} · {W['draw']}"
    else:
        winners = g.winner if isinstance(g.winner, (list, tuple)) else [g.winner]
        end = f"{W['finished']} · {W['winner']}: {' + '.join(camp(str(c)) for c in winners)}"
    lines = [f"=== {W['standings']} ===", end]
    if "win_index" in data:
        lines.append(f"{W['win_index']}: {data['win_index']:.4f}")
    for p in sorted(data["players"], key=lambda p: (p["rank"] or 0, p["seat"])):
        rank = f"{p['rank']:>3}  " if p["rank"] is not None else ""
        score = f" {p['score']:g}" if p["score"] is not None else ""
        role = str(own.get(p["role"], T.roles.get(p["role"], p["role"])))
        fate = W["alive"] if p["alive"] else W["out_plain"]
        lines.append(f"{rank}{pad(p['name'], 12)} {pad(W['seat_n'].format(p['seat']), 8)} {pad(role, 10)} {pad(fate, 6)}{score}".rstrip())
    return lines
