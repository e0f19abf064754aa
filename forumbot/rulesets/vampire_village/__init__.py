"""吸血鬼村莊 (vampire_village): vampires against a village of seer, cupid, witch, guard, hunter, elder and
piper, with lovers and an elected sheriff; night actions by private message.

Rulebook: ``shared/seeds/002_d9ee23489227a64b.txt``; rulings: ``shared/seeds/README.md`` § vampire_village;
for players and organisers: ``docs/vampire_village.md``.

Timeline: a prologue (role PMs; no commands), then on night 1 a ``cupid`` phase (when a cupid was dealt),
and every night a ``night`` phase (guard, seer, vampires' kill and self-kill, piper) and a ``witch`` phase
(when a witch was dealt: she is told the victim and may save or poison). Dawn announces the dead and the
day's speaking order; after every batch of deaths the hunter's ``shot`` window opens while a hidden hunter
may still shoot (whoever died: README ruling 2026-12), then each dead sheriff's ``successor``; day 1
has the sheriff's ``election`` (a revote among the tied is another ``election`` phase); then the day
``vote`` and its ``runoff``. A vampire's self-kill skips the next day's talk and vote.

Shared mechanics: :mod:`forumbot.engine.night` (team orders, once-a-night answers, no-repeat rules),
:mod:`forumbot.engine.votes` (the votes, declared in :data:`ELECTION` and :data:`DAY_VOTE`), :mod:`forumbot.engine.potions` (the
witch's potions), :mod:`forumbot.engine.links` (the lovers' linked deaths), :mod:`forumbot.engine.title`
(the sheriff) and :mod:`forumbot.engine.triggers` (windows opened by deaths).

No role is revealed before the final post unless ``reveal_roles_at_death``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar, Literal

from pydantic import Field

from forumbot.engine.actions import Action, Check, Count, Distinct, GateStep, Refusal, living, named, not_self
from forumbot.engine.game import Game, SetupError
from forumbot.engine.links import Links
from forumbot.engine.night import NightActions, tell
from forumbot.engine.orders import Order
from forumbot.engine.potions import Potions
from forumbot.engine.ruleset import Params, Ruleset, register
from forumbot.engine.speaking import speaking_order
from forumbot.engine.title import Title
from forumbot.engine.triggers import Window, Windows
from forumbot.engine.types import Step, Winner
from forumbot.engine.votes import Vote, VoteOutcome, VoteRule, seeded_draw
from forumbot.language.types import Command
from forumbot.rulesets.vampire_village import events as ev

VAMPIRE, VILLAGER, SEER, CUPID, WITCH, GUARD, HUNTER, ELDER, PIPER = (
    "vampire", "villager", "seer", "cupid", "witch", "guard", "hunter", "elder", "piper")
ROLES = (VAMPIRE, VILLAGER, SEER, CUPID, WITCH, GUARD, HUNTER, ELDER, PIPER)
VAMPIRES, VILLAGERS, PIPER_WIN, LOVERS = "vampires", "villagers", "piper", "lovers"
#: Everyone but the vampires is a villager (「除吸血鬼外統稱村民」); the piper and the lovers may also win alone.
FACTION = {r: (VAMPIRES if r == VAMPIRE else VILLAGERS) for r in ROLES}
#: The villager-side powers the elder's death by the village's hand takes away.
POWER_ROLES = (SEER, WITCH, GUARD, HUNTER, PIPER)
#: Night commands of each role (the votes are everyone's).
NIGHT_VERBS = {VAMPIRE: ["kill", "selfkill"], VILLAGER: [], SEER: ["check"], CUPID: ["link"], WITCH: ["save", "poison"],
               GUARD: ["guard"], HUNTER: [], ELDER: [], PIPER: ["charm"]}
#: The sheriff election (README § vampire_village): 「Sheriff: elected by vote on the first day after the
#: night; must exist (a tie: revote among the tied; tied again: a seeded draw among them)」; nobody voting
#: is settled by a seeded draw among the candidates, as the title must exist.
ELECTION = VoteRule("sheriff election", votes=2, last_tie="draw", no_votes="draw")
#: The day vote (README § vampire_village): 「the most votes is executed; a tie: the tied plead and everyone
#: votes again among them; tied again: nobody (config); nobody votes: straight to night」; the sheriff's
#: ballot counts double (「the vote counts double」). ``votes`` and ``last_tie`` come from the parameters.
DAY_VOTE = VoteRule("day vote", votes=2, last_tie="nobody")

#: The rulebook's presets (13–18 players). 14–15: 5–6 villagers; 16–17: 4–5 vampires.
_BASE = {SEER: 1, CUPID: 1, WITCH: 1, GUARD: 1}
PRESETS: dict[int, dict[str, int]] = {
    13: {VAMPIRE: 3, VILLAGER: 6, **_BASE},
    14: {VAMPIRE: 4, VILLAGER: 5, **_BASE, HUNTER: 1},
    15: {VAMPIRE: 4, VILLAGER: 6, **_BASE, HUNTER: 1},
    16: {VAMPIRE: 4, VILLAGER: 6, **_BASE, HUNTER: 1, ELDER: 1},
    17: {VAMPIRE: 5, VILLAGER: 6, **_BASE, HUNTER: 1, ELDER: 1},
    18: {VAMPIRE: 5, VILLAGER: 6, **_BASE, HUNTER: 1, ELDER: 1, PIPER: 1},
}


def preset_counts(n: int) -> dict[str, int]:
    """The rulebook's role counts for ``n`` players (13–18); KeyError outside that range."""
    base = PRESETS[n]
    return {r: base.get(r, 0) for r in ROLES}


class VampireVillageParams(Params):
    """Season parameters of vampire_village; defaults are the rulebook's (README rulings marked config)."""

    counts: dict[str, int] | None = Field(
        None, description="role counts overriding the preset (role -> count); villagers fill the rest")
    team_order: Literal["last", "first"] = Field(
        "last", description="the vampires' kill: the last order from any vampire stands, or the first")
    guard_and_save: Literal["lives", "dies"] = Field(
        "lives", description="guarded and saved by the witch the same night: lives, or dies (同守同救)")
    tell_charmed: bool = Field(True, description="charmed players are told so at dawn")
    tie_fallback: Literal["nobody", "draw"] = Field(
        "nobody", description="day vote tied again after the run-off: nobody dies, or a seeded draw among the tied")
    votes: int = Field(2, ge=1, le=3, description="day votes before the tie rule (the first + run-offs)")
    reveal_roles_at_death: bool = Field(False, description="announce a dead player's role")
    elder_lives: int = Field(2, ge=1, description="the elder's lives against vampire kills")
    last_words: bool = Field(True, description="the dead may post last words in the thread")
    will_phases: int = Field(1, ge=0, description="phases after a death in which the last words may be posted")


# --- the actions (forumbot.engine.actions): who may do what, when, on whom ------------------------------
#: the judge of 吸血鬼村莊 checks the phase before the power (a lost power is told only in its phase)
_GATE: tuple[GateStep, ...] = ("role", "alive", "phase", "who")


def _has_power(rs: Any, seat: int) -> bool:
    """The elder's death by the village's hand takes the villagers' powers away."""
    return not (rs.role_of(seat) in POWER_ROLES and rs.powers_lost)


#: lovers never vote for nor target each other
_NOT_LOVER = named("lover", lambda rs, seat, t: not rs.links.linked(seat, t))
_ONE_LIVING = (Count(1, 1), living())


def _night(key: str, verbs: tuple[str, ...], handler: str, role: str, phase: str = "night", **kw: Any) -> Action:
    """A night action of ``role``: role, alive, phase (named in the refusal), power."""
    return Action(key, verbs, handler, phases=(phase,), roles=(role,), phase_data={"expected": phase}, who=_has_power,
                  who_reason="powers_lost", order=_GATE, **kw)


def _window(key: str, verbs: tuple[str, ...], handler: str, kind: str, **kw: Any) -> Action:
    """The action of a death window (the hunter's shot, the sheriff's successor): the window's player, dead or alive."""
    return Action(key, verbs, handler, phases=(kind,), alive=None, phase_data={"expected": kind},
                  who=lambda rs, seat: rs.windows.current is not None and rs.windows.current.seat == seat,
                  who_reason="not_your_window", who_data={"expected": kind}, order=_GATE,
                  owes=lambda rs, seat: rs.window_choice is None and (kind == "successor" or rs._may_shoot(rs.windows.current)),
                  **kw)


def _already_checked(rs: Any, seat: int, cmd: Command) -> Refusal | None:
    done = rs.night.once("check")
    return None if done is None else Refusal("already_checked", {"target": rs.game.name(done.target),
                                                                  "role": rs.role_of(done.target)})


def _order_taken(rs: Any, seat: int, cmd: Command) -> Refusal | None:
    """With ``team_order`` "first" the vampires' first order stands."""
    previous = rs.night.of(VAMPIRE)
    if previous is None or rs.params.team_order != "first":
        return None
    return Refusal("order_taken", {"target": rs.game.name(previous.target), "by": rs.game.name(previous.actor)})


def _may_selfkill(rs: Any, seat: int, cmd: Command) -> Refusal | None:
    """Not on night 1, one self-kill a night, never the last vampire."""
    g = rs.game
    if g.phase.round == 1:
        return Refusal("selfkill_first_night")
    if rs.selfkill is not None:
        return Refusal("selfkill_taken", {"by": g.name(rs.selfkill)})
    if len(g.living(VAMPIRE)) < 2:
        return Refusal("selfkill_last")
    return None


def _potion(kind: str) -> Check:
    def check(rs: Any, seat: int, cmd: Command) -> Refusal | None:
        return None if rs.potions.has(kind) else Refusal("no_potion", {"potion": kind})
    return check


def _charm_targets(rs: Any, seat: int, cmd: Command) -> Refusal | None:
    """One or two players (a name written twice counts once), neither the piper nor a dead player."""
    g = rs.game
    targets = tuple(dict.fromkeys(cmd.targets))
    if not 1 <= len(targets) <= 2:
        return Refusal("charm_count", {"count": len(targets)})
    for t in targets:
        if t == seat:
            return Refusal("charm_self")
        if not g.player(t).alive:
            return Refusal("dead_target", {"target": g.name(t)})
    return None


def _shot_power(rs: Any, seat: int, cmd: Command) -> Refusal | None:
    return Refusal("powers_lost") if rs.powers_lost else None


def _already_voted(rs: Any, seat: int, cmd: Command) -> Refusal | None:
    existing = rs.vote.ballot_of(seat)
    return None if existing is None else Refusal("already_voted", {"target": rs.game.name(existing.choices[0])})


def _witch_owes(rs: Any, seat: int) -> bool:
    return rs.night.of(WITCH) is None and rs.potions.any()


ACTIONS = (
    _night("link", ("link",), "_link", CUPID, "cupid",
           targets=(Count(2, 2, "two_targets"), Distinct("same_twice", lambda rs, seat, cmd: {"target": rs.game.name(cmd.targets[0])}),
                    living()),
           owes=lambda rs, seat: rs.link_choice is None, offers_self=True),
    _night("kill", ("kill",), "_kill", VAMPIRE, targets=(*_ONE_LIVING, not_self("kill_self"), _NOT_LOVER),
           checks=(_order_taken,), owes=lambda rs, seat: rs.night.of(VAMPIRE) is None),
    _night("selfkill", ("selfkill",), "_selfkill", VAMPIRE, checks=(_may_selfkill,),
           help=lambda rs, seat: None if rs.game.phase.round == 1 else "selfkill"),
    _night("check", ("check",), "_check", SEER, targets=(*_ONE_LIVING, not_self("check_self")),
           again="refused", already=_already_checked, owes=lambda rs, seat: rs.night.once("check") is None),
    _night("guard", ("guard",), "_guard", GUARD,
           targets=(*_ONE_LIVING, named("repeat_guard", lambda rs, seat, t: not rs.night.repeats(GUARD, t))),
           owes=lambda rs, seat: rs.night.of(GUARD) is None, offers_self=True),
    _night("charm", ("charm",), "_charm", PIPER, targets=(_charm_targets,), owes=lambda rs, seat: not rs.charm_choice,
           offer_most=lambda rs, seat: 2),
    _night("save", ("save",), "_save", WITCH, "witch",
           targets=(_potion("save"), *_ONE_LIVING,
                    named("not_victim", lambda rs, seat, t: t == rs.witch_told,
                                 victim=lambda rs: rs.game.name(rs.witch_told) if rs.witch_told else None)),
           help=lambda rs, seat: "save" if rs.potions.has("save") else None, owes=_witch_owes, offers_self=True),
    _night("poison", ("poison",), "_poison", WITCH, "witch", targets=(_potion("poison"), *_ONE_LIVING, _NOT_LOVER),
           help=lambda rs, seat: "poison" if rs.potions.has("poison") else None, owes=_witch_owes),
    Action("vote", ("vote",), "_vote", phases=("election", "vote", "runoff"), phase_data={"expected": "vote"}, order=_GATE,
           targets=(*_ONE_LIVING, named("not_candidate", lambda rs, seat, t: rs.vote.eligible(t),
                                               candidates=lambda rs: rs.game.names(rs.vote.candidates or ())), _NOT_LOVER),
           again="refused", already=_already_voted, owes=lambda rs, seat: rs.vote.ballot_of(seat) is None),
    _window("shoot", ("shoot", "take"), "_shoot", "shot",
            targets=(_shot_power, *_ONE_LIVING, not_self("target_self"), _NOT_LOVER),
            help=lambda rs, seat: "shoot" if rs._may_shoot(rs.windows.current) else None),
    _window("successor", ("successor",), "_successor", "successor", targets=(*_ONE_LIVING, not_self("target_self"))),
)


@register
class VampireVillage(Ruleset):
    """The vampire_village ruleset (see the module docstring)."""

    id = "vampire_village"
    rules_version = "1"  # bump when the same inputs would decide differently (docs/runtime.md § Versions)
    Params = VampireVillageParams
    roles: ClassVar[dict[str, str]] = dict(FACTION)
    default_role = VILLAGER
    phase_kinds = ("prologue", "cupid", "night", "witch", "shot", "successor", "election", "vote", "runoff")
    #: the death windows do not use up the last-words window (the dead speak when the others do)
    will_skips = ("shot", "successor")
    min_players = 4
    actions = ACTIONS

    def __init__(self, game: Game, params: VampireVillageParams) -> None:
        super().__init__(game, params)
        self.params: VampireVillageParams = params
        self.night = NightActions()
        self.potions = Potions({"save": 1, "poison": 1})
        self.links = Links()
        self.sheriff = Title("sheriff", weight=2)
        self.windows = Windows()
        self.vote = Vote(ELECTION)
        self.start_counts: dict[str, int] = {}
        self.lives: dict[int, int] = {}
        self.charmed: set[int] = set()
        self.powers_lost = False
        self.link_choice: tuple[int, int] | None = None
        self.charm_choice: tuple[int, ...] = ()
        self.selfkill: int | None = None
        self.kill_target: int | None = None
        self.guarded: int | None = None
        self.witch_told: int | None = None
        self.window_choice: int | None = None
        self.hunter_shot = False
        self.skip_day = False
        self.after = "night"
        self.elected = False
        self.win_reason: str | None = None
        self.nights: list[dict[str, Any]] = []
        self.deaths: list[dict[str, Any]] = []
        self._tonight: dict[str, Any] = {}

    # --- set-up -----------------------------------------------------------------------------------
    def role_counts(self, n_players: int) -> dict[str, int]:
        """The preset for ``n_players`` with the season's ``counts``; villagers fill the rest."""
        if n_players in PRESETS:
            counts = preset_counts(n_players)
        elif self.params.counts is None:
            raise SetupError(f"vampire_village has presets for 13-18 players, not {n_players}: set params.counts")
        else:
            counts = {r: 0 for r in ROLES}
        for role, k in (self.params.counts or {}).items():
            if role not in ROLES:
                raise SetupError(f"unknown role {role!r} in params.counts; known: {', '.join(ROLES)}")
            counts[role] = k
        counts[VILLAGER] = n_players - sum(v for r, v in counts.items() if r != VILLAGER)
        if counts[VILLAGER] < 0:
            raise SetupError(f"the role counts {counts} need more than {n_players} players")
        return counts

    def start(self, out: Step) -> None:
        g = self.game
        self.start_counts = {r: sum(1 for p in g.players if p.role == r) for r in ROLES}
        c = self.start_counts
        if not c[VAMPIRE] or c[VAMPIRE] == len(g.players):
            raise SetupError("vampire_village needs at least one vampire and one other player")
        if any(c[r] > 1 for r in (SEER, CUPID, WITCH, GUARD, HUNTER, ELDER, PIPER)):
            raise SetupError("vampire_village has at most one of each special role")
        self.lives = {s: self.params.elder_lives for s in self.team(ELDER)}
        out.events.append(ev.Setup(counts=c))
        for p in g.players:
            g.reply(p.seat, "vampire_village/role", out, **self.role_reply_data(p.seat))
        g.post("vampire_village/opening", out, players=[p.name for p in g.players], counts=c, **self._rules_data())

    def _rules_data(self) -> dict[str, Any]:
        p = self.params
        return {"guard_and_save": p.guard_and_save, "tell_charmed": p.tell_charmed, "tie_fallback": p.tie_fallback,
                "reveal": p.reveal_roles_at_death, "elder_lives": p.elder_lives, "team_order": p.team_order,
                "votes": p.votes, "last_words": p.last_words}

    def team(self, role: str) -> list[int]:
        """Every seat dealt ``role`` (dead included), in seat order."""
        return [p.seat for p in self.game.players if p.role == role]

    def role_of(self, seat: int) -> str:
        return self.game.player(seat).role

    def role_reply_data(self, seat: int) -> dict[str, Any]:
        g = self.game
        role = self.role_of(seat)
        mates = [s for s in self.team(VAMPIRE) if s != seat] if role == VAMPIRE else []
        example = next((p.seat for p in g.players if p.seat != seat and p.seat not in mates), seat)
        second = next((p.seat for p in g.players if p.seat not in (seat, example) and p.seat not in mates), seat)
        return {
            "name": g.name(seat), "seat": seat, "role": role, "teammates": g.names(mates),
            "players": [p.name for p in g.players], "verbs": NIGHT_VERBS[role], "counts": self.start_counts,
            "example": g.name(example), "example2": g.name(second), "lover": self._lover_names(seat),
            **self._rules_data(),
        }

    def _lover_names(self, seat: int) -> list[str]:
        return self.game.names(self.links.partners(seat))

    # --- commands ---------------------------------------------------------------------------------
    # Every check of who may act, when and on whom is declared in ACTIONS (module level, above the class);
    # the handlers only record what passed.
    def may_leave_will(self, seat: int) -> bool:
        """The engine's last-words hook."""
        return self.params.last_words

    def _recorded(self, seat: int, cmd: Command, out: Step, verb: str, targets: list[int], replaced: list[int] | None = None,
                  **data: Any) -> None:
        g = self.game
        g.reply(seat, "vampire_village/recorded", out, verb=verb, round=g.phase.round, targets=g.names(targets),
                replaced=g.names(replaced) if replaced else None, read_as=g.read_as(cmd), **data)

    def _link(self, seat: int, cmd: Command, out: Step) -> None:
        a, b = cmd.targets
        previous, self.link_choice = self.link_choice, (a, b)
        out.events.append(ev.LinkOrder(seat=seat, targets=[a, b]))
        self._recorded(seat, cmd, out, "link", [a, b], list(previous) if previous and set(previous) != {a, b} else None)

    def _guard(self, seat: int, cmd: Command, out: Step) -> None:
        g = self.game
        target = cmd.targets[0]
        previous = self.night.order(g, GUARD, [seat], Order(seat, "guard", target), out, "vampire_village/relayed")
        self._recorded(seat, cmd, out, "guard", [target], [previous.target] if previous and previous.target != target else None,
                       myself=target == seat)

    def _check(self, seat: int, cmd: Command, out: Step) -> None:
        g = self.game
        target = cmd.targets[0]
        self.night.use("check", Order(seat, "check", target))
        self._tonight["check"] = target
        out.events.append(ev.Check(seat=seat, target=target, round=g.phase.round))
        g.reply(seat, "vampire_village/seer_result", out, target=g.name(target), role=self.role_of(target),
                round=g.phase.round, read_as=g.read_as(cmd))

    def _kill(self, seat: int, cmd: Command, out: Step) -> None:
        g = self.game
        target = cmd.targets[0]
        previous = self.night.of(VAMPIRE)
        mates = [s for s in self.team(VAMPIRE) if s != seat and g.player(s).alive]
        self.night.order(g, VAMPIRE, self.team(VAMPIRE), Order(seat, "kill", target), out, "vampire_village/relayed",
                         round=g.phase.round)
        self._recorded(seat, cmd, out, "kill", [target], [previous.target] if previous and previous.target != target else None,
                       relayed=g.names(mates))

    def _selfkill(self, seat: int, cmd: Command, out: Step) -> None:
        g = self.game
        self.selfkill = seat
        mates = [s for s in self.team(VAMPIRE) if s != seat and g.player(s).alive]
        out.events.append(ev.SelfkillOrder(seat=seat, round=g.phase.round))
        tell(g, mates, "vampire_village/relayed", out, actor=g.name(seat), verb="selfkill", target=g.name(seat),
             replaced=None, round=g.phase.round)
        self._recorded(seat, cmd, out, "selfkill", [seat], None, relayed=g.names(mates))

    def _witch_order(self, seat: int, cmd: Command, kind: str, target: int, out: Step) -> None:
        g = self.game
        previous = self.night.order(g, WITCH, [seat], Order(seat, kind, target), out, "vampire_village/relayed")
        replaced = [previous.target] if previous and (previous.verb, previous.target) != (kind, target) else None
        self._recorded(seat, cmd, out, kind, [target], replaced, replaced_verb=previous.verb if previous else None,
                       myself=target == seat)

    def _save(self, seat: int, cmd: Command, out: Step) -> None:
        self._witch_order(seat, cmd, "save", cmd.targets[0], out)

    def _poison(self, seat: int, cmd: Command, out: Step) -> None:
        self._witch_order(seat, cmd, "poison", cmd.targets[0], out)

    def _charm(self, seat: int, cmd: Command, out: Step) -> None:
        g = self.game
        targets = tuple(dict.fromkeys(cmd.targets))
        previous, self.charm_choice = self.charm_choice, targets
        out.events.append(ev.CharmOrder(seat=seat, targets=list(targets)))
        self._recorded(seat, cmd, out, "charm", list(targets),
                       list(previous) if previous and set(previous) != set(targets) else None,
                       already=g.names([t for t in targets if t in self.charmed]))

    def _shoot(self, seat: int, cmd: Command, out: Step) -> None:
        target = cmd.targets[0]
        previous, self.window_choice = self.window_choice, target
        out.events.append(ev.ShotOrder(seat=seat, target=target))
        self._recorded(seat, cmd, out, "shoot", [target], [previous] if previous and previous != target else None)

    def _successor(self, seat: int, cmd: Command, out: Step) -> None:
        target = cmd.targets[0]
        previous, self.window_choice = self.window_choice, target
        out.events.append(ev.SuccessorOrder(seat=seat, target=target))
        self._recorded(seat, cmd, out, "successor", [target], [previous] if previous and previous != target else None)

    def _vote(self, seat: int, cmd: Command, out: Step) -> None:
        g = self.game
        kind = g.phase.kind
        target = cmd.targets[0]
        weight = 1.0 if kind == "election" else self.sheriff.weight_of(seat)
        self.vote.cast(seat, (target,), weight=weight)
        out.events.append(ev.Ballot(vote_kind=kind, round=g.phase.round, number=self.vote.number, voter=seat, choice=target, weight=weight))
        self._recorded(seat, cmd, out, "vote", [target], None, election=kind == "election", weight=int(weight))

    # --- phases -----------------------------------------------------------------------------------
    def close_phase(self, out: Step) -> None:
        kind = self.game.phase.kind
        if kind == "prologue":
            self._open_night(1, out)
        elif kind == "cupid":
            self._close_cupid(out)
        elif kind == "night":
            self._close_night(out)
        elif kind == "witch":
            self._dawn(out)
        elif kind == "election":
            self._close_election(out)
        elif kind in ("vote", "runoff"):
            self._close_vote(out)
        elif kind in ("shot", "successor"):
            self._close_window(out)

    def _open_night(self, round_: int, out: Step) -> None:
        g = self.game
        self._tonight = {"round": round_}
        self.selfkill, self.charm_choice, self.kill_target, self.guarded, self.witch_told = None, (), None, None, None
        if round_ == 1 and self.start_counts[CUPID]:
            g.open_phase("cupid", round_, round_, out)
            self.link_choice = None
            g.post("vampire_village/night_open", out, stage="cupid", round=round_, alive=g.names(g.alive()))
            return
        self._open_night_phase(round_, out)

    def _open_night_phase(self, round_: int, out: Step) -> None:
        g = self.game
        g.open_phase("night", round_, round_, out)
        c = self.start_counts
        g.post("vampire_village/night_open", out, stage="night", round=round_, alive=g.names(g.alive()),
               guard=c[GUARD] > 0, seer=c[SEER] > 0, piper=c[PIPER] > 0, selfkill=round_ > 1)

    def _close_cupid(self, out: Step) -> None:
        g = self.game
        pair = self.link_choice
        cupid = self.team(CUPID)
        if pair is not None and cupid and g.player(cupid[0]).alive and all(g.player(s).alive for s in pair):
            a, b = pair
            self.links.link(a, b)
            self._tonight["lovers"] = g.names(pair)
            out.events.append(ev.Lovers(seats=[a, b]))
            g.reply(a, "vampire_village/lovers", out, lover=g.name(b))
            g.reply(b, "vampire_village/lovers", out, lover=g.name(a))
        else:
            out.events.append(ev.Lovers(seats=[]))
        self._open_night_phase(1, out)

    def _close_night(self, out: Step) -> None:
        g = self.game
        kill, guard = self.night.of(VAMPIRE), self.night.of(GUARD)  # the night closes at dawn, after the witch
        if guard is not None and (not g.player(guard.actor).alive or self.powers_lost):
            guard = None
        target = kill.target if kill is not None and g.living(VAMPIRE) and g.player(kill.target).alive else None
        self.kill_target = target
        self.guarded = guard.target if guard else None
        piper = self.team(PIPER)
        if not (piper and g.player(piper[0]).alive and not self.powers_lost):
            self.charm_choice = ()
        self._tonight.update(
            kill=g.name(target) if target else None, guard=g.name(self.guarded) if self.guarded else None,
            check=g.name(self._tonight["check"]) if self._tonight.get("check") else None,
            charm=g.names(self.charm_choice), selfkill=g.name(self.selfkill) if self.selfkill else None,
        )
        if not self.start_counts[WITCH]:
            return self._dawn(out)
        g.open_phase("witch", g.phase.round, g.phase.round, out)
        g.post("vampire_village/night_open", out, stage="witch", round=g.phase.round, alive=g.names(g.alive()))
        witch = self.team(WITCH)[0]
        if g.player(witch).alive and not self.powers_lost and self.potions.any():
            told = None
            if self.potions.has("save") and target is not None and self._would_die(target, saved=False):
                told = target
            if self.potions.has("save") and target is not None and self.params.guard_and_save == "dies" and target == self.guarded \
                    and not self._elder_absorbs(target):
                told = target  # 同守同救: the witch is told the target even when guarded, and saving him kills him
            self.witch_told = told
            g.reply(witch, "vampire_village/prompt", out, kind="witch", round=g.phase.round,
                    victim=g.name(told) if told else None, save=self.potions.has("save"), poison=self.potions.has("poison"))

    def _elder_absorbs(self, seat: int) -> bool:
        """An elder with more than one life left survives a vampire kill by losing one."""
        return self.role_of(seat) == ELDER and self.lives.get(seat, 0) > 1

    def _would_die(self, seat: int, saved: bool) -> bool:
        """Does the vampires' kill on ``seat`` succeed tonight?"""
        if seat == self.guarded:
            return saved and self.params.guard_and_save == "dies"
        if self._elder_absorbs(seat):
            return False
        return not saved

    def _dawn(self, out: Step) -> None:
        g = self.game
        round_ = g.phase.round
        witch = self.night.close((VAMPIRE, GUARD, WITCH)).get(WITCH)
        if witch is not None and (not g.player(witch.actor).alive or self.powers_lost):
            witch = None
        batch: list[tuple[int, str]] = []
        saved = False
        target = self.kill_target
        if witch is not None:
            self.potions.use(witch.verb)
            self._tonight[witch.verb] = g.name(witch.target)
            out.events.append(ev.Potion(vote_kind=witch.verb, target=witch.target, round=round_))
            saved = witch.verb == "save" and witch.target == target
        if target is not None and g.player(target).alive:
            if self.role_of(target) == ELDER and target != self.guarded:
                self.lives[target] -= 1
                out.events.append(ev.ElderLife(seat=target, lives=self.lives[target]))
                if self.lives[target] <= 0:
                    if saved:
                        self.lives[target] = 1
                    else:
                        batch.append((target, "killed"))
            elif self._would_die(target, saved):
                batch.append((target, "killed"))
        if witch is not None and witch.verb == "poison":
            batch.append((witch.target, "poisoned"))
        if self.selfkill is not None:
            batch.append((self.selfkill, "selfkill"))
        self.skip_day = self.selfkill is not None
        charmed_now = [s for s in self.charm_choice if g.player(s).alive and s not in self.charmed]
        self.charmed.update(charmed_now)
        if charmed_now:
            out.events.append(ev.Charmed(seats=charmed_now, round=round_))
        lost_before = self.powers_lost
        dead = self._die(batch, out)
        self._tonight["dead"] = g.names(dead)
        self.nights.append(dict(self._tonight))
        out.events.append(ev.NightClosed(round=round_, target=target, guarded=self.guarded, saved=saved, dead=dead))
        # 「從被殺者的下一位開始…順時針」: from the seat after the first of the dead as announced (never
        # the vampires' victim in particular: that would tell who was poisoned), else from seat 1
        over = self.win_check() is not None
        order = [] if over or self.skip_day else speaking_order(g.alive(), min(dead) if dead else None, len(g.players))
        g.post("vampire_village/day_open", out, round=round_, dead=self._dead_data(dead), skip=self.skip_day,
               election=round_ == 1 and not self.elected, alive=g.names(g.alive()), over=over, order=g.names(order),
               sheriff=g.name(self.sheriff.holder) if self.sheriff.holder else None)
        if self.params.tell_charmed:
            tell(g, [s for s in charmed_now if g.player(s).alive], "vampire_village/charmed", out, round=round_)
        self._tell_powers_lost(lost_before, out)
        if self.check_win(out):
            return
        self.after = "night" if self.skip_day else ("election" if round_ == 1 and not self.elected else "vote")
        self._next(out)

    def _dead_data(self, dead: list[int]) -> list[dict[str, Any]]:
        g = self.game
        return [{"name": g.name(s), "role": self.role_of(s) if self.params.reveal_roles_at_death else None}
                for s in sorted(dead)]

    def _tell_powers_lost(self, before: bool, out: Step) -> None:
        g = self.game
        if self.powers_lost and not before:
            seats = [s for r in POWER_ROLES for s in g.living(r)]
            tell(g, sorted(seats), "vampire_village/powers_lost", out)

    # --- deaths, windows and votes -----------------------------------------------------------------
    def _die(self, batch: list[tuple[int, str]], out: Step) -> list[int]:
        """Everyone in ``batch`` dies (seat, cause), with their lovers; the elder's death by the village
        takes the villagers' powers; the batch queues the hunter's window (:meth:`_shot_window_due`),
        then a window for each sheriff who died. Returns the dead, in order."""
        g = self.game
        dead: list[int] = []
        successors: list[int] = []
        queue = list(batch)
        while queue:
            seat, cause = queue.pop(0)
            if not g.player(seat).alive:
                continue
            g.remove(seat, cause, out)
            dead.append(seat)
            self.deaths.append({"round": g.phase.round, "seat": seat, "how": cause, "phase": g.phase.kind})
            if self.role_of(seat) == ELDER and cause in ("poisoned", "shot", "voted", "drawn") and not self.powers_lost:
                self.powers_lost = True
                out.events.append(ev.PowersLost(elder=seat, cause=cause))
            for partner in self.links.chain([seat], g.alive()):
                queue.append((partner, "lover"))
            if self.sheriff.holder == seat:
                successors.append(seat)
        if dead and self._shot_window_due(dead):
            hunters = [s for s in dead if self.role_of(s) == HUNTER]
            self.windows.add("shot", hunters[0] if hunters else 0)
        for seat in successors:
            self.windows.add("successor", seat)
        return dead

    def _shot_window_due(self, dead: list[int]) -> bool:
        """Does this batch of deaths open a hunter's window? The rulebook's hunter shoots 「立即」 at
        death, but his shot is optional and roles stay hidden (README ruling 2026-12): while the hunter
        is unknown, a window opens after *every* batch of deaths, whoever died, so that the window
        itself tells nobody whether the hunter was among them; it stops once a shot has revealed him.
        When roles are announced at death the hunter is public anyway and only his death opens one."""
        if not self.start_counts.get(HUNTER) or self.hunter_shot:
            return False
        if self.params.reveal_roles_at_death:
            return any(self.role_of(s) == HUNTER for s in dead) and not self.powers_lost
        return True

    def _next(self, out: Step) -> None:
        """Open the next window a death made, or go on with the game (``self.after``)."""
        g = self.game
        while not g.finished:
            w = self.windows.pop()
            if w is None:
                break
            if self._open_window(w, out):
                return
        if g.finished:
            return
        round_ = g.phase.round
        if self.after == "election":
            self._open_vote("election", round_, out)
        elif self.after == "vote":
            self._open_vote("vote", round_, out)
        else:
            self._open_night(round_ + 1, out)

    def _open_window(self, w: Window, out: Step) -> bool:
        g = self.game
        round_ = g.phase.round
        if w.kind == "successor" and (self.sheriff.holder != w.seat or not g.alive()):
            return False
        self.window_choice = None
        g.open_phase(w.kind, round_, round_, out)
        g.post("vampire_village/window_open", out, kind=w.kind, round=round_, name=g.name(w.seat) if w.kind == "successor" else None,
               alive=g.names(g.alive()), hidden=not self.params.reveal_roles_at_death)
        if self._may_shoot(w) or w.kind == "successor":
            g.reply(w.seat, "vampire_village/prompt", out, kind=w.kind, round=round_, victim=None, save=False, poison=False,
                    example=g.name(g.alive()[0]))
        return True

    def _may_shoot(self, w: Window) -> bool:
        """The current window is a hunter's who may shoot (he died in the batch and keeps his power)."""
        return w.kind == "shot" and w.seat > 0 and not self.powers_lost

    def _close_window(self, out: Step) -> None:
        g = self.game
        w = self.windows.current
        assert w is not None
        choice = self.window_choice if self.window_choice is not None and g.player(self.window_choice).alive else None
        self.window_choice = None
        if w.kind == "shot":
            if not self._may_shoot(w):
                choice = None
            out.events.append(ev.Shot(seat=w.seat, target=choice))
            if choice is not None:  # only a shot is announced: no shot says nothing (README ruling 2026-12)
                self.hunter_shot = True
                lost_before = self.powers_lost
                dead = self._die([(choice, "shot")], out)
                g.post("vampire_village/window_result", out, kind="shot", round=g.phase.round, how="named",
                       chosen=g.name(choice), dead=self._dead_data(dead), name=None)
                self._tell_powers_lost(lost_before, out)
                if self.check_win(out):
                    return
        else:
            how = "named"
            if choice is None:
                living = g.alive()
                choice = seeded_draw(g, living, f"successor:{w.seat}:{g.phase.id}", out) if living else None
                how = "drawn"
            if choice is not None:
                self.sheriff.give(choice, how, out)
            else:
                self.sheriff.vacate()
            g.post("vampire_village/window_result", out, kind="successor", round=g.phase.round, how=how,
                   chosen=g.name(choice) if choice else None, dead=[], name=g.name(w.seat))
        self._next(out)

    def _open_vote(self, kind: str, round_: int, out: Step) -> None:
        g = self.game
        self.vote = Vote(ELECTION if kind == "election" else
                         replace(DAY_VOTE, votes=self.params.votes, last_tie=self.params.tie_fallback))
        g.open_phase(kind, round_, round_, out)
        g.post("vampire_village/vote_open", out, kind=kind, round=round_, number=1, candidates=[],
               alive=g.names(g.alive()), sheriff=g.name(self.sheriff.holder) if self.sheriff.holder else None,
               votes=self.params.votes, fallback=self.params.tie_fallback, last=self.vote.runoffs_left == 0)

    def _reopen_vote(self, kind: str, tied: tuple[int, ...], out: Step) -> None:
        g = self.game
        round_ = g.phase.round
        self.vote.next(tied)
        g.open_phase(kind, round_, round_, out)
        g.post("vampire_village/vote_open", out, kind=kind, round=round_, number=self.vote.number, candidates=g.names(tied),
               alive=g.names(g.alive()), sheriff=g.name(self.sheriff.holder) if self.sheriff.holder else None,
               votes=self.params.votes, fallback=self.params.tie_fallback, last=self.vote.runoffs_left == 0)

    def _post_result(self, kind: str, outcome: VoteOutcome, result: str, chosen: int | None, dead: list[int], out: Step) -> None:
        g = self.game
        counts = outcome.counts
        g.post(
            "vampire_village/vote_result", out, kind=kind, round=g.phase.round, number=outcome.number, result=result,
            ballots=[{"voter": g.name(b.voter), "choice": g.name(b.choices[0]), "weight": int(b.weight)} for b in outcome.ballots],
            counts=[{"name": g.name(s), "votes": int(v)} for s, v in counts],
            chosen=g.name(chosen) if chosen else None, tied=g.names(outcome.tied), dead=self._dead_data(dead),
            missing=g.names([s for s in g.alive() if s not in {b.voter for b in outcome.ballots} and s not in dead]),
        )

    def _close_election(self, out: Step) -> None:
        g = self.game
        outcome = self.vote.close(g.alive())
        out.events.append(ev.VoteClosed(vote_kind="election", number=outcome.number, result=outcome.kind, chosen=outcome.chosen, tied=list(outcome.tied)))
        decision = self.vote.decide(g, outcome, f"sheriff:{outcome.number}", out)
        result = "elected" if decision.how == "decided" else decision.how
        chosen = decision.chosen
        self._post_result("election", outcome, result, chosen, [], out)
        if result == "runoff":
            return self._reopen_vote("election", outcome.tied, out)
        self.elected = True
        if chosen is not None:
            self.sheriff.give(chosen, result, out)
        self.after = "vote"
        self._next(out)

    def _close_vote(self, out: Step) -> None:
        g = self.game
        round_ = g.phase.round
        outcome = self.vote.close(g.alive())
        out.events.append(ev.VoteClosed(vote_kind="vote", number=outcome.number, result=outcome.kind, chosen=outcome.chosen, tied=list(outcome.tied)))
        decision = self.vote.decide(g, outcome, f"tie:{round_}", out)
        result, chosen = decision.how, decision.chosen
        lost_before = self.powers_lost
        dead = self._die([(chosen, "voted" if result == "decided" else "drawn")], out) if chosen is not None else []
        self._post_result("vote", outcome, result, chosen, dead, out)
        self._tell_powers_lost(lost_before, out)
        if dead and self.check_win(out):
            return
        if result == "runoff":
            return self._reopen_vote("runoff", outcome.tied, out)
        self.after = "night"
        self._next(out)

    # --- the end ----------------------------------------------------------------------------------
    def won(self, seat: int) -> bool:
        """A piper's or the lovers' win is theirs alone; otherwise the winning side's members win."""
        g = self.game
        if g.winner == PIPER_WIN:
            return g.player(seat).role == PIPER
        if g.winner == LOVERS:
            return seat in (self.mixed_lovers() or ())
        return super().won(seat)

    def mixed_lovers(self) -> tuple[int, int] | None:
        """The lovers when they are a vampire and a villager, else None."""
        for a, b in self.links.pairs:
            if FACTION[self.role_of(a)] != FACTION[self.role_of(b)]:
                return a, b
        return None

    def win_check(self) -> tuple[str, str] | None:
        """(winner, reason) when someone has won, else None. In order: the piper (alive, every other
        living player charmed), the lovers (a vampire–villager pair, the last two alive), the villagers
        (every vampire dead), the vampires (every ordinary villager and the elder dead)."""
        g = self.game
        alive = g.alive()
        piper = g.living(PIPER)
        if piper and len(alive) > 1 and all(s in self.charmed for s in alive if s != piper[0]):
            return PIPER_WIN, "all_charmed"
        mixed = self.mixed_lovers()
        if mixed is not None and set(alive) == set(mixed):
            return LOVERS, "lovers_last"
        if not g.living(VAMPIRE):
            return VILLAGERS, "vampires_dead"
        if not g.living(VILLAGER) and not g.living(ELDER):
            return VAMPIRES, "villagers_dead"
        return None

    def finish_game(self, winner: Winner, reason: str | None, out: Step) -> None:
        self.windows.clear()  # no death window stays open after the end
        super().finish_game(winner, reason, out)

    def on_removed(self, seat: int, out: Step) -> None:
        """A player removed by the organiser: his lover dies with him, a sheriff's badge is drawn at
        once, then the win check (no hunter's shot)."""
        g = self.game
        if g.finished:
            return
        dead = [seat] + self.links.chain([seat], g.alive())
        for s in dead[1:]:
            g.remove(s, "lover", out)
            self.deaths.append({"round": g.phase.round, "seat": s, "how": "lover", "phase": g.phase.kind})
        self.deaths.append({"round": g.phase.round, "seat": seat, "how": "penalty", "phase": g.phase.kind})
        if self.sheriff.holder in dead and g.alive():
            self.sheriff.give(seeded_draw(g, g.alive(), f"successor:{seat}:{g.phase.id}", out), "drawn", out)
        self.check_win(out)

    def end_now(self, out: Step) -> None:
        self.finish_game(None, None, out)

    def winners(self) -> set[int]:
        """The seats that won (empty when nobody did)."""
        g = self.game
        w = g.winner
        mixed = set(self.mixed_lovers() or ())
        if w == PIPER_WIN:
            return set(self.team(PIPER))
        if w == LOVERS:
            return mixed
        if w in (VILLAGERS, VAMPIRES):
            return {p.seat for p in g.players if FACTION[p.role] == w and p.seat not in mixed}
        return set()

    def scores(self) -> dict[int, int]:
        """Base = vampires at the start, ×2 when the piper or the lovers win; winners gain it, losers lose it."""
        g = self.game
        if g.winner is None:
            return {p.seat: 0 for p in g.players}
        final = self.start_counts[VAMPIRE] * (2 if g.winner in (PIPER_WIN, LOVERS) else 1)
        won = self.winners()
        return {p.seat: final if p.seat in won else -final for p in g.players}

    def final_data(self) -> dict[str, Any]:
        """The final post: the winner and why, every player's role, fate and score, the lovers, the
        sheriffs and each night's actions."""
        g = self.game
        died = {d["seat"]: d for d in self.deaths}
        scores, won = self.scores(), self.winners()
        players = []
        for p in g.players:
            d = died.get(p.seat)
            players.append({
                "seat": p.seat, "name": p.name, "role": p.role, "alive": p.alive, "out": p.out_reason,
                "round": d["round"] if d else None, "won": p.seat in won, "score": scores[p.seat],
                "lover": bool(self.links.partners(p.seat)), "charmed": p.seat in self.charmed,
                "sheriff": p.seat == self.sheriff.holder,
            })
        return {"winner": g.winner, "reason": self.win_reason, "players": players, "nights": self.nights,
                "lovers": [g.names(pair) for pair in self.links.pairs],
                "sheriffs": [{"name": g.name(s), "how": how} for s, how in self.sheriff.history],
                "base": self.start_counts[VAMPIRE], "powers_lost": self.powers_lost}

    # --- reporting --------------------------------------------------------------------------------
    def status_data(self, seat: int) -> dict[str, Any]:
        g = self.game
        role = self.role_of(seat)
        kind = g.phase.kind
        data: dict[str, Any] = {
            "phase": kind, "round": g.phase.round, "alive": g.player(seat).alive, "role": role,
            "teammates": self.role_reply_data(seat)["teammates"], "lover": self._lover_names(seat),
            "charmed": seat in self.charmed if self.params.tell_charmed else False,
            "sheriff": g.name(self.sheriff.holder) if self.sheriff.holder else None,
            "powers_lost": self.powers_lost and role in POWER_ROLES,
            "order": None, "vote": None, "potions": self.potions.left() if role == WITCH else None,
            "lives": self.lives.get(seat) if role == ELDER else None,
        }
        order = None
        if kind == "night" and role == VAMPIRE:
            o = self.night.of(VAMPIRE)
            order = {"verb": "kill", "targets": [g.name(o.target)]} if o else None
            if self.selfkill is not None:
                data["selfkill"] = g.name(self.selfkill)
        elif kind == "night" and role == GUARD and (o := self.night.of(GUARD)):
            order = {"verb": "guard", "targets": [g.name(o.target)]}
        elif kind == "night" and role == SEER and (o := self.night.once("check")):
            order = {"verb": "check", "targets": [g.name(o.target)]}
        elif kind == "night" and role == PIPER and self.charm_choice:
            order = {"verb": "charm", "targets": g.names(self.charm_choice)}
        elif kind == "cupid" and role == CUPID and self.link_choice:
            order = {"verb": "link", "targets": g.names(self.link_choice)}
        elif kind == "witch" and role == WITCH and (o := self.night.of(WITCH)):
            order = {"verb": o.verb, "targets": [g.name(o.target)]}
        elif kind in ("shot", "successor") and self.windows.current and self.windows.current.seat == seat and self.window_choice:
            order = {"verb": "shoot" if kind == "shot" else "successor", "targets": [g.name(self.window_choice)]}
        data["order"] = order
        data.setdefault("selfkill", None)
        if kind in ("election", "vote", "runoff"):
            ballot = self.vote.ballot_of(seat)
            data["vote"] = g.name(ballot.choices[0]) if ballot else None
        return data

    def summary(self) -> dict[str, Any]:
        g = self.game
        scores = self.scores()
        order = sorted(set(scores.values()), reverse=True)
        return {"winner": g.winner, "reason": self.win_reason, "scores": scores,
                "ranks": {s: order.index(v) + 1 for s, v in scores.items()}}
