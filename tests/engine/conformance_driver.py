"""The driver of the conformance test (tests/engine/test_conformance.py): one random game of any
registered ruleset, with illegal commands sent at random points, recorded so that its checks can be made.

A game is made of two random streams, both from the game's seed: the legal play (each phase every
player sends, or not, a random one of :func:`forumbot.simulate.actions.legal_actions`, then the
phase's deadline passes) and the illegal commands mixed into it (``inject=True``). Because an illegal
command changes nothing, the legal play is the same with or without them — which the test checks.
"""

from __future__ import annotations

import hashlib
import json
import pickle
import random
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import forumbot  # noqa: F401  (registers the rulesets)
from forumbot.engine.game import Game, Setup, SetupError
from forumbot.engine.ruleset import get_ruleset
from forumbot.engine.types import Channel, Deadline, Message, Post, Reply, Step
from forumbot.simulate.actions import HELP_ENTRIES, Action, Option, legal_actions

#: a game still running after this many phases is a failure (every ruleset ends far sooner)
MAX_PHASES = 400
#: chance that a player sends an illegal command before his legal turn, when injecting
ILLEGAL_RATE = 0.15
#: every verb a player can send to some ruleset (the illegal "verb not legal now" draws from these)
VERBS = tuple(sorted({e.verb for e in HELP_ENTRIES.values()}))
#: the kinds of illegal command: a verb the player may not use now (another role's, another
#: phase's, another ruleset's), a dead player as target, a name beyond the roster (read by the
#: parser, which refuses it before the rules see it), too many targets, and in a game whose votes are
#: posted in the thread a living player's thread vote out of its phase or for a dead player (a thread
#: line naming its own poster, "vote me", is talk: never sent)
KINDS = ("verb", "dead_target", "out_of_range", "too_many", "thread")
#: verbs a ruleset also reads as an offered one: a human's vote (投) in human_kill's exorcism is his
#: exorcise ballot (players write 投 there), so it is not an illegal verb while exorcise is offered
ALSO_READ_AS = {"exorcise": ("vote",)}


def allowed_sizes(ruleset: str, span: int = 14) -> list[int]:
    """The player counts from ``min_players`` to ``min_players + span`` a game of ``ruleset`` can be
    set up for with its default parameters (a preset-only ruleset refuses the others)."""
    cls = get_ruleset(ruleset)
    sizes = []
    for n in range(cls.min_players, cls.min_players + span + 1):
        try:
            Game(Setup(ruleset, _names(n)))
        except SetupError:
            continue
        sizes.append(n)
    return sizes


def varied_params(ruleset: str, seed: int) -> dict[str, Any]:
    """Parameters for game ``seed`` of ``ruleset``: every yes/no and every choice among named options
    (``Literal``) of its :class:`~forumbot.engine.ruleset.Params` drawn at random (numbers, tables and
    counts keep their defaults); even seeds play the defaults."""
    if seed % 2 == 0:
        return {}
    rng = random.Random(f"conformance:params:{ruleset}:{seed}")
    params: dict[str, Any] = {}
    for name, f in get_ruleset(ruleset).Params.model_fields.items():
        if f.annotation is bool:
            params[name] = rng.random() < 0.5
        elif typing.get_origin(f.annotation) is typing.Literal:
            params[name] = rng.choice(typing.get_args(f.annotation))
    return params


def _names(n: int) -> tuple[str, ...]:
    return tuple(f"p{i}" for i in range(1, n + 1))


@dataclass
class Illegal:
    """One illegal command sent: who, what kind, the text, and what it produced."""

    sender: str
    seat: int
    kind: str
    text: str
    step: Step
    phase: str
    changed: list[str]  # the attributes of the game's state it changed (pickled before and after)


@dataclass
class Record:
    """A game played: ``inputs`` in order (``("start",)``, ``("pm"|"thread", sender, text)`` or
    ``("deadline", phase_id)``) with the :class:`Step` each produced, the illegal commands among them
    (their indexes in ``inputs``), the legal ones refused, and the finished game."""

    game: Game
    inputs: list[tuple[Any, ...]] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    illegal: dict[int, Illegal] = field(default_factory=dict)
    #: legal actions (each a player's one action of the phase) the ruleset refused: (input index,
    #: sender, role, text, phase kind)
    refused_legal: list[tuple[int, str, str, str, str]] = field(default_factory=list)

    def legal_outputs(self) -> list[Any]:
        """Events and outputs of every input but the illegal ones, as plain data."""
        return [_plain(s) for i, s in enumerate(self.steps) if i not in self.illegal]

    def digest(self) -> str:
        """A hash of every input and every output (events, replies, posts) in order."""
        blob = json.dumps([[list(i), _plain(s)] for i, s in zip(self.inputs, self.steps, strict=True)],
                          ensure_ascii=False, sort_keys=True, default=repr)
        return hashlib.sha256(blob.encode()).hexdigest()


def _plain(step: Step) -> list[Any]:
    return [[[e.kind, e.data] for e in step.events],
            [["reply", o.to, o.key, o.data] if isinstance(o, Reply) else ["post", o.key, o.data] for o in step.outputs]]


#: attributes that are caches, not state (the roster the parser reads is built on first use)
_CACHES = frozenset({"game._roster", "game._roster_key"})


def _state(g: Game) -> dict[str, bytes]:
    """The game's state, attribute by attribute (``game.x``, ``ruleset.y``), pickled."""
    state = {f"game.{k}": pickle.dumps(v) for k, v in vars(g).items() if k != "ruleset"}
    state |= {f"ruleset.{k}": pickle.dumps(v) for k, v in vars(g.ruleset).items() if k != "game"}
    return {k: v for k, v in state.items() if k not in _CACHES}


def _changed(before: dict[str, bytes], after: dict[str, bytes]) -> list[str]:
    return sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))


def _illegal(g: Game, seat: int, options: list[Option], seen: set[str], seen_channels: set[str],
             rng: random.Random) -> tuple[str, str] | None:
    """An illegal command for ``seat`` now, as ``(kind, text)``, or None when the kind drawn has none.
    ``seen``/``seen_channels``: the verbs and channels offered to anyone so far in this game."""
    kind = rng.choice(KINDS)
    others = [s for s in g.alive() if s != seat] or [seat]
    if kind == "verb":
        legal = {o.verb for o in options}
        legal |= {v for o in options for v in ALSO_READ_AS.get(o.verb, ())}
        # mostly a verb of this ruleset (another role's, another phase's), sometimes any verb
        pool = seen if seen - legal and rng.random() < 0.75 else VERBS
        verbs = sorted(v for v in pool if v not in legal)
        verb = rng.choice(verbs)
        entry = next(e for e in HELP_ENTRIES.values() if e.verb == verb)
        k = min(max(entry.least, 1), len(others)) if entry.most else 0
        targets = tuple(rng.sample(others, k))
        number = rng.randint(1, 3) if verb == "clue" else None
        return kind, Action(verb, targets, number).text(g)
    if kind == "thread":
        if "thread" not in seen_channels or not g.player(seat).alive:
            return None
        voting = [o for o in options if o.channel == "thread"]
        dead = [p.seat for p in g.players if not p.alive]
        if voting:
            return (kind, Action("vote", (rng.choice(dead),)).text(g)) if dead else None
        if others == [seat]:
            return None
        return kind, Action("vote", (rng.choice(others),)).text(g)
    named = [o for o in options if o.most > 0 and o.channel == "pm"]
    if not named:
        return None
    o = rng.choice(named)
    if kind == "dead_target":
        dead = [p.seat for p in g.players if not p.alive]
        if not dead:
            return None
        return kind, Action(o.verb, (rng.choice(dead),)).text(g)
    if kind == "out_of_range":
        return kind, f"{Action(o.verb).text(g)} #{len(g.players) + rng.randint(1, 9)}"
    # too_many: one more distinct living target than the most the option takes
    pool = list(o.targets) + [s for s in g.alive() if s not in o.targets]
    if len(pool) <= o.most:
        return None
    return kind, Action(o.verb, tuple(rng.sample(pool, o.most + 1))).text(g)


def play(ruleset: str, n: int, seed: int, *, inject: bool = True, params: dict[str, Any] | None = None) -> Record:
    """Play one random game of ``ruleset`` with ``n`` players (``p1``..``pN``) from ``seed`` to its end,
    sending illegal commands at random points when ``inject``. Raises AssertionError when the game
    does not end within :data:`MAX_PHASES`."""
    g = Game(Setup(ruleset, _names(n), params=dict(params or {}), seed=seed))
    rec = Record(g)
    play_rng = random.Random(f"conformance:play:{ruleset}:{n}:{seed}")
    bad_rng = random.Random(f"conformance:illegal:{ruleset}:{n}:{seed}")
    rec.inputs.append(("start",))
    rec.steps.append(g.start())
    seen: set[str] = set()
    seen_channels: set[str] = set()
    while not g.finished:
        assert len(g.phases) <= MAX_PHASES, f"{ruleset} n={n} seed={seed}: no end after {MAX_PHASES} phases"
        phase_id = g.phase.id
        for p in g.players:
            options = legal_actions(g, p.seat)
            seen |= {o.verb for o in options}
            seen_channels |= {o.channel for o in options}
            if inject and bad_rng.random() < ILLEGAL_RATE:
                drawn = _illegal(g, p.seat, options, seen, seen_channels, bad_rng)
                if drawn is not None:
                    kind, text = drawn
                    channel: Channel = "thread" if kind == "thread" else "pm"
                    before = _state(g)
                    step = g.apply(Message(p.name, text, channel))
                    rec.illegal[len(rec.inputs)] = Illegal(p.name, p.seat, kind, text, step, g.phase.kind,
                                                           _changed(before, _state(g)))
                    rec.inputs.append((channel, p.name, text))
                    rec.steps.append(step)
            if options and play_rng.random() < 0.8:
                action = play_rng.choice(options).sample(play_rng)
                if action is not None:
                    text = action.text(g)
                    rec.inputs.append((action.channel, p.name, text))
                    step = g.apply(Message(p.name, text, action.channel))
                    rec.steps.append(step)
                    if any(e.kind == "rejected" for e in step.events):
                        rec.refused_legal.append((len(rec.steps) - 1, p.name, g.player(p.seat).role, text,
                                                  g.phase.kind))
            if g.finished or g.phase.id != phase_id:
                break
        if not g.finished and g.phase.id == phase_id:
            rec.inputs.append(("deadline", phase_id))
            rec.steps.append(g.apply(Deadline(phase_id)))
    return rec


def replay_digest(ruleset: str, n: int, seed: int, inputs: list[tuple[Any, ...]],
                  params: dict[str, Any] | None = None, visit: Callable[[Game, int], None] | None = None) -> str:
    """The digest of a fresh game fed ``inputs`` (the same as :meth:`Record.digest` when the game is a
    function of its inputs); ``visit(game, index)`` is called after each input."""
    g = Game(Setup(ruleset, _names(n), params=dict(params or {}), seed=seed))
    rec = Record(g)
    for inp in inputs:
        rec.inputs.append(inp)
        if inp[0] == "start":
            rec.steps.append(g.start())
        elif inp[0] == "deadline":
            rec.steps.append(g.apply(Deadline(inp[1])))
        else:
            rec.steps.append(g.apply(Message(inp[1], inp[2], inp[0])))
        if visit is not None:
            visit(g, len(rec.inputs) - 1)
    return rec.digest()


def posts_and_replies(rec: Record) -> list[tuple[int, Reply | Post]]:
    """Every output with the index of the input that made it."""
    return [(i, o) for i, s in enumerate(rec.steps) for o in s.outputs]


#: data keys whose values are vocabulary, never a player's role (a human_kill phase is named after its role)
_NOT_ROLES = frozenset({"phase", "kind", "stage", "verb", "reason", "why", "rule", "code", "action"})


def role_mentions(data: Any, roles: frozenset[str], names: frozenset[str]) -> list[tuple[str, str]]:
    """``(name, role)`` pairs that one mapping inside ``data`` holds together: a role or faction id
    (one of ``roles``, a value or in a list) and one player's name (one of ``names``, a value: a list
    of names is a roster, the living, a vote...). This is how every template says "X is a Y": the
    role and the player come in one mapping."""
    found: list[tuple[str, str]] = []
    if isinstance(data, dict):
        here_roles, here_names = set(), set()
        for k, v in data.items():
            if k in _NOT_ROLES:
                continue
            if isinstance(v, str) and v in names:
                here_names.add(v)
            for x in ([v] if isinstance(v, str) else v if isinstance(v, (list, tuple)) else []):
                if isinstance(x, str) and x in roles:
                    here_roles.add(x)
        found += [(n, r) for n in sorted(here_names) for r in sorted(here_roles)]
        for v in data.values():
            found += role_mentions(v, roles, names)
    elif isinstance(data, (list, tuple)):
        for v in data:
            found += role_mentions(v, roles, names)
    return found
