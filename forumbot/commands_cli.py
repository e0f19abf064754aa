"""Imports every module that adds a sub-command to :data:`forumbot.cli.app`."""

import importlib

for _module in ("forumbot.replay_cli", "forumbot.forums.check", "forumbot.runtime_cli", "forumbot.series_cli", "forumbot.demo",
                "forumbot.report_cli"):
    try:
        importlib.import_module(_module)
    except ModuleNotFoundError as exc:  # a module not written yet
        if exc.name != _module:
            raise
