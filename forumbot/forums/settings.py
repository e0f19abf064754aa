"""Forum settings (the ``[forum]`` table of a season TOML file) and the factory of adapters.

The password is never in the season file: ``password_env`` names an environment variable holding it, or
``password_file`` names a separate secrets file (a ``.toml`` file with ``password = "..."`` at the top or
in a ``[forum]`` table, or any other file whose first line is the password). A relative
``password_file`` is read from the season file's directory. The password is never logged or printed.

Example::

    [forum]
    engine = "flaskbb"
    base_url = "http://127.0.0.1:8080"
    username = "法官"
    password_env = "FORUMBOT_FORUM_PASSWORD"
    thread_id = 12
    forum_id = 2
    min_write_interval_seconds = 15

A Discuz! forum (see docs/discuz.md) takes ``engine = "discuz"`` and optionally ``charset`` ("auto",
"utf-8" or "gbk"), ``site_time_zone`` (the zone the site writes times in, default Asia/Shanghai),
``login_api_version`` (3 or 4) and ``pm_conversation_limit`` (UCenter's conversations a day, 25 by
default); its ``min_write_interval_seconds`` defaults to 16
(:data:`forumbot.forums.discuz_api.FLOOD_SECONDS`: the site's 15 s flood control compares whole seconds,
so a write 15.0 s after the answer to the previous one is refused and one 16 s after goes through).

A NodeBB 4 forum (see docs/forums.md) takes ``engine = "nodebb"``, ``auth`` ("session": the secret is the
judge's password; "token": a bearer token an administrator issued for the judge) and
``chat_interval_seconds`` (NodeBB's ``chatMessageDelay``, 2 s) and ``max_chat_length`` (a chat message's
most characters, when lower than the forum's ``maximumChatMessageLength``; by default the forum's); its ``min_write_interval_seconds`` (the
spacing of posts, NodeBB's ``postDelay``) defaults to 10.

A phpBB 3.3 board (see docs/forums.md) takes ``engine = "phpbb"`` and ``base_url`` the board's folder;
its ``min_write_interval_seconds`` defaults to 15 (:data:`forumbot.forums.phpbb.FLOOD_SECONDS`, phpBB's
default flood interval, posts and private messages together); set it to 0 when the judge's group may
ignore the flood limit (global moderators and administrators may by default).

``min_write_interval_seconds`` is the one pacing rule of an adapter: the least time from the *answer* to
one write to the *start* of the next. The adapter's transport keeps it (``Transport.write_wait_seconds``
says how long the next write must still wait, without sleeping) and sleeps only when a write comes early.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from forumbot.forums.base import Forum


class SettingsError(ValueError):
    """The forum settings are missing, malformed or point at a password that cannot be read."""


class ForumSettings(BaseModel):
    """How to reach the forum and which thread and board the season uses.

    Times are in seconds. ``thread_id`` is the game thread (optional until it exists); ``forum_id`` the
    board where the bot opens threads. ``request_horizon_seconds`` (60 by default) is how long after the
    bot gave up on a request (a timeout) the forum may still perform it: a write that got no answer is
    looked for on the forum only after that, and sent again only if it is not there.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    engine: Literal["flaskbb", "discuz", "nodebb", "phpbb"] = "flaskbb"
    base_url: str
    username: str = Field(min_length=1)
    password_env: str | None = None
    password_file: Path | None = None
    thread_id: int | None = Field(default=None, gt=0)
    forum_id: int | None = Field(default=None, gt=0)
    min_write_interval_seconds: float = Field(default=0.0, ge=0)
    timeout_seconds: float = Field(default=20.0, gt=0)
    retries: int = Field(default=3, ge=0, le=10)
    backoff_seconds: float = Field(default=0.5, ge=0)
    request_horizon_seconds: float = Field(default=60.0, ge=0)  # how late the forum may still perform a request
    # the forum's minimum post length (Discuz!: bytes in the site's charset; NodeBB, phpBB: characters); None: the
    # engine's default (forumbot.config_warnings.MIN_POST_LENGTH). `check` warns when a thread vote is shorter
    min_post_length: int | None = Field(default=None, ge=0)
    # Discuz! only (ignored by other engines)
    charset: Literal["auto", "utf-8", "gbk"] = "auto"
    site_time_zone: str = "Asia/Shanghai"
    login_api_version: Literal[3, 4] = 3
    pm_conversation_limit: int = Field(default=25, ge=0)
    # NodeBB only: the secret is the password ("session") or a bearer token ("token"); chat message spacing
    auth: Literal["session", "token"] = "session"
    chat_interval_seconds: float = Field(default=2.0, ge=0)
    # NodeBB only: a chat message's most characters when lower than the forum's maximumChatMessageLength
    max_chat_length: int | None = Field(default=None, ge=100)

    @model_validator(mode="before")
    @classmethod
    def _no_password_here(cls, data: Any) -> Any:
        if isinstance(data, dict) and "password" in data:
            raise ValueError(
                "the [forum] table must not hold the password itself: name an environment variable with "
                'password_env = "VARIABLE" or a separate secrets file with password_file = "path"'
            )
        if isinstance(data, dict) and data.get("engine") == "discuz" and "min_write_interval_seconds" not in data:
            from forumbot.forums.discuz_api import FLOOD_SECONDS

            data = {**data, "min_write_interval_seconds": FLOOD_SECONDS}
        if isinstance(data, dict) and data.get("engine") == "nodebb" and "min_write_interval_seconds" not in data:
            from forumbot.forums.nodebb_api import POST_DELAY

            data = {**data, "min_write_interval_seconds": POST_DELAY}
        if isinstance(data, dict) and data.get("engine") == "phpbb" and "min_write_interval_seconds" not in data:
            from forumbot.forums.phpbb import FLOOD_SECONDS as PHPBB_FLOOD_SECONDS

            data = {**data, "min_write_interval_seconds": PHPBB_FLOOD_SECONDS}
        return data

    @field_validator("site_time_zone")
    @classmethod
    def _zone(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(f"{value!r} is not a time zone name; write e.g. Asia/Shanghai or Asia/Taipei") from None
        return value

    @model_validator(mode="after")
    def _one_password_source(self) -> ForumSettings:
        if (self.password_env is None) == (self.password_file is None):
            raise ValueError("give exactly one of password_env (an environment variable) or password_file")
        return self

    @field_validator("base_url")
    @classmethod
    def _http_url(cls, value: str) -> str:
        value = value.strip().rstrip("/")
        if not value.startswith(("http://", "https://")) or len(value.split("://", 1)[1]) == 0:
            raise ValueError(f"base_url must start with http:// or https:// (got {value!r})")
        return value

    def password(self, base_dir: Path | None = None) -> str:
        """Reads the password from the environment variable or secrets file. Raises SettingsError."""
        if self.password_env is not None:
            value = os.environ.get(self.password_env)
            if not value:
                raise SettingsError(
                    f"the environment variable {self.password_env} (forum.password_env) is not set or empty; "
                    "set it to the judge account's password"
                )
            return value
        assert self.password_file is not None
        path = self.password_file if self.password_file.is_absolute() else (base_dir or Path.cwd()) / self.password_file
        try:
            text = path.read_text("utf-8")
        except OSError as exc:
            raise SettingsError(f"cannot read the secrets file {path} (forum.password_file): {exc.strerror}") from None
        if path.suffix == ".toml":
            try:
                data = tomllib.loads(text)
            except tomllib.TOMLDecodeError as exc:
                raise SettingsError(f"the secrets file {path} is not valid TOML: {exc}") from None
            value = data.get("password", data.get("forum", {}).get("password"))
            if not isinstance(value, str) or not value:
                raise SettingsError(f'the secrets file {path} has no password = "..." (top level or [forum])')
            return value
        value = text.splitlines()[0].strip() if text.strip() else ""
        if not value:
            raise SettingsError(f"the secrets file {path} is empty")
        return value


def load_forum_settings(path: Path) -> tuple[ForumSettings, Path]:
    """Reads the ``[forum]`` table of a season TOML file; returns it and the file's directory.

    Raises SettingsError with a one-paragraph explanation (missing file, TOML syntax, invalid fields).
    """
    from forumbot.tomlfile import TomlFileError, read_toml_file

    try:
        _, data = read_toml_file(Path(path))
    except TomlFileError as exc:
        raise SettingsError(str(exc)) from None
    table = data.get("forum")
    if not isinstance(table, dict):
        raise SettingsError(f"{path} has no [forum] table (engine, base_url, username, password_env, thread_id, ...)")
    try:
        settings = ForumSettings.model_validate(table)
    except ValidationError as exc:
        raise SettingsError(f"the [forum] table of {path} is not valid: {describe_validation(exc)}") from None
    return settings, Path(path).resolve().parent


def describe_validation(exc: ValidationError) -> str:
    """A pydantic error as one line per problem, ``forum.field: message`` (no input values: no secrets)."""
    parts = []
    for error in exc.errors(include_input=False, include_url=False):
        where = ".".join(str(p) for p in error["loc"])
        message = error["msg"].removeprefix("Value error, ")
        parts.append(f"forum.{where}: {message}" if where else message)
    return "; ".join(parts)


def make_forum(settings: ForumSettings, base_dir: Path | None = None) -> Forum:
    """The adapter for ``settings.engine`` (not logged in yet). Raises SettingsError if the password is missing."""
    password = settings.password(base_dir)
    if settings.engine == "flaskbb":
        from forumbot.forums.flaskbb import FlaskBBForum

        return FlaskBBForum(
            settings.base_url,
            settings.username,
            password,
            timeout_seconds=settings.timeout_seconds,
            min_write_interval_seconds=settings.min_write_interval_seconds,
            retries=settings.retries,
            backoff_seconds=settings.backoff_seconds,
            request_horizon_seconds=settings.request_horizon_seconds,
        )
    if settings.engine == "discuz":
        from forumbot.forums.discuz import DiscuzForum

        return DiscuzForum(
            settings.base_url,
            settings.username,
            password,
            timeout_seconds=settings.timeout_seconds,
            min_write_interval_seconds=settings.min_write_interval_seconds,
            retries=settings.retries,
            backoff_seconds=settings.backoff_seconds,
            charset=settings.charset,
            site_time_zone=settings.site_time_zone,
            login_api_version=settings.login_api_version,
            request_horizon_seconds=settings.request_horizon_seconds,
            min_post_bytes=settings.min_post_length,
        )
    if settings.engine == "nodebb":
        from forumbot.forums.nodebb import NodeBBForum

        return NodeBBForum(
            settings.base_url,
            settings.username,
            password,
            auth=settings.auth,
            timeout_seconds=settings.timeout_seconds,
            min_write_interval_seconds=settings.min_write_interval_seconds,
            chat_interval_seconds=settings.chat_interval_seconds,
            max_chat_length=settings.max_chat_length,
            retries=settings.retries,
            backoff_seconds=settings.backoff_seconds,
            request_horizon_seconds=settings.request_horizon_seconds,
        )
    if settings.engine == "phpbb":
        from forumbot.forums.phpbb import PhpBBForum

        return PhpBBForum(
            settings.base_url,
            settings.username,
            password,
            timeout_seconds=settings.timeout_seconds,
            min_write_interval_seconds=settings.min_write_interval_seconds,
            retries=settings.retries,
            backoff_seconds=settings.backoff_seconds,
            request_horizon_seconds=settings.request_horizon_seconds,
        )
    raise SettingsError(f"unknown forum engine {settings.engine!r}")  # pragma: no cover (Literal above)
