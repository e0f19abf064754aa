"""The sage (贤者) of human_kill (人类杀), an optional rule (``sage``): the election on round 1, the sage's
weighted banish vote, his speaking order and his succession. Rulebook 《人类杀》, 贤者: 「妖怪中最被信任者成为
贤者」; the rulings (2026-12) settle what it leaves open. Functions of the ruleset
(:class:`~forumbot.rulesets.human_kill.HumanKill`); the closers of the election's phases.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from forumbot.engine.table import round_table
from forumbot.engine.types import Step
from forumbot.engine.votes import Change, Vote
from forumbot.rulesets.human_kill import events as ev
from forumbot.rulesets.human_kill.votes import SAGE_ELECTION

if TYPE_CHECKING:
    from forumbot.rulesets.human_kill import HumanKill


def weight(rs: HumanKill, seat: int) -> float:
    """The weight of ``seat``'s banish ballot: 「The sage's banish vote counts 1.5」 (``sage_weight``), except
    under 太阳雨, when the sage has no privileges; everyone else's counts 1."""
    if seat == rs.sage and not rs.w("tenkiame"):
        return rs.params.sage_weight
    return 1.0


def leaves(rs: HumanKill, out: Step) -> None:
    """The sage is out (「当贤者出局时，其可以选择…指定一位未出局玩家成为贤者」): his successor named beforehand
    takes the title (not under 太阳雨, when the sage has no privileges), or it ends; a sage elected today
    had no chance to name one and chooses now, in a ``succession`` window (ruling 2026-12)."""
    g, old = rs.game, rs.sage
    assert old is not None
    if old == rs.fresh_sage and not rs.w("tenkiame"):
        rs.succession_from, rs.sage, rs.successor = old, None, None
        out.events.append(ev.SageOut(seat=old))
        return
    succ = rs.successor if not rs.w("tenkiame") else None
    rs.sage = succ if succ is not None and rs.active(succ) else None
    rs.successor = None
    if rs.sage is not None:
        g.reply(rs.sage, "human_kill/recorded", out, action="sage", round=rs.round, read_as=[],
                weight=rs.params.sage_weight)
    out.events.append(ev.SageChanged(from_=old, to=rs.sage))
    rs.log.append({"round": rs.round, "action": "sage_succession", "from": g.name(old),
                   "to": g.name(rs.sage) if rs.sage else None})


def _nightfall_data(rs: HumanKill, announce: bool) -> dict[str, Any]:
    """The nightfall post's data shared by the succession and the order windows (``announce``: it names the
    day's dead and who leaves last words)."""
    g = rs.game
    return {"round": rs.round, "dead": g.names(rs.round_dead) if announce else None,
            "last_words": rs.will(rs.round_dead) if announce else [], "by_sage": False, "donten": False,
            "alive": g.names(g.alive()), "votes": rs.params.banish_votes, "nagi": rs.w("nagi")}


def open_succession(rs: HumanKill, out: Step, announce: bool) -> None:
    """A sage elected today went out at nightfall: the night waits while he names his successor."""
    g = rs.game
    assert rs.succession_from is not None
    g.open_phase("succession", rs.round, rs.round, out)
    g.post("human_kill/nightfall", out, **_nightfall_data(rs, announce), sage=None, order=None, sage_weight=None,
           succession=g.name(rs.succession_from))
    g.reply(rs.succession_from, "human_kill/succession_prompt", out, round=rs.round)


def open_order(rs: HumanKill, out: Step, announce: bool) -> None:
    """The sage picks tonight's speaking order (贤者拥有以下特权: 「由贤者选择以出局玩家为起点，顺时针或逆时针
    方向的顺序令每位未出局玩家进行发言」; from himself when nobody went out). Not under 太阳雨 or 云天 (everyone speaks at once)."""
    g = rs.game
    assert rs.sage is not None
    rs.day.order_choice = None
    g.open_phase("order", rs.round, rs.round, out)
    g.post("human_kill/nightfall", out, **_nightfall_data(rs, announce), sage=g.name(rs.sage), order=None,
           sage_weight=rs.params.sage_weight, succession=None)
    g.reply(rs.sage, "human_kill/sage_prompt", out, round=rs.round,
            starts=g.names(rs.round_dead or [rs.sage]), myself=not rs.round_dead)


def close_succession(rs: HumanKill, out: Step) -> None:
    """A sage elected today and out at nightfall has named his successor, or not: the title
    passes, or ends (rulebook § 贤者: 当贤者出局时，其可以选择…; ruling 2026-12)."""
    g = rs.game
    old, rs.succession_from = rs.succession_from, None
    assert old is not None
    new = rs.successor if rs.successor is not None and rs.active(rs.successor) else None
    rs.successor = None
    rs.sage = new
    out.events.append(ev.SageChanged(from_=old, to=new))
    rs.log.append({"round": rs.round, "action": "sage_succession", "from": g.name(old),
                   "to": g.name(new) if new else None})
    g.post("human_kill/succession", out, round=rs.round, old=g.name(old), new=g.name(new) if new else None)
    if new is not None:
        g.reply(new, "human_kill/recorded", out, action="sage", round=rs.round, read_as=[],
                weight=rs.params.sage_weight)
    rs.night_order(out, announce=False)


def order_choice(rs: HumanKill) -> tuple[int, bool] | None:
    """The sage's choice of tonight's speaking order, if it stands: made tonight (choices are
    cleared every day), by the sage who still holds the title and its privileges (not under 太阳雨)
    (ruling 2026-12)."""
    if rs.day.order_choice is None or rs.sage is None or rs.w("tenkiame"):
        return None
    return rs.day.order_choice


def open_election(rs: HumanKill, out: Step) -> None:
    """Round 1, before nightfall: every living player stands and speaks in turn from the lowest seat,
    clockwise, and may withdraw (「从编号最小的玩家开始，按照顺时针方向依次进行发言…任何玩家均可以选择宣布退选」)."""
    g = rs.game
    alive = g.alive()
    rs.election = Vote(SAGE_ELECTION, candidates=tuple(alive))
    g.open_phase("election", rs.round, rs.round, out)
    order = round_table(rs.seating, alive, min(alive), clockwise=True)
    g.post("human_kill/election", out, round=rs.round, order=g.names(order))


def close_election(rs: HumanKill, out: Step) -> None:
    """The speeches are over: 「所有退选玩家同时对竞选玩家投票 (允许弃票)」; nobody withdrew, or everyone did:
    no sage (ruling 2026-12)."""
    g = rs.game
    e = rs.election
    assert e is not None
    alive = g.alive()
    withdrawn = [s for s in e.withdrawn if s in alive]
    candidates = [s for s in (e.candidates or ()) if s in alive]
    change: Change = "replace" if rs.params.change_vote else "first_stands"
    rs.election = Vote(replace(SAGE_ELECTION, change=change), candidates=tuple(candidates), voters=tuple(withdrawn))
    if not withdrawn or not candidates:
        why = "nobody_withdrew" if not withdrawn else "everyone_withdrew"
        return done(rs, None, why, out)
    g.open_phase("sage_vote", rs.round, rs.round, out)
    g.post("human_kill/sage_vote", out, round=rs.round, number=1, candidates=g.names(candidates),
           voters=g.names(withdrawn), order=[])


def close_vote(rs: HumanKill, out: Step) -> None:
    """The first sage vote or the run-off. First vote: most votes is the sage; a tie, or nobody
    receiving a vote (everyone abstained: a tie of all candidates, ruling 2026-12), goes to the
    run-off. Run-off: most votes is the sage; a tie or nobody receiving a vote: no sage."""
    g = rs.game
    e = rs.election
    assert e is not None
    v = e
    outcome = v.close(g.alive())
    decision = v.decide(g, outcome, f"sage:{outcome.number}", out)  # no draw: a tie or no votes is "no sage"
    kind, tied = outcome.kind, outcome.tied
    if decision.how == "runoff":
        kind, tied = "runoff", decision.among
    out.events.append(ev.SageVoteClosed(number=outcome.number, vote_kind=kind, chosen=outcome.chosen, tied=list(tied)))
    counts = outcome.counts
    g.post("human_kill/sage_result", out, round=rs.round, number=outcome.number,
           result="no_votes" if kind == "none" else kind,
           ballots=[{"voter": g.name(b.voter), "choice": g.name(b.choices[0]) if b.choices else None} for b in outcome.ballots],
           counts=[{"name": g.name(s), "votes": x} for s, x in counts],
           chosen=g.name(outcome.chosen) if outcome.chosen else None, tied=g.names(tied),
           all_abstained=outcome.kind == "none")
    if kind == "decided":
        return done(rs, outcome.chosen, "elected", out, posted=True)
    if kind == "runoff":
        voters = tuple(s for s in g.alive() if s not in tied)
        v.next(tied, voters=voters)
        g.open_phase("sage_pleas", rs.round, rs.round, out)
        order = round_table(rs.seating, list(tied), min(tied), clockwise=True)
        g.post("human_kill/sage_pleas", out, round=rs.round, candidates=g.names(tied), order=g.names(order),
               voters=g.names(voters))
        return
    done(rs, None, "tie" if kind == "exhausted" else "no_votes", out, posted=True)


def close_pleas(rs: HumanKill, out: Step) -> None:
    """The tied candidates have spoken again (some may have withdrawn): the run-off vote opens
    among those still standing, cast by everyone but the tied; withdrawals are closed."""
    g = rs.game
    e = rs.election
    assert e is not None
    v = e
    candidates = [c for c in (v.candidates or ()) if g.player(c).alive]
    voters = [s for s in (v.voters or ()) if g.player(s).alive]
    if not candidates:
        return done(rs, None, "everyone_withdrew", out)
    if not voters:
        return done(rs, None, "no_voters", out)
    g.open_phase("sage_runoff", rs.round, rs.round, out)
    g.post("human_kill/sage_vote", out, round=rs.round, number=2, candidates=g.names(candidates),
           voters=g.names(voters), order=[])


def done(rs: HumanKill, sage: int | None, why: str, out: Step, posted: bool = False) -> None:
    """The election is over (``why``): ``sage`` (None: no sage) holds the title; nightfall follows. ``posted``:
    the result post is already out."""
    g = rs.game
    rs.sage = rs.fresh_sage = sage
    out.events.append(ev.SageElected(seat=sage, why=why))
    rs.log.append({"round": rs.round, "action": "sage", "sage": g.name(sage) if sage else None, "why": why})
    if not posted:
        g.post("human_kill/sage_result", out, round=rs.round, number=0, result=why, ballots=[], counts=[],
               chosen=None, tied=[])
    if sage is not None:
        g.reply(sage, "human_kill/recorded", out, action="sage", round=rs.round, read_as=[], weight=rs.params.sage_weight)
    rs.nightfall(out)
