"""What the posts and replies of human_kill (人类杀) show: functions of the ruleset, bound as its methods
(:class:`~forumbot.rulesets.human_kill.HumanKill`). A player's private information is a rule here too: the
role PM names teammates only to the humans and Reimu (rulebook 《人类杀》, 白天: 「所有该阵营玩家可以互相确认彼此身份」), and
nothing public shows a role or a cause before the final post (「任何玩家都不会得知导致他们的身份和出局的具体原因」).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from forumbot.rulesets.human_kill.actions import SAGE_VOTE_KINDS, VOTE_KINDS
from forumbot.rulesets.human_kill.roles import FACTION, HUMAN, REIMU

if TYPE_CHECKING:
    from forumbot.engine.votes import VoteOutcome
    from forumbot.rulesets.human_kill import HumanKill


def present_counts(rs: HumanKill) -> dict[str, int]:
    """The roles dealt in this game and how many of each (role id -> count; the roles dealt to nobody left out)."""
    return {r: k for r, k in rs.counts.items() if k}


def opening_data(rs: HumanKill) -> dict[str, Any]:
    """The opening post: the roster, the roles dealt, the day windows, which win rule holds for the humans
    (``clean``: 清剿 below ``human_threshold`` players, else 重创) and the optional rules in force."""
    g, p = rs.game, rs.params
    return {"players": [pl.name for pl in g.players], "counts": present_counts(rs), "windows": rs.windows,
            "clean": len(g.players) < p.human_threshold, "sage": p.sage, "weather": p.weather,
            "last_words": p.last_words_rounds, "votes": p.banish_votes}


def banish_result_data(rs: HumanKill, outcome: VoteOutcome, dead: list[int], utsuho: bool, souten: bool) -> dict[str, Any]:
    """The result post of a banish vote: every ballot (none under 黄砂, only the counts), who is banished or
    tied, who is out (``dead``), whether Utsuho was sealed instead (``utsuho``), the banished's role under 花云,
    the last words, whether a run-off follows, whether 苍天 opens (``souten``: the dying are not out yet)."""
    g = rs.game
    chosen, kousa = outcome.chosen, rs.w("kousa")
    return {
        "round": rs.round, "number": outcome.number, "result": outcome.kind,
        "ballots": [] if kousa else [{"voter": g.name(b.voter), "choice": g.name(b.choices[0]) if b.choices else None,
                                      "weight": b.weight, "blown": b.void} for b in outcome.ballots],
        "counts": [{"name": g.name(s), "votes": x} for s, x in outcome.counts], "kousa": kousa,
        "chosen": g.name(chosen) if chosen else None, "tied": g.names(outcome.tied),
        "dead": g.names(sorted(dead)), "utsuho": utsuho,
        "revealed": g.player(chosen).role if chosen and rs.w("hanagumori") else None,
        "last_words": rs.will(sorted(dead)), "more_votes": outcome.kind == "runoff", "souten": souten,
    }


def role_reply_data(rs: HumanKill, seat: int) -> dict[str, Any]:
    """The role PM: his role and faction, his teammates (a human's or Reimu's: the other humans and Reimu),
    the roster, the roles dealt, the win rule in force and two example names for the commands."""
    g = rs.game
    role = g.player(seat).role
    mates = [s for s in rs.seats_of(HUMAN, REIMU) if s != seat] if role in (HUMAN, REIMU) else []
    others = [p.seat for p in g.players if p.seat != seat and p.seat not in mates]
    return {
        "name": g.name(seat), "seat": seat, "role": role, "faction": FACTION[role], "teammates": g.names(mates),
        "players": [p.name for p in g.players], "counts": present_counts(rs),
        "clean": len(g.players) < rs.params.human_threshold, "sage": rs.params.sage,
        "example": g.name(others[0] if others else seat), "example2": g.name(others[1] if len(others) > 1 else seat),
        "last_words": rs.params.last_words_rounds,
    }


def status_data(rs: HumanKill, seat: int) -> dict[str, Any]:
    """What the judge has recorded for ``seat`` now: the role PM's data, the phase, the sage, the weather as
    announced, and his standing ballot, take, successor and 苍天 offer (his own orders only)."""
    g = rs.game
    kind = g.phase.kind
    data = role_reply_data(rs, seat)
    data.update(phase=kind, round=g.phase.round, alive=g.player(seat).alive, sealed=seat in rs.sealed,
                sage=g.name(rs.sage) if rs.sage else None, is_sage=seat == rs.sage,
                weather=rs.weather_shown, ballot=None, voted=False,
                take=g.name(rs.takes[seat]) if seat in rs.takes else None,
                successor=g.name(rs.successor) if seat in (rs.sage, rs.succession_from) and rs.successor else None,
                stand_in=None)
    offer = rs.souten["volunteers"].get(seat) if rs.souten else None
    if offer is not None:
        data.update(stand_in=g.name(offer[0]))
    if kind == "exorcism" and rs.exorcism.may_vote(seat):
        eb = rs.exorcism.ballot_of(seat)
        data.update(voted=eb is not None, ballot=g.name(eb.choices[0]) if eb and eb.choices else None)
    if kind in VOTE_KINDS + SAGE_VOTE_KINDS:
        v = rs.vote if kind in VOTE_KINDS else rs.election
        b = v.ballot_of(seat) if v is not None else None
        data.update(voted=b is not None, ballot=g.name(b.choices[0]) if b and b.choices else None)
    return data


def final_data(rs: HumanKill) -> dict[str, Any]:
    """Everything the final post reveals: each player's role, faction, fate (out how and in which round,
    sealed, in a nightmare) and whether he won; the winner and why; the day actions' log; every day's
    weather; the sage at the end."""
    g = rs.game
    died = {d["seat"]: d for d in rs.deaths}
    players = []
    for p in g.players:
        d = died.get(p.seat)
        players.append({
            "seat": p.seat, "name": p.name, "role": p.role, "faction": FACTION[p.role], "alive": p.alive,
            "sealed": p.seat in rs.sealed, "out": p.out_reason, "round": d["round"] if d else None,
            "won": g.winner is not None and FACTION[p.role] == g.winner, "nightmare": p.seat in rs.nightmare,
        })
    return {"winner": g.winner, "reason": rs.win_reason, "players": players, "log": rs.log,
            "weathers": rs.weathers, "sage": g.name(rs.sage) if rs.sage else None}


def summary(rs: HumanKill) -> dict[str, Any]:
    """The replay's JSON: the winner (a faction id, or Parsee's or Doremy's role id) and the reason."""
    return {"winner": rs.game.winner, "reason": rs.win_reason}
