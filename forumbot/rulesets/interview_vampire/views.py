"""What the posts and replies of interview_vampire (夜访吸血鬼) show: functions of the ruleset, bound as its
methods (:class:`~forumbot.rulesets.interview_vampire.InterviewVampire`). Hidden information is a rule here
too: 「吸血鬼之间不能互知」, 「被转化的吸血鬼却不能知道转化自己的是谁」, deaths are announced by name only, and
no role is shown before the final post."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from forumbot.rulesets.interview_vampire.roles import CRIMINAL, VAMPIRE

if TYPE_CHECKING:
    from forumbot.engine.types import Step
    from forumbot.engine.votes import VoteOutcome
    from forumbot.rulesets.interview_vampire import InterviewVampire


def rule_data(rs: InterviewVampire) -> dict[str, Any]:
    """The season's parameters as the opening post and the role PMs explain them."""
    p = rs.params
    return {"starve_nights": p.starve_nights, "human_executions": p.human_executions, "vampire_rule": p.vampire_rule,
            "final_players": p.final_players, "final_criminals": p.final_criminals,
            "share": f"{p.vampire_share:g}", "share_pct": round(p.vampire_share * 100), "hold_dawns": p.hold_dawns,
            "night_executions": p.night_executions}


def role_reply_data(rs: InterviewVampire, seat: int, converted: bool = False) -> dict[str, Any]:
    """The role PM (also sent to a player converted at dawn, ``converted``): his role, the roster, example
    commands, and whom he made drink his blood (a converter knows whom he converted)."""
    g = rs.game
    role = g.player(seat).role
    example = next((p.name for p in g.players if p.seat != seat), g.name(seat))
    example2 = next((p.name for p in g.players if p.seat != seat and p.name != example), example)
    return {
        "name": g.name(seat), "seat": seat, "role": role, "converted": converted,
        "players": [p.name for p in g.players], "example": example, "example2": example2,
        "converts": g.names(rs.made_drink.get(seat, [])), "criminals_exist": bool(rs.ever_criminals),
        **rule_data(rs),
    }


def night_brief(rs: InterviewVampire, seat: int, round_: int) -> dict[str, Any]:
    """A biter's PM at nightfall: his need, hunger, whether he may convert tonight and whom from (the living
    among those he sucked last night: the dead were announced at dawn), and his votes in the criminal vote."""
    g = rs.game
    role = g.player(seat).role
    last = rs.last_night.get(seat)
    alive = [t for t in last["names"] if g.player(t).alive] if last else []
    may_convert = (role == VAMPIRE and last is not None and last["round"] == round_ - 1 and last["fed"]
                   and not last["converting"] and bool(alive))
    return {"round": round_, "role": role, "need": 1 if role == CRIMINAL else 2, "most": 1 if role == CRIMINAL else 2,
            "hungry": rs.hungry.get(seat, 0), "starve_nights": rs.params.starve_nights, "may_convert": may_convert,
            "convert_from": g.names(alive) if may_convert else [], "crime_vote": rs.crime_vote is not None,
            "votes": 2 if role == VAMPIRE else 1}


def vote_result_data(rs: InterviewVampire, outcome: VoteOutcome, chosen: int | None, burns: bool) -> dict[str, Any]:
    """The day vote's result post: every ballot, the counts, who is put in the sun and whether he burns,
    who did not vote."""
    g = rs.game
    return {
        "round": g.phase.round, "result": outcome.kind,
        "ballots": [{"voter": g.name(b.voter), "choice": g.name(b.choices[0])} for b in outcome.ballots],
        "counts": [{"name": g.name(s), "votes": int(v)} for s, v in outcome.counts],
        "chosen": g.name(chosen) if chosen else None, "tied": g.names(outcome.tied), "burns": burns,
        "missing": g.names([s for s in g.alive() if rs.vote.ballot_of(s) is None]),
    }


def send_dawn_reports(rs: InterviewVampire, biters: list[int], fed: dict[int, bool], new_criminals: list[int],
                      converted: dict[int, int], leading: list[int], out: Step) -> None:
    """One private report to each living biter: fed or not, turned criminal (told so at dawn:
    docs/interview_vampire.md), his hunger; to the voters 「得票数居前三位的得票者的名字」 (not the counts); and, the first time,
    「一旦场上出现了犯罪的吸血鬼，所有吸血鬼和犯罪的吸血鬼都会得到秘密通知」 (not who)."""
    g = rs.game
    voters = {b.voter for b in rs.crime_vote.ballots} if rs.crime_vote is not None else set()
    for b in biters:
        rs.reports.add(b, fed=fed[b], criminal=b in new_criminals,
                       hungry=rs.hungry[b], leading=g.names(leading) if b in voters else None)
    if new_criminals and not rs.criminals_told:
        rs.criminals_told = True
        for s in rs.biters():
            if s not in converted:
                rs.reports.add(s, criminals_exist=True)
    rs.reports.send(g, "interview_vampire/dawn_report", out, rs.biters(),
                    defaults={"fed": None, "criminal": False, "hungry": 0, "leading": None, "criminals_exist": False},
                    round=g.phase.round, starve_nights=rs.params.starve_nights)


def biter_night(rs: InterviewVampire, b: int, role: str, names: tuple[int, ...], success: frozenset[int],
                contested: set[int], convert: dict[str, Any] | None, *, need: int, fed: bool, crime: bool,
                killed: int | None, starved: bool) -> dict[str, Any]:
    """One biter's night as the final post shows it: each suck, whether it succeeded and why not
    (「撞车」: a collision, or a human converted that night by another), his conversion, need, fed, crime,
    kill and starvation."""
    g = rs.game
    return {
        "biter": g.name(b), "role": role,
        "sucks": [{"name": g.name(t), "ok": t in success,
                   "why": None if t in success else ("collision" if t in contested else "converted")} for t in names],
        "convert": convert, "need": need, "fed": fed, "crime": crime,
        "killed": g.name(killed) if killed else None, "starved": starved,
    }


def night_record(rs: InterviewVampire, biters: list[dict[str, Any]], converted: dict[int, int], criminals: list[int],
                 executed: int | None, counts: list[tuple[int, float]], dead: list[int]) -> dict[str, Any]:
    """A night as the final post tells it: each biter's night (:func:`biter_night`), the conversions that took,
    the new criminals, the criminal vote's counts and execution, the dead."""
    g = rs.game
    return {
        "round": g.phase.round, "biters": biters,
        "converted": [{"by": g.name(v), "name": g.name(t)} for t, v in sorted(converted.items())],
        "criminals": g.names(criminals), "executed": g.name(executed) if executed else None,
        "vote": [{"name": g.name(c), "votes": n} for c, n in counts], "dead": g.names(dead),
    }


def final_data(rs: InterviewVampire) -> dict[str, Any]:
    """The final post: the winner and why, every player's roles and fate, every night and day."""
    g = rs.game
    players = []
    for p in g.players:
        d = rs.deaths.get(p.seat)
        players.append({
            "seat": p.seat, "name": p.name, "start": rs.start_roles.get(p.seat, p.role), "role": p.role,
            "alive": p.alive, "out": p.out_reason, "round": d["round"] if d else None, "won": rs.won(p.seat),
            "converts": g.names(rs.converted.get(p.seat, [])),
        })
    won_criminals = [p.name for p in g.players if p.role == CRIMINAL and rs.won(p.seat)]
    return {"winner": g.winner, "camps": rs.camps, "criminals_won": won_criminals, "reasons": rs.reasons,
            "players": players, "nights": rs.nights, "days": rs.days, "day_executions": rs.day_executions,
            "night_executions": rs.night_executions_done}


def status_extras(rs: InterviewVampire, seat: int) -> dict[str, Any]:
    """``status`` besides his actions: his role, whom he made drink his blood (docs/interview_vampire.md: whether
    the conversion took or not), and his hungry nights running with the number that starves him
    (【关于吸血】)."""
    return {"role": rs.game.player(seat).role, "converts": rs.game.names(rs.made_drink.get(seat, [])),
            "hungry": rs.hungry.get(seat, 0), "starve_nights": rs.params.starve_nights}


def summary(rs: InterviewVampire) -> dict[str, Any]:
    """The replay's JSON: the winner, the winning camps and why, the executions."""
    return {"winner": rs.game.winner, "camps": rs.camps, "reasons": rs.reasons,
            "day_executions": rs.day_executions, "night_executions": rs.night_executions_done}
