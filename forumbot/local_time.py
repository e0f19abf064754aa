"""How the bot writes a time for players: the date and time in the season's zone, and which zone that is in
words a player of the season's locale reads without doubt (issue 28: ``23:26:15 CST`` is China, Cuba or the US
Central zone).

The one place times are worded: posts and private messages (deadlines, a message's time), the CLI, and the
season report's timeline (:func:`format_local`, :func:`zone_label`).

- **The zone's name.** A zone the locale has a name for is named: Asia/Shanghai (and its aliases) 「北京时间」 /
  「北京時間」 / "Beijing time", Asia/Taipei 「台北时间」 / 「台北時間」 / "Taipei time", Hong Kong and Macau
  likewise; UTC is "UTC". Any other zone is its offset from UTC at that instant (``UTC+8``, ``UTC-4`` in New
  York's summer, ``UTC+5:30``), never an abbreviation (CST, IST are each several zones).
- **The short form** (:func:`format_short`: to the minute, no weekday) is for tables and timelines.
- **The season's setting** ``time_zone_label`` replaces the name (a text such as 「东八区」), or ``"offset"``
  always writes the offset.
- **The player's own zone.** No forum adapter gives a player's time zone today (Discuz!'s member
  ``timeoffset``, phpBB's and FlaskBB's user settings are not read through the API the adapters use; NodeBB has
  none): ``own`` is the hook — given a zone other than the season's, the time is followed by the same instant in
  it (「2026-12-04（周五）23:26:15 北京时间（你的时间 12-04 16:26 UTC+1）」).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

#: zones a locale names (aliases of one zone included), by locale
_NAMED = {
    "zh-Hans": {"Asia/Shanghai": "北京时间", "Asia/Chongqing": "北京时间", "Asia/Chungking": "北京时间",
                "Asia/Harbin": "北京时间", "PRC": "北京时间", "Asia/Taipei": "台北时间", "ROC": "台北时间",
                "Asia/Hong_Kong": "香港时间", "Hongkong": "香港时间", "Asia/Macau": "澳门时间", "Asia/Macao": "澳门时间"},
    "zh-Hant": {"Asia/Shanghai": "北京時間", "Asia/Chongqing": "北京時間", "Asia/Chungking": "北京時間",
                "Asia/Harbin": "北京時間", "PRC": "北京時間", "Asia/Taipei": "台北時間", "ROC": "台北時間",
                "Asia/Hong_Kong": "香港時間", "Hongkong": "香港時間", "Asia/Macau": "澳門時間", "Asia/Macao": "澳門時間"},
    "en": {"Asia/Shanghai": "Beijing time", "Asia/Chongqing": "Beijing time", "Asia/Chungking": "Beijing time",
           "Asia/Harbin": "Beijing time", "PRC": "Beijing time", "Asia/Taipei": "Taipei time", "ROC": "Taipei time",
           "Asia/Hong_Kong": "Hong Kong time", "Hongkong": "Hong Kong time", "Asia/Macau": "Macau time",
           "Asia/Macao": "Macau time"},
}
_UTC = {"UTC", "Etc/UTC", "Etc/UCT", "UCT", "Etc/Universal", "Universal", "Etc/Zulu", "Zulu", "Etc/GMT", "GMT"}
_OWN = {"zh-Hans": "你的时间", "zh-Hant": "你的時間", "en": "your time"}
#: ``time_zone_label`` value that always writes the UTC offset
OFFSET = "offset"


def utc_offset(when: datetime, tz: ZoneInfo) -> str:
    """``tz``'s offset from UTC at ``when`` (aware): ``UTC+8``, ``UTC-4``, ``UTC+5:30``, ``UTC`` for none."""
    off = when.astimezone(tz).utcoffset() or timedelta(0)
    minutes = int(off.total_seconds()) // 60
    if minutes == 0:
        return "UTC"
    sign, minutes = ("+" if minutes > 0 else "-"), abs(minutes)
    h, m = divmod(minutes, 60)
    return f"UTC{sign}{h}" + (f":{m:02d}" if m else "")


def zone_label(when: datetime, tz: ZoneInfo, locale: str, label: str | None = None) -> str:
    """The words naming ``tz`` after a time at ``when`` for ``locale`` (zh-Hans, zh-Hant, en): ``label`` when the
    season sets one (:data:`OFFSET`: the offset), else the locale's name of the zone, else its UTC offset."""
    if label and label != OFFSET:
        return label
    if label != OFFSET:
        key = str(tz.key) if getattr(tz, "key", None) else str(tz)
        if key in _UTC:
            return "UTC"
        named = _NAMED.get(locale, _NAMED["en"]).get(key)
        if named:
            return named
    return utc_offset(when, tz)


def format_local(when: datetime, tz: ZoneInfo, locale: str, label: str | None = None,
                 own: ZoneInfo | None = None) -> str:
    """``when`` (aware) as players of ``locale`` read it: the date, weekday and time in ``tz`` and the zone
    (:func:`zone_label`; ``label`` the season's ``time_zone_label``). ``own``: the reader's zone (the hook for
    a forum that gives it): when it differs from ``tz`` the same instant follows in it."""
    local = when.astimezone(tz)
    zone = zone_label(when, tz, locale, label)
    if locale == "en":
        text = local.strftime(f"%a %d %b %Y %H:%M:%S {zone}")
    else:
        week = ("週" if locale == "zh-Hant" else "周") + "一二三四五六日"[local.weekday()]
        text = local.strftime(f"%Y-%m-%d（{week}）%H:%M:%S {zone}")
    if own is not None and when.astimezone(own).utcoffset() != local.utcoffset():
        mine = when.astimezone(own)
        words = _OWN.get(locale, _OWN["en"])
        shown = f"{mine:%m-%d %H:%M} {zone_label(when, own, locale)}"
        text += f" ({words} {shown})" if locale == "en" else f"（{words} {shown}）"
    return text


def format_short(when: datetime, tz: ZoneInfo, locale: str, label: str | None = None) -> str:
    """``when`` to the minute, without the weekday, for tables and timelines (the season report): ``2026-12-04
    23:26 北京时间``, ``2026-12-04 09:26 UTC-6``; the zone as :func:`zone_label` words it."""
    return f"{when.astimezone(tz):%Y-%m-%d %H:%M} {zone_label(when, tz, locale, label)}"
