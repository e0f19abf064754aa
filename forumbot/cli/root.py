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
    """The ``forumbot`` group: its sub-commands' modules are imported when first needed (:mod:`forumbot.cli`)."""

    def get_params(self, ctx: Any) -> list[Any]:
        return _flags_take_no_value(super().get_params(ctx))

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if cmd_name not in self.commands:
            from forumbot.cli import COMMANDS

            if cmd_name in COMMANDS:
                self._load([COMMANDS[cmd_name]])
            if cmd_name not in self.commands:  # not named in COMMANDS (or moved): every module
                self._load(None)
        return super().get_command(ctx, cmd_name)

    def list_commands(self, ctx: Any) -> list[str]:
        self._load(None)
        return super().list_commands(ctx)

    def _load(self, modules: list[str] | None) -> None:
        """Import ``modules`` of :data:`forumbot.cli.MODULES` (None: all) and add the commands they registered on
        :data:`app` that this group lacks, in the order of :data:`~forumbot.cli.MODULES` (the order of ``--help``,
        whichever module was imported first)."""
        from importlib import import_module

        from typer.main import get_command_from_info

        from forumbot.cli import MODULES

        for module in MODULES if modules is None else modules:
            import_module(f"forumbot.cli.{module}")
        order = {f"forumbot.cli.{m}": i for i, m in enumerate(MODULES)}
        infos = sorted(enumerate(app.registered_commands),
                       key=lambda x: (order.get(getattr(x[1].callback, "__module__", ""), len(order)), x[0]))
        for _, info in infos:
            command = get_command_from_info(info, pretty_exceptions_short=app.pretty_exceptions_short,
                                            rich_markup_mode=app.rich_markup_mode)
            if command.name not in self.commands:
                self.add_command(command, command.name)
        if modules is None:  # the --help order: MODULES' order, whatever was imported first
            self.commands = dict(sorted(self.commands.items(), key=lambda kv: _position(kv[1], order)))


def _position(command: Any, order: dict[str, int]) -> int:
    callback = getattr(command, "callback", None)
    return order.get(getattr(callback, "__module__", ""), len(order))


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
