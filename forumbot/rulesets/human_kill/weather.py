"""The weather of human_kill (人类杀), an optional rule (``weather``): one drawn each day, each changing one
rule (rulebook 《人类杀》, 天气: 「在每个回合开始时会生成当天的天气，天气在这一整天生效，其效果可能会影响部分游戏
规则」; the table and each weather's effect: the appendix). Here: the day's draw and announcement, Iku's
power over it, 烈日's failures and 苍天's stand-ins. Functions of the ruleset
(:class:`~forumbot.rulesets.human_kill.HumanKill`); the other weathers are read where their rule is
(``HumanKill.w``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from forumbot.engine.modifiers import chance, draw_modifier
from forumbot.engine.table import reshuffle
from forumbot.engine.types import Step
from forumbot.rulesets.human_kill import events as ev
from forumbot.rulesets.human_kill.roles import IKU, NOT_DAY_ONE

if TYPE_CHECKING:
    from forumbot.rulesets.human_kill import HumanKill


def fails(rs: HumanKill, what: str, target: int, out: Step) -> bool:
    """烈日: a role's action on ``target`` fails with ``fail_chance``."""
    if not rs.w("retsujitsu"):
        return False
    return chance(rs.game, rs.params.fail_chance, f"retsujitsu:{rs.round}:{what}:{target}", out)


def close_iku(rs: HumanKill, out: Step) -> None:
    """The Iku window closes: her choice takes effect (she may be out: then nothing happens)."""
    g = rs.game
    choice, rs.day.iku_choice = rs.day.iku_choice, None
    if choice is None or not g.living(IKU):
        return
    out.events.append(ev.Iku(round=rs.round, choice=choice))
    if choice == "cancel":
        rs.iku_spent = True
        rs.log.append({"round": rs.round, "action": "iku_cancel"})
        return
    nxt = rs.round + 1
    if nxt not in rs.foretold:
        rs.foretold[nxt] = draw(rs, nxt, out)
    rs.log.append({"round": rs.round, "action": "iku_foresee", "weather": rs.foretold[nxt]})
    for s in g.living(IKU):
        g.reply(s, "human_kill/foresight", out, round=rs.round, weather=rs.foretold[nxt])


def draw(rs: HumanKill, round_: int, out: Step) -> str | None:
    """The weather of ``round_`` (seeded by the round). A weather Iku foresaw was drawn on the day
    before, when the sage could not yet be known: it leaves out 太阳雨 only without the sage rule."""
    exclude = list(NOT_DAY_ONE) if round_ == 1 else []
    if not rs.params.sage or (rs.sage is None and 1 < round_ == rs.round):
        exclude.append("tenkiame")
    return draw_modifier(rs.game, rs.params.weather_weights, round_, out, exclude, purpose="weather")


def open_day(rs: HumanKill, kind: str, out: Step, cancelled: bool = False) -> None:
    """Draw (or take the foretold) weather of the day, apply it and open ``kind`` with it."""
    g = rs.game
    round_ = rs.round
    reshuffled = False
    if rs.params.weather and not cancelled:
        if round_ in rs.foretold:
            rs.weather = rs.foretold[round_]
        else:
            rs.weather = draw(rs, round_, out)
        hidden = chance(g, rs.params.kyokkou_chance, f"kyokkou:{round_}", out)
        rs.weather_shown = "kyokkou" if hidden else rs.weather
        rs.weathers.append({"round": round_, "weather": rs.weather, "hidden": hidden})
        if rs.weather == "kawagiri":
            rs.seating = reshuffle(g, rs.seating, f"kawagiri:{round_}", out)
            reshuffled = True
    elif cancelled:
        rs.weathers.append({"round": round_, "weather": None, "cancelled": True})
    rs.open_window(kind, out, first=True, reshuffled=reshuffled, cancelled=cancelled)


def open_souten(rs: HumanKill, chain: list[tuple[int, str]], context: str, out: Step, **after: Any) -> None:
    """苍天: the dying are announced (seat order, no cause) and any other player still in the game
    may volunteer, by PM, to go out in the place of one of them (the appendix, 天气)."""
    g = rs.game
    rs.souten = {"chain": chain, "context": context, "volunteers": {}, "seq": 0, **after}
    g.open_phase("souten", rs.round, rs.round, out)
    g.post("human_kill/souten", out, round=rs.round, dying=g.names(sorted(d for d, _ in chain)),
           context=context, alive=g.names(g.alive()))


def close_souten(rs: HumanKill, out: Step) -> None:
    """Each dying player's nearest volunteer (fewest seats apart round the table of the living,
    either way; equally near: the earlier offer) goes out in his place, inheriting the cause;
    the dying player stays in. A volunteer's own take does not fire (the take is settled with
    the deaths, before the substitution: the daily order's "revenge, the souten substitution")."""
    g = rs.game
    st = rs.souten
    assert st is not None
    rs.souten = None
    ring = [s for s in rs.seating if g.player(s).alive]

    def apart(a: int, b: int) -> int:
        d = abs(ring.index(a) - ring.index(b))
        return min(d, len(ring) - d)

    final: list[tuple[int, str]] = []
    subs: list[tuple[int, int]] = []
    for seat, how in st["chain"]:
        offers = sorted((apart(seat, v), seq, v) for v, (t, seq) in st["volunteers"].items()
                        if t == seat and rs.active(v))
        if offers:
            v = offers[0][2]
            final.append((v, how))
            subs.append((seat, v))
            out.events.append(ev.Substituted(round=rs.round, for_=seat, by=v))
            rs.log.append({"round": rs.round, "action": "souten", "for": g.name(seat), "by": g.name(v)})
        else:
            final.append((seat, how))
    if st["context"] == "nightfall":
        return rs.settle_nightfall(final, out, subs)
    dead = rs.remove_all(final, out)
    post_souten_result(rs, dead, subs, out)
    rs.after_banish(st["chosen"], st["parsee"], out)


def post_souten_result(rs: HumanKill, dead: list[int], subs: list[tuple[int, int]], out: Step) -> None:
    """苍天's outcome: who is out (``dead``, no cause), who went out for whom (``subs``: (for, by)), the last words."""
    g = rs.game
    g.post("human_kill/souten_result", out, round=rs.round, dead=g.names(sorted(dead)),
           subs=[{"for": g.name(a), "by": g.name(b)} for a, b in subs], last_words=rs.will(sorted(dead)))
