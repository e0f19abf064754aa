"""``forumbot rehearse SEASON.toml``: the organiser's season played on a local FlaskBB by simulated players.

A FlaskBB on 127.0.0.1 (:mod:`forumbot.testforum`) gets an account for the judge, every organiser and every
player of the file; the rehearsal's own season file (:mod:`forumbot.rehearse.season_file`: the same season, its
phases scaled down, that forum) is run exactly as ``forumbot run`` runs a season (:func:`forumbot.cli.run_guard.run_season`:
the lease, the account check, the runner), while :class:`forumbot.rehearse.players.Table` plays every seat through
real private messages and thread posts. At the end: the standings, the thread's address, the season report; the
forum stays up for a browser until Ctrl-C (unless ``--no-wait``). ``forumbot demo`` is a rehearsal of a built-in
example (:mod:`forumbot.cli.demo`). docs/rehearse.md tells the organiser's side.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import secrets
import shutil
import socket
import statistics
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import typer

from forumbot.cli.root import app
from forumbot.cli.text import pad

log = logging.getLogger("forumbot")

#: the default speed: an hour of the season file a second
DEFAULT_SPEED = 3600.0


@dataclass
class Plan:
    """How to rehearse: ``speed`` (phases this many times shorter) or ``duration`` (about this long in all: a
    duration text), ``policy`` and ``skill`` of the simulated players, ``seed`` (None: the file's, else a new one),
    ``keep`` the folder, ``wait`` for Ctrl-C at the end, ``port`` of the forum (None: a free one), ``report``
    folder (None: in the rehearsal's folder), ``log_level`` of the bot's log lines."""

    speed: float | None = None
    duration: str | None = None
    policy: str = "heuristic"
    skill: float = 0.5
    seed: int | None = None
    keep: bool = False
    wait: bool = True
    port: int | None = None
    report: Path | None = None
    log_level: str = "INFO"


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print ``error: message`` (one line) and return the Exit to raise."""
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(code)


@contextlib.contextmanager
def rehearsal_folder(keep: bool, prefix: str = "forumbot-rehearse-") -> Iterator[Path]:
    """A new folder for the rehearsal's season files, database (every private message) and report; deleted at the
    end unless ``keep``, and then its path is printed."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        yield folder
    finally:
        if keep:
            typer.echo(f"The season files, database and report are kept in {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)
            typer.echo(f"The rehearsal's folder {folder} is deleted (--keep keeps it)")


def port_in_use(port: int) -> bool:
    """Whether 127.0.0.1:``port`` is taken."""
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return True
    return False


def _int_seed(seed: Any) -> int:
    return seed if isinstance(seed, int) else int.from_bytes(hashlib.sha256(str(seed).encode()).digest()[:4], "big")


def estimated_kinds(config: Any, policy: str, skill: float) -> list[str]:
    """The phase kinds a game of ``config`` is expected to play: one simulated game (:func:`forumbot.simulate.play.play_game`)
    with its ruleset, roster size, parameters and seed; empty when the simulator cannot play it."""
    from forumbot.simulate.play import play_game
    from forumbot.simulate.policies import make_policy

    try:
        result = play_game(config.ruleset, len(config.players), config.params, _int_seed(config.seed),
                           make_policy(policy, config.ruleset, skill), record=True)
    except Exception as exc:  # an estimate only: the rehearsal plays at the default speed then
        log.debug("no estimate of the phases: %s", exc)
        return []
    assert result.transcript is not None
    return [p["phase"] for p in result.transcript["phases"]]


def request_seconds(forum: Any, names: list[str]) -> tuple[dict[str, Any], float]:
    """Log each of ``names`` in on the running test ``forum`` (a player logs in before his first command anyway):
    their clients, and the median seconds a login took (how fast this forum answers, on this machine now)."""
    clients, times = {}, []
    for name in names:
        client = forum.client(name)
        began = time.monotonic()
        client.login()
        times.append(time.monotonic() - began)
        clients[name] = client
    return clients, statistics.median(times) if times else 0.0


def rehearse_file(source: Path, plan: Plan, *, label: str = "Rehearsal", folder: Path | None = None) -> None:
    """Rehearse the season file ``source`` (see the module docstring). Raises typer.Exit: 2 for a file that does not
    check, a roster the forum cannot create or a port in use (one line each), 1 when the forum cannot start, 130
    when stopped by Ctrl-C before the end. ``folder``: where the rehearsal's files go (the caller keeps or deletes
    it); None: a new folder, kept with ``plan.keep``."""
    from forumbot.cli.season import _load, setup_logging
    from forumbot.rehearse.season_file import roster_problem
    from forumbot.testforum import HarnessError, start_forum

    config = _load(source)
    if problem := roster_problem(config.forum.username, list(config.organisers), list(config.players)):
        raise fail(f"{source}: {problem}")
    if plan.port is not None and port_in_use(plan.port):
        raise fail(f"port {plan.port} is in use on 127.0.0.1: choose another with --port, or leave --port out")
    if plan.duration is not None:
        from forumbot.language.numbers import parse_duration

        try:
            parse_duration(plan.duration)
        except ValueError as exc:
            raise fail(f"--duration: {exc}") from None
    setup_logging(plan.log_level)
    typer.echo("Starting a local FlaskBB (the first run installs it, about a minute)...")
    try:
        forum = start_forum(players=[*config.players, *config.organisers], judge=config.forum.username,
                            port=plan.port)
    except HarnessError as exc:
        raise fail(f"could not start the local forum: {str(exc).splitlines()[0]}", 1) from None
    with forum, (contextlib.nullcontext(folder) if folder else rehearsal_folder(plan.keep)) as where:
        rehearse_on(forum, where, source, plan, label)


def rehearse_on(forum: Any, folder: Path, source: Path, plan: Plan, label: str = "Rehearsal") -> Any:
    """Rehearse the season file ``source`` (checked already) on the running test ``forum`` (a
    :class:`forumbot.testforum.RunningForum` with an account for each of its names), its files in ``folder``;
    returns the bot of the finished season. Several rehearsals may share one forum, one after the other (a bot
    ignores the private messages of its judge's inbox from before its first run)."""
    from forumbot.cli.run_guard import run_season
    from forumbot.cli.season import _bot, _load
    from forumbot.language.numbers import parse_duration
    from forumbot.rehearse.players import Table
    from forumbot.rehearse.season_file import phase_floor, speed_for, write_rehearsal_file
    from forumbot.runtime.store import make_engine
    from forumbot.tomlfile import read_toml_file

    config = _load(source)
    data = read_toml_file(source)[1]
    clients, per_request = request_seconds(forum, list(config.players))
    floor = phase_floor(len(config.players), per_request)
    seed = plan.seed if plan.seed is not None else config.seed if config.seed is not None else secrets.randbelow(10**6)
    speed = plan.speed or DEFAULT_SPEED
    if plan.duration is not None:
        kinds = estimated_kinds(config.model_copy(update={"seed": seed}), plan.policy, plan.skill)
        if kinds:
            speed = speed_for(data.get("schedule", {}), kinds, parse_duration(plan.duration))
    path = write_rehearsal_file(data, source, folder, base_url=forum.base_url, forum_id=forum.forum_id,
                                judge_password=forum.judge.password, speed=speed, floor=floor, seed=seed)
    rehearsal = _load(path)
    lengths = [parse_duration(t).total_seconds() for t in [rehearsal.schedule.default, *rehearsal.schedule.lengths.values()]]
    typer.echo(f"{label} of {source}: season {config.name!r}, {config.ruleset}, {len(config.players)} players; "
               f"phases {speed:g} times shorter, {min(lengths):g}-{max(lengths):g} s (never under {floor:.1f} s on this "
               f"forum); players: {plan.policy} policy; seed {seed} (--seed {seed} plays the same game again)")
    typer.echo(f"Forum: {forum.base_url}")
    for name in config.organisers:  # an organiser may give commands by private message from the browser too
        typer.echo(f"  organiser account {name}: password {forum.players[name].password}")
    typer.echo(f"The rehearsal's season file: {path}; from another terminal, while it runs:")
    typer.echo(f"  forumbot status {path}")
    typer.echo(f"  forumbot organiser {path} extend 1m")
    bots: list[Any] = []

    def make_bot(engine: Any) -> Any:
        bots.append(_bot(rehearsal, forum.client(), engine=engine))
        return bots[-1]

    def say(player: str, channel: str, text: str) -> None:
        if channel == "thread":
            clients[player].reply(bots[-1].thread_id, text)
        else:
            clients[player].send_pm(rehearsal.forum.username, rehearsal.name, text)

    table = Table(rehearsal, make_engine(rehearsal.database_url), say, plan.policy, plan.skill)
    stop = threading.Event()
    players = threading.Thread(target=table.run, args=(stop,), name="players", daemon=True)
    players.start()
    began = time.monotonic()
    try:
        run_season(rehearsal, forum.client(), 60.0, make_bot)
    finally:
        stop.set()
        players.join(timeout=30)
    bot = bots[-1] if bots else None
    if bot is None or not bot.game.finished:
        typer.echo(f"\nStopped before the end of the season. Its files: {folder}"
                   + ("" if plan.keep else " (deleted now: --keep keeps them)"))
        raise typer.Exit(130)
    minutes = (time.monotonic() - began) / 60
    typer.echo(f"\nThe season is over after {len(bot.game.phases)} phases ({minutes:.1f} minutes):")
    print_final_standings(bot.game, rehearsal.locale)
    typer.echo(f"\nThe game thread: {forum.base_url}/topic/{bot.thread_id}")
    typer.echo(f"The players sent {len(table.sent)} commands ({table.failed} refused by the forum); the judge's "
               f"outbox: {len(bot.store.outbox(('sent',)))} delivered.")
    if table.rebuilt:
        typer.echo(f"Note: {table.rebuilt} times the bot read the players' commands in another order than they were "
                   "sent, or one after its deadline (a machine slower than the phases: try a lower --speed).")
    write_report(bot, rehearsal.locale, plan.report or folder / "report")
    if plan.wait:
        typer.echo("\nThe forum stays up for your browser; log in with any of these accounts (local rehearsal only):")
        for account in [forum.judge, *forum.players.values()]:
            typer.echo(f"  {pad(account.name, 12)} {account.password}")
        typer.echo("Ctrl-C to stop.")
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            typer.echo("stopping the forum")
    return bot


def print_final_standings(game: Any, locale: str) -> None:
    """The standings of a finished game: sunlight's in the words of its final post (:func:`forumbot.cli.demo.print_standings`),
    any other ruleset's from :func:`forumbot.cli.final_standings.standings_lines`."""
    from forumbot.cli.final_standings import print_standings, standings_lines

    if game.ruleset.id == "sunlight":
        print_standings(game, locale)
        return
    for line in standings_lines(game, locale):
        typer.echo(line)


def write_report(bot: Any, locale: str, out: Path) -> None:
    """The season report page of a finished rehearsal into ``out`` (as ``forumbot report`` writes it)."""
    from forumbot.report.data import extract
    from forumbot.report.html import write_page
    from forumbot.report.log import from_bot

    try:
        path = write_page("report", extract(from_bot(bot), public=False), locale, out)
    except OSError as exc:
        typer.echo(f"error: cannot write the report into {out}: {exc.strerror or exc}", err=True)
        return
    typer.echo(f"The season report: {path}")


@app.command("rehearse")
def rehearse(
    season: Path = typer.Argument(..., help="the season file to rehearse (it is not changed)"),
    speed: float = typer.Option(None, min=1.0, help=f"phases this many times shorter than the file's (default {DEFAULT_SPEED:g}: an hour a second)"),
    duration: str = typer.Option(None, help="instead of --speed: about how long the whole season should take, e.g. 5m "
                                 "(the phases of one simulated game of the file, scaled to fit)"),
    policy: str = typer.Option("heuristic", help="how the simulated players choose: heuristic or random"),
    seed: int = typer.Option(None, help="the role draw and the players' choices (default: the file's seed, else a new one)"),
    keep: bool = typer.Option(False, "--keep", help="keep the rehearsal's folder (season file, database, report)"),
    wait: bool = typer.Option(True, help="keep the forum up for a browser until Ctrl-C"),
    port: int = typer.Option(None, min=1, max=65535, help="the local forum's port (default: a free one)"),
    report: Path = typer.Option(None, help="where to write the season report (default: the rehearsal's folder)"),
    log_level: str = typer.Option("INFO", help="the bot's log lines: INFO as `forumbot run`, WARNING for fewer"),
) -> None:
    """Rehearse a season: its roster, parameters, schedule and templates on a local FlaskBB, every player simulated."""
    from forumbot.simulate.policies import POLICIES

    if policy not in POLICIES:
        raise fail(f"--policy: {policy!r} is not a policy; known: {', '.join(POLICIES)}")
    if speed is not None and duration is not None:
        raise fail("--speed and --duration both set the phases' length: give one")
    rehearse_file(season, Plan(speed=speed, duration=duration, policy=policy, seed=seed, keep=keep, wait=wait,
                               port=port, report=report, log_level=log_level))
