"""The game: a deterministic function of its :class:`Setup` and the ordered inputs.

``Game(setup).start()`` deals the roles and opens the first phase; each ``game.apply(input)`` returns
the :class:`~forumbot.engine.types.Step` it produced. There is no I/O, clock or global state here, and
every random outcome comes from the seed (``Game.rng``) and is recorded as an event, so replaying the
same inputs always rebuilds the same game.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from forumbot.engine.actions import Channel, act, example, judge
from forumbot.engine.events import (
    CommandInThread,
    DeadlineExtended,
    DeadlinePassed,
    DeadPlayerPost,
    GameOver,
    GamePaused,
    GameResumed,
    LastWords,
    OrganiserEnd,
    OrganiserPenalty,
    OrganiserReplace,
    PhaseOpened,
    PlayerOut,
    Rejected,
    RolesDealt,
    Unvote,
)
from forumbot.engine.ruleset import Ruleset, get_ruleset
from forumbot.engine.types import Deadline, Input, Message, Phase, Post, Reply, Step, Winner
from forumbot.language.types import ORGANISER_VERBS, Command, ParseError, Roster, RosterEntry

#: the most readings :meth:`Game.parse` keeps (all are dropped when it is full: a simulator's table of 19 reads
#: some 8,000 texts, a season a few hundred a day)
PARSE_MEMO = 20_000
#: (text, sender seat, channel, verbs, roster id) -> its reading; (roster, thread marks) -> roster id
_PARSED: dict[tuple[Any, ...], Command | ParseError] = {}
_ROSTERS: dict[tuple[Any, ...], int] = {}
_ROSTER_IDS = itertools.count()
_ANYONE = "anyone"  # the sender of a reading that does not depend on the sender

#: the longest extension one organiser command may give, in seconds (30 days): a longer one is a typo, and
#: ``extend 99999999999h`` would not fit the deadline's arithmetic (docs/runtime.md, organiser commands)
MAX_EXTEND_SECONDS = 30 * 24 * 3600


class SetupError(ValueError):
    """A game cannot be set up as asked (unknown ruleset, bad parameter, bad roster or draw)."""


@dataclass(frozen=True)
class Setup:
    """What a game is made of.

    ``players``: forum account names in seat order (seat 1 first). ``params``: overrides of the
    ruleset's parameters. ``roles``: a fixed draw (name -> role id; everyone not named gets the
    ruleset's default role); None draws from ``seed``. ``organisers``: accounts whose organiser
    commands are obeyed. ``aliases``: name -> nicknames players may use. ``thread_marks``: what
    makes a line of a thread post a command (see :data:`forumbot.language.parse.THREAD_MARKS`; None:
    every mark).
    """

    ruleset: str
    players: tuple[str, ...]
    params: dict[str, Any] = field(default_factory=dict)
    roles: dict[str, str] | None = None
    seed: int | str = 0
    organisers: tuple[str, ...] = ()
    aliases: dict[str, tuple[str, ...]] = field(default_factory=dict)
    thread_marks: tuple[str, ...] | None = None


@dataclass
class Player:
    """One seat. ``out_reason``: why the player left ("voted", "killed", "suicide", "penalty", ...);
    ``out_phase``: the id of the phase in which they left."""

    seat: int
    name: str
    role: str
    alive: bool = True
    out_reason: str | None = None
    out_phase: int | None = None
    will_used: bool = False


class Game:
    """One game of one ruleset. See the module docstring.

    Raises :class:`SetupError` for a setup that cannot be played.
    """

    def __init__(self, setup: Setup) -> None:
        try:
            cls = get_ruleset(setup.ruleset)
        except KeyError as exc:
            raise SetupError(str(exc.args[0])) from None
        try:
            params = cls.Params(**setup.params)
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(map(str, e['loc']))}: "
                + (f"unknown parameter; {cls.id}'s parameters are {', '.join(cls.Params.model_fields)}"
                   if e["type"] == "extra_forbidden" else e["msg"].removeprefix("Value error, "))
                for e in exc.errors()
            )
            raise SetupError(f"bad parameters for ruleset {setup.ruleset!r}: {problems}") from None
        names = list(setup.players)
        if len(set(names)) != len(names):
            raise SetupError("a player is listed twice: " + ", ".join(sorted({n for n in names if names.count(n) > 1})))
        if len(names) < cls.min_players:
            raise SetupError(f"ruleset {cls.id!r} needs at least {cls.min_players} players, got {len(names)}")
        self.setup = setup
        self.organisers = tuple(setup.organisers)
        self.ruleset: Ruleset = cls(self, params)
        self.players: list[Player] = [Player(i + 1, n, "") for i, n in enumerate(names)]
        self.phase = Phase(0, "prologue", 0, 1)
        self.phases: list[Phase] = [self.phase]
        self.finished = False
        self.winner: Winner = None
        self.paused = False
        self.penalties: dict[int, str] = {}
        #: seat -> the private messages of :attr:`Ruleset.knowledge` it was sent: (key, data, phase kind, round)
        self.told: dict[int, list[tuple[str, dict[str, Any], str, int]]] = {}
        self.extensions: dict[int, int] = {}
        self._aliases = {n: tuple(a) for n, a in setup.aliases.items()}
        self._roster: Roster | None = None
        self._roster_key: int | None = None
        self._started = False
        self._deal(setup.roles)

    # --- roles ------------------------------------------------------------------------------------
    def _deal(self, fixed: dict[str, str] | None) -> None:
        cls = type(self.ruleset)
        if fixed is not None:
            for name, role in fixed.items():
                if self.seat_of(name) is None:
                    raise SetupError(f"the draw names {name!r}, who is not a player")
                if role not in cls.roles:
                    raise SetupError(f"unknown role {role!r} for ruleset {cls.id!r}; known: {', '.join(cls.roles)}")
            for p in self.players:
                p.role = fixed.get(p.name, cls.default_role)
            return
        counts = self.ruleset.role_counts(len(self.players))
        deck = [role for role, k in counts.items() for _ in range(k)]
        if len(deck) != len(self.players):
            raise SetupError(f"the role counts {counts} do not add up to {len(self.players)} players")
        self.rng("roles").shuffle(deck)
        for p, role in zip(self.players, deck, strict=False):
            p.role = role

    # --- lookups ----------------------------------------------------------------------------------
    def player(self, seat: int) -> Player:
        """The player at ``seat`` (1-based); IndexError for a seat not in the game."""
        if seat >= 1:
            try:
                return self.players[seat - 1]
            except IndexError:
                pass
        raise IndexError(seat)

    def seat_of(self, name: str) -> int | None:
        """The seat of account ``name`` (exact), or None."""
        for p in self.players:
            if p.name == name:
                return p.seat
        return None

    def name(self, seat: int) -> str:
        """The account name at ``seat``; IndexError for a seat not in the game."""
        if seat >= 1:
            try:
                return self.players[seat - 1].name
            except IndexError:
                pass
        raise IndexError(seat)

    def names(self, seats) -> list[str]:
        """Account names of ``seats``, in the same order."""
        name = self.name
        return [name(s) for s in seats]

    def alive(self) -> list[int]:
        """Living seats, in seat order."""
        return [p.seat for p in self.players if p.alive]

    def living(self, role: str) -> list[int]:
        """Living seats holding ``role``."""
        return [p.seat for p in self.players if p.alive and p.role == role]

    @property
    def roster(self) -> Roster:
        """The roster the command parser reads names against (current account names)."""
        if self._roster is None:
            self._roster = Roster(
                tuple(RosterEntry(p.seat, p.name, self._aliases.get(p.name, ())) for p in self.players)
            )
        return self._roster

    def rng(self, purpose: str) -> random.Random:
        """A random source for one draw, derived from the game's seed and ``purpose`` (so draws do
        not depend on each other's order). Record every outcome as an event."""
        return random.Random(f"{self.setup.seed}:{purpose}")

    # --- changes rulesets make --------------------------------------------------------------------
    def open_phase(self, kind: str, round_: int, day: int, out: Step) -> Phase:
        """Close the current phase and open the next one; returns it."""
        self.phase = Phase(self.phase.id + 1, kind, round_, day)
        self.phases.append(self.phase)
        out.events.append(PhaseOpened(self.phase.id, kind, round_, day))
        return self.phase

    def remove(self, seat: int, reason: str, out: Step) -> None:
        """Take ``seat`` out of the game for ``reason`` ("voted", "killed", "suicide", "penalty"...)."""
        p = self.player(seat)
        p.alive = False
        p.out_reason = reason
        p.out_phase = self.phase.id
        out.events.append(PlayerOut(seat, p.name, reason, self.phase.id))

    def finish(self, winner: Winner, out: Step) -> None:
        """End the game with ``winner`` (a faction id, the camps that win together, or None for no
        winner; see :data:`~forumbot.engine.types.Winner`)."""
        self.finished = True
        self.winner = winner
        out.events.append(GameOver(winner))

    def reply(self, to: int | str, key: str, out: Step, /, **data: Any) -> None:
        """A private message to a seat (int) or an account (str). One that tells the seat what only it knows
        (:attr:`Ruleset.knowledge`, the role PM) is kept for a substitute (:meth:`substitute_data`)."""
        seat = to if isinstance(to, int) else self.seat_of(to)
        if seat is not None and (key in self.ruleset.knowledge or key == f"{self.ruleset.id}/role"):
            self.told.setdefault(seat, []).append((key, data, self.phase.kind, self.phase.round))
        out.outputs.append(Reply(self.name(to) if isinstance(to, int) else to, key, data))

    def post(self, key: str, out: Step, /, **data: Any) -> None:
        """A post to the game thread."""
        out.outputs.append(Post(key, data))

    def read_as(self, cmd: Command) -> list[dict[str, str]]:
        """The names the parser did not find written exactly in ``cmd`` (a typo, a prefix, initials…),
        for the reply to say what it read: ``written``, ``name`` and ``how``."""
        return [{"written": r.written, "name": self.name(r.seat), "how": r.how} for r in cmd.readings if not r.exact]

    def read_thread(self, seat: int, text: str, verbs: set[str] | frozenset[str] | None = None) -> Command | ParseError:
        """Read a thread post by ``seat``: chat unless a command is marked (the season's
        ``thread_marks``); only ``verbs`` (None: any) are read. See :func:`forumbot.language.parse.parse`."""
        return self.parse(text, seat, channel="thread", verbs=verbs)

    def parse(self, text: str, seat: int | None, channel: str = "pm",
              verbs: set[str] | frozenset[str] | None = None) -> Command | ParseError:
        """Read ``text`` sent by ``seat`` (None: not a player) on ``channel`` against this game's roster and
        thread marks (:func:`forumbot.language.parse.parse`). The one place a game reads text. The parser is
        pure and its results are frozen, so a reading is kept (:data:`_PARSED`) for the same text, sender (any
        sender for a text without a self reference: :func:`~forumbot.language.parse.names_sender`), channel,
        verbs, roster and marks in any game of this process: a replay, the simulator's games and the seasons of
        one ``serve`` read a text they have read before once."""
        if self._roster_key is None or self._roster is None:  # the roster is rebuilt when a name changes
            marks = (self.roster, self.setup.thread_marks)
            got = _ROSTERS.get(marks)
            self._roster_key = got if got is not None else _ROSTERS.setdefault(marks, next(_ROSTER_IDS))
        verbs_key = None if verbs is None else frozenset(verbs)
        # a text with no self reference reads the same whoever sends it: one reading for every sender
        hit = _PARSED.get((text, _ANYONE, channel, verbs_key, self._roster_key))
        if hit is None:
            hit = _PARSED.get((text, seat, channel, verbs_key, self._roster_key))
        if hit is None:
            if len(_PARSED) >= PARSE_MEMO:  # a roster id is never given twice: a game keeps its own after this
                _PARSED.clear()
                _ROSTERS.clear()
            from forumbot.language.parse import names_sender

            sender = seat if names_sender(text) else _ANYONE
            hit = _PARSED[(text, sender, channel, verbs_key, self._roster_key)] = self._read(text, seat, channel, verbs)
        return hit

    def _read(self, text: str, seat: int | None, channel: str,
              verbs: set[str] | frozenset[str] | None) -> Command | ParseError:
        from forumbot.language.parse import parse

        if channel == "thread":
            return parse(text, self.roster, sender_seat=seat, channel="thread", marks=self.setup.thread_marks,
                         verbs=verbs)
        return parse(text, self.roster, sender_seat=seat)

    def thread_error(self, seat: int, parsed: Command | ParseError, out: Step) -> None:
        """Reply by PM to a marked thread vote that does not read (``##vote Rasputin``), in a game that
        takes votes from the thread: it is never lost silently. Talk (no_command) gets no reply."""
        if isinstance(parsed, ParseError) and parsed.code != "no_command" and not self.paused:
            out.events.append(Rejected(seat, parsed.verb, parsed.code, thread=True))
            self.reply(seat, "common/parse_error", out, code=parsed.code, verb=parsed.verb, written=parsed.written,
                       candidates=self.names(parsed.candidates), organiser=False, thread=True)

    def unvoted(self, seat: int, withdrawn: Any, out: Step) -> None:
        """Reply and log an unvote: ``withdrawn`` is the withdrawn ballot, or None when the first vote
        stands / there was none (the reply says which)."""
        if withdrawn is None:
            self.reply(seat, "common/vote_rule", out, verb="unvote", rule="no_vote")
            return
        out.events.append(Unvote(self.phase.id, seat, list(withdrawn.choices)))
        self.reply(seat, "common/unvoted", out, choices=self.names(c for c in withdrawn.choices if c))

    def vote_command(self, seat: int, cmd: Command, out: Step, channel: Channel = "pm") -> bool:
        """Route an unvote or a no-lynch vote sent by ``channel``: where the ruleset declares an action for it
        on that channel (when it may be sent: :mod:`forumbot.engine.actions`), through the one check
        (:func:`~forumbot.engine.actions.act`; its handler is then the hook); else to the ruleset's hook
        (:meth:`~forumbot.engine.ruleset.Ruleset.on_unvote`, :meth:`~forumbot.engine.ruleset.Ruleset.on_no_lynch`).
        False for any other verb."""
        if cmd.verb not in ("unvote", "nolynch"):
            return False
        if any(a.takes(cmd) and a.channel_now(self.ruleset) == channel for a in self.ruleset.actions):
            act(self.ruleset, seat, cmd, out, channel)
        elif cmd.verb == "unvote":
            self.ruleset.on_unvote(seat, cmd, out)
        else:
            self.ruleset.on_no_lynch(seat, cmd, out)
        return True

    def dead_player_post(self, seat: int, out: Step) -> None:
        """The last-words rule for a thread post by ``seat``: a dead player's first post within the
        will window (while fewer than ``will_phases`` phases have ended since the one they died in,
        not counting the phase kinds in the ruleset's ``will_skips`` — windows nobody talks in, such
        as a hunter's or human_kill's day windows —, when the ruleset's ``may_leave_will`` allows) is
        their last words; any other post by the dead is reported to the organisers, saying why
        ("again": after their last words; "no_last_words": the rules give them none;
        "window_closed": too late), and ignored. Posts by the living change nothing."""
        p = self.player(seat)
        if p.alive:
            return
        window = getattr(self.ruleset.params, "will_phases", 1)
        allowed = getattr(self.ruleset, "may_leave_will", lambda s: True)(seat)
        skips = getattr(self.ruleset, "will_skips", ())
        ended = sum(1 for ph in self.phases if p.out_phase is not None and p.out_phase < ph.id < self.phase.id
                    and ph.kind not in skips)
        if allowed and not p.will_used and p.out_phase is not None and ended < window:
            p.will_used = True
            out.events.append(LastWords(seat, p.name))
            return
        why = "no_last_words" if not allowed else "again" if p.will_used else "window_closed"
        out.events.append(DeadPlayerPost(seat, p.name, why))
        for org in self.organisers:
            self.reply(org, "common/dead_player_post", out, player=p.name, why=why)

    # --- inputs -----------------------------------------------------------------------------------
    def start(self) -> Step:
        """Deal (already done at construction), send role PMs, post the opening post, open the
        prologue. Call once, before any :meth:`apply`."""
        if self._started:
            raise RuntimeError("the game has already started")
        self._started = True
        out = Step()
        out.events.append(
            RolesDealt(self.setup.seed, {p.name: p.role for p in self.players})
        )
        self.ruleset.start(out)
        return out

    def apply(self, inp: Input) -> Step:
        """Apply one input (a message or a deadline) and return what it produced."""
        if not self._started:
            raise RuntimeError("start() the game before applying inputs")
        out = Step()
        if isinstance(inp, Deadline):
            # While paused the deadline is held (the runtime adds the pause to it): nothing closes.
            if not self.finished and not self.paused and inp.phase_id == self.phase.id:
                out.events.append(DeadlinePassed(self.phase.id))
                self.ruleset.close_phase(out)
            return out
        if not isinstance(inp, Message):
            raise TypeError(f"not an input: {inp!r}")
        seat = self.seat_of(inp.sender)
        if inp.channel == "thread":
            if seat is not None and not self.finished:
                self._thread_post(seat, inp.text, out)
            return out
        self._private_message(inp.sender, seat, inp.text, out)
        return out

    def _thread_post(self, seat: int, text: str, out: Step) -> None:
        """A living player's post with a marked player command (:meth:`read_thread`: talk is never a
        command) that the ruleset does not take from the thread is answered by PM that it was not counted
        (the organiser sees the event); one it does take is refused while the game is paused, as a PM
        command is. Then the ruleset's talk rules (:meth:`~forumbot.engine.ruleset.Ruleset.on_thread_post`:
        last words, the dead) and, unless they spent the post, the post read once more for the verbs the
        ruleset takes in the thread (:meth:`~forumbot.engine.ruleset.Ruleset.thread_command_verbs`; other
        verbs are talk there) goes to :meth:`~forumbot.engine.ruleset.Ruleset.on_thread_command`. Rulesets
        never read a post themselves."""
        if self.player(seat).alive:
            parsed = self.read_thread(seat, text)
            if isinstance(parsed, Command) and parsed.verb not in ORGANISER_VERBS:
                if not self.ruleset.reads_in_thread(parsed.verb):  # unvote and no lynch go where votes go
                    out.events.append(CommandInThread(seat, self.name(seat), parsed.verb))
                    # a vote after a first vote that stands: sending it by PM would change nothing either
                    refusal = judge(self.ruleset, seat, parsed)[1] if self.ruleset.actions else None
                    self.reply(seat, "common/command_in_thread", out, verb=parsed.verb,
                               targets=self.names(parsed.targets), number=parsed.number,
                               vote_stands=refusal is not None and refusal.reason == "already_voted")
                elif self.paused:
                    self.reply(seat, "common/paused", out, verb=parsed.verb)
                    return
        if self.ruleset.on_thread_post(seat, text, out):
            return
        verbs = self.ruleset.thread_command_verbs()
        if verbs and self.player(seat).alive:
            self.ruleset.on_thread_command(seat, self.read_thread(seat, text, verbs), out)

    def _private_message(self, sender: str, seat: int | None, text: str, out: Step) -> None:
        organiser = sender in self.organisers
        parsed = self.parse(text, seat)
        if isinstance(parsed, ParseError):
            if organiser and parsed.verb == "penalty" and parsed.code == "bad_argument":
                # 罚分 张三 (no reason) or 罚分 张三 睡觉: the reason is what is missing, not the command
                self.reply(sender, "common/organiser_refused", out, verb="penalty", reason="no_reason", player=None,
                           written=parsed.written)
                return
            meant = parsed.meant
            self.reply(
                sender, "common/parse_error", out,
                code=parsed.code, verb=parsed.verb, written=parsed.written,
                candidates=self.names(parsed.candidates), organiser=organiser, frame=parsed.frame,
                meant_targets=self.names(meant.targets) if meant else [],
                meant_number=meant.number if meant else None,
                example=None if self.finished else example(self.ruleset, seat),
                playing=seat is not None and not self.finished,
                gone=seat is not None and not self.finished and not self.player(seat).alive,
            )
            return
        cmd = parsed
        if cmd.verb in ORGANISER_VERBS:
            if not organiser:
                self.reply(sender, "common/not_organiser", out, verb=cmd.verb)
            else:
                self._organiser_command(sender, cmd, out)
            return
        if seat is None and organiser and cmd.verb in ("help", "status"):
            self._organiser_help_or_status(sender, cmd.verb, out)
            return
        if seat is None:
            key = "common/organiser_not_player" if organiser else "common/not_a_player"
            self.reply(sender, key, out, verb=cmd.verb)
            return
        if cmd.verb == "help":
            self.reply(seat, f"{self.ruleset.id}/help", out, **self.ruleset.help_data(seat))
        elif cmd.verb == "status":
            self.reply(seat, f"{self.ruleset.id}/status", out, **self.ruleset.status_data(seat))
        elif self.finished:
            self.reply(seat, "common/game_over", out, verb=cmd.verb)
        elif self.paused:
            self.reply(seat, "common/paused", out, verb=cmd.verb)
        elif not self.vote_command(seat, cmd, out):
            self.ruleset.on_command(seat, cmd, out)

    def _organiser_help_or_status(self, sender: str, verb: str, out: Step) -> None:
        """An organiser's ``help`` (the organiser commands, with examples: common/organiser_help) or
        ``status`` (common/organiser_status: the phase and round, paused or over, the time added to this
        phase, and who still has to act — :meth:`~forumbot.engine.ruleset.Ruleset.pending`, which the
        organiser may know; never roles or orders). The deadline is the runtime's, not the engine's:
        ``forumbot status`` shows it."""
        if verb == "help":
            example = self.name(self.players[0].seat)
            self.reply(sender, "common/organiser_help", out, example=example)
            return
        pending = [] if self.finished else self.ruleset.pending()
        self.reply(sender, "common/organiser_status", out, phase=self.phase.kind, round=self.phase.round,
                   finished=self.finished, paused=self.paused, extended=self.extensions.get(self.phase.id, 0),
                   pending=self.names(pending), alive=len(self.alive()), players=len(self.players))

    def substitute_data(self, seat: int, old: str) -> dict[str, Any]:
        """The private message of the player who takes ``seat`` from ``old`` (an organiser's ``replace``; the
        rulebooks leave substitutes to the organiser): where the game is (``phase``, ``round``; the runtime adds
        the deadline), who is out (``out``, in seat order: public), whether the seat is still in the game, the
        organiser's penalty it carries, then what ``old`` was told in private and only he knows — his role PM and
        the ruleset's :attr:`Ruleset.knowledge` messages, in order, each with the phase it came in (``told``:
        ``key``, ``data``, ``phase``, ``round``) — and his ``status`` reply now (his warnings, what he recorded
        this phase, his potions...). Nothing the seat was not told: the substitute plays on as his predecessor."""
        rs = self.ruleset
        return {
            "old": old, "new": self.name(seat), "seat": seat, "ruleset": rs.id, "phase": self.phase.kind,
            "round": self.phase.round, "day_rounds": rs.day_rounds, "alive": self.player(seat).alive,
            "out": self.names([p.seat for p in self.players if not p.alive]), "penalty": self.penalties.get(seat),
            "told": [{"key": k, "data": d, "phase": kind, "round": rnd} for k, d, kind, rnd in self.told.get(seat, [])],
            "status": rs.status_data(seat),
        }

    def _organiser_command(self, sender: str, cmd: Command, out: Step) -> None:
        """Apply an organiser command (rulebooks leave these to the organiser; docs/runtime.md lists them).
        ``penalty`` and ``replace`` cannot be taken back, so the player must be named exactly — his
        account name, an alias the season declares or his seat number: a name read loosely (a typo, a
        prefix) is refused with what it was read as (common/organiser_refused, reason "inexact_name")."""
        verb = cmd.verb
        if self.finished:  # nothing is left to extend, pause or end
            self.reply(sender, "common/game_over", out, verb=verb)
            return
        if verb in ("penalty", "replace") and cmd.readings and not cmd.readings[0].exact:
            reading = cmd.readings[0]
            self.reply(sender, "common/organiser_refused", out, verb=verb, reason="inexact_name",
                       player=reading.written, meant=self.name(reading.seat))
            return
        if verb == "penalty" and cmd.targets[0] in self.penalties:
            # one penalty a seat: a second would announce "out" again for nothing (the score counts one)
            self.reply(sender, "common/organiser_refused", out, verb=verb, reason="already_penalised",
                       player=self.name(cmd.targets[0]), earlier=self.penalties[cmd.targets[0]])
        elif verb == "penalty":
            seat = cmd.targets[0]
            reason = cmd.text or "lurking"
            self.penalties[seat] = reason
            was_alive = self.player(seat).alive
            out.events.append(OrganiserPenalty(sender, verb, seat, reason))
            if was_alive:
                self.remove(seat, "penalty", out)
            self.post("common/penalty", out, player=self.name(seat), reason=reason)
            self.reply(sender, "common/organiser_done", out, verb=verb, player=self.name(seat), reason=reason)
            self.reply(seat, "common/penalised", out, reason=reason, was_alive=was_alive,
                       **self.ruleset.penalty_data(seat))
            if was_alive:
                self.ruleset.on_removed(seat, out)
        elif verb == "replace":
            seat, new = cmd.targets[0], (cmd.text or "").strip()
            if not new or self.seat_of(new) is not None or new in self.organisers:
                self.reply(sender, "common/organiser_refused", out, verb=verb, reason="bad_substitute", player=new)
                return
            old = self.name(seat)
            self.player(seat).name = new
            self._roster = None
            out.events.append(OrganiserReplace(sender, verb, seat, old, new))
            self.post("common/replaced", out, old=old, new=new, seat=seat)
            self.reply(sender, "common/organiser_done", out, verb=verb, player=old, new=new)
            self.reply(new, "common/substitute", out, **self.substitute_data(seat, old))
            self.reply(old, "common/replaced_you", out, new=new, seat=seat, alive=self.player(seat).alive)
        elif verb == "extend":
            seconds = int(cmd.number or 0)
            if seconds > MAX_EXTEND_SECONDS:  # a typo (延长 99999999999h): no deadline that far fits a calendar
                self.reply(sender, "common/organiser_refused", out, verb=verb, reason="extend_too_long", player=None,
                           days=MAX_EXTEND_SECONDS // 86400)
                return
            self.extensions[self.phase.id] = self.extensions.get(self.phase.id, 0) + seconds
            out.events.append(DeadlineExtended(sender, verb, self.phase.id, seconds))
            self.post("common/deadline_extended", out, seconds=seconds, phase_id=self.phase.id)
            self.reply(sender, "common/organiser_done", out, verb=verb, seconds=seconds)
        elif verb in ("pause", "resume"):
            self.paused = verb == "pause"
            out.events.append((GamePaused if verb == "pause" else GameResumed)(sender, verb))
            self.post(f"common/game_{verb}d", out)
            self.reply(sender, "common/organiser_done", out, verb=verb)
        elif verb == "end":
            out.events.append(OrganiserEnd(sender, verb))
            self.reply(sender, "common/organiser_done", out, verb=verb)
            self.ruleset.end_now(out)
