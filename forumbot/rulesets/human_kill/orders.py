"""What an accepted command of human_kill (人类杀) records: the handlers of the declared actions
(:data:`~forumbot.rulesets.human_kill.actions.ACTIONS`), called once every check has passed, and the
confirmation each sends. Orders take effect when their window closes (:mod:`forumbot.rulesets.human_kill`),
except Remilia's check, answered at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from forumbot.engine.types import Step
from forumbot.language.types import Command
from forumbot.rulesets.human_kill import events as ev
from forumbot.rulesets.human_kill import sage, weather
from forumbot.rulesets.human_kill.roles import remilia_sees
from forumbot.rulesets.human_kill.votes import SAGE_VOTE_KINDS, VOTE_KINDS

if TYPE_CHECKING:
    from forumbot.rulesets.human_kill import HumanKill


def _recorded(rs: HumanKill, seat: int, cmd: Command, action: str, out: Step, **data: Any) -> None:
    """The confirmation of an order: what was recorded and how the command was read."""
    g = rs.game
    g.reply(seat, "human_kill/recorded", out, action=action, round=g.phase.round, read_as=g.read_as(cmd), **data)


def iku(rs: HumanKill, seat: int, cmd: Command, out: Step) -> None:
    """Iku, before the weather is announced: cancel today's weather (her ability is then gone for
    good) or learn tomorrow's (the appendix, 大妖怪). One choice a day; the last one
    before the deadline stands. Tomorrow's weather is drawn now and kept, so what she learns is
    what comes."""
    choice = "cancel" if cmd.verb == "cancel_weather" else "foresee"
    replaced, rs.day.iku_choice = rs.day.iku_choice, choice
    _recorded(rs, seat, cmd, cmd.verb, out, replaced=replaced if replaced != choice else None)


def check(rs: HumanKill, seat: int, cmd: Command, out: Step) -> None:
    """Remilia checks ``target`` (answered at once): human, youkai or other (Rinnosuke shows as youkai);
    under 烈日 the check may fail and she learns nothing."""
    g = rs.game
    target = cmd.targets[0]
    rs.day.check_done = target
    failed = weather.fails(rs, "check", target, out)
    seen = None if failed else remilia_sees(g.player(target).role)
    out.events.append(ev.Check(seat=seat, target=target, seen=seen, round=rs.round))
    rs.log.append({"round": rs.round, "action": "check", "target": g.name(target), "result": seen, "failed": failed})
    g.reply(seat, "human_kill/check_result", out, round=rs.round, target=g.name(target), seen=seen,
            read_as=g.read_as(cmd))


def disguise(rs: HumanKill, seat: int, cmd: Command, out: Step) -> None:
    """Mamizou disguises ``target`` for today's exorcism; her last choice before the deadline stands."""
    g = rs.game
    target = cmd.targets[0]
    previous, rs.day.disguise = rs.day.disguise, target
    _recorded(rs, seat, cmd, "disguise", out, target=g.name(target),
              replaced=g.name(previous) if previous and previous != target else None)


def exorcise(rs: HumanKill, seat: int, cmd: Command, out: Step) -> None:
    """A human's exorcism ballot (or abstention): the later replaces the earlier, and the team is told of
    it (the humans talk until the deadline: 「所有该阵营玩家可以互相确认彼此身份，然后进行讨论」)."""
    g = rs.game
    target = None if cmd.verb == "abstain" else cmd.targets[0]
    rs.exorcism.cast(seat, () if target is None else (target,))
    out.events.append(ev.ExorciseBallot(round=rs.round, voter=seat, choice=target))
    name = g.name(target) if target else None
    _recorded(rs, seat, cmd, "exorcise", out, target=name, relayed=g.names([s for s in rs.exorcism.voters or () if s != seat]))
    for s in rs.exorcism.voters or ():
        if s != seat and g.player(s).alive:
            g.reply(s, "human_kill/relayed", out, round=rs.round, actor=g.name(seat), target=name)


def yukari(rs: HumanKill, seat: int, cmd: Command, out: Step) -> None:
    """Yukari's save (today's exorcism target) or kill (her border), carried out at nightfall."""
    g = rs.game
    target = cmd.targets[0]
    if cmd.verb == "save":
        rs.day.yukari_save = target
    else:
        rs.day.yukari_kill = target
    _recorded(rs, seat, cmd, cmd.verb, out, target=g.name(target))


def dream(rs: HumanKill, seat: int, cmd: Command, out: Step) -> None:
    """Doremy names one or two players (a name written twice counts once) to dream of tonight."""
    g = rs.game
    targets = tuple(dict.fromkeys(cmd.targets))
    rs.day.dream = targets
    _recorded(rs, seat, cmd, "dream", out, targets=g.names(targets))


def take(rs: HumanKill, seat: int, cmd: Command, out: Step) -> None:
    """Reimu or Yuuka names whom she takes with her when she goes out; the last name stands."""
    target = cmd.targets[0]
    rs.takes[seat] = target
    _recorded(rs, seat, cmd, "take", out, target=rs.game.name(target))


def successor_now(rs: HumanKill, seat: int, cmd: Command, out: Step) -> None:
    """A sage elected today and out at nightfall names his successor in the succession window."""
    target = cmd.targets[0]
    rs.successor = target
    _recorded(rs, seat, cmd, "successor_now", out, target=rs.game.name(target))


def successor(rs: HumanKill, seat: int, cmd: Command, out: Step) -> None:
    """The sage names his successor beforehand; the last name stands."""
    target = cmd.targets[0]
    rs.successor = target
    _recorded(rs, seat, cmd, "successor", out, target=rs.game.name(target))


def stand_in(rs: HumanKill, seat: int, cmd: Command, out: Step) -> None:
    """苍天: ``seat`` volunteers to go out in place of one of the dying (``替 X``), or withdraws his
    offer (``弃权``); his last offer stands."""
    g = rs.game
    st = rs.souten
    assert st is not None
    if cmd.verb == "abstain":
        st["volunteers"].pop(seat, None)
        return _recorded(rs, seat, cmd, "stand_in", out, target=None)
    target = cmd.targets[0]
    st["seq"] += 1
    st["volunteers"][seat] = (target, st["seq"])
    out.events.append(ev.Volunteer(round=rs.round, seat=seat, for_=target))
    _recorded(rs, seat, cmd, "stand_in", out, target=g.name(target))


def withdraw(rs: HumanKill, seat: int, cmd: Command, out: Step) -> None:
    """A candidate withdraws from the sage election (and so votes in its first vote)."""
    g = rs.game
    assert rs.election is not None
    rs.election.withdraw_candidate(seat)
    out.events.append(ev.Withdrawn(seat=seat, phase=g.phase.kind))
    # Only the first vote is cast by those who withdrew; the run-off's voters are everyone but the tied.
    _recorded(rs, seat, cmd, "withdraw", out, votes=g.phase.kind == "election")


def order(rs: HumanKill, seat: int, cmd: Command, out: Step) -> None:
    """The sage picks tonight's speaking order: where it starts and which way round."""
    target = cmd.targets[0]
    rs.day.order_choice = (target, cmd.verb == "clockwise")
    _recorded(rs, seat, cmd, cmd.verb, out, target=rs.game.name(target))


def vote(rs: HumanKill, seat: int, cmd: Command, out: Step) -> None:
    """A banish ballot (the sage's weighs ``sage_weight``) or a sage-election ballot, or an abstention."""
    g = rs.game
    v = rs.vote if g.phase.kind in VOTE_KINDS else rs.election
    assert v is not None  # a sage vote phase has its election
    target = None if cmd.verb == "abstain" else cmd.targets[0]
    weight = sage.weight(rs, seat) if g.phase.kind in VOTE_KINDS else 1.0
    v.cast(seat, () if target is None else (target,), weight=weight)
    out.events.append(ev.Ballot(phase_kind=g.phase.kind, round=rs.round, number=v.number, voter=seat, choice=target, weight=weight))
    _recorded(rs, seat, cmd, "vote", out, target=g.name(target) if target else None, weight=weight,
              changeable=v.allow_change, sage_vote=g.phase.kind in SAGE_VOTE_KINDS)

