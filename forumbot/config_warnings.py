"""What a season file may say but probably does not mean: told by ``forumbot check`` and printed by
``run`` and ``serve``, which go on (an error stops them; a warning does not). Each warning is one line,
"line N: key: what is likely wrong and what to do".

- a player who is an organiser too;
- a number of players outside the rulebook's table (:meth:`forumbot.engine.ruleset.Ruleset.table_sizes`);
- a reminder as long as the phase it is for, or longer (it would fall before the phase opens);
- a ``start`` or ``daily_deadline`` local time that does not exist (the clocks jump forward over it) or that
  happens twice (they go back over it) in the season's time zone;
- a thread-vote season on a forum with a minimum post length (Discuz!, NodeBB, phpBB) that refuses its
  shortest vote (``forum.min_post_length``, each engine's default in :data:`MIN_POST_LENGTH`).

:func:`password_warning` (``check`` only: ``run`` stops on it) tells that the forum password cannot be read.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from forumbot.config_messages import locate
from forumbot.forums.settings import SettingsError

if TYPE_CHECKING:
    from forumbot.engine.game import Game

#: a :class:`forumbot.config.SeasonConfig` (not imported: forumbot.config imports this module)
SeasonConfig = Any

#: each engine's default minimum post length (Discuz!: ``minpostsize``, bytes in the site's charset; NodeBB:
#: ``minimumPostLength``, characters after trimming; phpBB: ``min_post_chars``, characters; FlaskBB: none),
#: as docs/forums.md and docs/discuz.md give them
MIN_POST_LENGTH = {"discuz": 10, "nodebb": 8, "phpbb": 1, "flaskbb": 0}
#: where an administrator changes it
MIN_POST_SETTING = {
    "discuz": "minpostsize (Admin → Global → post minimum length)",
    "nodebb": "minimumPostLength (Admin → Settings → Post → Posting restrictions)",
    "phpbb": "min_post_chars (ACP → Posting → Post settings)",
}
_ENGINE_NAMES = {"discuz": "Discuz!", "nodebb": "NodeBB", "phpbb": "phpBB", "flaskbb": "FlaskBB"}


def season_warnings(config: SeasonConfig, text: str, game: Game | None) -> list[str]:
    """Each warning about ``config`` (read from ``text``; ``game`` the game it starts, None when unknown),
    "line N: key: ..." (the line omitted when the key is not written)."""
    found: list[tuple[list[str], str]] = []
    if game is not None:
        found += _table_warnings(config, game)
        found += _short_vote_warnings(config, game)
    found += _organiser_warnings(config)
    found += _reminder_warnings(config, game)
    found += _local_time_warnings(config)
    lines = []
    for loc, message in found:
        line = locate(text, loc)
        lines.append((line or 10**9, f"{f'line {line}: ' if line else ''}{'.'.join(loc)}: {message}"))
    return [message for _, message in sorted(lines, key=lambda x: x[0])]


def password_warning(config: SeasonConfig) -> str | None:
    """Why the judge's password cannot be read now (``forum.password_env`` not set, ``password_file``
    missing), or None: ``forumbot run`` and ``check --forum`` would stop on it."""
    try:
        config.forum.password(config.base_dir)
    except SettingsError as exc:
        key = "forum.password_env" if config.forum.password_env else "forum.password_file"
        return f"{key}: {exc}; `forumbot run` and `forumbot check --forum` stop until it is"
    return None


def _table_warnings(config: SeasonConfig, game: Game) -> list[tuple[list[str], str]]:
    sizes = game.ruleset.table_sizes()
    n = len(config.players)
    if sizes is None:
        return []
    low, high = sizes
    if low <= n and (high is None or n <= high):
        return []
    table = f"{low}–{high}" if high is not None else f"{low} or more"
    return [(["players"], f"{n} players, but the rulebook of {config.ruleset} is written for {table} players: the "
                          "role counts and the balance are untried outside its table (docs/balance.md); add or "
                          "remove players, or go on knowingly")]


def _organiser_warnings(config: SeasonConfig) -> list[tuple[list[str], str]]:
    """A player who is an organiser too: legal (a small group may want it) but he then plays with the
    organiser's hand on the game."""
    both = [name for name in config.organisers if name in config.players]
    if not both:
        return []
    return [(["organisers"], f"{', '.join(both)} {'is' if len(both) == 1 else 'are'} also among the players: an "
                             "organiser's commands (penalty, replace, extend, pause, end) are obeyed while he plays, "
                             "and the posts of dead players are reported to him; take "
                             f"{'him' if len(both) == 1 else 'them'} out of organisers unless the players agreed to it")]


def _reminder_warnings(config: SeasonConfig, game: Game | None) -> list[tuple[list[str], str]]:
    """A warning when every reminder is as long as a kind of phase or longer: its players get none (a
    reminder that would fall before its phase opens is not sent)."""
    from forumbot.language.numbers import parse_duration

    # the prologue is left out: nobody owes an action in it, so it has no reminders
    kinds = [k for k in (game.ruleset.phase_kinds if game is not None else config.schedule.lengths) if k != "prologue"]
    offsets = [parse_duration(text) for text in config.schedule.reminders]
    if not offsets:
        return []
    short = [(kind, config.schedule.length(kind)) for kind in kinds if config.schedule.length(kind) <= min(offsets)]
    if not short:
        return []
    written = ", ".join(config.schedule.reminders)
    phases = " and ".join(f"{kind} ({_duration(length)})" for kind, length in short)
    least = min(length for _, length in short)
    suggestion = "1h" if least > timedelta(hours=1) else _duration(least / 2)
    return [(["schedule", "reminders"],
             f"{'every reminder' if len(offsets) > 1 else 'the reminder'} ({written}) is as long as the {phases} "
             f"phase{'s' if len(short) > 1 else ''} or longer: a reminder that would fall before its phase opens is "
             f"not sent, so players who have not acted get none in {'them' if len(short) > 1 else 'it'}; add one "
             f"shorter than {_duration(least)}, e.g. reminders = [{', '.join(repr(r) for r in config.schedule.reminders)}, \"{suggestion}\"]"
             .replace("'", '"'))]


def _duration(length: timedelta) -> str:
    seconds = int(length.total_seconds())
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return "".join(f"{v}{u}" for v, u in ((hours, "h"), (minutes, "m"), (seconds, "s")) if v) or "0s"


def wall_time_problem(when: datetime, tz: ZoneInfo) -> str | None:
    """"gap" when the local wall time ``when`` (naive) does not exist in ``tz`` (the clocks jump over it),
    "fold" when it happens twice (they go back over it), else None."""
    early, late = when.replace(tzinfo=tz, fold=0), when.replace(tzinfo=tz, fold=1)
    if early.utcoffset() == late.utcoffset():
        return None
    back = early.astimezone(UTC).astimezone(tz).replace(tzinfo=None)
    return "gap" if back != when else "fold"


def _shown(when: datetime, tz: ZoneInfo) -> str:
    return f"{when.strftime('%H:%M')} {when.tzname()} (UTC{_offset(when.utcoffset())})"


def _offset(delta: timedelta | None) -> str:
    minutes = int((delta or timedelta(0)).total_seconds() // 60)
    sign = "+" if minutes >= 0 else "-"
    hours, minutes = divmod(abs(minutes), 60)
    return f"{sign}{hours}" + (f":{minutes:02d}" if minutes else "")


def _wall_time_message(when: datetime, tz: ZoneInfo, problem: str, what: str = "") -> str:
    zone = tz.key
    taken = when.replace(tzinfo=tz).astimezone(UTC).astimezone(tz)  # as the schedule reads it (fold=0)
    if problem == "gap":
        return (f"{what}{when:%Y-%m-%d %H:%M} does not exist in {zone}: the clocks jump forward over it that night, so "
                f"the bot takes {taken:%H:%M} {taken.tzname()}; choose a time outside the jump (e.g. an hour later)")
    other = when.replace(tzinfo=tz, fold=1)
    return (f"{what}{when:%Y-%m-%d %H:%M} happens twice in {zone}: the clocks go back over it that night, first "
            f"{_shown(taken, tz)}, then {_shown(other, tz)}; the bot takes the first; choose a time outside the "
            "hour that repeats so that players read it one way")


def _local_time_warnings(config: SeasonConfig) -> list[tuple[list[str], str]]:
    tz = config.tz
    warnings: list[tuple[list[str], str]] = []
    start = config.schedule.start
    if start is not None and start.tzinfo is None and (problem := wall_time_problem(start, tz)):
        warnings.append((["schedule", "start"], _wall_time_message(start, tz, problem)))
    at = config.schedule.daily_deadline
    if at is not None:
        first = start.date() if start is not None else datetime.now(UTC).astimezone(tz).date()
        seen: set[str] = set()
        for day in _days(first, 400):
            when = datetime.combine(day, at.replace(tzinfo=None))
            problem = wall_time_problem(when, tz)
            if problem and problem not in seen:
                seen.add(problem)
                warnings.append((["schedule", "daily_deadline"], _wall_time_message(when, tz, problem, "the deadline ")))
    return warnings


def _days(first: date, count: int) -> list[date]:
    return [first + timedelta(days=i) for i in range(count)]


def _vote_word(locale: str) -> str:
    return "vote" if locale == "en" else "投"


def _short_vote_warnings(config: SeasonConfig, game: Game) -> list[tuple[list[str], str]]:
    engine = config.forum.engine
    least = config.forum.min_post_length if config.forum.min_post_length is not None else MIN_POST_LENGTH.get(engine, 0)
    if engine not in MIN_POST_SETTING or least <= 1 or "vote" not in _thread_verbs(game):
        return []
    names = list(config.players) + [a for aliases in config.aliases.values() for a in aliases]
    charset = "gbk" if engine == "discuz" and config.forum.charset == "gbk" else "utf-8"

    def size(post: str) -> int:
        return len(post.encode(charset, errors="replace")) if engine == "discuz" else len(post.strip())

    shortest = min((f"{_vote_word(config.locale)} {name}" for name in names), key=size)
    if size(shortest) >= least:
        return []
    unit = f"bytes in {charset.upper()}" if engine == "discuz" else "characters"
    key = ["forum", "min_post_length"] if config.forum.min_post_length is not None else ["forum", "engine"]
    return [(key, f"a vote posted in the thread can be as short as «{shortest}» ({size(shortest)} {unit}), under "
                  f"{_ENGINE_NAMES[engine]}'s minimum post length of {least}: the forum refuses such a post before "
                  f"the judge sees it. Have an administrator lower {MIN_POST_SETTING[engine]} to {size(shortest)} or "
                  "less, or tell the players to write a few more words with their vote; set forum.min_post_length "
                  "to the forum's own value if it is not the default")]


def _thread_verbs(game: Game) -> frozenset[str]:
    verbs = set(game.ruleset.thread_command_verbs())
    for action in getattr(game.ruleset, "actions", ()):
        if action.channel_now(game.ruleset) == "thread":
            verbs.update(action.verbs)
    return frozenset(verbs)
