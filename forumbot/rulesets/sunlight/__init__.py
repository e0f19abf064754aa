"""阳光下的罪恶 (sunlight): one killer with succession, ranked votes, scores and clue polls.

Rulebook: 《阳光下的罪恶》规则讨论 (【版杀21】); rulings: ``docs/sunlight.md``.
Timeline: day 1 prologue, day 2 a vote round (round 1), then kill and vote rounds alternate. After a
vote round that put someone out, a ``poll`` phase holds the clue poll and, when the killer was voted
out, the window in which he names his successor. Scores are in points (floats, halves possible).

This module holds the set-up, the rounds' resolution, the succession and the win rule; ``scoring`` (the
scores and the ranking) and ``clues`` (the clue poll) are rules of their own. The package declares the rest:
``params`` (the season's parameters), ``actions`` (roles, votes, who may do what and what it records),
``state`` (what the game keeps), ``views`` (what posts and replies show), ``events`` (the facts).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar

from forumbot.engine.game import Game, SetupError
from forumbot.engine.orders import TeamOrders
from forumbot.engine.ruleset import Ruleset, register
from forumbot.engine.strikes import Strikes
from forumbot.engine.types import Step
from forumbot.engine.votes import Vote
from forumbot.rulesets.sunlight import clues, scoring, views
from forumbot.rulesets.sunlight import events as ev
from forumbot.rulesets.sunlight.actions import ACTIONS, GOOD, KILLER, VOTE_ROUND
from forumbot.rulesets.sunlight.params import SunlightParams
from forumbot.rulesets.sunlight.state import KillRecord, State, VoteRecord

__all__ = ["Sunlight", "SunlightParams"]


@register
class Sunlight(Ruleset):
    """The sunlight ruleset (see the module docstring)."""

    id = "sunlight"
    #: a successor learns he is the killer by private message (the rulebook's 接任凶手)
    knowledge = frozenset({"sunlight/you_are_killer"})
    rules_version = "2"  # bump when the same inputs would decide differently (docs/runtime.md § Versions)
    Params = SunlightParams
    roles: ClassVar[dict[str, str]] = {KILLER: KILLER, GOOD: GOOD}
    default_role = GOOD
    phase_kinds = ("prologue", "vote", "poll", "kill")
    min_players = 4
    actions = ACTIONS
    closers: ClassVar[dict[str, str]] = {
        "prologue": "_close_prologue", "vote": "_close_vote", "poll": "_close_poll", "kill": "_close_kill",
    }
    role_reply_data = views.role_reply_data
    status_extras = views.status_extras
    help_data = views.help_data
    final_data = views.final_data
    summary = views.summary
    camp = scoring.camp
    breakdown = scoring.breakdown
    scores = scoring.scores
    ranks = scoring.ranks

    def __init__(self, game: Game, params: SunlightParams) -> None:
        super().__init__(game, params)
        self.params: SunlightParams = params
        self.s = State()
        self.vote_rule = replace(VOTE_ROUND, points=params.points)  # one a season: its points are a parameter
        self.vote = Vote(self.vote_rule)
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
            raise SetupError(f"sunlight needs exactly one killer in the draw, got {len(killers)}")
        self.s.killers = killers
        for p in g.players:
            g.reply(p.seat, "sunlight/role", out, **self.role_reply_data(p.seat))
        g.post("sunlight/opening", out, players=[p.name for p in g.players], params=self.params.model_dump())

    # --- phases -----------------------------------------------------------------------------------
    def _close_prologue(self, out: Step) -> None:
        self._open_vote(1, out)

    def _open_vote(self, round_: int, out: Step) -> None:
        g = self.game
        g.open_phase("vote", round_, round_ + 1, out)
        self.vote = Vote(self.vote_rule)
        g.post("sunlight/vote_open", out, round=round_, alive=g.names(g.alive()), points=list(self.params.points))

    def _open_kill(self, round_: int, out: Step) -> None:
        g = self.game
        g.open_phase("kill", round_, round_ + 1, out)
        self.orders.clear()
        published, self.s.to_publish = self.s.to_publish, []
        nothing, self.s.poll_nothing = self.s.poll_nothing, None
        g.post("sunlight/kill_open", out, round=round_, alive=g.names(g.alive()), clues=published, poll_nothing=nothing)

    def _close_vote(self, out: Step) -> None:
        """The vote round's close: strikes and suicides, the scores, who is out, then the end check, the
        successor and the clue poll (the rulings, docs/sunlight.md)."""
        g, s, p = self.game, self.s, self.params
        round_ = g.phase.round
        killer = self.killer
        # 「First missed or self vote: a warning ... Second: the player is out as a suicide」, before the tally
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
        sc = scoring.score_round(self.vote, killer)
        for voter, points in sc.good_scores.items():
            s.good_scores.setdefault(voter, {})[round_] = points
        s.killer_scores.setdefault(killer, {})[round_] = sc.killer_score
        # 「The player with the most points received is out; a tie at the top, or no ballots, puts nobody out」
        outcome = self.vote.close(g.alive())
        out_seat = outcome.chosen
        if out_seat is not None:
            g.remove(out_seat, "voted", out)
        record = VoteRecord(
            round_, killer, self.vote.ballots, sc.received, sc.n, sc.good_scores, sc.killer_score, sc.correct,
            sc.total, out_seat, list(outcome.tied), warned, suicides,
        )
        s.votes.append(record)
        out.events.append(ev.VoteClosed(round=round_, out=out_seat, suicides=suicides, warned=warned))
        for seat in warned:
            g.reply(seat, "sunlight/warning", out, round=round_, strikes=self.strikes.of(seat), limit=p.strikes_to_suicide)
        for seat in suicides:
            g.reply(seat, "sunlight/suicide", out, round=round_)
        g.post("sunlight/vote_result", out, **views.vote_result_data(self, record))
        # the end: 「the killer is alive with 2 goods or fewer, or the killer is out with 3 goods or fewer」
        goods = [seat for seat in g.alive() if seat != killer]
        killer_alive = g.player(killer).alive
        if (killer_alive and len(goods) <= 2) or (not killer_alive and len(goods) < p.successor_min_goods):
            self._finish(out)
            return
        # 「A voted-out killer with 4 or more goods alive names a successor ... A killer out by suicide is
        # replaced by a draw」
        if not killer_alive:
            if g.player(killer).out_reason == "voted":
                s.successor_pending = killer
                g.reply(killer, "sunlight/name_successor", out, goods=g.names(goods))
            else:
                self._draw_successor(out)
        clues.prepare(self, record)
        # The window opens after every vote round that put someone out, clue poll or not: one that
        # opened only for a voted-out killer's successor would tell everyone the killer was out
        # (「出局后均不公布身份」).
        if out_seat is not None or s.successor_pending is not None:
            g.open_phase("poll", round_, round_ + 1, out)
            if s.clue_options:
                g.post("sunlight/clue_poll", out, round=round_, options=s.clue_options)
        else:
            self._open_kill(round_ + 1, out)

    def _close_poll(self, out: Step) -> None:
        """The successor window and the clue poll close: a successor not named in time is drawn; the
        clue(s) on top are published in the next kill round's post."""
        if self.s.successor_pending is not None:
            self._draw_successor(out)
        clues.close(self, out)
        self._open_kill(self.game.phase.round + 1, out)

    def _close_kill(self, out: Step) -> None:
        """The kill round's close: the killer's order kills (「每次杀人轮杀1人」; none: nobody dies); then
        「+1 to every survivor but the victim, at each kill round (the killer included)」."""
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
        """「if none is named in time, one is drawn at random (seeded)」 among the living goods."""
        g = self.game
        goods = [seat for seat in g.alive() if seat != self.killer]
        if not goods:
            return
        chosen = g.rng(f"successor:{g.phase.id}").choice(goods)
        out.events.append(ev.SuccessorDrawn(seat=chosen, among=goods))
        self.make_successor(chosen, "drawn", out)

    def make_successor(self, seat: int, how: str, out: Step) -> None:
        """``seat`` (``how``: "named" or "drawn") is the killer now: 「only the new killer is told」."""
        g = self.game
        self.s.successor_pending = None
        self.s.killers.append(seat)
        g.player(seat).role = KILLER
        out.events.append(ev.Successor(seat=seat, name=g.name(seat), how=how))
        g.reply(seat, "sunlight/you_are_killer", out, name=g.name(seat), phase=g.phase.kind)

    def penalty_data(self, seat: int) -> dict[str, Any]:
        """《阳光下的罪恶》 scoring: 「被法官视为恶意灌水以及潜水出局者直接以-30分计」: the penalised player's final score (``penalty_score``)."""
        return {"score": self.params.penalty_score}

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
        """Final survival points (「killer out, 2–3 goods: +1 each; killer with 1 good: killer +1; killer
        with 2 goods: killer +1, goods +0.5 each」), then 「Win index ... ≥ 35% (config): goods win」."""
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
        self.finish_game(GOOD if self.win_index() >= self.params.win_threshold else KILLER, None, out)

    def end_now(self, out: Step) -> None:
        """The organiser's ``end``: the win index of the vote rounds played decides, as at the end (the rulebook
        has no early end; docs/sunlight.md § End and scores); before any ballot point was cast it is 0 / 0 and
        decides nothing: no winner (and no camp bonus)."""
        if not self.win_sums()[1]:
            self.finish_game(None, None, out)
            return
        self._finish(out, final_survival=False)

