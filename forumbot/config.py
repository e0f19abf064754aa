"""The season config: one TOML file per season, validated with pydantic.

See ``forumbot/config_examples/sunlight.example.toml`` for a commented example and ``docs/config.md`` for every key.
Errors name the key, the line and what is allowed (:class:`ConfigError`); the forum password is never
in this file (``[forum]`` names an environment variable or a secrets file).
"""

from __future__ import annotations

import re
import unicodedata
from datetime import datetime, time, timedelta
from pathlib import Path
from typing import Annotated, Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from forumbot.config_messages import locate, name_list_problems
from forumbot.config_warnings import season_warnings
from forumbot.engine.game import Game, Setup, SetupError
from forumbot.forums.settings import ForumSettings
from forumbot.language.numbers import parse_duration
from forumbot.tomlfile import TomlFileError, read_toml_file

DEFAULT_MARKUP = {"flaskbb": "markdown", "discourse": "markdown", "nodebb": "markdown", "discuz": "bbcode", "phpbb": "bbcode"}


class ConfigError(ValueError):
    """The season file cannot be used; the message says where and what is allowed."""


def _duration_text(text: str) -> str:
    checked_duration(text)
    return text


def checked_duration(text: str) -> timedelta:
    """``text`` read by :func:`parse_duration`; its ValueError says, where a person's way of writing a
    duration is recognised, what to write instead: "1h30" -> "1h30m", "24" -> "24h"."""
    try:
        return parse_duration(text)
    except ValueError as exc:
        written = text.strip()
        if re.fullmatch(r"\d+", written):
            raise ValueError(f"{text!r} has no unit: write e.g. \"{written}h\" (h hours, m minutes, s seconds, "
                             "d days)") from None
        if m := re.fullmatch(r"(\d+)\s*h\s*(\d+)", written, flags=re.IGNORECASE):
            raise ValueError(f"{text!r}: the minutes need their unit too: write \"{m.group(1)}h{m.group(2)}m\"") from None
        raise exc from None


def _not_a_number(value: Any, example: str) -> Any:
    """``value`` unless it is a number (pydantic would read 22 as 22 seconds past midnight, or as a Unix
    time): a time or date-time is written as one."""
    if isinstance(value, int | float):
        shown = str(value).lower()
        raise ValueError(f"{shown} is a number, not a time: write e.g. {example} (no quotes)")
    return value


# A duration such as "24h"; checked where it is written, so that an error names its key (schedule.lengths.night).
DurationText = Annotated[str, AfterValidator(_duration_text)]


class Schedule(BaseModel):
    """When phases open and close. Durations are strings such as "24h", "30m", "5s"."""

    model_config = ConfigDict(extra="forbid")
    start: datetime | None = Field(None, description="when the prologue opens, local time of the season's zone; none: when `run` first starts")
    default: str = Field("24h", description="length of a phase whose kind has no entry in lengths")
    lengths: dict[str, DurationText] = Field(default_factory=dict, description="phase kind -> length (prologue, vote, kill, poll, night, ...)")
    daily_deadline: time | None = Field(None, description="phases end at this local time, at least their length after opening")
    exact_kinds: list[str] = Field(default_factory=lambda: ["poll"], description="phase kinds that end exactly their length after opening, whatever daily_deadline says")
    reminders: list[str] = Field(default_factory=lambda: ["1h"], description="remind players who have not acted, this long before a deadline")
    vote_count_every: int = Field(3, ge=0, description="where votes are cast in the thread: post the running vote count after every this many new votes (0: never)")
    vote_count_before: list[str] = Field(default_factory=lambda: ["12h", "1h"], description="where votes are cast in the thread: post the running vote count this long before the deadline")
    vote_count_edit: bool = Field(True, description="later vote counts of a vote edit its first count post in place instead of posting anew")
    poll_interval: str = Field("60s", description="how often the forum is read")
    grace: str = Field("5s", description="how long after a deadline the forum is read once more before the phase closes")
    outage: str = Field("10m", description="a deadline handled later than this (the bot or forum was down) opens the next phase when it is handled")
    post_delay: str = Field("30s", description="no longer used (accepted so that older season files load): every phase's deadline is counted from the instant its opening post reached the forum (docs/runtime.md)")
    straddling: Literal["late", "on_time"] = Field("late", description="a message whose possible sending times straddle a deadline (the forum shows only a relative time such as 「2 分钟前」): late counts it only when the forum's own time proves it on time; on_time gives the sender the benefit of the doubt. Either way `status` lists it")

    @field_validator("default", "poll_interval", "grace", "outage", "post_delay")
    @classmethod
    def _duration(cls, v: str) -> str:
        checked_duration(v)
        return v

    @field_validator("reminders", "vote_count_before")
    @classmethod
    def _reminders(cls, v: list[str]) -> list[str]:
        for text in v:
            checked_duration(text)
        return v

    @field_validator("start", mode="before")
    @classmethod
    def _start_written(cls, v: Any) -> Any:
        return _not_a_number(v, "start = 2026-12-03T20:00:00")

    @field_validator("daily_deadline", mode="before")
    @classmethod
    def _deadline_written(cls, v: Any) -> Any:
        return _not_a_number(v, "daily_deadline = 22:00:00")

    def length(self, kind: str) -> timedelta:
        """The length of a phase of ``kind``."""
        return parse_duration(self.lengths.get(kind, self.default))

    def daily_at(self, kind: str) -> time | None:
        """The local time a phase of ``kind`` ends at, if deadlines are daily for it."""
        return None if kind in self.exact_kinds else self.daily_deadline

    def reminder_offsets(self) -> list[timedelta]:
        """Reminder offsets before a deadline, longest first."""
        return sorted((parse_duration(r) for r in self.reminders), reverse=True)


class SeasonConfig(BaseModel):
    """One season. ``path`` is where it was read from (relative paths are resolved from its folder)."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, description="the season's name; also its key in the database")
    ruleset: str
    params: dict[str, Any] = Field(default_factory=dict)
    locale: Literal["zh-Hans", "zh-Hant", "en"] = "zh-Hans"
    markup: Literal["bbcode", "markdown"] | None = None
    time_zone: str = "Asia/Shanghai"
    seed: int | str | None = None
    organisers: list[str] = Field(default_factory=list)
    players: list[str] = Field(min_length=1)
    aliases: dict[str, list[str]] = Field(default_factory=dict)
    roles: dict[str, str] | None = Field(None, description="a fixed draw (tests and demos); none: seeded draw")
    templates: str | None = None
    database: str | None = None
    forum: ForumSettings
    thread_subject: str | None = None
    thread_marks: list[Literal["line", "hash", "bang", "slash", "bold", "bracket", "tag", "clause"]] | None = Field(
        None, description="what makes a line of a thread post a command (docs/commands.md); none: the locale's default")
    schedule: Schedule = Field(default_factory=Schedule)
    vote_chart_images: bool = Field(
        False, description="attach a PNG chart of each vote round (who voted whom, totals, who did not vote) to its "
        "result post, where the forum takes images with a post (Discuz!: attachments); elsewhere the text only")
    time_zone_label: str | None = Field(
        None, description="the words after every time the bot writes (「东八区」); \"offset\": always the UTC offset "
        "(UTC+8); none: the locale's name of time_zone (北京时间, 台北時間, Beijing time), else its UTC offset")
    path: Path | None = Field(None, exclude=True)
    _warnings: list[str] = PrivateAttr(default_factory=list)

    @property
    def warnings(self) -> list[str]:
        """What :func:`load_config` found legal but likely wrong in the file, one message each ("key: ...")."""
        return self._warnings

    @field_validator("time_zone")
    @classmethod
    def _zone(cls, v: str) -> str:
        try:
            ZoneInfo(v)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(f"{v!r} is not a time zone name; " + _zone_advice(v)) from None
        return v

    @field_validator("players")
    @classmethod
    def _player_names(cls, v: list[str]) -> list[str]:
        for name in v:
            if not name.strip() or name != name.strip():
                raise ValueError(f"{name!r}: a player name must be a forum user name, not empty, without spaces around it")
            if _SEAT_NUMBER.match(name):
                continue  # told with the seat number (SeasonConfig.problems)
            if name.startswith(("@", "＠")) and name[1:].strip():
                raise ValueError(f"{name!r} starts with {name[0]!r}, as a mention does: write the user name without "
                                 f'it, "{name[1:].strip()}"')
            if hidden := next((ch for ch in name if unicodedata.category(ch) in ("Cf", "Cc")), None):
                clean = "".join(ch for ch in name if unicodedata.category(ch) not in ("Cf", "Cc"))
                raise ValueError(f"{name!r} holds an invisible character (U+{ord(hidden):04X}, often copied from a web "
                                 f'page with the name): type the name again, "{clean}"')
            if mark := next((ch for ch in "，、,；;" if ch in name), None):
                parts = [p.strip() for p in re.split("[，、,；;]", name) if p.strip()]
                raise ValueError(f"{name!r} holds {mark!r}: several names in one pair of quotes? Quote each name: "
                                 + "[" + ", ".join(f'"{p}"' for p in parts) + "]")
        return v

    @model_validator(mode="after")
    def _consistent(self, info: ValidationInfo) -> SeasonConfig:
        problems = self.problems()
        collect = info.context.get("problems") if isinstance(info.context, dict) else None
        if isinstance(collect, list):
            collect.extend(problems)  # load_config reports them with the rest of the file's mistakes
        elif problems:
            raise ValueError("\n".join(problems))
        return self

    def problems(self) -> list[str]:
        """Every mistake between keys (each "key: what is wrong"), all of them: an alias of a name not among
        the players, no thread or board, the judge among the players, two names that read alike, a phase
        kind the ruleset does not open, a missing templates folder."""
        problems = []
        seated = {name: m.group(1) for name in self.players if (m := _SEAT_NUMBER.match(name))}
        if seated:
            problems.append(f"players: {', '.join(repr(n) for n in seated)} start{'s' if len(seated) == 1 else ''} with "
                            "a seat number: the list is in seat order already (seat 1 first); write only the forum "
                            "user name" + ("s" if len(seated) > 1 else "") + ", " + ", ".join(f'"{n}"' for n in seated.values()))
        if "" in [o.strip() for o in self.organisers]:
            problems.append('organisers: an empty name "": write the forum user name of each organiser, or delete the "" ')
        for owner, names in self.aliases.items():
            if "" in [a.strip() for a in names]:
                problems.append(f'aliases."{owner}": an empty alias "": write the nickname in the quotes, or delete it')
        env = self.forum.password_env
        if env is not None and not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", env):
            problems.append("forum.password_env: the name of an environment variable has only letters, digits and _ "
                            "(e.g. FORUMBOT_PASSWORD): if this is the password itself, delete it from the file (and change "
                            "it if the file was shared), set it with `export FORUMBOT_PASSWORD=...` and write "
                            'password_env = "FORUMBOT_PASSWORD"')
        for name in self.aliases:
            if name not in self.players and name not in seated.values():  # (a seat number told above)
                problems.append(f'aliases."{name}": {name!r} is not in players (a player renamed or replaced? '
                                "write the alias under the player's name as it is in players, or delete it)")
        if self.forum.thread_id is None and self.forum.forum_id is None:
            problems.append("forum: needs thread_id (an existing game thread) or forum_id (where the bot opens one)")
        if self.forum.username in self.players:
            problems.append(f"players: the judge's account {self.forum.username!r} is listed among the players")
        known = {k: v for k, v in self.aliases.items() if k in self.players}
        if clash := _name_clash(self.players, known):
            problems.append(clash)
        kinds = getattr(self._ruleset_class(), "phase_kinds", None)
        if kinds:
            unknown = sorted(set(self.schedule.lengths) - set(kinds))
            if unknown:
                problems.append(f"schedule.lengths: names {', '.join(unknown)}, not a phase of {self.ruleset}; "
                                f"its phases are {', '.join(kinds)}")
            unknown = sorted(set(self.schedule.exact_kinds) - set(kinds))
            if unknown and "exact_kinds" in self.schedule.model_fields_set:  # the default names sunlight's poll
                problems.append(f"schedule.exact_kinds: names {', '.join(unknown)}, not a phase of {self.ruleset}; "
                                f"its phases are {', '.join(kinds)}")
        if self.template_dir is not None and not Path(self.template_dir).is_dir():  # None without templates
            problems.append(f"templates: the folder {self.template_dir} does not exist")
        return problems

    def _ruleset_class(self):
        from forumbot.engine.ruleset import get_ruleset

        try:
            return get_ruleset(self.ruleset)
        except KeyError:
            return None

    # --- derived ----------------------------------------------------------------------------------
    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.time_zone)

    def shown_time(self, when: datetime, locale: str | None = None) -> str:
        """``when`` as the season writes times (its zone, ``time_zone_label``; its locale unless ``locale``):
        :func:`forumbot.local_time.format_local`."""
        from forumbot.local_time import format_local

        return format_local(when, self.tz, locale or self.locale, self.time_zone_label)

    @property
    def base_dir(self) -> Path:
        return self.path.parent if self.path else Path.cwd()

    @property
    def effective_markup(self) -> str:
        return self.markup or DEFAULT_MARKUP.get(self.forum.engine, "bbcode")

    @property
    def database_url(self) -> str:
        if self.database:
            return self.database
        stem = self.path.stem if self.path else "season"
        return f"sqlite:///{self.base_dir / (stem + '.db')}"

    @property
    def template_dir(self) -> str | None:
        if not self.templates:
            return None
        p = Path(self.templates)
        return str(p if p.is_absolute() else self.base_dir / p)

    def setup(self, seed: str) -> Setup:
        """The engine's :class:`Setup` with the season's stored ``seed``. The pseudo-account "@cli"
        is an organiser: commands typed with ``forumbot organiser`` come from it."""
        return Setup(
            ruleset=self.ruleset, players=tuple(self.players), params=self.params, roles=self.roles,
            seed=seed, organisers=tuple(self.organisers) + ("@cli",),
            aliases={k: tuple(v) for k, v in self.aliases.items()},
            thread_marks=self.marks,
        )

    @property
    def marks(self) -> tuple[str, ...]:
        """The thread marks of the season: ``thread_marks``, or the locale's default."""
        from forumbot.language.parse import DEFAULT_THREAD_MARKS

        return tuple(self.thread_marks) if self.thread_marks is not None else DEFAULT_THREAD_MARKS[self.locale]

    def start_utc(self) -> datetime | None:
        """The configured start as an aware UTC time (a naive start is local time of the season's zone)."""
        if self.schedule.start is None:
            return None
        s = self.schedule.start
        if s.tzinfo is None:
            s = s.replace(tzinfo=self.tz)
        return s.astimezone(ZoneInfo("UTC"))


#: a seat number written before a name: "1号 张三", "2. 李四", "3、王五", "04 赵六" (the name after it in group 1)
_SEAT_NUMBER = re.compile(r"^(?:第\s*)?\d{1,2}\s*(?:号|號|位)?(?:\s+|\s*[.．、:：)）\]】-]\s*)(\D.*)$")


#: what organisers write for a zone -> the zone's name
_ZONE_WORDS = {"beijing": "Asia/Shanghai", "asia/beijing": "Asia/Shanghai", "北京": "Asia/Shanghai", "北京时间": "Asia/Shanghai", "china": "Asia/Shanghai",
               "中国": "Asia/Shanghai", "cst": "Asia/Shanghai", "taipei": "Asia/Taipei", "台北": "Asia/Taipei",
               "臺北": "Asia/Taipei", "hong kong": "Asia/Hong_Kong", "香港": "Asia/Hong_Kong", "tokyo": "Asia/Tokyo",
               "japan": "Asia/Tokyo", "london": "Europe/London", "uk": "Europe/London"}


def _zone_advice(written: str) -> str:
    """What to write instead of a time zone ``written`` that is not one: a zone's name in its right case, a
    city's zone, or for "UTC+8" the zone of a place (a fixed offset ignores daylight saving)."""
    import difflib
    from zoneinfo import available_timezones

    folded = written.strip().lower()
    if folded in _ZONE_WORDS:
        return f'write time_zone = "{_ZONE_WORDS[folded]}"'
    zones = sorted(available_timezones())
    same = [z for z in zones if z.lower() == folded.replace(" ", "_")]
    if same:
        return f'write time_zone = "{same[0]}" (the names are written with this case)'
    if m := re.fullmatch(r"(?:utc|gmt)\s*([+-])\s*(\d{1,2})(?::?00)?", folded):
        hours = int(m.group(2))
        place = {8: 'time_zone = "Asia/Shanghai" (or "Asia/Taipei")', 9: 'time_zone = "Asia/Tokyo"',
                 0: 'time_zone = "Europe/London"', 1: 'time_zone = "Europe/Berlin"'}.get(
            hours if m.group(1) == "+" else -hours, 'time_zone = "Asia/Shanghai"')
        fixed = f"Etc/GMT{'-' if m.group(1) == '+' else '+'}{hours}"
        return (f"write the zone of a place, e.g. {place}, which follows its daylight saving; a fixed "
                f"UTC{m.group(1)}{hours} is time_zone = \"{fixed}\" (its sign is reversed in the name)")
    near = difflib.get_close_matches(written, zones, n=1, cutoff=0.8)
    if near:
        return f'did you mean time_zone = "{near[0]}"?'
    return "write e.g. Asia/Shanghai, Asia/Taipei, Europe/London"


def _how_alike(a: str, b: str) -> str:
    """How two names that fold alike differ, in the words an organiser knows."""
    import unicodedata

    if a == b:
        return "the same name"
    if a.casefold() == b.casefold():
        return "the same name but for upper and lower case"
    if unicodedata.normalize("NFKC", a).casefold() == unicodedata.normalize("NFKC", b).casefold():
        return "the same name, once in full-width letters"
    return "the same name, once in simplified and once in traditional characters"


def _name_clash(players: list[str], aliases: dict[str, list[str]]) -> str | None:
    """Why two of the names players can be called (``players``, their ``aliases``) would read the same once
    simplified/traditional forms, width and case are ignored (:func:`forumbot.language.normalize.fold`, as
    commands are read), or None. The message starts with the key to blame: ``players`` for a name listed
    twice, ``aliases."OWNER"`` for an alias."""
    from forumbot.language.normalize import fold

    names: dict[str, str] = {}
    for name in players:
        if (other := names.get(fold(name))) is not None:
            return (f"players: {other!r} and {name!r} are {_how_alike(other, name)}: one player listed twice. List each "
                    "player once, spelt as the forum spells the account (two accounts whose names read the same "
                    "cannot play in one season: commands could not tell them apart)")
        names[fold(name)] = name
    said: dict[str, tuple[str, str]] = {}
    for owner in players:
        for alias in aliases.get(owner, []):
            key = fold(alias)
            where = f'aliases."{owner}": '
            if (other := names.get(key)) is not None and other != owner:
                return (where + f"{alias!r}, an alias of {owner}, reads as the name of the player {other}"
                        f"{'' if alias == other else f' ({_how_alike(alias, other)})'}: commands could not tell "
                        f"them apart; take it out of {owner}'s aliases")
            if key in said and said[key][0] != owner:
                first_owner, first_alias = said[key]
                return (where + f"{alias!r}, an alias of {owner}, reads as {first_alias!r}, an alias of {first_owner}: "
                        "commands could not tell them apart; give one of them another alias")
            said.setdefault(key, (owner, alias))
    return None


def load_config(path: str | Path) -> SeasonConfig:
    """Read and validate a season file. Raises :class:`ConfigError` with every mistake of the file, one line
    each ("PATH line N: key: what is wrong and the fix"), in the order of the file: the values, the keys
    between them, and whether the ruleset accepts the players, parameters and draw. A TOML syntax mistake
    stops the reading there (one line). The loaded config's :attr:`SeasonConfig.warnings` hold what is
    legal but likely wrong (:func:`forumbot.config_warnings.season_warnings`)."""
    path = Path(path)
    try:
        text, data = read_toml_file(path)
    except TomlFileError as exc:
        raise ConfigError(str(exc)) from None
    found, data = name_list_problems(data)
    config, between = _validate(data, path, found)
    found += [_split_key(problem) for problem in between]
    game = None
    if config is not None and not any(loc == ["players"] and "listed twice" in m for loc, m in found):
        game = _ruleset_check(config, found)  # (a name listed twice is told once, not again by the ruleset)
    else:
        _params_check(data, found)  # the players cannot be checked with the ruleset, its parameters can
    if found:
        raise ConfigError("\n".join(_lines(path, text, _one_per_mistake(found))))
    assert config is not None
    config._warnings = season_warnings(config, text, game)
    return config


_FREE_TABLES = {("schedule", "lengths"), ("aliases",), ("params",), ("roles",)}
#: values that stand in for a [forum] key told wrong, so that the rest of the file is still checked
_FORUM_STAND_INS = {"thread_id": 1, "forum_id": 1, "base_url": "http://forum.invalid", "username": "\x00"}


def _validate(data: dict[str, Any], path: Path, found: list[tuple[list, str]]) -> tuple[SeasonConfig | None, list[str]]:
    """The config of ``data`` and the mistakes between its keys (:meth:`SeasonConfig.problems`); each wrong
    value is added to ``found`` and set aside, and the rest validated again, so that one run finds them all.
    None when a required key is wrong (the checks between keys then cannot run)."""
    from forumbot.config_messages import plain_errors, without

    models: dict[tuple[str, ...], type[BaseModel]] = {(): SeasonConfig, ("schedule",): Schedule, ("forum",): ForumSettings}
    attempt: dict[str, Any] | None = {**data, "path": path.resolve()}
    for _ in range(8):
        assert attempt is not None
        between: list[str] = []
        try:
            return SeasonConfig.model_validate(attempt, context={"problems": between}), between
        except ValidationError as exc:
            errors = plain_errors(exc, attempt, models, MISSING_HINTS, EXAMPLES)
        new = [e for e in errors if e not in found]
        found += new
        if not new:
            return None, []
        for loc, _ in errors:
            if attempt is None:
                break
            stand_in = _FORUM_STAND_INS.get(str(loc[1])) if len(loc) == 2 and loc[0] == "forum" else None
            if stand_in is not None and isinstance(attempt.get("forum"), dict):
                # wrong or missing (told): a stand-in value lets the rest of [forum] be checked, and keeps
                # "needs thread_id or forum_id" from being told too
                attempt = {**attempt, "forum": {**attempt["forum"], str(loc[1]): stand_in}}
                continue
            attempt = without(attempt, loc, models, _FREE_TABLES) or (
                _stand_in_forum(attempt) if loc[:1] == ["forum"] else None)
        if attempt is None:
            return None, []
    return None, []


def _stand_in_forum(data: dict[str, Any]) -> dict[str, Any] | None:
    """``data`` with a ``[forum]`` table that validates, keeping what the checks between keys read (the
    judge's name, the thread and board), so that those checks run while the forum's mistakes are told."""
    table = data.get("forum")
    if not isinstance(table, dict):
        return None
    stand_in: dict[str, Any] = {"base_url": "http://forum.invalid", "password_env": "FORUMBOT_PASSWORD"}
    if isinstance(table.get("username"), str) and table["username"]:
        stand_in["username"] = table["username"]
    else:
        stand_in["username"] = "\x00"
    for key in ("thread_id", "forum_id"):
        if isinstance(table.get(key), int) and table[key] > 0:
            stand_in[key] = table[key]
    if ("thread_id" in table or "forum_id" in table) and "thread_id" not in stand_in and "forum_id" not in stand_in:
        stand_in["forum_id"] = 1  # written, but wrong: that mistake is told already (neither: the check says so)
    return {**data, "forum": stand_in}


def _one_per_mistake(found: list[tuple[list, str]]) -> list[tuple[list, str]]:
    """``found`` with what follows from another line left out: a required key told missing when a
    misspelling of it is told ("playres: did you mean players?"), and after the first key of a table told
    to belong to another one (its header missing), the keys after it that belong there too (one line
    names them all)."""
    misspelt = {(tuple(loc[:-1]), m.group(1)) for loc, message in found
                if (m := re.match(r"unknown key: did you mean (\w+)\?", message))}
    misspelt |= {((), m.group(1)) for loc, message in found
                 if (m := re.match(r"(\w+) is a key of the top level", message))}  # written below a [table]
    kept: list[tuple[list, str]] = []
    moved: dict[tuple[tuple, str], int] = {}
    for loc, message in found:
        if message.startswith("missing:") and (tuple(loc[:-1]), str(loc[-1])) in misspelt:
            continue
        if m := re.match(r"(\w+) is a key of (.+?), not of (\[.+?\]): ", message):
            group = (tuple(loc[:-1]), m.group(2))
            if group in moved:
                first_loc, first = kept[moved[group]]
                kept[moved[group]] = (first_loc, first.replace(" below it belong", f", {m.group(1)} below it belong")
                                      if " below it belong" in first
                                      else f"{first} ({m.group(1)} below it belong to {m.group(2)} too)")
                continue
            moved[group] = len(kept)
        kept.append((loc, message))
    return kept


def _split_key(problem: str) -> tuple[list, str]:
    """("key path", message) of a "key: message" problem (a player's name in quotes: aliases."张三")."""
    if m := re.match(r'^([a-z_]+(?:\.(?:[a-z_]+|"[^"]+"))*): ', problem):
        return [part.strip('"') for part in re.findall(r'"[^"]+"|[a-z_]+', m.group(1))], problem[m.end():]
    return [], problem


def _params_check(data: dict[str, Any], found: list[tuple[list, str]]) -> bool:
    """Whether ``data["params"]`` suits the ruleset ``data["ruleset"]`` names (True when it names none);
    what does not is added to ``found`` ("params.KEY", its message)."""
    from forumbot.config_messages import plain_errors
    from forumbot.engine.ruleset import get_ruleset

    params = data.get("params", {})
    try:
        cls = get_ruleset(data.get("ruleset"))  # type: ignore[arg-type]
    except (KeyError, TypeError):
        return True
    if not isinstance(params, dict):
        return True  # told as a table
    try:
        cls.Params.model_validate(params)
    except ValidationError as exc:
        errors = plain_errors(exc, params, {(): cls.Params}, {}, {})
        names = ", ".join(cls.Params.model_fields) or "none"
        found += [(["params", *loc], message + (f"; {cls.id}'s parameters are {names}{_elsewhere(loc, cls.id)}"
                                               if message.startswith("unknown key") else ""))
                  for loc, message in errors]
        return False
    return True


def _ruleset_check(config: SeasonConfig, found: list[tuple[list, str]]) -> Game | None:
    """The game ``config`` starts (its ruleset, players, parameters and draw accepted), or None with the
    reason added to ``found``. An alias of a name not among the players is left out (told already)."""
    if not _params_check({"ruleset": config.ruleset, "params": config.params}, found):
        return None
    known = {k: v for k, v in config.aliases.items() if k in config.players}
    checked = config if known == config.aliases else config.model_copy(update={"aliases": known})
    try:
        game = Game(checked.setup("check"))
        game.start()
    except SetupError as exc:
        message = str(exc)
        loc = ["players"]
        if message.startswith("unknown ruleset"):
            loc = ["ruleset"]
            if near := _ruleset_meant(config.ruleset):
                message = f"unknown ruleset {config.ruleset!r}: did you mean ruleset = \"{near}\"? ({message.split('; ', 1)[1]})"
        elif config.roles and ("draw" in message or "role" in message):
            loc = ["roles"]
        elif written := [k for k in config.params if re.search(rf"\b(?:{re.escape(k)}|{re.escape(k.rstrip('s'))})\b", message)]:
            loc = ["params", written[0]]  # e.g. killers = 9: the role counts it makes need more players
        found.append((loc, message))
        return None
    return game


#: the rulebooks' titles, as organisers call the games, and their rulesets
RULESET_TITLES = {"阳光下的罪恶": "sunlight", "陽光下的罪惡": "sunlight", "殺人遊戲": "killer_club", "杀人游戏": "killer_club",
                  "吸血鬼村莊": "vampire_village", "吸血鬼村庄": "vampire_village", "人类杀": "human_kill",
                  "人類殺": "human_kill", "夜访吸血鬼": "interview_vampire", "夜訪吸血鬼": "interview_vampire"}


def _ruleset_meant(written: str) -> str | None:
    """The ruleset id ``written`` probably means: a rulebook's title, another case or spacing, a misspelling."""
    import difflib

    from forumbot.engine.ruleset import ruleset_ids

    ids = list(ruleset_ids())
    if (title := next((rid for t, rid in RULESET_TITLES.items() if t in written), None)) is not None:
        return title
    squeezed = re.sub(r"[\s\-]+", "_", written.strip().lower())
    if squeezed in ids:
        return squeezed
    near = difflib.get_close_matches(squeezed, ids, n=1, cutoff=0.7)
    return near[0] if near else None


def _elsewhere(loc: list, ruleset: str) -> str:
    """" (killers is a parameter of killer_club)" when the unknown parameter at ``loc`` is one of another
    ruleset's (a file copied from another game's), else ""."""
    from forumbot.engine.ruleset import get_ruleset, ruleset_ids

    if len(loc) != 1:
        return ""
    owners = [rid for rid in ruleset_ids() if rid != ruleset and str(loc[0]) in get_ruleset(rid).Params.model_fields]
    if not owners:
        return ""
    return f" ({loc[0]} is a parameter of {' and '.join(owners)}: a file copied from another game? delete it)"


def _lines(path: Path, text: str, found: list[tuple[list, str]]) -> list[str]:
    """One line per mistake, "PATH line N: key: message", in the order of the file (unplaced ones last)."""
    placed = []
    for loc, message in found:
        keys = [str(k) for k in loc]
        line = locate(text, keys) or (locate(text, keys[:1]) if keys else None)
        placed.append((line or 10**9, f"{path}{f' line {line}' if line else ''}: {'.'.join(keys) or '(top level)'}: {message}"))
    ordered = sorted(dict.fromkeys(placed), key=lambda x: x[0])
    return [line for _, line in ordered]


MISSING_HINTS = {
    "forum": "add a [forum] table: engine, base_url, username, password_env (or password_file), thread_id or forum_id",
    "players": 'add players = ["name", ...], the forum user names in seat order',
    "name": 'add name = "...", the season\'s name',
    "ruleset": "add ruleset = \"sunlight\" (or killer_club, vampire_village, human_kill, interview_vampire)",
    "forum.base_url": 'add base_url = "https://..." to [forum]',
    "forum.username": "add username = the judge's account to [forum]",
}
EXAMPLES = {
    "daily_deadline": "write e.g. daily_deadline = 22:00:00 (a TOML time, no quotes)",
    "start": "write e.g. start = 2026-12-02T20:00:00 (a TOML date-time, local to time_zone, no quotes)",
}
