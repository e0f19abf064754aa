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


#: an opening lookalike and its closing one: a pair on one line is told once
_PAIRS = {"“": "”", "‘": "’", "【": "】", "［": "］", "｛": "｝"}


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
        found = all_lookalikes(text)
        if found:
            # every one at once: they are typed with one keyboard mode, so a file rarely holds just one
            told: dict[tuple[int, str], list[int]] = {}  # one line per character and line: "22：00：00" is one slip
            for line, column, char in found:
                told.setdefault((line, char), []).append(column)
            raise TomlFileError("\n".join(_lookalike_message(path, line, columns, char)
                                          for (line, char), columns in told.items())) from None
        message = str(exc)
        # a list never closed is noticed lines later, on a line bad_value_message would wrongly blame
        advice = None if message.startswith(("Unclosed", "Cannot")) else bad_value_message(path, text, message)
        if advice:
            raise TomlFileError(advice) from None
        raise TomlFileError(f"{path} {syntax_message(text, message)}") from None


def _lookalike_message(path: Path, line: int, columns: list[int], char: str) -> str:
    what, fix = LOOKALIKES[char]
    column = ", ".join(map(str, columns[:-1])) + f" and {columns[-1]}" if len(columns) > 1 else str(columns[0])
    if len(columns) > 1:
        what = what.removeprefix("an ").removeprefix("a ") + "s"
    typed = "replace it with an ordinary space" if fix.startswith("an ") else f"type {fix!r} instead"
    if len(columns) > 1:
        typed = typed.replace(" it ", " each ").replace("type ", "type each ", 1) if not fix.startswith("an ") else \
            "replace each with an ordinary space"
    if char in _PAIRS:
        typed += f" (and {LOOKALIKES[_PAIRS[char]][1]!r} for its closing {_PAIRS[char]!r})"
    return (f"{path} line {line}, column{'s' if len(columns) > 1 else ''} {column}: {what} {char!r} (U+{ord(char):04X}) outside quotes break{'' if len(columns) > 1 else 's'} "
            f"the TOML: {typed}, with the keyboard in English mode (e.g. players = [\"张三\", \"李四\"])")


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
    found = all_lookalikes(text, 1)
    return found[0] if found else None


def all_lookalikes(text: str, limit: int = 20) -> list[tuple[int, int, str]]:
    """(line, column, character), 1-based, of each :data:`LOOKALIKES` character outside strings and comments
    of ``text``, the first ``limit`` of them; a pair of curly quotation marks counts once (the opening one)."""
    spans = [m.span() for m in _STRING.finditer(text)]
    covered: set[int] = set()
    for start, end in spans:
        covered.update(range(start, end))
    found: list[tuple[int, int, str]] = []
    for index, char in enumerate(text):
        if char in LOOKALIKES and index not in covered:
            line = text.count("\n", 0, index) + 1
            if found and found[-1][0] == line and _PAIRS.get(found[-1][2]) == char:
                continue  # the close of a “...” or 【...】 whose opening is told, with it
            column = index - (text.rfind("\n", 0, index) + 1) + 1
            found.append((line, column, char))
            if len(found) >= limit:
                break
    return found


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
    if percent := re.fullmatch(r"(\d+(?:\.\d+)?)\s*[%％]", value):
        return f"a percentage is written as a fraction, without %: {leaf} = {float(percent.group(1)) / 100:g}"
    if re.match(r"^\d{4}\s*[/年.]\s*\d{1,2}", value):
        return (f"not a valid date-time: write e.g. {leaf} = 2026-12-03T20:00:00 (year-month-day with '-', T, "
                "hours:minutes:seconds, no quotes)")
    if re.match(r"^\d{1,2}\s*[点點时時]", value) or re.match(r"^(?:晚上|下午|上午|早上|中午|凌晨)", value):
        return f"not a valid time: write e.g. {leaf} = 22:00:00 (hours:minutes:seconds on the 24-hour clock, no quotes)"
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
