"""What ``forumbot init`` asks the organiser, and how the answers go into the commented example season file.

Each question has a default (the example's value, or the option given on the command line); an answer is
checked when it is given (a time zone that does not exist, a phase length that is no duration, a URL without
http://) and asked again. The answers are written into the example with tomlkit, which keeps its comments: the
new file explains every key as the example does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import time
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import tomlkit

from forumbot.language.numbers import parse_duration

ENGINES = ("flaskbb", "discuz", "nodebb", "phpbb")
LOCALES = ("zh-Hans", "zh-Hant", "en")
#: answers that mean "none" for an optional value (a thread id, a daily deadline)
NONE_WORDS = {"", "none", "no", "-", "无", "無"}


class BadAnswer(ValueError):
    """An answer that cannot go into the season file; its text says what to write instead."""


def names(text: str) -> list[str]:
    """Forum user names from one answer: separated by commas (also ，、;；), spaces around each removed,
    each once; e.g. "张三，李四, 王五" -> ["张三", "李四", "王五"]."""
    out: list[str] = []
    for part in re.split(r"[,，、;；]", text):
        name = part.strip()
        if name and name not in out:
            out.append(name)
    return out


def zone(text: str) -> str:
    """A time zone name (IANA, e.g. Asia/Shanghai)."""
    text = text.strip()
    try:
        ZoneInfo(text)
    except (ZoneInfoNotFoundError, ValueError):
        raise BadAnswer(f"{text!r} is not a time zone name; write e.g. Asia/Shanghai, Asia/Taipei, Europe/London") from None
    return text


def duration(text: str) -> str:
    """A phase length such as 24h, 90m or 1d12h."""
    text = text.strip()
    try:
        if parse_duration(text).total_seconds() <= 0:
            raise ValueError
    except ValueError:
        raise BadAnswer(f"{text!r} is not a phase length; write e.g. 24h, 20h or 90m") from None
    return text


def clock_time(text: str) -> time | None:
    """A daily deadline HH:MM (local time in the season's zone), or None for "none"."""
    text = text.strip()
    if text.lower() in NONE_WORDS:
        return None
    m = re.fullmatch(r"(\d{1,2})[:：](\d\d)(?:[:：](\d\d))?", text)
    if not m or int(m[1]) > 23 or int(m[2]) > 59:
        raise BadAnswer(f"{text!r} is not a time of day; write e.g. 22:00, or none for deadlines by phase length only")
    return time(int(m[1]), int(m[2]), int(m[3] or 0))


def url(text: str) -> str:
    """The forum's address, http:// or https://, without a trailing slash."""
    text = text.strip().rstrip("/")
    if not re.fullmatch(r"https?://[^\s/]+(/\S*)?", text):
        raise BadAnswer(f"{text!r} is not a forum address; write it as in the browser, e.g. https://bbs.example.com")
    return text


def optional_id(text: str) -> int | None:
    """A thread or board id (a whole number), or None for "none"."""
    text = text.strip()
    if text.lower() in NONE_WORDS:
        return None
    if not text.isdigit() or int(text) <= 0:
        raise BadAnswer(f"{text!r} is not an id; write the number from the thread's or board's address, or none")
    return int(text)


def choice(options: tuple[str, ...]):
    """A checker of one of ``options``."""
    def check(text: str) -> str:
        text = text.strip()
        if text not in options:
            raise BadAnswer(f"{text!r}: write one of {', '.join(options)}")
        return text
    return check


def non_empty(text: str) -> str:
    """Any text but an empty one."""
    if not text.strip():
        raise BadAnswer("write something here")
    return text.strip()


@dataclass(frozen=True)
class Question:
    """One question of ``init``: ``key`` (the option's name, ``--`` + key with dashes), the ``prompt`` shown and
    the ``check`` of an answer (text -> value, raising :class:`BadAnswer`); :func:`shown` writes a default."""

    key: str
    prompt: str
    check: Any


QUESTIONS = [
    Question("name", "Season name (shown in every private message subject)", non_empty),
    Question("locale", f"Language of the posts and private messages ({', '.join(LOCALES)})", choice(LOCALES)),
    Question("players", "Players' forum user names, in seat order, separated by commas", names),
    Question("organisers", "Organisers' forum user names (their private messages are organiser commands), "
                           "separated by commas", names),
    Question("timezone", "Time zone of the deadlines", zone),
    Question("phase_length", "Phase length (a phase whose kind has no length of its own)", duration),
    Question("daily_deadline", "Daily deadline, local time (none: each phase ends its length after it opens)", clock_time),
    Question("forum_engine", f"Forum engine ({', '.join(ENGINES)})", choice(ENGINES)),
    Question("forum_url", "Forum address", url),
    Question("judge", "The judge's forum account (the bot posts as it)", non_empty),
    Question("thread_id", "Game thread id (none: the bot opens the thread)", optional_id),
    Question("forum_id", "Board id where the bot opens the game thread", optional_id),
]


def defaults(doc: tomlkit.TOMLDocument) -> dict[str, Any]:
    """The example's value of each question (what Enter keeps)."""
    forum = doc.get("forum", {})
    schedule = doc.get("schedule", {})
    deadline = schedule.get("daily_deadline")
    return {
        "name": str(doc.get("name", "")), "locale": str(doc.get("locale", "zh-Hans")),
        "players": [str(p) for p in doc.get("players", [])], "organisers": [str(o) for o in doc.get("organisers", [])],
        "timezone": str(doc.get("time_zone", "Asia/Shanghai")), "phase_length": str(schedule.get("default", "24h")),
        "daily_deadline": time.fromisoformat(str(deadline)) if deadline is not None else None,
        "forum_engine": str(forum.get("engine", "flaskbb")), "forum_url": str(forum.get("base_url", "")),
        "judge": str(forum.get("username", "")), "thread_id": forum.get("thread_id"), "forum_id": forum.get("forum_id"),
    }


def shown(value: Any) -> str:
    """A value as the default of a prompt (and as an answer would write it)."""
    if value is None:
        return "none"
    if isinstance(value, list):
        return ", ".join(value)
    if isinstance(value, time):
        return value.strftime("%H:%M") if not value.second else value.isoformat()
    return str(value)


def apply(doc: tomlkit.TOMLDocument, answers: dict[str, Any]) -> None:
    """Write ``answers`` (question key -> checked value) into the example ``doc``, its comments kept. Example
    names the new roster lacks go with it (an alias of a player who is not in the season is a mistake); a
    changed forum engine drops the example's write spacing (each engine has its own default)."""
    doc["name"] = answers["name"]
    doc["locale"] = answers["locale"]
    doc["time_zone"] = answers["timezone"]
    doc["players"] = _array(answers["players"])
    doc["organisers"] = _array(answers["organisers"])
    if "aliases" in doc:
        aliases = doc["aliases"]
        for name in [n for n in aliases if n not in answers["players"]]:
            del aliases[name]
    forum = doc["forum"]
    if forum.get("engine") != answers["forum_engine"] and "min_write_interval_seconds" in forum:
        del forum["min_write_interval_seconds"]
    forum["engine"] = answers["forum_engine"]
    forum["base_url"] = answers["forum_url"]
    forum["username"] = answers["judge"]
    for key in ("thread_id", "forum_id"):
        if answers[key] is None:
            if key in forum:
                del forum[key]
        elif key in forum:  # a new one is written by render: tomlkit appends it after the next table's comments
            forum[key] = answers[key]
    schedule = doc.setdefault("schedule", tomlkit.table())
    schedule["default"] = answers["phase_length"]
    if answers["daily_deadline"] is None:
        if "daily_deadline" in schedule:
            del schedule["daily_deadline"]
    else:
        schedule["daily_deadline"] = answers["daily_deadline"]


PLAYERS_COMMENT = ("# The players' forum user names, in seat order (seat 1 first); the ruleset deals the roles for "
                   "their number.\n")


def render(doc: tomlkit.TOMLDocument, answers: dict[str, Any], example: dict[str, Any]) -> str:
    """The text of ``doc`` after :func:`apply`: a thread or board id the example lacks is written on the line
    where the example has it commented out ("# thread_id = 12", its comment kept), else after ``username``;
    with another roster than the ``example``'s (:func:`defaults`), the comment above ``players`` that counted the
    example's players ("# 14 players: 3 killers, …") says what the list is instead."""
    text = doc.as_string()
    if answers["players"] != example["players"]:
        text = re.sub(r"(?:^#[^\n]*\n)+(?=players = )", PLAYERS_COMMENT, text, count=1, flags=re.MULTILINE)
    for key in ("thread_id", "forum_id"):
        if answers[key] is None or re.search(rf"^{key} = ", text, flags=re.MULTILINE):
            continue
        line = f"{key} = {answers[key]}"
        if re.search(rf"^# {key} = \d+", text, flags=re.MULTILINE):
            text = re.sub(rf"^# {key} = \d+", line, text, count=1, flags=re.MULTILINE)
        else:  # after the judge's account, in [forum]
            text = re.sub(r"^(username = .*)$", r"\g<1>\n" + line, text, count=1, flags=re.MULTILINE)
    return text


def _array(items: list[str]) -> Any:
    """A TOML array of ``items``, one line when short, else several names a line (as the examples are)."""
    array = tomlkit.array()
    array.extend(items)
    if len(", ".join(items)) > 70:
        array.multiline(True)
    return array
