"""What a player of vampire_village (吸血鬼村莊) may do, when and on whom (:mod:`forumbot.engine.actions`),
the two votes (:mod:`forumbot.engine.votes`) and what an accepted order records.

Rulebook: 《吸血鬼村莊》; rulings where it is open: docs/vampire_village.md. Night orders go by PM and take
effect when the night (or the witch's phase) closes; the votes are PMs too. The judge of 吸血鬼村莊 checks
the phase before the power: a lost power is told only in its phase (:data:`_GATE`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from forumbot.engine.actions import (
    Action,
    Check,
    Count,
    Distinct,
    GateStep,
    Refusal,
    Standing,
    StandingOf,
    living,
    named,
    not_self,
)
from forumbot.engine.night import tell
from forumbot.engine.orders import Order
from forumbot.engine.votes import VoteRule
from forumbot.language.types import Command
from forumbot.rulesets.vampire_village import events as ev
from forumbot.rulesets.vampire_village import windows
from forumbot.rulesets.vampire_village.roles import CUPID, GUARD, PIPER, POWER_ROLES, SEER, VAMPIRE, WITCH

if TYPE_CHECKING:
    from forumbot.engine.types import Step
    from forumbot.rulesets.vampire_village import VampireVillage

#: The sheriff election (【角色分配】 10: 「由大家投票選出…一旦選出，此人不可以拒絕」; 【游戲流程】 10: 「必須要有
#: 警長」): a tie: revote among the tied; tied again: a seeded draw among them (docs/vampire_village.md); nobody
#: voting is settled by a seeded draw among the candidates, as the title must exist.
ELECTION = VoteRule("sheriff election", votes=2, last_tie="draw", no_votes="draw")
#: The day vote (【游戲規則】 5: 「被指票數最多者講被判定死亡。如果玩家票數相同，則票數相同的最高票玩家開始發言進行PK.
#: 然後玩家再次投票」); tied again: nobody (config); 「所有玩家都沒有投票，則進入天黑」; the sheriff's ballot counts
#: double (「警長有雙倍投票的功能（即一票算兩票）」). ``votes`` and ``last_tie`` come from the parameters.
DAY_VOTE = VoteRule("day vote", votes=2, last_tie="nobody")

#: the judge of 吸血鬼村莊 checks the phase before the power (a lost power is told only in its phase)
_GATE: tuple[GateStep, ...] = ("role", "alive", "phase", "who")


# --- the checks --------------------------------------------------------------------------------------------
def _has_power(rs: VampireVillage, seat: int) -> bool:
    """「當長老被女巫毒殺、獵人獵殺、投票推出時直接死亡，若是如此，則村民所有特殊能力消失」."""
    return not (rs.role_of(seat) in POWER_ROLES and rs.powers_lost)


#: 「戀人之間永遠不能互指互殺」: lovers never vote for nor target each other
_NOT_LOVER = named("lover", lambda rs, seat, t: not rs.links.linked(seat, t))
_ONE_LIVING = (Count(1, 1), living())


def _already_checked(rs: VampireVillage, seat: int, cmd: Command) -> Refusal | None:
    """「每晚可以確認一個人的真實身份」: one check a night, the first stands."""
    done = rs.night.once("check")
    return None if done is None else Refusal("already_checked", {"target": rs.game.name(done.target),
                                                                  "role": rs.role_of(done.target)})


def _order_taken(rs: VampireVillage, seat: int, cmd: Command) -> Refusal | None:
    """With ``team_order`` "first" the vampires' first order stands."""
    previous = rs.night.of(VAMPIRE)
    if previous is None or rs.params.team_order != "first":
        return None
    return Refusal("order_taken", {"target": rs.game.name(previous.target), "by": rs.game.name(previous.actor)})


def _may_selfkill(rs: VampireVillage, seat: int, cmd: Command) -> Refusal | None:
    """「第一天不可以自殺、每輪最多一個吸血鬼可以自殺、如果剩下最後一個吸血鬼則不可以自殺」."""
    g = rs.game
    if g.phase.round == 1:
        return Refusal("selfkill_first_night")
    if rs.selfkill is not None:
        return Refusal("selfkill_taken", {"by": g.name(rs.selfkill)})
    if len(g.living(VAMPIRE)) < 2:
        return Refusal("selfkill_last")
    return None


def _potion(kind: str) -> Check:
    """「整個游戲，兩種藥只能各使用一次」."""
    def check(rs: VampireVillage, seat: int, cmd: Command) -> Refusal | None:
        return None if rs.potions.has(kind) else Refusal("no_potion", {"potion": kind})
    return check


def _charm_targets(rs: VampireVillage, seat: int, cmd: Command) -> Refusal | None:
    """「每天晚上可以選擇對最多對兩個人施魔法…吹笛者不得對自己施魔法」: one or two players (a name written twice
    counts once), neither the piper nor a dead player."""
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


def _shot_power(rs: VampireVillage, seat: int, cmd: Command) -> Refusal | None:
    return Refusal("powers_lost") if rs.powers_lost else None


def _already_voted(rs: VampireVillage, seat: int, cmd: Command) -> Refusal | None:
    existing = rs.vote.ballot_of(seat)
    return None if existing is None else Refusal("already_voted", {"target": rs.game.name(existing.choices[0])})


def _may_save(rs: VampireVillage) -> bool:
    """The witch holds the antidote and was told a victim to save tonight (her prompt; None: nobody will die
    by the vampires as far as she can know, and there is nothing to save)."""
    return rs.potions.has("save") and rs.witch_told is not None


def _witch_owes(rs: VampireVillage, seat: int) -> bool:
    return rs.night.of(WITCH) is None and (_may_save(rs) or rs.potions.has("poison"))


# --- what an accepted order records ----------------------------------------------------------------------
def _recorded(rs: VampireVillage, seat: int, cmd: Command, out: Step, verb: str, targets: list[int],
              replaced: list[int] | None = None, **data: Any) -> None:
    """The confirmation reply of an order (``replaced``: what it replaced)."""
    g = rs.game
    g.reply(seat, "vampire_village/recorded", out, verb=verb, round=g.phase.round, targets=g.names(targets),
            replaced=g.names(replaced) if replaced else None, read_as=g.read_as(cmd), **data)


def _replaced(previous: Order | None, target: int) -> list[int] | None:
    return [previous.target] if previous and previous.target != target else None


def link_order(rs: VampireVillage, seat: int, cmd: Command, out: Step) -> None:
    """The cupid's two lovers (「可以包括他自己」); a later order replaces the earlier one."""
    a, b = cmd.targets
    previous, rs.link_choice = rs.link_choice, (a, b)
    out.events.append(ev.LinkOrder(seat=seat, targets=[a, b]))
    _recorded(rs, seat, cmd, out, "link", [a, b], list(previous) if previous and set(previous) != {a, b} else None)


def guard_order(rs: VampireVillage, seat: int, cmd: Command, out: Step) -> None:
    """The guard's choice tonight (「包括自己」)."""
    target = cmd.targets[0]
    previous = rs.night.order(rs.game, GUARD, [seat], Order(seat, "guard", target), out, "vampire_village/relayed")
    _recorded(rs, seat, cmd, out, "guard", [target], _replaced(previous, target), myself=target == seat)


def check_role(rs: VampireVillage, seat: int, cmd: Command, out: Step) -> None:
    """The seer learns the role at once (「只有自己知道」)."""
    g = rs.game
    target = cmd.targets[0]
    rs.night.use("check", Order(seat, "check", target))
    rs.tonight["check"] = target
    out.events.append(ev.Check(seat=seat, target=target, round=g.phase.round))
    g.reply(seat, "vampire_village/seer_result", out, target=g.name(target), role=rs.role_of(target),
            round=g.phase.round, read_as=g.read_as(cmd))


def kill_order(rs: VampireVillage, seat: int, cmd: Command, out: Step) -> None:
    """The vampires' kill, relayed to the other living vampires (「吸血鬼可以看到自己和吸血鬼同伴的身份」)."""
    g = rs.game
    target = cmd.targets[0]
    previous = rs.night.of(VAMPIRE)
    mates = [s for s in rs.team(VAMPIRE) if s != seat and g.player(s).alive]
    rs.night.order(g, VAMPIRE, rs.team(VAMPIRE), Order(seat, "kill", target), out, "vampire_village/relayed",
                   round=g.phase.round)
    _recorded(rs, seat, cmd, out, "kill", [target], _replaced(previous, target), relayed=g.names(mates))


def selfkill_order(rs: VampireVillage, seat: int, cmd: Command, out: Step) -> None:
    """A vampire's self-kill tonight, relayed to the other living vampires."""
    g = rs.game
    rs.selfkill = seat
    mates = [s for s in rs.team(VAMPIRE) if s != seat and g.player(s).alive]
    out.events.append(ev.SelfkillOrder(seat=seat, round=g.phase.round))
    tell(g, mates, "vampire_village/relayed", out, actor=g.name(seat), verb="selfkill", target=g.name(seat),
         replaced=None, round=g.phase.round)
    _recorded(rs, seat, cmd, out, "selfkill", [seat], None, relayed=g.names(mates))


def potion_order(rs: VampireVillage, seat: int, cmd: Command, out: Step) -> None:
    """The witch's potion tonight, save or poison (「一個晚上只能最多使用一次藥」: a later order replaces it)."""
    kind, target = cmd.verb, cmd.targets[0]
    previous = rs.night.order(rs.game, WITCH, [seat], Order(seat, kind, target), out, "vampire_village/relayed")
    replaced = [previous.target] if previous and (previous.verb, previous.target) != (kind, target) else None
    _recorded(rs, seat, cmd, out, kind, [target], replaced, replaced_verb=previous.verb if previous else None,
              myself=target == seat)


def charm_order(rs: VampireVillage, seat: int, cmd: Command, out: Step) -> None:
    """The piper's charms tonight; the reply names those already charmed."""
    g = rs.game
    targets = tuple(dict.fromkeys(cmd.targets))
    previous, rs.charm_choice = rs.charm_choice, targets
    out.events.append(ev.CharmOrder(seat=seat, targets=list(targets)))
    _recorded(rs, seat, cmd, out, "charm", list(targets), list(previous) if previous and set(previous) != set(targets) else None,
              already=g.names([t for t in targets if t in rs.charmed]))


def shot_order(rs: VampireVillage, seat: int, cmd: Command, out: Step) -> None:
    """The hunter's shot, taken when his window closes."""
    target = cmd.targets[0]
    previous, rs.window_choice = rs.window_choice, target
    out.events.append(ev.ShotOrder(seat=seat, target=target))
    _recorded(rs, seat, cmd, out, "shoot", [target], [previous] if previous and previous != target else None)


def successor_order(rs: VampireVillage, seat: int, cmd: Command, out: Step) -> None:
    """The dead sheriff's successor, named when his window closes."""
    target = cmd.targets[0]
    previous, rs.window_choice = rs.window_choice, target
    out.events.append(ev.SuccessorOrder(seat=seat, target=target))
    _recorded(rs, seat, cmd, out, "successor", [target], [previous] if previous and previous != target else None)


def ballot(rs: VampireVillage, seat: int, cmd: Command, out: Step) -> None:
    """A ballot of the election or the day vote (the sheriff's counts double in the day vote)."""
    g = rs.game
    kind = g.phase.kind
    target = cmd.targets[0]
    weight = 1.0 if kind == "election" else rs.sheriff.weight_of(seat)
    rs.vote.cast(seat, (target,), weight=weight)
    out.events.append(ev.Ballot(vote_kind=kind, round=g.phase.round, number=rs.vote.number, voter=seat, choice=target,
                                weight=weight))
    _recorded(rs, seat, cmd, out, "vote", [target], None, election=kind == "election", weight=int(weight))


# --- what each records (the status reply) ---------------------------------------------------------------
def _team_order(team: str) -> StandingOf:
    """The order standing for ``team`` tonight (the vampires': the team's, relayed to each of them)."""
    def standing(rs: VampireVillage, seat: int) -> Standing | None:
        o = rs.night.of(team)
        return Standing((o.target,)) if o else None
    return standing


def _link(rs: VampireVillage, seat: int) -> Standing | None:
    return Standing(rs.link_choice) if rs.link_choice else None


def _selfkill(rs: VampireVillage, seat: int) -> Standing | None:
    """Tonight's self-kill, his or a fellow vampire's (relayed to them all; one a night)."""
    return Standing((rs.selfkill,)) if rs.selfkill is not None else None


def _checked(rs: VampireVillage, seat: int) -> Standing | None:
    """Tonight's check and its answer (the role he was told at once: the note)."""
    o = rs.night.once("check")
    return Standing((o.target,), note=rs.role_of(o.target)) if o else None


def _charm(rs: VampireVillage, seat: int) -> Standing | None:
    return Standing(rs.charm_choice) if rs.charm_choice else None


def _potion_given(kind: str) -> StandingOf:
    """The witch's potion tonight when it is ``kind`` (one potion a night: the other's line is then empty)."""
    def standing(rs: VampireVillage, seat: int) -> Standing | None:
        o = rs.night.of(WITCH)
        return Standing((o.target,)) if o and o.verb == kind else None
    return standing


def _ballot(rs: VampireVillage, seat: int) -> Standing | None:
    """His ballot in this vote (note "double": the sheriff's in the day vote)."""
    b = rs.vote.ballot_of(seat)
    return Standing(tuple(b.choices), note="double" if b.weight > 1 else None) if b else None


def _window_choice(rs: VampireVillage, seat: int) -> Standing | None:
    """His choice in his own death window (the shot, the successor)."""
    return Standing((rs.window_choice,)) if rs.window_choice is not None else None


def _night(key: str, verbs: tuple[str, ...], handler: Any, role: str, phase: str = "night", **kw: Any) -> Action:
    """A night action of ``role``: role, alive, phase (named in the refusal), power."""
    return Action(key, verbs, handler, phases=(phase,), roles=(role,), phase_data={"expected": phase}, who=_has_power,
                  who_reason="powers_lost", order=_GATE, **kw)


def _window(key: str, verbs: tuple[str, ...], handler: Any, kind: str, **kw: Any) -> Action:
    """The action of a death window (the hunter's shot, the sheriff's successor): the window's player, dead or alive."""
    return Action(key, verbs, handler, phases=(kind,), alive=None, phase_data={"expected": kind},
                  who=lambda rs, seat: rs.windows.current is not None and rs.windows.current.seat == seat,
                  who_reason="not_your_window", who_data={"expected": kind}, order=_GATE,
                  owes=lambda rs, seat: rs.window_choice is None and (kind == "successor" or windows.may_shoot(rs, rs.windows.current)),
                  standing=_window_choice, **kw)


ACTIONS = (
    _night("link", ("link",), link_order, CUPID, "cupid",
           targets=(Count(2, 2, "two_targets"), Distinct("same_twice", lambda rs, seat, cmd: {"target": rs.game.name(cmd.targets[0])}),
                    living()),
           standing=_link, owes=lambda rs, seat: rs.link_choice is None, offers_self=True),
    _night("kill", ("kill",), kill_order, VAMPIRE, targets=(*_ONE_LIVING, not_self("kill_self"), _NOT_LOVER),
           checks=(_order_taken,), standing=_team_order(VAMPIRE), owes=lambda rs, seat: rs.night.of(VAMPIRE) is None),
    _night("selfkill", ("selfkill",), selfkill_order, VAMPIRE, checks=(_may_selfkill,), standing=_selfkill,
           help=lambda rs, seat: None if rs.game.phase.round == 1 else "selfkill"),
    _night("check", ("check",), check_role, SEER, targets=(*_ONE_LIVING, not_self("check_self")),
           again="refused", already=_already_checked, standing=_checked,
           owes=lambda rs, seat: rs.night.once("check") is None),
    # 「不可以連續兩晚守護同一個人」
    _night("guard", ("guard",), guard_order, GUARD,
           targets=(*_ONE_LIVING, named("repeat_guard", lambda rs, seat, t: not rs.night.repeats(GUARD, t))),
           standing=_team_order(GUARD), owes=lambda rs, seat: rs.night.of(GUARD) is None, offers_self=True),
    _night("charm", ("charm",), charm_order, PIPER, targets=(_charm_targets,), standing=_charm,
           owes=lambda rs, seat: not rs.charm_choice, offer_most=lambda rs, seat: 2),
    # 「如果當晚有被吸血鬼殺死的玩家，女巫可以選擇用解藥救他」: the victim she was told, and only him
    _night("save", ("save",), potion_order, WITCH, "witch",
           targets=(_potion("save"), *_ONE_LIVING,
                    named("not_victim", lambda rs, seat, t: t == rs.witch_told,
                          victim=lambda rs: rs.game.name(rs.witch_told) if rs.witch_told else None)),
           help=lambda rs, seat: "save" if _may_save(rs) else None, standing=_potion_given("save"),
           owes=_witch_owes, offers_self=True),
    _night("poison", ("poison",), potion_order, WITCH, "witch", targets=(_potion("poison"), *_ONE_LIVING, _NOT_LOVER),
           help=lambda rs, seat: "poison" if rs.potions.has("poison") else None, standing=_potion_given("poison"),
           owes=_witch_owes),
    Action("vote", ("vote",), ballot, phases=("election", "vote", "runoff"), phase_data={"expected": "vote"}, order=_GATE,
           targets=(*_ONE_LIVING, named("not_candidate", lambda rs, seat, t: rs.vote.eligible(t),
                                        candidates=lambda rs: rs.game.names(rs.vote.candidates or ())), _NOT_LOVER),
           again="refused", already=_already_voted, standing=_ballot, owes=lambda rs, seat: rs.vote.ballot_of(seat) is None),
    _window("shoot", ("shoot", "take"), shot_order, "shot",
            targets=(_shot_power, *_ONE_LIVING, not_self("target_self"), _NOT_LOVER),
            help=lambda rs, seat: "shoot" if windows.may_shoot(rs, rs.windows.current) else None),
    _window("successor", ("successor",), successor_order, "successor", targets=(*_ONE_LIVING, not_self("target_self"))),
)
