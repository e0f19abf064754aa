"""A rehearsal on the in-memory forum with a clock the test moves: the bot of the rehearsal's season file
(:class:`forumbot.runtime.bot.Bot`, as ``forumbot run`` builds it) and the players' :class:`~forumbot.rehearse.players.Table`,
cycled in turn; and the same season run by a plain bot fed recorded messages phase by phase."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from forumbot.config import SeasonConfig, load_config
from forumbot.engine.game import Game
from forumbot.forums.memory import MemoryForum
from forumbot.rehearse.players import Table, apply_input
from forumbot.rehearse.season_file import write_rehearsal_file
from forumbot.runtime.bot import Bot
from forumbot.runtime.store import make_engine
from forumbot.tomlfile import read_toml_file

T0 = datetime(2026, 12, 1, 12, 0, 0, tzinfo=UTC)
EXAMPLES = Path(__file__).resolve().parents[2] / "forumbot" / "config_examples"
#: cycles of one season at most (a season that loops forever fails instead of hanging)
MAX_CYCLES = 20_000


@dataclass
class Clock:
    now: datetime = T0

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def rehearsal_config(source: Path, folder: Path, seed: int | None = 21, speed: float = 3600.0) -> SeasonConfig:
    """The rehearsal's season file of ``source`` written into ``folder`` (for a forum on a closed port), loaded."""
    folder.mkdir(parents=True, exist_ok=True)
    path = write_rehearsal_file(read_toml_file(source)[1], source, folder, base_url="http://127.0.0.1:1", forum_id=1,
                                judge_password="not-used", speed=speed, floor=6.0, seed=seed)
    return load_config(path)


def new_bot(config: SeasonConfig, clock: Clock) -> tuple[Bot, MemoryForum]:
    forum = MemoryForum(username=config.forum.username, clock=clock)
    return Bot(config, forum, clock=clock, engine=make_engine(config.database_url), sleep=clock.advance), forum


def _next(bot: Bot, clock: Clock) -> None:
    wake = bot.next_wakeup()
    clock.now = max(clock.now + timedelta(seconds=1), wake) if wake is not None else clock.now + timedelta(seconds=1)


def rehearse_in_memory(config: SeasonConfig, policy: str = "heuristic",
                       between: Callable[[Bot], None] = lambda bot: None) -> tuple[Bot, Table, MemoryForum]:
    """Rehearse ``config`` on a memory forum: the bot cycles, the players look at its database and act, the clock
    jumps to the bot's next instant; ``between(bot)`` after each of the players' looks. Returns the bot (its game
    over and delivered), the table and the forum."""
    clock = Clock()
    bot, forum = new_bot(config, clock)

    def say(player: str, channel: str, text: str) -> None:
        clock.advance(0.01)  # one command after the other, as a forum stamps them
        if channel == "thread":
            forum.player_post(bot.thread_id, player, text)
        else:
            forum.player_pm(player, text, subject=config.name)

    table = Table(config, make_engine(config.database_url), say, policy)
    for _ in range(MAX_CYCLES):
        bot.cycle()
        acted = table.acted
        table.step()
        between(bot)
        if table.acted != acted:
            clock.advance(1)
            bot.cycle()  # reads the commands
        if bot.done():
            return bot, table, forum
        _next(bot, clock)
    raise AssertionError(f"{config.name}: not over after {MAX_CYCLES} cycles (phase {bot.game.phase.id})")


def recorded_messages(config: SeasonConfig, bot: Bot) -> dict[int, list[tuple[str, str, str]]]:
    """The messages ``bot`` applied, by the phase (id) it was in: ``(source, sender, text)`` in order."""
    game = Game(config.setup(bot.seed))
    out: dict[int, list[tuple[str, str, str]]] = {}
    for row, inbound in bot.store.inputs():
        if inbound is not None:
            out.setdefault(game.phase.id, []).append((inbound.source, inbound.sender, inbound.text))
        apply_input(game, row, inbound)
    return out


def run_with_messages(config: SeasonConfig, messages: dict[int, list[tuple[str, str, str]]]) -> Bot:
    """``forumbot run``'s bot of ``config`` on a memory forum, each phase's ``messages`` sent once the phase is on the
    forum (its deadline set), then the phase run to its deadline."""
    clock = Clock()
    bot, forum = new_bot(config, clock)
    fed: set[int] = set()
    for _ in range(MAX_CYCLES):
        bot.cycle()
        pid = bot.game.phase.id
        if bot.started and pid not in fed and bot.deadline() is not None:
            fed.add(pid)
            for source, sender, text in messages.get(pid, []):
                clock.advance(0.01)
                if source == "thread":
                    forum.player_post(bot.thread_id, sender, text)
                elif source == "cli":
                    bot.organiser_command(text)
                else:
                    forum.player_pm(sender, text, subject=config.name)
            clock.advance(1)
            bot.cycle()
        if bot.done():
            return bot
        _next(bot, clock)
    raise AssertionError(f"{config.name}: not over after {MAX_CYCLES} cycles")


_TIME = re.compile(r"\d{1,4}[-/年月日:]\d{1,2}(?:[-/年月日:]\d{1,2})*[日号]?|\b\d{1,2}:\d{2}\b"
                   r"|[周週](?:[一二三四五六日])|星期[一二三四五六日天]|\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*\b"
                   r"|\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.? \d{1,2}\b")


def delivered(bot: Bot) -> list[tuple[str, str | None, str, str]]:
    """What ``bot`` posted and sent: ``(kind, recipient, template, text)`` in order, dates and times masked (two runs
    of the same inputs at other instants name other deadlines)."""
    return [(r.kind, r.recipient, r.template, _TIME.sub("<time>", r.body)) for r in bot.store.outbox()
            if r.kind in ("post", "pm", "thread", "edit")]


def standings_of(bot: Bot) -> Any:
    from forumbot.cli.final_standings import standings

    return standings(bot.game)
