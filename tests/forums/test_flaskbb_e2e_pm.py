"""Private messages on a real FlaskBB: both ways, CJK, incremental, independent of the unread flag, quota."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from forumbot.forums.errors import SendFailed, failure_cause
from forumbot.forums.flaskbb_pages import parse_inbox, soup_of

pytestmark = pytest.mark.e2e


def _latest_id(client) -> int:
    found = client.private_messages()
    return found[-1].message_id if found else 0


def test_pm_both_ways_with_cjk_text(forum, judge, player):
    ming = player("小明")
    seen_by_ming = _latest_id(ming)
    seen_by_judge = _latest_id(judge)

    before = datetime.now(UTC)
    proof = judge.send_pm("小明", "你的身份：狼人", "你是**狼人**。\n\n同伴：小红")
    assert proof.recipient == "小明" and proof.message_id > 0
    # the forum's time is UTC: between the two instants, to its precision (however long the send took)
    assert before - timedelta(minutes=1) <= proof.time_utc <= datetime.now(UTC) + timedelta(minutes=1)

    got = ming.private_messages(seen_by_ming)
    assert [(m.sender, m.subject, m.body) for m in got] == [("法官", "你的身份：狼人", "你是狼人。\n\n同伴：小红")]

    ming.send_pm("法官", "夜间行动", "刀 王大锤")
    ming.send_pm("法官", "夜间行动", "改刀 alice")
    got = judge.private_messages(seen_by_judge)
    assert [(m.sender, m.subject, m.body) for m in got] == [
        ("小明", "夜间行动", "刀 王大锤"),
        ("小明", "夜间行动", "改刀 alice"),
    ]
    assert got[0].message_id < got[1].message_id
    assert proof.message_id not in [m.message_id for m in got]  # never the judge's own


def test_replies_inside_a_conversation_are_read(forum, judge, player):
    hong = player("小红")
    start = _latest_id(judge)
    proof = judge.send_pm("小红", "预言家", "今晚查验谁？")
    conversation = hong.private_messages(_latest_id(hong) - 1)[-1].conversation_id
    page = hong.http.get(f"/conversations/{conversation}/view")  # a reply typed in the browser
    token = page.text.split('name="csrf_token" type="hidden" value="')[1].split('"')[0]
    hong.http.post(f"/conversations/{conversation}/view", {"csrf_token": token, "message": "查验 bob", "submit": "Send"})
    got = judge.private_messages(start)
    assert [(m.sender, m.body, m.conversation_id) for m in got] == [("小红", "查验 bob", proof.conversation_id)]


def test_nothing_new_costs_one_request_and_unread_flag_is_ignored(forum, judge, player, clients):
    start = _latest_id(judge)
    player("alice").send_pm("法官", "hello", "投票 bob")
    browser = forum.client(retries=0)  # the organiser opens the judge's inbox in a browser first
    clients.append(browser)
    browser.login()

    def unread() -> int:
        return len(soup_of(browser.http.get("/conversations/inbox").text).select("div.conversation-row.unread"))

    inbox = parse_inbox(browser.http.get("/conversations/inbox").text, "inbox")
    assert unread() == 1
    browser.http.get(f"/conversations/{inbox.rows[0].conversation_id}/view")  # marks it read
    assert unread() == 0
    got = judge.private_messages(start)
    assert [m.body for m in got] == ["投票 bob"]
    before = judge.request_count
    assert judge.private_messages(got[-1].message_id) == []
    assert judge.request_count - before == 1


def test_going_back_returns_the_messages_again(judge, player):
    start = _latest_id(judge)
    player("bob").send_pm("法官", "a", "one")
    first = judge.private_messages(start)
    assert [m.body for m in first] == ["one"]
    assert judge.private_messages(start) == first  # the runtime crashed before processing: not lost


def test_many_conversations_beyond_the_first_inbox_page(forum, judge, player):
    start = _latest_id(judge)
    bob = player("bob")
    for i in range(12):  # more than one inbox page (10 a page)
        forum.seed_conversations("bob", "法官", f"批量 {i}", f"消息 {i}")
    bob.send_pm("法官", "最后", "last")
    got = judge.private_messages(start)
    assert [m.body for m in got] == [f"消息 {i}" for i in range(12)] + ["last"]


def test_full_mailbox_is_send_failed_not_lost(make_forum, clients):
    quota_forum = make_forum(quota=True, quota_size=5)
    judge = quota_forum.client(retries=0)
    ming = quota_forum.client("小明", retries=0)
    clients.extend([judge, ming])
    judge.send_pm("小明", "身份 1", "first role PM")
    quota_forum.seed_conversations("alice", quota_forum.judge.name, "spam", "filling the box", count=4)
    assert judge.inbox_usage() == (5, 5)
    with pytest.raises(SendFailed) as caught:
        judge.send_pm("小明", "身份 2", "this one cannot be stored")
    assert "limit" in caught.value.reason
    assert failure_cause(caught.value) == "mailbox_full"
    assert [m.body for m in ming.private_messages()] == ["first role PM"]


def test_the_judge_writes_inside_its_conversation_with_a_player(forum, judge, player):
    """One conversation a player a season (issue 9.9): later messages go inside the first one, on both
    sides, and each is found again by its text among the messages after the one before it."""
    bob = player("bob")
    first = judge.send_pm("bob", "第三季 · 法官", "你的身份：平民")
    second = judge.send_pm("bob", "第三季 · 法官", "收到：投 alice", conversation_id=first.conversation_id)
    third = judge.send_pm("bob", "第三季 · 法官", "收到：投 小明", conversation_id=first.conversation_id)
    assert first.conversation_id == second.conversation_id == third.conversation_id
    assert first.message_id < second.message_id < third.message_id
    got = [m for m in bob.private_messages() if m.subject == "第三季 · 法官"]
    assert [m.body for m in got] == ["你的身份：平民", "收到：投 alice", "收到：投 小明"]
    assert len({m.conversation_id for m in got}) == 1
    found = judge.find_sent_pm("bob", "第三季 · 法官", "收到：投 小明", after_message_id=second.message_id,
                               conversation_id=first.conversation_id)
    assert found is not None and found.message_id == third.message_id
    assert judge.find_sent_pm("bob", "第三季 · 法官", "收到：投 alice", after_message_id=third.message_id,
                              conversation_id=first.conversation_id) is None


def test_a_pm_to_an_account_that_does_not_exist_is_no_such_user(judge):
    from forumbot.forums.errors import NoSuchUser

    with pytest.raises(NoSuchUser):
        judge.send_pm("没有这个人", "subject", "body")
