"""The votes of vampire_village (吸血鬼村莊) as phases: the sheriff's election on day 1 and the day vote, each
with its revote among the tied (the rules: :data:`~forumbot.rulesets.vampire_village.actions.ELECTION`,
:data:`~forumbot.rulesets.vampire_village.actions.DAY_VOTE`). Functions of the ruleset
(:class:`~forumbot.rulesets.vampire_village.VampireVillage`); :func:`close_election` and :func:`close_vote` are
closers.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from forumbot.engine.types import Step
from forumbot.engine.votes import Vote
from forumbot.rulesets.vampire_village import events as ev
from forumbot.rulesets.vampire_village import views
from forumbot.rulesets.vampire_village.actions import DAY_VOTE, ELECTION

if TYPE_CHECKING:
    from forumbot.rulesets.vampire_village import VampireVillage


def open_vote(rs: VampireVillage, kind: str, out: Step, tied: tuple[int, ...] = ()) -> None:
    """Open the election or the day vote (``kind``), or, with ``tied``, its revote among the tied
    (「票數相同的最高票玩家開始發言進行PK.然後玩家再次投票」)."""
    g = rs.game
    if tied:
        rs.vote.next(tied)
    else:
        rs.vote = Vote(ELECTION if kind == "election" else
                       replace(DAY_VOTE, votes=rs.params.votes, last_tie=rs.params.tie_fallback))
    g.open_phase(kind, g.phase.round, g.phase.round, out)
    g.post("vampire_village/vote_open", out, **views.vote_open_data(rs, kind, tied))


def close_election(rs: VampireVillage, out: Step) -> None:
    """「公投警長（僅第二天白天，自由發言之後）：還沒有警長，則所有玩家投票選出警長。（必須要有警長）」: the most votes
    is sheriff; a tie: a revote among the tied, then a seeded draw; then the day vote."""
    g = rs.game
    outcome = rs.vote.close(g.alive())
    out.events.append(ev.VoteClosed(vote_kind="election", number=outcome.number, result=outcome.kind,
                                    chosen=outcome.chosen, tied=list(outcome.tied)))
    decision = rs.vote.decide(g, outcome, f"sheriff:{outcome.number}", out)
    result = "elected" if decision.how == "decided" else decision.how
    chosen = decision.chosen
    g.post("vampire_village/vote_result", out, **views.vote_result_data(rs, "election", outcome, result, chosen, []))
    if result == "runoff":
        return open_vote(rs, "election", out, outcome.tied)
    rs.elected = True
    if chosen is not None:
        rs.sheriff.give(chosen, result, out)
    rs.after = "vote"
    rs.go_on(out)


def close_vote(rs: VampireVillage, out: Step) -> None:
    """「所有玩家投票，得票最高者被殺死。如果有平票則進入PK。所有玩家都沒有投票，則進入天黑」; tied again: nobody, or
    a seeded draw (``tie_fallback``). The executed player's death may set off the lovers, the elder's rule and the
    death windows (:meth:`~forumbot.rulesets.vampire_village.VampireVillage.die`)."""
    g = rs.game
    outcome = rs.vote.close(g.alive())
    out.events.append(ev.VoteClosed(vote_kind="vote", number=outcome.number, result=outcome.kind,
                                    chosen=outcome.chosen, tied=list(outcome.tied)))
    decision = rs.vote.decide(g, outcome, f"tie:{g.phase.round}", out)
    result, chosen = decision.how, decision.chosen
    lost_before = rs.powers_lost
    dead = rs.die([(chosen, "voted" if result == "decided" else "drawn")], out) if chosen is not None else []
    g.post("vampire_village/vote_result", out, **views.vote_result_data(rs, "vote", outcome, result, chosen, dead))
    rs.tell_powers_lost(lost_before, out)
    if dead and rs.check_win(out):
        return
    if result == "runoff":
        return open_vote(rs, "runoff", out, outcome.tied)
    rs.after = "night"
    rs.go_on(out)
