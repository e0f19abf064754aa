"""A stand-in for the console's logins, and a console over a season of the in-memory forum."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot_helpers import Clock, Season, cli_season
from markupsafe import Markup
from starlette.testclient import TestClient

from forumbot.config import load_config
from forumbot.console.app import create_app
from forumbot.console.auth import ConsoleAuth
from forumbot.console.source import SeasonSource
from forumbot.forums.memory import MemoryForum

TOKEN = "test-csrf-token"


class LoggedIn(ConsoleAuth):
    """Every request is the organiser ``who`` (None: nobody is logged in); the CSRF token is :data:`TOKEN`."""

    def __init__(self, who: str | None = "Org") -> None:
        self.who = who

    def organiser(self, request: Any) -> str | None:
        return self.who

    def csrf_field(self, request: Any) -> Markup:
        return Markup(f'<input type="hidden" name="csrf" value="{TOKEN}">')

    def check_csrf(self, request: Any, form: Any) -> bool:
        return form.get("csrf") == TOKEN

    def middleware(self) -> list[Any]:  # no session: every request is ``who``'s
        return []

    def routes(self) -> list[Any]:  # no login pages (tests/console/test_auth_pages.py has the real ones)
        return []


def running_season(tmp_path: Path, players: list[str] | None = None, name: str = "春季赛", locale: str = "en",
                   cycles: int = 1) -> tuple[Path, Season]:
    """A sunlight season file in ``tmp_path`` (the third player is the killer; organiser "Org") and its season
    on the in-memory forum, started (``cycles`` cycles of the bot)."""
    players = players or ["Alice", "Bob", "Carol", "Dave", "Erin"]
    text = cli_season(name, players).replace('locale = "en"', f'locale = "{locale}"')
    path = tmp_path / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    config = load_config(path)
    clock = Clock()
    season = Season(config, MemoryForum("judge", clock), clock, config.database_url)
    for _ in range(cycles):
        season.bot.cycle()
    return path, season


def client(paths: list[Path] | None = None, directory: Path | None = None, who: str | None = "Org",
           public: bool = False, clock: Any = None) -> TestClient:
    """A console over the season files ``paths`` (or a ``directory``), logged in as ``who``."""
    source = SeasonSource(files=paths) if paths is not None else SeasonSource(directory=directory)
    return TestClient(create_app(source, auth=LoggedIn(who), public=public, clock=clock), follow_redirects=False)
