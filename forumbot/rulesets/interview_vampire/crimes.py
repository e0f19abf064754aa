"""The criminal vote of interview_vampire (夜访吸血鬼), 【夜间暗投】: 「一旦场上出现了犯罪的吸血鬼，所有吸血鬼和犯罪的
吸血鬼都会得到秘密通知，夜间所有吸血鬼和犯罪的吸血鬼将参加一场暗投。从场上全部玩家名单中投票决定谁是犯罪的吸血鬼」
(the rule: :data:`~forumbot.rulesets.interview_vampire.actions.CRIME_VOTE`). Functions of the ruleset
(:class:`~forumbot.rulesets.interview_vampire.InterviewVampire`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from forumbot.engine.votes import Vote
from forumbot.rulesets.interview_vampire.actions import CRIME_VOTE
from forumbot.rulesets.interview_vampire.roles import CRIMINAL, VAMPIRE

if TYPE_CHECKING:
    from forumbot.rulesets.interview_vampire import InterviewVampire


def open_vote(rs: InterviewVampire) -> Vote | None:
    """Tonight's criminal vote, or None before a criminal ever appeared. It is held every night from then on,
    whether one still lives or not (docs/interview_vampire.md: holding it only while one lives would tell every
    voter so); 「每个吸血鬼可以投两票，每个犯罪的吸血鬼可以投1票」."""
    if not rs.ever_criminals:
        return None
    return Vote(CRIME_VOTE, weights={s: 2 if rs.game.player(s).role == VAMPIRE else 1 for s in rs.biters()})


def tally(rs: InterviewVampire, role_then: dict[int, str],
          alive_then: set[int]) -> tuple[int | None, list[int], list[tuple[int, float]]]:
    """``(executed, leading, counts)`` at dawn: 「得票最多的人如果是犯罪的吸血鬼，将在天亮时被处决；如果最高票得票人数
    相等，或者最高票得票者仅仅是吸血鬼或平民，则天亮时不处决任何人」 (the top name, not tied, among every name
    written; a criminal as he was at nightfall); ``leading``: 「得票数居前三位的得票者的名字」, all the voters learn;
    ``counts``: (seat, votes), for the final post only."""
    if rs.crime_vote is None:
        return None, [], []
    outcome = rs.crime_vote.close(None)
    chosen = outcome.chosen
    executed = chosen if chosen is not None and role_then[chosen] == CRIMINAL and chosen in alive_then else None
    return executed, rs.crime_vote.leading(3), outcome.counts
