"""``forumbot demo``: a whole sunlight season on a local FlaskBB, with simulated players.

It starts a fresh FlaskBB on 127.0.0.1 (installed on first use), creates the judge, an organiser and
the players, writes a season file with phases a few seconds long, runs the bot, and has every player
send real private messages from their own account (votes, kills, successor picks, clue choices, written
the ways players write them). It prints the thread's address and the final standings, then keeps the
forum up for a browser until Ctrl-C. The season file and its database are in a temporary folder, deleted at
the end unless ``--keep``.
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import typer

from forumbot.cli.root import app
from forumbot.cli.text import pad

DEMO_PLAYERS = ["张三", "李四", "王五", "趙六", "alice", "孙七", "周八", "Bob Lee"]
ORGANISER = "组织者"


@dataclass(frozen=True)
class Snapshot:
    """What the simulated players know of the game at one moment (the simulation peeks at roles)."""

    phase_id: int
    kind: str
    alive: tuple[str, ...]
    killer: str
    successor_due: str | None
    clue_options: tuple[int, ...]
    finished: bool


def snapshot(bot) -> Snapshot:
    g = bot.game
    sl = g.ruleset
    pending = sl.s.successor_pending
    return Snapshot(g.phase.id, g.phase.kind, tuple(g.names(g.alive())), g.name(sl.killer),
                    g.name(pending) if pending is not None else None, tuple(sl.s.clue_options), g.finished)


class Players:
    """Simulated players: on each new phase every living player sends the judge what a player would."""

    def __init__(self, forum, names: list[str], judge: str, seed: int) -> None:
        self.clients = {n: forum.client(n) for n in names}
        self.judge = judge
        self.rng = random.Random(seed)
        self.latest: Snapshot | None = None
        self.done_phase = -1
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, name="players", daemon=True)
        self.sent = 0

    def observe(self, bot) -> None:
        if not bot.started:  # no roles drawn yet (the forum may not have answered)
            return
        with self.lock:
            self.latest = snapshot(bot)

    def _run(self) -> None:
        while not self.stop.is_set():
            with self.lock:
                snap = self.latest
            if snap and not snap.finished and snap.phase_id != self.done_phase and snap.kind != "prologue":
                self.done_phase = snap.phase_id
                for sender, text in self.messages(snap):
                    try:
                        self.clients[sender].send_pm(self.judge, "法官", text)
                        self.sent += 1
                    except Exception as exc:  # a demo player who fails to send just misses the round
                        print(f"  ({sender} could not send: {exc})")
            time.sleep(0.3)

    def messages(self, snap: Snapshot) -> list[tuple[str, str]]:
        rng, alive = self.rng, list(snap.alive)
        out: list[tuple[str, str]] = []
        if snap.kind == "vote":
            for voter in alive:
                others = [p for p in alive if p != voter]
                if voter != snap.killer and snap.killer in others and rng.random() < 0.45:
                    first = snap.killer  # a sharp good
                else:
                    first = rng.choice(others)
                rest = [p for p in others if p != first]
                pick = [first] + ([rng.choice(rest)] if rest and rng.random() < 0.6 else [])
                style = rng.choice(["投 {}", "投票：{}", "vote {}", "我投{}，谢谢", "投：{}"])
                sep = rng.choice(["，", ", ", " ", "、"])
                out.append((voter, style.format(sep.join(pick))))
        elif snap.kind == "kill" and snap.killer in alive:
            victim = rng.choice([p for p in alive if p != snap.killer])
            out.append((snap.killer, rng.choice(["杀 {}", "殺 {}", "kill {}"]).format(victim)))
        elif snap.kind == "poll":
            if snap.successor_due:
                out.append((snap.successor_due, f"接任 {rng.choice(alive)}"))
            for voter in alive:
                if snap.clue_options:
                    out.append((voter, f"线索 {rng.choice([0, *snap.clue_options])}"))
        return out


# Stands in for the forum while the options are checked, before the forum starts (it takes a while).
NO_FORUM = SimpleNamespace(base_url="http://127.0.0.1:1", judge=SimpleNamespace(name="法官"), forum_id=1)


# The season file's key each of the demo's options is written to.
OPTION_KEYS = {"locale": "--locale", "schedule.default": "--phase-seconds", "seed": "--seed", "players": "--players"}


def option_error(names: list[str], phase_seconds: float, locale: str, seed: int) -> str | None:
    """What the season file validation says of the demo's options (e.g. an unknown ``locale``), in the
    options' names, on one line; None when they make a valid season."""
    from forumbot.config import ConfigError, load_config

    with tempfile.TemporaryDirectory(prefix="forumbot-demo-check-") as folder:
        try:
            load_config(write_season(Path(folder), NO_FORUM, names, phase_seconds, locale, seed))
        except ConfigError as exc:
            problems = []
            for line in str(exc).splitlines():  # "PATH line N: KEY: what is allowed"
                _, key, message = (line.split(": ", 2) + ["", ""])[:3]
                problems.append(f"{OPTION_KEYS.get(key, key)}: {message}" if message else line)
            return "; ".join(problems)
    return None


def write_season(folder: Path, forum: Any, names: list[str], phase_seconds: float, locale: str, seed: int) -> Path:
    """Write the demo's season file into ``folder`` for the running test ``forum`` (a
    :class:`forumbot.testforum.RunningForum`, or :data:`NO_FORUM` to check the options first); returns its path."""
    path = folder / "demo-season.toml"
    players = ", ".join(f'"{n}"' for n in names)
    path.write_text(
        f'''# Written by `forumbot demo`.
name = "演示赛季 阳光下的罪恶"
ruleset = "sunlight"
locale = "{locale}"
time_zone = "Asia/Shanghai"
seed = {seed}
organisers = ["{ORGANISER}"]
players = [{players}]

[forum]
engine = "flaskbb"
base_url = "{forum.base_url}"
username = "{forum.judge.name}"
password_env = "FORUMBOT_DEMO_PASSWORD"
forum_id = {forum.forum_id}

[schedule]
default = "{phase_seconds}s"
reminders = []
poll_interval = "1s"
grace = "1s"
''',
        encoding="utf-8",
    )
    return path


@app.command("demo")
def demo(
    players: int = typer.Option(len(DEMO_PLAYERS), min=4, max=len(DEMO_PLAYERS), help="how many simulated players"),
    phase_seconds: float = typer.Option(8.0, min=3.0, help="length of every phase, in seconds"),
    locale: str = typer.Option("zh-Hans", help="zh-Hans, zh-Hant or en"),
    seed: int = typer.Option(21, help="the role draw and the players' choices"),
    wait: bool = typer.Option(True, help="keep the forum up for a browser until Ctrl-C"),
    keep: bool = typer.Option(False, "--keep", help="keep the demo's folder (season file, and the SQLite database "
                              "with every post and private message) instead of deleting it at the end"),
) -> None:
    """Play a whole sunlight season on a local FlaskBB with simulated players."""
    from forumbot.cli.season import setup_logging
    from forumbot.config import load_config
    from forumbot.runtime.bot import Bot
    from forumbot.runtime.runner import run_bot
    from forumbot.testforum import HarnessError, start_forum

    setup_logging("INFO")
    names = DEMO_PLAYERS[:players]
    if problem := option_error(names, phase_seconds, locale, seed):
        typer.echo(f"error: {problem}", err=True)
        raise typer.Exit(2)
    typer.echo("Starting a local FlaskBB (the first run installs it, about a minute)...")
    try:
        forum = start_forum(players=[*names, ORGANISER], judge="法官")
    except HarnessError as exc:
        typer.echo(f"error: could not start the local forum: {exc}", err=True)
        raise typer.Exit(1) from None
    with forum, demo_folder(keep) as folder:
        os.environ["FORUMBOT_DEMO_PASSWORD"] = forum.judge.password
        config = load_config(write_season(folder, forum, names, phase_seconds, locale, seed))
        typer.echo(f"Forum: {forum.base_url}  (season file {config.path})")
        bot = Bot(config, forum.client())
        sim = Players(forum, names, forum.judge.name, seed)
        sim.thread.start()
        run_bot(bot, on_cycle=sim.observe)
        sim.stop.set()
        if not bot.game.finished:
            typer.echo("\nStopped before the end of the season.")
            return
        thread_url = f"{forum.base_url}/topic/{bot.thread_id}"
        print_standings(bot.game, locale)
        typer.echo(f"\nThe game thread: {thread_url}")
        typer.echo(f"Players' private messages sent: {sim.sent}; the judge's outbox: {len(bot.store.outbox(('sent',)))} delivered.")
        if wait:
            typer.echo("\nThe forum stays up for your browser; log in with any of these accounts (local demo only):")
            for account in [forum.judge, *forum.players.values()]:
                typer.echo(f"  {pad(account.name, 12)} {account.password}")
            typer.echo("Ctrl-C to stop.")
            try:
                while True:
                    time.sleep(3600)
            except KeyboardInterrupt:
                typer.echo("stopping the forum")


@contextlib.contextmanager
def demo_folder(keep: bool) -> Iterator[Path]:
    """A new folder for the demo's season file and database; deleted at the end (the database holds every
    private message) unless ``keep``, and then its path is printed."""
    folder = Path(tempfile.mkdtemp(prefix="forumbot-demo-"))
    try:
        yield folder
    finally:
        if keep:
            typer.echo(f"The demo's season file and database are kept in {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)


def print_standings(game, locale: str) -> None:
    """The final standings of a finished sunlight ``game``, roles and fates in the words of ``locale``'s
    final post (sunlight/final.j2)."""
    from forumbot.render import renderer

    data = game.ruleset.final_data()
    words = renderer(locale).env.get_template("sunlight/final.j2").make_module(data)
    labels, outs, alive = words.labels, words.outs, words.alive_word  # type: ignore[attr-defined]
    typer.echo(f"\nWinner: {labels.get(data['winner'], data['winner'])}  win index {data['correct']:g}/{data['total']:g} = {data['win_index']:.2%}")
    typer.echo(f"Killers: {' -> '.join(data['killers'])}")
    for p in data["players"]:
        fate = alive if p["alive"] else outs.get(p["out"], p["out"])
        typer.echo(f"{p['rank']:>3}. {pad(p['name'], 10)} {pad(labels[p['role']], 13)} {pad(fate, 8)} {p['total']:g}")
