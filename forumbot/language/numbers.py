"""Numbers in commands: Chinese numerals, clue numbers and durations (canonical text); the one duration
parser, which also reads the durations of season files (:func:`parse_duration`)."""

from __future__ import annotations

import re
from datetime import timedelta

_DIGITS = {"〇": 0, "零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7,
           "八": 8, "九": 9}
_CJK_NUM = "〇零一二两三四五六七八九十百"


def cjk_int(text: str) -> int | None:
    """Value of a Chinese numeral up to 999 (三 -> 3, 十二 -> 12, 二十 -> 20, 一百零五 -> 105);
    None when ``text`` is not one."""
    if not text or any(c not in _CJK_NUM for c in text):
        return None
    total, current = 0, None
    for c in text:
        if c in _DIGITS:
            if current is not None and current != 0:
                return None  # two digits in a row (三五): not a numeral we read
            current = _DIGITS[c]
        else:
            unit = 10 if c == "十" else 100
            total += (1 if current is None else current) * unit
            current = None
    return total + (current or 0)


def to_int(text: str) -> int | None:
    """Arabic or Chinese numeral -> int, else None."""
    if text.isdecimal() and text.isascii():
        return int(text)
    return cjk_int(text)


# A clue number: 2, #2, 第二, 2号, 二条.
_CLUE = re.compile(rf"(?:#\s*|第\s*)?(\d{{1,4}}|[{_CJK_NUM}]{{1,4}})(?:\s*(?:号|条|个))?(?![0-9a-z])")


def clue_at(s: str, pos: int) -> tuple[int | None, int]:
    """The clue number at ``pos``: (value, end) or (None, pos)."""
    m = _CLUE.match(s, pos)
    if not m:
        return None, pos
    return to_int(m.group(1)), m.end()


_UNITS = (
    (r"个?小时|个?钟头|hours?|hrs?|h", 3600),
    (r"分钟|分|minutes?|mins?|m", 60),
    (r"秒钟|秒|seconds?|secs?|s", 1),
    (r"天|days?|d", 86400),
)
_UNIT_RE = "|".join(f"(?P<u{i}>{pat})" for i, (pat, _) in enumerate(_UNITS))
_PART = re.compile(rf"\s*(?P<n>\d+(?:\.\d+)?|[{_CJK_NUM}]{{1,4}}|半)\s*(?:{_UNIT_RE})(?![a-z])")
_HALF = re.compile(r"\s*半")


def duration_at(s: str, pos: int) -> tuple[int | None, int]:
    """A duration at ``pos`` in seconds: ``30分钟``, ``2小时``, ``30m``, ``2h``, ``1h30m``,
    ``1小时30分``, ``半小时``, ``1.5h``. Returns (seconds, end) or (None, pos) when no duration with a
    unit is there (a bare number has no unit and is not read: 30 seconds and 30 hours differ)."""
    total, end = _duration_at(s, pos)
    return (round(total), end) if end != pos and total > 0 else (None, pos)


def parse_duration(text: str | int | float) -> timedelta:
    """A season file's duration: ``"24h"``, ``"1d12h"``, ``"30m"``, ``"90s"``, ``"1h30m"``, ``"30分钟"`` (any
    duration a command may give, :func:`duration_at`, making up the whole text) or a number of seconds.

    Raises ValueError naming the text for anything else (or for a zero or negative duration).
    """
    if isinstance(text, (int, float)):
        seconds = float(text)
    else:
        folded = text.strip().lower()
        seconds, end = _duration_at(folded, 0)
        if not folded or end != len(folded):
            raise ValueError(f"{text!r} is not a duration; write e.g. 24h, 1d12h, 30m, 90s")
    if seconds <= 0:
        raise ValueError(f"{text!r}: a duration must be positive")
    return timedelta(seconds=seconds)


def _duration_at(s: str, pos: int) -> tuple[float, int]:
    """(seconds, end) of the duration at ``pos``; end == pos when there is none."""
    total = 0.0
    end = pos
    while True:
        m = _PART.match(s, end)
        if not m:
            break
        n = m.group("n")
        value = 0.5 if n == "半" else (float(n) if n[0].isdigit() else cjk_int(n))
        if value is None:
            break
        unit = next(sec for i, (_, sec) in enumerate(_UNITS) if m.group(f"u{i}"))
        total += value * unit
        end = m.end()
        h = _HALF.match(s, end)  # 一个半小时 is rare; 1小时半 means +30 min
        if h and unit == 3600 and not _PART.match(s, end):
            total += 1800
            end = h.end()
    return (total, end) if end != pos else (0.0, pos)
