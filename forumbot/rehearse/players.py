"""The simulated players of a rehearsal: every seat played by a simulator policy (:mod:`forumbot.simulate`) through
real private messages and thread posts.

**What a player knows.** The bot's stored inputs are the game (the bot is rebuilt from them on every start). The
players' :class:`Table` replays them, in the bot's order, into its own copy of the engine's game; each output the
engine gives is what the judge tells: a :class:`~forumbot.engine.types.Reply` goes to its recipient's
:class:`~forumbot.simulate.view.View` only, a :class:`~forumbot.engine.types.Post` to every view. So each policy
decides from that player's private messages and the thread, as in :func:`forumbot.simulate.play.play_game`
(with the simulator's one controlled exception, the table-talk :meth:`View.hunch`).

**When they act.** Once per phase, when the phase is on the forum: the input that opened it is stored and every post
and private message it queued is out (the players can read them). Then, as the simulator does, each seat in order
chooses among :func:`~forumbot.simulate.actions.legal_actions`, again after each of his commands (up to
:data:`~forumbot.simulate.play.MAX_ACTIONS`), from one random source seeded by the season's seed; each command is
sent to the forum (a private message to the judge, or a thread post) and applied to the table's game at once, so
the next choice sees its answer, the way the bot will answer it.

**Staying in step.** The bot stores those commands in the order they were sent; the table checks each stored input
against the commands it applied. When they differ (a command that missed its deadline on a slow machine, an
organiser's command between two players'), the table's game is rebuilt from the bot's inputs, which always win, and
:attr:`Table.rebuilt` counts it.
"""

from __future__ import annotations

import logging
import random
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy.exc import OperationalError
from sqlmodel import Session, col, select

from forumbot.config import SeasonConfig
from forumbot.engine.game import Game
from forumbot.engine.types import Deadline, Message, Post, Reply, Step
from forumbot.runtime.phase_clock import ON_ITS_WAY
from forumbot.runtime.store import InboundRow, InputRow, OutboxRow, Store
from forumbot.simulate.actions import legal_actions
from forumbot.simulate.play import _GROUP, MAX_ACTIONS, _hunch
from forumbot.simulate.policies import make_policy
from forumbot.simulate.view import View

log = logging.getLogger("forumbot")

Channel = Literal["pm", "thread"]
#: ``say(player, channel, text)``: send one command to the forum as ``player`` (raises on failure)
Say = Callable[[str, Channel, str], None]
#: the organiser command line's sender in the game (forumbot.runtime.bot.CLI)
CLI = "@cli"


@dataclass(frozen=True)
class Sent:
    """One command a simulated player sent: who, where, the text."""

    player: str
    channel: Channel
    text: str


def apply_input(game: Game, row: InputRow, inbound: InboundRow | None) -> Step:
    """Apply one stored input to ``game`` as the bot does (:meth:`forumbot.runtime.bot.Bot._step`)."""
    if row.kind == "start":
        return game.start()
    if row.kind == "deadline":
        assert row.phase_id is not None  # a deadline input names its phase
        return game.apply(Deadline(row.phase_id))
    assert inbound is not None
    channel: Channel = "thread" if inbound.source == "thread" else "pm"
    return game.apply(Message(CLI if inbound.source == "cli" else inbound.sender, inbound.text, channel))


def inputs_from(store: Store, seq: int) -> list[tuple[InputRow, InboundRow | None]]:
    """The stored inputs of ``store``'s season from ``seq`` on, in order, with their inbound rows (two queries:
    the players look often, and :meth:`Store.inputs` reads every row of the season one by one)."""
    with Session(store.engine, expire_on_commit=False) as s:
        rows = s.exec(select(InputRow).where(InputRow.season_id == store.season_id, col(InputRow.seq) >= seq)
                      .order_by(col(InputRow.seq))).all()
        ids = [r.inbound_id for r in rows if r.inbound_id is not None]
        inbound = {r.id: r for r in s.exec(select(InboundRow).where(col(InboundRow.id).in_(ids)))} if ids else {}
    return [(r, inbound.get(r.inbound_id) if r.inbound_id is not None else None) for r in rows]


def _sent_of(inbound: InboundRow | None, players: set[str]) -> Sent | None:
    if inbound is None or inbound.source == "cli" or inbound.sender not in players:
        return None
    return Sent(inbound.sender, "thread" if inbound.source == "thread" else "pm", inbound.text.strip())


class Table:
    """The simulated players of the season ``config``, whose bot keeps its inputs in the database ``engine``.
    ``say`` sends their commands; ``policy`` is a simulator policy name (``random``, ``heuristic``), ``skill``
    the table talk's reading (0..1). Call :meth:`run` in a thread (it returns when the game is over or ``stop``
    is set), or :meth:`step` repeatedly."""

    def __init__(self, config: SeasonConfig, engine: Any, say: Say, policy: str = "heuristic",
                 skill: float = 0.5) -> None:
        self.config = config
        self.engine = engine
        self.say = say
        self.policy = make_policy(policy, config.ruleset, skill)
        self.players = set(config.players)
        self.store: Store | None = None
        self.game: Game | None = None
        self.views: dict[str, View] = {}
        self.posts: list[Post] = []  # the thread, as every view reads it
        self.rng: random.Random | None = None
        self.cursor = 0  # stored inputs applied to self.game
        self.opened_by = 0  # the seq of the input that opened the current phase
        self.acted: int | None = None  # the last phase the players acted in
        self.applied: deque[Sent] = deque()  # commands applied to self.game, not yet stored by the bot
        #: commands sent (in order); those the forum refused; times the game was rebuilt from the bot's inputs
        self.sent: list[Sent] = []
        self.failed = 0
        self.rebuilt = 0
        self.finished = False

    # --- the game as the bot stored it ----------------------------------------------------------------------
    def _new_game(self, seed: str) -> None:
        self.game = Game(self.config.setup(seed))
        self.rng = self.rng or random.Random(f"rehearse:{seed}")
        self.cursor = 0
        self.applied.clear()

    def _deliver(self, step: Step) -> None:
        for o in step.outputs:
            if isinstance(o, Reply):
                if (v := self.views.get(o.to)) is not None:
                    v.receive(o)
            elif isinstance(o, Post):
                self.posts.append(o)  # one list, shared by every view

    def _make_views(self) -> None:
        g = self.game
        assert g is not None
        factions = type(g.ruleset).roles
        self.views = {p.name: View(p.seat, p.name, g.ruleset.id, posts=self.posts, _hunch=self._hunch(p.seat, factions))
                      for p in g.players}

    def _hunch(self, seat: int, factions: dict[str, str]) -> Callable[[random.Random, float], int | None]:
        """The simulator's table-talk model for ``seat``, on the table's game of the moment (rebuilt or not)."""
        def hunch(rng: random.Random, skill: float) -> int | None:
            assert self.game is not None
            return _hunch(self.game, seat, factions)(rng, skill)
        return hunch

    def sync(self) -> None:
        """Apply the inputs the bot stored since the last call; the commands this table applied already are
        checked off, anything else (a start, a deadline, an organiser's command) is applied and told."""
        if self.store is None:
            self.store = Store.find_season(self.engine, self.config.name)
            if self.store is None:
                return
        rows = inputs_from(self.store, self.cursor)
        if self.game is None:
            if not rows:
                return
            self._new_game(self.store.season().seed)
        g = self.game
        assert g is not None
        for row, inbound in rows:
            sent = _sent_of(inbound, self.players)
            if sent is not None and self.applied and self.applied[0] == sent:
                self.applied.popleft()
            elif self.applied:  # the bot's order is not the one the table played: its inputs win
                self._rebuild([r for r in inputs_from(self.store, 0) if r[0].seq <= row.seq])
                return
            else:
                step = apply_input(g, row, inbound)
                if row.kind == "start":
                    self._make_views()
                self._deliver(step)
                if row.kind == "start" or any(e.kind == "phase_opened" for e in step.events):
                    self.opened_by = row.seq
            self.cursor = row.seq + 1
        self.finished = g.finished

    def _rebuild(self, rows: list[tuple[InputRow, InboundRow | None]]) -> None:
        """The table's game from the bot's inputs ``rows``: the views keep what they were told (answers to
        commands applied early stay in their inbox), and get what the inputs beyond the cursor tell."""
        assert self.store is not None
        self.rebuilt += 1
        log.debug("rehearsal: the players' game is rebuilt from the bot's %d inputs", len(rows))
        cursor = self.cursor
        self._new_game(self.store.season().seed)
        g = self.game
        assert g is not None
        for row, inbound in rows:
            step = apply_input(g, row, inbound)
            if row.seq >= cursor:
                self._deliver(step)
            if row.kind == "start" or any(e.kind == "phase_opened" for e in step.events):
                self.opened_by = row.seq
        self.cursor = len(rows)
        self.finished = g.finished

    def visible(self) -> bool:
        """Whether every post and private message of the input that opened the current phase is out (sent or
        given up): the players can see the phase and what it told them."""
        assert self.store is not None
        prefix = f"{self.store.season_id}:{self.opened_by}:"
        with Session(self.store.engine) as s:
            rows = s.exec(select(OutboxRow).where(OutboxRow.season_id == self.store.season_id,
                                                  col(OutboxRow.key).startswith(prefix),
                                                  col(OutboxRow.kind).in_(("post", "thread", "pm")))).all()
        return not any(r.status in ON_ITS_WAY or (r.status == "failed" and r.next_attempt_at)
                                      for r in rows)

    # --- the players' turn ---------------------------------------------------------------------------------
    def act(self) -> None:
        """Every seat's commands for the current phase, in seat order, as the simulator plays them."""
        g, rng = self.game, self.rng
        assert g is not None and rng is not None
        pid = g.phase.id
        alive = tuple(g.alive())
        views = list(self.views.values())
        for v in views:
            v.phase, v.alive = (g.phase.kind, g.phase.round), alive
            v.scratch.clear()
        for v in views:
            options = legal_actions(g, v.seat)
            used: set[str] = set()
            count = 0
            while options and count < MAX_ACTIONS:
                action = self.policy.choose(v, options, rng)
                if action is None:
                    break
                text = action.text(g)
                sent = Sent(v.name, action.channel, text)
                self._deliver(g.apply(Message(v.name, text, action.channel)))
                self.applied.append(sent)
                self.sent.append(sent)
                count += 1
                try:
                    self.say(v.name, action.channel, text)
                except Exception as exc:  # a player whose command the forum refused misses it, as a person would
                    self.failed += 1
                    log.warning("rehearsal: %s could not send a command (%s: %s)", v.name, type(exc).__name__, exc)
                if g.finished or g.phase.id != pid:  # the ruleset moved on at a command: the bot will too
                    return
                used |= _GROUP.get(action.key, {action.key})
                options = [o for o in legal_actions(g, v.seat) if o.key not in used] \
                    if any(o.key not in used for o in options) else []

    def step(self) -> None:
        """One look at the bot's database: apply what it stored; when a new phase is on the forum, act in it."""
        try:
            self.sync()
            if self.game is None or self.finished or self.acted == self.game.phase.id or not self.visible():
                return
        except OperationalError as exc:  # the bot is writing (SQLite): look again at the next step
            log.debug("rehearsal: the database was busy (%s)", exc)
            return
        self.acted = self.game.phase.id
        self.act()

    def run(self, stop: threading.Event, every: float = 0.2) -> None:
        """Play until the game is over or ``stop`` is set, looking at the bot's database every ``every`` seconds."""
        while not stop.is_set() and not self.finished:
            try:
                self.step()
            except Exception as exc:  # the players must not die silently: the season would run on without them
                log.error("rehearsal: the simulated players failed (%s: %s); they try again", type(exc).__name__, exc)
                log.debug("the players' failure", exc_info=True)
            stop.wait(every)

