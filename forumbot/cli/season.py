"""Season commands: ``init``, ``check``, ``run``, ``status``, ``organiser``."""

from __future__ import annotations

import logging
import re
import sys
from datetime import UTC, datetime
from pathlib import Path

import click
import typer

from forumbot.cli.outcome import outcome
from forumbot.cli.root import app
from forumbot.cli.text import plain
from forumbot.config import ConfigError, SeasonConfig, load_config
from forumbot.engine.ruleset import get_ruleset, ruleset_ids
from forumbot.forums.errors import ForumError
from forumbot.forums.settings import SettingsError, make_forum
from forumbot.language.numbers import parse_duration
from forumbot.resources import package_dir
from forumbot.runtime import organiser_checks
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
    """The season file at ``path``; its mistakes end the command, one line each (exit status 2)."""
    try:
        return load_config(path)
    except ConfigError as exc:
        for line in str(exc).splitlines():
            typer.echo(f"error: {line}", err=True)
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
    ruleset: str = typer.Option(None, help=f"the season's ruleset, one of: {', '.join(ruleset_ids())} (default sunlight)"),
    name: str = typer.Option(None, help="the season's name"),
    locale: str = typer.Option(None, help="zh-Hans, zh-Hant or en: the language of the posts and private messages"),
    players: str = typer.Option(None, help="the players' forum user names in seat order, comma-separated: a,b,c"),
    organisers: str = typer.Option(None, help="the organisers' forum user names, comma-separated"),
    timezone: str = typer.Option(None, "--timezone", help="the deadlines' time zone, e.g. Asia/Shanghai"),
    phase_length: str = typer.Option(None, help="the phase lengths: 24h (every phase but the short windows), or kind by "
                                                "kind: 'vote 24h, kill 12h'"),
    daily_deadline: str = typer.Option(None, help="every deadline at this local time (HH:MM), or none"),
    forum_engine: str = typer.Option(None, help="flaskbb, discuz, nodebb or phpbb"),
    forum_url: str = typer.Option(None, help="the forum's address, e.g. https://bbs.example.com"),
    judge: str = typer.Option(None, help="the judge's forum account (the bot posts as it)"),
    thread_id: str = typer.Option(None, help="the game thread's id, or none: the bot opens the thread"),
    forum_id: str = typer.Option(None, help="the board (forum id) where the bot opens the game thread"),
    password_env: str = typer.Option(None, help="the environment variable holding the judge's password "
                                                "(default FORUMBOT_PASSWORD)"),
    no_input: bool = typer.Option(False, "--no-input", help="ask nothing: the options given, the example's values for the rest"),
) -> None:
    """Write a new season file at PATH for the ruleset of --ruleset, asking for what it needs.

    Asks for the ruleset, the roster, the time zone, the phase length and deadline and the forum (Enter keeps
    the value shown); each question has an option for scripts (--players a,b,c --timezone Asia/Shanghai
    --forum-url ... --no-input). The file is the ruleset's commented example with the answers in it, checked
    before it is written; an existing file is replaced only when the organiser says so (never with --no-input)."""
    given = {"name": name, "locale": locale, "players": players, "organisers": organisers, "timezone": timezone,
             "phase_length": phase_length, "daily_deadline": daily_deadline, "forum_engine": forum_engine,
             "forum_url": forum_url, "judge": judge, "thread_id": thread_id, "forum_id": forum_id}
    if path.suffix != ".toml" and path.name in ruleset_ids():
        typer.echo(f"error: {path} is a ruleset's name, not a season file; did you mean "
                   f"`forumbot init --ruleset {path.name} {path.name}.toml`?", err=True)
        raise typer.Exit(2)
    if path.is_dir():  # `forumbot init seasons/`: the file goes in it
        typer.echo(f"error: {path} is a folder; name the season file in it, e.g. {path / 'season.toml'}", err=True)
        raise typer.Exit(2)
    if not path.parent.is_dir():
        typer.echo(f"error: there is no folder {path.parent}; create it first, or choose another path", err=True)
        raise typer.Exit(2)
    try:
        _init(path, ruleset, given, password_env, no_input)
    except (click.exceptions.Abort, typer.Abort):  # Ctrl-C or Ctrl-D at a terminal: nothing was written
        typer.echo(f"\nstopped: {path} was not written", err=True)
        raise typer.Exit(1) from None


def _init(path: Path, ruleset: str | None, given: dict, password_env: str | None, no_input: bool) -> None:
    """The questions and the writing of ``forumbot init`` (see :func:`init`)."""
    import tomlkit

    from forumbot.cli import init_answers as q

    asking = [not no_input]
    if path.exists() and not (asking[0] and typer.confirm(
            f"{path} exists: replace it with a new season file?", default=False)):
        typer.echo(f"error: {path} exists; choose another path", err=True)
        raise typer.Exit(2)
    ids = tuple(ruleset_ids())
    ruleset = _answer(asking, f"Ruleset ({q.ruleset_list(ids)})", ruleset, "sunlight", q.ruleset_choice(ids), "--ruleset")
    source = EXAMPLES / f"{ruleset}.example.toml"
    if not source.exists():
        typer.echo(f"error: no example for ruleset {ruleset!r}; known: {', '.join(ruleset_ids())}", err=True)
        raise typer.Exit(2)
    doc = tomlkit.parse(source.read_text(encoding="utf-8").replace(f"forumbot/config_examples/{ruleset}.example.toml",
                                                                   str(path)))
    example = q.defaults(doc)
    kinds = get_ruleset(ruleset).phase_kinds
    if kinds and all(k in example["phase_length"] for k in kinds):  # the default length serves no phase: not shown
        example["phase_length"] = {k: v for k, v in example["phase_length"].items() if k != "default"}
    answers: dict = {}
    for question in q.QUESTIONS:
        check = question.check
        if question.key == "players":
            check = _dealt_roster(doc, q.roster(get_ruleset(ruleset).min_players))
        elif question.key == "phase_length":
            check = q.lengths(kinds, list(doc.get("schedule", {}).get("exact_kinds", [])),
                              example["phase_length"])
        elif question.key == "judge":
            check = q.judge_of(answers["players"])
        elif question.key == "forum_id":
            check = q.board_for(answers["thread_id"])
        answers[question.key] = _answer(asking, q.prompt_of(question, doc), given[question.key], example[question.key],
                                        check, "--" + question.key.replace("_", "-"))
    q.apply(doc, answers)
    if password_env:
        doc["forum"]["password_env"] = password_env
    if note := q.offset_note(answers["timezone"]):
        typer.echo(note)
    _write_checked(path, future_start(q.render(doc, answers, example)))
    for line in file_warnings(load_config(path), path):
        typer.echo(line)
    typer.echo(f"wrote {path}: `forumbot check {path} --forum` checks it with the forum; "
               f"`forumbot simulate {path}` tells whether it is balanced")


def _answer(asking: list[bool], prompt: str, option: str | None, default, check, flag: str):
    """The value of one question of ``init``: the option's when given (a bad one ends the command, exit 2);
    else the organiser's answer, asked again until it is good (Enter keeps ``default``); else ``default``
    (``--no-input``, or the input ended: a script piping fewer answers gets the defaults for the rest; but
    one whose last answer was bad ends the command, exit 2). ``asking`` holds one flag, cleared when the input
    ends."""
    from forumbot.cli.init_answers import BadAnswer, shown

    if option is not None:
        try:
            return check(option)
        except BadAnswer as exc:
            typer.echo(f"error: {flag}: {exc}", err=True)
            raise typer.Exit(2) from None
    refused: BadAnswer | None = None
    while asking[0]:
        try:
            text = typer.prompt(prompt, default=shown(default))
        except (click.exceptions.Abort, typer.Abort):
            if _at_terminal():  # Ctrl-C or Ctrl-D at a terminal: stop, nothing written
                raise
            if refused is not None:  # a script's bad answer is not replaced by the example's value
                typer.echo(f"error: {flag.removeprefix('--')}: {refused} (the input ended before a good answer)", err=True)
                raise typer.Exit(2) from None
            asking[0] = False  # the input ended (a pipe): the defaults for the rest
            break
        if text == shown(default):  # Enter (or the default typed out): the value shown, as it is
            return default
        try:
            return check(text)
        except BadAnswer as exc:
            refused = exc
            typer.echo(f"  {exc}" + (" (Enter takes it)" if exc.suggestion is not None else ""), err=True)
            if exc.suggestion is not None:  # e.g. a city's time zone: Enter takes it
                default = exc.suggestion
    return default


def _dealt_roster(doc, names):
    """The players' question's checker: ``names`` (the roster's own checks), then the example ``doc`` with
    these players is loaded as a season file, so that a count the ruleset cannot deal (vampire_village has
    presets for 13–18) is asked again at once, in the words of ``check``."""
    import tempfile

    import tomlkit

    from forumbot.cli.init_answers import BadAnswer

    def check(text: str) -> list[str]:
        players = names(text)
        trial = tomlkit.parse(doc.as_string())
        trial["players"] = players
        trial.pop("roles", None)
        if "aliases" in trial:
            trial["aliases"] = {k: v for k, v in trial["aliases"].items() if k in players}
        with tempfile.TemporaryDirectory() as folder:
            temp = Path(folder) / "season.toml"
            temp.write_text(trial.as_string(), encoding="utf-8")
            try:
                load_config(temp)
            except ConfigError as exc:
                said = [m[1] for m in re.finditer(r"players: (.*)", str(exc))]
                if said:
                    raise BadAnswer(said[0]) from None
        return players
    return check


def _at_terminal() -> bool:
    """True when the organiser types the answers (stdin is a terminal), not a script piping them."""
    return sys.stdin.isatty()


def _write_checked(path: Path, text: str) -> None:
    """Write the season file ``text`` at ``path`` only if it loads as a season file: it is written beside
    ``path`` first, checked, then renamed (never a half-written or failing file at ``path``); a mistake ends the
    command with its lines (exit 2)."""
    import os
    import tempfile

    fd, name = tempfile.mkstemp(suffix=".toml", prefix=".init-", dir=path.parent)
    temp = Path(name)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        try:
            load_config(temp)
        except ConfigError as exc:
            for line in str(exc).replace(str(temp), str(path)).replace(temp.name, path.name).splitlines():
                typer.echo(f"error: {line}", err=True)
            typer.echo(f"error: {path} was not written", err=True)
            raise typer.Exit(2) from None
        umask = os.umask(0)
        os.umask(umask)
        temp.chmod(0o666 & ~umask)  # as an editor would make it (mkstemp's is 0600: other accounts could not read it)
        temp.replace(path)
    finally:
        temp.unlink(missing_ok=True)


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
    for line in file_warnings(c, config, password=not forum):  # with --forum a missing password is an error
        typer.echo(line)
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


def file_warnings(c: SeasonConfig, path: Path, password: bool = False) -> list[str]:
    """The season file's warnings (legal but likely wrong: :mod:`forumbot.config_warnings`), one
    "WARNING: PATH line N: key: ..." line each; with ``password``, also a password that cannot be read."""
    from forumbot.config_warnings import password_warning

    found = list(c.warnings)
    if password and (missing := password_warning(c)):
        found.append(missing)
    return [f"WARNING: {path} {w}" if w.startswith("line ") else f"WARNING: {path}: {w}" for w in found]


@app.command("run")
def run(
    config: Path = typer.Argument(..., help="the season file"),
    log_level: str = typer.Option("INFO", help="DEBUG shows more (including private details); INFO is safe to share"),
    accept_new_rules: bool = typer.Option(
        False, "--accept-new-rules",
        help="resume a running season judged by another version of the parser or rules with this one's (recorded)"),
    lease: str = typer.Option("60s", help="how long the season stays locked to this process if it dies without "
                                          "stopping (a SIGTERM ends it at once)"),
    web: bool = typer.Option(False, "--web", help="also serve the organiser's web console (docs/console.md)"),
    web_port: int = typer.Option(8080, help="the console's port (with --web)"),
    web_host: str = typer.Option("127.0.0.1", help="the console's address (with --web)"),
    web_public: bool = typer.Option(False, "--web-public", help="with --web: also read-only public pages (/public)"),
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
    for line in file_warnings(c, config):  # they do not stop the season: an error would have
        typer.echo(line, err=True)
    warning = past_start_warning(c)  # before the database is opened: it tells whether the season ran
    console = _web(config, web_host, web_port, web_public) if web else None
    try:
        run_season(c, f, lease_seconds, lambda engine: _bot(c, f, accept_new_rules, engine=engine), warning)
    finally:
        if console is not None:
            console.stop()


def _web(config: Path, host: str, port: int, public: bool):
    """``run --web``: the console of the season, started; a port in use ends the command with one line."""
    from forumbot.console.server import ConsoleError, file_console

    try:
        return file_console(config, None, host, port, public).start()
    except ConsoleError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None


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
        typer.echo(f"season {c.name!r}: not started (no database yet): `forumbot run {config}` starts it")
        return
    if (never := _never_run(c)) is not None:
        typer.echo(f"season {c.name!r}: not started ({never}): `forumbot run {config}` starts it")
        return
    bot = _bot(c)
    g = bot.game
    problem = problem_words(bot.forum_problem(), c)
    if not bot.started:
        typer.echo(f"season {c.name!r}: not started" + (f": {problem}" if problem else ""))
        return
    dl = bot.deadline()
    typer.echo(f"season {c.name!r}: {outcome(g.winner, c.locale) if g.finished else phase_words(g.phase)}"
               + (" — PAUSED" if bot.timing.paused_since else ""))
    if problem:
        typer.echo(f"  forum: {problem}")
    if dl:
        typer.echo(f"  deadline: {format_local(dl, c.tz, 'en')} ({until_words(dl, bot.clock())})")
    elif not g.finished and not bot.timing.paused_since:
        # the phase's clock starts when its opening post is on the forum (docs/runtime.md)
        typer.echo("  deadline: set when the phase's opening post is on the forum (not yet)")
    if not g.finished:
        pending = set(g.ruleset.pending())
        owing = _owing(g.ruleset)
        if not pending and not owing:  # e.g. the prologue: "to act: nobody, done: nobody" read as a stuck phase
            typer.echo("  to act: nobody (no player has anything to do in this phase)")
        else:
            typer.echo(f"  to act: {', '.join(g.name(s) for s in sorted(pending)) or 'nobody'}")
            typer.echo(f"  done:   {', '.join(g.name(s) for s in g.alive() if s in owing and s not in pending) or 'nobody'}")
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
    typer.echo(f"  posts and private messages: {outbox_words(counts)}")
    for r in rows:
        if r.status in ("failed", "sending", "undeliverable", "cancelled"):
            what = "private message" if r.kind == "pm" else r.kind
            typer.echo(f"    {r.status}: {what} to {r.recipient or 'the thread'} after {_count(r.attempts, 'attempt')}: "
                       f"{_why(r)}")
    for r in [r for r in rows if r.status == "note"][-5:]:
        typer.echo(f"  answer to the command line: {plain(r.body, c.effective_markup).strip()}")


def until_words(deadline: datetime, now: datetime) -> str:
    """How far ``deadline`` is from ``now``, in words: "in 2 h 05 min", "in 40 s", or "passed 3 min ago: the phase
    closes at the bot's next read of the forum" (a running bot handles a deadline at its next cycle)."""
    seconds = int((deadline - now).total_seconds())
    left = abs(seconds)
    days, rest = divmod(left, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        span = f"{days} d {hours} h"
    elif hours:
        span = f"{hours} h {minutes:02d} min"
    elif minutes:
        span = f"{minutes} min"
    else:
        span = f"{secs} s"
    if seconds >= 0:
        return f"in {span}"
    return f"passed {span} ago: the phase closes at the bot's next read of the forum"


def phase_words(phase) -> str:
    """The game's phase (a :class:`forumbot.engine.game.Phase`) as ``status`` names it: "vote round 1 (the
    season's 2nd phase)"; the prologue, which comes before round 1, "prologue (before round 1)"."""
    if phase.kind == "prologue" or phase.round == 0:
        return f"{phase.kind} (before round 1)"
    n = phase.id + 1
    nth = f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"
    return f"{phase.kind} round {phase.round} (the season's {nth} phase)"


#: the outbox's row states in an organiser's words (``status``), in the order shown
OUTBOX_WORDS = {"sent": "sent", "pending": "waiting to be sent", "sending": "being sent", "failed": "failed (tried again later)",
                "undeliverable": "could not be delivered", "cancelled": "cancelled", "note": "answers to the command line"}


def outbox_words(counts: dict[str, int], notes: bool = True) -> str:
    """The outbox's rows counted by state (``counts``: state -> rows), e.g. "12 sent, 2 waiting to be sent";
    "none yet" when empty; without ``notes``, the answers to the command line are left out."""
    order = [k for k in OUTBOX_WORDS if k in counts] + sorted(k for k in counts if k not in OUTBOX_WORDS)
    return ", ".join(f"{counts[k]} {OUTBOX_WORDS.get(k, k)}" for k in order if notes or k != "note") or "none yet"


def problem_words(problem: dict[str, str] | None, c: SeasonConfig) -> str:
    """The bot's :meth:`~forumbot.runtime.bot.Bot.forum_problem` in words for ``status`` ("" when none): that
    the forum has not answered as it should since when, and its error, e.g. "the forum has not answered as it
    should since 2026-12-04 20:01 CST: the forum at http://… is not answering (connect)"."""
    if not problem:
        return ""
    since = format_local(datetime.fromisoformat(problem["since"]), c.tz, "en")
    return f"the forum has not answered as it should since {since}: {problem['error']}"


def _owing(ruleset) -> set[int]:
    """Seats open now to an action they are reminded of (:attr:`forumbot.engine.actions.Action.owes`), acted or
    not: in a kill round only the killers, so that ``done`` lists those who owed something and did it, not the
    players who had nothing to do (:func:`forumbot.engine.actions.pending` is the part not done yet)."""
    return {p.seat for p in ruleset.game.players for a in getattr(ruleset, "actions", ())
            if a.owes is not None and a.is_open(ruleset, p.seat)}


def _count(n: int, noun: str) -> str:
    """``n`` and ``noun``, plural unless ``n`` is 1: "1 attempt", "3 attempts"."""
    return f"{n} {noun}{'s' * (n != 1)}"


def _why(row) -> str:
    """Why the outbox row ``row`` is not delivered yet, in words: the forum's error as stored; for a row in
    flight (``sending``: the request went out and no answer is stored) that there is no answer yet; never empty."""
    if row.last_error:
        return row.last_error
    if row.status == "sending":
        return "no answer from the forum yet (the bot looks for it on the forum before sending it again)"
    return "no reason recorded"


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
    if refusal := organiser_checks.too_long(parsed) or _inexact(parsed, bot.game):
        typer.echo(f"error: {refusal}", err=True)
        raise typer.Exit(2)
    if parsed.verb == "replace" and (refusal := _bad_substitute(parsed, bot.game, c)):
        typer.echo(f"error: {refusal}", err=True)
        raise typer.Exit(2)
    if refusal := organiser_checks.already_penalised(parsed, bot.game):
        typer.echo(f"error: {refusal}", err=True)
        raise typer.Exit(2)
    if parsed.verb == "replace" and not no_check and (refusal := _no_account(c, (parsed.text or "").strip())):
        typer.echo(f"error: {refusal}", err=True)
        raise typer.Exit(2)
    bot.organiser_command(text)
    typer.echo(f"stored at {datetime.now(UTC):%H:%M:%S} UTC; the bot applies it at its next cycle "
               "(`forumbot status` shows the answer)")


def _explain(parsed, game) -> str:
    """Why a command typed on the command line is not an organiser command (:func:`forumbot.runtime.organiser_checks.explain`)."""
    return organiser_checks.explain(parsed, game)


def _inexact(parsed, game) -> str | None:
    """:func:`forumbot.runtime.organiser_checks.inexact`."""
    return organiser_checks.inexact(parsed, game)


def _forum(config: SeasonConfig):
    """The season's forum adapter (tests replace it)."""
    return make_forum(config.forum, config.base_dir)


def _no_account(config: SeasonConfig, new: str) -> str | None:
    """:func:`forumbot.runtime.organiser_checks.no_account`, asking the forum of :func:`_forum`."""
    return organiser_checks.no_account(config, new, _forum)


def _bad_substitute(parsed, game, config: SeasonConfig) -> str | None:
    """:func:`forumbot.runtime.organiser_checks.bad_substitute`."""
    return organiser_checks.bad_substitute(parsed, game, config)


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
