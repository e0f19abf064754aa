"""``vote_chart_images`` on a forum that takes no pictures with a post (FlaskBB, phpBB, NodeBB, the memory
forum): the posts are the text alone, the same as with the option off, and the log says so once."""

from __future__ import annotations

import json
import logging

from bot_helpers import example_phases, make_season, play_phases

from forumbot.forums.base import ImageForum

PLAYERS = list("ABCDEFG")


def test_a_forum_without_pictures_gets_the_same_posts_and_one_log_line(tmp_path, caplog):
    (tmp_path / "off").mkdir()
    (tmp_path / "on").mkdir()
    off = make_season(tmp_path / "off", PLAYERS, {"C": "killer"})
    play_phases(off, example_phases())
    caplog.set_level(logging.INFO, logger="forumbot")
    on = make_season(tmp_path / "on", PLAYERS, {"C": "killer"}, vote_chart_images=True)
    assert not isinstance(on.forum, ImageForum)
    play_phases(on, example_phases())
    assert on.posts() == off.posts()
    said = [r for r in caplog.records if "takes no images" in r.getMessage()]
    assert len(said) == 1 and "vote rounds are posted as text only" in said[0].getMessage()
    charted = [r for r in on.bot.store.outbox() if r.image_json]
    assert len(charted) == 4 and all(r.image_ref is None for r in charted)
    first = json.loads(charted[0].image_json)  # the report's round: public facts of the post only
    assert first["round"] == 1 and first["chosen"] == "C" and first["missing"] == []
    assert {t["name"]: t["value"] for t in first["totals"]}["C"] == 11
    assert not any(r.image_json for r in off.bot.store.outbox())  # option off: nothing drawn, nothing stored
