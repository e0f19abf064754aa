"""What the posts and replies of killer_club (殺人遊戲) show: functions of the ruleset, bound as its methods
(:class:`~forumbot.rulesets.killer_club.KillerClub`). No role is shown before the final post, not even at
death (「游戲過程中誰都不可以翻牌」): only a player's own role and his team's (killers, police)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from forumbot.engine.speaking import speaking_order
from forumbot.rulesets.killer_club.roles import FACTION, HELPER, KILLER, NIGHT_VERBS, NURSE, POLICE

if TYPE_CHECKING:
    from forumbot.engine.orders import Order
    from forumbot.engine.votes import VoteOutcome
    from forumbot.rulesets.killer_club import KillerClub


def role_reply_data(rs: KillerClub, seat: int) -> dict[str, Any]:
    """The role PM: his role, his teammates (killers and police know each other), his night commands,
    the role counts and the last-words rule."""
    g = rs.game
    role = g.player(seat).role
    mates = [s for s in rs.team(role) if s != seat] if role in (KILLER, POLICE) else []
    return {
        "name": g.name(seat), "seat": seat, "role": role, "teammates": g.names(mates),
        "players": [p.name for p in g.players], "verbs": NIGHT_VERBS[role], "counts": rs.start_counts,
        "vote_in_thread": rs.params.vote_in_thread, "last_words": rs.first.limit,
        "example": g.name(next((p.seat for p in g.players if p.seat != seat and p.seat not in mates), seat)),
    }


def opening_data(rs: KillerClub) -> dict[str, Any]:
    """The opening post: the roster, the role counts and the season's rules."""
    g, p = rs.game, rs.params
    return {
        "players": [pl.name for pl in g.players], "counts": rs.start_counts, "last_words": rs.first.limit,
        "vote_in_thread": p.vote_in_thread, "votes": p.votes, "tie_fallback": p.tie_fallback, "banned": rs.banned,
    }


def night_open_data(rs: KillerClub, round_: int) -> dict[str, Any]:
    """The night post: who is alive, which roles act tonight, and on night 1 the player the series rule
    keeps from being the victim."""
    g, c = rs.game, rs.start_counts
    return {"round": round_, "alive": g.names(g.alive()), "helper": c[HELPER] > 0, "nurse": c[NURSE] > 0,
            "banned": rs.banned if round_ == 1 else None}


def night_record(rs: KillerClub, target: int | None, saved: bool, save: Order | None,
                 victim: int | None) -> dict[str, Any]:
    """One night for the final post: the killers' target, the save, the victim, the checks and the ask."""
    g = rs.game
    record = {
        "round": g.phase.round, "target": g.name(target) if target else None, "saved": saved,
        "save": g.name(save.target) if save else None, "victim": g.name(victim) if victim else None,
    }
    for key, label in (("check:police", "police_check"), ("check:helper", "helper_check"), ("ask", "ask")):
        order = rs.tonight.get(key)
        record[label] = g.name(order.target) if order else None
    return record


def day_open_data(rs: KillerClub) -> dict[str, Any]:
    """The day post: the night's victim (or a peaceful night) and his last words, the speaking order
    from the seat after the last death's, who is alive, how the votes are cast."""
    g, p, victim = rs.game, rs.params, rs.night_victim
    order = speaking_order(g.alive(), rs.last_death, len(g.players))
    return {"round": g.phase.round, "victim": g.name(victim) if victim else None,
            "last_words": victim is not None and rs.first.allowed(victim), "order": g.names(order),
            "alive": g.names(g.alive()), "vote_in_thread": p.vote_in_thread, "votes": p.votes}


def runoff_open_data(rs: KillerClub, tied: tuple[int, ...]) -> dict[str, Any]:
    """A run-off's post: the tied, the speaking order, whether it is the last vote and what a last tie
    does."""
    g, p = rs.game, rs.params
    order = speaking_order(g.alive(), rs.last_death, len(g.players))
    return {"round": g.phase.round, "number": rs.vote.number, "candidates": g.names(tied), "order": g.names(order),
            "last": rs.vote.runoffs_left == 0, "vote_in_thread": p.vote_in_thread,
            "victim": g.name(rs.night_victim) if rs.night_victim else None, "fallback": p.tie_fallback}


def choice_result_data(rs: KillerClub, victim: int | None, chosen: int | None, how: str) -> dict[str, Any]:
    """The post of the night victim's choice: whom he named (or how the fallback decided)."""
    g = rs.game
    return {"round": g.phase.round, "victim": g.name(victim) if victim else None,
            "chosen": g.name(chosen) if chosen else None, "how": how,
            "last_words": bool(chosen and rs.first.allowed(chosen))}


def vote_result_data(rs: KillerClub, outcome: VoteOutcome, result: str, chosen: int | None) -> dict[str, Any]:
    """The post of a closed vote: every ballot, the counts, who is executed (or the tie and what
    follows), whether he leaves last words, who did not vote."""
    g = rs.game
    return {
        "round": g.phase.round, "number": outcome.number, "result": result,
        "ballots": [{"voter": g.name(b.voter), "choice": g.name(b.choices[0])} for b in outcome.ballots],
        "counts": [{"name": g.name(s), "votes": int(v)} for s, v in outcome.counts],
        "chosen": g.name(chosen) if chosen else None, "tied": g.names(outcome.tied),
        "victim": g.name(rs.night_victim) if rs.night_victim else None,
        "last_words": chosen is not None and rs.first.allowed(chosen),
        "missing": g.names([s for s in g.alive() if s not in {b.voter for b in outcome.ballots}]),
    }


def final_data(rs: KillerClub) -> dict[str, Any]:
    """The final post: the winner and why, every player's role and fate, and each night's actions."""
    g = rs.game
    died = {d["seat"]: d for d in rs.deaths}
    players = []
    for p in g.players:
        d = died.get(p.seat)
        players.append({
            "seat": p.seat, "name": p.name, "role": p.role, "faction": FACTION[p.role], "alive": p.alive,
            "out": p.out_reason, "round": d["round"] if d else None,
            "won": g.winner is not None and FACTION[p.role] == g.winner,
        })
    return {"winner": g.winner, "reason": rs.win_reason, "players": players, "nights": rs.nights}


def status_extras(rs: KillerClub, seat: int) -> dict[str, Any]:
    """``status`` besides his actions: his role and the teammates his role PM names."""
    return {"role": rs.game.player(seat).role, "teammates": rs.role_reply_data(seat)["teammates"]}


def summary(rs: KillerClub) -> dict[str, Any]:
    """The replay's JSON: the winner and why, and the first-night victim (for the series rule)."""
    g = rs.game
    return {
        "winner": g.winner, "reason": rs.win_reason,
        "first_night_victim": g.name(rs.first_night_victim) if rs.first_night_victim else None,
    }
