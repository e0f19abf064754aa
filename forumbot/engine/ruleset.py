"""The interface every ruleset implements, and the registry of rulesets.

A ruleset is one module in :mod:`forumbot.rulesets` holding one :class:`Ruleset` subclass decorated
with :func:`register` (the registry loads the built-in ones when first read: :mod:`forumbot.engine.builtin_rulesets`; the engine does not import its rulesets). The :class:`~forumbot.engine.game.Game` owns the players, phases, seeded
randomness and the generic handling of messages (who may speak, parsing, organiser commands); the
ruleset owns everything its rulebook says.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import BaseModel, ConfigDict

from forumbot.engine import actions as _actions
from forumbot.engine import builtin_rulesets
from forumbot.engine.actions import Action
from forumbot.engine.events import Rejected
from forumbot.engine.types import Winner
from forumbot.language.types import Command, ParseError

if TYPE_CHECKING:
    from forumbot.engine.game import Game
    from forumbot.engine.types import Step
    from forumbot.engine.votes import Vote

_REGISTRY: dict[str, type[Ruleset]] = {}
#: what resolves a phase at its deadline when it is not a method of the ruleset: (ruleset, out) -> None
Closer = Callable[[Any, "Step"], None]


class Params(BaseModel):
    """Base of every ruleset's parameters: unknown keys are an error, values are validated."""

    model_config = ConfigDict(extra="forbid", frozen=True)


_Params = Params  # inside Ruleset the class attribute ``Params`` hides the module's name


class Ruleset:
    """One rulebook. Subclasses set the class attributes and implement the hooks.

    Class attributes: ``id`` (the ruleset id used in configs), ``Params`` (a :class:`Params` model),
    ``roles`` (role id -> faction id), ``default_role`` (what a player not named in a fixed draw gets),
    ``min_players``, ``phase_kinds`` (every kind of phase it opens: what a season's schedule may give
    a length), ``rules_version``.
    """

    id: ClassVar[str]
    Params: ClassVar[type[Params]] = Params
    roles: ClassVar[dict[str, str]]
    default_role: ClassVar[str]
    min_players: ClassVar[int] = 3
    #: the player counts the rulebook's table of roles is written for: (fewest, most; None: no upper bound),
    #: or None when the rulebook gives none. Legal outside it (down to ``min_players``), but ``forumbot check``
    #: warns (:meth:`table_sizes`)
    table_players: ClassVar[tuple[int, int | None] | None] = None
    #: every phase kind the ruleset opens besides the prologue (a season's schedule may name them)
    phase_kinds: ClassVar[tuple[str, ...]] = ()
    #: the version of this ruleset's behaviour, recorded in each season: bumped by hand when a change (here or in
    #: the engine code it uses) can make the same inputs decide differently; a season judged by another version
    #: is not resumed silently (docs/runtime.md § Versions)
    rules_version: ClassVar[str] = "1"
    #: whether the rulebook counts its rounds as nights and days (「第 1 夜」「第 1 天」): the replies that name a
    #: phase by its round (a refusal, a late message, a reminder) then use the words of its thread posts
    day_rounds: ClassVar[bool] = False
    #: the private messages that tell a player something only he knows (his role PM, a check's result, his team's
    #: orders...), by template key: a substitute is sent copies of his predecessor's (issue 28:
    #: :meth:`forumbot.engine.game.Game.substitute_data`); the role PM (``<id>/role``) always is one
    knowledge: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, game: Game, params: _Params) -> None:
        self.game = game
        self.params = params

    # --- set-up -----------------------------------------------------------------------------------
    def table_sizes(self) -> tuple[int, int | None] | None:
        """The player counts the rulebook's table (with this season's parameters) is written for, (fewest,
        most or None), or None: :attr:`table_players` by default."""
        return self.table_players

    def role_counts(self, n_players: int) -> dict[str, int]:
        """How many of each role a draw for ``n_players`` deals (counts sum to ``n_players``)."""
        raise NotImplementedError

    def start(self, out: Step) -> None:
        """Roles are dealt: send role PMs, post the opening post, open the first phase."""
        raise NotImplementedError

    # --- during the game ----------------------------------------------------------------------------
    #: the player actions, declared once (:mod:`forumbot.engine.actions`): the default
    #: :meth:`on_command`, :meth:`help_data` and :meth:`pending` are derived from them
    actions: ClassVar[tuple[Action, ...]] = ()

    def on_command(self, seat: int, cmd: Command, out: Step) -> None:
        """A player's command by PM (``seat`` may be dead: the ruleset decides what the dead may do).
        Default: checked against :attr:`actions` and refused, or carried out by the action's handler
        (:func:`forumbot.engine.actions.act`)."""
        _actions.act(self, seat, cmd, out)

    #: player verbs this ruleset reads from a post in the game thread (e.g. day votes where the
    #: rulebook has them posted); any other command posted in the thread is answered by PM that it
    #: was not counted (:meth:`Game.apply`)
    thread_verbs: ClassVar[frozenset[str]] = frozenset()

    def reads_in_thread(self, verb: str) -> bool:
        """Whether a thread post with command ``verb`` is an input of this ruleset: a verb of
        :meth:`thread_command_verbs`."""
        return verb in self.thread_command_verbs()

    def thread_command_verbs(self) -> frozenset[str]:
        """The player verbs read from a post in the game thread in this season: :attr:`thread_verbs`, and
        the verbs of the declared actions cast in the thread (:attr:`Action.channel
        <forumbot.engine.actions.Action.channel>`, which may be a parameter's); with a vote, unvote and no
        lynch, which go where votes go. Empty: every thread post is talk."""
        verbs = set(self.thread_verbs)
        for a in self.actions:
            if a.channel_now(self) == "thread":
                verbs.update(a.verbs)
        if "vote" in verbs:
            verbs.update(("unvote", "nolynch"))
        return frozenset(verbs)

    def unknown_verb(self, seat: int, cmd: Command) -> _actions.Refusal:
        """The refusal of a player command no declared action takes (default ``not_in_game``)."""
        return _actions.Refusal("not_in_game")

    def thread_vote(self) -> Vote | None:
        """The vote now being cast by posts in the game thread, or None (default: votes are not cast
        in the thread). The running vote count (:func:`forumbot.engine.votecount.vote_count`) is
        derived from it."""
        return None

    def refuse(self, seat: int, cmd: Command, reason: str, out: Step, /, **data: Any) -> None:
        """Refuse ``cmd`` from ``seat`` for ``reason`` (a snake_case id its ``<ruleset>/rejected``
        template explains): the one ``rejected`` event (``seat``, ``verb``, ``reason``) and the reply
        to the sender (``verb``, ``reason``, the current ``phase`` kind and ``round``, plus ``data``).
        Nothing else changes: every ruleset refuses a command this way (the organiser and the
        simulator count these events)."""
        g = self.game
        out.events.append(Rejected(seat, cmd.verb, reason))
        g.reply(seat, f"{self.id}/rejected", out, verb=cmd.verb, reason=reason, phase=g.phase.kind,
                round=g.phase.round, day_rounds=self.day_rounds, **data)

    def open_vote(self) -> Vote | None:
        """The vote now being cast, by private message or in the thread, or None. Default: the
        thread vote (:meth:`thread_vote`); rulesets with votes by private message override it."""
        return self.thread_vote()

    def on_unvote(self, seat: int, cmd: Command, out: Step) -> None:
        """A player withdraws his vote (unvote / 取消投票), as the open vote's declaration says
        (:attr:`forumbot.engine.votes.VoteRule.change`): where ballots may change his standing ballot
        is withdrawn (:meth:`~forumbot.engine.game.Game.unvoted`); where the first vote stands, or no
        vote is open, nothing changes and the reply explains that rule (``common/vote_rule``)."""
        vote = self.open_vote()
        if vote is not None and vote.allow_change:
            return self.game.unvoted(seat, vote.withdraw(seat), out)
        self.game.reply(seat, "common/vote_rule", out, verb=cmd.verb, rule="first_vote_stands")

    def on_no_lynch(self, seat: int, cmd: Command, out: Step) -> None:
        """A player votes that nobody is executed (no lynch / 不放逐). Default, for rulebooks with no
        abstention: nothing is recorded and the reply explains that rule. Rulesets that allow an
        abstention override it."""
        self.game.reply(seat, "common/vote_rule", out, verb=cmd.verb, rule="no_abstention")

    def on_thread_post(self, seat: int, text: str, out: Step) -> bool:
        """A post in the game thread by the player at ``seat``, before any command in it is read: the talk
        rules. Returns True when the post is spent (no command in it is read). Default: a dead player's post
        follows :meth:`Game.dead_player_post <forumbot.engine.game.Game.dead_player_post>` and is spent."""
        if self.game.player(seat).alive:
            return False
        self.game.dead_player_post(seat, out)
        return True

    def on_thread_command(self, seat: int, cmd: Command | ParseError, out: Step) -> None:
        """A living player's thread post read for :meth:`thread_command_verbs` (the engine reads a post once,
        :meth:`Game.apply <forumbot.engine.game.Game.apply>`). Default: a command is carried out as by private
        message, cast in the thread (a vote, unvote or no lynch through the vote hooks, any other through its
        declared action); where votes are cast in the thread, a marked command that does not read is answered
        (:meth:`Game.thread_error <forumbot.engine.game.Game.thread_error>`: a vote is never lost silently)."""
        g = self.game
        if isinstance(cmd, ParseError):
            if "vote" in self.thread_command_verbs():
                g.thread_error(seat, cmd, out)
        elif not g.vote_command(seat, cmd, out, "thread"):
            _actions.act(self, seat, cmd, out, "thread")

    #: phase kind -> what resolves a phase of that kind when its deadline passes (and opens the next phase,
    #: or finishes): the name of the ruleset's method ``(out) -> None``, or a :data:`Closer` function
    #: ``(ruleset, out) -> None`` (a ruleset that keeps one rule's phases in a module of their own); read
    #: by the default :meth:`close_phase`
    closers: ClassVar[Mapping[str, str | Closer]] = {}

    def close_phase(self, out: Step) -> None:
        """The current phase's deadline has passed: resolve it and open the next phase (or finish).
        Default: the closer :attr:`closers` names for the phase's kind (a kind it does not name closes
        with nothing done)."""
        closer = self.closers.get(self.game.phase.kind)
        if callable(closer):
            closer(self, out)
        elif closer is not None:
            getattr(self, closer)(out)

    def team(self, role: str) -> list[int]:
        """Every seat whose role is ``role``, dead included, in seat order (a team the rulebook lets its members
        know, a role dealt once)."""
        return [p.seat for p in self.game.players if p.role == role]

    def on_removed(self, seat: int, out: Step) -> None:
        """The organiser removed ``seat`` from the game (penalty); the player is already out."""

    def penalty_data(self, seat: int) -> dict[str, Any]:
        """What a penalty means for ``seat`` in this ruleset, for the PM telling him (common/penalised):
        ``score``, his final score when the ruleset scores a penalty flatly. Default: nothing more than
        being out."""
        return {}

    def end_now(self, out: Step) -> None:
        """The organiser ends the game: finish it with the standings as they are. Default: nobody wins
        (:meth:`finish_game` with no winner and no reason)."""
        self.finish_game(None, None, out)

    # --- winning (shared by rulesets whose win check is "a faction and a reason") -------------------
    win_reason: str | None = None

    def win_check(self) -> tuple[Winner, str] | None:
        """``(winner, reason)`` when the game is over as it stands (``winner``: a
        :data:`~forumbot.engine.types.Winner`), else None."""
        return None

    def check_win(self, out: Step) -> bool:
        """Finish the game if :meth:`win_check` says it is won; True when it did."""
        won = self.win_check()
        if won is None:
            return False
        self.finish_game(won[0], won[1], out)
        return True

    def finish_game(self, winner: Winner, reason: str | None, out: Step) -> None:
        """End the game with ``winner`` (None: nobody) for ``reason`` and post the final post
        (template ``<ruleset>/final`` with :meth:`final_data`)."""
        self.win_reason = reason
        self.game.finish(winner, out)
        self.game.post(f"{self.id}/final", out, **self.final_data())

    def final_data(self) -> dict[str, Any]:
        """Everything the final post reveals."""
        return {}

    # --- reporting ----------------------------------------------------------------------------------
    def role_reply_data(self, seat: int) -> dict[str, Any]:
        """Data of the role PM for ``seat`` (role, teammates, commands)."""
        raise NotImplementedError

    def status_data(self, seat: int) -> dict[str, Any]:
        """The ``status`` reply's data for ``seat``: the phase kind and round, whether he is alive,
        ``actions`` — each action open to him now with what he has recorded for it and whether he still
        owes it, derived from :attr:`actions` (:func:`forumbot.engine.actions.status_entries`) — and the
        ruleset's own facts (:meth:`status_extras`: his role, teammates, potions...). ``penalty``: the
        reason of the organiser's penalty that put him out ("lurking", "flooding"), else None."""
        g = self.game
        return {"phase": g.phase.kind, "round": g.phase.round, "alive": g.player(seat).alive,
                "penalty": g.penalties.get(seat),
                "actions": _actions.status_entries(self, seat), **self.status_extras(seat)}

    def status_extras(self, seat: int) -> dict[str, Any]:
        """The ruleset's own facts in ``seat``'s ``status`` reply besides his actions (his role, his
        teammates, a count of warnings...): only what the rulebook lets him know."""
        return {}

    def help_data(self, seat: int | None) -> dict[str, Any]:
        """Which commands ``seat`` may use now (None: someone not in the game). Default, from
        :attr:`actions`: the phase kind and round, and ``verbs``, the help entries of the actions open to
        ``seat`` now (:func:`forumbot.engine.actions.help_entries`) then ``status`` and ``help``."""
        if not self.actions:
            return {}
        g = self.game
        return {"phase": g.phase.kind, "round": g.phase.round,
                "verbs": _actions.help_entries(self, seat) + ["status", "help"]}

    def won(self, seat: int) -> bool:
        """Did ``seat`` win the finished game? Default: the faction of the player's (last) role is the
        winner, or one of the winners when ``game.winner`` is a list. Rulesets where someone wins
        otherwise (a piper, lovers, a surviving criminal) override it."""
        g = self.game
        if not g.finished or g.winner is None:
            return False
        role = g.player(seat).role
        faction = type(self).roles.get(role, role)
        return faction in g.winner if isinstance(g.winner, (list, tuple)) else faction == g.winner

    def pending(self) -> list[int]:
        """Seats that still have to act in the current phase (for reminders and the organiser), in seat
        order. Default, from :attr:`actions`: :func:`forumbot.engine.actions.pending`."""
        return _actions.pending(self)

    def summary(self) -> dict[str, Any]:
        """Plain data for the replay's JSON: at least ``winner`` and per-seat ``scores`` and
        ``ranks`` (dicts seat -> value) where the ruleset scores."""
        return {}


def register(cls: type[Ruleset]) -> type[Ruleset]:
    """Class decorator: make ``cls`` available under ``cls.id``."""
    _REGISTRY[cls.id] = cls
    return cls


def get_ruleset(ruleset_id: str) -> type[Ruleset]:
    """The ruleset class for ``ruleset_id``; raises KeyError naming the ones that exist. The built-in rulesets
    register themselves the first time the registry is read (:mod:`forumbot.engine.builtin_rulesets`)."""
    if ruleset_id not in _REGISTRY:
        builtin_rulesets.ensure_loaded()
    try:
        return _REGISTRY[ruleset_id]
    except KeyError:
        raise KeyError(f"unknown ruleset {ruleset_id!r}; known: {', '.join(sorted(_REGISTRY))}") from None


def ruleset_ids() -> list[str]:
    """Ids of every registered ruleset."""
    builtin_rulesets.ensure_loaded()
    return sorted(_REGISTRY)
