"""The day of killer_club (殺人遊戲): the day vote, its run-offs and the night victim's choice (the rulebook's
note 6, 「關於投票」: 「得票最高的即被殺，如果有幾人得票數相同且為最高，則進行互辯及第二輪投票，如仍有相同的最高票數，
則由其他活人進行再次陳述，之后再進行投票，（如連續三次票數相同，則由該輪被殺之人在相同票數的幾人中指認一名同歸于盡）」;
the rulings in docs/killer_club.md settle a tie with no night victim: ``tie_fallback``). Functions of the ruleset,
the closers of its ``vote``, ``runoff`` and ``choice`` phases."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from forumbot.engine.votes import Vote
from forumbot.rulesets.killer_club import events as ev
from forumbot.rulesets.killer_club import views
from forumbot.rulesets.killer_club.actions import DAY_VOTE

if TYPE_CHECKING:
    from forumbot.engine.types import Step
    from forumbot.rulesets.killer_club import KillerClub


def open_day(rs: KillerClub, round_: int, out: Step) -> None:
    """The day: the victim is announced, everyone speaks from the seat after the last death's, then
    the day vote; its last tie goes to the night victim's choice, or ``tie_fallback`` without one."""
    g = rs.game
    g.open_phase("vote", round_, round_, out)
    victim = rs.night_victim
    last_tie = "chooser" if victim is not None else rs.params.tie_fallback
    rs.vote = Vote(replace(DAY_VOTE, votes=rs.params.votes, last_tie=last_tie, no_choice=rs.params.tie_fallback))
    g.post("killer_club/day_open", out, **views.day_open_data(rs))


def close_vote(rs: KillerClub, out: Step) -> None:
    """A vote's close (the day vote or a run-off, :data:`DAY_VOTE`): the most votes is executed; a tie
    goes to a run-off among the tied, then to the night victim's choice (or ``tie_fallback``)."""
    g = rs.game
    round_ = g.phase.round
    outcome = rs.vote.close(g.alive())
    out.events.append(ev.VoteClosed(round=round_, number=outcome.number, vote_kind=outcome.kind, chosen=outcome.chosen, tied=list(outcome.tied)))
    decision = rs.vote.decide(g, outcome, f"tie:{round_}", out)
    result = "choice" if decision.how == "chooser" else decision.how
    chosen = decision.chosen
    if chosen is not None:
        rs.first.record(chosen)  # counted now so the post can say whether he leaves last words
    g.post("killer_club/vote_result", out, **views.vote_result_data(rs, outcome, result, chosen))
    if chosen is not None and rs.death(chosen, "voted" if result == "decided" else "drawn", out):
        return
    if result == "runoff":
        rs.vote.next(outcome.tied)
        g.open_phase("runoff", round_, round_, out)
        g.post("killer_club/runoff_open", out, **views.runoff_open_data(rs, outcome.tied))
    elif result == "choice":
        victim = rs.night_victim
        assert victim is not None
        rs.choice_by, rs.choice_among, rs.choice = victim, outcome.tied, None
        g.open_phase("choice", round_, round_, out)
        g.post("killer_club/choice_open", out, round=round_, victim=g.name(victim), candidates=g.names(outcome.tied))
        g.reply(victim, "killer_club/choice_prompt", out, round=round_, candidates=g.names(outcome.tied))
    else:
        rs.open_night(round_ + 1, out)


def close_choice(rs: KillerClub, out: Step) -> None:
    """The night victim's choice closes: the one he named among the tied dies with him; nobody named
    in time: ``tie_fallback``."""
    g = rs.game
    round_ = g.phase.round
    choice = rs.choice if rs.choice is not None and g.player(rs.choice).alive else None
    among = [s for s in rs.choice_among if g.player(s).alive]
    decision = rs.vote.named(g, choice, among, f"choice:{round_}", out)
    how, chosen = decision.how, decision.chosen
    victim = rs.choice_by
    rs.choice_by, rs.choice_among, rs.choice = None, (), None
    out.events.append(ev.ChoiceClosed(round=round_, chosen=chosen, how=how))
    if chosen is not None:
        rs.first.record(chosen)  # counted now so the post can say whether he leaves last words
    g.post("killer_club/choice_result", out, **views.choice_result_data(rs, victim, chosen, how))
    if chosen is not None and rs.death(chosen, "chosen" if how == "named" else "drawn", out):
        return
    rs.open_night(round_ + 1, out)
