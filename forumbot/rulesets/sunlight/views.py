"""What the posts and replies of sunlight (阳光下的罪恶) show: functions of the ruleset, bound as its methods
(:class:`~forumbot.rulesets.sunlight.Sunlight`). Hidden information is a rule here too: nothing public
shows a role, a personal score or the win index before the final post (「出局后均不公布身份」)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from forumbot.engine.ruleset import Ruleset
from forumbot.rulesets.sunlight.actions import GOOD

if TYPE_CHECKING:
    from forumbot.rulesets.sunlight import Sunlight
    from forumbot.rulesets.sunlight.state import VoteRecord


def role_reply_data(rs: Sunlight, seat: int) -> dict[str, Any]:
    """The role PM: his name, role and seat, and the roster."""
    g = rs.game
    return {"name": g.name(seat), "role": g.player(seat).role, "seat": seat, "players": [p.name for p in g.players]}


def vote_result_data(rs: Sunlight, record: VoteRecord) -> dict[str, Any]:
    """The round post of a closed vote round: every ballot in the order received, the points each player
    still in the game (or out this round) received, who is a suicide (out before the tally: ``suicide_points``
    those who got points, which count for nobody's exit), who is out or tied at the top (``top``: their
    points), who is warned."""
    g, out_seat, suicides = rs.game, record.out, record.suicides
    shown = sorted(set(g.alive()) | set(suicides) | ({out_seat} if out_seat else set()))
    return {
        "round": record.round,
        "ballots": [{"voter": g.name(b.voter), "choices": g.names(b.choices), "void": b.void} for b in record.ballots],
        "received": [{"name": g.name(seat), "points": record.received.get(seat, 0)} for seat in shown],
        "out": g.name(out_seat) if out_seat else None, "tied": g.names(record.tied),
        "warned": g.names(record.warned), "suicides": g.names(suicides), "limit": rs.params.strikes_to_suicide,
        # the points of the players out or tied at the top, and of suicides who got points: a suicide is out
        # before the tally (「自杀者所有相关投票积分从各项集体累计中剔除」), so the post says why his points put nobody
        # out and names the top of the others (issue 28: 「alice、孙七 同分，无人出局」 beside a 9-point suicide)
        "top": record.received.get(out_seat or (record.tied[0] if record.tied else 0), 0),
        "suicide_points": [{"name": g.name(seat), "points": record.received[seat]}
                           for seat in suicides if record.received.get(seat, 0) > 0],
    }


def final_data(rs: Sunlight) -> dict[str, Any]:
    """Everything the final post reveals: roles, every round's table, scores, index, ranking."""
    g, s = rs.game, rs.s
    ranks = rs.ranks()
    correct, total = rs.win_sums()
    players = []
    for p in g.players:
        label = GOOD
        if p.seat in s.killers:
            label = "first_killer" if p.seat == s.killers[0] else "successor"
        players.append({
            "seat": p.seat, "name": p.name, "role": label, "alive": p.alive, "out": p.out_reason,
            "rank": ranks[p.seat], **rs.breakdown(p.seat),
        })
    players.sort(key=lambda d: (d["rank"], d["seat"]))
    rounds: list[dict[str, Any]] = []
    for v in s.votes:
        rounds.append({
            "kind": "vote", "round": v.round, "killer": g.name(v.killer), "n": v.n,
            "out": g.name(v.out) if v.out else None, "tied": g.names(v.tied), "suicides": g.names(v.suicides),
            "ballots": [
                {"voter": g.name(b.voter), "choices": g.names(b.choices), "void": b.void,
                 "score": (v.killer_score if b.voter == v.killer else v.good_scores.get(b.voter))}
                for b in v.ballots
            ],
            "received": [{"name": g.name(seat), "points": pts} for seat, pts in sorted(v.received.items())],
            "killer_score": v.killer_score, "correct": sum(v.correct.values()), "total": sum(v.total.values()),
        })
    for k in s.kills:
        rounds.append({"kind": "kill", "round": k.round, "killer": g.name(k.killer), "victim": g.name(k.victim) if k.victim else None})
    rounds.sort(key=lambda r: r["round"])
    return {
        "winner": g.winner, "players": players, "rounds": rounds,
        "killers": g.names(s.killers), "correct": correct, "total": total,
        "win_index": (correct / total) if total else 0.0, "threshold": rs.params.win_threshold,
    }


def status_extras(rs: Sunlight, seat: int) -> dict[str, Any]:
    """``status`` besides his actions: his warnings so far (the rulings, docs/sunlight.md: 「First missed or self
    vote: a warning ... Second (`strikes_to_suicide`): the player is out as a suicide」)."""
    return {"strikes": rs.strikes.of(seat)}


def help_data(rs: Sunlight, seat: int | None) -> dict[str, Any]:
    """The engine's help (the actions open to ``seat``) and the clue poll's options."""
    return {**Ruleset.help_data(rs, seat), "clue_options": rs.s.clue_options}


def summary(rs: Sunlight) -> dict[str, Any]:
    """The replay's JSON: winner, scores, ranks, the win index and the killers in order."""
    return {
        "winner": rs.game.winner, "scores": rs.scores(), "ranks": rs.ranks(),
        "win_index": rs.win_index(), "killers": list(rs.s.killers),
    }
