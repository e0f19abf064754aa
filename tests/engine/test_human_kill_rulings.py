"""human_kill: the rulings of shared/seeds/README.md § human_kill marked 2026-12 and the rule bugs of
issue 10 (banished Utsuho and the win checks, the sage's order choice, succession, run-off,
last words, 苍天, the organiser's reports)."""

from __future__ import annotations

import re

from forumbot.render import renderer
from forumbot.replay import parse_transcript, replay

ROLES6 = {"A": "human", "B": "human", "C": "youkai", "D": "youkai", "E": "remilia", "F": "yukari"}


def play(phases, players, roles, **extra):
    entries = [p if isinstance(p, dict) else {"messages": p} for p in phases]
    return replay(parse_transcript({"ruleset": "human_kill", "players": list(players), "roles": roles,
                                    "phases": entries, **extra}))


def events(r, kind):
    return [e.data for ph in r.phases for e in ph.step.events if e.kind == kind]


def posts(r, key):
    return [p for ph in r.phases for p in ph.step.posts if p.key == f"human_kill/{key}"]


def kinds(r):
    return [e["kind"] for e in events(r, "phase_opened")]


# --- 5. a banished Utsuho counts as alive for every win condition ------------------------------------
def test_parsee_does_not_win_while_a_banished_utsuho_is_in_the_game():
    roles = {"A": "human", "B": "human", "C": "youkai", "D": "utsuho", "E": "parsee", "F": "remilia"}
    r = play([{"phase": "remilia"}, {"phase": "exorcism"},
              {"phase": "banish", "messages": [[x, "放逐 D"] for x in "ABCEF"]},   # D: Utsuho, sealed
              {"phase": "remilia"}, {"phase": "exorcism"},
              {"phase": "banish", "messages": [[x, "放逐 E"] for x in "ABCF"]}],    # Parsee takes her voters
             "ABCDEF", roles)
    assert r.game.player(4).alive and not any(r.game.player(s).alive for s in (1, 2, 3, 5, 6))
    assert r.game.winner == "youkai"  # every human out; Utsuho is still in the game, so Parsee has not won


# --- 6. the sage's speaking-order choice holds for the night it is made, by the sage in office --------
SAGE_DAY1 = [{"phase": "remilia"}, {"phase": "exorcism"}, {"phase": "yukari"},
             {"phase": "election", "messages": [[x, "退选"] for x in "ABCD"]},
             {"phase": "sage_vote", "messages": [[x, "投 E"] for x in "ABCD"]}]


def test_a_banished_sages_order_choice_does_not_outlive_him():
    r = play(SAGE_DAY1 + [
        {"phase": "order", "messages": [["E", "逆时针 自己"]]},
        {"phase": "banish", "messages": [[x, "放逐 E"] for x in "ABCDF"]},     # the sage is banished
        {"phase": "remilia"}, {"phase": "exorcism"}, {"phase": "yukari"}, {"phase": "banish"}],
        "ABCDEF", ROLES6, params={"sage": True})
    first, second = [p.data for p in posts(r, "nightfall") if p.data["order"] is not None]
    assert first["by_sage"] and first["order"] == ["F", "A", "B", "C", "D", "E"]
    assert not second["by_sage"] and second["sage"] is None
    assert second["order"] == ["A", "B", "C", "D", "F"]  # the rulebook's default: nobody out, from the lowest
    for locale in ("zh-Hans", "zh-Hant", "en"):  # the post names no sage and no "chosen by the sage"
        text = renderer(locale).render("human_kill/nightfall", second)
        assert "贤者" not in text and "賢者" not in text and not re.search(r"\bsage\b", text, re.I)


def test_under_tenkiame_the_default_order_applies_not_the_sages_old_choice():
    # seed 7 with these weights: 雾雨 on day 1, 太阳雨 on day 2
    r = play(SAGE_DAY1 + [
        {"phase": "order", "messages": [["E", "顺时针 自己"]]},
        {"phase": "banish"},                                                  # nobody votes: nobody out
        {"phase": "remilia"}, {"phase": "exorcism"}, {"phase": "yukari"}, {"phase": "banish"}],
        "ABCDEF", ROLES6, seed=7,
        params={"sage": True, "weather": True, "weather_weights": {"kirisame": 1, "tenkiame": 1}, "kyokkou_chance": 0})
    assert [w["chosen"] for w in events(r, "modifier_drawn")][:2] == ["kirisame", "tenkiame"]
    first, second = [p.data for p in posts(r, "nightfall") if p.data["order"] is not None]
    assert first["by_sage"] and first["order"] == ["D", "C", "B", "A", "F", "E"]
    assert kinds(r).count("order") == 1  # no order phase under 太阳雨
    assert not second["by_sage"] and second["order"] == ["A", "B", "C", "D", "E", "F"]


# --- 9. the last-words window counts the phases in which players speak ------------------------------
def test_a_day_one_exit_speaks_his_last_words_in_the_night_after_the_sages_order_phase():
    r = play([{"phase": "remilia"},
              {"phase": "exorcism", "messages": [["A", "退治 C"], ["B", "退治 C"]]},   # C out at nightfall
              {"phase": "yukari"},
              {"phase": "election", "messages": [[x, "退选"] for x in "ABCD"]},
              {"phase": "sage_vote", "messages": [[x, "投 E"] for x in "ABCD"]},
              {"phase": "order", "messages": [["E", "逆时针 C"]]},
              {"phase": "banish", "posts": [["C", "我是妖怪，A 很可疑。"]]},            # his last words
              {"phase": "remilia", "posts": [["C", "补充一句"]]}],                      # too late
             "ABCDEF", ROLES6, params={"sage": True}, organisers=["Org"])
    assert events(r, "last_words") == [{"seat": 3, "name": "C"}]
    assert [e["why"] for e in events(r, "dead_player_post")] == ["again"]


def test_the_window_closes_with_the_first_speaking_phase_after_the_death():
    r = play([{"phase": "remilia"},
              {"phase": "exorcism", "messages": [["A", "退治 C"]]},
              {"phase": "yukari"},
              {"phase": "banish"},                                      # C leaves no last words here
              {"phase": "remilia", "posts": [["C", "我是妖怪"]]}],
             "ABCDEF", ROLES6, organisers=["Org"])
    assert events(r, "last_words") == []
    assert [e["why"] for e in events(r, "dead_player_post")] == ["window_closed"]


# --- 16. the organiser's reports name the right reason -----------------------------------------------
def test_a_banished_utsuhos_second_post_is_not_reported_as_a_dead_players():
    roles = {"A": "human", "B": "human", "C": "youkai", "D": "utsuho", "E": "remilia", "F": "youkai"}
    r = play([{"phase": "remilia"}, {"phase": "exorcism"},
              {"phase": "banish", "messages": [[x, "放逐 D"] for x in "ABCEF"]},
              {"phase": "remilia", "posts": [["D", "我是灵乌路空"], ["D", "再说一句"]]}],
             "ABCDEF", roles, organisers=["Org"])
    assert events(r, "utsuho_speech") == [{"seat": 4}] and events(r, "dead_player_post") == []
    reports = [x for ph in r.phases for x in ph.step.replies if x.to == "Org"]
    assert [x.key for x in reports] == ["human_kill/sealed_post"]
    for locale in ("zh-Hans", "zh-Hant", "en"):
        text = renderer(locale).render(reports[0].key, reports[0].data)
        assert "已出局" not in text and "out of the game" not in text and "D" in text


def test_a_round_three_exits_first_post_is_not_called_a_second_one():
    r = play([{"phase": "remilia"}, {"phase": "exorcism"}, {"phase": "yukari"}, {"phase": "banish"},
              {"phase": "remilia"}, {"phase": "exorcism"}, {"phase": "yukari"}, {"phase": "banish"},
              {"phase": "remilia"}, {"phase": "exorcism", "messages": [["A", "退治 C"]]}, {"phase": "yukari"},
              {"phase": "banish", "posts": [["C", "我是妖怪"]]}],       # out in round 3: no last words
             "ABCDEF", ROLES6, organisers=["Org"])
    assert events(r, "last_words") == []
    assert [e["why"] for e in events(r, "dead_player_post")] == ["no_last_words"]
    report = next(x for ph in r.phases for x in ph.step.replies if x.to == "Org")
    texts = [renderer(loc).render(report.key, report.data) for loc in ("zh-Hans", "zh-Hant", "en")]
    assert "又" not in texts[0] and "遗言之外" not in texts[0] and "遺言之外" not in texts[1]
    assert "again" not in texts[2]


# --- 8. the sage run-off: speeches and withdrawals first, then the vote -------------------------------
DAY1 = [{"phase": "remilia"}, {"phase": "exorcism"}, {"phase": "yukari"}]


def replies(r, to):
    return [x for ph in r.phases for x in ph.step.replies if x.to == to]


def test_sage_runoff_withdrawals_close_before_the_vote_and_no_ballot_is_dropped():
    r = play(DAY1 + [
        {"phase": "election", "messages": [[x, "退选"] for x in "ABC"]},
        {"phase": "sage_vote", "messages": [["A", "投 D"], ["B", "投 E"], ["C", "弃权"]]},
        {"phase": "sage_pleas", "messages": [["D", "退选"], ["F", "退选"]]},     # F was not tied
        {"phase": "sage_runoff", "messages": [["A", "投 D"], ["A", "投 E"], ["B", "投 E"], ["E", "退选"]]}],
        "ABCDEF", ROLES6, params={"sage": True})
    assert [e["reason"] for e in events(r, "rejected")] == ["not_candidate_self", "not_candidate", "withdraw_closed"]
    d_reply = [x for x in replies(r, "D") if x.key == "human_kill/recorded"][-1]
    assert d_reply.data["action"] == "withdraw" and d_reply.data["votes"] is False  # not promised a vote
    for locale in ("zh-Hans", "zh-Hant", "en"):
        text = renderer(locale).render(d_reply.key, d_reply.data)
        assert "将参加" not in text and "將參加" not in text and "you will vote" not in text
    vote = [p.data for p in posts(r, "sage_vote")][-1]
    assert vote["number"] == 2 and vote["candidates"] == ["E"] and vote["voters"] == ["A", "B", "C", "F"]
    assert [e["seat"] for e in events(r, "sage_elected")] == [5]
    assert kinds(r)[3:7] == ["election", "sage_vote", "sage_pleas", "sage_runoff"]


def test_everyone_abstaining_is_a_tie_of_all_candidates_then_no_sage():
    abstain = [["A", "弃权"], ["B", "弃权"]]
    r = play(DAY1 + [{"phase": "election", "messages": [["A", "退选"], ["B", "退选"]]},
                     {"phase": "sage_vote", "messages": abstain},
                     {"phase": "sage_pleas"},
                     {"phase": "sage_runoff", "messages": [["C", "投 D"]]}],        # C is tied: no vote
             "ABCDEF", ROLES6, params={"sage": True})
    results = [p.data for p in posts(r, "sage_result")]
    assert [x["result"] for x in results] == ["runoff", "no_votes"]
    assert results[0]["tied"] == ["C", "D", "E", "F"] and results[0]["all_abstained"]
    assert [e["reason"] for e in events(r, "rejected")] == ["not_a_voter"]
    assert events(r, "sage_elected") == [{"seat": None, "why": "no_votes"}]
    for locale in ("zh-Hans", "zh-Hant", "en"):
        first = renderer(locale).render("human_kill/sage_result", results[0])
        assert "C" in first and "F" in first
    # a second all-abstain with abstentions cast: no sage either
    r = play(DAY1 + [{"phase": "election", "messages": [["A", "退选"], ["B", "退选"]]},
                     {"phase": "sage_vote", "messages": abstain}, {"phase": "sage_pleas"},
                     {"phase": "sage_runoff", "messages": abstain}], "ABCDEF", ROLES6, params={"sage": True})
    assert events(r, "sage_elected")[0]["seat"] is None


# --- 7. a sage out on the day he is elected chooses his successor --------------------------------------
EXORCISE_E = [{"phase": "remilia"}, {"phase": "exorcism", "messages": [["A", "退治 E"], ["B", "退治 E"]]},
              {"phase": "yukari"},
              {"phase": "election", "messages": [[x, "退选"] for x in "ABCD"]},
              {"phase": "sage_vote", "messages": [[x, "投 E"] for x in "ABCD"]}]  # E is elected, then out


def test_a_sage_exorcised_on_the_day_he_is_elected_names_his_successor():
    r = play(EXORCISE_E + [
        {"phase": "succession", "messages": [["A", "接任 B"], ["E", "接任 F"]]},   # A is not the sage
        {"phase": "order", "messages": [["F", "逆时针 E"]]},
        {"phase": "banish"}], "ABCDEF", ROLES6, params={"sage": True})
    assert not r.game.player(5).alive
    assert events(r, "sage_changed") == [{"from": 5, "to": 6}]
    assert [e["reason"] for e in events(r, "rejected")] == ["not_sage"]
    assert [p.data["new"] for p in posts(r, "succession")] == ["F"]
    assert [x.key for x in replies(r, "E")][-2:] == ["human_kill/succession_prompt", "human_kill/recorded"]
    night = [p.data for p in posts(r, "nightfall")]
    assert night[0]["dead"] == ["E"] and night[0]["succession"] == "E"
    assert night[-1]["by_sage"] and night[-1]["order"] == ["F", "A", "B", "C", "D"]
    for locale in ("zh-Hans", "zh-Hant", "en"):
        assert "E" in renderer(locale).render("human_kill/nightfall", night[0])


def test_a_sage_out_on_his_election_day_who_names_nobody_ends_the_title():
    r = play(EXORCISE_E + [{"phase": "succession"}, {"phase": "banish"}], "ABCDEF", ROLES6, params={"sage": True})
    assert events(r, "sage_changed") == [{"from": 5, "to": None}]
    assert "order" not in kinds(r) and posts(r, "succession")[0].data["new"] is None


# --- 10. 苍天: the nearest volunteer goes out in a dying player's place ----------------------------------
SOUTEN = {"weather": True, "weather_weights": {"souten": 1}, "kyokkou_chance": 0}


def test_souten_at_nightfall_the_nearest_volunteer_goes_out_instead():
    r = play([{"phase": "remilia"}, {"phase": "exorcism", "messages": [["A", "退治 C"], ["B", "退治 C"]]},
              {"phase": "yukari"},
              {"phase": "souten", "messages": [["F", "替 C"], ["C", "替 D"], ["E", "替 A"], ["D", "替 C"]]},
              {"phase": "banish"}], "ABCDEF", ROLES6, params=SOUTEN)
    assert [p.data["dying"] for p in posts(r, "souten")] == [["C"]]
    assert [e["reason"] for e in events(r, "rejected")] == ["you_are_dying", "not_dying"]
    assert events(r, "substituted") == [{"round": 1, "for": 3, "by": 4}]  # D (1 seat away) before F (3 away)
    assert r.game.player(3).alive and not r.game.player(4).alive
    assert r.game.player(4).out_reason == "exorcised"                  # the cause is inherited
    result = posts(r, "souten_result")[0].data
    assert result["dead"] == ["D"] and result["subs"] == [{"for": "C", "by": "D"}] and result["last_words"] == ["D"]
    banish = [p.data for p in posts(r, "nightfall")][-1]
    assert banish["dead"] is None and banish["order"] == ["E", "F", "A", "B", "C"]  # from D, the one out
    for locale in ("zh-Hans", "zh-Hant", "en"):
        for key, data in (("souten", posts(r, "souten")[0].data), ("souten_result", result)):
            text = renderer(locale).render(f"human_kill/{key}", data)
            assert "C" in text and "未实现" not in text and "not implemented" not in text


def test_souten_equally_near_the_earlier_volunteer_and_nobody_volunteering():
    phases = [{"phase": "remilia"}, {"phase": "exorcism", "messages": [["A", "退治 C"]]}, {"phase": "yukari"}]
    r = play(phases + [{"phase": "souten", "messages": [["D", "替 C"], ["B", "替 C"]]}], "ABCDEF", ROLES6, params=SOUTEN)
    assert events(r, "substituted") == [{"round": 1, "for": 3, "by": 4}]
    r = play(phases + [{"phase": "souten", "messages": [["D", "替 C"], ["B", "替 C"], ["D", "弃权"]]}],
             "ABCDEF", ROLES6, params=SOUTEN)
    assert events(r, "substituted") == [{"round": 1, "for": 3, "by": 2}]
    r = play(phases + [{"phase": "souten"}], "ABCDEF", ROLES6, params=SOUTEN)
    assert events(r, "substituted") == [] and not r.game.player(3).alive
    assert posts(r, "souten_result")[0].data["dead"] == ["C"]


def test_souten_after_the_banishment():
    r = play([{"phase": "remilia"}, {"phase": "exorcism"}, {"phase": "yukari"},
              {"phase": "banish", "messages": [[x, "放逐 A"] for x in "BCDEF"]},
              {"phase": "souten", "messages": [["F", "替 A"]]}], "ABCDEF", ROLES6, params=SOUTEN)
    assert posts(r, "banish_result")[0].data["souten"] and posts(r, "banish_result")[0].data["dead"] == []
    assert events(r, "substituted") == [{"round": 1, "for": 1, "by": 6}]
    assert r.game.player(1).alive and r.game.player(6).out_reason == "banished"
    assert kinds(r)[-1] == "remilia"  # the next day


def test_souten_a_take_is_settled_before_the_substitution():
    roles = {"A": "human", "B": "reimu", "C": "youkai", "D": "youkai", "E": "remilia", "F": "yukari", "G": "youkai"}
    r = play([{"phase": "remilia", "messages": [["B", "带走 C"]]},
              {"phase": "exorcism", "messages": [["A", "退治 B"], ["B", "退治 B"]]}, {"phase": "yukari"},
              {"phase": "souten", "messages": [["A", "替 B"]]}], "ABCDEFG", roles, params=SOUTEN)
    assert posts(r, "souten")[0].data["dying"] == ["B", "C"]  # seat order: no cause, no link shown
    assert r.game.player(2).alive and not r.game.player(1).alive and not r.game.player(3).alive


# --- the transcript of all of these together -----------------------------------------------------------
def test_rulings_transcript():
    from pathlib import Path

    from forumbot.replay import load_transcript

    r = replay(load_transcript(Path(__file__).parent.parent / "transcripts" / "human_kill_rulings.yaml"))
    assert [p.data["result"] for p in posts(r, "sage_result")] == ["runoff", "decided"]
    assert [e["reason"] for e in events(r, "rejected")] == [
        "not_candidate_self", "not_candidate", "withdraw_closed", "you_are_dying"]
    assert events(r, "sage_changed") == [{"from": 6, "to": 8}]
    assert events(r, "substituted") == [{"round": 2, "for": 3, "by": 4}, {"round": 2, "for": 1, "by": 2}]
    assert [e["name"] for e in events(r, "last_words")] == ["己", "丁"]
    assert [e["why"] for e in events(r, "dead_player_post")] == ["again", "no_last_words"]
    assert [x.key for ph in r.phases for x in ph.step.replies if x.to == "主持"][:1] == ["human_kill/sealed_post"]
    assert r.game.player(5).alive and r.game.player(1).alive and not r.game.player(2).alive
