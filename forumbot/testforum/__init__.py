"""A real FlaskBB forum on 127.0.0.1 for the end-to-end tests and ``forumbot demo`` (see :mod:`.harness`)."""

from forumbot.testforum.harness import DEFAULT_PLAYERS, Account, RunningForum, start_forum
from forumbot.testforum.venv import HarnessError

__all__ = ["DEFAULT_PLAYERS", "Account", "HarnessError", "RunningForum", "start_forum"]
