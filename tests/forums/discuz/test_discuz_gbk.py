"""A GBK site: the charset is detected with ?check, CJK names and text go both ways."""

from __future__ import annotations

import pytest
from discuz_helpers import Site

from forumbot.forums.errors import AuthFailed


@pytest.fixture
def gbk():
    s = Site(charset="GBK")
    yield s
    s.close()


def test_charset_detected(gbk):
    judge = gbk.client()
    assert judge.site_info()["charset"] == "GBK"
    assert judge._send_charset() == "gbk"


def test_cjk_both_ways_on_gbk(gbk):
    judge = gbk.client()
    tid = judge.create_thread(3, "版杀 第一局：阳光下的罪恶", "[b]游戏开始[/b]，王大锤先发言 😀")
    thread = gbk.fake.threads[tid]
    assert thread.subject == "版杀 第一局：阳光下的罪恶"
    assert thread.posts[0].text == "[b]游戏开始[/b]，王大锤先发言 □"  # no GBK for emoji: marked, no entity
    assert judge.thread_posts(tid)[0].text == "游戏开始，王大锤先发言 □"
    judge.send_pm("王大锤", "法官消息 #1", "你的身份：好人")
    assert gbk.fake.pms_to("王大锤")[0].text == "法官消息 #1\n\n你的身份：好人"
    player = gbk.client("王大锤")
    player.reply(tid, "投 小红")
    player.send_pm("法官", "", "收到，投 小红")
    gbk.clock.advance(2)
    assert [p.text for p in judge.thread_posts(tid)][-1] == "投 小红"
    assert [(m.sender, m.body) for m in judge.private_messages()] == [("王大锤", "收到，投 小红")]


def test_a_wrong_charset_setting_shows_at_login(gbk):
    """UTF-8 bytes read as GBK are another name: the login fails, with a hint at the charset setting."""
    judge = gbk.client(charset="utf-8")
    with pytest.raises(AuthFailed, match="charset"):
        judge.login()


def test_a_recipient_gbk_cannot_write_is_no_such_user_and_nothing_is_sent(gbk):
    from forumbot.forums.errors import NoSuchUser

    judge = gbk.client()
    judge.login()
    before = len(gbk.fake.log)
    with pytest.raises(NoSuchUser, match="GBK"):
        judge.send_pm("玩家😀", "法官消息 #1", "你的身份：好人")
    assert gbk.fake.log[before:] == []


def test_an_edit_on_gbk_is_checked_against_what_gbk_stored(gbk):
    judge = gbk.client()
    tid = judge.create_thread(3, "版杀 第一局", "开始")
    pid = gbk.fake.threads[tid].posts[0].pid
    gbk.clock.advance(20)
    judge.edit_post(pid, "开始 ✓ 😀 第二版 Győző")  # stored as 开始 √ □ 第二版 Gyozo: recognised as done
    assert gbk.fake.threads[tid].posts[0].text.startswith("开始 √ □ 第二版 Gyozo")


def test_a_thread_whose_subject_gbk_lacks_is_found_as_stored(gbk):
    judge = gbk.client()
    tid = judge.create_thread(3, "版杀 😀 第一局", "开始")
    assert gbk.fake.threads[tid].subject == "版杀 □ 第一局"
    assert judge.find_thread(3, "版杀 😀 第一局") == tid
