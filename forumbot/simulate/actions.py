"""What a player may do now, as data: :class:`Option` (a verb with the seats it may name) and
:class:`Action` (one command, ready to be sent as a player would type it).

:func:`legal_actions` comes from the ruleset's declared actions (``Ruleset.actions``,
:mod:`forumbot.engine.actions`) where it has them: the actions open to the player now, each with the seats
the engine's own checks accept (:func:`forumbot.engine.actions.legal_targets`), so the options are what the
judge accepts, by the same code. For a ruleset that declares none it is built on what the ruleset tells its
players: ``help_data(seat)["verbs"]``, each help entry mapped to a command verb, a channel and a target rule
(:data:`HELP_ENTRIES`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from forumbot.engine.actions import Now, legal_targets, open_actions
from forumbot.language.types import Command

if TYPE_CHECKING:
    from forumbot.engine.game import Game

Channel = Literal["pm", "thread"]

#: how a verb is written in an English command (the parser reads these words; see
#: :mod:`forumbot.language.vocabulary`)
_WORDS = {"nolynch": "no lynch", "cancel_weather": "cancel weather", "stand_in": "stand in for"}


@dataclass(frozen=True)
class Action:
    """One command by one player: ``verb`` (a :data:`forumbot.language.types.PLAYER_VERBS` id),
    ``targets`` (seats, in order), ``number`` (a clue number; 0 = none / cancel), ``channel`` where it
    is sent ("pm" to the judge or "thread"), ``key`` the help entry it answers (see :class:`Option`)."""

    verb: str
    targets: tuple[int, ...] = ()
    number: int | None = None
    channel: Channel = "pm"
    key: str = ""

    def text(self, game: Game) -> str:
        """The command as a player types it in English (``vote p3``, ``suck p3, p4``, ``clue 2``,
        ``no clue``); the game's parser reads it back as this action (tests check it by replay)."""
        if self.verb == "clue":
            return "no clue" if not self.number else f"clue {self.number}"
        if self.verb == "convert" and self.number == 0:
            return "cancel convert"
        word = _WORDS.get(self.verb, self.verb)
        if not self.targets:
            return word
        return f"{word} " + ", ".join(game.name(t) for t in self.targets)


@dataclass(frozen=True)
class Option:
    """One thing a player may do now.

    ``key``: the ruleset's help entry ("suck_criminal", "vote_thread", "crime_vote", "choose"...),
    which tells policies what the verb means here. ``verb``/``channel``: the command it is sent as.
    ``targets``: the seats it may name; ``least``..``most``: how many (0..0: a verb without a name).
    ``numbers``: the numbers it takes (a clue number), else empty.
    """

    key: str
    verb: str
    channel: Channel = "pm"
    targets: tuple[int, ...] = ()
    least: int = 0
    most: int = 0
    numbers: tuple[int, ...] = ()

    def action(self, targets: tuple[int, ...] = (), number: int | None = None) -> Action:
        """This option with the given targets / number."""
        return Action(self.verb, tuple(targets), number, self.channel, self.key)

    def sample(self, rng: random.Random) -> Action | None:
        """A uniformly random filling of this option (a random count of distinct targets between
        ``least`` and ``most``, a random number); None when no filling is possible."""
        if self.most == 0:
            number = rng.choice(self.numbers) if self.numbers else None
            return self.action((), number)
        most = min(self.most, len(self.targets))
        if most < max(self.least, 1):
            return None
        k = rng.randint(max(self.least, 1), most)
        return self.action(tuple(rng.sample(self.targets, k)))


@dataclass(frozen=True)
class _Entry:
    verb: str
    channel: Channel = "pm"
    least: int = 1
    most: int = 1
    self_ok: bool = False


#: help entry -> command. Verbs without a name have most=0.
HELP_ENTRIES: dict[str, _Entry] = {
    "vote": _Entry("vote"), "vote_thread": _Entry("vote", "thread"), "kill": _Entry("kill"),
    "check": _Entry("check"), "ask": _Entry("ask"), "save": _Entry("save", self_ok=True),
    "guard": _Entry("guard", self_ok=True), "poison": _Entry("poison"), "shoot": _Entry("shoot"),
    "successor": _Entry("successor"), "disguise": _Entry("disguise"), "take": _Entry("take"),
    "exorcise": _Entry("exorcise"), "choose": _Entry("kill"), "convert": _Entry("convert"),
    "suck": _Entry("suck", most=2), "suck_criminal": _Entry("suck"),
    "crime_vote": _Entry("vote", most=2), "crime_vote_criminal": _Entry("vote"),
    "link": _Entry("link", least=2, most=2, self_ok=True), "charm": _Entry("charm", most=2),
    "dream": _Entry("dream", most=2), "stand_in": _Entry("stand_in"),
    "clockwise": _Entry("clockwise", self_ok=True), "anticlockwise": _Entry("anticlockwise", self_ok=True),
    "selfkill": _Entry("selfkill", least=0, most=0), "abstain": _Entry("abstain", least=0, most=0),
    "withdraw": _Entry("withdraw", least=0, most=0), "cancel_weather": _Entry("cancel_weather", least=0, most=0),
    "foresee": _Entry("foresee", least=0, most=0), "clue": _Entry("clue", least=0, most=0),
}

#: help entries that are not actions (``order`` is split into its two directions)
_NOT_ACTIONS = frozenset({"status", "help"})

def _generic(game: Game, seat: int, help_data: dict[str, Any]) -> list[Option]:
    keys_now = [k for k in help_data.get("verbs", ()) if k not in _NOT_ACTIONS]
    if not keys_now:
        return []
    everyone = tuple(p.seat for p in game.players if p.alive)
    others = tuple(s for s in everyone if s != seat)
    options: list[Option] = []
    for key in keys_now:
        keys = ("clockwise", "anticlockwise") if key == "order" else (key,)
        for k in keys:
            e = HELP_ENTRIES.get(k)
            if e is None:
                raise KeyError(f"help entry {k!r} of {game.ruleset.id} has no command in HELP_ENTRIES")
            numbers: tuple[int, ...] = ()
            if k == "clue":
                numbers = (0, *help_data.get("clue_options", ()))
            options.append(Option(k, e.verb, e.channel, everyone if e.self_ok else others if e.most else (),
                                  e.least, e.most, numbers))
    return options


def legal_actions(game: Game, seat: int, now: Now | None = None) -> list[Option]:
    """What the player at ``seat`` may do now in ``game``, as :class:`Option` values keyed by help entry:
    from the ruleset's declared actions (else its help entries). Empty when the player has nothing to do.
    The ruleset still checks every command (a refused one is answered and changes nothing). ``now``: the
    answers of this state shared by every seat asked about it (:class:`forumbot.engine.actions.Now`; a new
    one after each input)."""
    if game.ruleset.actions:
        return _declared(game, seat, now)
    options = _generic(game, seat, game.ruleset.help_data(seat))
    return [o for o in options if o.most == 0 or len(o.targets) >= max(o.least, 1)]


def _declared(game: Game, seat: int, now: Now | None) -> list[Option]:
    """The options of a ruleset that declares its actions: every action open to ``seat`` with a help
    entry, the targets its checks accept."""
    rs = game.ruleset
    if now is None:
        now = Now(rs)
    opened = open_actions(rs, seat, now)
    if not opened:
        return []
    seats = range(1, len(game.players) + 1)
    options = []
    for a in opened:
        key = a.entry(rs, seat)
        if key is None:
            continue
        targets, least, most = legal_targets(rs, seat, a, seats, now)
        numbers = a.numbers(rs) if a.numbers is not None else ()
        if most == 0 and a.rules(rs, seat, Command(a.verbs[0], number=numbers[0] if numbers else None)) is not None:
            continue  # a command without a name the ruleset's own checks refuse now (a second self-kill)
        option = Option(a.option_key or key, a.verbs[0], now.channel(a), tuple(targets), least, most, numbers)
        if most == 0 or len(targets) >= max(least, 1):
            options.append(option)
    return options
