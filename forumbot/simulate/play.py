"""Playing one complete game through the bot's engine.

:func:`play_game` sets up a :class:`~forumbot.engine.game.Game` (players ``p1``..``pN``, the draw from
the game's seed), then in every phase asks each seat's policy for actions among
:func:`~forumbot.simulate.actions.legal_actions`, sends each as the text a player would type
(``Game.apply(Message(...))``: the parser, the engine's routing and the ruleset's checks, as the
runtime and the replay feed them), and ends the phase with its ``Deadline``, until the game is over.
Everything the judge sends goes to the players' :class:`~forumbot.simulate.view.View`. With
``record=True`` the game is also returned as a replay transcript (``docs/replay.md``), which replays
to the same result (tests/simulate/test_replay_agrees.py).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from forumbot.engine.actions import Now
from forumbot.engine.game import Game, Setup
from forumbot.engine.types import Deadline, Message, Post, Reply, Step
from forumbot.simulate.actions import Option, legal_actions
from forumbot.simulate.policies import Policy
from forumbot.simulate.view import View

#: help entries that answer one decision: once a player has sent one of a group in a phase, the
#: others are no longer offered to him (a vote or an abstention; a witch's one potion a night)
EXCLUSIVE: tuple[frozenset[str], ...] = (
    frozenset({"vote", "vote_thread", "abstain", "exorcise", "stand_in", "withdraw"}),
    frozenset({"clockwise", "anticlockwise"}),
    frozenset({"cancel_weather", "foresee"}),
    frozenset({"save", "kill", "poison", "selfkill", "choose"}),
)
_GROUP = {key: group for group in EXCLUSIVE for key in group}

#: most actions one player sends in one phase (a vampire: suck, convert, criminal vote)
MAX_ACTIONS = 4
#: a game still running after this many phases is stopped and counted as unfinished
MAX_PHASES = 1000


class SimulationError(RuntimeError):
    """The simulator could not drive a game (a ruleset changed phase on a command, a help entry with no
    command): a bug in the simulator or a ruleset, never a user error."""


class SimGame(Game):
    """The engine's :class:`Game` as the simulator plays it (the parser's memo is the engine's own:
    :meth:`Game.parse <forumbot.engine.game.Game.parse>`)."""


@dataclass
class GameResult:
    """One simulated game. ``winner``: the winning camp(s) joined by "+" ("none": no camp won);
    ``winners``: the same as a tuple. ``phases``: phases played after the prologue; ``rounds``: the
    round number at the end; ``deaths``: reason -> players out for it; ``rejected``: commands the
    ruleset refused (``refused``: by "verb:reason"); ``actions``: commands sent; ``finished``: False when stopped at
    :data:`MAX_PHASES`; ``extra``: ruleset figures (sunlight's ``win_index``; interview_vampire's ``nights``,
    ``criminals`` made, ``conversions``, ``criminals_won``); ``transcript``: the
    game as a replay transcript (with ``record=True``)."""

    seed: int
    players: int
    params: dict[str, Any]
    winner: str
    winners: tuple[str, ...]
    phases: int
    rounds: int
    deaths: dict[str, int]
    rejected: int
    actions: int
    finished: bool = True
    refused: dict[str, int] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)
    roles: dict[str, int] = field(default_factory=dict)
    transcript: dict[str, Any] | None = None


def winners_of(winner: Any) -> tuple[str, ...]:
    """``game.winner`` (a faction id, a list of them, or None) as a tuple."""
    if winner is None:
        return ()
    if isinstance(winner, (list, tuple)):
        return tuple(str(w) for w in winner)
    return (str(winner),)


def play_game(ruleset: str, players: int, params: dict[str, Any], seed: int, policy: Policy,
              *, record: bool = False) -> GameResult:
    """Play one game of ``ruleset`` with ``players`` seats and ``params`` to its end; the draw and
    every policy choice come from ``seed``. Raises :class:`~forumbot.engine.game.SetupError` for a
    setup that cannot be played and :class:`SimulationError` when the game cannot be driven."""
    names = tuple(f"p{i}" for i in range(1, players + 1))
    g = SimGame(Setup(ruleset, names, params=dict(params), seed=seed))
    rng = random.Random(f"sim:{seed}")
    factions = type(g.ruleset).roles
    posts: list[Post] = []
    views = [View(p.seat, p.name, ruleset, posts=posts, _hunch=_hunch(g, p.seat, factions)) for p in g.players]
    by_name = {v.name: v for v in views}
    counts = {"rejected": 0, "actions": 0}
    roles = Counter(p.role for p in g.players)
    refused: Counter[str] = Counter()

    def deliver(step: Step) -> None:
        for o in step.outputs:
            if isinstance(o, Reply):
                v = by_name.get(o.to)
                if v is not None:
                    v.receive(o)
            else:
                posts.append(o)
        for e in step.events:
            if e.kind == "rejected":
                counts["rejected"] += 1
                refused[f"{e.data.get('verb')}:{e.data.get('reason')}"] += 1

    deliver(g.start())
    entries: list[dict[str, Any]] = []
    while not g.finished and len(g.phases) <= MAX_PHASES:
        phase_id = g.phase.id
        alive = tuple(g.alive())
        entry: dict[str, Any] = {"phase": g.phase.kind, "messages": [], "posts": []}
        for v in views:
            v.phase, v.alive = (g.phase.kind, g.phase.round), alive
            v.scratch.clear()
        # the answers the declared actions give whoever asks, shared by every seat until the next input
        now = Now(g.ruleset)
        for v in views:
            options = legal_actions(g, v.seat, now)
            used: set[str] = set()
            sent = 0
            while options and sent < MAX_ACTIONS:
                action = policy.choose(v, options, rng)
                if action is None:
                    break
                text = action.text(g)
                deliver(g.apply(Message(v.name, text, action.channel)))
                now = Now(g.ruleset)
                counts["actions"] += 1
                sent += 1
                entry["posts" if action.channel == "thread" else "messages"].append([v.name, text])
                if g.finished or g.phase.id != phase_id:
                    raise SimulationError(f"{ruleset}: {v.name}'s {text!r} ended phase {phase_id} before its deadline")
                used |= _GROUP.get(action.key, {action.key})
                if any(o.key not in used for o in options):  # else nothing is left for him this phase
                    options = [o for o in legal_actions(g, v.seat, now) if o.key not in used]
                else:
                    options = []
        entries.append({k: x for k, x in entry.items() if x})
        deliver(g.apply(Deadline(phase_id)))
    extra = _EXTRAS[ruleset](g) if ruleset in _EXTRAS else {}
    transcript = None
    if record:
        transcript = {"ruleset": ruleset, "params": dict(params), "seed": seed, "players": list(names),
                      "phases": entries}
    return GameResult(
        seed=seed, players=players, params=dict(params), winner="+".join(winners_of(g.winner)) or "none",
        winners=winners_of(g.winner), phases=len(g.phases) - 1, rounds=g.phase.round,
        deaths=dict(Counter(p.out_reason for p in g.players if not p.alive and p.out_reason)),
        rejected=counts["rejected"], actions=counts["actions"], finished=g.finished,
        refused=dict(refused), extra=extra, roles=dict(roles),
        transcript=transcript,
    )


def _interview_vampire_extra(g: Game) -> dict[str, Any]:
    iv: Any = g.ruleset
    return {"nights": len(iv.nights), "criminals": len(iv.ever_criminals),
            "conversions": sum(len(v) for v in iv.converted.values()),
            "criminals_won": sum(1 for p in g.players if p.role == "criminal" and iv.won(p.seat))}


#: ruleset id -> figures of a finished game beyond winner, length and deaths (GameResult.extra)
_EXTRAS: dict[str, Any] = {
    "sunlight": lambda g: {"win_index": g.ruleset.summary()["win_index"]},
    "interview_vampire": _interview_vampire_extra,
}


def _hunch(g: Game, seat: int, factions: dict[str, str]):
    """The table-talk model of :meth:`View.hunch` for ``seat``: the hostile living players are those
    whose role's camp differs from his role's camp now."""
    def hunch(rng: random.Random, skill: float) -> int | None:
        mine = factions.get(g.player(seat).role)
        hostile = [p.seat for p in g.players if p.alive and factions.get(p.role) != mine]
        if hostile and rng.random() < skill:
            return rng.choice(hostile)
        return None
    return hunch


__all__ = ["MAX_PHASES", "GameResult", "Option", "SimGame", "SimulationError", "play_game", "winners_of"]
