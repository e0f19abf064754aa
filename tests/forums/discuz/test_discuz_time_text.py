"""Relative PM times (earliest instant + window) and text as meant, from what Discuz! writes."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from fake_discuz import dgmdate

from forumbot.forums.discuz_api import pm_text, post_text
from forumbot.forums.discuz_time import UnknownTimeText, parse_relative

SH = ZoneInfo("Asia/Shanghai")
NOW = datetime(2026, 12, 1, 12, 0, 0, tzinfo=UTC)  # 20:00 in Shanghai


def window(text: str, now: datetime = NOW, end: datetime | None = None):
    w = parse_relative(text, now, end or now, SH)
    return w.earliest, w.precision_seconds


@pytest.mark.parametrize(
    ("text", "earliest", "precision"),
    [
        ("刚刚", NOW - timedelta(seconds=1), 1),
        ("16&nbsp;秒前", NOW - timedelta(seconds=17), 1),
        ("3 分钟前", NOW - timedelta(minutes=4), 60),
        ("3 分鐘前", NOW - timedelta(minutes=4), 60),
        ("半小时前", NOW - timedelta(seconds=3601), 1801),
        ("1&nbsp;小时前", NOW - timedelta(hours=2), 3600),
        ("昨天&nbsp;22:10", datetime(2026, 11, 30, 22, 10, tzinfo=SH), 60),
        ("前天 08:05", datetime(2026, 11, 29, 8, 5, tzinfo=SH), 60),
        ("4&nbsp;天前", datetime(2026, 11, 27, tzinfo=SH), 86400),
        ("2026-11-2 09:30", datetime(2026, 11, 2, 9, 30, tzinfo=SH), 60),
        ("2026-11-2", datetime(2026, 11, 2, tzinfo=SH), 86400),
        ("5 mins ago", NOW - timedelta(minutes=6), 60),
    ],
)
def test_each_form(text, earliest, precision):
    assert window(text) == (earliest, precision)


def test_the_request_duration_widens_the_window():
    earliest, precision = window("10 秒前", NOW, NOW + timedelta(seconds=2))
    assert earliest == NOW - timedelta(seconds=11) and precision == 3


def test_unknown_text():
    with pytest.raises(UnknownTimeText):
        window("上周二")


def test_the_true_time_is_always_inside_the_window():
    """Contract with the fake's dgmdate (Discuz!'s rules): for any age the window holds the truth and
    starts no later than it (the player's benefit of the doubt)."""
    rng = random.Random(3)
    now_ts = int(NOW.timestamp())
    for _ in range(2000):
        ago = rng.choice([rng.randint(0, 120), rng.randint(0, 7200), rng.randint(0, 12 * 86400)])
        text = dgmdate(now_ts - ago, now_ts, 8)
        earliest, precision = window(text)
        truth = NOW - timedelta(seconds=ago)
        assert earliest <= truth <= earliest + timedelta(seconds=precision), (ago, text)


def test_post_text_double_escaping_quote_smiley_signature_edit_note():
    message = ('<i class="pstatus"> 本帖最后由 小明 于 2026-12-1 20:00 编辑 </i><br />\r\n'
               '<div class="quote"><blockquote>小红: 投 alice</blockquote></div>'
               '投 小红 <img src="static/image/smiley/default/smile.gif" smilieid="1" border="0" alt="" /> '
               '&amp;lt;b&amp;gt;&amp;amp;&amp;lt;/b&amp;gt; <strong>粗</strong> &amp;#128512;<br />\r\n第二行'
               '<div class="sign">签名：好人一生平安</div>')
    text, edited = post_text(message)
    assert edited
    assert text == "投 小红 <b>&</b> 粗 😀\n第二行"


def test_pm_text_escaped_once_newlines_kept():
    assert pm_text("投 &lt;小红&gt; &amp; 小明\n理由：直觉") == "投 <小红> & 小明\n理由：直觉"
    assert pm_text("it\\'s me") == "it's me"
