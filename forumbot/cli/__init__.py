"""The ``forumbot`` command line (typer): :data:`app`, with every sub-command registered.

The top layer: it may import anything in forumbot; nothing in forumbot imports it (tests/test_layers.py).
Each module of :data:`MODULES` adds its sub-commands to :data:`forumbot.cli.root.app` when imported, in the order
``--help`` lists them. A module is imported when one of its commands runs (:data:`COMMANDS`; ``--help`` and a
command not named there import them all), so ``forumbot --version`` imports none and ``forumbot check`` only its
own (:class:`forumbot.cli.root._Group`).
"""

from forumbot.cli.root import app

#: the modules that add the sub-commands, in the order ``--help`` lists them
MODULES = ("demo", "rehearse", "replay", "forum_check", "season", "series", "report", "simulate", "serve",
           "console_password")
#: sub-command -> the module of :data:`MODULES` that adds it (a command missing here is found by importing all)
COMMANDS = {"demo": "demo", "replay": "replay", "forum-check": "forum_check", "init": "season", "check": "season",
            "run": "season", "status": "season", "organiser": "season", "standings": "series", "report": "report",
            "simulate": "simulate", "serve": "serve", "rehearse": "rehearse",
            "console-password": "console_password"}


def load_all() -> None:
    """Import every module of :data:`MODULES`: each command is then in ``app.registered_commands``."""
    from importlib import import_module

    for module in MODULES:
        import_module(f"forumbot.cli.{module}")


__all__ = ["app", "load_all"]
