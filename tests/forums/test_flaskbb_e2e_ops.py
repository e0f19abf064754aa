"""Every write and read of the Forum interface against a real FlaskBB."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from forumbot.forums.base import Forum
from forumbot.forums.errors import AuthFailed, NotAllowed, NotFound, SendFailed, failure_cause
from forumbot.forums.flaskbb import FlaskBBForum

pytestmark = pytest.mark.e2e


def test_adapter_implements_the_interface(judge):
    assert isinstance(judge, Forum)


def test_whoami_is_the_judge(forum, judge):
    assert judge.whoami() == forum.judge.name == "法官"


def test_cjk_player_logs_in(player):
    assert player("王大锤").whoami() == "王大锤"


def test_wrong_password_is_auth_failed(forum):
    client = FlaskBBForum(forum.base_url, forum.judge.name, "not-the-password", retries=0)
    with pytest.raises(AuthFailed) as caught:
        client.login()
    assert "法官" in str(caught.value)
    assert "not-the-password" not in str(caught.value)
    client.close()


def test_create_thread_and_reply_return_ids_in_order(forum, judge):
    before = datetime.now(UTC)
    thread = judge.create_thread(forum.forum_id, "第一天 Day 1", "白天开始，请发言。")
    first = judge.reply(thread, "第一条回复")
    second = judge.reply(thread, "second reply")
    posts = judge.thread_posts(thread)
    assert [p.post_id for p in posts][1:] == [first, second]
    assert [p.text for p in posts] == ["白天开始，请发言。", "第一条回复", "second reply"]
    assert all(p.author == "法官" for p in posts)
    after = datetime.now(UTC)  # the forum's times are UTC: between the two instants (to its precision)
    assert all(before - timedelta(minutes=1) <= p.time_utc <= after + timedelta(minutes=1) for p in posts)


def test_find_thread_by_subject(forum, judge, player):
    subject = "找帖 <查找> thread"
    thread = judge.create_thread(forum.forum_id, subject, "开帖")
    player("小明").create_thread(forum.forum_id, subject + " 2", "别人的帖")
    assert judge.find_thread(forum.forum_id, subject) == thread
    assert judge.find_thread(forum.forum_id, "no such subject") is None
    assert judge.find_thread(forum.forum_id, subject + " 2") is None  # opened by someone else


def test_text_drops_quotes_signatures_and_markup_but_raw_html_keeps_them(forum, judge, player):
    thread = judge.create_thread(forum.forum_id, "引用测试", "投票开始")
    hong = player("小红")
    hong.reply(thread, "> **法官 wrote:**\n>\n> 投票开始\n\n**投票** @alice\n\n理由：\n太安静了")
    post = judge.thread_posts(thread)[-1]
    assert post.author == "小红"
    assert post.text == "投票 @alice\n\n理由：\n太安静了"
    assert "<blockquote" in post.raw_html and "<strong>" in post.raw_html
    assert "签名档" in judge.http.client.get(f"/topic/{thread}").text  # the signature is on the page...
    assert "签名档" not in post.text  # ...but not in the text


def test_edited_posts_are_flagged(forum, judge, player):
    thread = judge.create_thread(forum.forum_id, "编辑测试", "opening")
    ming = player("小明")
    kept = ming.reply(thread, "vote alice")
    changed = ming.reply(thread, "vote bob")
    ming.edit_post(changed, "vote 小红")
    judge.edit_post(judge.thread_posts(thread)[0].post_id, "opening, edited")
    by_id = {p.post_id: p for p in judge.thread_posts(thread)}
    assert by_id[changed].edited and by_id[changed].text == "vote 小红"
    assert not by_id[kept].edited
    opening = min(by_id.values(), key=lambda p: p.post_id)
    assert opening.edited and opening.text == "opening, edited"


def test_editing_anothers_post_is_not_allowed(forum, judge, player):
    thread = judge.create_thread(forum.forum_id, "权限", "opening")
    mine = judge.reply(thread, "judge's post")
    with pytest.raises(NotAllowed):
        player("alice").edit_post(mine, "hijacked")
    assert judge.thread_posts(thread)[-1].text == "judge's post"


def test_lock_blocks_replies_until_unlock(forum, judge, player):
    thread = judge.create_thread(forum.forum_id, "锁帖", "night falls")
    bob = player("bob")
    judge.lock_thread(thread)
    with pytest.raises(NotAllowed):
        bob.reply(thread, "can I still post?")
    with pytest.raises(NotAllowed):
        bob.unlock_thread(thread)
    judge.unlock_thread(thread)
    post_id = bob.reply(thread, "day again")
    last = judge.thread_posts(thread)[-1]
    assert (last.post_id, last.author, last.text) == (post_id, "bob", "day again")


def test_editing_the_opening_post_keeps_the_thread_locked(forum, judge, player):
    thread = judge.create_thread(forum.forum_id, "锁帖编辑", "opening")
    judge.lock_thread(thread)
    judge.edit_post(judge.thread_posts(thread)[0].post_id, "opening edited while locked")
    with pytest.raises(NotAllowed):
        player("alice").reply(thread, "still locked?")


def test_unknown_ids_are_not_found(forum, judge):
    with pytest.raises(NotFound):
        judge.thread_posts(987654)
    with pytest.raises(NotFound):
        judge.reply(987654, "hello")
    with pytest.raises(NotFound):
        judge.edit_post(987654, "hello")
    with pytest.raises(NotFound):
        judge.create_thread(987654, "s", "b")


def test_pm_to_unknown_user_is_send_failed(judge):
    with pytest.raises(SendFailed) as caught:
        judge.send_pm("没有这个人", "subject", "body")
    assert "does not exist" in caught.value.reason
    assert failure_cause(caught.value) == "no_account"  # the organisers are told so, not "mailbox full"
    assert judge.find_user("没有这个人") is None and judge.find_user("小明") == "小明"


def test_empty_reply_is_send_failed(forum, judge):
    thread = judge.create_thread(forum.forum_id, "空回复", "opening")
    with pytest.raises(SendFailed):
        judge.reply(thread, "")
    assert len(judge.thread_posts(thread)) == 1
