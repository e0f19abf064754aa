"""``forumbot console-password``: set (or remove) an organiser's password for the web console."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from forumbot.cli.root import app


@app.command("console-password")
def console_password(
    place: Path = typer.Argument(..., help="the directory forumbot serve serves, or the season file of forumbot run --web"),
    name: str = typer.Argument(..., help="the organiser's forum name, as the season file's organisers list writes it"),
    remove: bool = typer.Option(False, "--remove", help="remove the password: that organiser logs in by sign-in link only"),
    stdin: bool = typer.Option(False, "--password-stdin", help="read the password from the first line of standard input "
                                                               "(scripts) instead of asking twice"),
) -> None:
    """Set an organiser's console password; only its argon2id hash is stored (in .forumbot-console.json beside the seasons)."""
    from forumbot.config import ConfigError, load_config
    from forumbot.console.console_file import ConsoleFile, ConsoleFileError
    from forumbot.console.passwords import PasswordTooWeak, hash_password

    if place.is_file():
        folder, files = place.resolve().parent, [place]
    elif place.is_dir():
        folder, files = place.resolve(), sorted(place.glob("*.toml")) + sorted((place / "done").glob("*.toml"))
    else:
        typer.echo(f"error: {place} is neither a season file nor a directory of season files", err=True)
        raise typer.Exit(2)
    console = ConsoleFile(folder)
    try:
        if remove:
            console.set_password_hash(name, None)
            typer.echo(f"{name}: no console password any more ({console.path})")
            return
        if stdin:
            password = sys.stdin.readline().rstrip("\r\n")
        else:
            password = typer.prompt(f"console password for {name}", hide_input=True, confirmation_prompt=True)
        try:
            hashed = hash_password(password)
        except PasswordTooWeak as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        console.set_password_hash(name, hashed)
    except ConsoleFileError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None
    organised = []
    for path in files:
        try:
            if name in load_config(path).organisers:
                organised.append(path.name)
        except ConfigError:
            continue
    typer.echo(f"{name}: console password set ({console.path})")
    if not organised:
        typer.echo(f"warning: {name} is not among the organisers of any season file in {folder}: the console "
                   "lets only a season's organisers log in", err=True)
