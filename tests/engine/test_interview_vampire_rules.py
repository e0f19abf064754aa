"""Every rule of interview_vampire (shared/seeds/000_1ca77b1489a079c3.txt, README § interview_vampire), as
transcripts: expected deaths, private reports, replies and winner. The table (interview_vampire_helpers):
A..L, A the vampire unless a test deals other roles."""

from __future__ import annotations

from pathlib import Path

import pytest
from interview_vampire_helpers import QUIET_DAY, dawn, day, night, out_names, play, posts, reasons, replies_to

from forumbot.engine.game import Game, Setup, SetupError
from forumbot.render import Renderer
from forumbot.replay import load_transcript, replay

FULL = Path(__file__).parent.parent / "transcripts" / "interview_vampire_full_game.yaml"
TWO = {"A": "vampire", "B": "vampire"}


def roles_of(result):
    return {p.name: p.role for p in result.game.players}


# --- the full game ---------------------------------------------------------------------------------
def test_full_game_transcript():
    r = replay(load_transcript(FULL))
    assert out_names(r) == ["王五", "李四", "张三"]
    assert r.game.finished and r.game.winner == "human"
    data = r.to_json(Renderer("zh-Hans"))
    assert data["winner"] == "human"
    assert [p["role"] for p in data["players"]][:2] == ["vampire", "criminal"]
    assert [ph["phase"] for ph in data["phases"]] == ["prologue"] + ["night", "day"] * 5
    assert replay(load_transcript(FULL)).to_json(Renderer("en")) == r.to_json(Renderer("en"))


def test_setup_one_vampire_by_default_and_roles_stay_secret():
    g = Game(Setup("interview_vampire", tuple("ABCDEFGHIJKLM"), seed=3))
    step = g.start()
    assert sorted(p.role for p in g.players).count("vampire") == 1
    assert all(r.key == "interview_vampire/role" for r in step.replies) and len(step.replies) == 13
    opening = step.posts[0].data
    assert "roles" not in opening and opening["vampires"] == 1
    with pytest.raises(SetupError):
        Game(Setup("interview_vampire", tuple("ABCD")))


# --- sucking, feeding, starving ----------------------------------------------------------------------
def test_two_successful_sucks_feed_and_only_the_biter_is_told():
    r = play([night(("A", "吸 B C"))])
    assert [d["fed"] for d in dawn(r, "A")] == [True]
    assert all(not replies_to(r, x, "dawn_report") for x in "BCDEFGHIJKL")
    assert out_names(r) == []


def test_fewer_sucks_are_allowed_and_leave_him_hungry():
    r = play([night(("A", "吸 B"))])
    assert reasons(r, "A") == [] and dawn(r, "A")[0]["fed"] is False and dawn(r, "A")[0]["hungry"] == 1


def test_hungry_two_nights_running_starves_at_dawn():
    r = play([night(("A", "吸 B")), QUIET_DAY, night()])
    assert out_names(r) == ["A"]
    assert r.game.player(1).out_reason == "starved"
    assert posts(r, "final")[0].data["winner"] == "human"  # the only vampire is out


def test_starve_nights_is_a_parameter():
    r = play([night(), QUIET_DAY, night(), QUIET_DAY], params={"starve_nights": 3})
    assert out_names(r) == [] and not r.game.finished
    r = play([night(), QUIET_DAY, night(), QUIET_DAY, night()], params={"starve_nights": 3})
    assert out_names(r) == ["A"]


def test_feeding_resets_the_hunger():
    r = play([night(("A", "吸 B")), QUIET_DAY, night(("A", "吸 C D")), QUIET_DAY, night(("A", "吸 E")), QUIET_DAY])
    assert out_names(r) == [] and [d["hungry"] for d in dawn(r, "A")] == [1, 0, 1]


def test_collision_fails_for_every_biter():
    r = play([night(("A", "吸 C D"), ("B", "吸 C E"))], roles=TWO)
    assert dawn(r, "A")[0]["fed"] is False and dawn(r, "B")[0]["fed"] is False
    biters = r.game.ruleset.nights[0]["biters"]
    assert [s["ok"] for b in biters for s in b["sucks"]] == [False, True, False, True]


def test_a_suck_command_replaces_the_earlier_one():
    r = play([night(("A", "吸 B C"), ("A", "吸 D E"))])
    assert replies_to(r, "A", "suck_recorded")[-1].data["replaced"] == ["B", "C"]
    assert [s["name"] for s in r.game.ruleset.nights[0]["biters"][0]["sucks"]] == ["D", "E"]


@pytest.mark.parametrize(("text", "reason"), [
    ("吸 B C D", "too_many"), ("吸 B B", "repeat_target"), ("吸 A B", "suck_self"), ("转化 B", "no_record"),
    ("投 B", "no_crime_vote"),
])
def test_night_commands_refused_with_a_reply(text, reason):
    r = play([night(("A", text))])
    assert reasons(r, "A") == [reason]


def test_humans_have_no_night_commands_and_dead_targets_are_refused():
    r = play([night(("A", "吸 B C")), QUIET_DAY, night(("A", "吸 C D"), ("E", "吸 F")), QUIET_DAY,
              night(("A", "吸 C E"))])
    assert reasons(r, "E") == ["not_your_role"]
    assert reasons(r, "A") == ["dead_target"]


# --- killing ----------------------------------------------------------------------------------------
def test_ab_bc_kills_b():
    r = play([night(("A", "吸 B C")), QUIET_DAY, night(("A", "吸 C D"))])
    assert out_names(r) == ["C"] and r.game.player(3).out_reason == "killed"
    assert posts(r, "day_open")[-1].data["dead"] == ["C"]


def test_ab_ab_kills_nobody():
    r = play([night(("A", "吸 B C")), QUIET_DAY, night(("A", "吸 B C")), QUIET_DAY, night(("A", "吸 B C"))])
    assert out_names(r) == []


def test_a_kill_restarts_the_streak_ab_bc_ca_kills_only_c():
    r = play([night(("A", "吸 B C")), QUIET_DAY, night(("A", "吸 C D")), QUIET_DAY, night(("A", "吸 D B")), QUIET_DAY,
              night(("A", "吸 B E"))])
    assert out_names(r) == ["C", "B"]  # night 3 kills nobody: the streak restarted after C


def test_a_failed_suck_does_not_kill():
    # B sucks C on night 2 as well: a collision, so A's second suck on C fails
    r = play([night(("A", "吸 C D"), ("B", "吸 E F")), QUIET_DAY, night(("A", "吸 C G"), ("B", "吸 C H"))], roles=TWO)
    assert out_names(r) == []


def test_two_vampires_relaying_kill_nobody():
    r = play([night(("A", "吸 C D"), ("B", "吸 E F")), QUIET_DAY, night(("A", "吸 E G"), ("B", "吸 C H"))], roles=TWO)
    assert out_names(r) == []


def test_a_biter_who_dies_that_night_still_acts():
    # B, a criminal, is executed by the night vote at dawn 2, and his C-C pair still kills C
    roles = {"A": "vampire", "B": "criminal"}
    r = play([night(("A", "吸 D E"), ("B", "吸 C")), QUIET_DAY, night(("A", "吸 F G"), ("B", "吸 C"), ("A", "投 B"))],
             roles=roles)
    assert out_names(r) == ["B", "C"]
    assert r.game.player(2).out_reason == "executed" and r.game.player(3).out_reason == "killed"


# --- converting -------------------------------------------------------------------------------------
def test_conversion_makes_a_vampire_at_dawn_who_does_not_know_by_whom():
    r = play([night(("A", "吸 B C")), QUIET_DAY, night(("A", "转化 B"), ("A", "吸 C D E"))])
    assert roles_of(r)["B"] == "vampire" and out_names(r) == []
    pm = replies_to(r, "B", "role")[-1].data
    assert pm["converted"] is True and pm["converts"] == [] and "by" not in pm
    assert dawn(r, "A")[-1]["fed"] is True  # three successful sucks on a converting night
    assert r.game.ruleset.status_data(1)["converts"] == ["B"]


def test_a_converting_night_needs_three_and_kills_nobody():
    r = play([night(("A", "吸 B C")), QUIET_DAY, night(("A", "转化 B"), ("A", "吸 C D"))])
    assert dawn(r, "A")[-1]["fed"] is False and out_names(r) == []  # C sucked twice running, but no kill


def test_three_sucks_need_a_conversion_first():
    r = play([night(("A", "吸 B C")), QUIET_DAY, night(("A", "吸 C D E"), ("A", "转化 B"), ("A", "吸 C D E"))])
    assert reasons(r, "A") == ["too_many"]
    assert replies_to(r, "A", "suck_recorded")[-1].data["need"] == 3


@pytest.mark.parametrize(("first", "second", "reason"), [
    ("吸 B", "转化 B", "not_fed"),          # not fed last night
    ("吸 B C", "转化 D", "not_sucked"),     # D not sucked last night
    ("吸 B C", "转化 A", "convert_self"),
])
def test_a_conversion_his_knowledge_rules_out_is_rejected(first, second, reason):
    r = play([night(("A", first)), QUIET_DAY, night(("A", second))])
    assert reasons(r, "A") == [reason]


def test_no_conversion_the_night_after_a_conversion():
    r = play([night(("A", "吸 B C")), QUIET_DAY, night(("A", "转化 B"), ("A", "吸 C D E")), QUIET_DAY, night(("A", "转化 C"))])
    assert reasons(r, "A") == ["converted_last_night"]


def test_converting_a_criminal_fails_silently():
    roles = {"A": "vampire", "B": "criminal"}
    r = play([night(("A", "吸 B C"), ("B", "吸 D")), QUIET_DAY, night(("A", "转化 B"), ("A", "吸 C D E"), ("B", "吸 F"))], roles=roles)
    assert reasons(r, "A") == [] and roles_of(r)["B"] == "criminal"
    assert r.game.ruleset.nights[1]["biters"][0]["convert"] == {"target": "B", "ok": False}
    assert set(dawn(r, "A")[-1]) == set(dawn(r, "A")[0])  # nothing tells him


def test_status_shows_every_conversion_taken_or_not():
    """Issue 10.2 (README ruling 2026-12): the converter's status lists whom he made drink his blood,
    the same whether the conversion took (B2, a human) or silently failed (B, a criminal)."""
    failed = play([night(("A", "吸 B C"), ("B", "吸 D")), QUIET_DAY,
                   night(("A", "转化 B"), ("A", "吸 C D E"), ("B", "吸 F")), {"phase": "day", "messages": [["A", "状态"]]}],
                  roles={"A": "vampire", "B": "criminal"})
    took = play([night(("A", "吸 B C"), ("D", "吸 G")), QUIET_DAY,
                 night(("A", "转化 B"), ("A", "吸 C E F"), ("D", "吸 H")), {"phase": "day", "messages": [["A", "状态"]]}],
                roles={"A": "vampire", "D": "criminal"})
    assert roles_of(failed)["B"] == "criminal" and roles_of(took)["B"] == "vampire"
    for r in (failed, took):
        status = replies_to(r, "A", "status")[-1].data
        assert status["converts"] == ["B"]
        assert set(dawn(r, "A")[-1]) == set(dawn(r, "A")[0]) and dawn(r, "A")[-1]["fed"] is True


def test_a_conversion_can_be_withdrawn():
    """Issue 10.12: 取消转化 withdraws the standing conversion: back to a need of 2, and the sucks kill
    again (B sucked two nights running: AB-BC)."""
    r = play([night(("A", "吸 B C")), QUIET_DAY,
              night(("A", "转化 B"), ("A", "吸 C D E"), ("A", "取消转化"), ("A", "吸 C D"), ("A", "不转化"), ("A", "状态"),
                    ("A", "cancel convert"))])
    assert reasons(r, "A") == ["too_many_without_conversion", "no_conversion"]
    assert [x.data["withdrawn"] for x in replies_to(r, "A", "convert_recorded")] == [False, True]
    convert = next(a for a in replies_to(r, "A", "status")[-1].data["actions"] if a["action"] == "convert")
    assert convert["recorded"] is False and convert["targets"] == []
    assert out_names(r) == ["C"] and dawn(r, "A")[-1]["fed"] is True and roles_of(r)["B"] == "human"
    r = play([night(("A", "吸 B C")), QUIET_DAY, night(("B", "取消转化"))])
    assert reasons(r, "B") == ["not_your_role"]


def test_the_night_brief_promises_no_conversion():
    """Issue 10.12: after a kill the conversion the brief offers would fail silently: the brief says
    when a conversion takes, that nobody says whether it did, and how to withdraw it."""
    r = play([night(("A", "吸 B C")), QUIET_DAY, night(("A", "吸 C D")), QUIET_DAY, night(("A", "转化 D"), ("A", "吸 E F G"))])
    assert out_names(r) == ["C"]  # killed on night 2
    brief = replies_to(r, "A", "night_brief")[2]
    assert brief.data["may_convert"] is True
    for locale, words in (("zh-Hans", ["没有杀人", "不会告诉你", "取消转化"]), ("zh-Hant", ["沒有殺人", "不會告訴你", "取消轉化"]),
                          ("en", ["killed nobody", "will not tell you", "cancel convert"])):
        text = Renderer(locale).render(brief.key, brief.data)
        assert all(w in text for w in words), (locale, text)
    assert roles_of(r)["D"] == "human" and r.game.ruleset.status_data(1)["converts"] == ["D"]


@pytest.mark.parametrize("text", ["投 15号", "投 孙悟空", "投"])
def test_a_mistyped_day_vote_in_the_thread_is_answered_by_pm(text):
    """Issue 10.11: day votes are cast only in the thread; one that does not read is answered by PM."""
    r = play([night(("A", "吸 B C")), {"phase": "day", "posts": [["D", text], ["E", "今天天气不错"]]}])
    replies = [x for x in replies_to(r, "D") if x.key == "common/parse_error"]
    assert len(replies) == 1 and replies[0].data["thread"] is True and replies[0].data["verb"] == "vote"
    assert [x.key for x in replies_to(r, "E") if x.key != "interview_vampire/role"] == []
    rendered = Renderer("zh-Hans").render(replies[0].key, replies[0].data)
    assert "没有记录" in rendered and "帖里" in rendered


def test_a_human_being_converted_fails_for_every_other_biter():
    r = play([night(("A", "吸 C D"), ("B", "吸 E F")), QUIET_DAY, night(("A", "转化 C"), ("A", "吸 G H I"), ("B", "吸 C J"))],
             roles=TWO)
    assert roles_of(r)["C"] == "vampire"
    b = r.game.ruleset.nights[1]["biters"][1]
    assert [s["ok"] for s in b["sucks"]] == [False, True] and b["sucks"][0]["why"] == "converted"
    assert dawn(r, "B")[-1]["fed"] is False


# --- crimes and the criminal vote -----------------------------------------------------------------------
def test_sucking_a_vampire_feeds_and_makes_a_criminal_told_at_dawn():
    r = play([night(("A", "吸 C D"), ("B", "吸 A E"))], roles=TWO)
    assert roles_of(r)["B"] == "criminal" and roles_of(r)["A"] == "vampire"
    report = dawn(r, "B")[0]
    assert report["fed"] is True and report["criminal"] is True and report["criminals_exist"] is True
    assert dawn(r, "A")[0]["criminals_exist"] is True and dawn(r, "A")[0]["criminal"] is False
    assert "B" not in str(dawn(r, "A")[0])  # not who


def test_sucking_a_criminal_is_no_crime():
    roles = {"A": "vampire", "B": "criminal"}
    r = play([night(("A", "吸 B C"), ("B", "吸 D"))], roles=roles)
    assert roles_of(r)["A"] == "vampire" and dawn(r, "A")[0]["fed"] is True and dawn(r, "B")[0]["fed"] is True


def test_a_criminal_needs_one_sucks_one_and_cannot_convert():
    r = play([night(("A", "吸 C D"), ("B", "吸 A E")), QUIET_DAY,
              night(("B", "吸 C D"), ("B", "转化 E"), ("B", "吸 C"), ("A", "吸 E F"))], roles=TWO)
    assert reasons(r, "B") == ["too_many", "criminal_cannot_convert"]
    assert dawn(r, "B")[-1]["fed"] is True


def test_the_criminal_vote_executes_the_top_criminal_and_voters_learn_the_top_three():
    roles = {"A": "vampire", "B": "vampire", "C": "criminal"}
    r = play([night(("A", "投 C"), ("B", "投 C D"), ("C", "投 E"), ("A", "吸 F G"), ("B", "吸 H I"), ("C", "吸 J"))],
             roles=roles)
    assert out_names(r) == ["C"] and r.game.player(3).out_reason == "executed"
    assert dawn(r, "A")[0]["leading"] == ["C", "D", "E"]  # C 3, D 1, E 1: in seat order, no counts
    assert "votes" not in str(dawn(r, "A")[0])
    assert posts(r, "day_open")[0].data["dead"] == ["C"]


def test_a_vampire_has_two_votes_a_criminal_one():
    roles = {"A": "vampire", "C": "criminal"}
    r = play([night(("A", "投 C D E"), ("C", "投 A D"), ("A", "投 D"))], roles=roles)
    assert reasons(r, "A") == ["too_many_votes"] and reasons(r, "C") == ["too_many_votes"]
    assert replies_to(r, "A", "vote_recorded")[-1].data["votes"] == [{"name": "D", "votes": 2}]
    assert out_names(r) == []  # D, a human, tops the vote: nobody


def test_a_tie_in_the_criminal_vote_executes_nobody():
    roles = {"A": "vampire", "C": "criminal"}
    r = play([night(("A", "投 C D"), ("A", "吸 E F"), ("C", "吸 G"))], roles=roles)
    assert out_names(r) == []


def test_no_criminal_vote_before_a_criminal_exists():
    r = play([night(("A", "吸 C D"), ("B", "吸 A E")), QUIET_DAY])
    assert replies_to(r, "A", "night_brief")[0].data["crime_vote"] is False
    r = play([night(("A", "吸 C D"), ("B", "吸 A E")), QUIET_DAY, night(("A", "吸 F G"))], roles=TWO)
    briefs = replies_to(r, "A", "night_brief")
    assert [b.data["crime_vote"] for b in briefs] == [False, True]


def test_the_criminal_vote_goes_on_after_the_last_criminal_is_out():
    """Issue 10.3 (README ruling 2026-12): once a criminal has appeared the night vote is held every
    night, so whether it is held tells no voter whether a criminal still lives."""
    r = play([night(("A", "吸 C D"), ("B", "吸 A E")), day({"C": "B", "D": "B", "E": "B"}), night(("A", "吸 F G"), ("A", "投 C")),
              QUIET_DAY, night(("A", "吸 H I"))], roles=TWO)
    assert out_names(r)[0] == "B" and r.game.player(2).out_reason == "sun"   # the only criminal, burned on day 1
    assert [b.data["crime_vote"] for b in replies_to(r, "A", "night_brief")] == [False, True, True]
    assert reasons(r, "A") == [] and replies_to(r, "A", "vote_recorded")[0].data["night"] is True
    assert dawn(r, "A")[1]["leading"] == ["C"]


# --- the day --------------------------------------------------------------------------------------------
def test_the_sun_burns_a_vampire_at_nightfall_and_spares_a_human():
    r = play([night(("A", "吸 C D"), ("B", "吸 E F")), day({"C": "B", "D": "B", "E": "C"}), night(("A", "吸 F G")),
              day({"C": "D", "D": "D"})], roles=TWO)
    assert out_names(r) == ["B"] and r.game.player(2).out_reason == "sun"
    results = posts(r, "vote_result")
    assert results[0].data["burns"] is True and results[1].data["burns"] is False and results[1].data["chosen"] == "D"
    assert "role" not in str(results[0].data)


def test_a_day_tie_puts_nobody_in_the_sun():
    r = play([night(("A", "吸 B C")), day({"B": "A", "C": "D"})])
    assert out_names(r) == [] and posts(r, "vote_result")[0].data["result"] == "exhausted"


def test_the_day_vote_is_in_the_thread_one_each():
    r = play([night(("A", "吸 B C")), {"phase": "day", "messages": [["B", "投 A"]],
                                        "posts": [["B", "投 A"], ["B", "投 C"], ["C", "投 A"], ["D", "我不投"]]}])
    assert reasons(r, "B") == ["vote_in_thread", "already_voted"]
    assert out_names(r) == ["A"]


# --- winning ----------------------------------------------------------------------------------------
def test_humans_win_after_enough_day_executions():
    roles = {"A": "vampire", "B": "vampire"}
    r = play([night(("A", "吸 C D"), ("B", "吸 E F")), day({"C": "A", "D": "A"})], roles=roles,
             params={"human_executions": 1})
    assert r.game.winner == "human" and r.game.ruleset.reasons == ["day_executions"]


def test_vampires_win_when_few_are_left():
    r = play([night(("A", "吸 B C")), QUIET_DAY, night(("A", "吸 C D")), QUIET_DAY, night(("A", "吸 D E")), QUIET_DAY,
              night(("A", "吸 E F"))], players="ABCDEF")
    assert out_names(r) == ["C", "E"] and r.game.winner == "vampire" and r.game.ruleset.reasons == ["few_left"]


def test_both_camps_win_at_the_same_check():
    r = play([night(("A", "吸 C D"), ("B", "吸 E F")), day({"C": "A", "D": "A"})], players="ABCDEF", roles=TWO,
             params={"human_executions": 1, "final_players": 5})
    assert r.game.winner == ["human", "vampire"]
    assert r.to_json(Renderer("en"))["winner"] == ["human", "vampire"]
    assert all(p["won"] for p in posts(r, "final")[0].data["players"])


def test_surviving_criminals_win_with_the_winning_camp():
    roles = {"A": "vampire", "B": "criminal"}
    r = play([night(("A", "吸 C D"), ("B", "吸 E")), day({"C": "A", "D": "A"})], roles=roles)
    assert r.game.winner == "human"
    won = {p["name"]: p["won"] for p in posts(r, "final")[0].data["players"]}
    assert won["B"] is True and won["A"] is False and won["C"] is True


def test_neither_camp_criminals_win_alone_else_a_draw():
    roles = {"A": "vampire", "B": "criminal"}
    r = play([night(("A", "吸 C D"), ("B", "吸 E"))], roles=roles, params={"max_nights": 1})
    assert r.game.winner == "criminal"
    r = play([night(("A", "吸 C D"))], params={"max_nights": 1})
    assert r.game.winner == "draw"


def test_a_camp_with_no_living_member_cannot_win():
    # the last human dies the same dawn the last vampire starves: criminals alone
    roles = {"A": "vampire", "B": "criminal", "C": "criminal"}
    r = play([night(("B", "吸 D"), ("C", "吸 E")), QUIET_DAY, night(("B", "吸 D"), ("C", "吸 E"))],
             players="ABCDE", roles=roles)
    assert set(out_names(r)) == {"A", "D", "E"}
    assert r.game.winner == "criminal" and r.game.ruleset.reasons == ["no_camp"]


def test_the_texts_rule_night_executions():
    roles = {"A": "vampire", "B": "criminal"}
    r = play([night(("A", "投 B"), ("A", "吸 C D"), ("B", "吸 E"))], roles=roles,
             params={"vampire_rule": "text", "night_executions": 1})
    assert r.game.winner == "vampire" and r.game.ruleset.reasons == ["night_executions"]


def test_the_texts_rule_share_held_two_dawns():
    p = {"vampire_rule": "text", "vampire_share": 0.05}
    r = play([night(("A", "吸 B C")), QUIET_DAY, night(("A", "吸 D E"))], params=p)
    assert r.game.winner == "vampire" and r.game.ruleset.reasons == ["share_held"]
    r = play([night(("A", "吸 B C"))], params=p)
    assert not r.game.finished  # one dawn is not enough


def test_organiser_penalty_and_end():
    r = play([{"phase": "night", "organiser": [["Org", "罚分 A 潜水"]]}])
    assert r.game.winner == "human"
    r = play([{"phase": "night", "organiser": [["Org", "结束游戏"]]}])
    assert r.game.finished and r.game.winner is None


def test_an_organiser_command_after_the_end_is_answered_game_over_and_posts_nothing():
    """An ``extend`` that arrives after the game ended extended nothing, yet was posted in the thread."""
    r = play([{"phase": "night", "organiser": [["Org", "结束游戏"], ["Org", "延长 1小时"], ["Org", "暂停"]]}])
    steps = [ph.step for ph in r.phases]
    replies = [o for step in steps for o in step.replies if o.to == "Org"]
    assert [o.key for o in replies][-2:] == ["common/game_over", "common/game_over"]
    assert not any(p.key in ("common/deadline_extended", "common/game_paused") for step in steps for p in step.posts)


def test_help_and_status_follow_the_role_and_phase():
    r = play([night(("A", "帮助"), ("B", "帮助"), ("A", "吸 B C"), ("A", "状态")), {"phase": "day", "messages": [["A", "帮助"]]}])
    helps = replies_to(r, "A", "help")
    assert helps[0].data["verbs"] == ["suck", "convert", "status", "help"]
    assert helps[1].data["verbs"] == ["vote_thread", "status", "help"]
    assert replies_to(r, "B", "help")[0].data["verbs"] == ["status", "help"]
    actions = replies_to(r, "A", "status")[0].data["actions"]
    assert [(a["action"], a["targets"], a["owed"]) for a in actions] == [("suck", ["B", "C"], False), ("convert", [], False)]


def test_example_season_loads():
    from forumbot.config import load_config

    config = load_config(Path(__file__).parents[2] / "forumbot" / "config_examples" / "interview_vampire.example.toml")
    g = Game(config.setup("1"))
    g.start()
    assert config.ruleset == "interview_vampire" and len(g.living("vampire")) == 1 and len(g.players) == 13


def test_both_camps_transcript():
    r = replay(load_transcript(FULL.parent / "interview_vampire_both_camps.yaml"))
    assert out_names(r) == ["Bob", "Hal", "Ann"]
    assert r.game.player(2).out_reason == "starved" and r.game.player(8).out_reason == "killed"
    assert r.game.winner == ["human", "vampire"] and r.game.ruleset.reasons == ["day_executions", "few_left"]


def test_criminals_transcript():
    r = replay(load_transcript(FULL.parent / "interview_vampire_criminals.yaml"))
    assert out_names(r) == ["甲"] and r.game.winner == "human"
    assert r.game.ruleset.nights[1]["executed"] is None and reasons(r, "乙") == ["too_many"]
    assert dawn(r, "甲")[-1]["leading"] == ["甲", "丙", "丁"]
    assert posts(r, "final")[0].data["criminals_won"] == ["乙"]


def test_vote_commands_in_the_thread_at_night_are_refused_by_the_declared_day_vote():
    """The day vote is a day's (【白天的处决】): at night a vote, an unvote or a no lynch posted in the thread is
    refused as out of phase — by the one check of the declared actions; a marked vote that does not read is
    talk at night. By day an unvote or a no lynch is answered with the vote's rule (the first vote stands, no
    abstention), in the thread as by PM."""
    r = play([{"phase": "night", "posts": [["B", "投 C"], ["B", "unvote"], ["B", "no lynch"], ["C", "##投 Zorro"]]},
              {"phase": "day", "posts": [["B", "投 C"], ["B", "unvote"], ["B", "no lynch"]],
               "messages": [["C", "unvote"]]}])
    assert reasons(r, "B") == ["wrong_phase", "wrong_phase", "wrong_phase"]
    assert [x.data["verb"] for x in replies_to(r, "B", "rejected")] == ["vote", "unvote", "nolynch"]
    assert [x.key for x in r.phases[1].step.replies if x.to == "C"] == []
    day_replies = [(x.to, x.key, x.data.get("rule")) for x in r.phases[2].step.replies]
    assert ("B", "common/vote_rule", "first_vote_stands") in day_replies
    assert ("B", "common/vote_rule", "no_abstention") in day_replies
    assert ("C", "common/vote_rule", "first_vote_stands") in day_replies


@pytest.mark.parametrize("locale", ["en", "zh-Hans", "zh-Hant"])
def test_the_criminal_vote_is_never_said_to_last_only_while_a_criminal_lives(locale):
    """The rulings (docs/interview_vampire.md): the criminal vote is held every night once a criminal appeared,
    whether or not one still lives (holding it only while one lives would tell them so) — no reply (the dawn
    report that announces criminals, a converted vampire's role PM) may say otherwise."""
    r = replay(load_transcript(FULL.with_name("interview_vampire_criminals.yaml")))
    renderer = Renderer(locale, "markdown")
    told = [renderer.render(x.key, x.data) for ph in r.phases for x in ph.step.replies if x.data.get("criminals_exist")]
    assert told
    for text in told:
        assert "while one lives" not in text.lower() and "while a criminal lives" not in text.lower(), text
        assert "只要还有犯罪" not in text and "只要還有犯罪" not in text, text
