"""Discuz!'s relative time texts (``16 秒前``, ``3 分钟前``, ``昨天 22:10``, ``2026-11-30 00:25``) → UTC times.

Discuz! shows private messages with no timestamp, only ``dgmdate(..., 'u')`` text computed by the server
when it answers, in the site's time zone (``timeoffset``, UTC+8 by default):

=====================  ==========================================  ===========================
text                   seconds ago (``t``) / local time             window
=====================  ==========================================  ===========================
``刚刚``                t = 0                                        1 s
``N 秒前``              t = N                                        1 s
``N 分钟前``            60·N ≤ t < 60·(N+1)                          60 s
``半小时前``            1800 < t ≤ 3600                              30 min
``N 小时前``            3600·N ≤ t < 3600·(N+1), still today         1 h
``昨天 HH:MM``          that minute, yesterday                      60 s
``前天 HH:MM``          that minute, the day before yesterday       60 s
``N 天前``              N-1 whole days before today's midnight       1 day
``YYYY-M-D HH:MM``      that minute (seconds: that second; no time: that day)
=====================  ==========================================  ===========================

The text was made at some instant between the start of the request and the end of its answer, so
:func:`parse_relative` takes both and returns the **earliest** instant the text allows (the player gets
the benefit of the doubt) and the width of the window in seconds. Traditional Chinese (``分鐘``,
``小時``) and the English pack (``3 mins ago``, ``Yesterday 22:10``) are understood too.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo


class UnknownTimeText(ValueError):
    """The text is not one of the forms Discuz! writes."""


@dataclass(frozen=True)
class TimeWindow:
    """``earliest`` (aware UTC) and ``precision_seconds``: the text allows any instant in
    [earliest, earliest + precision_seconds]."""

    earliest: datetime
    precision_seconds: float


_NUM = r"(\d+)"
_AGO = r"\s*(?:前|以前|ago)"
_UNITS = [  # (pattern, seconds per unit)
    (re.compile(rf"^{_NUM}\s*(?:秒|秒钟|秒鐘|secs?|seconds?){_AGO}$", re.I), 1),
    (re.compile(rf"^{_NUM}\s*(?:分钟|分鐘|分|mins?|minutes?){_AGO}$", re.I), 60),
    (re.compile(rf"^{_NUM}\s*(?:小时|小時|hours?|hrs?){_AGO}$", re.I), 3600),
]
_NOW = re.compile(r"^(?:刚刚|剛剛|just now|now)$", re.I)
_HALF_HOUR = re.compile(r"^(?:半\s*(?:小时|小時)|half an hour|half hour)\s*(?:前|ago)?$", re.I)
_DAYS = re.compile(rf"^{_NUM}\s*(?:天|days?){_AGO}$", re.I)
_DAY_AT = re.compile(r"^(昨天|前天|yesterday|the day before yesterday)\s*(\d{1,2}):(\d{2})(?::(\d{2}))?$", re.I)
_DATE = re.compile(r"^(\d{4})[-/.年](\d{1,2})[-/.月](\d{1,2})日?(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$")


def clean(text: str) -> str:
    """The text with entities (``&nbsp;``) decoded, tags dropped and spaces collapsed."""
    text = html.unescape(re.sub(r"<[^>]*>", "", text or ""))
    return " ".join(text.replace("\u00a0", " ").split())


def parse_relative(text: str, request_start: datetime, answer_end: datetime, site_zone: ZoneInfo) -> TimeWindow:
    """The window of instants the Discuz! time ``text`` allows.

    ``request_start``/``answer_end`` (aware datetimes) bracket the server's "now"; ``site_zone`` is the
    zone the site writes local times in. Raises :class:`UnknownTimeText` for text of another form.
    """
    t = clean(text)
    lo_ago: float | None = None
    hi_ago: float | None = None
    if _NOW.match(t):
        lo_ago, hi_ago = 0, 1
    elif _HALF_HOUR.match(t):
        lo_ago, hi_ago = 1800, 3601
    else:
        for pattern, unit in _UNITS:
            m = pattern.match(t)
            if m:
                n = int(m.group(1))
                lo_ago, hi_ago = n * unit, (n + 1) * unit
                break
    if lo_ago is not None and hi_ago is not None:
        earliest = request_start - timedelta(seconds=hi_ago)
        latest = answer_end - timedelta(seconds=lo_ago)
        return _window(earliest, latest)
    local_now = request_start.astimezone(site_zone)
    m = _DAYS.match(t)
    if m:
        n = int(m.group(1))
        midnight = datetime.combine(local_now.date(), time(), site_zone)
        return _window(midnight - timedelta(days=n), midnight - timedelta(days=n - 1))
    m = _DAY_AT.match(t)
    if m:
        back = 1 if m.group(1).lower() in ("昨天", "yesterday") else 2
        day = local_now.date() - timedelta(days=back)
        return _minute(day, int(m.group(2)), int(m.group(3)), m.group(4), site_zone)
    m = _DATE.match(t)
    if m:
        try:
            day = date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        except ValueError:
            raise UnknownTimeText(f"not a date: {text!r}") from None
        if m.group(4) is None:
            start = datetime.combine(day, time(), site_zone)
            return _window(start, start + timedelta(days=1))
        return _minute(day, int(m.group(4)), int(m.group(5)), m.group(6), site_zone)
    raise UnknownTimeText(f"not a Discuz! time text: {text!r}")


def _minute(day: date, hour: int, minute: int, second: str | None, zone: ZoneInfo) -> TimeWindow:
    try:
        start = datetime.combine(day, time(hour, minute, int(second or 0)), zone)
    except ValueError:
        raise UnknownTimeText(f"not a time of day: {hour}:{minute}") from None
    return _window(start, start + timedelta(seconds=1 if second else 60))


def _window(earliest: datetime, latest: datetime) -> TimeWindow:
    earliest = earliest.astimezone(UTC)
    return TimeWindow(earliest, max(0.0, (latest.astimezone(UTC) - earliest).total_seconds()))
