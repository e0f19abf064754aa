"""The report's plain data, from a :class:`~forumbot.report.log.GameLog`.

Everything here is JSON-able and is what the page embeds (``<script type="application/json">``) and its
charts draw. Two views:

- the full report (``public=False``): roles, camps, night actions, scores — for the organiser, or for
  everyone once the game is over;
- the public report (``public=True``): only what the thread showed. Vote rounds come from the vote-result
  posts the bot made (so a vote the rules keep secret, or a count the weather hides, never appears),
  deaths say how only when the thread says so (a vote, a penalty), phases show their kind and deadline.
  Roles, camps, winner and scores appear only once the game is over (the final post reveals them).
  Rulebooks: each ruleset's rules on what is announced; the brief's "a player's private information is a
  rule too".
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from forumbot.engine.game import Game
from forumbot.local_time import format_short
from forumbot.report.log import GameLog
from forumbot.vote_chart import num as _num
from forumbot.vote_chart import vote_round

# Ways out that the thread itself announces (a vote-result post, the penalty post); any other way out is
# shown publicly as a plain death, so the cause cannot tell who acted at night.
PUBLIC_REASONS = frozenset({"voted", "sun", "banished", "chosen", "drawn", "penalty", "suicide"})
# Events that are not "what happened" lines of the timeline (they have their own parts of the report).
_PLAIN = frozenset({"phase_opened", "deadline", "player_out", "ballot", "roles_dealt", "game_over", "vote_closed",
                    "banish_closed", "sage_vote_closed", "setup", "command_in_thread", "organiser_replace"})
# Event keys that hold a seat (or a list of seats): shown as names.
_SEAT_KEYS = frozenset({"seat", "voter", "target", "actor", "killer", "victim", "chosen", "from", "to", "tied",
                        "dead", "choices", "saved_seat", "guarded", "replaced", "out", "suicides", "warned",
                        "targets", "seats", "among", "starved", "criminals", "executed", "elder", "for", "by",
                        "seating", "choice"})


def extract(log: GameLog, public: bool = False) -> dict[str, Any]:
    """The report data of ``log``: ``meta``, ``players``, ``phases`` (the timeline), ``votes`` (one per
    vote round, run-offs included), ``deaths``, ``scores`` (sunlight: running personal scores and the win
    index against its threshold; else None), ``camps`` (living players per camp after each phase) and
    ``standings``. With ``public`` only what the thread showed (see the module docstring)."""
    g = log.game
    revealed = not public or g.finished
    names = _names_over_time(log)
    votes = _votes(log, _alive_at_open(log), names)
    if not public:
        votes += _secret_votes(log, len(votes), names)
    deaths = _deaths(log, public)
    summary = g.ruleset.summary() if revealed else {}
    scores, ranks = summary.get("scores", {}), summary.get("ranks", {})
    replaced = [e.data for r in log.records for e in r.step.events if e.kind == "organiser_replace"]
    players = []
    for p in g.players:
        row: dict[str, Any] = {"seat": p.seat, "name": p.name, "alive": p.alive}
        death = next((d for d in deaths if d["seat"] == p.seat), None)
        row["out_reason"] = death["reason"] if death else None
        row["out_round"] = death["round"] if death else None
        row["replaced"] = [d["old"] for d in replaced if d["seat"] == p.seat]  # the names the seat had before
        if revealed:
            row.update(role=p.role, camp=_camp(g, p.seat), score=_num(scores.get(p.seat)), rank=ranks.get(p.seat))
        players.append(row)
    return {
        "meta": {
            "title": log.title, "ruleset": g.ruleset.id, "locale": log.locale, "public": public,
            "finished": g.finished, "winner": g.winner if g.finished else None,
            "phase": {"kind": g.phase.kind, "round": g.phase.round, "id": g.phase.id},
        },
        "players": players,
        "phases": _timeline(log, votes, deaths, public, names),
        "votes": votes,
        "deaths": deaths,
        "scores": _scores(g) if revealed else None,
        "camps": _camps(log) if revealed else None,
        "standings": _standings(players) if revealed and g.finished else [],
    }


def _names_over_time(log: GameLog) -> list[dict[int, str]]:
    """Each record's seat -> name as the thread knew them when the record's input arrived (before it): a
    replacement (``replace 胖虎 新人``) renames a seat from its record on, and earlier rounds keep the name
    they showed. One dict per record, plus one after the last."""
    g = log.game
    replaces = [e.data for r in log.records for e in r.step.events if e.kind == "organiser_replace"]
    names = {p.seat: p.name for p in g.players}
    for d in reversed(replaces):  # back to the draw's names
        names[d["seat"]] = d["old"]
    out = [dict(names)]
    for r in log.records:
        for e in r.step.events:
            if e.kind == "organiser_replace":
                names[e.data["seat"]] = e.data["new"]
        out.append(dict(names))
    return out


def _alive_at_open(log: GameLog) -> dict[int, list[int]]:
    """phase id -> seats alive when the phase opened."""
    g = log.game
    alive = [p.seat for p in g.players]
    out: dict[int, list[int]] = {0: list(alive)}
    for r in log.records:
        for e in r.step.events:
            if e.kind == "player_out" and e.data["seat"] in alive:
                alive.remove(e.data["seat"])
            elif e.kind == "phase_opened":
                out[e.data["phase_id"]] = list(alive)
    return out


def _votes(log: GameLog, alive_at: dict[int, list[int]], names: list[dict[int, str]]) -> list[dict[str, Any]]:
    """Every vote round the thread was shown: the posts whose data carries ``ballots``; who was alive at
    the phase's opening is named as the thread named them when the post went out."""
    votes: list[dict[str, Any]] = []
    for i, r in enumerate(log.records):
        for post in r.step.posts:
            if "ballots" in post.data:
                alive = [names[i + 1][s] for s in alive_at.get(r.phase_id, [])]
                votes.append(vote_round(log.game, r.phase_id, post, alive, len(votes)))
    return votes


# Votes the rules keep secret (cast by private message, never shown in the thread): the full report only.
_SECRET_BALLOTS = {"exorcise_ballot": "exorcism", "crime_ballot": "crime"}


def _secret_votes(log: GameLog, start: int, names: list[dict[int, str]]) -> list[dict[str, Any]]:
    """The secret votes of each phase (human_kill's exorcism, interview_vampire's criminals' vote), from
    their ballot events; a later ballot of the same voter replaces the earlier one."""
    g = log.game
    votes: list[dict[str, Any]] = []
    for phase in g.phases:
        last: dict[int, dict[str, Any]] = {}
        kind = None
        named = names[0]
        for i, r in enumerate(log.records):
            if r.phase_id != phase.id:
                continue
            named = names[i + 1]  # the seats' names as the phase ends (so far)
            for e in r.step.events:
                if e.kind in _SECRET_BALLOTS:
                    kind = _SECRET_BALLOTS[e.kind]
                    last.pop(e.data["voter"], None)
                    last[e.data["voter"]] = e.data
        if not last:
            continue
        ballots: list[dict[str, Any]] = []
        totals: dict[str, Any] = {}
        for voter, d in last.items():
            seats = list(d["choices"]) if "choices" in d else ([d["choice"]] if d.get("choice") else [])
            weights = [_num(x) for x in d.get("votes", [1] * len(seats))]
            ballots.append({"voter": named[voter], "targets": [named[x] for x in seats], "weight": 1, "void": False,
                            "points": weights})
            for seat, w in zip(seats, weights, strict=False):
                totals[named[seat]] = totals.get(named[seat], 0) + w
        votes.append({
            "index": start + len(votes), "phase_id": phase.id, "phase": phase.kind, "round": phase.round, "number": 1,
            "kind": kind, "result": "secret", "chosen": None, "tied": [], "ballots": ballots,
            "totals": [{"name": n, "value": v} for n, v in sorted(totals.items(), key=lambda kv: -kv[1])],
            "missing": [], "hidden": False, "ranked": False, "secret": True,
        })
    return votes


def _deaths(log: GameLog, public: bool) -> list[dict[str, Any]]:
    g = log.game
    deaths = []
    for r in log.records:
        for e in r.step.events:
            if e.kind != "player_out":
                continue
            phase = g.phases[e.data["phase_id"]]
            reason = e.data["reason"]
            row = {"name": e.data["name"], "seat": e.data["seat"], "round": phase.round, "reason": reason}
            if public and reason not in PUBLIC_REASONS:
                row["reason"] = "died"
            if not public:
                row["phase"] = phase.kind
            deaths.append(row)
    return deaths


def _timeline(log: GameLog, votes: list[dict[str, Any]], deaths: list[dict[str, Any]], public: bool,
              names: list[dict[int, str]]) -> list[dict[str, Any]]:
    """One row a phase: its kind, round, times, who left, its votes, the replacements the thread announced
    in it (``replaced``: ``[{old, new, seat}]``) and, in the full report, its other events (``facts``) with
    seats named as the thread named them then."""
    g = log.game
    rows = []
    for ph in g.phases:
        recs = [(i, r) for i, r in enumerate(log.records) if r.phase_id == ph.id]
        events = [(i, e) for i, r in recs for e in r.step.events]
        row: dict[str, Any] = {
            "id": ph.id, "kind": ph.kind, "round": ph.round, "day": ph.day,
            "opened_at": _when(log, log.opened_at.get(ph.id)), "deadline": _when(log, log.deadlines.get(ph.id)),
            "out": [e.data["name"] for _, e in events if e.kind == "player_out"],
            "votes": [v["index"] for v in votes if v["phase_id"] == ph.id],
            "replaced": [{"old": e.data["old"], "new": e.data["new"], "seat": e.data["seat"]}
                         for _, e in events if e.kind == "organiser_replace"],
            "posts": sum(len(r.step.posts) for _, r in recs), "current": ph.id == g.phase.id and not g.finished,
        }
        if not public:
            row["facts"] = [_fact(g, e.kind, e.data, names[i]) for i, e in events if e.kind not in _PLAIN]
        rows.append(row)
    return rows


def _fact(g: Game, kind: str, data: dict[str, Any], names: dict[int, str] | None = None) -> dict[str, Any]:
    """An event for the timeline: its ``kind`` and its ``data`` with seats written as names (a list of seats as
    a list of names), as ``names`` (seat -> name when the event happened; default: the players' names now).
    ``<locale>/report/facts.html`` words it (:func:`forumbot.report.html.fact_line`)."""
    named = names if names is not None else {p.seat: p.name for p in g.players}

    def show(key: str, value: Any) -> Any:
        if key in _SEAT_KEYS:
            if isinstance(value, int) and not isinstance(value, bool) and value in named:
                return named[value]
            if isinstance(value, list) and value and all(isinstance(v, int) and not isinstance(v, bool)
                                                         and v in named for v in value):
                return [named[v] for v in value]
        return value

    return {"kind": kind, "data": {k: show(k, v) for k, v in data.items() if k != "phase_id"}}


def _when(log: GameLog, at: datetime | None) -> str | None:
    """``at`` for the timeline: the date and time in the season's zone followed by that zone as the season words
    it (``2026-12-04 23:26 北京时间``; :func:`forumbot.local_time.format_short`), UTC for a log without a zone;
    None for no time (a transcript has no clock)."""
    if at is None:
        return None
    return format_short(at, log.tz if log.tz is not None else ZoneInfo("UTC"), log.locale, log.time_zone_label)


def _camp(g: Game, seat: int) -> str:
    camp = getattr(g.ruleset, "camp", None)
    if callable(camp):
        return str(camp(seat))
    role = g.player(seat).role
    return type(g.ruleset).roles.get(role, role)


# Events that give a seat a new role from then on (seat -> role): the rulebook's own changes of side.
# 阳光下的罪恶: the successor is the killer from when he is named or drawn (「接任凶手」), not from the draw;
# 夜访吸血鬼: a converted player is a vampire, a vampire who sucked a vampire a criminal, from that dawn.
_ROLE_CHANGES: dict[str, Callable[[dict[str, Any]], dict[int, str]]] = {
    "successor": lambda d: {d["seat"]: "killer"},
    "dawn": lambda d: {**{int(s): "vampire" for s in d.get("converted", {})}, **{s: "criminal" for s in d.get("criminals", [])}},
}


def _camps(log: GameLog) -> dict[str, Any]:
    """Living players per camp after each phase, each player in the camp he was in then: the draw's role,
    changed by the events of :data:`_ROLE_CHANGES` from their phase on (a sunlight game has one killer
    at a time, not every successor from the prologue)."""
    g = log.game
    factions = type(g.ruleset).roles
    final = {p.seat: _camp(g, p.seat) for p in g.players}
    dealt = next((e.data["roles"] for r in log.records for e in r.step.events if e.kind == "roles_dealt"), None)
    start = _names_over_time(log)[0]
    if dealt is not None:
        role = {seat: dealt.get(name, g.player(seat).role) for seat, name in start.items()}
    else:
        role = {p.seat: p.role for p in g.players}
    names = sorted(set(final.values()) | {factions.get(r, r) for r in role.values()})
    alive = {p.seat for p in g.players}
    points = []
    for ph in g.phases:
        for r in log.records:
            if r.phase_id != ph.id:
                continue
            for e in r.step.events:
                if e.kind == "player_out":
                    alive.discard(e.data["seat"])
                elif e.kind in _ROLE_CHANGES:
                    role.update(_ROLE_CHANGES[e.kind](e.data))
        camp = {seat: factions.get(role[seat], role[seat]) for seat in role}
        points.append({"phase_id": ph.id, "kind": ph.kind, "round": ph.round,
                       "counts": {c: sum(1 for seat in alive if camp[seat] == c) for c in names}})
    return {"camps": names, "points": points}


def _scores(g: Game) -> dict[str, Any] | None:
    """Sunlight's score lines: each player's running personal score after each vote round, and the win
    index (Σ goods' correct points / Σ all points, suicides' ballots left out) against its threshold.
    Rulebook: 阳光下的罪恶 「个人积分及名次」 and the win index clause."""
    if g.ruleset.id != "sunlight":
        return None
    s = g.ruleset.s  # type: ignore[attr-defined]
    threshold: float = g.ruleset.params.win_threshold  # type: ignore[attr-defined]
    suicides = {p.seat for p in g.players if p.out_reason == "suicide"}
    rounds = [v.round for v in s.votes]
    lines: dict[str, list[float]] = {}
    for p in g.players:
        run, line = 0.0, []
        for rnd in rounds:
            run += s.good_scores.get(p.seat, {}).get(rnd, 0) + s.killer_scores.get(p.seat, {}).get(rnd, 0)
            line.append(_num(run))
        lines[p.name] = line
    index, correct, total = [], 0.0, 0.0
    for v in s.votes:
        correct += sum(x for voter, x in v.correct.items() if voter not in suicides)
        total += sum(x for voter, x in v.total.items() if voter not in suicides)
        index.append(round(correct / total, 4) if total else 0.0)
    return {"rounds": rounds, "lines": lines, "win_index": index, "threshold": threshold}


def _standings(players: list[dict[str, Any]]) -> list[dict[str, Any]]:
    rows = [p for p in players]
    return sorted(rows, key=lambda p: (p["rank"] if p.get("rank") is not None else 10**6, p["seat"]))
