"""What the players of killer_club (殺人遊戲) may do, declared once (:mod:`forumbot.engine.actions`): the
day vote, the night actions of each role, the night victim's choice, and what each records and tells.

Every check of who may act, when and on whom is declared here; the handlers only carry out what passed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from forumbot.engine.actions import Action, Count, Refusal, Standing, living, named, not_self
from forumbot.engine.night import tell
from forumbot.engine.orders import Order
from forumbot.engine.votes import VoteRule
from forumbot.language.types import Command
from forumbot.rulesets.killer_club import events as ev
from forumbot.rulesets.killer_club.roles import HELPER, KILLER, NURSE, POLICE

if TYPE_CHECKING:
    from forumbot.engine.types import Step
    from forumbot.rulesets.killer_club import KillerClub

#: The day vote (the rulings, docs/killer_club.md): 「one vote each, no abstention; the most votes is executed. A tie: the
#: tied players plead and everyone alive votes again, among the tied only; tied again: everyone speaks again
#: and a third vote among the tied; a third tie: that night's victim names one of the tied to die with them
#: ... No night victim that night: nobody is executed (config: a seeded draw among the tied)」. ``votes`` and
#: the last tie's policy (the night victim as chooser, else ``tie_fallback``; ``tie_fallback`` again when the
#: chooser names nobody in time) are set when the day opens.
DAY_VOTE = VoteRule("day vote", votes=3, last_tie="chooser", change="first_stands", abstain=False)


# --- the checks -------------------------------------------------------------------------------------
def _already_checked(rs: KillerClub, seat: int, cmd: Command) -> Refusal | None:
    """One check a night per team (police; helper): the second is told the first's answer."""
    g = rs.game
    role = g.player(seat).role
    done = rs.night.once(f"check:{role}")
    if done is None:
        return None
    return Refusal("already_checked", {
        "target": g.name(done.target), "by": g.name(done.actor),
        "is_killer": g.player(done.target).role == KILLER if role == POLICE or rs.helper_waiting is None else None})


def _already_asked(rs: KillerClub, seat: int, cmd: Command) -> Refusal | None:
    done = rs.night.once("ask")
    if done is None:
        return None
    return Refusal("already_asked", {"target": rs.game.name(done.target), "is_police": rs.game.player(done.target).role == POLICE})


def _ask_before_save(rs: KillerClub, seat: int, cmd: Command) -> Refusal | None:
    """The nurse may not ask once she has saved someone tonight without asking (a gate: her help and status
    no longer offer the question then; once she has asked, a second question is told the first answer)."""
    night = rs.night
    return Refusal("ask_after_save") if night.of(NURSE) is not None and night.once("ask") is None else None


def _already_voted(rs: KillerClub, seat: int, cmd: Command) -> Refusal | None:
    existing = rs.vote.ballot_of(seat)
    if existing is None or rs.vote.allow_change:
        return None
    return Refusal("already_voted", {"target": rs.game.name(existing.choices[0])})


# --- the handlers: what an accepted command records and tells --------------------------------------
def _kill(rs: KillerClub, seat: int, cmd: Command, out: Step) -> None:
    """The killers' order, relayed to the living killers (the last from any of them stands); a helper
    waiting for the kill is answered now."""
    g = rs.game
    target = cmd.targets[0]
    previous = rs.night.of(KILLER)
    mates = [s for s in rs.team(KILLER) if s != seat and g.player(s).alive]
    g.reply(
        seat, "killer_club/order_recorded", out, verb="kill", round=g.phase.round, target=g.name(target),
        replaced=g.name(previous.target) if previous and previous.target != target else None, relayed=g.names(mates),
        read_as=g.read_as(cmd),
    )
    rs.night.order(g, KILLER, rs.team(KILLER), Order(seat, "kill", target), out, "killer_club/order_relayed", round=g.phase.round)
    if rs.helper_waiting is not None:
        answer_helper(rs, out)


def _check(rs: KillerClub, seat: int, cmd: Command, out: Step) -> None:
    """A check: the police's answer at once to every living police (「警察互相知道身份」); the helper's
    once the killers have ordered the night's kill (「殺助在每輪殺手暗殺后可以密語向法官指認一人」)."""
    g = rs.game
    target = cmd.targets[0]
    role = g.player(seat).role
    key = f"check:{role}"
    order = Order(seat, "check", target)
    rs.night.use(key, order)
    rs.tonight[key] = order
    out.events.append(ev.Check(role=role, seat=seat, target=target, round=g.phase.round))
    if role == POLICE:
        living = [s for s in rs.team(POLICE) if g.player(s).alive]
        tell(
            g, living, "killer_club/check_result", out, role=POLICE, by=g.name(seat), target=g.name(target),
            is_killer=g.player(target).role == KILLER, round=g.phase.round, read_as=g.read_as(cmd),
        )
    elif rs.night.of(KILLER) is not None:
        rs.helper_waiting = order
        answer_helper(rs, out, read_as=g.read_as(cmd))
    else:
        rs.helper_waiting = order
        g.reply(seat, "killer_club/check_waiting", out, target=g.name(target), round=g.phase.round, read_as=g.read_as(cmd))


def answer_helper(rs: KillerClub, out: Step, read_as: list[dict[str, str]] | None = None) -> None:
    """The helper's check, answered once the killers have ordered the night's kill (or at the
    night's deadline when they never do)."""
    g = rs.game
    order, rs.helper_waiting = rs.helper_waiting, None
    if order is None or not g.player(order.actor).alive:
        return
    g.reply(
        order.actor, "killer_club/check_result", out, role=HELPER, by=g.name(order.actor), target=g.name(order.target),
        is_killer=g.player(order.target).role == KILLER, round=g.phase.round, read_as=read_as or [],
    )


def _ask(rs: KillerClub, seat: int, cmd: Command, out: Step) -> None:
    """The nurse's question, answered at once: is the target police."""
    g = rs.game
    target = cmd.targets[0]
    order = Order(seat, "ask", target)
    rs.night.use("ask", order)
    rs.tonight["ask"] = order
    out.events.append(ev.Ask(seat=seat, target=target, round=g.phase.round))
    g.reply(seat, "killer_club/ask_result", out, target=g.name(target), is_police=g.player(target).role == POLICE,
            round=g.phase.round, read_as=g.read_as(cmd))


def _save(rs: KillerClub, seat: int, cmd: Command, out: Step) -> None:
    """The nurse's save (herself allowed; a later one replaces it)."""
    g = rs.game
    target = cmd.targets[0]
    previous = rs.night.order(g, NURSE, [seat], Order(seat, "save", target), out, "killer_club/order_relayed")
    g.reply(seat, "killer_club/save_recorded", out, target=g.name(target), myself=target == seat,
            replaced=g.name(previous.target) if previous and previous.target != target else None, round=g.phase.round,
            read_as=g.read_as(cmd))


def _vote(rs: KillerClub, seat: int, cmd: Command, out: Step) -> None:
    """A day vote (by PM, or in the thread with ``vote_in_thread``)."""
    g = rs.game
    target = cmd.targets[0]
    rs.vote.cast(seat, (target,))
    out.events.append(ev.Ballot(round=g.phase.round, number=rs.vote.number, voter=seat, choice=target))
    g.reply(seat, "killer_club/vote_recorded", out, round=g.phase.round, number=rs.vote.number,
            target=g.name(target), read_as=g.read_as(cmd))


def _choose(rs: KillerClub, seat: int, cmd: Command, out: Step) -> None:
    """The night victim names one of the tied (a later name replaces it)."""
    g = rs.game
    target = cmd.targets[0]
    previous, rs.choice = rs.choice, target
    out.events.append(ev.VictimChoice(seat=seat, chosen=target))
    g.reply(seat, "killer_club/choice_recorded", out, target=g.name(target),
            replaced=g.name(previous) if previous and previous != target else None, read_as=g.read_as(cmd))


# --- what each records (the status reply): his team's order where the order is the team's ----------------
def _target(order: Order | None) -> Standing | None:
    return Standing((order.target,)) if order is not None else None


def _team_check(rs: KillerClub, seat: int) -> Standing | None:
    """The team's check tonight (one a night per team: 「警察互相知道身份」; the helper alone), with its answer
    ("killer" / "not_killer") once he has been told it: the police at once, the helper once the killers have
    ordered the kill (「殺助在每輪殺手暗殺后可以密語向法官指認一人」; before that: "waiting")."""
    g = rs.game
    role = g.player(seat).role
    order = rs.night.once(f"check:{role}")
    if order is None:
        return None
    if role == HELPER and rs.helper_waiting is not None:
        return Standing((order.target,), note="waiting")
    return Standing((order.target,), note="killer" if g.player(order.target).role == KILLER else "not_killer")


def _asked(rs: KillerClub, seat: int) -> Standing | None:
    """The nurse's question tonight, with the answer she was told at once ("police" / "not_police")."""
    order = rs.night.once("ask")
    if order is None:
        return None
    return Standing((order.target,), note="police" if rs.game.player(order.target).role == POLICE else "not_police")


def _ballot(rs: KillerClub, seat: int) -> Standing | None:
    ballot = rs.vote.ballot_of(seat)
    return Standing(tuple(ballot.choices)) if ballot is not None else None


def _choice(rs: KillerClub, seat: int) -> Standing | None:
    return Standing((rs.choice,)) if rs.choice is not None else None


_HEAD = (Count(1, 1), living())

ACTIONS = (
    Action("kill", ("kill",), _kill, phases=("night",), roles=(KILLER,),
           targets=(*_HEAD, named("repeat_kill", lambda rs, seat, t: not rs.night.repeats(KILLER, t)),
                    named("series_victim", lambda rs, seat, t: not (rs.game.phase.round == 1 and rs.banned == rs.game.name(t)),
                            limit=lambda rs: rs.params.series.limit)),
           standing=lambda rs, seat: _target(rs.night.of(KILLER)), owes=lambda rs, seat: rs.night.of(KILLER) is None),
    Action("check", ("check",), _check, phases=("night",), roles=(POLICE, HELPER),
           targets=(*_HEAD, not_self("check_self"),  # police know each other (role PM)
                    named("check_teammate", lambda rs, seat, t: not (rs.game.player(seat).role == POLICE == rs.game.player(t).role))),
           again="refused", already=_already_checked, standing=_team_check,
           owes=lambda rs, seat: rs.game.player(seat).role == POLICE and rs.night.once("check:police") is None),
    Action("ask", ("ask",), _ask, phases=("night",), roles=(NURSE,), targets=(*_HEAD, not_self("ask_self")),
           again="refused", already=_already_asked, gates=(_ask_before_save,),
           standing=_asked),
    Action("save", ("save",), _save, phases=("night",), roles=(NURSE,),
           targets=(*_HEAD, named("repeat_save", lambda rs, seat, t: not rs.night.repeats(NURSE, t))),
           standing=lambda rs, seat: _target(rs.night.of(NURSE)), owes=lambda rs, seat: rs.night.of(NURSE) is None,
           offers_self=True),
    Action("vote", ("vote",), _vote, phases=("vote", "runoff"),
           channel=lambda rs: "thread" if rs.params.vote_in_thread else "pm",
           targets=(*_HEAD, named("not_candidate", lambda rs, seat, t: rs.vote.eligible(t),
                                    candidates=lambda rs: rs.game.names(rs.vote.candidates or ()))),
           again="refused", already=_already_voted,
           help=lambda rs, seat: "vote_thread" if rs.params.vote_in_thread else "vote", standing=_ballot,
           owes=lambda rs, seat: rs.vote.ballot_of(seat) is None),
    # the night victim names one of the tied (a dead player's action); ``kill X`` or ``vote X``
    Action("choose", ("kill", "vote"), _choose, phases=("choice",), alive=None, who=lambda rs, seat: seat == rs.choice_by,
           targets=(Count(1, 1), named("not_candidate", lambda rs, seat, t: t in rs.choice_among and rs.game.player(t).alive,
                                         candidates=lambda rs: rs.game.names(rs.choice_among))),
           again="replaces", standing=_choice, owes=lambda rs, seat: rs.choice is None),
)
