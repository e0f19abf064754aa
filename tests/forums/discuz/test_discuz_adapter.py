"""The Discuz! adapter against the contract fake of the mobile API: every operation and every refusal."""

from __future__ import annotations

from datetime import timedelta

import pytest
from discuz_helpers import Site

from forumbot.forums.base import Forum
from forumbot.forums.discuz_api import ConversationLimit, MobileApiClosed
from forumbot.forums.errors import AuthFailed, ForumDown, NotAllowed, NotFound, RateLimited, SendFailed


@pytest.fixture
def site():
    s = Site()
    yield s
    s.close()


def test_is_a_forum_and_logs_in_with_version_3(site):
    judge = site.client()
    assert isinstance(judge, Forum)
    judge.login()
    assert judge.whoami() == "法官"
    account = judge.account()
    assert account["uid"] == site.fake.user("法官").uid and account["grouptitle"] == "新手上路"
    assert account["cookiepre"] == site.fake.cookiepre  # the random prefix, learnt from the site
    assert ("POST", "login") in site.fake.log


def test_version_4_login_answers_503_but_is_confirmed(site):
    judge = site.client(login_api_version=4)
    judge.login()
    assert judge.whoami() == "法官"


def test_version_4_login_with_a_wrong_password_fails_once_and_waits(site):
    judge = site.client(password="wrong", login_api_version=4)
    with pytest.raises(AuthFailed, match="did not log"):
        judge.login()
    for _ in range(6):  # the runtime polls again and again: no more login attempts reach the forum
        with pytest.raises(AuthFailed, match="not trying again"):
            judge.thread_posts(1)
    assert site.fake.failed_logins == 1
    site.clock.advance(16 * 60)
    with pytest.raises(AuthFailed):
        judge.login()
    assert site.fake.failed_logins == 2


def test_wrong_password_version_3(site):
    judge = site.client(password="wrong")
    with pytest.raises(AuthFailed, match="login_invalid"):
        judge.login()
    with pytest.raises(AuthFailed):
        judge.private_messages()
    assert site.fake.login_posts == 1


def test_captcha_at_login_is_explained(site):
    site.fake.captcha_login = True
    with pytest.raises(AuthFailed, match="switch the login captcha off") as caught:
        site.client().login()
    assert "cannot work" in str(caught.value)  # exempting the judge's group: the group is unknown before login


def test_mobile_api_closed(site):
    site.fake.mobile_closed = True
    with pytest.raises(MobileApiClosed, match="mobile"):
        site.client().login()


def test_session_expiry_logs_in_again(site):
    judge = site.client()
    tid = site.fake.new_thread("小明", 3, "局", "开始").tid
    assert len(judge.thread_posts(tid)) == 1
    site.fake.expire_sessions()
    site.fake.player_pm("小明", "法官", "投 小红")
    site.clock.advance(2)
    assert [m.body for m in judge.private_messages()] == ["投 小红"]
    site.fake.expire_sessions()
    site.clock.advance(20)
    assert judge.reply(tid, "收到") > 0
    assert site.fake.login_posts == 3


def test_stale_formhash_is_read_again_and_the_reply_posted_once(site):
    judge = site.client()
    tid = site.fake.new_thread("小明", 3, "局", "开始").tid
    judge.login()
    site.fake.rotate_formhash()
    pid = judge.reply(tid, "[b]天亮了[/b]")
    thread = site.fake.threads[tid]
    assert [p.pid for p in thread.posts if p.author.name == "法官"] == [pid]


def test_thread_read_incrementally_with_a_page_past_the_end(site):
    judge = site.client(posts_per_page=3)
    thread = site.fake.new_thread("法官", 3, "局", "开始")
    pids = [site.fake.player_post(n, thread.tid, f"第{i}楼") for i, n in enumerate(["小明", "小红", "alice", "王大锤", "小明"])]
    posts = judge.thread_posts(thread.tid)
    assert [p.post_id for p in posts] == [thread.posts[0].pid, *pids]
    assert posts[1].author == "小明" and posts[1].text == "第0楼"
    before = judge.request_count
    assert judge.thread_posts(thread.tid, pids[-1]) == []
    assert judge.request_count == before + 1  # the hinted page only, though the fake repeats it for later pages
    new = site.fake.player_post("小红", thread.tid, "新的一楼")
    assert [p.post_id for p in judge.thread_posts(thread.tid, pids[-1])] == [new]


def test_thread_read_after_an_unknown_post_finds_its_page(site):
    thread = site.fake.new_thread("法官", 3, "局", "开始")
    pids = [site.fake.player_post("小明", thread.tid, f"帖{i}") for i in range(20)]
    judge = site.client(posts_per_page=3)
    got = judge.thread_posts(thread.tid, pids[15])
    assert [p.post_id for p in got] == pids[16:]
    assert judge.request_count < 4 + 7  # login + bisection, not all 7 pages


def test_cursor_survives_a_restart(site):
    thread = site.fake.new_thread("法官", 3, "局", "开始")
    for i in range(8):
        site.fake.player_post("小明", thread.tid, f"帖{i}")
    first = site.client(posts_per_page=3)
    last = first.thread_posts(thread.tid)[-1].post_id
    second = site.client(posts_per_page=3)
    second.import_cursor(first.export_cursor())
    second.login()
    before = second.request_count
    assert second.thread_posts(thread.tid, last) == []
    assert second.request_count == before + 1
    second.import_cursor({"kind": "flaskbb/1"})  # another engine's cursor is ignored
    assert second.export_cursor()["threads"]


def test_text_as_meant_double_escaping_quotes_smilies_edits(site):
    thread = site.fake.new_thread("法官", 3, "局", "开始")
    site.fake.player_post("小明", thread.tid, "[quote]小红: 投 alice[/quote]投 小红 :) <b>&amp; R&D</b>\n第二行")
    post = site.client().thread_posts(thread.tid)[-1]
    assert post.text == "投 小红 <b>&amp; R&D</b>\n第二行"
    assert "&amp;lt;b&amp;gt;" in post.raw_html
    judge = site.client()
    pid = judge.reply(thread.tid, "原文")
    site.clock.advance(20)
    judge.edit_post(pid, "[b]改过[/b]")
    edited = next(p for p in judge.thread_posts(thread.tid) if p.post_id == pid)
    assert edited.text == "改过" and not edited.edited  # the mobile API never shows the "edited" note


def test_missing_thread_and_board(site):
    judge = site.client()
    with pytest.raises(NotFound):
        judge.thread_posts(99)
    with pytest.raises(NotFound):
        judge.reply(99, "x")
    with pytest.raises(NotFound):
        judge.create_thread(77, "局", "开始")


def test_create_thread_and_reply_are_paced_by_flood_control(site):
    judge = site.client()
    tid = judge.create_thread(3, "版杀 第1局", "[b]游戏开始[/b]")
    pid = judge.reply(tid, "第一夜")
    assert pid > 0 and site.clock.slept and sum(site.clock.slept) >= 16
    assert site.fake.threads[tid].subject == "版杀 第1局"


def test_flood_control_without_pacing_waits_once_then_raises(site):
    judge = site.client(min_write_interval_seconds=0)
    tid = site.fake.new_thread("小明", 3, "局", "开始").tid
    judge.reply(tid, "一")
    assert judge.reply(tid, "二") > 0  # refused once, waited, accepted
    site.fake.floodctrl = 10_000
    with pytest.raises(RateLimited) as caught:
        judge.reply(tid, "三")
    assert caught.value.wait_seconds == 16


def test_pm_flood_shares_the_window_with_posts(site):
    judge = site.client(min_write_interval_seconds=0)
    tid = site.fake.new_thread("小明", 3, "局", "开始").tid
    judge.reply(tid, "一")
    judge.send_pm("小明", "s", "你好")
    assert any(s >= 16 for s in site.clock.slept)


def test_closed_thread_captcha_and_new_account(site):
    judge = site.client()
    thread = site.fake.new_thread("小明", 3, "局", "开始")
    thread.closed = True
    with pytest.raises(NotAllowed, match="post_thread_closed"):
        judge.reply(thread.tid, "x")
    thread.closed = False
    site.fake.captcha_post = True
    with pytest.raises(NotAllowed, match="captcha"):
        judge.reply(thread.tid, "x")
    site.fake.captcha_post = False
    site.fake.newbies.add(site.fake.user("法官").uid)
    with pytest.raises(RateLimited, match="too new"):
        judge.send_pm("小明", "s", "x")


def test_lock_needs_moderator_rights(site):
    judge = site.client()
    tid = site.fake.new_thread("小明", 3, "局", "开始").tid
    with pytest.raises(NotAllowed):
        judge.lock_thread(tid)
    site.fake.user("法官").groupid = "3"
    judge.lock_thread(tid)
    assert site.fake.threads[tid].closed
    judge.unlock_thread(tid)
    assert not site.fake.threads[tid].closed


def test_send_pm_by_name_and_uid_and_find_it(site):
    judge = site.client()
    sent = judge.send_pm("小红", "赛季 · 法官消息 #0.1", "你是[b]好人[/b]")
    uid = site.fake.user("alice").uid
    by_uid = judge.send_pm(f"uid:{uid}", "赛季 · 法官消息 #0.2", "you are good")
    assert [p.text for p in site.fake.pms_to("小红")] == ["赛季 · 法官消息 #0.1\n\n你是[b]好人[/b]"]
    assert [p.pmid for p in site.fake.pms_to("alice")] == [by_uid.message_id]
    found = judge.find_sent_pm("小红", "赛季 · 法官消息 #0.1")  # in the same second: waits for the view
    assert found is not None and found.message_id == sent.message_id
    assert judge.find_sent_pm("小红", "赛季 · 法官消息 #0.9") is None
    assert judge.find_sent_pm("王大锤", "赛季 · 法官消息 #0.1") is None


def test_unknown_recipient(site):
    with pytest.raises(SendFailed, match="message_bad_touser"):
        site.client().send_pm("没有这个人", "s", "x")


def test_conversation_limit_is_a_send_failure_even_into_old_conversations(site):
    site.fake.pm_limit = 1  # lets 2 conversations through, as a real X3.5 does
    judge = site.client()
    judge.send_pm("小明", "a", "1")
    judge.send_pm("小红", "b", "2")
    with pytest.raises(ConversationLimit, match="privatepmthreadlimit") as caught:
        judge.send_pm("alice", "c", "3")
    assert isinstance(caught.value, SendFailed)
    with pytest.raises(ConversationLimit):
        judge.send_pm("小明", "d", "4")  # an existing conversation: refused too
    site.clock.advance(86400)
    assert judge.send_pm("alice", "c", "3").message_id > 0


def test_private_messages_by_pmid_with_relative_times(site):
    judge = site.client()
    judge.login()
    site.fake.player_pm("小明", "法官", "投 小红")
    site.clock.advance(1)
    site.fake.player_pm("小红", "法官", "投 小明 & <alice>\n理由：直觉")
    site.clock.advance(1)
    site.fake.player_pm("小明", "法官", "改投 alice")
    site.clock.advance(3 * 60 + 10)
    read_at = site.clock.now
    got = judge.private_messages()
    assert [(m.sender, m.body) for m in got] == [("小明", "投 小红"), ("小红", "投 小明 & <alice>\n理由：直觉"),
                                                 ("小明", "改投 alice")]
    assert got[0].message_id < got[1].message_id < got[2].message_id
    # "3 分钟前": sent 3 to 4 minutes before the read; the earliest instant is given, with the window
    for m in got:
        assert m.time_precision_seconds == 60
        assert m.time_utc == read_at - timedelta(minutes=4)
    assert judge.private_messages(got[-1].message_id) == []
    site.fake.player_pm("alice", "法官", "投 王大锤")
    site.clock.advance(16)
    newest = judge.private_messages(got[-1].message_id)
    assert [m.body for m in newest] == ["投 王大锤"]
    assert newest[0].time_utc == site.clock.now - timedelta(seconds=17) and newest[0].time_precision_seconds == 1


def test_an_idle_inbox_poll_is_one_request(site):
    judge = site.client()
    site.fake.player_pm("小明", "法官", "投 小红")
    site.clock.advance(5)
    last = judge.private_messages()[-1].message_id
    before = judge.request_count
    assert judge.private_messages(last) == []
    assert judge.request_count == before + 1


def test_a_pm_of_this_second_is_waited_for(site):
    judge = site.client()
    judge.login()
    site.fake.player_pm("小明", "法官", "投 小红")  # this very second: not yet in the conversation view
    got = judge.private_messages()
    assert [m.body for m in got] == ["投 小红"] and 1.0 in site.clock.slept


def test_a_pm_still_hidden_holds_back_later_ones(site):
    judge = site.client()
    judge.login()
    site.fake.player_pm("小明", "法官", "投 小红")
    site.clock.advance(5)
    site.fake.player_pm("小红", "法官", "投 alice")
    site.clock.advance(5)
    site.fake.hidden_pmids.add(site.fake.pms[0].pmid)  # in the list, not in the view, a whole poll long
    assert judge.private_messages() == []  # 小红's later pmid must not overtake 小明's
    site.fake.hidden_pmids.clear()
    assert [m.sender for m in judge.private_messages()] == ["小明", "小红"]


def test_the_runtime_going_back_rereads(site):
    judge = site.client()
    site.fake.player_pm("小明", "法官", "一")
    site.clock.advance(2)
    site.fake.player_pm("小明", "法官", "二")
    site.clock.advance(2)
    got = judge.private_messages()
    assert [m.body for m in judge.private_messages(got[0].message_id)] == ["二"]


def test_many_conversations_span_inbox_pages(site):
    for i in range(20):
        site.fake.add_user(f"玩家{i}")
    judge = site.client()
    for i in range(20):
        site.fake.player_pm(f"玩家{i}", "法官", f"投 {i}")
        site.clock.advance(1)
    site.clock.advance(1)
    assert [m.body for m in judge.private_messages()] == [f"投 {i}" for i in range(20)]


def test_forum_down_on_a_write_is_not_retried(site):
    judge = site.client()
    judge.login()
    tid = site.fake.new_thread("小明", 3, "局", "开始").tid
    original = site.fake.handle

    def broken(request):
        import httpx

        if request.method == "POST":
            return httpx.Response(500, text="<html>Internal error</html>")
        return original(request)

    site.fake.handle = broken
    judge.http.client._transport = __import__("httpx").MockTransport(broken)
    with pytest.raises(ForumDown, match="may or may not"):
        judge.reply(tid, "x")


def test_pms_of_one_second_keep_the_pmid_order_in_their_times(site):
    """Seven ballots stored in one second, read 50 s later while the forum's clock moves between the
    conversation views: the relative texts alone would date the last one first (issue: 「按收到的先后次序」
    listed it first). Times are narrowed so that sorting by time keeps the pmid order."""
    players = [f"玩家{i}" for i in range(7)]
    for name in players:
        site.fake.add_user(name)
    judge = site.client()
    judge.login()
    site.clock.advance(0.2)
    for name in players:
        site.fake.player_pm(name, "法官", "投 小红")
    site.clock.advance(50.5)
    handle = site.fake.handle

    def slow(request):  # each answer takes 0.3 s: the views straddle whole seconds of the forum
        site.clock.advance(0.3)
        return handle(request)

    site.fake.handle = slow
    judge.http.client._transport = __import__("httpx").MockTransport(slow)
    got = judge.private_messages()
    assert [m.sender for m in got] == players
    times = [m.time_utc for m in got]
    assert times == sorted(times)
    for m, pm in zip(got, site.fake.pms, strict=True):  # every window still holds the true time
        assert m.time_utc.timestamp() <= pm.dateline <= m.time_utc.timestamp() + m.time_precision_seconds


def test_editing_the_first_post_of_a_thread_sends_its_subject(site):
    judge = site.client()
    tid = judge.create_thread(3, "版杀 第1局", "[b]游戏开始[/b]")
    first = site.fake.threads[tid].posts[0].pid
    site.clock.advance(20)
    judge.edit_post(first, "[b]游戏开始（已更正）[/b]")  # refused without a subject (post_sm_isnull)
    assert site.fake.threads[tid].posts[0].text.startswith("[b]游戏开始（已更正）[/b]")
    assert site.fake.threads[tid].subject == "版杀 第1局"
    other = site.client()  # a restarted adapter learns the first post and subject from the thread
    other.thread_posts(tid)
    site.clock.advance(20)
    other.edit_post(first, "[b]游戏开始（再次更正）[/b]")
    assert "再次更正" in site.fake.threads[tid].posts[0].text


def test_the_bots_short_posts_are_padded_to_the_sites_minimum_in_gbk_bytes():
    gbk = Site(charset="GBK")
    try:
        judge = gbk.client()  # the judge in a members' group: minpostsize applies
        tid = gbk.fake.new_thread("小明", 3, "局", "开始").tid
        pid = judge.reply(tid, "投 王五")  # 7 bytes in GBK: refused as too short unless padded
        text = next(p.text for p in gbk.fake.threads[tid].posts if p.pid == pid)
        assert text.startswith("投 王五") and len(text.encode("gbk")) >= 10
        assert judge.thread_posts(tid)[-1].text == "投 王五"
    finally:
        gbk.close()


def test_the_fake_answers_as_the_recorded_real_forum(site):
    """The fake against captures: flood 15.0 s refused, 16.0 s accepted (utf8-flood-posts/); PM pages
    counted from the newest end (utf8-after-season/007, 008)."""
    tid = site.fake.new_thread("小明", 3, "局", "开始").tid
    player = site.client("小红", min_write_interval_seconds=0)
    player.reply(tid, "first reply")

    def send(text: str) -> str:
        fields = {"message": text, "formhash": player._formhash}
        return player._post("sendreply", {"tid": tid, "replysubmit": "yes"}, fields).messageval

    site.clock.advance(15.0)
    assert send("after 15.0 s") == "post_flood_ctrl"
    site.clock.advance(1.0)
    assert send("after 16.0 s") == "post_reply_succeed"
    for i in range(16):
        site.fake.player_pm("小明", "法官", f"消息 {i}")
        site.clock.advance(1)
    judge = site.client()
    judge.login()
    pages = {}
    for page in (None, 1):
        params = {"subop": "view", "touid": site.fake.user("小明").uid, "perpage": 5}
        if page:
            params["page"] = page
        v = judge._read("mypm", params).variables
        pages[page] = (v["page"], [i["message"] for i in v["list"]])
    assert pages[None] == ("4", [f"消息 {i}" for i in range(11, 16)]) and pages[1] == ("1", ["消息 0"])


def test_nineteen_ballots_of_one_second_are_all_read(site):
    """The fake lists conversations of one second in another order on each page, as a real X3.5 does
    (capture mypm-same-second/): every ballot is still read, none twice."""
    players = [f"玩家{i}" for i in range(19)]
    for name in players:
        site.fake.add_user(name)
    judge = site.client()
    judge.login()
    site.clock.advance(0.2)
    for name in players:
        site.fake.player_pm(name, "法官", f"投 {name}")
    site.clock.advance(5)
    got = judge.private_messages()
    assert sorted(m.sender for m in got) == sorted(players) and len({m.message_id for m in got}) == 19
