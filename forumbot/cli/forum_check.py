"""``forumbot forum-check CONFIG``: log in with the season's ``[forum]`` settings, read the thread and the inbox,
and say what was found — or one paragraph on what is wrong. Posts nothing.

Exit codes: 0 all good, 1 the forum refused or failed, or is set up so that the judge cannot post (an ``ERROR:``
line says which setting to change), 2 the settings are wrong.
"""

from __future__ import annotations

from pathlib import Path

import typer

from forumbot.cli.root import app
from forumbot.forums.check import _report, diagnose, failed
from forumbot.forums.errors import ForumError
from forumbot.forums.settings import SettingsError, load_forum_settings, make_forum


@app.command("forum-check")
def forum_check(
    config: Path = typer.Argument(..., help="The season TOML file; its [forum] table is used."),
) -> None:
    """Log in to the forum, read the game thread and the inbox, and report (posts nothing)."""
    try:
        settings, base_dir = load_forum_settings(config)
        forum = make_forum(settings, base_dir)
    except SettingsError as exc:
        typer.echo(f"Forum settings problem: {exc}.", err=True)
        raise typer.Exit(2) from None
    lines: list[str] = []
    try:
        for line in _report(forum, settings):
            lines.append(line)
            typer.echo(line)
    except ForumError as exc:
        typer.echo(diagnose(exc, settings), err=True)
        raise typer.Exit(1) from None
    except Exception as exc:  # never a traceback for the organiser
        typer.echo(f"Forum check failed unexpectedly ({type(exc).__name__}: {exc}). Please report this.", err=True)
        raise typer.Exit(1) from None
    finally:
        forum.close()
    if failed(lines):  # the judge could not post or write as the forum is set up: the ERROR lines say why
        raise typer.Exit(1)
