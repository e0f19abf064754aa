"""Actions as data: each ruleset declares once who may do what, when, to whom (issue #11).

A ruleset lists its player actions in ``Ruleset.actions`` (a tuple of :class:`Action`). From that one
declaration the engine

- checks every player command and refuses it through :meth:`Ruleset.refuse
  <forumbot.engine.ruleset.Ruleset.refuse>` (the uniform ``rejected`` event and reply) before the ruleset's
  handler runs (:func:`act`);
- answers ``help`` (:func:`help_entries`: the entries of the actions open to the player now) and the
  actions part of ``status`` (:func:`status_entries`: each of them, what he has recorded for it, whether he
  still owes it);
- lists who still has to act (:func:`pending`: reminders, ``forumbot status``);
- offers the simulator the legal actions (:func:`open_actions`, :func:`legal_targets`).

The checks run in one order, the same for every ruleset (:data:`ORDER`): the channel (a vote cast in the
thread is refused by PM while it is open), then the *gate* — the actor's role, whether he is alive, a
predicate on the actor (``who``: "he is the killer", "his successor is due"), the phase kind and a
predicate on the phase (``when``: "a clue poll is open") —, then the ``targets`` rules in the order
declared (how many, alive, other than himself, distinct, the ruleset's own per-target rules), then the
second-order rule (``again``), then the ruleset's own checks (``checks``, e.g. 夜访吸血鬼's conversion rules).
An action may declare another gate order (:attr:`Action.order`) where its rulebook's judge checks in another
order; the ruleset modules say which do and why.

Each check returns None (passes) or a :class:`Refusal` (a ``reason`` id its ``<ruleset>/rejected``
template explains, and the data the reply shows). Nothing here changes the game's state: a check only
reads it, so the simulator may ask "would this be accepted?" freely.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from forumbot.language.types import Command
from forumbot.language.vocabulary import ARITY, TARGETS

if TYPE_CHECKING:
    from forumbot.engine.ruleset import Ruleset
    from forumbot.engine.types import Step

Channel = Literal["pm", "thread"]
#: the steps of the gate, in the engine's order (an :class:`Action` may declare another order)
GateStep = Literal["role", "alive", "who", "phase", "extra"]
ORDER: tuple[GateStep, ...] = ("role", "alive", "who", "phase", "extra")


@dataclass(frozen=True)
class Refusal:
    """Why a command is refused: ``reason`` (snake_case id of the ``<ruleset>/rejected`` template) and
    the ``data`` its reply shows besides the verb, reason, phase and round."""

    reason: str
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Standing:
    """What a player has recorded for an action in the current phase (his standing order or ballot):
    the ``targets`` he named (seats, in his order; empty: an abstention, a ballot for nobody), or a
    ``number`` (a clue poll's option), and a ``note`` the ``status`` template words ("void": a
    self-vote; "withdrawn")."""

    targets: tuple[int, ...] = ()
    number: int | None = None
    note: str | None = None


#: a check of a whole command: (ruleset, seat, command) -> a refusal, or None when it passes
Check = Callable[[Any, int, Command], "Refusal | None"]
#: what carries out an accepted command: (ruleset, seat, command, out) -> None
Handler = Callable[[Any, int, Command, "Step"], None]
#: a predicate on the actor: (ruleset, seat) -> bool
SeatTest = Callable[[Any, int], bool]
#: a number that depends on the actor: (ruleset, seat) -> int
SeatCount = Callable[[Any, int], int]
#: what the actor has recorded for an action now: (ruleset, seat) -> a standing, or None (nothing yet)
StandingOf = Callable[[Any, int], "Standing | None"]


@dataclass(frozen=True)
class Count:
    """How many targets: at least ``least``, at most ``most`` (None: no bound; a function of
    (ruleset, seat) where it depends on the state: a vampire converting tonight may suck 3). Refused as
    ``reason`` with ``{"count": n}``, or the data ``data(ruleset, seat, command)`` gives."""

    least: int = 1
    most: int | Callable[[Any, int], int] | None = 1
    reason: str = "one_target"
    data: Check | Callable[[Any, int, Command], dict[str, Any]] | None = None

    def bound(self, rs: Any, seat: int) -> int | None:
        """The most targets ``seat`` may name now (None: no bound)."""
        return self.most(rs, seat) if callable(self.most) else self.most

    def __call__(self, rs: Any, seat: int, cmd: Command) -> Refusal | None:
        n, most = len(cmd.targets), self.bound(rs, seat)
        if n >= self.least and (most is None or n <= most):
            return None
        return Refusal(self.reason, self.data(rs, seat, cmd) if self.data else {"count": n})  # type: ignore[arg-type]


@dataclass(frozen=True)
class Each:
    """Every target must pass ``test(ruleset, seat, target)``; else refused as ``reason`` with the data
    ``data(ruleset, seat, bad targets in order)`` gives (default none). The simulator offers only the
    seats that pass (:func:`legal_targets`)."""

    test: Callable[[Any, int, int], bool]
    reason: str
    data: Callable[[Any, int, list[int]], dict[str, Any]] | None = None

    def __call__(self, rs: Any, seat: int, cmd: Command) -> Refusal | None:
        bad = [t for t in cmd.targets if not self.test(rs, seat, t)]
        if not bad:
            return None
        return Refusal(self.reason, self.data(rs, seat, bad) if self.data else {})


@dataclass(frozen=True)
class Distinct:
    """No target named twice; else refused as ``reason`` with ``data(ruleset, seat, command)``."""

    reason: str = "repeat_target"
    data: Callable[[Any, int, Command], dict[str, Any]] | None = None

    def __call__(self, rs: Any, seat: int, cmd: Command) -> Refusal | None:
        if len(set(cmd.targets)) == len(cmd.targets):
            return None
        return Refusal(self.reason, self.data(rs, seat, cmd) if self.data else {})


@dataclass(frozen=True)
class Living(Each):
    """Every target is alive (:func:`living`); :func:`legal_targets` asks the living seats of the state once."""


def _alive(rs: Any, seat: int, t: int) -> bool:
    return bool(rs.game.player(t).alive)


def living(reason: str = "dead_target", shape: Literal["target", "targets"] = "target") -> Each:
    """Every target is alive. The reply names the first dead target (``target``) or all of them
    (``targets``: a list), as the ruleset's ``rejected`` template reads it."""
    if shape == "target":
        return Living(_alive, reason, lambda rs, seat, bad: {"target": rs.game.name(bad[0])})
    return Living(_alive, reason, lambda rs, seat, bad: {"targets": rs.game.names(bad)})


def named(reason: str, test: Callable[[Any, int, int], bool], **extra: Callable[[Any], Any]) -> Each:
    """Every target passes ``test``; the refusal names the first that does not (``target``) and gives
    each of ``extra`` (a function of the ruleset: the candidates, a limit)."""
    return Each(test, reason, lambda rs, seat, bad: {"target": rs.game.name(bad[0]),
                                                     **{k: f(rs) for k, f in extra.items()}})


def not_self(reason: str) -> Each:
    """The actor does not name himself."""
    return Each(lambda rs, seat, t: t != seat, reason)


def _not_your_role(rs: Any, seat: int, cmd: Command) -> Refusal:
    return Refusal("not_your_role", {"role": rs.game.player(seat).role})


@dataclass(frozen=True)
class Action:
    """One player action of a ruleset, declared once.

    - ``key``: the help entry it is shown as (and the simulator's option key); ``help`` may instead give
      it from the state (``help(ruleset, seat)``; None hides it: an action the help does not list).
    - ``verbs``: the command verbs (as :mod:`forumbot.language` reads them) it takes; the first is the
      one the simulator sends. ``form(command)``: which commands of those verbs it takes (``取消转化``
      is ``convert`` with number 0).
    - ``handler``: what carries it out once every check has passed: the name of a ruleset method
      ``(seat, command, out)``, or a function ``(ruleset, seat, command, out)`` declared next to the
      action (a handler that only records the order, its event and the confirmation reply).
    - who: ``roles`` (None: every role; refused as ``role_reason(ruleset, seat, command)``, default
      ``not_your_role`` with the role), ``alive`` (True: the living only, refused ``you_are_out``;
      None: the dead too), ``who(ruleset, seat)`` (refused as ``who_reason`` with
      ``who_data``).
    - when: ``phases`` (phase kinds; None: any), ``when(ruleset)`` (a state of the phase: "a clue poll
      is open"); both refused as ``phase_reason`` with ``phase_data``.
    - ``channel``: "pm" or "thread" (or a function of the ruleset: a season parameter); a PM command
      for an action cast in the thread while it is open is refused as ``thread_reason``.
    - ``targets``: the target rules in order (:class:`Count`, :class:`Each`, :class:`Distinct`, or any
      :data:`Check`).
    - ``again``: what a second order in the phase does: "replaces" (the last stands: the handler
      says what it replaced) or "refused" (the first stands: ``already(ruleset, seat, command)`` gives the
      refusal). Whether there is a first order depends on the actor and the state, never on the command's
      targets (the command only fills the reply): :func:`legal_targets` asks once, not once a target.
    - ``checks``: the ruleset's own checks, after all the above.
    - ``standing(ruleset, seat)``: what the player has recorded for it in this phase (his order, ballot,
      choice), or None when nothing yet — the ``status`` reply shows it (:func:`status_entries`). Every
      action with a help entry declares it (the conformance test checks).
    - ``owes(ruleset, seat)``: for an action the player is reminded of, whether he (open to it now)
      has not yet acted; None: nobody is reminded of it.
    - ``gates``: the ruleset's own checks that belong to the gate (they decide whether the action is
      open to the player at all: shown in his help, reminded), at the ``extra`` step of :attr:`order`.
    - ``order``: the gate's order (default :data:`ORDER`).
    - ``claims``: when several actions take a verb, what makes a command this action's: "gate" (its
      whole gate passes: the night victim's choice) or "phase" (the phase is this action's: a vote in
      a vote phase, whoever sends it); ``primary``: the action whose gate says why not when none claims
      the command (default: the first declared).
    - for the simulator (:func:`legal_targets`): ``offers_self`` (whether a player is offered himself
      as a target: false where the rules allow it but no player means it, a void ballot), ``offer_most``
      (the most names offered where no :class:`Count` bounds them: a ballot bounded by the voter's
      votes), ``numbers(ruleset)`` (the numbers the command takes: a clue poll's options), ``option_key``
      (the option's key when it is not the help entry: one help line for two verbs).
    """

    key: str
    verbs: tuple[str, ...]
    handler: str | Handler
    phases: tuple[str, ...] | None = None
    roles: tuple[str, ...] | None = None
    role_reason: Check = _not_your_role
    alive: Literal[True] | None = True
    who: SeatTest | None = None
    who_reason: str = "not_your_role"
    who_data: dict[str, Any] = field(default_factory=dict)
    when: Callable[[Any], bool] | None = None
    phase_reason: str = "wrong_phase"
    phase_data: dict[str, Any] = field(default_factory=dict)
    channel: Channel | Callable[[Any], Channel] = "pm"
    thread_reason: str = "vote_in_thread"
    form: Callable[[Command], bool] | None = None
    targets: tuple[Check, ...] = ()
    again: Literal["replaces", "refused"] = "replaces"
    already: Check | None = None
    checks: tuple[Check, ...] = ()
    help: Callable[[Any, int], str | None] | None = None
    standing: StandingOf | None = None
    owes: SeatTest | None = None
    gates: tuple[Check, ...] = ()
    order: tuple[GateStep, ...] = ORDER
    claims: Literal["gate", "phase"] = "gate"
    primary: bool = False
    option_key: str | None = None
    offers_self: bool = False
    offer_most: SeatCount | None = None
    numbers: Callable[[Any], tuple[int, ...]] | None = None

    def __post_init__(self) -> None:
        # what the boolean gate (:meth:`is_open`) evaluates: the steps of :attr:`order` that can refuse anyone
        # (an action without a role list, a phase list, a ``who`` or ``gates`` skips those steps), and the
        # command it asks the ``gates`` about (one, not one a call)
        active = {"role": self.roles is not None, "alive": bool(self.alive), "who": self.who is not None,
                  "phase": self.phases is not None or self.when is not None, "extra": bool(self.gates)}
        object.__setattr__(self, "_open_steps", tuple(s for s in self.order if active[s]))
        # what is left to ask about each seat once the role and the phase are known to pass (:meth:`Now.for_role`)
        object.__setattr__(self, "_seat_steps", tuple(s for s in self._open_steps  # type: ignore[attr-defined]
                                                      if s not in ("role", "phase")))
        object.__setattr__(self, "_probe", Command(self.verbs[0]))

    # --- reading the declaration ---------------------------------------------------------------------
    def channel_now(self, rs: Any) -> Channel:
        """Where this action is sent in this season."""
        return self.channel(rs) if callable(self.channel) else self.channel

    def takes(self, cmd: Command) -> bool:
        """Whether ``cmd`` is a command of this action (its verb and form)."""
        return cmd.verb in self.verbs and (self.form is None or self.form(cmd))

    def in_phase(self, rs: Any) -> bool:
        """Whether the current phase is one this action is taken in."""
        return (self.phases is None or rs.game.phase.kind in self.phases) and (self.when is None or self.when(rs))

    def gate_step(self, step: GateStep, rs: Any, seat: int, cmd: Command) -> Refusal | None:
        """One step of the gate for ``seat``."""
        g = rs.game
        if step == "role":
            if self.roles is not None and g.player(seat).role not in self.roles:
                return self.role_reason(rs, seat, cmd)
        elif step == "alive":
            if self.alive and not g.player(seat).alive:
                return Refusal("you_are_out")
        elif step == "who":
            if self.who is not None and not self.who(rs, seat):
                return Refusal(self.who_reason, dict(self.who_data))
        elif step == "phase":
            if not self.in_phase(rs):
                return Refusal(self.phase_reason, dict(self.phase_data))
        else:
            for check in self.gates:
                refusal = check(rs, seat, cmd)
                if refusal is not None:
                    return refusal
        return None

    def claim(self, rs: Any, seat: int, cmd: Command, now: Now | None = None) -> bool:
        """Whether this action claims ``cmd`` among the actions taking its verb (:attr:`claims`)."""
        if self.claims == "phase":
            return now.in_phase(self) if now is not None else self.in_phase(rs)
        return self._opens(rs, seat, now, self._open_steps, cmd)  # type: ignore[attr-defined]

    def gate(self, rs: Any, seat: int, cmd: Command) -> Refusal | None:
        """The first refusal of the gate (role, alive, who, phase in :attr:`order`), or None."""
        for step in self._open_steps:  # type: ignore[attr-defined]  # the steps that can refuse anyone
            refusal = self.gate_step(step, rs, seat, cmd)
            if refusal is not None:
                return refusal
        return None

    def rules(self, rs: Any, seat: int, cmd: Command) -> Refusal | None:
        """The first refusal of the target rules, the second-order rule and the ruleset's own checks."""
        for check in self.targets:
            refusal = check(rs, seat, cmd)
            if refusal is not None:
                return refusal
        return self.after_targets(rs, seat, cmd)

    def after_targets(self, rs: Any, seat: int, cmd: Command) -> Refusal | None:
        """The first refusal of the second-order rule and the ruleset's own checks."""
        if self.again == "refused" and self.already is not None:
            refusal = self.already(rs, seat, cmd)
            if refusal is not None:
                return refusal
        for check in self.checks:
            refusal = check(rs, seat, cmd)
            if refusal is not None:
                return refusal
        return None

    def is_open(self, rs: Any, seat: int, now: Now | None = None) -> bool:
        """Whether ``seat`` may take this action now (its gate passes), whatever he names: :meth:`gate` is None,
        without building the refusals (the checks are pure, so their order does not change the answer).
        ``now``: the seat-independent answers of this state, shared between the seats (:class:`Now`)."""
        return self._opens(rs, seat, now, self._open_steps, self._probe)  # type: ignore[attr-defined]

    def _opens(self, rs: Any, seat: int, now: Now | None, steps: tuple[GateStep, ...], cmd: Command,
               player: Any = None) -> bool:
        for step in steps:
            if step == "role":
                if player is None:
                    player = rs.game.player(seat)
                if player.role not in self.roles:  # type: ignore[operator]
                    return False
            elif step == "alive":
                if player is None:
                    player = rs.game.player(seat)
                if not player.alive:
                    return False
            elif step == "who":
                if not self.who(rs, seat):  # type: ignore[misc]
                    return False
            elif step == "phase":
                if not (now.in_phase(self) if now is not None else self.in_phase(rs)):
                    return False
            else:
                for check in self.gates:
                    if check(rs, seat, cmd) is not None:
                        return False
        return True

    def entry(self, rs: Any, seat: int) -> str | None:
        """The help entry shown for this action to ``seat`` (None: not shown)."""
        return self.help(rs, seat) if self.help is not None else self.key


class Now:
    """What the declared actions of ``rs`` answer at one state of the game whoever asks: whether each action's
    phase is now (:meth:`Action.in_phase`), where it is sent (:meth:`Action.channel_now`), which actions a role may
    take at all; each worked out on first use and kept. Shared by the questions about every seat at that state
    (who may act, on whom: :func:`open_actions`, :func:`pending`, the simulator's legal actions), so they are asked
    once per input, not once per seat and action. Valid only while the state does not change: make a new one
    after each input."""

    __slots__ = ("_channel", "_living", "_phase", "_roles", "rs")

    def __init__(self, rs: Any) -> None:
        self.rs = rs
        self._phase: dict[int, bool] = {}
        self._channel: dict[int, Channel] = {}
        self._living: frozenset[int] | None = None
        self._roles: dict[str, tuple[Action, ...]] = {}

    @property
    def living(self) -> frozenset[int]:
        """The living seats."""
        if self._living is None:
            self._living = frozenset(p.seat for p in self.rs.game.players if p.alive)
        return self._living

    def in_phase(self, action: Action) -> bool:
        """:meth:`Action.in_phase` of ``action`` at this state."""
        got = self._phase.get(id(action))
        if got is None:
            got = self._phase[id(action)] = action.in_phase(self.rs)
        return got

    def channel(self, action: Action) -> Channel:
        """:meth:`Action.channel_now` of ``action`` in this season."""
        if not callable(action.channel):
            return action.channel
        got = self._channel.get(id(action))
        if got is None:
            got = self._channel[id(action)] = action.channel_now(self.rs)
        return got

    def for_role(self, role: str) -> tuple[Action, ...]:
        """The declared actions (in declaration order) whose role list lets ``role`` take them and whose phase is
        now: what is left of their gates to ask is about the seat (:attr:`Action._seat_steps`)."""
        got = self._roles.get(role)
        if got is None:
            # the role and the phase kind pass by the declarations alone; a ``when`` is asked of this state
            kind = self.rs.game.phase.kind
            by_kind = _indexed(self.rs.actions, "role+kind", (role, kind))
            whens = _indexed(self.rs.actions, "role+kind+when", (role, kind))  # those of them with a ``when``
            got = self._roles[role] = by_kind if not whens else tuple(
                a for a in by_kind if a.when is None or self.in_phase(a))
        return got


#: id of an actions tuple -> (the tuple, ("role", role) or ("verb", verb) -> its actions open to that role or taking
#: that verb, in declaration order): the declarations never change, so each is worked out once
_INDEX: dict[int, tuple[tuple[Action, ...], dict[tuple[str, Any], tuple[Action, ...]]]] = {}


def _indexed(actions: tuple[Action, ...], kind: str, value: Any) -> tuple[Action, ...]:
    index = _INDEX.get(id(actions))
    if index is None or index[0] is not actions:
        index = _INDEX[id(actions)] = (actions, {})
    got = index[1].get((kind, value))
    if got is None:
        if kind == "role":
            got = tuple(a for a in actions if a.roles is None or value in a.roles)
        elif kind == "role+kind":  # (role, phase kind)
            got = tuple(a for a in _indexed(actions, "role", value[0]) if a.phases is None or value[1] in a.phases)
        elif kind == "role+kind+when":  # those of (role, phase kind) that have a ``when``
            got = tuple(a for a in _indexed(actions, "role+kind", value) if a.when is not None)
        else:
            got = tuple(a for a in actions if value in a.verbs)
        index[1][(kind, value)] = got
    return got


def _for_verb(actions: tuple[Action, ...], verb: str) -> tuple[Action, ...]:
    """The declared actions (in declaration order) that take ``verb`` (in some form)."""
    return _indexed(actions, "verb", verb)


def _for_role(actions: tuple[Action, ...], role: str) -> tuple[Action, ...]:
    """The declared actions (in declaration order) whose role list lets ``role`` take them."""
    return _indexed(actions, "role", role)


# --- the engine's one check ----------------------------------------------------------------------------
def judge(rs: Ruleset, seat: int, cmd: Command, channel: Channel = "pm") -> tuple[Action | None, Refusal | None]:
    """The action ``cmd`` from ``seat`` (sent by ``channel``) is taken as, and the refusal, if any.

    Order: no action takes the verb -> the ruleset's :meth:`~forumbot.engine.ruleset.Ruleset.unknown_verb`
    (``not_in_game``); sent by PM while an action taking it is cast in the thread in this phase -> that
    action's ``thread_reason``; else the first action (in declaration order) on ``channel`` that claims the
    command (:meth:`Action.claim`) is judged, or, when none does, the primary action taking the verb (for
    a thread post, among those cast in the thread when there are any), whose gate then says why not.
    Pure: reads the state, changes nothing."""
    actions = [a for a in _for_verb(rs.actions, cmd.verb) if a.form is None or a.form(cmd)]
    if not actions:
        return None, rs.unknown_verb(seat, cmd)
    now = Now(rs)
    if channel == "pm":
        for a in actions:
            if now.channel(a) == "thread" and now.in_phase(a):
                return a, Refusal(a.thread_reason)
    chosen = None
    for a in actions:
        if now.channel(a) == channel and a.claim(rs, seat, cmd, now):
            if a.claims == "gate":
                return a, a.rules(rs, seat, cmd)  # its claim was its whole gate passing
            chosen = a
            break
    if chosen is None:
        # a thread post falls back on a thread action (never on one sent by PM) where the verb has one
        here = [a for a in actions if now.channel(a) == "thread"] or actions if channel == "thread" else actions
        chosen = next((a for a in here if a.primary), here[0])
    return chosen, chosen.gate(rs, seat, cmd) or chosen.rules(rs, seat, cmd)


def act(rs: Ruleset, seat: int, cmd: Command, out: Step, channel: Channel = "pm") -> None:
    """Check ``cmd`` from ``seat`` against the ruleset's declared actions (:func:`judge`): refuse it
    (:meth:`Ruleset.refuse`) or call the action's handler. The one place a player command is checked."""
    action, refusal = judge(rs, seat, cmd, channel)
    if refusal is not None:
        rs.refuse(seat, cmd, refusal.reason, out, **refusal.data)
        return
    assert action is not None
    if callable(action.handler):
        action.handler(rs, seat, cmd, out)
    else:
        getattr(rs, action.handler)(seat, cmd, out)


def open_actions(rs: Ruleset, seat: int, now: Now | None = None) -> list[Action]:
    """The actions open to ``seat`` now, in declaration order. ``now``: the answers of this state shared between
    the seats (:class:`Now`; default: a new one)."""
    if now is None:
        now = Now(rs)
    # the role is asked first: the gate's steps are pure, so whether it passes does not depend on their order
    player = rs.game.player(seat)
    return [a for a in now.for_role(player.role)
            if a._opens(rs, seat, now, a._seat_steps, a._probe, player)]  # type: ignore[attr-defined]


def help_entries(rs: Ruleset, seat: int | None) -> list[str]:
    """The help entries of the actions open to ``seat`` now (None: not a player), in declaration order."""
    if seat is None:
        return []
    entries: list[str] = []
    for a in open_actions(rs, seat):
        entry = a.entry(rs, seat)
        if entry is not None and entry not in entries:
            entries.append(entry)
    return entries


def status_entries(rs: Ruleset, seat: int) -> list[dict[str, Any]]:
    """The actions part of the ``status`` reply: for each help entry of the actions open to ``seat`` now
    (as :func:`help_entries`, in that order), a dict ``{"action": entry, "recorded": bool, "targets":
    [names], "number": int | None, "note": str | None, "owed": bool}`` — what he has recorded for it
    (:attr:`Action.standing`; where several actions share an entry, the first that has one), and whether
    he is reminded of it and has not acted yet (:attr:`Action.owes`). Only his own orders (or his team's,
    where the rulebook's order is the team's); nothing that is closed to him."""
    g = rs.game
    entries: dict[str, dict[str, Any]] = {}
    for a in open_actions(rs, seat):
        key = a.entry(rs, seat)
        if key is None:
            continue
        standing = a.standing(rs, seat) if a.standing is not None else None
        owed = a.owes is not None and a.owes(rs, seat)
        entry = entries.setdefault(key, {"action": key, "recorded": False, "targets": [], "number": None,
                                         "note": None, "owed": False})
        entry["owed"] = entry["owed"] or owed
        if standing is not None and not entry["recorded"]:
            entry.update(recorded=True, targets=g.names(standing.targets), number=standing.number,
                         note=standing.note)
    return list(entries.values())


def pending(rs: Ruleset) -> list[int]:
    """Seats (in seat order) open to an action they are reminded of and have not taken yet."""
    now = Now(rs)
    due = {p.seat for p in rs.game.players for a in rs.actions
           if a.owes is not None and a.is_open(rs, p.seat, now) and a.owes(rs, p.seat)}
    return sorted(due)


def legal_targets(rs: Ruleset, seat: int, action: Action, seats: Sequence[int],
                  now: Now | None = None) -> tuple[list[int], int, int]:
    """For the simulator: the seats among ``seats`` that ``seat`` may be offered in ``action`` now (each
    passes every rule but the counts when named alone; himself only where :attr:`Action.offers_self`),
    and the least and most he may name (0, 0: an action without targets). ``now``: the answers of this
    state shared between the seats (:class:`Now`)."""
    least, most = 0, None
    for rule in action.targets:
        if isinstance(rule, Count):
            least = max(least, rule.least)
            bound = rule.bound(rs, seat)
            most = bound if most is None else (most if bound is None else min(most, bound))
    if most is None:
        most = action.offer_most(rs, seat) if action.offer_most is not None else (len(seats) if least else 0)
    if not most:
        return [], 0, 0
    verb = action.verbs[0]
    ok = [t for t in seats if t != seat] if not action.offers_self else list(seats)
    # each rule that can refuse one name alone filters the names in turn (the checks are pure: the order in which
    # they are asked does not change the answer); a command is built only for a rule on the whole command
    for rule in action.targets:
        if not ok:
            break
        if isinstance(rule, Living):
            alive = (now or Now(rs)).living
            ok = [t for t in ok if t in alive]
        elif isinstance(rule, Each):
            test = rule.test
            ok = [t for t in ok if test(rs, seat, t)]
        elif not isinstance(rule, (Count, Distinct)):  # one name alone is never a repeat
            ok = [t for t in ok if rule(rs, seat, Command(verb, (t,))) is None]
    # whether a first order stands does not depend on the target (:attr:`Action.already`): asked once
    if (ok and action.again == "refused" and action.already is not None
            and action.already(rs, seat, Command(verb, (ok[0],))) is not None):
        return [], least, most
    for check in action.checks:
        if not ok:
            break
        ok = [t for t in ok if check(rs, seat, Command(verb, (t,))) is None]
    return ok, least, most


def example(rs: Ruleset, seat: int | None) -> dict[str, Any] | None:
    """A command ``seat`` can send by private message now, for a reply that shows one (a message with no
    command in it): the first action of his help (:func:`help_entries`) that is sent by PM, as ``{"verb":
    verb, "names": whether it takes names, "number": an option it takes (not 0), or None}``; None
    when no such action is open to him (then only ``status`` and ``help`` are)."""
    if seat is None:
        return None
    for a in open_actions(rs, seat):
        if a.entry(rs, seat) is None or a.channel_now(rs) != "pm":
            continue
        verb = a.verbs[0]
        numbers = [n for n in (a.numbers(rs) if a.numbers is not None else ()) if n]
        return {"verb": verb, "names": ARITY.get(verb) == TARGETS, "number": numbers[0] if numbers else None}
    return None
