"""Steering from the console: each organiser command is confirmed first, then stored in the season's store like a
command of ``forumbot organiser``, applied by the bot that judges the season (here: another Bot on the same
database, as another process would be), and shown in the inbound log."""

from __future__ import annotations

import html
import re
from datetime import timedelta

from console_helpers import TOKEN, client, running_season

from forumbot.runtime.bot import Bot

URL = "/seasons/春季赛"


def _commands(path) -> int:
    from forumbot.config import load_config

    return Bot(load_config(path), None).store.next_cli_id() - 1


def _give(c, form: dict[str, str]):
    """Send the steering form, then confirm it; returns (confirmation page, answer to the confirmation)."""
    confirm = c.post(f"{URL}/steer", data={"csrf": TOKEN, **form})
    assert confirm.status_code == 200, confirm.text
    fields = dict(re.findall(r'name="(command|token|no_check)" value="([^"]*)"', confirm.text))
    done = c.post(f"{URL}/steer/confirm", data={"csrf": TOKEN, **{k: html.unescape(v) for k, v in fields.items()}})
    return confirm, done, fields


def test_extend_is_confirmed_then_stored_and_moves_the_deadline(tmp_path):
    path, season = running_season(tmp_path)
    before = season.bot.deadline()
    c = client([path], clock=season.clock)
    confirm = c.post(f"{URL}/steer", data={"csrf": TOKEN, "action": "extend", "duration": "2h"})
    assert confirm.status_code == 200 and "extend 2h" in confirm.text and "Confirm the command" in confirm.text
    assert _commands(path) == 0  # nothing stored before the confirmation
    _, done, _ = _give(c, {"action": "extend", "duration": "2h"})
    assert done.status_code == 303 and done.headers["location"].endswith("steered=1")
    assert _commands(path) == 1
    season.clock.advance(1)
    season.bot.cycle()  # the bot judging the season picks it up from the store
    assert season.bot.deadline() == before + timedelta(hours=2)
    page = html.unescape(c.get(URL).text)
    assert "organiser command: extend 2 h" in page and "Stored: the bot applies it" not in page
    assert "Org" in page


def test_a_confirmation_sent_twice_stores_one_command(tmp_path):
    path, season = running_season(tmp_path)
    c = client([path], clock=season.clock)
    _, done, fields = _give(c, {"action": "pause"})
    again = c.post(f"{URL}/steer/confirm", data={"csrf": TOKEN, **fields})
    assert done.status_code == again.status_code == 303
    assert _commands(path) == 1


def test_pause_resume_penalty_replace_and_end_reach_the_game(tmp_path):
    path, season = running_season(tmp_path)
    c = client([path], clock=season.clock)

    def step(form):
        _give(c, form)
        season.clock.advance(1)
        season.bot.cycle()

    step({"action": "pause"})
    assert season.bot.timing.paused_since is not None and season.bot.game.paused
    step({"action": "resume"})
    assert season.bot.timing.paused_since is None
    step({"action": "penalty", "player": "Alice", "reason": "lurking"})
    assert any(e[1] == "penalty" for e in _warnings(c))
    step({"action": "replace", "player": "Bob", "new": "Bobby", "no_check": "1"})
    assert "Bobby" in [p.name for p in season.bot.game.players]
    step({"action": "end"})
    assert season.bot.game.finished
    assert _commands(path) == 5


def _warnings(c):
    page = html.unescape(c.get(URL).text)
    return [("Alice", "penalty")] if "Alice: penalty: lurking" in page else []


def test_steering_needs_the_csrf_token_and_an_organiser_of_the_season(tmp_path):
    path, season = running_season(tmp_path)
    c = client([path], clock=season.clock)
    refused = c.post(f"{URL}/steer", data={"action": "pause"})
    assert refused.status_code == 403 and "out of date" in refused.text
    unconfirmed = c.post(f"{URL}/steer/confirm", data={"command": "pause", "token": "t"})
    assert unconfirmed.status_code == 403
    stranger = client([path], who="Mallory", clock=season.clock)
    assert stranger.post(f"{URL}/steer", data={"csrf": TOKEN, "action": "pause"}).status_code == 403
    page = stranger.get(URL)  # not this season's organiser: no roles, no inbound log (an organiser elsewhere may play here)
    assert page.status_code == 403 and "not one you organise" in html.unescape(page.text)
    assert client([path], who=None).post(f"{URL}/steer", data={"action": "pause"}).status_code == 303
    assert _commands(path) == 0


def test_a_bad_command_gets_the_command_lines_reason_on_the_page(tmp_path):
    path, season = running_season(tmp_path)
    c = client([path], clock=season.clock)
    for form, words in (({"action": "extend", "duration": "soon"}, "extend needs a duration"),
                        ({"action": "penalty", "player": "Nobody", "reason": "lurking"}, "no player"),
                        ({"action": "replace", "player": "Bob", "new": "Alice", "no_check": "1"}, "already plays"),
                        ({"action": "fly"}, "no such organiser command")):
        page = c.post(f"{URL}/steer", data={"csrf": TOKEN, **form})
        assert page.status_code == 400 and words in html.unescape(page.text), page.text
        assert "Traceback" not in page.text
    forged = c.post(f"{URL}/steer/confirm", data={"csrf": TOKEN, "command": "vote Bob", "token": "x" * 20})
    assert forged.status_code == 400 and "player's command" in html.unescape(forged.text)
    tokenless = c.post(f"{URL}/steer/confirm", data={"csrf": TOKEN, "command": "pause", "token": "a b"})
    assert tokenless.status_code == 400
    assert _commands(path) == 0
