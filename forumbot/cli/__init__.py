"""The ``forumbot`` command line (typer): :data:`app`, with every sub-command registered.

The top layer: it may import anything in forumbot; nothing in forumbot imports it (tests/test_layers.py).
Each module here adds its sub-commands to :data:`forumbot.cli.root.app` when imported, in the order ``--help``
lists them.
"""

from importlib import import_module

from forumbot.cli.root import app

for _module in ("demo", "rehearse", "replay", "forum_check", "season", "series", "report", "simulate", "serve",
                "console_password"):
    import_module(f"forumbot.cli.{_module}")

__all__ = ["app"]
