"""The season config: one TOML file per season, validated with pydantic.

See ``forumbot/config_examples/sunlight.example.toml`` for a commented example and ``docs/config.md`` for every key.
Errors name the key, the line and what is allowed (:class:`ConfigError`); the forum password is never
in this file (``[forum]`` names an environment variable or a secrets file).
"""

from __future__ import annotations

import re
from datetime import datetime, time, timedelta
from pathlib import Path
from typing import Annotated, Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from forumbot.engine.game import Game, Setup, SetupError
from forumbot.forums.settings import ForumSettings
from forumbot.language.numbers import parse_duration
from forumbot.tomlfile import TomlFileError, read_toml_file

DEFAULT_MARKUP = {"flaskbb": "markdown", "discourse": "markdown", "nodebb": "markdown", "discuz": "bbcode", "phpbb": "bbcode"}


class ConfigError(ValueError):
    """The season file cannot be used; the message says where and what is allowed."""


def _duration_text(text: str) -> str:
    parse_duration(text)
    return text


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
        parse_duration(v)
        return v

    @field_validator("reminders", "vote_count_before")
    @classmethod
    def _reminders(cls, v: list[str]) -> list[str]:
        for text in v:
            parse_duration(text)
        return v

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

    @field_validator("time_zone")
    @classmethod
    def _zone(cls, v: str) -> str:
        try:
            ZoneInfo(v)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(f"{v!r} is not a time zone name; write e.g. Asia/Shanghai, Asia/Taipei, Europe/London") from None
        return v

    @field_validator("players")
    @classmethod
    def _player_names(cls, v: list[str]) -> list[str]:
        for name in v:
            if not name.strip() or name != name.strip():
                raise ValueError(f"{name!r}: a player name must be a forum user name, not empty, without spaces around it")
            if mark := next((ch for ch in "，、,；;" if ch in name), None):
                parts = [p.strip() for p in re.split("[，、,；;]", name) if p.strip()]
                raise ValueError(f"{name!r} holds {mark!r}: several names in one pair of quotes? Quote each name: "
                                 + "[" + ", ".join(f'"{p}"' for p in parts) + "]")
        return v

    @model_validator(mode="after")
    def _consistent(self) -> SeasonConfig:
        for name in self.aliases:
            if name not in self.players:
                raise ValueError(f"aliases: {name!r} is not in players")
        if self.forum.thread_id is None and self.forum.forum_id is None:
            raise ValueError("forum: needs thread_id (an existing game thread) or forum_id (where the bot opens one)")
        if self.forum.username in self.players:
            raise ValueError(f"players: the judge's account {self.forum.username!r} is listed among the players")
        if clash := _name_clash(self.players, self.aliases):
            raise ValueError(clash)
        kinds = getattr(self._ruleset_class(), "phase_kinds", None)
        if kinds:
            unknown = sorted(set(self.schedule.lengths) - set(kinds))
            if unknown:
                raise ValueError(f"schedule.lengths: names {', '.join(unknown)}, not a phase of {self.ruleset}; "
                                 f"its phases are {', '.join(kinds)}")
            unknown = sorted(set(self.schedule.exact_kinds) - set(kinds))
            if unknown and "exact_kinds" in self.schedule.model_fields_set:  # the default names sunlight's poll
                raise ValueError(f"schedule.exact_kinds: names {', '.join(unknown)}, not a phase of {self.ruleset}; "
                                 f"its phases are {', '.join(kinds)}")
        if self.template_dir is not None and not Path(self.template_dir).is_dir():  # None without templates
            raise ValueError(f"templates: the folder {self.template_dir} does not exist")
        return self

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
    """Read and validate a season file. Raises :class:`ConfigError` naming the key, the line and what
    is allowed; also checks that the ruleset accepts the players, parameters and draw."""
    path = Path(path)
    try:
        text, data = read_toml_file(path)
    except TomlFileError as exc:
        raise ConfigError(str(exc)) from None
    try:
        config = SeasonConfig.model_validate({**data, "path": path.resolve()})
    except ValidationError as exc:
        lines = []
        for e in exc.errors(include_url=False):
            loc = [str(p) for p in e["loc"]]
            msg = e["msg"].removeprefix("Value error, ")
            if not loc and (m := re.match(r'^([a-z_]+(?:\.(?:[a-z_]+|"[^"]+"))*): ', msg)):
                # a whole-file check names the key it is about (a player's name in quotes)
                loc = [part.strip('"') for part in re.findall(r'"[^"]+"|[a-z_]+', m.group(1))]
                msg = msg[m.end():]
            line = locate(text, loc)
            if e["type"] == "extra_forbidden":
                msg = "unknown key (check its spelling; see docs/config.md for the keys allowed)"
            elif e["type"] == "literal_error":
                msg = msg.replace("Input should be", "allowed:")
            elif e["type"] == "missing":
                msg = "missing: " + MISSING_HINTS.get(".".join(loc), "add it (see docs/config.md)")
            elif e["type"].startswith(("time", "datetime")):
                msg += "; " + EXAMPLES.get(loc[-1], "see docs/config.md")
            where = ".".join(loc) or "(top level)"
            lines.append(f"{path}{f' line {line}' if line else ''}: {where}: {msg}")
        raise ConfigError("\n".join(lines)) from None
    try:
        Game(config.setup("check")).start()
    except SetupError as exc:
        message = str(exc)
        loc = ["players"]
        if message.startswith("unknown ruleset"):
            loc = ["ruleset"]
        elif message.startswith("bad parameters"):
            field = re.search(r": ([a-z_]+)(?:\.[a-z_0-9]+)*: ", message)
            loc = ["params", field.group(1)] if field else ["params"]
        elif config.roles and ("draw" in message or "role" in message):
            loc = ["roles"]
        elif written := [k for k in config.params if re.search(rf"\b(?:{re.escape(k)}|{re.escape(k.rstrip('s'))})\b", message)]:
            loc = ["params", written[0]]  # e.g. killers = 9: the role counts it makes need more players
        line = locate(text, loc) or locate(text, loc[:1])
        raise ConfigError(f"{path}{f' line {line}' if line else ''}: {'.'.join(loc)}: {message}") from None
    return config


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


def locate(text: str, loc: list[str]) -> int | None:
    """The line (1-based) where the key ``loc`` (a path such as ["schedule", "lengths", "vote"]) is
    written in the TOML ``text``, or of its nearest written parent; None if not found."""
    lines = text.splitlines()
    best: int | None = None
    table: list[str] = []
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        m = re.match(r"^\[+\s*([^\]]+?)\s*\]+", line)
        if m:
            table = [p.strip().strip('"') for p in m.group(1).split(".")]
            if table == loc[: len(table)]:
                best = number
            continue
        m = re.match(r'^("?)([^"=]+?)\1\s*=', line)
        if m:
            key = table + [p.strip().strip('"') for p in m.group(2).split(".")]
            if key == loc[: len(key)]:
                best = number
    return best
