"""The typer application every ``forumbot`` sub-command is added to (see :mod:`forumbot.cli`)."""

from __future__ import annotations

import typer

app = typer.Typer(
    help="forumbot: a judge bot for play-by-post social-deduction games on web forums.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    # help texts are plain sentences wrapped in the source: markdown joins their lines into paragraphs
    # (rich mode kept each source line break, and ate [forum] as a style tag)
    rich_markup_mode="markdown",
)
