"""Dropped sessions and a forum that goes down in the middle of a poll, on a real FlaskBB."""

from __future__ import annotations

import pytest

from forumbot.forums.errors import ForumDown

pytestmark = pytest.mark.e2e


def _stop_after(client, forum, responses: int) -> None:
    """Stops ``forum`` once ``client`` has received ``responses`` more HTTP responses (mid-poll)."""
    left = [responses]

    def hook(response) -> None:
        left[0] -= 1
        if left[0] == 0:
            forum.stop()

    client.http.client.event_hooks["response"].append(hook)


def test_relogin_after_the_client_lost_its_cookies(forum, judge, player):
    thread = judge.create_thread(forum.forum_id, "会话", "opening")
    last = judge.thread_posts(thread)[-1].post_id
    start = judge.private_messages()[-1].message_id if judge.private_messages() else 0
    player("alice").reply(thread, "after the drop")
    player("alice").send_pm("法官", "drop", "pm after the drop")
    judge.http.clear_cookies()
    assert [p.text for p in judge.thread_posts(thread, last)] == ["after the drop"]
    judge.http.clear_cookies()
    assert [m.body for m in judge.private_messages(start)] == ["pm after the drop"]
    judge.http.clear_cookies()
    assert judge.reply(thread, "judge writes again") > last


def test_relogin_after_the_server_dropped_every_session(make_forum, clients):
    site = make_forum()
    judge = site.client(retries=0)
    clients.append(judge)
    thread = judge.create_thread(site.forum_id, "重启", "opening")
    last = judge.thread_posts(thread)[-1].post_id
    site.restart(drop_sessions=True)  # new secret key: the session and remember-me cookies are void
    site.seed_posts(thread, [("小明", "while you were away")])
    assert [p.text for p in judge.thread_posts(thread, last)] == ["while you were away"]
    assert judge.whoami() == site.judge.name
    proof = judge.send_pm("小明", "还在吗", "still here")
    assert proof.message_id > 0


def test_forum_down_mid_poll_then_nothing_lost_or_repeated(make_forum, clients):
    site = make_forum()
    judge = site.client(retries=1, backoff_seconds=0.05)
    clients.append(judge)
    thread = judge.create_thread(site.forum_id, "宕机", "opening")
    last = judge.thread_posts(thread)[-1].post_id
    added = site.seed_posts(thread, [("alice", f"post {i}") for i in range(35)])  # 4 pages of new posts

    _stop_after(judge, site, 2)  # the forum dies after two pages have been read
    with pytest.raises(ForumDown) as caught:
        judge.thread_posts(thread, last)
    assert site.base_url in str(caught.value)
    with pytest.raises(ForumDown):  # still down: the next poll fails the same typed way
        judge.thread_posts(thread, last)

    site.start()
    got = judge.thread_posts(thread, last)
    assert [p.post_id for p in got] == added
    assert judge.thread_posts(thread, got[-1].post_id) == []


def test_forum_down_while_reading_the_inbox(make_forum, clients):
    site = make_forum()
    judge = site.client(retries=1, backoff_seconds=0.05)
    clients.append(judge)
    judge.login()
    assert judge.private_messages() == []
    for name in ("小明", "alice"):
        sender = site.client(name, retries=0)
        clients.append(sender)
        sender.send_pm(site.judge.name, f"from {name}", f"私信 {name}")

    _stop_after(judge, site, 2)  # inbox read, first conversation opened, then down
    with pytest.raises(ForumDown):
        judge.private_messages(0)
    site.start()
    got = judge.private_messages(0)
    assert sorted(m.body for m in got) == ["私信 alice", "私信 小明"]
    assert judge.private_messages(got[-1].message_id) == []
