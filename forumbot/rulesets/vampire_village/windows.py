"""The death windows of vampire_village (吸血鬼村莊): after a batch of deaths, the hunter's ``shot`` (【角色分配】 4:
「只要獵人死掉，并且此後游戲依然還沒結束，他可以選擇立即殺死一名玩家」), then each dead sheriff's ``successor``
(【角色分配】 10: 「警長如果死亡，他可以立即選擇（必須）一名沒有死亡的玩家繼承為警長」). Functions of the ruleset
(:class:`~forumbot.rulesets.vampire_village.VampireVillage`); :func:`close_window` is the closer of both phases.

The hunter's shot is taken privately (docs/vampire_village.md, ruling 2026-12): nothing public may show that a
dead player was the hunter unless he shoots — no window or post that exists only because a hunter died, no
"the hunter did not shoot".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from forumbot.engine.triggers import Window
from forumbot.engine.types import Step
from forumbot.engine.votes import seeded_draw
from forumbot.rulesets.vampire_village import events as ev
from forumbot.rulesets.vampire_village import views
from forumbot.rulesets.vampire_village.roles import HUNTER

if TYPE_CHECKING:
    from forumbot.rulesets.vampire_village import VampireVillage


def shot_window_due(rs: VampireVillage, dead: list[int]) -> bool:
    """Does this batch of deaths open a hunter's window? The rulebook's hunter shoots 「立即」 at death, but his
    shot is optional and roles stay hidden: while the hunter is unknown, a window opens after *every* batch of
    deaths, whoever died, so that the window itself tells nobody whether the hunter was among them; it stops
    once a shot has revealed him. When roles are announced at death the hunter is public anyway and only his
    death opens one."""
    if not rs.start_counts.get(HUNTER) or rs.hunter_shot:
        return False
    if rs.params.reveal_roles_at_death:
        return any(rs.role_of(s) == HUNTER for s in dead) and not rs.powers_lost
    return True


def may_shoot(rs: VampireVillage, w: Window | None) -> bool:
    """The window ``w`` is a hunter's who may shoot (he died in the batch and keeps his power: 「村民所有特殊能力
    消失」 when the elder dies by the village's hand)."""
    return w is not None and w.kind == "shot" and w.seat > 0 and not rs.powers_lost


def open_window(rs: VampireVillage, w: Window, out: Step) -> bool:
    """Open window ``w`` (False: a successor window whose sheriff no longer holds the title, or nobody lives).
    The post names the dead sheriff, never the hunter; only a hunter who may shoot, or the sheriff, is asked."""
    g = rs.game
    round_ = g.phase.round
    if w.kind == "successor" and (rs.sheriff.holder != w.seat or not g.alive()):
        return False
    rs.window_choice = None
    g.open_phase(w.kind, round_, round_, out)
    g.post("vampire_village/window_open", out, kind=w.kind, round=round_, name=g.name(w.seat) if w.kind == "successor" else None,
           alive=g.names(g.alive()), hidden=not rs.params.reveal_roles_at_death)
    if may_shoot(rs, w) or w.kind == "successor":
        g.reply(w.seat, "vampire_village/prompt", out, kind=w.kind, round=round_, victim=None, save=False, poison=False,
                example=g.name(g.alive()[0]))
    return True


def close_window(rs: VampireVillage, out: Step) -> None:
    """The closer of ``shot`` and ``successor``: the hunter's shot is taken (only a shot is announced: no shot
    says nothing); a sheriff who named nobody passes the badge by a seeded draw, as the title must exist
    (「必須要有警長」). Then the next window, or the game goes on."""
    g = rs.game
    w = rs.windows.current
    assert w is not None
    choice = rs.window_choice if rs.window_choice is not None and g.player(rs.window_choice).alive else None
    rs.window_choice = None
    if w.kind == "shot":
        if not may_shoot(rs, w):
            choice = None
        out.events.append(ev.Shot(seat=w.seat, target=choice))
        if choice is not None:
            rs.hunter_shot = True
            lost_before = rs.powers_lost
            dead = rs.die([(choice, "shot")], out)
            g.post("vampire_village/window_result", out, kind="shot", round=g.phase.round, how="named",
                   chosen=g.name(choice), dead=views.dead_data(rs, dead), name=None)
            rs.tell_powers_lost(lost_before, out)
            if rs.check_win(out):
                return
    else:
        how = "named"
        if choice is None:
            living = g.alive()
            choice = seeded_draw(g, living, f"successor:{w.seat}:{g.phase.id}", out) if living else None
            how = "drawn"
        if choice is not None:
            rs.sheriff.give(choice, how, out)
        else:
            rs.sheriff.vacate()
        g.post("vampire_village/window_result", out, kind="successor", round=g.phase.round, how=how,
               chosen=g.name(choice) if choice else None, dead=[], name=g.name(w.seat))
    rs.go_on(out)
