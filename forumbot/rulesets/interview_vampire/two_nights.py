"""The two-night rules of interview_vampire (夜访吸血鬼): what a biter's last night allows tonight.

- 【关于杀人】: 「同一个吸血鬼连续两夜吸同一个人的血成功，就可以杀死这个人…即吸血鬼连续两夜的吸血名单中，最多只能有
  一个人重复，才能致人死亡。如AB-BC，则B将被杀死。如果吸血鬼连续两夜都吸相同两个人的血，这两个人都不会死」 (:func:`kill`);
- 【关于转化同伴】: 「同一个吸血鬼在连续两夜当中，前一夜成功吸了两个非同类玩家（其中一个必须是平民，另一个是平民或犯罪的
  吸血鬼均可）的血，下一夜再让其中一个平民喝下自己的血，就可以把这个平民转变成吸血鬼」 (:func:`conversions`,
  :func:`may_convert`).

Each biter's :class:`Record` of last night is kept by the dawn
(:meth:`~forumbot.rulesets.interview_vampire.InterviewVampire._dawn`), which applies these. Functions of the
ruleset (:class:`~forumbot.rulesets.interview_vampire.InterviewVampire`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from forumbot.rulesets.interview_vampire.actions import CONVERT
from forumbot.rulesets.interview_vampire.roles import HUMAN, VAMPIRE

if TYPE_CHECKING:
    from forumbot.rulesets.interview_vampire import InterviewVampire


@dataclass(frozen=True)
class Record:
    """A biter's night, kept for the next night's kill and conversion rules. ``names``: the sucks named;
    ``success``: those that succeeded; ``roles``: each target's role that night."""

    names: tuple[int, ...]
    success: frozenset[int]
    roles: dict[int, str]


def conversions(rs: InterviewVampire, biters: list[int], role_then: dict[int, str],
                alive_then: set[int]) -> tuple[dict[int, int], dict[int, dict[str, Any]]]:
    """The night's conversions: ``(target -> converter, converter -> {target, ok})``. A conversion takes
    when the converter alone names the target, a living human he fed on last night (:func:`may_convert`);
    otherwise it fails silently (「转化不会产生效果，但是从表面上是看不出来的」). Whom he made drink his blood
    he knows either way."""
    g = rs.game
    attempts: dict[int, list[int]] = {}
    for v in biters:
        plan = rs.plans.of(v, CONVERT)
        if plan is not None and role_then[v] == VAMPIRE:
            attempts.setdefault(plan.targets[0], []).append(v)
    converted: dict[int, int] = {}
    log: dict[int, dict[str, Any]] = {}
    for t, vs in attempts.items():
        for v in vs:
            rs.made_drink.setdefault(v, []).append(t)
            ok = len(vs) == 1 and t in alive_then and role_then[t] == HUMAN and may_convert(rs, v, t)
            log[v] = {"target": g.name(t), "ok": ok}
            if ok:
                converted[t] = v
    return converted, log

def may_convert(rs: InterviewVampire, v: int, t: int) -> bool:
    """【关于转化同伴】: 「前一夜成功吸了两个非同类玩家（其中一个必须是平民，另一个是平民或犯罪的吸血鬼均可）的血，
    下一夜再让其中一个平民喝下自己的血」: last night ``v`` sucked two or more non-vampires successfully, a
    human among them, and ``t``, a human then."""
    rec = rs.records.get(v)
    if rec is None:
        return False
    fed_on = [x for x in rec.success if rec.roles[x] != VAMPIRE]
    return len(fed_on) >= 2 and any(rec.roles[x] == HUMAN for x in fed_on) and t in rec.success and rec.roles[t] == HUMAN

def kill(rs: InterviewVampire, b: int, names: tuple[int, ...], success: frozenset[int]) -> int | None:
    """【关于杀人】: 「同一个吸血鬼连续两夜吸同一个人的血成功，就可以杀死这个人…最多只能有一个人重复」 (AB-BC kills
    B, AB-AB nobody): the one player ``b`` sucked successfully both last night and tonight, or None."""
    rec = rs.records.get(b)
    if rec is None:
        return None
    repeats = set(rec.names) & set(names)
    if len(repeats) != 1:
        return None
    t = repeats.pop()
    return t if t in rec.success and t in success else None
