"""The rehearsal's own season file: the organiser's file with its phases scaled down and its forum replaced by the
local FlaskBB, written into the rehearsal's folder beside its database.

Everything that decides the game is kept as written (ruleset, players, organisers, aliases, params, roles, locale,
markup, templates, thread subject and marks, the seed unless ``--seed``): ``forumbot run`` of that file is the
rehearsal's bot. Only these change:

- ``[forum]``: FlaskBB on 127.0.0.1, the file's judge account (its password in ``judge-password.txt`` beside it);
- ``database``: ``rehearsal.db`` in the folder (``forumbot status`` and ``forumbot organiser`` of the rehearsal's
  file reach it);
- ``[schedule]``: every length, reminder and vote-count offset divided by the speed, no phase shorter than the
  floor the forum needs (:func:`scaled_schedule`); no ``start`` (the season starts at once) and no
  ``daily_deadline`` (a rehearsed phase lasts its scaled length, not until 22:00); the forum is read every second.
"""

from __future__ import annotations

import math
from datetime import timedelta
from pathlib import Path
from typing import Any

import tomlkit

from forumbot.config import Schedule
from forumbot.language.numbers import parse_duration

#: the rehearsal's file and database in its folder
SEASON_FILE = "rehearsal.toml"
DATABASE_FILE = "rehearsal.db"
PASSWORD_FILE = "judge-password.txt"
#: how often the rehearsal's bot reads the local forum, seconds
POLL_SECONDS = 1.0
#: the shortest phase of a rehearsal whatever the speed, seconds: a reminder, the players' commands and the
#: round's posts must fit in it (the floor measured on the forum may be higher: :func:`phase_floor`)
MIN_PHASE_SECONDS = 6.0


def seconds_text(seconds: float) -> str:
    """A duration in whole or tenth seconds as a season file writes it (``"7.5s"``)."""
    return f"{math.ceil(seconds * 10) / 10:g}s"


def phase_floor(players: int, request_seconds: float) -> float:
    """The shortest phase (seconds) a rehearsal of ``players`` gives a forum that answers one request in
    ``request_seconds`` (a login: a command is about as long): the players send about one command each, one at a
    time, while the bot reads them; half as long again, plus :data:`MIN_PHASE_SECONDS`."""
    return MIN_PHASE_SECONDS + 1.5 * players * max(request_seconds, 0.0)


def scaled_schedule(schedule: dict[str, Any], speed: float, floor: float) -> dict[str, Any]:
    """The ``[schedule]`` table ``schedule`` (as read from TOML) for a rehearsal at ``speed`` (> 0): phase lengths
    divided by ``speed`` and at least ``floor`` seconds, reminders and ``vote_count_before`` divided by ``speed``
    (those at or past the phase's start dropped by the bot as usual), ``grace`` one second, ``outage`` ten reads,
    no ``start``, ``daily_deadline`` or ``post_delay``. Raises ValueError for a speed that is not positive."""
    if not speed > 0:
        raise ValueError(f"the speed must be positive (got {speed:g})")

    def phase(text: str) -> str:
        return seconds_text(max(parse_duration(text).total_seconds() / speed, floor))

    def offset(text: str) -> str:
        return seconds_text(max(parse_duration(text).total_seconds() / speed, 0.1))

    out = {k: v for k, v in schedule.items() if k not in ("start", "daily_deadline", "post_delay")}
    out["default"] = phase(schedule.get("default", "24h"))
    out["lengths"] = {kind: phase(text) for kind, text in schedule.get("lengths", {}).items()}
    defaults = Schedule()
    for key in ("reminders", "vote_count_before"):  # the defaults too: an hour before a 10-second phase is moot
        out[key] = [offset(t) for t in schedule.get(key, getattr(defaults, key))]
    out["poll_interval"] = seconds_text(POLL_SECONDS)
    out["grace"] = seconds_text(POLL_SECONDS)
    out["outage"] = seconds_text(10 * POLL_SECONDS)
    return out


def speed_for(schedule: dict[str, Any], kinds: list[str], total: timedelta) -> float:
    """The speed at which phases of ``kinds`` (the phases a game is expected to play, in order) last ``total`` in
    all under the ``[schedule]`` table ``schedule``; at least 1."""
    lengths = schedule.get("lengths", {})
    default = schedule.get("default", "24h")
    seconds = sum(parse_duration(lengths.get(k, default)).total_seconds() for k in kinds)
    return max(seconds / max(total.total_seconds(), 1.0), 1.0)


def write_rehearsal_file(data: dict[str, Any], source: Path, folder: Path, *, base_url: str, forum_id: int,
                         judge_password: str, speed: float, floor: float, seed: int | str | None) -> Path:
    """Write the rehearsal's season file into ``folder`` from ``data``, the organiser's file ``source`` as read
    from TOML; returns its path. ``templates`` and ``password_file`` written relative to ``source``'s folder are
    made absolute. The judge's password goes in :data:`PASSWORD_FILE` (readable by the owner only)."""
    out = {k: v for k, v in data.items() if k not in ("database", "forum", "schedule")}
    if seed is not None:
        out["seed"] = seed
    if isinstance(out.get("templates"), str) and not Path(out["templates"]).is_absolute():
        out["templates"] = str((source.parent / out["templates"]).resolve())
    forum = data.get("forum", {})
    password = folder / PASSWORD_FILE
    password.write_text(judge_password + "\n", encoding="utf-8")
    password.chmod(0o600)
    out["database"] = f"sqlite:///{(folder / DATABASE_FILE).resolve()}"
    out["forum"] = {"engine": "flaskbb", "base_url": base_url, "username": forum.get("username", "法官"),
                    "password_file": PASSWORD_FILE, "forum_id": forum_id, "min_write_interval_seconds": 0}
    out["schedule"] = scaled_schedule(data.get("schedule", {}), speed, floor)
    path = folder / SEASON_FILE
    header = (f"# Written by `forumbot rehearse {source}`: that file with its phases {speed:g} times shorter and a\n"
              "# local FlaskBB as its forum. `forumbot status` and `forumbot organiser` of this file reach the rehearsal.\n")
    path.write_text(header + tomlkit.dumps(out), encoding="utf-8")
    return path


#: the longest user name the local FlaskBB stores (its ``users.username`` column)
MAX_NAME = 200


def roster_problem(judge: str, organisers: list[str], players: list[str]) -> str | None:
    """Why the local FlaskBB cannot create one account for each of ``judge``, ``organisers`` and ``players``
    (one line, naming the season file's key), or None. FlaskBB tells user names apart without regard to case (its
    registration and login compare them in lower case), so two names that differ only in case are one account; and
    it stores at most :data:`MAX_NAME` characters."""
    seen: dict[str, tuple[str, str]] = {}  # lower-case name -> (name, key)
    for key, names in (("forum.username", [judge]), ("organisers", organisers), ("players", players)):
        for name in names:
            if len(name) > MAX_NAME:
                return (f"{key}: {name[:20]!r}... is {len(name)} characters long: FlaskBB takes user names of at "
                        f"most {MAX_NAME}")
            if (first := seen.get(name.lower())) is not None:
                other, where = first
                same = "is listed twice" if other == name else f"and {other!r} are one account on FlaskBB (it ignores case)"
                places = key if where == key else f"{where} and {key}"
                return f"{places}: {name!r} {same}: the rehearsal's forum needs one account for each name"
            seen[name.lower()] = (name, key)
    return None
