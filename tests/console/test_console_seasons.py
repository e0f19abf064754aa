"""The seasons list: every season of a directory with its phase, deadline and problems, behind the login."""

from __future__ import annotations

from bot_helpers import Clock
from console_helpers import TOKEN, client, running_season


def test_the_seasons_list_shows_a_running_season_with_its_phase_and_countdown(tmp_path):
    path, season = running_season(tmp_path)
    page = client([path]).get("/")
    assert page.status_code == 200, page.text
    assert "春季赛" in page.text and "Crimes in Sunlight" in page.text
    assert 'class="countdown"' in page.text and season.bot.deadline().isoformat() in page.text


def test_the_seasons_list_needs_a_login(tmp_path):
    path, _ = running_season(tmp_path)
    page = client([path], who=None).get("/")
    assert page.status_code == 303 and page.headers["location"] == "/login?next=%2F"


def test_a_directory_lists_a_broken_file_and_a_season_not_started_with_what_to_do(tmp_path):
    running_season(tmp_path)
    (tmp_path / "broken.toml").write_text("name = 3\n", encoding="utf-8")
    page = client(directory=tmp_path).get("/?lang=en")
    assert page.status_code == 200, page.text
    assert "Not a season file" in page.text and "forumbot check FILE" in page.text
    assert "春季赛" in page.text


def test_the_problems_of_a_season_say_what_to_do(tmp_path):
    import html
    from datetime import timedelta

    from bot_helpers import no_answer_for

    path, season = running_season(tmp_path)
    no_answer_for(season, "Bob")
    season.forum.player_pm("Bob", "help")
    season.clock.advance(3)
    season.bot.cycle()
    assert season.bot.store.outbox(("failed", "sending"))
    later = Clock(season.clock.now + timedelta(hours=1))
    page = html.unescape(client([path], clock=later).get("/").text)
    assert "The forum has not been read recently" in page and "Is the bot running" in page
    assert "The forum refuses some posts or private messages" in page and "1 · no answer" in page
    fresh = html.unescape(client([path], clock=season.clock).get("/").text)
    assert "has not been read recently" not in fresh


def test_a_private_message_that_can_never_be_delivered_names_its_account(tmp_path):
    import html

    from bot_helpers import Clock as TestClock

    from forumbot.config import load_config
    from forumbot.forums.memory import MemoryForum
    from forumbot.runtime.bot import Bot

    path, _ = running_season(tmp_path, cycles=0)
    clock = TestClock()
    forum = MemoryForum("judge", clock)
    forum.users = {"judge", "Alice", "Bob", "Carol", "Dave", "Org"}  # Erin has no account
    bot = Bot(load_config(path), forum, clock)
    bot.cycle()
    assert bot.store.outbox(("undeliverable",))
    page = html.unescape(client([path], clock=clock).get("/").text)
    assert "will never be delivered" in page and ": Erin" in page and "replace the player" in page


def test_a_season_that_never_ran_is_listed_and_shown_as_not_started_and_nothing_is_created(tmp_path):
    from bot_helpers import cli_season

    path = tmp_path / "later.toml"
    path.write_text(cli_season("later", ["A", "B", "C", "D", "E"]), encoding="utf-8")
    c = client([path], public=True)
    assert "not started" in c.get("/").text
    page = c.get("/seasons/later")
    assert page.status_code == 200 and "The season has not started." in page.text
    assert "The season has not started." in c.get("/public/later").text
    steer = c.post("/seasons/later/steer", data={"csrf": TOKEN, "action": "pause"})
    assert steer.status_code == 409 and "has not started" in steer.text
    assert not (tmp_path / "later.db").exists()  # looking creates no database
