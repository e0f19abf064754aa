"""``forumbot report SEASON -o DIR``: the season's report page (issue 13); ``--public`` for what the thread
showed only. The full report (roles, night actions, scores) of a season still running is refused unless
the organiser asks for it with ``--organiser``."""

from __future__ import annotations

from pathlib import Path

import typer

from forumbot.cli.root import app

REFUSED = ("error: season {name!r} is not over: the full report shows roles and night actions. Use --public for "
           "a report that is safe to publish now, or --organiser for the organiser's own eyes.")


@app.command("report")
def report(
    season: Path = typer.Argument(..., help="the season file"),
    out: Path = typer.Option(..., "-o", "--out", help="the folder to write index.html and assets/ into"),
    public: bool = typer.Option(False, "--public", help="only what the game thread showed (safe mid-season)"),
    organiser: bool = typer.Option(False, "--organiser", help="the full report of a season still running"),
) -> None:
    """Write a static, offline HTML report of a season (timeline, vote charts, deaths, scores,
    standings) in the season's locale."""
    from forumbot.cli.season import _bot, _load, _never_run, _no_database
    from forumbot.report.data import extract
    from forumbot.report.log import from_bot

    if public and organiser:  # one report or the other: --public would quietly win
        typer.echo("error: --public and --organiser ask for two different reports: give one", err=True)
        raise typer.Exit(2)
    config = _load(season)
    if _no_database(config) or _never_run(config) is not None:
        typer.echo(f"error: season {config.name!r} has not started (no database yet): nothing to report", err=True)
        raise typer.Exit(2)
    bot = _bot(config)
    if not bot.started:
        typer.echo(f"error: season {config.name!r} has not started: nothing to report", err=True)
        raise typer.Exit(2)
    if not public and not organiser and not bot.game.finished:
        typer.echo(REFUSED.format(name=config.name), err=True)
        raise typer.Exit(2)
    write(extract(from_bot(bot), public=public), config.locale, out)


def write(data: dict, locale: str, out: Path, page: str = "report") -> None:
    """Write the page and say where it is; a folder that cannot be written is a clear error."""
    from forumbot.report.html import write_page

    try:
        path = write_page(page, data, locale, out)
    except OSError as exc:
        typer.echo(f"error: cannot write the report into {out}: {exc.strerror or exc}", err=True)
        raise typer.Exit(2) from None
    typer.echo(f"wrote {path}", err=True)  # stderr: stdout may be JSON (standings --json --html)
