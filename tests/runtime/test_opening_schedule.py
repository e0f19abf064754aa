"""The opening post says each phase's length plainly (issue 28: 「每个阶段 1分钟（序幕 40秒、投票轮 1分钟40秒…）」 said
"every phase 1 minute", then other lengths), and a daily deadline in words of the season's zone."""

from __future__ import annotations

import pytest
from bot_helpers import make_season

PLAYERS = ["A", "B", "C", "D", "E", "F"]


@pytest.mark.parametrize("locale,said", [
    ("zh-Hans", "各阶段时长：序幕 40秒、投票轮 1分钟40秒、线索投票 1分钟、杀人轮 1分钟。"),
    ("zh-Hant", "各階段時長：序幕 40秒、投票輪 1分鐘40秒、線索投票 1分鐘、殺人輪 1分鐘。"),
    ("en", "Phase lengths: prologue 40 s, vote round 1 min 40 s, clue poll 1 min, kill round 1 min."),
])
def test_each_phase_length_is_said_once(tmp_path, locale, said):
    s = make_season(tmp_path, PLAYERS, {"C": "killer"}, locale=locale,
                    schedule={"default": "60s", "lengths": {"prologue": "40s", "vote": "100s"}})
    s.bot.cycle()
    opening = s.posts()[0]
    assert said in opening, opening
    assert "每个阶段 1分钟" not in opening and "each phase lasts" not in opening


def test_one_length_for_all_and_a_daily_deadline_in_the_zones_words(tmp_path):
    s = make_season(tmp_path, PLAYERS, {"C": "killer"}, locale="zh-Hans", time_zone="Asia/Shanghai",
                    schedule={"default": "12h", "daily_deadline": "22:00"})
    s.bot.cycle()
    opening = s.posts()[0]
    assert "每个阶段都是 12小时；阶段满这个时长后，在接下来的北京时间 22:00 截止。" in opening, opening
