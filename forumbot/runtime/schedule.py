"""When phases end: daily deadlines in the season's time zone (daylight saving included),
reminders. Pure functions of the schedule and the times the runtime recorded; no clock is read here."""

from __future__ import annotations

from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from forumbot.local_time import format_local as _format_local


def next_daily(after: datetime, at: time, tz: ZoneInfo) -> datetime:
    """The first instant strictly after ``after`` (aware) at local wall time ``at`` in ``tz``, in UTC.
    A wall time skipped by a daylight-saving jump resolves as zoneinfo does (fold=0)."""
    local = after.astimezone(tz)
    candidate = datetime.combine(local.date(), at, tzinfo=tz)
    while candidate.astimezone(ZoneInfo("UTC")) <= after:
        candidate = datetime.combine(candidate.date() + timedelta(days=1), at, tzinfo=tz)
    return candidate.astimezone(ZoneInfo("UTC"))


def phase_deadline(
    opened_at: datetime,
    length: timedelta,
    tz: ZoneInfo,
    daily_at: time | None = None,
    extra: timedelta = timedelta(0),
) -> datetime:
    """The deadline of a phase opened at ``opened_at`` (UTC, aware).

    Without ``daily_at``: ``opened_at + length``. With it: the first local ``daily_at`` at least
    ``length`` after opening (so "every day at 22:00, at least 12h" works across daylight saving).
    ``extra`` (extensions by the organiser, time spent paused) is added at the end.
    """
    if daily_at is None:
        return opened_at + length + extra
    return next_daily(opened_at + length - timedelta(microseconds=1), daily_at, tz) + extra


def format_local(when: datetime, tz: ZoneInfo, locale: str, label: str | None = None) -> str:
    """A deadline as players read it: local date and time with the zone in words that cannot be misread
    (:func:`forumbot.local_time.format_local`, the one place times are worded)."""
    return _format_local(when, tz, locale, label)
