"""The read-only public pages (phase, deadline, the public report) never show a role or the inbound log: read at
every step of a whole game (the sunlight rulebook's worked example), before the final post reveals the roles."""

from __future__ import annotations

import html
import re

from bot_helpers import Clock, Season, cli_season, example_phases, play_phases
from console_helpers import client

from forumbot.config import load_config
from forumbot.forums.memory import MemoryForum

SECRETS = ("Killer", "killer", "杀 E", "投 B D", "接任 B", "Inbound log", "Outbox")


def test_public_pages_show_no_role_and_no_inbound_text_in_any_phase(tmp_path):
    path = tmp_path / "season.toml"
    path.write_text(cli_season("cli", ["A", "B", "C", "D", "E", "F", "G"]), encoding="utf-8")
    config = load_config(path)
    clock = Clock()
    season = Season(config, MemoryForum("judge", clock), clock, config.database_url)
    visitor = client([path], who=None, public=True)
    seen: set[str] = set()

    def look(s, _step):
        if not s.bot.started or s.bot.game.finished:
            return
        seen.add(s.bot.game.phase.kind)
        for url in ("/public", "/public/cli", "/public/cli/report/"):
            page = visitor.get(url)
            assert page.status_code == 200, (url, page.text)
            # the report page's vocabulary (every camp's word, the same for any season) is not the season's
            text = html.unescape(re.sub(r'<script type="application/json" id="report-words">.*?</script>', "", page.text,
                                        flags=re.S))
            for secret in SECRETS:
                assert secret not in text, (url, s.bot.game.phase, secret)
        assert visitor.get("/seasons/cli").status_code == 303  # the organiser's page needs a login
        assert visitor.get("/seasons/cli/report/full/").status_code == 303

    play_phases(season, example_phases(), crash=look)
    assert season.bot.game.finished
    assert {"vote", "poll", "kill"} <= seen
    organiser = html.unescape(client([path]).get("/seasons/cli").text)
    assert "投 B D" in organiser and "Killer" in organiser  # the same words are on the organiser's page


def test_public_pages_are_off_unless_asked_for(tmp_path):
    path = tmp_path / "season.toml"
    path.write_text(cli_season("cli", ["A", "B", "C", "D", "E"]), encoding="utf-8")
    assert client([path], who=None).get("/public").status_code == 404
