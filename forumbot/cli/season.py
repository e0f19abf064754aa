"""Season commands: ``init``, ``check``, ``run``, ``status``, ``organiser``."""

from __future__ import annotations

import logging
import re
import sys
from datetime import UTC, datetime
from pathlib import Path

import typer

from forumbot.cli.outcome import outcome
from forumbot.cli.root import app
from forumbot.cli.text import plain
from forumbot.config import ConfigError, SeasonConfig, load_config
from forumbot.engine.ruleset import ruleset_ids
from forumbot.forums.errors import ForumError
from forumbot.forums.settings import SettingsError, make_forum
from forumbot.language.numbers import parse_duration
from forumbot.resources import package_dir
from forumbot.runtime.schedule import format_local

EXAMPLES = package_dir("config_examples")


def setup_logging(level: str = "INFO") -> None:
    """Plain log lines, one per action, on stderr. No secrets and no roles at INFO."""
    logging.basicConfig(level=getattr(logging, level.upper(), logging.INFO), stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(message)s", datefmt="%Y-%m-%d %H:%M:%S")
    for noisy in ("httpx", "httpcore", "alembic"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    # APScheduler's "skipped: maximum number of running instances" is routine here (a slow cycle).
    logging.getLogger("apscheduler").setLevel(logging.ERROR)


def _load(path: Path) -> SeasonConfig:
    try:
        return load_config(path)
    except ConfigError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None


def _bot(config: SeasonConfig, forum=None, accept_new_rules: bool = False, engine=None):
    """The season's bot (its database opened, and created if new); a bad season file or a database that
    cannot be opened or written ends the command with one line (exit codes 2 and 1)."""
    from forumbot.cli.database import database_errors  # SQLAlchemy: not for `forumbot check`
    from forumbot.runtime.bot import Bot

    with database_errors(config):
        try:
            return Bot(config, forum, accept_new_rules=accept_new_rules, engine=engine)
        except ConfigError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None


@app.command("init")
def init(
    path: Path = typer.Argument(Path("season.toml"), help="where to write the new season file (a .toml file)"),
    ruleset: str = typer.Option("sunlight", help=f"the season's ruleset, one of: {', '.join(ruleset_ids())}"),
) -> None:
    """Write a commented starting season file for the ruleset of --ruleset (default sunlight) at PATH."""
    if path.suffix != ".toml" and path.name in ruleset_ids():
        typer.echo(f"error: {path} is a ruleset's name, not a season file; did you mean "
                   f"`forumbot init --ruleset {path.name} {path.name}.toml`?", err=True)
        raise typer.Exit(2)
    source = EXAMPLES / f"{ruleset}.example.toml"
    if ruleset not in ruleset_ids() or not source.exists():
        typer.echo(f"error: no example for ruleset {ruleset!r}; known: {', '.join(ruleset_ids())}", err=True)
        raise typer.Exit(2)
    if path.exists():
        typer.echo(f"error: {path} exists; choose another path", err=True)
        raise typer.Exit(2)
    if not path.parent.is_dir():
        typer.echo(f"error: there is no folder {path.parent}; create it first, or choose another path", err=True)
        raise typer.Exit(2)
    text = source.read_text(encoding="utf-8").replace(f"forumbot/config_examples/{ruleset}.example.toml", str(path))
    path.write_text(future_start(text), encoding="utf-8")
    typer.echo(f"wrote {path}: edit it, then `forumbot check {path} --forum`")


def _now() -> datetime:
    return datetime.now(UTC)


def future_start(text: str, now: datetime | None = None) -> str:
    """A season file ``text`` whose ``start`` lines (written or commented out) show tomorrow 20:00 in its
    time zone, commented out: a new season file never starts in the past, and without a start the
    season starts when ``forumbot run`` first runs."""
    import tomllib
    from datetime import timedelta
    from zoneinfo import ZoneInfo

    zone = ZoneInfo(tomllib.loads(text).get("time_zone", "Asia/Shanghai"))
    tomorrow = ((now or _now()).astimezone(zone) + timedelta(days=1)).date()
    when = f"{tomorrow.isoformat()}T20:00:00"
    return re.sub(r"^#? ?start = \d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d)?", f"# start = {when}", text, flags=re.MULTILINE)


def past_start_warning(c: SeasonConfig, now: datetime | None = None) -> str | None:
    """A warning when ``schedule.start`` is in the past and the season has not run yet: it would start
    at once, and its first phase would be short or already over."""
    start = c.start_utc()
    now = now or _now()
    if start is None or start >= now or not _no_database(c):
        return None
    return (f"WARNING: schedule.start ({format_local(start, c.tz, 'en')}) is in the past: `forumbot run` would start "
            "the season at once, its phases counted from that time (the first may already be over). Set a start in the future, or delete "
            "the line to start when `forumbot run` first runs.")


@app.command("check")
def check(
    config: Path = typer.Argument(..., help="the season file, or a directory of season files (forumbot serve)"),
    forum: bool = typer.Option(False, "--forum", help="also log in to the forum and read the thread and inbox"),
) -> None:
    """Validate a season file (and, with --forum, the forum settings against the live forum). For a
    directory: each of its season files (*.toml, as `forumbot serve` runs them), one block each; the exit
    status is not 0 when any of them fails."""
    if not config.is_dir():
        _check_file(config, forum)
        return
    files = sorted(config.glob("*.toml"))
    if not files:
        typer.echo(f"error: {config} holds no season file (*.toml)", err=True)
        raise typer.Exit(2)
    failed: dict[str, int] = {}
    for number, path in enumerate(files):
        if number:
            typer.echo("")
        try:
            _check_file(path, forum)
        except typer.Exit as exc:
            if exc.exit_code:
                failed[path.name] = exc.exit_code
    typer.echo(f"\n{config}: {len(files)} season files, {len(files) - len(failed)} ok"
               + (f", {len(failed)} failed: {', '.join(failed)}" if failed else ""))
    if failed:
        raise typer.Exit(max(failed.values()))


def _check_file(config: Path, forum: bool) -> None:
    """``forumbot check`` of one season file; raises typer.Exit (2: the file, 1: the forum) when it fails."""
    c = _load(config)
    start = c.start_utc()
    typer.echo(f"{config}: ok — season {c.name!r}, ruleset {c.ruleset}, {len(c.players)} players, "
               f"locale {c.locale}, markup {c.effective_markup}, time zone {c.time_zone}")
    typer.echo(f"  start: {format_local(start, c.tz, 'en') if start else 'when `forumbot run` first starts'}; "
               f"phase lengths: default {c.schedule.default}" + "".join(f", {k} {v}" for k, v in c.schedule.lengths.items())
               + (f"; deadlines at {c.schedule.daily_deadline} local" if c.schedule.daily_deadline else ""))
    typer.echo(f"  database: {c.database_url.split('@')[-1]}")
    if warning := past_start_warning(c):
        typer.echo(warning)
    if not forum:
        for line in vote_chart_lines(c):
            typer.echo(line)
    if forum:
        from forumbot.forums.check import _report, account_report, diagnose, failed

        try:
            f = make_forum(c.forum, c.base_dir)
        except SettingsError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        report: list[str] = []
        try:
            for line in _report(f, c.forum, recipients=len(c.players) + len(c.organisers)):
                report.append(line)
                typer.echo(line)
            lines, missing = account_report(f, c.players, c.organisers)
            lines += vote_chart_lines(c, f if c.forum.engine == "discuz" else None)
        except ForumError as exc:
            typer.echo(diagnose(exc, c.forum), err=True)
            raise typer.Exit(1) from None
        for line in lines:
            typer.echo(line)
        if missing or failed(report):
            raise typer.Exit(1)


@app.command("run")
def run(
    config: Path = typer.Argument(..., help="the season file"),
    log_level: str = typer.Option("INFO", help="DEBUG shows more (including private details); INFO is safe to share"),
    accept_new_rules: bool = typer.Option(
        False, "--accept-new-rules",
        help="resume a running season judged by another version of the parser or rules with this one's (recorded)"),
    lease: str = typer.Option("60s", help="how long the season stays locked to this process if it dies without "
                                          "stopping (a SIGTERM ends it at once)"),
) -> None:
    """Run the season until the game is over and every post and private message is delivered. One process
    judges a season: a second `run` of it (or a `run` of a season `serve` judges) stops at once, exit 2."""
    from forumbot.cli.run_guard import run_season

    setup_logging(log_level)
    c = _load(config)
    try:
        lease_seconds = parse_duration(lease).total_seconds()
    except ValueError:
        lease_seconds = 0.0
    if lease_seconds <= 0:
        typer.echo(f"error: --lease {lease!r} is not a duration such as 60s or 2m", err=True)
        raise typer.Exit(2)
    try:
        f = _forum(c)
    except SettingsError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    warning = past_start_warning(c)  # before the database is opened: it tells whether the season ran
    run_season(c, f, lease_seconds, lambda engine: _bot(c, f, accept_new_rules, engine=engine), warning)


@app.command("status")
def status(
    config: Path = typer.Argument(..., help="the season file, or a directory of season files (forumbot serve)"),
    database: str = typer.Option(None, envvar="FORUMBOT_DATABASE",
                                 help="with a directory: the database `forumbot serve --database` uses"),
) -> None:
    """The phase, the deadline, who has and has not acted (for the organiser's eyes), the outbox. For a
    directory: one line per season (and the worker judging it)."""
    if config.is_dir():
        from forumbot.cli.serve import status_all

        status_all(config, database)
        return
    c = _with_database(_load(config), database)
    if _no_database(c):
        typer.echo(f"season {c.name!r}: not started (no database yet)")
        return
    if (never := _never_run(c)) is not None:
        typer.echo(f"season {c.name!r}: not started ({never})")
        return
    bot = _bot(c)
    g = bot.game
    if not bot.started:
        typer.echo(f"season {c.name!r}: not started")
        return
    dl = bot.deadline()
    typer.echo(f"season {c.name!r}: {outcome(g.winner, c.locale) if g.finished else f'{g.phase.kind} round {g.phase.round} (phase {g.phase.id})'}"
               + (" — PAUSED" if bot.timing.paused_since else ""))
    if dl:
        typer.echo(f"  deadline: {format_local(dl, c.tz, 'en')}")
    elif not g.finished and not bot.timing.paused_since:
        # the phase's clock starts when its opening post is on the forum (docs/runtime.md)
        typer.echo("  deadline: set when the phase's opening post is on the forum (not yet)")
    if not g.finished:
        pending = set(g.ruleset.pending())
        typer.echo(f"  to act: {', '.join(g.name(s) for s in sorted(pending)) or 'nobody'}")
        typer.echo(f"  done:   {', '.join(g.name(s) for s in g.alive() if s not in pending) or 'nobody'}")
    if bot.thread_commands:
        typer.echo("  commands posted in the thread (not counted; the player was told by PM):")
        for pid, name, verb in bot.thread_commands[-10:]:
            phase = g.phases[pid]
            typer.echo(f"    {name}: {verb} ({phase.kind} round {phase.round})")
    for s in bot.straddled():
        typer.echo(f"  sent around a deadline ({format_local(datetime.fromisoformat(s['deadline']), c.tz, 'en')}): "
                   f"{s['source']} {s['forum_id']} from {s['sender']}, sent between "
                   f"{format_local(datetime.fromisoformat(s['earliest']), c.tz, 'en')} and "
                   f"{format_local(datetime.fromisoformat(s['latest']), c.tz, 'en')}: counted {s['counted']} "
                   "(schedule.straddling)")
    rows = bot.store.outbox()
    counts: dict[str, int] = {}
    for r in rows:
        counts[r.status] = counts.get(r.status, 0) + 1
    typer.echo("  outbox: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    for r in rows:
        if r.status in ("failed", "sending", "undeliverable", "cancelled"):
            typer.echo(f"    {r.status}: {r.kind} to {r.recipient or 'thread'} after {r.attempts} attempts: {r.last_error or ''}")
    for r in [r for r in rows if r.status == "note"][-5:]:
        typer.echo(f"  answer to the command line: {plain(r.body, c.effective_markup).strip()}")


@app.command("organiser")
def organiser(
    config: Path = typer.Argument(..., help="the season file"),
    command: list[str] = typer.Argument(..., help='e.g. penalty 张三 lurking | replace 张三 新账号 | extend 2h | pause | resume | end'),
    database: str = typer.Option(None, envvar="FORUMBOT_DATABASE",
                                 help="the database `forumbot serve --database` judges the season in"),
    no_check: bool = typer.Option(False, "--no-check",
                                  help="replace: do not ask the forum whether the new account exists"),
) -> None:
    """Give an organiser command; the running bot applies it in order and logs it in the game's events.

    ``penalty`` and ``replace`` must name the player exactly (they cannot be taken back); ``replace``
    first asks the forum whether the new account exists (as ``forumbot check --forum`` does for the
    roster), unless ``--no-check``."""
    from forumbot.language.parse import parse
    from forumbot.language.types import ORGANISER_VERBS, ParseError

    c = _with_database(_load(config), database)
    if _no_database(c) or _never_run(c) is not None:
        typer.echo(f"error: season {c.name!r} has not started: run it first (`forumbot run {config}`)", err=True)
        raise typer.Exit(2)
    bot = _bot(c)
    if not bot.started:
        typer.echo(f"error: season {c.name!r} has not started: organiser commands apply to a running game", err=True)
        raise typer.Exit(2)
    if bot.game.finished:  # no bot judges it any more: the command would be stored and never answered
        typer.echo(f"error: season {c.name!r} is over ({outcome(bot.game.winner, c.locale)}): "
                   "organiser commands apply to a running game", err=True)
        raise typer.Exit(2)
    text = " ".join(command)
    parsed = parse(text, bot.game.roster)
    if isinstance(parsed, ParseError) or parsed.verb not in ORGANISER_VERBS:
        typer.echo(f"error: {_explain(parsed, bot.game)}", err=True)
        raise typer.Exit(2)
    if refusal := _inexact(parsed, bot.game):
        typer.echo(f"error: {refusal}", err=True)
        raise typer.Exit(2)
    if parsed.verb == "replace" and (refusal := _bad_substitute(parsed, bot.game, c)):
        typer.echo(f"error: {refusal}", err=True)
        raise typer.Exit(2)
    if parsed.verb == "replace" and not no_check and (refusal := _no_account(c, (parsed.text or "").strip())):
        typer.echo(f"error: {refusal}", err=True)
        raise typer.Exit(2)
    bot.organiser_command(text)
    typer.echo(f"stored at {datetime.now(UTC):%H:%M:%S} UTC; the bot applies it at its next cycle "
               "(`forumbot status` shows the answer)")


ORGANISER_HELP = ("penalty NAME lurking|flooding, replace NAME NEWACCOUNT, extend 2h (or 30m), pause, resume, end")


def _explain(parsed, game) -> str:
    """Why a command typed on the command line is not an organiser command, and what to type."""
    from forumbot.language.types import ParseError

    if not isinstance(parsed, ParseError):
        return f"{parsed.verb!r} is a player's command; organiser commands are: {ORGANISER_HELP}"
    if parsed.code == "unknown_name":
        return f"no player {parsed.written!r} in this season; players: {', '.join(p.name for p in game.players)}"
    if parsed.code == "ambiguous_name":
        return f"{parsed.written!r} could be {', '.join(game.names(parsed.candidates))}: write the full name"
    if parsed.code == "bad_number" and parsed.verb == "extend":
        return "extend needs a duration with its unit, e.g. extend 2h or extend 30m"
    if parsed.code == "bad_argument" and parsed.verb == "replace":
        return "replace needs the player's name and then the new account's name: replace NAME NEWACCOUNT"
    if parsed.code == "bad_argument" and parsed.verb == "penalty":
        return ("penalty needs a reason: lurking or flooding"
                + (f" ({parsed.written!r} is neither)" if parsed.written else "") + ", e.g. penalty NAME lurking")
    if parsed.code == "missing_target":
        return f"{parsed.verb} needs a player's name: {ORGANISER_HELP}"
    return f"not an organiser command; organiser commands are: {ORGANISER_HELP}"


def _inexact(parsed, game) -> str | None:
    """Why a ``penalty`` or ``replace`` (neither can be taken back) whose player was read loosely (a typo,
    a prefix: the parser's :class:`~forumbot.language.types.NameReading` not exact) is refused, or None
    when the player is named exactly (account name, a declared alias, seat number)."""
    if parsed.verb not in ("penalty", "replace") or not parsed.readings or parsed.readings[0].exact:
        return None
    reading = parsed.readings[0]
    return (f"{reading.written!r} is not a player's exact name: did you mean {game.name(reading.seat)}? "
            f"write the exact name (or an alias of the season, or the seat number): a {parsed.verb} cannot be taken back")


def _forum(config: SeasonConfig):
    """The season's forum adapter (tests replace it)."""
    return make_forum(config.forum, config.base_dir)


def _no_account(config: SeasonConfig, new: str) -> str | None:
    """Why ``replace NAME NEW`` is refused because the forum has no account ``new`` (exactly so spelt:
    private messages go to the exact name), or because the forum could not be asked; None when it exists.
    The same look-up as ``forumbot check --forum`` (:func:`forumbot.forums.check.account_report`)."""
    from forumbot.forums.check import name_variants

    forum = None
    try:
        forum = _forum(config)
        forum.login()
        found = forum.find_user(new)
        near = None if found is not None else next((v for v in name_variants(new) if forum.find_user(v)), None)
    except (ForumError, SettingsError) as exc:
        return (f"could not ask the forum whether the account {new!r} exists ({exc}); try again when it answers, "
                "or add --no-check to replace without checking")
    finally:
        if forum is not None:
            forum.close()
    if found == new:
        return None
    if found is not None:
        return f"the forum spells this account {found}: write it exactly so (private messages go to the exact name)"
    hint = f"; the account {near} exists: is it the one meant?" if near else "; check the spelling on the forum"
    return f"no account {new!r} on the forum{hint} (the role message could not be delivered)"


def _bad_substitute(parsed, game, config: SeasonConfig) -> str | None:
    """Why ``replace NAME NEWACCOUNT`` cannot be applied (the game refuses a substitute who already plays
    or organises: common/organiser_refused), or None when it can."""
    old, new = game.name(parsed.targets[0]), (parsed.text or "").strip()
    if new == old:
        return f"replace {old} {new} names the same player in and out: write the new account's name second"
    if game.seat_of(new) is not None:
        return f"{new} already plays in season {config.name!r}: the substitute must be a new account"
    if new in config.organisers:
        return f"{new} is an organiser of season {config.name!r}: the substitute must be a new account"
    return None


def _with_database(c: SeasonConfig, database: str | None) -> SeasonConfig:
    """``c`` in the database ``forumbot serve --database`` keeps every season in, when given."""
    return c.model_copy(update={"database": database}) if database else c


def _never_run(c: SeasonConfig) -> str | None:
    """Why the season has never run in its database (no forumbot tables there, or no row of this season),
    found without creating anything (call it after :func:`_no_database`: a SQLite file that does not exist
    would be created); None when the season has a row. A database that cannot be reached ends the command
    with one line."""
    from forumbot.cli.database import database_errors, has_tables
    from forumbot.runtime.store import Store, make_engine

    with database_errors(c):
        engine = make_engine(c.database_url)
        try:
            if not has_tables(engine):
                return "its database has no forumbot tables yet"
            if Store.find_season(engine, c.name) is None:
                return "never run in its database"
        finally:
            engine.dispose()
    return None


def _no_database(c: SeasonConfig) -> bool:
    """True when the season's SQLite file does not exist yet (so nothing has run)."""
    url = c.database_url
    return url.startswith("sqlite:///") and not Path(url.removeprefix("sqlite:///")).exists()


def vote_chart_lines(config, forum=None) -> list[str]:
    """What ``forumbot check`` says of ``vote_chart_images`` (a vote round's PNG with its result post) for
    the season ``config`` (a :class:`forumbot.config.SeasonConfig`): nothing when it is off; a warning when
    the forum's engine takes no pictures with a post, when matplotlib or (for Chinese) a CJK font is
    missing, and, with a logged-in Discuz! ``forum``, whether the judge may upload PNG pictures in the
    season's board (``allowperm`` of ``module=checkpost``)."""
    if not config.vote_chart_images:
        return []
    from forumbot.vote_chart import cjk_font

    out: list[str] = []
    if config.forum.engine != "discuz":
        out.append(f"WARNING: vote_chart_images is on, but {config.forum.engine} forums take no pictures with a post "
                   "(only Discuz! does): vote results are posted as text only.")
        return out
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        out.append("WARNING: vote_chart_images is on, but matplotlib is not installed (pip install 'forumbot[charts]'): "
                   "vote results would be posted without their chart.")
        return out
    if config.locale != "en" and cjk_font() is None:
        out.append("WARNING: vote_chart_images is on, but this machine has no CJK font for the Chinese words of the "
                   "chart (Debian: apt-get install fonts-wqy-microhei): vote results would be posted without it.")
    if forum is not None:
        try:
            fid, perm = forum.upload_permission(thread_id=config.forum.thread_id, forum_id=config.forum.forum_id)
        except ForumError as exc:
            out.append(f"WARNING: could not ask the forum whether the judge may upload pictures ({exc}).")
            return out
        allowed = perm.get("allowupload")
        png = str(allowed.get("png", "0")) if isinstance(allowed, dict) else "0"
        if png == "0":
            out.append(f"WARNING: vote_chart_images is on, but the judge's user group may not upload PNG attachments in "
                       f"board {fid}: vote results would be posted without their chart (docs/discuz.md, pictures with "
                       "vote results: 用户组 → 帖子相关 → 允许上传附件/图片, 允许附件类型 png).")
        else:
            limit = "the group's size limit" if png == "-1" else f"{png} bytes"
            out.append(f"Vote charts: the judge may upload PNG pictures in board {fid} (up to {limit}).")
    return out
