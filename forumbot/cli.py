"""The ``forumbot`` command line (typer). Each sub-command lives beside the code it drives."""

from __future__ import annotations

import typer

app = typer.Typer(
    help="forumbot: a judge bot for play-by-post social-deduction games on web forums.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)


def _register() -> None:
    # Sub-command modules import this app and decorate their functions; importing them registers them.
    from forumbot import commands_cli  # noqa: F401


_register()

if __name__ == "__main__":  # pragma: no cover
    app()
