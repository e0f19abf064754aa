"""What the posts and replies of vampire_village (吸血鬼村莊) show: functions of the ruleset, bound as its
methods (:class:`~forumbot.rulesets.vampire_village.VampireVillage`). Hidden information is a rule here too:
「村民和特殊身份的人只能看到自己的身份」, the lovers learn each other's names but not roles, nobody's role is
shown at death unless ``reveal_roles_at_death``, and nothing public shows that a dead player was the hunter
unless he shoots (docs/vampire_village.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from forumbot.rulesets.vampire_village.roles import (
    ELDER,
    NIGHT_VERBS,
    VAMPIRE,
    WITCH,
)

if TYPE_CHECKING:
    from forumbot.engine.votes import VoteOutcome
    from forumbot.rulesets.vampire_village import VampireVillage


def rules_data(rs: VampireVillage) -> dict[str, Any]:
    """The season's parameters as the opening post and the role PMs explain them."""
    p = rs.params
    return {"guard_and_save": p.guard_and_save, "tell_charmed": p.tell_charmed, "tie_fallback": p.tie_fallback,
            "reveal": p.reveal_roles_at_death, "elder_lives": p.elder_lives, "team_order": p.team_order,
            "votes": p.votes, "last_words": p.last_words}


def lover_names(rs: VampireVillage, seat: int) -> list[str]:
    """His lover's name (「情侶相認…但是不知道彼此身份」), or none."""
    return rs.game.names(rs.links.partners(seat))


def role_reply_data(rs: VampireVillage, seat: int) -> dict[str, Any]:
    """The role PM: his role, his fellow vampires (「吸血鬼可以看到自己和吸血鬼同伴的身份」), his night commands
    with examples naming players who are not his fellows, the presets and the season's rules."""
    g = rs.game
    role = rs.role_of(seat)
    mates = [s for s in rs.team(VAMPIRE) if s != seat] if role == VAMPIRE else []
    example = next((p.seat for p in g.players if p.seat != seat and p.seat not in mates), seat)
    second = next((p.seat for p in g.players if p.seat not in (seat, example) and p.seat not in mates), seat)
    return {
        "name": g.name(seat), "seat": seat, "role": role, "teammates": g.names(mates),
        "players": [p.name for p in g.players], "verbs": NIGHT_VERBS[role], "counts": rs.start_counts,
        "example": g.name(example), "example2": g.name(second), "lover": lover_names(rs, seat),
        **rules_data(rs),
    }


def dead_data(rs: VampireVillage, dead: list[int]) -> list[dict[str, Any]]:
    """The dead as a post names them: their role only when the season reveals roles at death."""
    g = rs.game
    return [{"name": g.name(s), "role": rs.role_of(s) if rs.params.reveal_roles_at_death else None} for s in sorted(dead)]


def vote_open_data(rs: VampireVillage, kind: str, candidates: tuple[int, ...]) -> dict[str, Any]:
    """The post opening an election or a day vote (``candidates``: the tied of a revote, else every living
    player)."""
    g, p = rs.game, rs.params
    return {"kind": kind, "round": g.phase.round, "number": rs.vote.number, "candidates": g.names(candidates),
            "alive": g.names(g.alive()), "sheriff": g.name(rs.sheriff.holder) if rs.sheriff.holder else None,
            "votes": p.votes, "fallback": p.tie_fallback, "last": rs.vote.runoffs_left == 0}


def vote_result_data(rs: VampireVillage, kind: str, outcome: VoteOutcome, result: str, chosen: int | None,
                     dead: list[int]) -> dict[str, Any]:
    """A closed vote's post: every ballot with its weight, the counts, the result, the dead, who did not vote."""
    g = rs.game
    voters = {b.voter for b in outcome.ballots}
    return {
        "kind": kind, "round": g.phase.round, "number": outcome.number, "result": result,
        "ballots": [{"voter": g.name(b.voter), "choice": g.name(b.choices[0]), "weight": int(b.weight)} for b in outcome.ballots],
        "counts": [{"name": g.name(s), "votes": int(v)} for s, v in outcome.counts],
        "chosen": g.name(chosen) if chosen else None, "tied": g.names(outcome.tied), "dead": dead_data(rs, dead),
        "missing": g.names([s for s in g.alive() if s not in voters and s not in dead]),
    }


def final_data(rs: VampireVillage) -> dict[str, Any]:
    """The final post: the winner and why, every player's role, fate and score, the lovers, the sheriffs and
    each night's actions."""
    g = rs.game
    died = {d["seat"]: d for d in rs.deaths}
    scores, won = rs.scores(), rs.winners()
    players = []
    for p in g.players:
        d = died.get(p.seat)
        players.append({
            "seat": p.seat, "name": p.name, "role": p.role, "alive": p.alive, "out": p.out_reason,
            "round": d["round"] if d else None, "won": p.seat in won, "score": scores[p.seat],
            "lover": bool(rs.links.partners(p.seat)), "charmed": p.seat in rs.charmed,
            "sheriff": p.seat == rs.sheriff.holder,
        })
    return {"winner": g.winner, "reason": rs.win_reason, "players": players, "nights": rs.nights,
            "lovers": [g.names(pair) for pair in rs.links.pairs],
            "sheriffs": [{"name": g.name(s), "how": how} for s, how in rs.sheriff.history],
            "base": rs.start_counts[VAMPIRE], "powers_lost": rs.powers_lost}


def status_extras(rs: VampireVillage, seat: int) -> dict[str, Any]:
    """``status`` besides his actions (:attr:`~forumbot.engine.actions.Action.standing`): his role
    (「村民和特殊身份的人只能看到自己的身份」), his fellow vampires, his lover, whether he is charmed (when the season
    tells), the sheriff, his lost power (「村民所有特殊能力消失」), the witch's potions left, the elder's lives;
    that he is charmed and that his power is gone only as he was told (alive at that dawn: a player who died in
    the same batch learns neither, docs/vampire_village.md, "What each player learns");
    in the witch's phase, while she holds the antidote, the victim she was told (``told``; ``victim`` None:
    nobody will die by the vampires as far as she can know — her prompt said the same)."""
    g = rs.game
    role = rs.role_of(seat)
    told = (g.phase.kind == "witch" and role == WITCH and g.player(seat).alive and not rs.powers_lost
            and rs.potions.has("save"))
    return {
        "role": role, "teammates": role_reply_data(rs, seat)["teammates"], "lover": lover_names(rs, seat),
        "charmed": seat in rs.told_charmed,
        "sheriff": g.name(rs.sheriff.holder) if rs.sheriff.holder else None,
        "powers_lost": seat in rs.told_powers_lost,
        "potions": rs.potions.left() if role == WITCH else None,
        "lives": rs.lives.get(seat) if role == ELDER else None,
        "told": told, "victim": g.name(rs.witch_told) if told and rs.witch_told else None,
    }


def summary(rs: VampireVillage) -> dict[str, Any]:
    """The replay's JSON: the winner and why, each seat's score and rank."""
    scores = rs.scores()
    order = sorted(set(scores.values()), reverse=True)
    return {"winner": rs.game.winner, "reason": rs.win_reason, "scores": scores,
            "ranks": {s: order.index(v) + 1 for s, v in scores.items()}}
