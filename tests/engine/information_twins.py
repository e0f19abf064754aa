"""Twin games for the information property test (issue 10, item 4).

Two games of one ruleset are played side by side. They differ only in the draw: two players X and Y
have swapped roles. Both games get the same public actions (votes, thread posts, every command of a
player whose role is the same in both games) and the same private role actions, sent in each game by
the player who holds the acting role there (X's kill order in game A is Y's in game B). Role actions
never target a player whose role differs between the games, so they have the same effect in both.

Then, while neither game is over (the end is public and the final post reveals everything):

- the thread is the same: the same posts with the same data, and the same phases opened (the phase
  schedule is public too), except what the ruleset's rulebook publishes on purpose (``mask``);
- every private message to a player who cannot know the difference is the same: every player but X,
  Y, anyone whose role has come to differ (a sunlight successor), and the teammates of all of these
  in a team that knows its members (``teams``).

A role action whose acceptance differs between the games (one is rejected, the other not) means the
twins no longer have "the same actions": the comparison stops there (:attr:`Twin.diverged`).

A perturbation twin has the same draw in both games and one role action sent to game B with another
text (:meth:`Twin.play`'s ``perturb_after``); its actor, his team and whoever the ruleset's rulebook
tells of it are informed, and the comparison stops once the games' dead differ (a visible effect).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from forumbot.engine.game import Game, Setup
from forumbot.engine.types import Deadline, Message, Post, Reply, Step


@dataclass(frozen=True)
class Action:
    """One input: ``actor`` (the game-A sender), ``text``, ``channel``; ``role``: a role action, sent
    in game B by the player who holds the actor's role there."""

    actor: str
    text: str
    channel: str = "pm"
    role: bool = False
    #: a private action that exists in game A only (its effect is to be invisible, e.g. a voted-out
    #: sunlight killer naming his successor): sent in A alone when B has no counterpart
    one_sided: bool = False
    #: the text game B gets instead (a perturbed private action; see :meth:`Twin.play`)
    alt: str | None = None


@dataclass
class Spec:
    """What the twin test needs to know about one ruleset.

    ``teams``: groups of roles whose holders know each other; or pairs (roles, roles told): when a
    holder of the first roles is swapped, the holders of the second learn something of it. ``policy(rng, a, b, differ)`` gives the
    actions of the current phase (game A's view; ``differ``: names whose roles differ, never to be a
    role action's target). ``mask(post)``: a post's data as compared (what the rulebook publishes on
    purpose blanked out).
    """

    ruleset: str
    teams: tuple[Any, ...]
    policy: Callable[[random.Random, Game, Game, set[str]], list[Action]]
    mask: Callable[[Post], Any] = lambda p: p.data
    params: dict[str, Any] = field(default_factory=dict)
    #: ``perturb(rng, game, action)``: another text for a role action whose effect the rulebook keeps
    #: from everyone but a few, the names of those few (beyond the actor) and the roles whose holders,
    #: now or later, may learn of it; None: not this action
    perturb: Callable[[random.Random, Game, Action], tuple[str, set[str], set[str]] | None] | None = None


class Mismatch(AssertionError):
    """The twins' public thread or a private message to an uninformed player differ."""


@dataclass
class Twin:
    """Games ``a`` and ``b`` (``b``'s draw is ``a``'s with two players swapped) and the comparison."""

    spec: Spec
    a: Game
    b: Game
    informed: set[str] = field(default_factory=set)
    informed_roles: set[str] = field(default_factory=set)
    diverged: str | None = None
    #: perturbation twins: once the games' dead differ, the comparison stops (a legitimate effect)
    stop_on_deaths: bool = False
    inputs: list[tuple[str, str, str, str]] = field(default_factory=list)

    @classmethod
    def start(cls, spec: Spec, players: list[str], roles: dict[str, str], x: str | None, y: str | None, seed: int,
              params: dict[str, Any] | None = None) -> Twin:
        """Twins whose draws differ by ``x`` and ``y``'s roles swapped (None, None: the same draw, for
        a perturbation twin)."""
        swapped = {**roles, x: roles[y], y: roles[x]} if x is not None and y is not None else dict(roles)
        p = {**spec.params, **(params or {})}
        a = Game(Setup(spec.ruleset, tuple(players), params=p, roles=roles, seed=seed))
        b = Game(Setup(spec.ruleset, tuple(players), params=p, roles=swapped, seed=seed))
        twin = cls(spec, a, b, stop_on_deaths=x is None)
        twin._compare(a.start(), b.start(), "start")
        return twin

    # --- who is who --------------------------------------------------------------------------------
    def differ(self) -> set[str]:
        """Names whose role differs between the games now."""
        return {pa.name for pa, pb in zip(self.a.players, self.b.players, strict=False) if pa.role != pb.role}

    def _update_informed(self) -> None:
        differ = self.differ()
        self.informed |= differ
        self.informed |= {p.name for g in (self.a, self.b) for p in g.players if p.role in self.informed_roles}
        involved = {p.role for g in (self.a, self.b) for p in g.players if p.name in self.informed}
        for team in self.spec.teams:
            trigger, told = (team[0], team[1]) if isinstance(team[0], tuple) else (team, team)
            if involved & set(trigger):
                self.informed |= {p.name for g in (self.a, self.b) for p in g.players if p.role in told}

    def counterpart(self, name: str) -> str | None:
        """Who in game B does what ``name`` does in game A as a role holder: himself when his role is
        the same in both, else the one player of ``differ`` who holds his A role in B and is in the same
        state (alive or not); None when there is none."""
        pa = self.a.player(self.a.seat_of(name))
        if self.b.player(pa.seat).role == pa.role:
            return name
        for pb in self.b.players:
            other = self.a.player(pb.seat)
            if pb.role == pa.role and other.role != pb.role and pb.alive == pa.alive:
                return pb.name
        return None

    # --- playing -----------------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.a.finished or self.b.finished or self.diverged is not None

    def act(self, action: Action) -> None:
        """Apply ``action`` to both games and compare."""
        if self.over:
            return
        sender = self.counterpart(action.actor) if action.role else action.actor
        if sender is None and action.one_sided:
            self.inputs.append((action.actor, "(A only)", action.channel, action.text))
            sa = self.a.apply(Message(action.actor, action.text, action.channel))  # type: ignore[arg-type]
            self._compare(sa, Step(), f"{action.actor} (game A only): {action.text!r}")
            return
        if sender is None:
            return
        text_b = action.text if action.alt is None else action.alt
        self.inputs.append((action.actor, sender, action.channel, action.text + (f" / B: {text_b}" if action.alt else "")))
        sa = self.a.apply(Message(action.actor, action.text, action.channel))  # type: ignore[arg-type]
        sb = self.b.apply(Message(sender, text_b, action.channel))  # type: ignore[arg-type]
        keys_a = [r.key for r in sa.replies if r.to == action.actor]
        keys_b = [r.key for r in sb.replies if r.to == sender]
        if _rejected(keys_a) != _rejected(keys_b):
            self.diverged = f"{action} accepted in one game only: {keys_a} / {keys_b}"
            return
        self._compare(sa, sb, f"{action.actor}->{sender}: {action.text!r} ({action.channel})")

    def deadline(self) -> None:
        """The current phase's deadline, in both games."""
        if self.over:
            return
        kind = self.a.phase.kind
        self.inputs.append(("", "", "deadline", kind))
        sa = self.a.apply(Deadline(self.a.phase.id))
        sb = self.b.apply(Deadline(self.b.phase.id))
        self._compare(sa, sb, f"deadline of {kind}")

    def play(self, rng: random.Random, phases: int, perturb_after: int | None = None) -> None:
        """Up to ``phases`` phases of actions from the spec's policy, each closed by its deadline.

        ``perturb_after``: from that many actions on, the first role action the spec's ``perturb``
        accepts is sent to game B with another text, and the few it informs join :attr:`informed`.
        """
        done = 0
        for _ in range(phases):
            if self.over:
                return
            for action in self.spec.policy(rng, self.a, self.b, self.differ()):
                done += 1
                if perturb_after is not None and done > perturb_after and action.role and self.spec.perturb:
                    alt = self.spec.perturb(rng, self.a, action)
                    if alt is not None:
                        text, told, roles = alt
                        self.informed |= {action.actor} | told | self._team_of(action.actor)
                        self.informed_roles |= roles
                        action = Action(action.actor, action.text, action.channel, True, alt=text)
                        perturb_after = None
                self.act(action)
            self.deadline()

    def _team_of(self, name: str) -> set[str]:
        role = self.a.player(self.a.seat_of(name)).role
        told: set[str] = set()
        for team in self.spec.teams:
            trigger, roles = (team[0], team[1]) if isinstance(team[0], tuple) else (team, team)
            if role in trigger:
                told |= {p.name for p in self.a.players if p.role in roles}
        return told

    # --- comparing ---------------------------------------------------------------------------------
    def _public(self, step: Step) -> tuple[list[Any], list[Any]]:
        posts = [(o.key, self.spec.mask(o)) for o in step.outputs if isinstance(o, Post)]
        phases = [(e.data["kind"], e.data["round"], e.data["day"]) for e in step.events if e.kind == "phase_opened"]
        return posts, phases

    def _compare(self, sa: Step, sb: Step, what: str) -> None:
        self._update_informed()
        if self.a.finished or self.b.finished:
            return  # the end is public; the final post reveals everything
        if self.stop_on_deaths and [p.alive for p in self.a.players] != [p.alive for p in self.b.players]:
            self.diverged = f"the perturbed action changed who is out (after {what})"
            return
        pa, pb = self._public(sa), self._public(sb)
        if self.stop_on_deaths and _dying(pa) != _dying(pb):
            # a public announcement of who is about to go out (human_kill's 苍天 lists the dying before
            # the substitution): the dead are about to differ, a legitimate effect
            self.diverged = f"the perturbed action changed who is dying (after {what})"
            return
        if pa != pb:
            raise Mismatch(f"the thread differs after {what}:\n{_diff(pa, pb)}\n{self.story()}")
        for name in self.uninformed():
            ra, rb = _to(sa.replies, name), _to(sb.replies, name)
            if ra != rb:
                raise Mismatch(f"the private messages to {name} differ after {what}:\n A: {ra}\n B: {rb}\n{self.story()}")

    def uninformed(self) -> list[str]:
        """Players who cannot know which of the twins they are in."""
        return [p.name for p in self.a.players if p.name not in self.informed]

    def story(self) -> str:
        roles = {p.name: (p.role, self.b.player(p.seat).role) for p in self.a.players}
        lines = [f"roles (A, B): {roles}", f"informed: {sorted(self.informed)}"]
        lines += [f"  {a}{'->' + b if b != a else ''} [{c}] {t}" for a, b, c, t in self.inputs]
        return "\n".join(lines)


def _dying(public: tuple[list[Any], list[Any]]) -> list[Any]:
    """The players a step's posts announce as dying (posts whose data carry ``dying``)."""
    return [data["dying"] for _, data in public[0] if isinstance(data, dict) and "dying" in data]


def _diff(pa: tuple[list[Any], list[Any]], pb: tuple[list[Any], list[Any]]) -> str:
    """The first differing post (or phase list), with only its differing fields."""
    if pa[1] != pb[1]:
        return f" phases A: {pa[1]}\n phases B: {pb[1]}"
    for i, (x, y) in enumerate(zip(pa[0], pb[0], strict=False)):
        if x != y:
            if x[0] == y[0] and isinstance(x[1], dict) and isinstance(y[1], dict):
                keys = sorted(k for k in set(x[1]) | set(y[1]) if x[1].get(k) != y[1].get(k))
                return f" post {i} {x[0]}: A {{{', '.join(f'{k}: {x[1].get(k)!r}' for k in keys)}}}\n" \
                       f" {' ' * len(str(i))}      B {{{', '.join(f'{k}: {y[1].get(k)!r}' for k in keys)}}}"
            return f" post {i}: A {x}\n post {i}: B {y}"
    return f" posts A: {[k for k, _ in pa[0]]}\n posts B: {[k for k, _ in pb[0]]}"


def _rejected(keys: Iterable[str]) -> bool:
    return any(k.endswith("/rejected") or k.startswith("common/") for k in keys)


def _to(replies: list[Reply], name: str) -> list[tuple[str, Any]]:
    return [(r.key, r.data) for r in replies if r.to == name]


def drawn_roles(ruleset: str, players: list[str], seed: int, params: dict[str, Any] | None = None) -> dict[str, str]:
    """The roles a seeded draw deals (name -> role)."""
    g = Game(Setup(ruleset, tuple(players), params=params or {}, seed=seed))
    return {p.name: p.role for p in g.players}
