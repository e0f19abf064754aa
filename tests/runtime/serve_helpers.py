"""Season files and in-memory forums for ``forumbot serve`` tests."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from forumbot.config import SeasonConfig
from forumbot.forums.memory import MemoryForum

PLAYERS = list("ABCDEFG")


def write_season(folder: Path, name: str, start: datetime, *, length: float = 2.0, poll: float = 0.2,
                 base_url: str = "http://forum.test", database: str | None = None, write_interval: float = 0,
                 stem: str | None = None) -> Path:
    """A sunlight season file ``folder/<stem or name>.toml`` on the forum ``base_url``."""
    path = folder / f"{stem or name}.toml"
    path.write_text(f'''name = "{name}"
ruleset = "sunlight"
locale = "en"
time_zone = "UTC"
seed = 3
organisers = ["Org"]
players = [{", ".join(f'"{p}"' for p in PLAYERS)}]
roles = {{ "C" = "killer" }}
{f'database = "{database}"' if database else ""}

[forum]
engine = "flaskbb"
base_url = "{base_url}"
username = "judge"
password_env = "NOT_USED"
forum_id = 1
min_write_interval_seconds = {write_interval}

[schedule]
start = {start.astimezone(UTC).replace(tzinfo=None, microsecond=0).isoformat()}
default = "{length}s"
reminders = []
poll_interval = "{poll}s"
grace = "0.2s"
''', encoding="utf-8")
    return path


class Forums:
    """One :class:`MemoryForum` per forum base URL (seasons of one forum share it, as on a real forum)."""

    def __init__(self) -> None:
        self.by_url: dict[str, MemoryForum] = {}
        self.made: list[tuple[str, MemoryForum]] = []

    def __call__(self, config: SeasonConfig) -> MemoryForum:
        forum = self.by_url.setdefault(config.forum.base_url, MemoryForum(username=config.forum.username))
        forum.write_interval_seconds = config.forum.min_write_interval_seconds
        self.made.append((config.name, forum))
        return forum


def wait_for(condition: Callable[[], object], timeout: float = 30.0, what: str = "condition") -> None:
    until = time.monotonic() + timeout
    while time.monotonic() < until:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def soon(seconds: float = 1.0) -> datetime:
    return datetime.now(UTC).replace(microsecond=0) + timedelta(seconds=seconds + 1)
