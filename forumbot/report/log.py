"""A game with every step kept: what the report is made from.

The engine's :class:`~forumbot.engine.types.Step` of each input is kept with the phase that was current
when the input arrived; a stored season is rebuilt from its inputs exactly as the bot rebuilds it
(:meth:`forumbot.runtime.bot.Bot._rebuild`), with each phase's opening time and deadline.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from forumbot.engine.game import Game
from forumbot.engine.types import Deadline, Message, Step

if TYPE_CHECKING:
    from forumbot.replay import ReplayResult, Transcript
    from forumbot.runtime.bot import Bot


@dataclass
class Record:
    """One input's step; ``phase_id``: the phase current when it arrived."""

    phase_id: int
    step: Step


@dataclass
class GameLog:
    """A played game and its steps in order. ``opened_at``/``deadlines``: phase id -> UTC time (empty for
    a transcript, which has no clock); ``title``: the season's name or the transcript's file name."""

    game: Game
    records: list[Record]
    locale: str
    title: str
    opened_at: dict[int, datetime] = field(default_factory=dict)
    deadlines: dict[int, datetime] = field(default_factory=dict)
    tz: Any = None
    time_zone_label: str | None = None  # the season's words after a time (SeasonConfig.time_zone_label)


def from_transcript(t: Transcript, title: str = "") -> GameLog:
    """The log of a transcript's game. Raises :class:`forumbot.replay.TranscriptError` as
    :func:`forumbot.replay.replay` does."""
    from forumbot.replay import replay

    return from_replay(t, replay(t), title)


def from_replay(t: Transcript, result: ReplayResult, title: str = "") -> GameLog:
    """The log of a transcript already replayed."""
    # replay() keeps one outcome per phase opened, in order: outcome i is phase i's steps.
    records = [Record(i, o.step) for i, o in enumerate(result.phases)]
    return GameLog(result.game, records, t.locale, title)


def replayed(bot: Bot, inputs: Iterable[tuple[Any, Any]]) -> tuple[Game, list[Record]]:
    """A fresh game of ``bot``'s season (its config and seed) and the step of each stored input of ``inputs``
    (``(input row, inbound row or None)`` in order, as :meth:`forumbot.runtime.store.Store.inputs` gives them), each
    with the phase it was applied in."""
    from forumbot.runtime.bot import CLI

    game = Game(bot.config.setup(bot.seed))
    records: list[Record] = []
    for row, inbound in inputs:
        pid = game.phase.id
        if row.kind == "start":
            step = game.start()
        elif row.kind == "deadline":
            step = game.apply(Deadline(row.phase_id if row.phase_id is not None else -1))
        else:
            assert inbound is not None  # a message input has its inbound row
            sender = CLI if inbound.source == "cli" else inbound.sender
            step = game.apply(Message(sender, inbound.text, "thread" if inbound.source == "thread" else "pm"))
        records.append(Record(pid, step))
    return game, records


def from_bot(bot: Bot) -> GameLog:
    """The log of a stored season, replayed from the bot's stored inputs (the bot's own game is left
    as it is). Deadlines are the schedule's (extensions and pauses included)."""
    game, records = replayed(bot, bot.store.inputs())
    opened = dict(bot.timing.opened_at)
    deadlines = {}
    for pid in opened:
        if pid < len(bot.game.phases):
            with contextlib.suppress(KeyError, ValueError):
                deadlines[pid] = bot._scheduled_deadline(pid)
    return GameLog(game, records, bot.config.locale, bot.config.name, opened, deadlines, bot.config.tz,
                   bot.config.time_zone_label)
