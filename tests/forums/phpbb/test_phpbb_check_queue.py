"""A phpBB judge in "Newly registered users" (its posts queued for approval, no private messages) makes
`forumbot check --forum` fail, not only print an ERROR line (issue 24); recorded live answers (``check``)."""

from __future__ import annotations

from phpbb_cassette import Cassette, load
from test_phpbb_recorded import URL, forum

from forumbot.forums.check import failed
from forumbot.forums.phpbb_check import phpbb_report
from forumbot.forums.settings import ForumSettings


def test_a_newly_registered_judge_fails_the_check():
    cassette = Cassette(load("check"))
    settings = ForumSettings.model_validate({"engine": "phpbb", "base_url": URL, "username": "Judge",
                                             "password_env": "X", "thread_id": 1})
    judge = forum(cassette)
    judge.login()
    assert not failed(list(phpbb_report(judge, settings, 14)))
    newbie = forum(cassette, "Judge2")
    newbie.login()
    assert failed(list(phpbb_report(newbie, settings, 14)))
