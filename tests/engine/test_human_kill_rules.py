"""human_kill (shared/seeds/003, README § human_kill): transcripts of every rule and the shared modules it uses."""

from __future__ import annotations

from pathlib import Path

import pytest

from forumbot.engine.game import Game, Setup
from forumbot.engine.modifiers import draw_modifier
from forumbot.engine.table import round_table
from forumbot.engine.types import Step
from forumbot.engine.votes import Vote
from forumbot.replay import load_transcript, parse_transcript, replay
from forumbot.rulesets.human_kill import BANISH, EXORCISM, SAGE_ELECTION
from forumbot.rulesets.human_kill.roles import STANDARD, remilia_sees, row_counts, thirds_counts

T = Path(__file__).parent.parent / "transcripts"


def play(phases, players, roles, **extra):
    entries = [p if isinstance(p, dict) else {"messages": p} for p in phases]
    return replay(parse_transcript({"ruleset": "human_kill", "players": list(players), "roles": roles, "phases": entries, **extra}))


def outs(r):
    return [n for ph in r.phases for n in ph.out]


def events(r, kind):
    return [e.data for ph in r.phases for e in ph.step.events if e.kind == kind]


def posts(r, key):
    return [p for ph in r.phases for p in ph.step.posts if p.key == f"human_kill/{key}"]


# --- distribution -------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", range(6, 17))
def test_standard_rows_add_up(n):
    import random

    counts = row_counts(STANDARD[n], random.Random(n))
    assert sum(counts.values()) == n


def test_thirds_rule_gives_the_remainder_to_ordinary_then_great():
    import random

    c = thirds_counts(8, random.Random(0))
    great = sum(c[r] for r in ("remilia", "yukari", "mamizou", "yuuka", "utsuho"))
    assert (c["human"], c["youkai"], great) == (2, 3, 3)
    c = thirds_counts(7, random.Random(0))
    assert (c["human"], c["youkai"]) == (2, 3)


def test_seeded_deal_uses_the_table_and_is_deterministic():
    names = tuple(f"P{i}" for i in range(12))
    a = Game(Setup("human_kill", names, seed=9))
    b = Game(Setup("human_kill", names, seed=9))
    assert [p.role for p in a.players] == [p.role for p in b.players]
    roles = [p.role for p in a.players]
    assert roles.count("human") == 2 and roles.count("reimu") == 1 and roles.count("rinnosuke") == 1
    assert roles.count("youkai") == 3


def test_rinnosuke_shows_as_youkai():
    assert remilia_sees("rinnosuke") == "youkai" and remilia_sees("parsee") == "other" and remilia_sees("reimu") == "human"


# --- the transcripts ---------------------------------------------------------------------------------
def test_core_transcript():
    r = replay(load_transcript(T / "human_kill_core.yaml"))
    assert r.game.finished and r.game.winner == "youkai"
    assert outs(r) == ["阿一", "阿二"]
    closed = events(r, "exorcism_closed")
    assert closed[0]["protected"] is True and closed[1]["target"] == 3
    assert [e["reason"] for e in events(r, "rejected")] == ["repeat_disguise"]
    assert events(r, "last_words") == [{"seat": 1, "name": "阿一"}]
    # nothing reveals a role or a cause before the final post
    for p in posts(r, "banish_result") + posts(r, "nightfall"):
        assert "role" not in str(p.data.get("revealed") or "")


def test_sage_transcript():
    r = replay(load_transcript(T / "human_kill_sage.yaml"))
    assert r.game.winner == "youkai"
    assert [e["seat"] for e in events(r, "sage_elected")] == [5]
    assert events(r, "sage_changed") == [{"from": 5, "to": 6}]
    weights = {e["voter"]: e["weight"] for e in events(r, "ballot") if e["kind"] == "banish"}
    assert weights[5] == 1.5 and weights[4] == 1.0
    order = posts(r, "nightfall")[1].data["order"]
    assert order == ["丁", "戊", "己", "甲", "乙"]  # counter-clockwise from 丙, chosen by the sage


def test_roles_transcript():
    r = replay(load_transcript(T / "human_kill_roles.yaml"))
    assert outs(r) == ["Fay", "Ann", "Ivy", "Ben", "Cat", "Dan", "Eve"]
    assert r.game.player(7).alive  # Utsuho banished but alive
    assert [e["reason"] for e in events(r, "rejected")] == ["rinnosuke_waits", "sealed"]
    assert r.game.winner == "youkai"


def test_sage_rules_nobody_withdrew_and_tie_again():
    roles = {"A": "human", "B": "human", "C": "youkai", "D": "youkai", "E": "remilia", "F": "yukari"}
    r = play([[], [], [], []], "ABCDEF", roles, params={"sage": True})
    assert events(r, "sage_elected")[0]["why"] == "nobody_withdrew"
    tie = [["A", "投 E"], ["B", "投 F"]]
    r = play([[], [], [], [["A", "退选"], ["B", "退选"]], tie, [], tie], "ABCDEF", roles, params={"sage": True})
    assert [p.data["result"] for p in posts(r, "sage_result")] == ["runoff", "exhausted"]


def test_exorcism_all_abstain_is_nobody_and_draw_config():
    roles = {"A": "human", "B": "human", "C": "youkai", "D": "youkai", "E": "remilia", "F": "yukari"}
    r = play([[], [["A", "弃权"], ["B", "弃权"]]], "ABCDEF", roles)
    assert events(r, "exorcism_closed")[0]["how"] == "abstained"
    r = play([[], [["A", "退治 C"], ["B", "退治 D"]]], "ABCDEF", roles, params={"exorcise_tie": "draw"})
    assert events(r, "exorcism_closed")[0]["how"] == "drawn"


def test_humans_clear_below_eight_and_cripple_from_eight():
    roles = {"A": "human", "B": "human", "C": "youkai", "D": "remilia", "E": "yukari", "F": "youkai"}
    g = Game(Setup("human_kill", tuple("ABCDEF"), roles=roles))
    g.start()
    for s in (3, 4, 5):
        g.player(s).alive = False
    assert g.ruleset.win_check() is None  # F (youkai) still alive
    g.player(6).alive = False
    assert g.ruleset.win_check() == ("human", "cleared")
    roles8 = {"A": "human", "B": "human", "C": "youkai", "D": "youkai", "E": "youkai", "F": "remilia", "G": "yukari", "H": "mamizou"}
    g = Game(Setup("human_kill", tuple("ABCDEFGH"), roles=roles8))
    g.start()
    for s in (6, 7, 8):
        g.player(s).alive = False
    assert g.ruleset.win_check() == ("human", "great_out")


def test_parsee_wins_when_everyone_else_goes_with_her():
    roles = {"A": "human", "B": "human", "C": "youkai", "D": "youkai", "E": "remilia", "F": "parsee"}
    banish = [[x, "放逐 F"] for x in "ABCDE"]
    r = play([[], [], banish], "ABCDEF", roles)
    assert r.game.winner == "parsee"
    assert sorted(outs(r)) == list("ABCDEF")


def test_doremy_wins_when_every_other_living_player_dreams():
    roles = {"A": "human", "B": "youkai", "C": "remilia", "D": "doremy", "E": "youkai", "F": "youkai"}
    r = play([[], [["A", "退治 E"]], [["D", "梦 A B"]], [[x, "放逐 F"] for x in "ABCDE"], [], [], [["D", "梦 C"]]],
             "ABCDEF", roles)
    assert r.game.winner == "doremy"


def test_reimu_takes_but_not_when_killed_by_the_border():
    roles = {"A": "human", "B": "reimu", "C": "youkai", "D": "youkai", "E": "remilia", "F": "yukari", "G": "youkai"}
    r = play([[["B", "带走 C"]], [["B", "退治 B"], ["A", "弃权"]], []], "ABCDEFG", roles)
    assert outs(r) == ["B", "C"]
    r = play([[["B", "带走 C"]], [], [["F", "杀 B"]]], "ABCDEFG", roles)
    assert outs(r) == ["B"]


# --- shared modules ----------------------------------------------------------------------------------
def test_round_table_both_ways():
    seating = [1, 2, 3, 4, 5]
    assert round_table(seating, [1, 2, 4, 5], 3, include_start=False) == [4, 5, 1, 2]
    assert round_table(seating, [1, 2, 4, 5], 3, clockwise=True, include_start=False) == [2, 1, 5, 4]
    assert round_table(seating, [1, 2, 3], 1, clockwise=True) == [1, 3, 2]


def test_team_vote_plurality_abstain_and_tie():
    g = Game(Setup("human_kill", tuple("ABCDEF")))
    v = Vote(EXORCISM, voters=(1, 2, 3))
    v.cast(1, (4,))
    v.cast(2, (4,))
    v.cast(3, ())
    assert v.decide(g, v.close([1, 2, 3, 4, 5, 6]), "t", Step()).chosen == 4
    assert not v.may_vote(4)
    v = Vote(EXORCISM, voters=(1, 2))
    v.cast(1, (4,))
    v.cast(2, (5,))
    assert v.decide(g, v.close([4, 5]), "t", Step()).how == "nobody"


def test_weighted_vote_breaks_a_tie():
    v = Vote(BANISH)
    v.cast(1, (3,), weight=1.5)
    v.cast(2, (4,))
    v.cast(3, ())
    assert v.close([1, 2, 3, 4]).chosen == 3


def test_election_withdrawals():
    e = Vote(SAGE_ELECTION, candidates=(1, 2, 3))
    assert e.withdraw_candidate(1) and not e.withdraw_candidate(1)
    assert e.candidates == (2, 3) and e.withdrawn == [1]


def test_modifier_draw_is_seeded_and_respects_exclusions():
    g = Game(Setup("human_kill", tuple("ABCDEF"), seed=1))
    a = draw_modifier(g, {"x": 1, "y": 1}, 1, Step(), exclude=["x"])
    assert a == "y"
    assert draw_modifier(g, {"x": 1, "y": 1}, 2, Step()) == draw_modifier(g, {"x": 1, "y": 1}, 2, Step())


def test_help_offers_yukari_no_save_under_kaisei():
    """快晴: 「the exorcism target is protected neither by Mamizou's disguise nor by Yukari's save」 (人类杀
    weather table): her save is refused that day, so help does not offer it (found by the conformance
    test: a save the help offered was refused)."""
    from forumbot.engine.game import Game, Setup
    from forumbot.engine.types import Deadline, Message

    g = Game(Setup("human_kill", tuple(f"p{i}" for i in range(1, 10)), params={"weather": True},
                   roles={"p1": "yukari", "p2": "remilia", "p3": "youkai", "p4": "reimu"}, seed=3))
    g.start()
    while g.phase.kind != "yukari":
        g.apply(Deadline(g.phase.id))
    hk = g.ruleset
    hk.day.exorcised = 5  # as if she had been told p5 is today's target (nobody exorcised: no save offered)
    assert "save" in hk.help_data(1)["verbs"]
    hk.weather = "kaisei"  # the day's draw is seeded: set the weather this rule is about
    assert "save" not in hk.help_data(1)["verbs"] and "kill" in hk.help_data(1)["verbs"]
    step = g.apply(Message("p1", "save p5"))
    assert [e.data["reason"] for e in step.events if e.kind == "rejected"] == ["kaisei"]


def test_status_shows_his_own_orders_only():
    """``status`` (issue 11): each action open to him with what he has recorded — Remilia's check with what it
    showed her, his own exorcism ballot (an abstention noted), nothing of a teammate's ballot, no exorcism line
    for a youkai; an abstention is worded on the ballot's line, not on a line of its own."""
    from forumbot.engine.game import Game, Setup
    from forumbot.engine.types import Deadline, Message
    from forumbot.render import renderer

    roles = {"A": "human", "B": "human", "C": "youkai", "D": "youkai", "E": "remilia", "F": "yukari"}
    g = Game(Setup("human_kill", tuple("ABCDEF"), roles=roles))
    g.start()
    while g.phase.kind != "remilia":
        g.apply(Deadline(g.phase.id))
    hk = g.ruleset
    g.apply(Message("E", "验 A"))
    check = hk.status_data(5)["actions"]
    assert [(a["action"], a["targets"], a["note"]) for a in check] == [("check", ["A"], "human")]
    g.apply(Deadline(g.phase.id))
    assert g.phase.kind == "exorcism"
    g.apply(Message("A", "退治 C"))
    g.apply(Message("B", "弃权"))

    def standing(seat):
        return {a["action"]: (a["recorded"], a["targets"], a["note"]) for a in hk.status_data(seat)["actions"]}

    assert standing(1)["exorcise"] == (True, ["C"], None)
    assert standing(2)["exorcise"] == (True, [], "abstain")
    assert "exorcise" not in standing(3)
    text = renderer("en", "bbcode").render("human_kill/status", hk.status_data(2))
    assert "Your exorcism ballot: nobody (abstained)." in text and "C" not in text.replace("Your role", "")
    assert "abstain:" not in text
    zh = renderer("zh-Hans", "bbcode").render("human_kill/status", hk.status_data(1))
    assert "你的退治票：C。" in zh and "（人类同伴：B）" in zh


@pytest.mark.parametrize("change_vote", [True, False])
def test_an_unvote_outside_a_vote_is_refused_where_ballots_may_change(change_vote):
    """With ``change_vote`` an unvote withdraws a standing banish or sage ballot, and outside those votes it is
    refused as out of phase (one check: the declared actions); without it the first ballot stands and the
    reply says so, in any phase."""
    roles = {"阿一": "human", "阿二": "human", "阿三": "youkai", "阿四": "youkai", "阿五": "youkai",
             "阿六": "remilia", "阿七": "yukari", "阿八": "mamizou"}
    r = play([{"phase": "remilia", "messages": [["阿一", "取消投票"]]}], list(roles), roles,
             params={"change_vote": change_vote})
    replies = [(x.key, x.data.get("reason"), x.data.get("rule")) for ph in r.phases for x in ph.step.replies
               if x.to == "阿一" and x.key != "human_kill/role"]
    if change_vote:
        assert replies == [("human_kill/rejected", "wrong_phase", None)]
        assert [e["reason"] for e in events(r, "rejected")] == ["wrong_phase"]
    else:
        assert replies == [("common/vote_rule", None, "first_vote_stands")]


@pytest.mark.parametrize("disguised", [True, False])
def test_yukari_is_offered_the_save_only_when_she_was_told_a_target(disguised):
    """Yukari saves only the exorcism target she was told (docs/human_kill.md: 「Yukari's phase | Yukari | today's
    exorcism target, when it would succeed」): told "nobody will be exorcised" (Mamizou's disguise protects the
    target), neither her help nor her status offers the save as still to do; her border of death stays."""
    roles = {"阿一": "human", "阿二": "human", "阿三": "youkai", "阿四": "youkai", "阿五": "youkai",
             "阿六": "remilia", "阿七": "yukari", "阿八": "mamizou"}
    r = play([{"phase": "remilia"}, {"phase": "mamizou", "messages": [["阿八", "伪装 阿三" if disguised else "伪装 阿四"]]},
              {"phase": "exorcism", "messages": [["阿一", "退治 阿三"], ["阿二", "退治 阿三"]]},
              {"phase": "yukari", "messages": [["阿七", "状态"], ["阿七", "帮助"]]}], list(roles), roles)
    replies = {x.key: x.data for ph in r.phases for x in ph.step.replies if x.to == "阿七"}
    assert (replies["human_kill/yukari_target"]["target"] is None) == disguised
    status = [a["action"] for a in replies["human_kill/status"]["actions"]]
    help_ = replies["human_kill/help"]["verbs"]
    assert status == (["kill"] if disguised else ["save", "kill"])
    assert ("save" in help_) != disguised and "kill" in help_
