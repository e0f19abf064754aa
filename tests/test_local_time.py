"""How times are written for players (issue 28): the season's zone in words of its locale, never an ambiguous
abbreviation such as ``CST`` (China, Cuba, US Central)."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from forumbot.local_time import format_local, utc_offset, zone_label

AT = datetime(2026, 12, 4, 15, 26, 15, tzinfo=UTC)


@pytest.mark.parametrize("zone,locale,text", [
    ("Asia/Shanghai", "zh-Hans", "2026-12-04（周五）23:26:15 北京时间"),
    ("Asia/Shanghai", "zh-Hant", "2026-12-04（週五）23:26:15 北京時間"),
    ("Asia/Shanghai", "en", "Fri 04 Dec 2026 23:26:15 Beijing time"),
    ("Asia/Taipei", "zh-Hant", "2026-12-04（週五）23:26:15 台北時間"),
    ("Asia/Taipei", "zh-Hans", "2026-12-04（周五）23:26:15 台北时间"),
    ("Asia/Hong_Kong", "zh-Hant", "2026-12-04（週五）23:26:15 香港時間"),
    ("Asia/Tokyo", "zh-Hans", "2026-12-05（周六）00:26:15 UTC+9"),
    ("America/Chicago", "en", "Fri 04 Dec 2026 09:26:15 UTC-6"),
    ("Asia/Kolkata", "en", "Fri 04 Dec 2026 20:56:15 UTC+5:30"),
    ("UTC", "zh-Hans", "2026-12-04（周五）15:26:15 UTC"),
])
def test_a_time_names_its_zone_as_the_locale_reads_it(zone, locale, text):
    assert format_local(AT, ZoneInfo(zone), locale) == text


def test_the_season_may_set_the_words_or_always_the_offset():
    tz = ZoneInfo("Asia/Shanghai")
    assert format_local(AT, tz, "zh-Hans", "东八区").endswith("23:26:15 东八区")
    assert format_local(AT, tz, "zh-Hans", "offset").endswith("23:26:15 UTC+8")


def test_the_offset_follows_daylight_saving():
    ny = ZoneInfo("America/New_York")
    assert utc_offset(datetime(2026, 7, 1, 12, tzinfo=UTC), ny) == "UTC-4"
    assert utc_offset(datetime(2026, 12, 1, 12, tzinfo=UTC), ny) == "UTC-5"


def test_a_readers_own_zone_follows_when_it_differs():
    tz = ZoneInfo("Asia/Shanghai")
    assert format_local(AT, tz, "zh-Hans", own=ZoneInfo("Europe/London")).endswith("（你的时间 12-04 15:26 UTC）")
    assert format_local(AT, tz, "en", own=ZoneInfo("Asia/Chongqing")) == format_local(AT, tz, "en")


@given(st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2100, 1, 1), timezones=st.just(UTC)),
       st.sampled_from(["Asia/Shanghai", "America/Chicago", "America/Havana", "Australia/Adelaide", "Europe/Dublin"]),
       st.sampled_from(["zh-Hans", "zh-Hant", "en"]))
def test_never_an_abbreviation(when, zone, locale):
    label = zone_label(when, ZoneInfo(zone), locale)
    assert label in ("北京时间", "北京時間", "Beijing time") or label.startswith("UTC")


def test_the_season_writes_deadlines_with_its_setting(tmp_path):
    """A season's posts and private messages word times by its ``time_zone_label`` (SeasonConfig.shown_time)."""
    from forumbot.config import SeasonConfig

    base = {"name": "s", "ruleset": "sunlight", "players": ["a", "b", "c"],
            "forum": {"engine": "flaskbb", "base_url": "http://127.0.0.1:1", "username": "judge", "forum_id": 1, "password_env": "X"}}
    assert SeasonConfig.model_validate(base).shown_time(AT).endswith("北京时间")
    assert SeasonConfig.model_validate({**base, "time_zone_label": "offset"}).shown_time(AT).endswith("UTC+8")
    assert SeasonConfig.model_validate({**base, "locale": "zh-Hant", "time_zone": "Asia/Taipei"}).shown_time(AT) \
        .endswith("台北時間")


def test_the_short_form_for_timelines():
    from forumbot.local_time import format_short

    assert format_short(AT, ZoneInfo("Asia/Taipei"), "zh-Hant") == "2026-12-04 23:26 台北時間"
    assert format_short(AT, ZoneInfo("America/Chicago"), "en", "offset") == "2026-12-04 09:26 UTC-6"
