"""What a player of interview_vampire (夜访吸血鬼) may do, when and on whom (:mod:`forumbot.engine.actions`),
the two votes (:mod:`forumbot.engine.votes`) and what an accepted order records.

Rulebook: 《夜访吸血鬼》; rulings where it is open: docs/interview_vampire.md. At night every vampire and
criminal vampire (a *biter*) acts alone by PM: ``吸 A B`` (the sucks), ``转化 A`` (a conversion), ``投 A`` (the
criminal vote, once a criminal appeared); by day everyone votes in the thread. An order only records: nothing
takes effect before dawn (:meth:`~forumbot.rulesets.interview_vampire.InterviewVampire._dawn`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from forumbot.engine.actions import Action, Count, Distinct, Refusal, Standing, living, not_self
from forumbot.engine.votes import BallotError, VoteRule
from forumbot.language.types import Command
from forumbot.rulesets.interview_vampire import events as ev
from forumbot.rulesets.interview_vampire.roles import BITERS, CRIMINAL, VAMPIRE

if TYPE_CHECKING:
    from forumbot.engine.types import Step
    from forumbot.rulesets.interview_vampire import InterviewVampire

SUCK, CONVERT = "suck", "convert"
#: The criminal vote (【夜间暗投】): 「每个吸血鬼可以投两票，每个犯罪的吸血鬼可以投1票」 (one name twice or two
#: names); 「得票最多的人如果是犯罪的吸血鬼，将在天亮时被处决；如果最高票得票人数相等，或者最高票得票者仅仅是吸血鬼
#: 或平民，则天亮时不处决任何人」; a later ballot replaces the earlier one until dawn. The voters' weights are
#: set each night.
CRIME_VOTE = VoteRule("criminal vote", split="spread", change="replace", last_tie="nobody")
#: The day vote (【白天的处决】): 「白天的投票仍是明投。所有玩家1人1票，得票最多者将被拉到阳光下暴晒」; a tie:
#: nobody; the first vote stands.
DAY_VOTE = VoteRule("day vote", votes=1, last_tie="nobody")


def need(rs: InterviewVampire, seat: int) -> int:
    """Successful sucks ``seat`` needs tonight to be fed, also the most he may name (【关于吸血】: 「每个吸血鬼每夜
    需要成功的吸两个人…的血；如果吸血鬼在夜间让别人喝下自己的血…当夜必须吸三个人的血」; 【关于犯罪的吸血鬼】:
    「夜间中只需要成功的吸一个人的血」)."""
    if rs.game.player(seat).role == CRIMINAL:
        return 1
    return 3 if rs.plans.of(seat, CONVERT) else 2


# --- the checks --------------------------------------------------------------------------------------------
def _biter_role(rs: InterviewVampire, seat: int, cmd: Command) -> Refusal:
    """A criminal asking to convert is told that criminals do not convert (「他不再拥有把人类转化成吸血鬼的权力」);
    anyone else, that it is not his role."""
    role = rs.game.player(seat).role
    return Refusal("criminal_cannot_convert" if role == CRIMINAL and cmd.verb == CONVERT else "not_your_role",
                   {"role": role})


def _convert_and_suck(rs: InterviewVampire, seat: int, cmd: Command) -> Refusal | None:
    """Nobody is both sucked and converted by the same vampire in one night (either order)."""
    g = rs.game
    if cmd.verb == SUCK:
        converting = rs.plans.targets(seat, CONVERT)
        if converting and converting[0] in cmd.targets:
            return Refusal("convert_and_suck", {"target": g.name(converting[0])})
    elif cmd.targets[0] in rs.plans.targets(seat, SUCK):
        return Refusal("convert_and_suck", {"target": g.name(cmd.targets[0])})
    return None


def _too_many(rs: InterviewVampire, seat: int, cmd: Command) -> dict[str, Any]:
    role = rs.game.player(seat).role
    return {"count": len(cmd.targets), "most": need(rs, seat), "criminal": role == CRIMINAL,
            "converting": bool(rs.plans.targets(seat, CONVERT))}


def _may_convert_now(rs: InterviewVampire, seat: int, cmd: Command) -> Refusal | None:
    """A conversion his own knowledge rules out is refused (docs/interview_vampire.md): he has a record of
    last night, was fed, did not convert, and names someone he sucked (【关于转化同伴】: 「前一夜成功吸了两个非同类
    玩家…的血，下一夜再让其中一个平民喝下自己的血」)."""
    g = rs.game
    target = cmd.targets[0]
    last = rs.last_night.get(seat)
    if last is None or last["round"] != g.phase.round - 1:
        return Refusal("no_record")
    if last["converting"]:
        return Refusal("converted_last_night")
    if not last["fed"]:
        return Refusal("not_fed")
    if target not in last["names"]:
        return Refusal("not_sucked", {"target": g.name(target), "sucked": g.names(last["names"])})
    return None


def _withdrawable(rs: InterviewVampire, seat: int, cmd: Command) -> Refusal | None:
    """取消转化 needs a standing conversion, and a suck order of at most 2 (the most without one)."""
    if rs.plans.of(seat, CONVERT) is None:
        return Refusal("no_conversion")
    sucks = rs.plans.targets(seat, SUCK)
    if len(sucks) > 2:
        return Refusal("too_many_without_conversion", {"sucks": rs.game.names(sucks)})
    return None


def _crime_ballot(rs: InterviewVampire, seat: int, cmd: Command) -> Refusal | None:
    """The criminal vote exists (「一旦场上出现了犯罪的吸血鬼」) and the ballot fits the voter's votes."""
    if rs.crime_vote is None:
        return Refusal("no_crime_vote")
    try:
        rs.crime_vote.spread(seat, cmd.targets)
    except BallotError:
        return Refusal("too_many_votes", {"most": int(rs.crime_vote.weight_of(seat))})
    return None


def _already_voted(rs: InterviewVampire, seat: int, cmd: Command) -> Refusal | None:
    existing = rs.vote.ballot_of(seat)
    return None if existing is None else Refusal("already_voted", {"target": rs.game.name(existing.choices[0])})


def _is_criminal(rs: InterviewVampire, seat: int) -> bool:
    return bool(rs.game.player(seat).role == CRIMINAL)


# --- what an accepted order records ----------------------------------------------------------------------
def suck(rs: InterviewVampire, seat: int, cmd: Command, out: Step) -> None:
    """The biter's sucks tonight (a later order replaces the earlier one)."""
    g = rs.game
    previous = rs.plans.set(seat, SUCK, cmd.targets)
    out.events.append(ev.SuckPlan(seat=seat, targets=list(cmd.targets), round=g.phase.round))
    g.reply(seat, "interview_vampire/suck_recorded", out, round=g.phase.round, targets=g.names(cmd.targets),
            replaced=g.names(previous.targets) if previous else None, need=need(rs, seat), read_as=g.read_as(cmd))


def convert(rs: InterviewVampire, seat: int, cmd: Command, out: Step) -> None:
    """The vampire's conversion tonight (a later order replaces the earlier one)."""
    g = rs.game
    target = cmd.targets[0]
    sucks = rs.plans.targets(seat, SUCK)
    previous = rs.plans.set(seat, CONVERT, (target,))
    out.events.append(ev.ConvertPlan(seat=seat, target=target, round=g.phase.round))
    g.reply(seat, "interview_vampire/convert_recorded", out, round=g.phase.round, target=g.name(target),
            replaced=g.name(previous.targets[0]) if previous and previous.targets[0] != target else None,
            sucks=g.names(sucks), read_as=g.read_as(cmd), withdrawn=False)


def withdraw_convert(rs: InterviewVampire, seat: int, cmd: Command, out: Step) -> None:
    """取消转化: the standing conversion is withdrawn (docs/interview_vampire.md); his need goes back to 2 and
    his sucks may kill again."""
    g = rs.game
    plan = rs.plans.of(seat, CONVERT)
    assert plan is not None
    sucks = rs.plans.targets(seat, SUCK)
    rs.plans.drop(seat, CONVERT)
    out.events.append(ev.ConvertWithdrawn(seat=seat, target=plan.targets[0], round=g.phase.round))
    g.reply(seat, "interview_vampire/convert_recorded", out, round=g.phase.round, target=g.name(plan.targets[0]),
            withdrawn=True, replaced=None, sucks=g.names(sucks), read_as=[])


def crime_vote(rs: InterviewVampire, seat: int, cmd: Command, out: Step) -> None:
    """A ballot of the criminal vote (a later one replaces the earlier one)."""
    g = rs.game
    assert rs.crime_vote is not None
    ballot = rs.crime_vote.cast(seat, cmd.targets)
    assert ballot is not None
    out.events.append(ev.CrimeBallot(voter=seat, choices=list(ballot.choices), votes=list(ballot.shares),
                                     round=g.phase.round))
    g.reply(seat, "interview_vampire/vote_recorded", out, night=True, round=g.phase.round,
            votes=[{"name": g.name(c), "votes": v} for c, v in zip(ballot.choices, ballot.shares, strict=False)],
            read_as=g.read_as(cmd))


def day_vote(rs: InterviewVampire, seat: int, cmd: Command, out: Step) -> None:
    """A ballot of the day vote, posted in the thread."""
    g = rs.game
    target = cmd.targets[0]
    rs.vote.cast(seat, (target,))
    out.events.append(ev.Ballot(round=g.phase.round, voter=seat, choice=target))
    g.reply(seat, "interview_vampire/vote_recorded", out, night=False, round=g.phase.round,
            votes=[{"name": g.name(target), "votes": 1}], read_as=g.read_as(cmd))


# --- what each records (the status reply): his own plans and ballots ---------------------------------------
def _plan(verb: str) -> Any:
    def standing(rs: InterviewVampire, seat: int) -> Standing | None:
        plan = rs.plans.of(seat, verb)
        return Standing(tuple(plan.targets)) if plan is not None else None
    return standing


def _crime_ballot_standing(rs: InterviewVampire, seat: int) -> Standing | None:
    ballot = rs.crime_vote.ballot_of(seat) if rs.crime_vote is not None else None
    return Standing(tuple(ballot.choices)) if ballot is not None else None


def _day_ballot(rs: InterviewVampire, seat: int) -> Standing | None:
    ballot = rs.vote.ballot_of(seat)
    return Standing(tuple(ballot.choices)) if ballot is not None else None


ACTIONS = (
    # 「如果吸血鬼在夜间让别人喝下自己的血…当夜必须吸三个人的血」: naming fewer is allowed and leaves him hungry
    Action("suck", (SUCK,), suck, phases=("night",), roles=BITERS, role_reason=_biter_role,
           targets=(Count(1, None), living(), Distinct("repeat_target"), not_self("suck_self"), _convert_and_suck,
                    Count(1, need, "too_many", _too_many)),
           help=lambda rs, seat: "suck_criminal" if _is_criminal(rs, seat) else "suck", standing=_plan(SUCK),
           owes=lambda rs, seat: rs.plans.of(seat, SUCK) is None),
    Action("convert", (CONVERT,), convert, phases=("night",), roles=(VAMPIRE,), role_reason=_biter_role,
           form=lambda cmd: cmd.number != 0,
           targets=(Count(1, None), living(), Count(1, 1), not_self("convert_self")),
           checks=(_may_convert_now, _convert_and_suck), standing=_plan(CONVERT)),
    Action("convert_withdraw", (CONVERT,), withdraw_convert, phases=("night",), roles=(VAMPIRE,),
           role_reason=_biter_role, form=lambda cmd: cmd.number == 0, checks=(_withdrawable,), help=lambda rs, seat: None,
           standing=_plan(CONVERT)),
    # the judge of 夜访吸血鬼 checks the phase first: a human's night vote is "not your role", a day one "wrong phase"
    Action("crime_vote", ("vote",), crime_vote, phases=("night",), roles=BITERS, order=("phase", "role", "alive", "who"),
           targets=(Count(1, None), living()), checks=(_crime_ballot,), standing=_crime_ballot_standing,
           offer_most=lambda rs, seat: int(rs.crime_vote.weight_of(seat)),
           help=lambda rs, seat: None if rs.crime_vote is None else
           "crime_vote_criminal" if _is_criminal(rs, seat) else "crime_vote"),
    # the day vote's rules on withdrawing (the first stands) and abstaining (none) answer an unvote or a no
    # lynch posted by day; the vote is a day's: at night they are refused like a vote (by PM they get the
    # vote's rule, the engine's hooks)
    Action("unvote", ("unvote",), lambda rs, seat, cmd, out: rs.on_unvote(seat, cmd, out), phases=("day",),
           channel="thread", help=lambda rs, seat: None, standing=lambda rs, seat: None),
    Action("nolynch", ("nolynch",), lambda rs, seat, cmd, out: rs.on_no_lynch(seat, cmd, out), phases=("day",),
           channel="thread", help=lambda rs, seat: None, standing=lambda rs, seat: None),
    Action("vote_thread", ("vote",), day_vote, phases=("day",), channel="thread",
           targets=(Count(1, 1), living()), again="refused", already=_already_voted, standing=_day_ballot,
           owes=lambda rs, seat: rs.vote.ballot_of(seat) is None),
)
