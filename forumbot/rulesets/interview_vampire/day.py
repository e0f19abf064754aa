"""The day of interview_vampire (夜访吸血鬼), 【白天的处决】: 「白天的投票仍是明投。所有玩家1人1票，得票最多者将被拉到
阳光下暴晒」 — an open vote in the thread (the rule: :data:`~forumbot.rulesets.interview_vampire.actions.DAY_VOTE`).
Functions of the ruleset (:class:`~forumbot.rulesets.interview_vampire.InterviewVampire`); :func:`close_day` is
the closer of the ``day`` phase.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from forumbot.engine.ruleset import Ruleset
from forumbot.engine.types import Step
from forumbot.engine.votes import Vote
from forumbot.language.types import Command, ParseError
from forumbot.rulesets.interview_vampire import events as ev
from forumbot.rulesets.interview_vampire import views
from forumbot.rulesets.interview_vampire.actions import DAY_VOTE
from forumbot.rulesets.interview_vampire.roles import BITERS

if TYPE_CHECKING:
    from forumbot.rulesets.interview_vampire import InterviewVampire


def on_thread_command(rs: InterviewVampire, seat: int, cmd: Command | ParseError, out: Step) -> None:
    """A living player's post read for the vote verbs (the engine reads it): a command goes through the
    declared actions (in the day a vote is his vote; at night it is refused: the vote is a day's). A marked
    vote that does not read is answered in the day only (day votes are cast only here: never lost
    silently); at night it is talk."""
    if isinstance(cmd, Command):
        Ruleset.on_thread_command(rs, seat, cmd, out)
    elif rs.game.phase.kind == "day":
        rs.game.thread_error(seat, cmd, out)


def open_day(rs: InterviewVampire, round_: int, dead: list[str], out: Step) -> None:
    """Dawn ``round_`` announced the ``dead`` by name only; the day's vote opens."""
    g = rs.game
    g.open_phase("day", round_, round_, out)
    rs.vote = Vote(DAY_VOTE)
    g.post("interview_vampire/day_open", out, round=round_, dead=dead, alive=g.names(g.alive()))


def close_day(rs: InterviewVampire, out: Step) -> None:
    """The day vote closes: 「得票最多者将被拉到阳光下暴晒。如果是吸血鬼或犯罪的吸血鬼，天黑时会被晒死。如果是普通
    平民，阳光对他不会有任何影响」; a tie: nobody."""
    g = rs.game
    round_ = g.phase.round
    outcome = rs.vote.close(g.alive())
    chosen = outcome.chosen if outcome.kind == "decided" else None
    burns = chosen is not None and g.player(chosen).role in BITERS
    out.events.append(ev.VoteClosed(round=round_, vote_kind=outcome.kind, chosen=chosen, tied=list(outcome.tied),
                                    burns=burns))
    rs.days.append({"round": round_, "chosen": g.name(chosen) if chosen else None, "burned": burns,
                    "role": g.player(chosen).role if chosen else None})
    g.post("interview_vampire/vote_result", out, **views.vote_result_data(rs, outcome, chosen, burns))
    dead: list[str] = []
    if chosen is not None and burns:
        rs.day_executions += 1
        g.remove(chosen, "sun", out)
        rs.deaths[chosen] = {"round": round_, "how": "sun", "role": g.player(chosen).role}
        dead = [g.name(chosen)]
    if rs.finish_if_won(out, dead_now=dead, when="dusk"):
        return
    rs.open_night(round_ + 1, out)
