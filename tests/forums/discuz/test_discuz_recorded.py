"""The Discuz! adapter against answers recorded on real Discuz! X3.5 sites (``captures/``, see its README).

Each test names the capture folder that shows the behaviour; the adapter is driven as the recorded
account, and :class:`cassette.Cassette` fails the test if it asks the forum something it was not asked.
"""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

import pytest
from cassette import CAPTURES, Cassette, Exchange, body, capture, load
from discuz_helpers import replay

from forumbot.forums.base import ThreadPost
from forumbot.forums.discuz_api import ConversationLimit, plain
from forumbot.forums.discuz_pm import fp
from forumbot.forums.errors import AuthFailed, NoSuchUser, NotFound, RateLimited, SendFailed
from forumbot.forums.settings import ForumSettings


def tape(*parts: str, user: str | None = None, check: str | None = None, charset: str = "utf-8") -> Cassette:
    exchanges = [e for p in parts for e in load(p, user)]
    return Cassette(exchanges, check=check, charset=charset)


LOGIN_JUDGE = ("utf8-after-season/001_login_get_v3_法官.json", "utf8-after-season/002_login_post_v3_法官.json",
               "utf8-after-season/003_forumindex_after_login_法官.json")
LOGIN_ZHENG = ("utf8-errors/001_login_get_v3_郑十.json", "utf8-errors/002_login_post_v3_郑十.json",
               "utf8-errors/003_forumindex_after_login_郑十.json")


# -- login (utf8-relaxed/, utf8-errors/) ---------------------------------------------------------------

def test_login_v3_answers_login_succeed():
    c = tape(*LOGIN_JUDGE)
    judge, _ = replay(c)
    judge.login()
    assert judge.whoami() == "法官" and judge.account()["groupid"] == "1"
    posts = [r for r in c.requests if r.method == "POST"]
    assert [(r.module, r.query["version"], r.form["username"]) for r in posts] == [("login", "3", "法官")]


def test_login_v4_answers_503_html_although_logged_in():
    c = tape("utf8-relaxed", user="法官")
    judge, _ = replay(c, login_api_version=4)
    judge.login()
    assert judge.whoami() == "法官" and judge.account()["uid"] == 2


@pytest.mark.parametrize("version, files", [
    (4, ("utf8-errors/022_login_get_v4_张三.json", "utf8-errors/023_login_post_v4_张三.json")),
    (3, ("utf8-errors/025_login_get_v3_张三.json", "utf8-errors/026_login_post_v3_张三.json")),
])
def test_wrong_password_is_login_invalid_with_v3_and_v4(version, files):
    c = tape(*files)
    player, _ = replay(c, "张三", login_api_version=version)
    with pytest.raises(AuthFailed, match="login_invalid"):
        player.login()
    with pytest.raises(AuthFailed, match="not trying again"):
        player.login()
    assert len([r for r in c.sent("login") if r.method == "POST"]) == 1  # not tried again at once


# -- errors (utf8-errors/) -----------------------------------------------------------------------------

def test_missing_thread_is_http_404_with_json_and_not_found():
    c = tape(*LOGIN_ZHENG, "utf8-errors/021_viewthread_99999_p1_郑十.json")
    player, _ = replay(c, "郑十")
    with pytest.raises(NotFound, match="99999"):
        player.thread_posts(99999)


def test_reply_to_missing_thread_and_thread_in_missing_board():
    c = tape(*LOGIN_ZHENG, "utf8-errors/008_sendreply_郑十.json", "utf8-errors/020_newthread_郑十.json")
    player, _ = replay(c, "郑十")
    with pytest.raises(NotFound, match="thread_nonexistence"):
        player.reply(99999, "不存在的帖子")
    with pytest.raises(NotFound, match="forum_nonexistence"):
        player.create_thread(9999, "标题", "内容")


def test_stale_formhash_503_page_is_read_again_and_the_reply_sent_once_more():
    c = tape(*LOGIN_ZHENG, "utf8-errors/005_sendreply_stale_formhash.json", "utf8-errors/004_forumindex_郑十.json",
             "utf8-errors/010_sendreply_郑十.json")
    player, _ = replay(c, "郑十")
    assert player.reply(1, "普通会员的回复") > 0
    assert [r.served for r in c.requests[-3:]] == ["005_sendreply_stale_formhash.json", "004_forumindex_郑十.json",
                                                   "010_sendreply_郑十.json"]


def test_missing_formhash_is_submit_invalid_and_read_again():
    c = tape(*LOGIN_ZHENG, "utf8-errors/006_sendreply_missing_formhash.json", "utf8-errors/010_sendreply_郑十.json")
    player, _ = replay(c, "郑十")
    assert player.reply(1, "普通会员的回复") > 0
    assert len(c.sent("sendreply")) == 2


def test_pm_to_unknown_user_and_to_oneself_are_send_failures():
    c = tape(*LOGIN_ZHENG, "utf8-errors/016_sendpm_郑十_to_不存在的人.json", "utf8-errors/018_sendpm_郑十_to_郑十.json")
    player, _ = replay(c, "郑十")
    with pytest.raises(NoSuchUser, match="message_bad_touser"):  # not retried: the organisers are told once
        player.send_pm("不存在的人", "", "你好")
    with pytest.raises(SendFailed, match=r"message_can_not_send_8.*itself"):
        player.send_pm("郑十", "", "给自己")


# -- write pacing: 16 s counted from the answer (utf8-flood-posts/, utf8-pmflood/) -------------------------

def test_discuz_spaces_writes_16_seconds_by_default():
    settings = ForumSettings(engine="discuz", base_url="http://x", username="法官", password_env="X")
    assert settings.min_write_interval_seconds == 16


def _gaps(cassette: Cassette, module: str) -> list[float]:
    times = [r.at for r in cassette.requests if r.module == module]
    return [b - a for a, b in itertools.pairwise(times)]


def test_second_pm_waits_16_seconds_as_the_real_pm_flood_check_needs():
    # the real forum refused a PM 15.0 s after the previous one (007) and accepted one 16.0 s after (011)
    c = tape("utf8-pmflood/001_login_get_v3_admin.json", "utf8-pmflood/002_login_post_v3_admin.json",
             "utf8-pmflood/003_forumindex_after_login_admin.json", "utf8-pmflood/005_sendpm_admin_first.json",
             "utf8-pmflood/011_sendpm_admin_after_16.0s_from_first.json")
    settings = ForumSettings(engine="discuz", base_url="http://x", username="admin", password_env="X")
    admin, clock = replay(c, "admin", min_write_interval_seconds=settings.min_write_interval_seconds)
    c.clock = clock.epoch
    admin.send_pm("郑十", "", "flood probe first")
    assert admin.write_wait_seconds() == 16
    admin.send_pm("郑十", "", "flood probe after_16.0s_from_first")
    assert _gaps(c, "sendpm") == [16.0] and admin.write_wait_seconds() == 16


def test_a_flood_refusal_waits_16_seconds_then_raises():
    c = tape(*LOGIN_ZHENG, "utf8-errors/012_sendreply_郑十.json", "utf8-flood-posts/013_sendreply_gap15.0_second.json")
    player, clock = replay(c, "郑十", min_write_interval_seconds=0)
    with pytest.raises(RateLimited) as caught:
        player.reply(1, "马上再回复")
    assert caught.value.wait_seconds == 16 and clock.slept == [16]


# -- the conversation limit lets N+1 through (utf8-pmlimit3/) ------------------------------------------

def test_conversation_limit_refuses_new_and_old_conversations_after_n_plus_1():
    c = tape("utf8-pmlimit3", user="法官")
    judge, _ = replay(c, min_write_interval_seconds=0)
    for name in ("张三", "李四", "王五", "赵六"):  # limit 3: four conversations get through
        assert judge.send_pm(name, "", f"会话上限测试 to {name}").message_id > 0
    for name in ("孙七", "周八", "张三"):  # the 5th, 6th and a reply into the first are refused
        with pytest.raises(ConversationLimit):
            judge.send_pm(name, "", "x")


# -- message HTML of the mobile API (utf8-after-season/009, season-utf8/viewthread_tid2_final_guest) -------

def _thread(path: str, tid: int = 2, ppp: int = 50) -> dict[int, ThreadPost]:
    """The posts of a recorded viewthread answer as the adapter reads them (logged in as the judge), or,
    for an answer recorded as a guest, as the adapter turns each recorded post into a ThreadPost."""
    data = capture(path)
    if "request" not in data:
        judge, _ = replay(Cassette([]))
        return {p.post_id: p for p in map(judge._thread_post, data["Variables"]["postlist"])}
    judge, _ = replay(Cassette([*tape(*LOGIN_JUDGE).exchanges, *load(path)]), posts_per_page=ppp)
    return {p.post_id: p for p in judge.thread_posts(tid)}


def test_a_quoted_command_is_not_read_and_absolute_smiley_urls_are_dropped():
    # [quote]投 张三[/quote]哈哈，我也这么想 :) comes out as <div class="reply_wrap">投 张三</div>…<img src="http://…">
    post = _thread("utf8-after-season/009_viewthread_2_p1_法官.json")[7]
    assert 'class="reply_wrap"' in post.raw_html and "smiley/default/smile.gif" in post.raw_html
    assert post.text == "哈哈，我也这么想" and post.author == "周八"


def test_a_malformed_table_still_reads_cell_by_cell_and_no_edited_note():
    posts = _thread("season-utf8/viewthread_tid2_final_guest.json")
    tally = posts[10]
    assert "</td></tr><td" in tally.raw_html  # the second cell outside its row, as X3.5 writes [table]
    assert tally.text.split()[:8] == ["第", "1", "轮：投票结果", "按收到的先后次序：", "投票人", "投票", "吴九", "王五"]
    assert not any(p.edited for p in posts.values())


def test_numeric_entities_sent_to_a_gbk_site_show_literally():
    # the judge's post sent emoji/½/€/© as &#NNN; form fields: X3.5 escaped the "&" and shows the codes
    post = _thread("gbk/mobile_viewthread_tid2_guest.json")[2]
    assert "&#128512;" in post.text and "&#8364;" in post.text and "😀" not in post.text


# -- finding a thread the bot may already have opened (dup-thread/, utf8-after-season/011) ------------------

def test_find_thread_lists_the_board_and_takes_the_judges_newest_with_that_subject():
    c = Cassette([*tape(*LOGIN_JUDGE).exchanges, *load("utf8-after-season/011_forumdisplay_fid2_judge.json")])
    judge, _ = replay(c)
    assert judge.find_thread(2, "版杀实测  阳光下的罪恶") == 2
    assert c.sent("forumdisplay")[0].query["fid"] == "2"


def test_find_thread_ignores_other_authors_and_other_subjects():
    c = Cassette([*tape(*LOGIN_JUDGE).exchanges, *load("utf8-after-season/011_forumdisplay_fid2_judge.json"),
                  *load("utf8-after-season/011_forumdisplay_fid2_judge.json")])
    judge, _ = replay(c)
    assert judge.find_thread(2, "适配器测试帖 adapter probe") is None  # opened by admin, not the judge
    assert judge.find_thread(2, "版杀实测 第二季") is None


def test_after_a_stalled_new_thread_request_the_thread_is_found():
    # the POST timed out (PHP stopped 20 s) but the forum created tid 1; the bot's retry made tid 2
    c = Cassette([*tape(*LOGIN_JUDGE).exchanges, body("dup-thread/forumdisplay_after.json", module="forumdisplay",
                                                      fid="2")])
    judge, _ = replay(c)
    assert judge.find_thread(2, "重复开帖测试") == 2


# -- looking up an account (utf8-profile/, gbk-profile/) -------------------------------------------------

def test_find_user_on_recorded_profile_answers():
    c = tape(*LOGIN_JUDGE, "utf8-profile")
    judge, _ = replay(c)
    assert judge.find_user("赵六") == "赵六"
    assert judge.find_user("趙六") is None  # space_does_not_exist
    assert judge.find_user("郑十") == "郑十"
    assert judge.find_user("法官") == "法官"
    assert judge.find_user("Alice") is None
    assert [r.query["username"] for r in c.sent("profile")] == ["赵六", "趙六", "郑十", "法官", "Alice"]
    assert not c.unused()


def test_find_user_on_a_gbk_site_sends_the_name_in_gbk():
    from urllib.parse import quote

    import httpx

    c = tape("gbk/010_login_get_v3_张三.json", "gbk/011_login_post_v3_张三.json",
             "gbk/012_forumindex_after_login_张三.json", "gbk-profile", charset="gbk")
    queries: list[bytes] = []

    def spy(request: httpx.Request) -> httpx.Response:
        queries.append(request.url.query)
        return c.handle(request)

    from discuz_helpers import Clock

    from forumbot.forums.discuz import DiscuzForum

    clock = Clock()
    player = DiscuzForum("http://127.0.0.1:18765", "张三", "pw", transport=httpx.MockTransport(spy), sleep=clock.sleep,
                         monotonic=clock.epoch, clock=clock, retries=0, charset="gbk")
    assert player.find_user("赵六") == "赵六"
    assert player.find_user("趙六") is None
    profile = [q.decode() for q in queries if b"module=profile" in q]
    assert len(profile) == 2 and quote("赵六".encode("gbk")) in profile[0]
    assert player.find_user("玩家😀") is None  # GBK cannot write it: no such account, no request
    assert len([q for q in queries if b"module=profile" in q]) == 2


# -- private messages: pmid order, relative times, pages, the current second (utf8-after-season/, gbk-pm-*) -----

def _known_conversations(list_capture: str, *, except_plid: int) -> dict:
    """A cursor under which every conversation of a recorded inbox list is already read but one."""
    convs = {}
    for r in capture(list_capture)["json"]["Variables"]["list"]:
        if int(r["plid"]) != except_plid:
            marker = f"{int(r['msgfromid'])}|{fp(plain(r['message']), 60)}"
            convs[r["plid"]] = {"touid": int(r["touid"]), "marker": marker, "pending": 0, "last_seen": 0, "last": 0}
    return {"kind": "discuz/1", "base_url": "http://127.0.0.1:18765", "threads": {}, "conversations": convs}


def test_a_conversation_is_read_in_pmid_order_with_windows_that_keep_it():
    c = Cassette([*tape(*LOGIN_JUDGE).exchanges, *load("utf8-after-season/004_mypm_list_法官.json"),
                  *load("utf8-after-season/006_mypm_view_touid5_perpage100_judge.json")])
    judge, clock = replay(c)
    judge.import_cursor(_known_conversations("utf8-after-season/004_mypm_list_法官.json", except_plid=2))
    got = judge.private_messages()
    assert [(m.message_id, m.body) for m in got] == [(9, "投 王五"), (30, "杀 孙七"), (33, "投 张三 周八"),
                                                     (42, "杀 赵六"), (45, "投 周八 张三"), (52, "杀 周八"),
                                                     (55, "投 张三")]
    assert all(m.sender == "李四" for m in got) and [r.query.get("touid") for r in c.sent("mypm")] == [None, "5"]
    view = c.sent("mypm")[1].query  # no page: the newest end, where pages are counted from; all 16 in one
    assert "page" not in view and view["perpage"] == "100"
    # "半小时前" (pmid 9) is 30 to 60 minutes; "24 分钟前" (pmid 30) 24 to 25 minutes before the read
    assert got[0].time_utc == clock.now - timedelta(seconds=3601) and got[0].time_precision_seconds == 1801
    assert got[1].time_utc == clock.now - timedelta(minutes=25) and got[1].time_precision_seconds == 60
    times = [m.time_utc for m in got]
    assert times == sorted(times)


def test_the_judges_own_message_bounds_a_late_ballot_read_as_2_minutes_ago():
    """late-ballot/: the judge's PM 14 went out at 06:46:59; 吴九's ballot (pmid 15, truly 06:47:12, 5 s
    after the 06:47:07 deadline) was read 138 s later as "2 分钟前", which alone allows 06:46:30. Stored
    after PM 14, it cannot be earlier than that send."""
    from forumbot.forums.discuz_pm import narrow_by_order

    truth = {int(line.split("\t")[0]): datetime.fromisoformat(line.split("\t")[2].strip()).replace(tzinfo=UTC)
             for line in (CAPTURES / "late-ballot" / "pm_true_times_utc8.txt").read_text("utf-8").splitlines()[1:]}
    read = truth[15] + timedelta(seconds=138)
    relative = (read - timedelta(seconds=180), read - timedelta(seconds=120))  # "2 分钟前" read at `read`
    sent = {14: (truth[14] - timedelta(seconds=0.2), truth[14] + timedelta(seconds=0.3))}
    lo, hi = narrow_by_order({15: relative}, sent)[15]
    assert relative[0] < truth[14] - timedelta(seconds=1) <= lo <= truth[15] <= hi
    assert lo > datetime(2026, 12, 1, 6, 46, 58, tzinfo=UTC)


def test_a_message_of_the_current_second_holds_the_conversation_back():
    """gbk-pm-same-second/: the list shows 「同一秒测试 2」 but the view (count 3) shows only two messages,
    also a second later: nothing is returned this poll, so no later pmid can overtake the hidden one."""
    c = Cassette([*tape("gbk-pm-same-second/001_login_get_v3_法官.json", "gbk-pm-same-second/002_login_post_v3_法官.json",
                        "gbk-pm-same-second/003_forumindex_after_login_法官.json",
                        "gbk-pm-same-second/017_mypm_list_法官.json", "gbk-pm-same-second/018_mypm_view_5_法官.json",
                        "gbk-pm-same-second/018_mypm_view_5_法官.json").exchanges])
    judge, clock = replay(c)
    judge.import_cursor(_known_conversations("gbk-pm-same-second/017_mypm_list_法官.json", except_plid=2))
    assert judge.private_messages() == [] and clock.slept == [1.0]
    assert judge.export_cursor()["conversations"]["2"]["pending"] == 1


SAME_SECOND = "mypm-same-second"


def test_pages_of_15_of_the_inbox_list_skip_a_conversation_of_the_same_second():
    """mypm-same-second/: 19 players voted in the same second. The real list, in pages of 15, repeats a
    conversation of page 1 on page 2 and never lists plid 27 (冯十一's ballot, pmid 165): its order within
    a second changes with each page's query. A bot reading those pages loses a vote (seen live: pmid 153)."""
    for page1, page2 in (("004_mypm_page1_try0", "005_mypm_page2_try0"), ("006_mypm_page1_try1", "007_mypm_page2_try1")):
        listed = [r["plid"] for f in (page1, page2) for r in capture(f"{SAME_SECOND}/{f}.json")["json"]["Variables"]["list"]]
        assert len(listed) == 19 and len(set(listed)) == 18 and "27" not in listed


def test_the_inbox_list_is_read_in_one_page_so_no_ballot_of_the_same_second_is_lost():
    c = Cassette([e for e in load(SAME_SECOND) if not e.name.startswith(("004", "005", "006", "007"))])
    judge, _ = replay(c, "法官四")
    got = judge.private_messages(150)
    ballots = {m.sender: m.body for m in got if m.body.startswith("投")}
    assert len(ballots) == 19 and 153 in {m.message_id for m in got} and 165 in {m.message_id for m in got}
    lists = [r.query for r in c.sent("mypm") if r.query.get("subop") != "view"]
    assert len(lists) == 1 and int(lists[0]["perpage"]) >= 19


# -- a GBK site (gbk/): only what GBK carries is sent -----------------------------------------------------

GBK_LOGIN = ("gbk/019_login_get_v3_张三.json", "gbk/020_login_post_v3_张三.json",
             "gbk/021_forumindex_after_login_张三.json")
MOBILE_UA = ("iphone", "android", "phone", "mobile", "ipad", "wap", "midp", "ucweb", "symbian", "nokia", "huawei")


def test_a_gbk_site_gets_gbk_safe_text_never_entities_it_would_show_as_codes():
    c = tape(*GBK_LOGIN, "gbk/023_sendreply_张三.json", check="gbk/check_gbk.json", charset="gbk")
    player, _ = replay(c, "张三")
    assert player.reply(2, "张三的回复：投 李四 😀 繁體 ½ ✓") > 0
    sent = c.sent("sendreply")[0]
    assert b"%26%23" not in sent.content  # no "&#" entity: the real site showed &#128512; literally
    assert sent.form["message"] == "张三的回复：投 李四 □ 繁體 1/2 √"
    assert sent.headers["content-type"].endswith("charset=GBK")
    # fields are sent in GBK because the User-Agent is not a phone's: X3.5 converts a phone's fields from
    # UTF-8 itself, which would garble GBK bytes
    assert not any(word in sent.headers["user-agent"].lower() for word in MOBILE_UA)


def test_text_as_a_gbk_site_stores_it():
    """``sendable`` is what the adapter sends and what find_sent_pm looks for (so a PM whose first line
    GBK lacks is still found after a crash, not sent twice); the charset comes from ?check."""
    c = tape("gbk-pm-same-second/001_login_get_v3_法官.json", "gbk-pm-same-second/002_login_post_v3_法官.json",
             "gbk-pm-same-second/003_forumindex_after_login_法官.json", check="gbk/check_gbk.json", charset="gbk")
    judge, _ = replay(c)
    judge.login()
    assert judge.sendable("版杀 GBK · 法官消息 #1.0 😀") == "版杀 GBK · 法官消息 #1.0 □"
    assert judge.sendable("玩家[\u200bb]名") == "玩家［b]名"  # the BBCode escape, in a bracket GBK has


# -- minpostsize counts bytes of the site's charset (season-gbk/065, gbk/web_viewthread_tid2_gbk.html) ----

def _web_page(path: str, tid: str) -> Exchange:
    return Exchange(path, "GET", {"mod": "viewthread", "tid": tid}, 200, "text/html; charset=gbk",
                    (CAPTURES / path).read_bytes())


def test_a_short_post_is_padded_to_10_gbk_bytes():
    c = tape(*GBK_LOGIN, "gbk/023_sendreply_张三.json", check="gbk/check_gbk.json", charset="gbk")
    player, _ = replay(c, "张三")
    assert player.reply(2, "投 王五") > 0  # the real GBK site refused this 7-byte post (season-gbk/065)
    message = c.sent("sendreply")[0].form["message"]
    assert message.startswith("投 王五") and len(message.encode("gbk")) >= 10


def test_a_too_short_refusal_reads_the_sites_minimum_and_pads_more():
    refused = load("season-gbk/065_sendreply_赵六.json")[0]
    refused.query["tid"] = "2"  # the same refusal, recorded in thread 3 of the GBK season
    c = Cassette([*tape(*GBK_LOGIN).exchanges, refused, _web_page("gbk/web_viewthread_tid2_gbk.html", "2"),
                  *load("gbk/023_sendreply_张三.json")],
                 check="gbk/check_gbk.json", charset="gbk")
    player, _ = replay(c, "张三", min_post_bytes=0)  # as if the setting said nothing is too short
    assert player.reply(2, "投 王五") > 0
    assert [r.served for r in c.requests[-3:]] == ["065_sendreply_赵六.json", "gbk/web_viewthread_tid2_gbk.html",
                                                   "023_sendreply_张三.json"]
    assert c.sent("sendreply")[0].form["message"] == "投 王五"
    assert len(c.sent("sendreply")[1].form["message"].encode("gbk")) >= 10


def test_an_unread_pm_is_read_although_notice_newpm_says_0():
    """utf8-relaxed/ (and utf8-newpm-notice/): forumindex says notice.newpm "0" while the list shows the
    conversation isnew "1"; the inbox is read anyway, and the PM's text is as the player typed it."""
    c = tape("utf8-relaxed", user="法官")
    judge, _ = replay(c, login_api_version=4)
    judge.login()
    answer = judge._read("forumindex", {})
    assert answer.variables["notice"]["newpm"] == "0"
    got = judge.private_messages()
    assert [(m.message_id, m.sender, m.body) for m in got] == [(1, "张三", "测试 <b>粗</b> & 'quote' 第一行\n第二行 😀")]
    assert not c.unused()


def test_an_anchor_narrows_its_own_message_and_the_ones_after_it():
    from forumbot.forums.discuz_pm import narrow_by_order

    t = datetime(2026, 12, 1, 6, 47, tzinfo=UTC)
    seen = {14: (t - timedelta(seconds=120), t), 15: (t - timedelta(seconds=120), t + timedelta(seconds=60))}
    sent = {14: (t - timedelta(seconds=2), t - timedelta(seconds=1))}  # the judge's own PM 14, known to the second
    out = narrow_by_order(seen, sent)
    assert out[14] == sent[14] and out[15][0] == t - timedelta(seconds=2)


def test_posts_and_pms_share_the_16_second_spacing():
    # utf8-errors/014: a PM right after a reply was refused (message_can_not_send_2): one window for both
    c = tape(*LOGIN_ZHENG, "utf8-errors/010_sendreply_郑十.json", "utf8-pmflood/005_sendpm_admin_first.json")
    player, clock = replay(c, "郑十")
    c.clock = clock.epoch
    player.reply(1, "普通会员的回复")
    player.send_pm("王五", "", "发帖后马上发短消息")
    times = [r.at for r in c.requests if r.method == "POST" and r.module in ("sendreply", "sendpm")]
    assert times[1] - times[0] >= 16
