"""阳光下的罪恶 (sunlight): one killer with succession, ranked votes, scores and clue polls.

Rulebook: ``shared/seeds/001_7b56574e43c15df1.txt``; rulings: ``shared/seeds/README.md`` § sunlight.
Timeline: day 1 prologue, day 2 a vote round (round 1), then kill and vote rounds alternate. After a
vote round that put someone out, a ``poll`` phase holds the clue poll and, when the killer was voted
out, the window in which he names his successor. Scores are in points (floats, halves possible).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from pydantic import Field

from forumbot.engine.actions import Action, Count, Distinct, Each, Refusal, living, not_self
from forumbot.engine.game import Game
from forumbot.engine.orders import Order, TeamOrders
from forumbot.engine.ruleset import Params, Ruleset, register
from forumbot.engine.strikes import Strikes
from forumbot.engine.types import Step
from forumbot.engine.votes import Ballot, Vote, VoteRule
from forumbot.language.types import Command
from forumbot.rulesets.sunlight import events as ev

KILLER, GOOD = "killer", "good"
CLUES = (1, 2, 3)
#: A vote round (README § sunlight): 「A ballot names one or two distinct living players, ranked: 3 points for
#: the first, 2 for the second」; 「A ballot that names the voter is a self-vote: void」; 「The player with the
#: most points received is out; a tie at the top, or no ballots, puts nobody out」 (the first ballot stands).
#: ``points`` is a parameter.
VOTE_ROUND = VoteRule("vote round", votes=1, last_tie="nobody", points=(3, 2), self_vote="void")
#: The clue poll (README § sunlight): 「the clue(s) with the most votes are published, all of them when 2 or 3
#: are tied, even when "no clue" ties with them; "no clue" alone on top, or no votes, publishes nothing」; a
#: later choice replaces the earlier one in its place. Option 0 is "no clue".
CLUE_POLL = VoteRule("clue poll", votes=1, last_tie="all", change="replace_in_place")


class SunlightParams(Params):
    """Season parameters of sunlight; defaults are the rulebook's (README rulings marked config)."""

    win_threshold: float = Field(0.35, ge=0, le=1, description="win index at or above which the goods win")
    points: tuple[float, float] = Field((3, 2), description="points of a ballot's first and second name")
    camp_bonus: float = Field(3, description="bonus to every non-suicide member of the winning camp")
    suicide_score: float = Field(-20, description="final score of a suicide")
    penalty_score: float = Field(-30, description="final score of a player the organiser penalises")
    strikes_to_suicide: int = Field(2, ge=1, description="missed or self votes that make a suicide")
    successor_min_goods: int = Field(4, ge=1, description="goods alive for a voted-out killer to name a successor")
    clue_poll: bool = Field(True, description="hold a clue poll after a vote round that put someone out")
    will_phases: int = Field(1, ge=0, description="phases after his exit in which a player may post last words")


@dataclass
class VoteRecord:
    """One closed vote round, for scores, clues, the win index and the final post."""

    round: int
    killer: int
    ballots: list[Ballot]
    received: dict[int, float]
    n: int
    good_scores: dict[int, float]
    killer_score: float
    correct: dict[int, float]  # voter -> points a good gave the killer
    total: dict[int, float]  # voter -> points the ballot gave in all
    out: int | None
    tied: list[int]
    warned: list[int]
    suicides: list[int]


@dataclass
class KillRecord:
    round: int
    killer: int
    victim: int | None


@dataclass
class ClueSnapshot:
    """The three clues as of one vote round (published later, if chosen)."""

    round: int
    voted_out: str
    voted_out_was_killer: bool
    good_scores: list[float]
    index_reached: bool


@dataclass
class _State:
    killers: list[int] = field(default_factory=list)
    survival: dict[int, float] = field(default_factory=dict)
    good_scores: dict[int, dict[int, float]] = field(default_factory=dict)
    killer_scores: dict[int, dict[int, float]] = field(default_factory=dict)
    votes: list[VoteRecord] = field(default_factory=list)
    kills: list[KillRecord] = field(default_factory=list)
    published: dict[int, Any] = field(default_factory=dict)  # clue number -> content, in order
    to_publish: list[dict[str, Any]] = field(default_factory=list)
    successor_pending: int | None = None
    clue_options: list[int] = field(default_factory=list)
    clue_poll: Vote = field(default_factory=lambda: Vote(CLUE_POLL))
    clue_snapshot: ClueSnapshot | None = None
    # the last clue poll published nothing: "no_clue" ("no clue" alone on top) or "no_votes"; said in the kill post
    poll_nothing: str | None = None
    final_survival: dict[int, float] = field(default_factory=dict)


# --- the actions (forumbot.engine.actions): who may do what, when, on whom ------------------------------
def _names_data(rs: Any, seat: int, bad: list[int]) -> dict[str, Any]:
    return {"targets": rs.game.names(bad)}


def _already_voted(rs: Any, seat: int, cmd: Command) -> Refusal | None:
    """The first ballot stands: a second is refused."""
    existing = rs.vote.ballot_of(seat)
    return None if existing is None else Refusal("already_voted", {"ballot": rs.game.names(existing.choices),
                                                                  "void": existing.void})


def _clue_option(rs: Any, seat: int, cmd: Command) -> Refusal | None:
    number = cmd.number if cmd.number is not None else -1
    if number != 0 and number not in rs.s.clue_options:
        return Refusal("clue_option", {"number": number, "options": rs.s.clue_options})
    return None


ACTIONS = (
    # the dead are told they are out before the phase, in any phase
    Action("vote", ("vote",), "_vote", phases=("vote",),
           targets=(Count(1, lambda rs, seat: len(rs.params.points), "vote_count"),
                    Distinct("vote_duplicate", lambda rs, seat, cmd: {"targets": rs.game.names(cmd.targets)}),
                    living(shape="targets")),
           again="refused", already=_already_voted, owes=lambda rs, seat: rs.vote.ballot_of(seat) is None),
    Action("kill", ("kill",), "_kill", phases=("kill",), who=lambda rs, seat: seat == rs.killer,
           targets=(Count(1, 1, "kill_count"), not_self("kill_self"), living(shape="targets")),
           owes=lambda rs, seat: rs.orders.of(KILLER) is None),
    # a voted-out killer (out of the game) names his successor in the poll window
    Action("successor", ("successor",), "_successor", phases=("poll",), alive=None,
           who=lambda rs, seat: rs.s.successor_pending == seat, who_reason="no_successor_due",
           targets=(Count(1, 1, "successor_count"),
                    Each(lambda rs, seat, t: rs.game.player(t).alive and t != seat, "dead_target", _names_data)),
           owes=lambda rs, seat: True),
    Action("clue", ("clue",), "_clue", phases=("poll",), when=lambda rs: bool(rs.s.clue_options),
           phase_reason="no_clue_poll", checks=(_clue_option,), owes=lambda rs, seat: rs.s.clue_poll.ballot_of(seat) is None,
           numbers=lambda rs: (0, *rs.s.clue_options)),
)


@register
class Sunlight(Ruleset):
    """The sunlight ruleset (see the module docstring)."""

    id = "sunlight"
    rules_version = "1"  # bump when the same inputs would decide differently (docs/runtime.md § Versions)
    Params = SunlightParams
    roles: ClassVar[dict[str, str]] = {KILLER: KILLER, GOOD: GOOD}
    default_role = GOOD
    phase_kinds = ("prologue", "vote", "poll", "kill")
    min_players = 4
    actions = ACTIONS

    def __init__(self, game: Game, params: SunlightParams) -> None:
        super().__init__(game, params)
        self.params: SunlightParams = params
        self.s = _State()
        self.vote = Vote(replace(VOTE_ROUND, points=params.points))
        self.orders = TeamOrders()
        self.strikes = Strikes()

    # --- set-up -----------------------------------------------------------------------------------
    def role_counts(self, n_players: int) -> dict[str, int]:
        """One killer; everyone else good (rulebook: 「比赛前抽签产生1名凶手」)."""
        return {KILLER: 1, GOOD: n_players - 1}

    @property
    def killer(self) -> int:
        """The current killer's seat (may be dead while his successor is pending)."""
        return self.s.killers[-1]

    def start(self, out: Step) -> None:
        g = self.game
        killers = [p.seat for p in g.players if p.role == KILLER]
        if len(killers) != 1:
            from forumbot.engine.game import SetupError

            raise SetupError(f"sunlight needs exactly one killer in the draw, got {len(killers)}")
        self.s.killers = killers
        for p in g.players:
            g.reply(p.seat, "sunlight/role", out, **self.role_reply_data(p.seat))
        g.post("sunlight/opening", out, players=[p.name for p in g.players], params=self.params.model_dump())

    def role_reply_data(self, seat: int) -> dict[str, Any]:
        g = self.game
        return {"name": g.name(seat), "role": g.player(seat).role, "seat": seat, "players": [p.name for p in g.players]}

    # --- commands ---------------------------------------------------------------------------------
    # Every check of who may act, when and on whom is declared in ACTIONS (module level, above the class);
    # the handlers only record what passed.
    def on_thread_post(self, seat: int, text: str, out: Step) -> None:
        """Commands go by private message (a command posted in the thread is answered by the
        engine's shared rule, :meth:`Game.apply`). A dead player's post follows the last-words rule
        (:meth:`Game.dead_player_post`)."""
        g = self.game
        if not g.player(seat).alive:
            g.dead_player_post(seat, out)

    def _vote(self, seat: int, cmd: Command, out: Step) -> None:
        g = self.game
        targets = list(cmd.targets)
        ballot = self.vote.cast(seat, targets)
        assert ballot is not None  # he has no standing ballot (the first stands: checked before)
        void = ballot.void  # a self-vote
        out.events.append(ev.Ballot(round=g.phase.round, voter=seat, choices=targets, void=void))
        key = "sunlight/vote_self" if void else "sunlight/vote_recorded"
        points = list(self.params.points[: len(targets)])
        g.reply(seat, key, out, round=g.phase.round, choices=g.names(targets), points=points, read_as=g.read_as(cmd))

    def _kill(self, seat: int, cmd: Command, out: Step) -> None:
        g = self.game
        target = cmd.targets[0]
        previous = self.orders.give(KILLER, Order(seat, "kill", target))
        out.events.append(ev.KillOrder(round=g.phase.round, killer=seat, target=target))
        g.reply(
            seat, "sunlight/kill_recorded", out, round=g.phase.round, target=g.name(target),
            replaced=g.name(previous.target) if previous else None, read_as=g.read_as(cmd),
        )

    def _successor(self, seat: int, cmd: Command, out: Step) -> None:
        g = self.game
        target = cmd.targets[0]
        g.reply(seat, "sunlight/successor_recorded", out, successor=g.name(target), read_as=g.read_as(cmd))
        self._make_successor(target, "named", out)

    def _clue(self, seat: int, cmd: Command, out: Step) -> None:
        g = self.game
        number = cmd.number if cmd.number is not None else -1
        before = self.s.clue_poll.ballot_of(seat)
        previous = before.choices[0] if before else None
        self.s.clue_poll.cast(seat, (number,), weight=1)  # whole votes: the counts are published as integers
        out.events.append(ev.ClueVote(round=g.phase.round, voter=seat, clue=number))
        g.reply(seat, "sunlight/clue_recorded", out, number=number, replaced=previous)

    # --- phases -----------------------------------------------------------------------------------
    def close_phase(self, out: Step) -> None:
        kind = self.game.phase.kind
        if kind == "prologue":
            self._open_vote(1, out)
        elif kind == "vote":
            self._close_vote(out)
        elif kind == "poll":
            self._close_poll(out)
        elif kind == "kill":
            self._close_kill(out)

    def _open_vote(self, round_: int, out: Step) -> None:
        g = self.game
        g.open_phase("vote", round_, round_ + 1, out)
        self.vote = Vote(replace(VOTE_ROUND, points=self.params.points))
        g.post("sunlight/vote_open", out, round=round_, alive=g.names(g.alive()), points=list(self.params.points))

    def _open_kill(self, round_: int, out: Step) -> None:
        g = self.game
        g.open_phase("kill", round_, round_ + 1, out)
        self.orders.clear()
        clues, self.s.to_publish = self.s.to_publish, []
        nothing, self.s.poll_nothing = self.s.poll_nothing, None
        g.post("sunlight/kill_open", out, round=round_, alive=g.names(g.alive()), clues=clues, poll_nothing=nothing)

    def _close_vote(self, out: Step) -> None:
        g, s, p = self.game, self.s, self.params
        round_ = g.phase.round
        killer = self.killer
        warned, suicides = [], []
        for seat in g.alive():
            ballot = self.vote.ballot_of(seat)
            if ballot is None or ballot.void:
                if self.strikes.add(seat) >= p.strikes_to_suicide:
                    suicides.append(seat)
                else:
                    warned.append(seat)
        for seat in suicides:
            g.remove(seat, "suicide", out)
        valid = self.vote.valid()
        n = len(valid)
        received = self.vote.received()
        good_scores: dict[int, float] = {}
        correct: dict[int, float] = {}
        total: dict[int, float] = {}
        for b in valid:
            given = self.vote.points_of(b)
            total[b.voter] = sum(pts for _, pts in given)
            if b.voter != killer:
                right = sum(pts for c, pts in given if c == killer)
                good_scores[b.voter] = right - (total[b.voter] - right)
                correct[b.voter] = right
                s.good_scores.setdefault(b.voter, {})[round_] = good_scores[b.voter]
        killer_score = 1.5 * n - received.get(killer, 0)
        s.killer_scores.setdefault(killer, {})[round_] = killer_score
        outcome = self.vote.close(g.alive())
        out_seat = outcome.chosen
        if out_seat is not None:
            g.remove(out_seat, "voted", out)
        record = VoteRecord(
            round_, killer, self.vote.ballots, received, n, good_scores, killer_score, correct, total,
            out_seat, list(outcome.tied), warned, suicides,
        )
        s.votes.append(record)
        out.events.append(ev.VoteClosed(round=round_, out=out_seat, suicides=suicides, warned=warned))
        for seat in warned:
            g.reply(seat, "sunlight/warning", out, round=round_, strikes=self.strikes.of(seat), limit=p.strikes_to_suicide)
        for seat in suicides:
            g.reply(seat, "sunlight/suicide", out, round=round_)
        shown = sorted(set(g.alive()) | set(suicides) | ({out_seat} if out_seat else set()))
        g.post(
            "sunlight/vote_result", out, round=round_,
            ballots=[{"voter": g.name(b.voter), "choices": g.names(b.choices), "void": b.void} for b in record.ballots],
            received=[{"name": g.name(seat), "points": received.get(seat, 0)} for seat in shown],
            out=g.name(out_seat) if out_seat else None, tied=g.names(record.tied),
            warned=g.names(warned), suicides=g.names(suicides), limit=p.strikes_to_suicide,
        )
        goods = [seat for seat in g.alive() if seat != killer]
        killer_alive = g.player(killer).alive
        if (killer_alive and len(goods) <= 2) or (not killer_alive and len(goods) < p.successor_min_goods):
            self._finish(out)
            return
        snapshot = self._snapshot(record) if out_seat is not None else None
        if not killer_alive:
            if g.player(killer).out_reason == "voted":
                s.successor_pending = killer
                g.reply(killer, "sunlight/name_successor", out, goods=g.names(goods))
            else:
                self._draw_successor(out)
        s.clue_options = [c for c in CLUES if c not in s.published] if (p.clue_poll and snapshot) else []
        s.clue_snapshot = snapshot
        s.clue_poll = Vote(CLUE_POLL)
        # The window opens after every vote round that put someone out, clue poll or not: one that
        # opened only for a voted-out killer's successor would tell everyone the killer was out
        # (「出局后均不公布身份」).
        if out_seat is not None or s.successor_pending is not None:
            g.open_phase("poll", round_, round_ + 1, out)
            if s.clue_options:
                g.post("sunlight/clue_poll", out, round=round_, options=s.clue_options)
        else:
            self._open_kill(round_ + 1, out)

    def _snapshot(self, record: VoteRecord) -> ClueSnapshot:
        g = self.game
        goods = [seat for seat in g.alive() if seat != record.killer]
        scores = sorted((self._good_total(seat) for seat in goods), reverse=True)
        correct, total = self.win_sums()
        reached = total > 0 and correct / total >= self.params.win_threshold
        assert record.out is not None  # a snapshot is taken only when a player went out
        return ClueSnapshot(record.round, g.name(record.out), record.out == record.killer, scores, reached)

    def _good_total(self, seat: int) -> float:
        """Survival plus good scores so far, without bonus (clue 2's figure)."""
        return self.s.survival.get(seat, 0) + sum(self.s.good_scores.get(seat, {}).values())

    def _close_poll(self, out: Step) -> None:
        g, s = self.game, self.s
        if s.successor_pending is not None:
            self._draw_successor(out)
        if s.clue_options and s.clue_snapshot is not None:
            outcome = s.clue_poll.close(None)
            counts = outcome.received
            leaders = [c for c in s.clue_poll.decide(g, outcome, "clue", out).winners if c != 0]
            for number in leaders:
                content = self._clue_content(number, s.clue_snapshot)
                s.published[number] = content
                s.to_publish.append({"number": number, **content})
            if not leaders:
                s.poll_nothing = "no_clue" if counts else "no_votes"
            out.events.append(ev.CluePollClosed(round=g.phase.round, counts=counts, published=leaders))
        s.clue_options, s.clue_poll, s.clue_snapshot = [], Vote(CLUE_POLL), None
        self._open_kill(g.phase.round + 1, out)

    def _clue_content(self, number: int, snap: ClueSnapshot) -> dict[str, Any]:
        if number == 1:
            return {"round": snap.round, "player": snap.voted_out, "was_killer": snap.voted_out_was_killer}
        if number == 2:
            return {"round": snap.round, "scores": snap.good_scores}
        return {"round": snap.round, "reached": snap.index_reached, "threshold": self.params.win_threshold}

    def _close_kill(self, out: Step) -> None:
        g, s = self.game, self.s
        round_ = g.phase.round
        order = self.orders.of(KILLER)
        victim = None
        if order and g.player(order.target).alive and g.player(self.killer).alive and order.actor == self.killer:
            victim = order.target
            g.remove(victim, "killed", out)
        for seat in g.alive():
            s.survival[seat] = s.survival.get(seat, 0) + 1
        s.kills.append(KillRecord(round_, self.killer, victim))
        out.events.append(ev.KillClosed(round=round_, victim=victim))
        g.post("sunlight/kill_result", out, round=round_, victim=g.name(victim) if victim else None)
        self._open_vote(round_ + 1, out)

    # --- succession -------------------------------------------------------------------------------
    def _draw_successor(self, out: Step) -> None:
        g = self.game
        goods = [seat for seat in g.alive() if seat != self.killer]
        if not goods:
            return
        chosen = g.rng(f"successor:{g.phase.id}").choice(goods)
        out.events.append(ev.SuccessorDrawn(seat=chosen, among=goods))
        self._make_successor(chosen, "drawn", out)

    def _make_successor(self, seat: int, how: str, out: Step) -> None:
        g = self.game
        self.s.successor_pending = None
        self.s.killers.append(seat)
        g.player(seat).role = KILLER
        out.events.append(ev.Successor(seat=seat, name=g.name(seat), how=how))
        g.reply(seat, "sunlight/you_are_killer", out, name=g.name(seat), phase=g.phase.kind)

    def on_removed(self, seat: int, out: Step) -> None:
        """Penalised killer: a successor is drawn at once (as for a suicide)."""
        if seat == self.killer and not self.game.finished:
            self.orders.clear()
            self._draw_successor(out)

    # --- the end ----------------------------------------------------------------------------------
    def win_sums(self) -> tuple[float, float]:
        """(Σ goods' correct points, Σ all ballot points) over every vote round, without the
        ballots of suicides (rulebook: 「自杀者所有相关投票积分从各项集体累计中剔除」)."""
        g = self.game
        suicides = {p.seat for p in g.players if p.out_reason == "suicide"}
        correct = sum(v for r in self.s.votes for voter, v in r.correct.items() if voter not in suicides)
        total = sum(v for r in self.s.votes for voter, v in r.total.items() if voter not in suicides)
        return correct, total

    def win_index(self) -> float:
        """Σ correct / Σ total (0 when no points were cast)."""
        correct, total = self.win_sums()
        return correct / total if total else 0.0

    def _finish(self, out: Step, final_survival: bool = True) -> None:
        g, s = self.game, self.s
        if final_survival:
            killer = self.killer
            goods = [seat for seat in g.alive() if seat != killer]
            if g.player(killer).alive:
                s.final_survival[killer] = 1
                if len(goods) == 2:
                    for seat in goods:
                        s.final_survival[seat] = 0.5
            else:
                for seat in goods:
                    s.final_survival[seat] = 1
            for seat, pts in s.final_survival.items():
                s.survival[seat] = s.survival.get(seat, 0) + pts
        winner = GOOD if self.win_index() >= self.params.win_threshold else KILLER
        g.finish(winner, out)
        g.post("sunlight/final", out, **self.final_data())

    def end_now(self, out: Step) -> None:
        self._finish(out, final_survival=False)

    def camp(self, seat: int) -> str:
        """"killer" for every killer, first or successor; "good" for complete goods."""
        return KILLER if seat in self.s.killers else GOOD

    def breakdown(self, seat: int) -> dict[str, Any]:
        """The parts of ``seat``'s final score (rulebook 「个人积分及名次」)."""
        g, s, p = self.game, self.s, self.params
        killers = s.killers
        own_killer = sum(s.killer_scores.get(seat, {}).values()) if seat in killers else 0
        later = sum(sum(s.killer_scores.get(k, {}).values()) for k in killers[killers.index(seat) + 1:]) if seat in killers else 0
        good = sum(s.good_scores.get(seat, {}).values())
        won = g.finished and g.winner == self.camp(seat)
        flat = None
        if seat in g.penalties:
            flat = p.penalty_score
        elif g.player(seat).out_reason == "suicide":
            flat = p.suicide_score
        bonus = p.camp_bonus if (won and flat is None) else 0
        parts = {"survival": s.survival.get(seat, 0), "good": good, "killer": own_killer, "inherited": later, "bonus": bonus}
        return {**parts, "total": flat if flat is not None else sum(parts.values()), "flat": flat}

    def scores(self) -> dict[int, float]:
        """Final score of every seat (points)."""
        return {p.seat: self.breakdown(p.seat)["total"] for p in self.game.players}

    def ranks(self) -> dict[int, int]:
        """Rank of every seat by final score; ties share a rank (1, 1, 3)."""
        sc = self.scores()
        ordered = sorted(sc.values(), reverse=True)
        return {seat: ordered.index(v) + 1 for seat, v in sc.items()}

    def final_data(self) -> dict[str, Any]:
        """Everything the final post reveals: roles, every round's table, scores, index, ranking."""
        g, s = self.game, self.s
        ranks = self.ranks()
        correct, total = self.win_sums()
        players = []
        for p in g.players:
            label = GOOD
            if p.seat in s.killers:
                label = "first_killer" if p.seat == s.killers[0] else "successor"
            players.append({
                "seat": p.seat, "name": p.name, "role": label, "alive": p.alive, "out": p.out_reason,
                "rank": ranks[p.seat], **self.breakdown(p.seat),
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
            "win_index": (correct / total) if total else 0.0, "threshold": self.params.win_threshold,
        }

    # --- reporting --------------------------------------------------------------------------------
    def status_data(self, seat: int) -> dict[str, Any]:
        g, s = self.game, self.s
        ballot = self.vote.ballot_of(seat) if g.phase.kind == "vote" else None
        clue = s.clue_poll.ballot_of(seat)
        order = self.orders.of(KILLER) if (g.phase.kind == "kill" and seat == self.killer) else None
        return {
            "phase": g.phase.kind, "round": g.phase.round, "alive": g.player(seat).alive,
            "ballot": g.names(ballot.choices) if ballot else None, "void": bool(ballot and ballot.void),
            "kill": g.name(order.target) if order else None, "is_killer": seat == self.killer,
            "clue": clue.choices[0] if clue and g.phase.kind == "poll" else None,
            "clue_options": s.clue_options, "strikes": self.strikes.of(seat),
            "successor_due": s.successor_pending == seat,
        }

    def help_data(self, seat: int | None) -> dict[str, Any]:
        return {**super().help_data(seat), "clue_options": self.s.clue_options}

    def summary(self) -> dict[str, Any]:
        return {
            "winner": self.game.winner, "scores": self.scores(), "ranks": self.ranks(),
            "win_index": self.win_index(), "killers": list(self.s.killers),
        }
