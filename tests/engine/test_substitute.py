"""A substitute is told what he joins (issue 28): after an organiser's ``replace OLD NEW`` the new player's
private message says whom he replaces and his seat, who is out, the penalty the seat carries, copies of the
private messages his predecessor was sent that only he knows (his role PM and, per ruleset, check results,
his team's relayed orders, a night brief...) and where he stands now (phase, deadline, warnings, what was
recorded) — never a fresh welcome; the replaced player is told he was replaced. Every ruleset and locale."""

from __future__ import annotations

import pytest

from forumbot.engine.game import Game, Setup
from forumbot.engine.types import Deadline, Message
from forumbot.render import LOCALES, Renderer

DEADLINE = "2026-12-04（周五）23:26:15 北京时间"

#: ruleset -> (players, fixed draw, the player replaced, a command he sends until told, the message he is told,
#: a word of that message every locale shows)
CASES = {
    "killer_club": ("ABCDEFGHIJKLMN", {"A": "killer", "B": "killer", "C": "killer", "D": "police", "E": "police",
                                       "F": "police", "G": "helper", "H": "nurse"},
                    "D", "验 A", "killer_club/check_result", "A"),
    "vampire_village": ("ABCDEFGHIJKLMN", {"A": "vampire", "B": "vampire", "C": "vampire", "D": "seer", "E": "cupid",
                                           "F": "witch", "G": "guard", "H": "hunter", "I": "elder", "J": "piper"},
                        "D", "验 A", "vampire_village/seer_result", "A"),
    "human_kill": ("ABCDEF", {"A": "human", "B": "human", "C": "youkai", "D": "youkai", "E": "remilia", "F": "yukari"},
                   "E", "查 C", "human_kill/check_result", "C"),
    "interview_vampire": ("ABCDEFGHIJKL", {"A": "vampire"}, "A", "吸 B", "interview_vampire/night_brief", "B"),
}


def until_told(ruleset: str, players: str, roles: dict[str, str], actor: str, command: str, key: str) -> Game:
    """A game where ``actor`` sends ``command`` in each phase until he is sent ``key`` (at most six phases)."""
    g = Game(Setup(ruleset, tuple(players), roles=roles, organisers=("Judge",)))
    steps = [g.start()]
    for _ in range(6):
        steps.append(g.apply(Message(actor, command, "pm")))
        if any(r.key == key and r.to == actor for s in steps for r in s.replies):
            return g
        steps.append(g.apply(Deadline(g.phase.id)))
    raise AssertionError(f"{actor} was never sent {key}")


def replace(g: Game, old: str, new: str = "新人"):
    step = g.apply(Message("Judge", f"替换 {old} {new}", "pm"))
    mine = [r for r in step.replies if r.to == new]
    told = [r for r in step.replies if r.to == old]
    return mine, told


@pytest.mark.parametrize("ruleset", sorted(CASES))
def test_the_substitute_gets_what_his_predecessor_was_told_not_a_welcome(ruleset):
    players, roles, old, command, key, word = CASES[ruleset]
    g = until_told(ruleset, players, roles, old, command, key)
    seat = g.seat_of(old)
    (pm,), (gone,) = replace(g, old)
    assert pm.key == "common/substitute" and gone.key == "common/replaced_you"
    keys = [t["key"] for t in pm.data["told"]]
    assert keys[0] == f"{ruleset}/role" and key in keys, keys
    assert (pm.data["old"], pm.data["new"], pm.data["seat"]) == (old, "新人", seat)
    assert pm.data["status"]["role"] == roles[old]
    for locale in LOCALES:
        for markup in ("bbcode", "markdown"):
            text = Renderer(locale, markup).render(pm.key, pm.data, deadline=DEADLINE)
            first = text.splitlines()[0]
            assert "新人" in first and old in first and str(seat) in first, first
            assert {"zh-Hans": "接替", "zh-Hant": "接替", "en": "in place of"}[locale] in first
            assert DEADLINE in text and word in text
            assert text.count("\n\n\n") == 0
        bye = Renderer(locale, "bbcode").render(gone.key, gone.data)
        assert "新人" in bye and str(seat) in bye


@pytest.mark.parametrize("ruleset", sorted(CASES))
def test_a_substitute_learns_nothing_his_seat_was_not_told(ruleset):
    """Privacy: a player with no check of his own is sent only his own role PM, not the checker's result."""
    players, roles, checker, command, key, _ = CASES[ruleset]
    g = until_told(ruleset, players, roles, checker, command, key)
    default = g.ruleset.default_role
    other = next(n for n in players if n != checker and roles.get(n, default) == default and g.player(g.seat_of(n)).alive)
    (pm,), _ = replace(g, other)
    assert [t["key"] for t in pm.data["told"]] == [f"{ruleset}/role"]
    assert pm.data["status"]["role"] == g.ruleset.default_role


@pytest.mark.parametrize("locale,words", [("zh-Hans", ("已受警告：1 次", "已出局：")), ("zh-Hant", ("已受警告：1 次", "已出局：")),
                                          ("en", ("Warnings so far: 1", "Out of the game:"))])
def test_sunlight_substitute_inherits_the_warnings_and_sees_who_is_out(locale, words):
    """《阳光下的罪恶》: a missed vote is a warning; the substitute takes the seat with it (his status says it)."""
    players = ("张三", "李四", "王五", "alice", "bob", "carol", "胖虎")
    g = Game(Setup("sunlight", players, roles={"王五": "killer"}, organisers=("Judge",)))
    g.start()
    g.apply(Deadline(g.phase.id))  # the prologue
    for voter in players[:-1]:
        g.apply(Message(voter, "投 张三" if voter != "张三" else "投 李四", "pm"))
    g.apply(Deadline(g.phase.id))  # round 1: 张三 out, 胖虎 (no vote) warned
    (pm,), _ = replace(g, "胖虎")
    assert pm.data["status"]["strikes"] == 1 and pm.data["out"] == ["张三"]
    text = Renderer(locale, "markdown").render(pm.key, pm.data, deadline=DEADLINE)
    assert all(w in text for w in words), text
    assert "张三" in text.split(words[1])[1]


def test_a_penalised_seat_says_so_to_the_substitute():
    players = ("张三", "李四", "王五", "alice", "bob", "carol", "胖虎")
    g = Game(Setup("sunlight", players, roles={"王五": "killer"}, organisers=("Judge",)))
    g.start()
    g.apply(Message("Judge", "罚分 胖虎 潜水", "pm"))
    (pm,), _ = replace(g, "胖虎")
    assert pm.data["penalty"] == "lurking" and not pm.data["alive"]
    assert "组织者判罚：潜水" in Renderer("zh-Hans", "bbcode").render(pm.key, pm.data)


def test_a_second_replacement_passes_everything_on():
    players, roles, old, command, key, _ = CASES["killer_club"]
    g = until_told("killer_club", players, roles, old, command, key)
    replace(g, old, "新人")
    (pm,), (gone,) = replace(g, "新人", "第三人")
    assert key in [t["key"] for t in pm.data["told"]] and pm.data["old"] == "新人"
    assert gone.key == "common/replaced_you"
