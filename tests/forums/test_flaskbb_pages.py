"""Parsing of saved real FlaskBB pages (tests/forums/pages/, made by save_pages.py).

If FlaskBB's markup changes, these fail with LayoutChanged naming the URL and what was not found.
"""

from __future__ import annotations

from datetime import UTC
from pathlib import Path

import pytest

from forumbot.forums.errors import LayoutChanged
from forumbot.forums.flaskbb_pages import (
    form_errors,
    form_values,
    missing_object,
    page_from_url,
    parse_common_page,
    parse_conversation,
    parse_inbox,
    parse_topic,
    post_id_from_url,
    thread_id_from_url,
)

PAGES = Path(__file__).with_name("pages")
URL = "http://127.0.0.1:1/topic/1"


def page(name: str) -> str:
    return (PAGES / name).read_text("utf-8")


def test_topic_first_page_as_the_judge():
    topic = parse_topic(page("topic_page1.html"), URL)
    assert topic.common.user == "法官" and topic.common.csrf
    assert (topic.page, topic.last_page, topic.locked) == (1, 3, False)
    assert [p.post_id for p in topic.posts] == list(range(1, 11))
    first, quoting, signed, edited = topic.posts[:4]
    assert (first.author, first.text) == ("法官", "白天开始，请发言。\n\n规则见一楼。")
    assert (quoting.author, quoting.text) == ("小明", "投票 @alice\n\n理由：\n太安静了")
    assert "<blockquote" in quoting.raw_html
    assert (signed.author, signed.text) == ("小红", "我是好人 :smile:")
    assert "签名档" in page("topic_page1.html") and "签名档" not in signed.text
    assert edited.edited and edited.text == "vote 小红"
    assert not any(p.edited for p in topic.posts if p is not edited)
    assert all(p.time_utc.tzinfo is UTC for p in topic.posts)
    assert [p.time_utc for p in topic.posts] == sorted(p.time_utc for p in topic.posts)


def test_topic_last_page():
    topic = parse_topic(page("topic_page3.html"), URL)
    assert (topic.page, topic.last_page) == (3, 3)
    assert [p.post_id for p in topic.posts] == [21, 22, 23]


def test_topic_seen_by_a_guest_and_by_a_player():
    guest = parse_topic(page("topic_guest.html"), URL)
    assert guest.common.user is None and guest.locked is None
    assert len(guest.posts) == 10
    player = parse_topic(page("topic_player_view.html"), URL)
    assert player.common.user == "小明" and player.locked is None and player.page == 2


def test_inbox_rows_and_quota_badge():
    inbox = parse_inbox(page("inbox.html"), URL)
    assert (inbox.count, inbox.quota, inbox.page, inbox.last_page) == (3, 6, 1, 1)
    assert [(r.conversation_id, r.subject, r.from_user, r.to_user) for r in inbox.rows] == [
        (6, "查验", "小红", "法官"),
        (4, "夜间行动", "小明", "法官"),
        (1, "你的身份", "法官", "小明"),
    ]
    assert len({r.marker for r in inbox.rows}) == 3
    assert inbox.rows[0].last_time_utc > inbox.rows[1].last_time_utc


def test_refused_message_leaves_a_danger_flash():
    inbox = parse_inbox(page("inbox_quota_refused.html"), URL)
    assert (inbox.count, inbox.quota) == (6, 6)
    assert inbox.common.flashes == (
        ("danger", "You cannot send any messages anymore because you have reached your message limit."),
    )
    assert form_errors(page("inbox_quota_refused.html")) == [inbox.common.flashes[0][1]]


def test_conversation_messages():
    conv = parse_conversation(page("conversation.html"), URL)
    assert conv.subject == "夜间行动"
    assert [(m.message_id, m.author, m.text) for m in conv.messages] == [(4, "小明", "刀 alice")]
    assert "<blockquote" in conv.messages[0].raw_html


def test_login_failure_and_missing_topic():
    assert parse_common_page(page("login_failed.html"), URL).user is None
    assert form_errors(page("login_failed.html")) == ["Wrong username or password."]
    assert missing_object(page("missing_topic.html")) == "Could not load forum data"
    assert missing_object(page("topic_page1.html")) is None


def test_form_values_keep_checkboxes_and_hidden_fields():
    html = """<form method=post><input type=hidden name=csrf_token value=T><input name=title value="标题">
    <textarea name=content>old</textarea><input type=checkbox name=locked value=y checked>
    <input type=checkbox name=important value=y><input type=file name=f><input type=submit name=submit value=Go></form>"""
    assert form_values(html, URL, "content") == {"csrf_token": "T", "title": "标题", "content": "old", "locked": "y"}


def test_url_helpers():
    assert thread_id_from_url("/topic/12-di-yi-ju?page=3#pid40") == 12
    assert page_from_url("/topic/12-di-yi-ju?page=3#pid40") == 3 and page_from_url("/topic/12") == 1
    assert post_id_from_url("/post/40") == 40 and post_id_from_url("/topic/1#pid7") == 7
    assert post_id_from_url("/topic/1") is None


@pytest.mark.parametrize(
    ("name", "parser", "old", "new", "missing"),
    [
        ("topic_page1.html", parse_topic, 'class="post-content"', 'class="post-body"', "div.post-content"),
        ("topic_page1.html", parse_topic, "post-row", "message-row", "div.post-row"),
        ("topic_page1.html", parse_topic, 'class="author-name"', 'class="poster"', ".author-name"),
        ("topic_page1.html", parse_topic, "<time ", "<span ", "time[datetime]"),
        ("topic_page1.html", parse_topic, "pagination", "pager", "ul.pagination"),
        ("topic_page1.html", parse_topic, "flaskbb-navbar", "top-navbar", "user menu"),
        ("inbox.html", parse_inbox, "conversation-meta", "conv-meta", "time[datetime]"),
        ("inbox.html", parse_inbox, 'class="card conversation', 'class="card talks', "div.conversation"),
        ("conversation.html", parse_conversation, 'id="mid', 'id="message-', "midN"),
        ("conversation.html", parse_conversation, "message-content", "message-body", ".message-content"),
    ],
)
def test_markup_changes_raise_layout_changed(name, parser, old, new, missing):
    html = page(name)
    assert old in html
    with pytest.raises(LayoutChanged) as caught:
        parser(html.replace(old, new), URL)
    assert caught.value.url == URL
    assert missing in caught.value.missing
    assert URL in str(caught.value) and missing in str(caught.value)
