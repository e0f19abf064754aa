"""What the posts and replies of human_kill (人类杀) show: functions of the ruleset, bound as its methods
(:class:`~forumbot.rulesets.human_kill.HumanKill`). A player's private information is a rule here too: the
role PM names teammates only to the humans and Reimu (rulebook 《人类杀》, 白天: 「所有该阵营玩家可以互相确认彼此身份」), and
nothing public shows a role or a cause before the final post (「任何玩家都不会得知导致他们的身份和出局的具体原因」).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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


def teammates(rs: HumanKill, seat: int) -> list[int]:
    """The seats a human or Reimu knows as his team (the other humans and Reimu; rulebook 《人类杀》, 白天:
    「所有该阵营玩家可以互相确认彼此身份」); nobody for any other role."""
    if rs.game.player(seat).role not in (HUMAN, REIMU):
        return []
    return [s for s in rs.seats_of(HUMAN, REIMU) if s != seat]


def role_reply_data(rs: HumanKill, seat: int) -> dict[str, Any]:
    """The role PM: his role and faction, his teammates (a human's or Reimu's: the other humans and Reimu),
    the roster, the roles dealt, the win rule in force and two example names for the commands."""
    g = rs.game
    role = g.player(seat).role
    mates = teammates(rs, seat)
    others = [p.seat for p in g.players if p.seat != seat and p.seat not in mates]
    return {
        "name": g.name(seat), "seat": seat, "role": role, "faction": FACTION[role], "teammates": g.names(mates),
        "players": [p.name for p in g.players], "counts": present_counts(rs),
        "clean": len(g.players) < rs.params.human_threshold, "sage": rs.params.sage,
        "example": g.name(others[0] if others else seat), "example2": g.name(others[1] if len(others) > 1 else seat),
        "last_words": rs.params.last_words_rounds,
    }


def status_extras(rs: HumanKill, seat: int) -> dict[str, Any]:
    """``status`` besides his actions (each with his standing order: :data:`.actions.ACTIONS`): his role and
    faction, his teammates (as the role PM tells them), whether he is sealed (a banished Utsuho), the sage
    (public) and whether it is he, and the weather as announced today (none before it is)."""
    g = rs.game
    role = g.player(seat).role
    return {"role": role, "faction": FACTION[role], "teammates": g.names(teammates(rs, seat)),
            "sealed": seat in rs.sealed, "sage": g.name(rs.sage) if rs.sage else None, "is_sage": seat == rs.sage,
            "weather": rs.weather_shown}


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
