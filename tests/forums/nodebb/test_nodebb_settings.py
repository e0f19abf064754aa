"""``engine = "nodebb"`` in the [forum] table: its defaults and the adapter make_forum builds."""

from __future__ import annotations

import pytest

from forumbot.forums.nodebb import USER_AGENT, NodeBBForum
from forumbot.forums.nodebb_api import chat_parts, split_chat
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


def _forum_told(limit: int | None, setting: int | None = None) -> NodeBBForum:
    """An adapter after the forum's /api/config said ``maximumChatMessageLength`` = ``limit`` (None: not said)."""
    from forumbot.forums.nodebb_api import Answer

    forum = NodeBBForum("http://127.0.0.1:4567", "judge", "pw", max_chat_length=setting)
    forum._take_config(Answer(200, True, {"uid": 2, "csrf_token": "t", **(
        {"maximumChatMessageLength": limit} if limit is not None else {})}))
    return forum


def test_chats_are_split_at_the_forums_own_limit_not_at_1000():
    """A forum allowing 4000 characters takes a 1,030-character role PM in one chat (issue 28: it came as two)."""
    forum = _forum_told(4000)
    assert forum.max_chat_length == 4000
    body = "你的身份是杀手。" * 128  # 1,024 characters
    assert len(chat_parts("Killer club game 1", body, forum.max_chat_length)) == 1
    forum.close()


@pytest.mark.parametrize("limit,setting,want", [(None, None, 1000), (600, None, 600), (4000, 1500, 1500), (800, 1500, 800)])
def test_chat_limit_is_the_forums_lowered_only_by_the_setting(limit, setting, want):
    forum = _forum_told(limit, setting)
    assert forum.max_chat_length == want
    forum.close()


def test_max_chat_length_setting_reaches_the_adapter(monkeypatch):
    monkeypatch.setenv("NB_TEST_PW", "secret")
    forum = make_forum(ForumSettings.model_validate({**BASE, "max_chat_length": 2000}))
    assert isinstance(forum, NodeBBForum) and forum.max_chat_length == 2000
    forum.close()


@pytest.mark.parametrize("limit", [120, 400, 1000])
def test_every_part_of_a_split_chat_has_the_header_and_its_number(limit):
    body = "\n\n".join(f"第 {i} 段：" + "规则文字 " * (i * 9) for i in range(1, 10))
    parts = chat_parts("Killer club game 1 · judge", body, limit)
    assert len(parts) > 1 and all(len(p) <= limit for p in parts)
    assert all(p.startswith(f"**Killer club game 1 · judge** ({i}/{len(parts)})\n\n") for i, p in enumerate(parts, 1))
    text = "".join(p.split("\n\n", 1)[1] for p in parts)
    assert text.replace(" ", "").replace("\n", "") == body.replace(" ", "").replace("\n", "")


def test_a_chat_that_fits_is_one_part_with_the_plain_header():
    assert chat_parts("S", "short", 1000) == ["**S**\n\nshort"]
    assert chat_parts("", "short", 1000) == ["short"]
