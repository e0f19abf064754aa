"""Reading a season file as organisers write it: UTF-8 (a byte order mark, as Windows Notepad writes,
is accepted), and TOML whose mistakes are named the way a person can fix them.

Chinese keyboards make two mistakes that TOML's own messages do not explain: a file saved as GBK, and
full-width punctuation (，：＝“” …) typed between values. Both are reported with the line, the
character and the fix.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from forumbot.toml_syntax import syntax_message

BOM = "\ufeff"

#: full-width or typographic characters that break TOML outside a string -> (what it is, what to type)
LOOKALIKES: dict[str, tuple[str, str]] = {
    "，": ("a full-width comma", ","),
    "、": ("an ideographic comma", ","),
    "：": ("a full-width colon", ":"),
    "＝": ("a full-width equals sign", "="),
    "［": ("a full-width bracket", "["),
    "］": ("a full-width bracket", "]"),
    "【": ("a full-width bracket", "["),
    "】": ("a full-width bracket", "]"),
    "｛": ("a full-width brace", "{"),
    "｝": ("a full-width brace", "}"),
    "“": ("a curly quotation mark", '"'),
    "”": ("a curly quotation mark", '"'),
    "＂": ("a full-width quotation mark", '"'),
    "‘": ("a curly quotation mark", "'"),
    "’": ("a curly quotation mark", "'"),
    "＃": ("a full-width number sign", "#"),
    "；": ("a full-width semicolon", ","),
    "．": ("a full-width full stop", "."),
    "。": ("an ideographic full stop", "."),
    "\u3000": ("a full-width space", "an ordinary space"),
    **{chr(0xFF10 + d): ("a full-width digit", str(d)) for d in range(10)},
}


class TomlFileError(ValueError):
    """The file cannot be read as UTF-8 TOML; the message names the line and the fix."""


def read_toml_file(path: Path) -> tuple[str, dict[str, Any]]:
    """The text (without a byte order mark) and the parsed TOML of ``path``.

    Raises :class:`TomlFileError` when the file cannot be read, is not UTF-8 (e.g. GBK), or is not TOML;
    a full-width or curly punctuation mark outside a string is named with its line, column and the
    ASCII character to type instead.
    """
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise TomlFileError(f"cannot read {path}: {exc.strerror}") from None
    if utf16 := _utf16(raw):
        raise TomlFileError(
            f"{path}: the file is saved as {utf16} (Windows Notepad calls it \"Unicode\"); a season file must be "
            "saved as UTF-8. In Notepad: File → Save As → Encoding: UTF-8; or convert it with "
            f"`iconv -f UTF-16 -t UTF-8 {path.name} > new.toml`"
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        guess = ""
        try:
            raw.decode("gb18030")
            guess = " (it looks like GBK/GB18030, the Chinese Windows default)"
        except UnicodeDecodeError:
            pass
        raise TomlFileError(
            f"{path} line {line}: the file is not UTF-8{guess}; a season file must be saved as UTF-8. "
            "In Notepad: File → Save As → Encoding: UTF-8; or convert it with "
            f"`iconv -f GB18030 -t UTF-8 {path.name} > new.toml`"
        ) from None
    text = text.removeprefix(BOM)
    try:
        return text, tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        found = first_lookalike(text)
        if found is not None:
            line, column, char = found
            what, fix = LOOKALIKES[char]
            typed = "replace it with an ordinary space" if fix.startswith("an ") else f"type {fix!r} instead"
            raise TomlFileError(
                f"{path} line {line}, column {column}: {what} {char!r} (U+{ord(char):04X}) outside quotes breaks "
                f"the TOML: {typed}, with the keyboard in English mode (e.g. players = [\"张三\", \"李四\"])"
            ) from None
        message = str(exc)
        # a list never closed is noticed lines later, on a line bad_value_message would wrongly blame
        advice = None if message.startswith(("Unclosed", "Cannot")) else bad_value_message(path, text, message)
        if advice:
            raise TomlFileError(advice) from None
        raise TomlFileError(f"{path} {syntax_message(text, message)}") from None


def _utf16(raw: bytes) -> str | None:
    """"UTF-16" when ``raw`` is UTF-16 text (with a byte order mark, or without one: zero bytes beside ASCII
    characters, as Notepad's "Unicode" writes), else None. TOML allows no zero byte, so UTF-8 text never
    looks like this."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "UTF-16"
    sample = raw[:1000]
    if sample.count(0) * 4 >= len(sample) > 0:
        return "UTF-16"
    return None


_STRING = re.compile(r'"""(?:\\.|[^\\])*?"""|\'\'\'.*?\'\'\'|"(?:\\.|[^"\\\n])*"|\'[^\'\n]*\'|#[^\n]*', re.DOTALL)


def first_lookalike(text: str) -> tuple[int, int, str] | None:
    """(line, column, character), 1-based, of the first :data:`LOOKALIKES` character outside strings and
    comments of ``text``, or None. A curly quotation mark counts even though it opens a "string"."""
    spans = [m.span() for m in _STRING.finditer(text)]
    covered: set[int] = set()
    for start, end in spans:
        covered.update(range(start, end))
    for index, char in enumerate(text):
        if char in LOOKALIKES and index not in covered:
            line = text.count("\n", 0, index) + 1
            column = index - (text.rfind("\n", 0, index) + 1) + 1
            return line, column, char
    return None


_AT = re.compile(r"\s*\(at line (\d+), column \d+\)$")
_BARE_KEY = r"(?:\"[^\"\n]*\"|'[^'\n]*'|[A-Za-z0-9_-]+)"
_KEY_LINE = re.compile(rf"^\s*({_BARE_KEY}(?:\s*\.\s*{_BARE_KEY})*)\s*=\s*(.*?)\s*(?:#.*)?$")
_TABLE_LINE = re.compile(rf"^\s*\[\[?\s*({_BARE_KEY}(?:\s*\.\s*{_BARE_KEY})*)\s*\]")
_DATE = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](.*))?$")
_TIME = re.compile(r"^(\d{1,2}):(\d{1,2})(?::(\d{1,2}))?(?:\.\d+)?$")


def bad_value_message(path: Path, text: str, error: str) -> str | None:
    """What to write instead, for a TOML ``error`` (tomllib's message, which ends "(at line N, column C)")
    on a ``key = value`` line of ``text``: "PATH line N: schedule.start: not a valid date-time: ...", with an
    example of a TOML date-time, date or time when the value looks like one (TOML has no date-time without
    seconds, and tomllib only says "Expected newline" after the part it could read), and otherwise that
    text goes in quotes. None when the error is not on a line with a key (a table header, inside a
    multi-line array) or the value is a list, table or string: the caller then gives tomllib's message."""
    m = _AT.search(error)
    if not m:
        return None
    number = int(m.group(1))
    lines = text.splitlines()
    if not 1 <= number <= len(lines):
        return None
    written = _KEY_LINE.match(lines[number - 1])
    if not written:
        return None
    table: list[str] = []
    for raw in lines[: number - 1]:
        if header := _TABLE_LINE.match(raw):
            table = _key_parts(header.group(1))
    key = ".".join(table + _key_parts(written.group(1)))
    leaf = _key_parts(written.group(1))[-1]
    value = written.group(2)
    if value[:1] in ("[", "{", '"', "'"):  # a list, table or string TOML could not read: its own message says why
        return None
    return f"{path} line {number}: {key}: {_value_advice(leaf, value)}"


def _key_parts(dotted: str) -> list[str]:
    return [p.strip().strip("\"'") for p in re.findall(_BARE_KEY, dotted)]


def _value_advice(leaf: str, value: str) -> str:
    """Why ``value`` (as written after ``leaf =``) is not TOML and what to write instead."""
    date = _DATE.match(value)
    if date:
        year, month, day, clock = date.groups()
        problem = _date_problem(int(year), int(month), int(day)) or (
            "month and day take two digits each" if len(month) < 2 or len(day) < 2 else None)
        if clock is not None or leaf == "start":
            problem = problem or (_time_problem(clock) if clock is not None else "the time of day is missing")
            return (f"not a valid date-time{f' ({problem})' if problem else ''}: write e.g. {leaf} = 2026-12-03T20:00:00 "
                    "(year-month-day, T, hours:minutes:seconds, no quotes)")
        return f"not a valid date{f' ({problem})' if problem else ''}: write e.g. {leaf} = 2026-12-03 (no quotes)"
    if _TIME.match(value) or re.match(r"^\d{1,2}:\d", value):
        problem = _time_problem(value)
        return (f"not a valid time{f' ({problem})' if problem else ''}: write e.g. {leaf} = 22:00:00 "
                "(hours:minutes:seconds, no quotes)")
    if value.lower() in _BOOL_WORDS or value in _BOOL_WORDS:
        return f"{value!r} is not true or false as TOML writes them: write {leaf} = true or {leaf} = false (lower case, no quotes)"
    return f"{value!r} is not a TOML value: text goes in quotes, e.g. {leaf} = \"...\""


#: how people write yes and no where TOML wants true or false (True, 否, ...)
_BOOL_WORDS = {"true", "false", "yes", "no", "on", "off", "是", "否", "真", "假", "对", "錯", "错", "對", "开", "关", "開", "關"}


def _date_problem(year: int, month: int, day: int) -> str | None:
    from datetime import date

    if not 1 <= month <= 12:
        return f"there is no month {month}"
    try:
        date(year, month, day)
    except ValueError:
        return f"{year}-{month:02d} has no day {day}"
    return None


def _time_problem(clock: str) -> str | None:
    m = _TIME.match(clock.strip())
    if not m:
        return None
    hours, minutes, seconds = m.groups()
    if int(hours) > 23:
        return f"there is no hour {hours}: hours go from 00 to 23"
    if int(minutes) > 59 or (seconds is not None and int(seconds) > 59):
        return "minutes and seconds go from 00 to 59"
    if seconds is None:
        return "the seconds are missing"
    if len(hours) < 2 or len(minutes) < 2:
        return "hours, minutes and seconds take two digits each"
    return None
