"""``engine = "nodebb"`` in the [forum] table: its defaults and the adapter make_forum builds."""

from __future__ import annotations

import pytest

from forumbot.forums.nodebb import USER_AGENT, NodeBBForum
from forumbot.forums.nodebb_api import split_chat
from forumbot.forums.settings import ForumSettings, make_forum

BASE = {"engine": "nodebb", "base_url": "http://127.0.0.1:4567", "username": "judge", "password_env": "NB_TEST_PW"}


def test_nodebb_defaults_post_delay_and_session(monkeypatch):
    monkeypatch.setenv("NB_TEST_PW", "secret")
    settings = ForumSettings.model_validate(BASE)
    assert settings.min_write_interval_seconds == 10 and settings.chat_interval_seconds == 2
    assert settings.auth == "session"
    forum = make_forum(settings)
    assert isinstance(forum, NodeBBForum) and forum.auth == "session" and forum.post_interval == 10
    assert "bot" not in forum.http.client.headers["User-Agent"].lower() == USER_AGENT.lower()
    forum.close()


def test_nodebb_token_and_moderator_pacing(monkeypatch):
    monkeypatch.setenv("NB_TEST_PW", "a-token")
    settings = ForumSettings.model_validate({**BASE, "auth": "token", "min_write_interval_seconds": 0})
    forum = make_forum(settings)
    assert isinstance(forum, NodeBBForum) and forum.auth == "token" and forum.post_interval == 0
    assert "a-token" not in repr(forum)
    forum.close()


def test_unknown_auth_is_refused():
    with pytest.raises(ValueError):
        ForumSettings.model_validate({**BASE, "auth": "cookie"})


@pytest.mark.parametrize("limit", [50, 200, 1000])
def test_split_chat_keeps_every_character_within_the_limit(limit):
    text = "\n\n".join(f"Paragraph {i}: " + "word " * (i * 13) for i in range(12))
    parts = split_chat(text, limit)
    assert all(0 < len(p) <= limit for p in parts)
    assert "".join(parts).replace(" ", "").replace("\n", "") == text.replace(" ", "").replace("\n", "")
