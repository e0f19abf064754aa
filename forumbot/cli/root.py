"""The typer application every ``forumbot`` sub-command is added to (see :mod:`forumbot.cli`)."""

from __future__ import annotations

from typing import Any

import typer
from typer.core import TyperCommand, TyperGroup


def _flags_take_no_value(params: list[Any]) -> list[Any]:
    """``params`` with every flag's value type left out of ``--help``: typer's rich help printed
    ``--keep <bool>`` and ``--help <bool>``, as if a flag took a value (its plain help does not)."""
    for param in params:
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""
    return params


class _Command(TyperCommand):
    def get_params(self, ctx: Any) -> list[Any]:
        return _flags_take_no_value(super().get_params(ctx))


class _Group(TyperGroup):
    def get_params(self, ctx: Any) -> list[Any]:
        return _flags_take_no_value(super().get_params(ctx))


class _Typer(typer.Typer):
    """A typer application whose commands show flags as flags in ``--help``."""

    def command(self, *args: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("cls", _Command)
        return super().command(*args, **kwargs)


app = _Typer(
    cls=_Group,
    help="forumbot: a judge bot for play-by-post social-deduction games on web forums.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    # help texts are plain sentences wrapped in the source: markdown joins their lines into paragraphs
    # (rich mode kept each source line break, and ate [forum] as a style tag)
    rich_markup_mode="markdown",
)


def _print_version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            typer.echo(f"forumbot {version('forumbot')}")
        except PackageNotFoundError:  # run from a source tree that was never installed
            typer.echo("forumbot (not installed: no version)")
        raise typer.Exit()


@app.callback()
def _main(
    show_version: bool = typer.Option(False, "--version", callback=_print_version, is_eager=True,
                                      help="print forumbot's version and exit"),
) -> None:
    """forumbot: a judge bot for play-by-post social-deduction games on web forums."""
