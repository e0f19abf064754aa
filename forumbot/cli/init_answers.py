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
    """An answer that cannot go into the season file; its text says what to write instead. ``suggestion``: the
    answer it most likely meant (a city's time zone), offered as the default when the question is asked again."""

    def __init__(self, message: str, suggestion: str | None = None) -> None:
        super().__init__(message)
        self.suggestion = suggestion


def names(text: str) -> list[str]:
    """Forum user names from one answer: separated by commas (also ，、;；), spaces around each removed,
    each once; e.g. "张三，李四, 王五" -> ["张三", "李四", "王五"]."""
    out: list[str] = []
    for part in re.split(r"[,，、;；]", text):
        name = part.strip()
        if name and name not in out:
            out.append(name)
    return out


#: places an organiser may write for a time zone, and their zone (suggested, not taken: a place is not a zone name)
PLACES = {
    **dict.fromkeys(("北京", "北京时间", "北京時間", "beijing", "peking", "上海", "中国", "中國", "china"), "Asia/Shanghai"),
    **dict.fromkeys(("台北", "臺北", "台湾", "臺灣", "台灣", "taiwan", "taipei"), "Asia/Taipei"),
    **dict.fromkeys(("香港", "hong kong", "hongkong"), "Asia/Hong_Kong"),
    **dict.fromkeys(("澳门", "澳門", "macau", "macao"), "Asia/Macau"),
    **dict.fromkeys(("新加坡", "singapore"), "Asia/Singapore"),
    **dict.fromkeys(("东京", "東京", "日本", "tokyo", "japan"), "Asia/Tokyo"),
    **dict.fromkeys(("伦敦", "倫敦", "london", "uk"), "Europe/London"),
    **dict.fromkeys(("纽约", "紐約", "new york"), "America/New_York"),
}
_OFFSET = re.compile(r"(?:utc|gmt)\s*([+\-−])\s*(\d{1,2})(?::?00)?", re.IGNORECASE)


def names_or_none(text: str) -> list[str]:
    """:func:`names`, or none at all for "none" (无): a season may have no organiser accounts."""
    return [] if text.strip().lower() in NONE_WORDS else names(text)


def zone(text: str) -> str:
    """A time zone name (IANA, e.g. Asia/Shanghai; any case). A fixed offset "UTC+8" / "GMT+8" is taken as the
    zone database writes it, Etc/GMT-8 (its sign reversed: POSIX), UTC+0 as UTC. A place ("北京", "Beijing",
    "Shanghai") is refused with its zone as :attr:`BadAnswer.suggestion`."""
    import zoneinfo

    text = text.strip()
    try:
        ZoneInfo(text)
        return text
    except (ZoneInfoNotFoundError, ValueError):
        pass
    if m := _OFFSET.fullmatch(text):
        hours = int(m[2]) * (-1 if m[1] in "-−" else 1)
        if -12 <= hours <= 14:
            return "UTC" if hours == 0 else f"Etc/GMT{-hours:+d}"
    names = {n.lower(): n for n in zoneinfo.available_timezones()}
    key = text.lower()
    if key in names:
        return names[key]
    place = PLACES.get(key) or next((n for n in sorted(names.values()) if n.lower().rsplit("/", 1)[-1] == key.replace(" ", "_")),
                                    None)
    if place:
        raise BadAnswer(f"{text!r} is a place, not a time zone name: its time zone is {place}", place)
    raise BadAnswer(f"{text!r} is not a time zone name; write e.g. Asia/Shanghai (北京时间), Asia/Taipei, Europe/London, "
                    "or UTC+8") from None


def offset_note(name: str) -> str | None:
    """What a fixed-offset zone written by :func:`zone` means (Etc/GMT-8 reads as the opposite), else None."""
    m = re.fullmatch(r"Etc/GMT([+-])(\d+)", name)
    if not m:
        return None
    utc = f"UTC{'-' if m[1] == '+' else '+'}{m[2]}"
    return (f"time zone {utc} is written {name} in the file (the zone database reverses the sign): a fixed offset, "
            "with no summer time")


def duration(text: str) -> str:
    """A phase length such as 24h, 90m or 1d12h."""
    text = text.strip()
    try:
        if parse_duration(text).total_seconds() <= 0:
            raise ValueError
    except ValueError:
        raise BadAnswer(f"{text!r} is not a phase length; write e.g. 24h, 20h or 90m") from None
    return text


_CN_TIME = re.compile(r"(凌晨|早上|早晨|上午|中午|下午|傍晚|晚上|夜里|夜裡|晚)?\s*(\d{1,2}|[〇零一二两三四五六七八九十]{1,3})\s*[点點时時]"
                      r"\s*(?:(半)|(\d{1,2}|[〇零一二两三四五六七八九十]{1,3})\s*分?)?\s*(?:整|钟|鐘)?")
_AM_PM = re.compile(r"(\d{1,2})(?:[:：.](\d\d))?\s*([ap])\.?m\.?", re.IGNORECASE)


def clock_time(text: str) -> time | None:
    """A daily deadline (local time in the season's zone), or None for "none": 22:00 (also 22：00), 10pm,
    晚上10点, 下午3点半, 22点30分."""
    from forumbot.language.numbers import to_int

    text = text.strip()
    if text.lower() in NONE_WORDS:
        return None
    hour = minute = second = None
    if m := re.fullmatch(r"(\d{1,2})[:：](\d\d)(?:[:：](\d\d))?", text):
        hour, minute, second = int(m[1]), int(m[2]), int(m[3] or 0)
    elif m := _AM_PM.fullmatch(text):
        hour, minute, second = int(m[1]) % 12 + (12 if m[3].lower() == "p" else 0), int(m[2] or 0), 0
        if int(m[1]) > 12:
            hour = None
    elif m := _CN_TIME.fullmatch(text):
        hour, minute, second = to_int(m[2]), 30 if m[3] else (to_int(m[4]) if m[4] else 0), 0
        if hour is not None and m[1] in ("下午", "傍晚", "晚上", "夜里", "夜裡", "晚") and 1 <= hour < 12:
            hour += 12
        elif hour == 12 and m[1] in ("凌晨", "晚上", "夜里", "夜裡"):
            hour = 0
    if hour is None or minute is None or hour > 23 or minute > 59 or (second or 0) > 59:
        raise BadAnswer(f"{text!r} is not a time of day; write e.g. 22:00 (or 晚上10点), or none for deadlines by "
                        "phase length only")
    return time(hour, minute, second or 0)


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


def choice(options: tuple[str, ...], aliases: dict[str, str] | None = None, unclear: dict[str, str] | None = None):
    """A checker of one of ``options``, in any case; ``aliases`` maps other words (lower case) to an option
    (a game's Chinese name to its ruleset), ``unclear`` words (lower case) to what to write instead."""
    lower = {o.lower(): o for o in options}
    more = {k.lower(): v for k, v in (aliases or {}).items()}

    def check(text: str) -> str:
        text = text.strip()
        key = text.lower()
        if key in lower:
            return lower[key]
        if key in more:
            return more[key]
        if unclear and key in unclear:
            raise BadAnswer(f"{text!r}: {unclear[key]}")
        raise BadAnswer(f"{text!r}: write one of {', '.join(options)}")
    return check


#: each ruleset's game as organisers call it (shown with the question, and taken as an answer)
RULESET_NAMES = {
    "sunlight": ("阳光下的罪恶", "陽光下的罪惡", "版杀21", "版殺21"),
    "killer_club": ("杀人游戏", "殺人遊戲", "俱乐部杀人游戏", "俱樂部殺人遊戲"),
    "vampire_village": ("吸血鬼村庄", "吸血鬼村莊"),
    "human_kill": ("人类杀", "人類殺"),
    "interview_vampire": ("夜访吸血鬼", "夜訪吸血鬼"),
}


def ruleset_choice(ids: tuple[str, ...]):
    """The checker of the ruleset question: an id, or its game's name (:data:`RULESET_NAMES`)."""
    return choice(ids, {name: rid for rid, names_ in RULESET_NAMES.items() if rid in ids for name in names_})


def ruleset_list(ids: tuple[str, ...]) -> str:
    """The rulesets with their games' names, e.g. "sunlight = 阳光下的罪恶, killer_club = 杀人游戏, …"."""
    return ", ".join(f"{rid} = {RULESET_NAMES[rid][0]}" if rid in RULESET_NAMES else rid for rid in ids)


LOCALE_WORDS = {
    **dict.fromkeys(("简体", "简体中文", "簡體", "簡體中文", "简中", "simplified", "simplified chinese", "zh-cn", "zh_cn"),
                    "zh-Hans"),
    **dict.fromkeys(("繁体", "繁体中文", "繁體", "繁體中文", "繁中", "traditional", "traditional chinese", "zh-tw", "zh_tw",
                     "zh-hk"), "zh-Hant"),
    **dict.fromkeys(("english", "英文", "英语", "英語"), "en"),
}
LOCALE_UNCLEAR = dict.fromkeys(("中文", "chinese", "zh", "汉语", "漢語"),
                               "simplified (zh-Hans, 简体) or traditional (zh-Hant, 繁體) Chinese? write zh-Hans or zh-Hant")
ENGINE_WORDS = {"discuz!": "discuz", "discuz! x3.4": "discuz", "discuz! x3.5": "discuz", "discuz x3.4": "discuz",
                "discuz x3.5": "discuz", "phpbb3": "phpbb", "phpbb 3": "phpbb", "phpbb 3.3": "phpbb", "nodebb 4": "nodebb"}


def roster(minimum: int):
    """The checker of the players' question: :func:`names`, at least ``minimum`` of them (the ruleset's
    smallest game), so that a short roster is asked again rather than refused once every question is answered."""
    def check(text: str) -> list[str]:
        found = names(text)
        if len(found) < minimum:
            spaced = len(found) == 1 and re.search(r"\s", found[0])
            raise BadAnswer(f"{len(found)} name{'s' * (len(found) != 1)}: this ruleset needs at least {minimum} players"
                            + ("; separate the names by commas (张三，李四，王五)" if spaced else ""))
        return found
    return check


def judge_of(players: list[str]):
    """The checker of the judge's account: any name but a player's (the bot cannot judge and play)."""
    def check(text: str) -> str:
        name = non_empty(text)
        if name in players:
            raise BadAnswer(f"{name!r} plays in this season: the judge needs a forum account of its own")
        return name
    return check


def board_for(thread_id: int | None):
    """The checker of the board id: without a game thread (``thread_id`` None) the bot opens one there, so a
    board id is needed."""
    def check(text: str) -> int | None:
        board = optional_id(text)
        if board is None and thread_id is None:
            raise BadAnswer("without a game thread the bot opens one in a board: write the board's id (the number in "
                            "its address), or give the thread's id to the question before")
        return board
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
    Question("locale", f"Language of the posts and private messages ({', '.join(LOCALES)})",
             choice(LOCALES, LOCALE_WORDS, LOCALE_UNCLEAR)),
    Question("players", "Players' forum user names, in seat order, separated by commas", names),
    Question("organisers", "Organisers' forum user names (their private messages are organiser commands), "
                           "separated by commas, or none", names_or_none),
    Question("timezone", "Time zone of the deadlines (e.g. Asia/Shanghai, Asia/Taipei, UTC+8)", zone),
    Question("phase_length", "Phase length (a phase whose kind has no length of its own)", duration),
    Question("daily_deadline", "Daily deadline, local time (none: each phase ends its length after it opens)", clock_time),
    Question("forum_engine", f"Forum engine ({', '.join(ENGINES)})", choice(ENGINES, ENGINE_WORDS)),
    Question("forum_url", "Forum address", url),
    Question("judge", "The judge's forum account (the bot posts as it)", non_empty),
    Question("thread_id", "Game thread id (none: the bot opens the thread)", optional_id),
    Question("forum_id", "Board id where the bot opens the game thread", optional_id),
]


def prompt_of(question: Question, doc: tomlkit.TOMLDocument) -> str:
    """The prompt of ``question`` for the example ``doc`` (the phase lengths' names how an answer is written)."""
    if question.key != "phase_length" or not doc.get("schedule", {}).get("lengths"):
        return question.prompt
    return ("Phase lengths, kind by kind (e.g. vote 24h, kill 12h; one length alone, e.g. 24h, sets every phase but "
            "the short windows of exact_kinds)")


def lengths(kinds: tuple[str, ...], exact: list[str], current: dict[str, str]):
    """The checker of the phase lengths' answer, for a ruleset opening phases of ``kinds``, whose file keeps
    ``current`` (kind -> length, "default": the length of a kind not listed) and ends the ``exact`` kinds
    exactly their length after opening (short windows: a run-off, a poll). "vote 24h, kill 12h" (also
    ``vote=24h``, ``vote: 24h``) changes those kinds; one length alone ("24h") changes the default and every
    kind but the exact ones. Returns the lengths to write (kind or "default" -> length)."""
    def check(text: str) -> dict[str, str]:
        text = text.strip()
        parts = [p.strip() for p in re.split(r"[,，、;；]", text) if p.strip()]
        if len(parts) == 1 and not re.match(r"[a-z_]+\s*[=:：\s]", parts[0]):
            length = duration(parts[0])
            return {"default": length, **{k: length for k in current if k != "default" and k not in exact}}
        out: dict[str, str] = {}
        for part in parts:
            m = re.fullmatch(r"([a-z_]+)\s*[=:：]?\s*(\S+)", part)
            if m and m[1] in ("others", "default"):  # as the default is shown: "..., others 12h"
                out["default"] = duration(m[2])
                continue
            if not m or m[1] not in kinds:
                raise BadAnswer(f"{part!r}: write a kind and its length, e.g. {kinds[-1]} 24h (kinds: {', '.join(kinds)}), "
                                "or one length alone for every phase")
            out[m[1]] = duration(m[2])
        return out
    return check


def phase_lengths(doc: tomlkit.TOMLDocument) -> dict[str, str]:
    """The example's phase lengths: kind -> length, and "default" for a kind not listed."""
    schedule = doc.get("schedule", {})
    return {"default": str(schedule.get("default", "24h")), **{k: str(v) for k, v in schedule.get("lengths", {}).items()}}


def defaults(doc: tomlkit.TOMLDocument) -> dict[str, Any]:
    """The example's value of each question (what Enter keeps)."""
    forum = doc.get("forum", {})
    schedule = doc.get("schedule", {})
    deadline = schedule.get("daily_deadline")
    return {
        "name": str(doc.get("name", "")), "locale": str(doc.get("locale", "zh-Hans")),
        "players": [str(p) for p in doc.get("players", [])], "organisers": [str(o) for o in doc.get("organisers", [])],
        "timezone": str(doc.get("time_zone", "Asia/Shanghai")), "phase_length": phase_lengths(doc),
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
    if isinstance(value, dict):  # phase lengths: the default is shown when some kind has no length of its own
        kinds = {k: v for k, v in value.items() if k != "default"}
        if not kinds:
            return str(value.get("default", ""))
        return ", ".join(f"{k} {v}" for k, v in kinds.items()) + (f", others {value['default']}" if "default" in value else "")
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
    for kind, length in answers["phase_length"].items():
        if kind == "default":
            schedule["default"] = length
        else:
            schedule.setdefault("lengths", tomlkit.table())[kind] = length
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
