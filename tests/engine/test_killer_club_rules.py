"""Every rule of killer_club (shared/seeds/004_5ab5d5b6b9eb9ce6.txt, README § killer_club), as
transcripts: expected deaths, replies and winner. The table (killer_club_helpers): A, B, C killers;
D, E, F police; G helper; H nurse; I..N civilians."""

from __future__ import annotations

from pathlib import Path

import pytest
from killer_club_helpers import PLAYERS, out_names, play, posts, reasons, replies_to, votes

from forumbot.engine.game import Game, Setup, SetupError
from forumbot.engine.types import Deadline, Message
from forumbot.render import Renderer
from forumbot.replay import load_transcript, replay

FULL = Path(__file__).parent.parent / "transcripts" / "killer_club_full_game.yaml"
EVERYONE = "".join(PLAYERS)


def others(*gone: str) -> str:
    return "".join(p for p in PLAYERS if p not in gone)


def keys(result, name):
    return [r.key.split("/")[-1] for r in replies_to(result, name)]


# --- the full game ---------------------------------------------------------------------------------
def test_full_game_transcript():
    r = replay(load_transcript(FULL))
    assert out_names(r) == ["李四", "阿珍", "王五", "趙六", "張三"]
    assert r.game.finished and r.game.winner == "police"
    data = r.to_json(Renderer("zh-Hant"))
    assert data["winner"] == "police"
    assert [p["role"] for p in data["players"]][:8] == ["killer"] * 3 + ["police"] * 3 + ["helper", "nurse"]
    assert [ph["phase"] for ph in data["phases"]] == [
        "prologue", "night", "vote", "night", "vote", "runoff", "runoff", "choice", "night", "vote"]
    assert r.game.ruleset.summary()["first_night_victim"] is None  # 小華 was saved
    assert replay(load_transcript(FULL)).to_json(Renderer("en")) == r.to_json(Renderer("en"))


# --- night: kill and save ---------------------------------------------------------------------------
def test_kill_without_save_dies_and_day_post_names_the_victim():
    r = play([[["A", "殺 I"]]])
    assert out_names(r) == ["I"]
    day = posts(r, "day_open")[0].data
    assert day["victim"] == "I" and day["last_words"] is True


def test_save_beats_kill():
    r = play([[["A", "殺 I"], ["H", "救 I"]]])
    assert out_names(r) == []
    assert posts(r, "day_open")[0].data["victim"] is None
    assert r.game.ruleset.nights[0]["saved"] is True


def test_nurse_may_save_herself():
    r = play([[["A", "殺 H"], ["H", "救自己"]]])
    assert out_names(r) == []
    assert replies_to(r, "H")[-1].data["myself"] is True


def test_no_kill_order_nobody_dies():
    r = play([[["H", "救 I"]]])
    assert out_names(r) == [] and posts(r, "day_open")[0].data["victim"] is None


def test_killers_may_not_target_the_same_player_two_nights_running():
    # night 1: I saved; night 2: I again is refused with a reply, J instead; night 3: I allowed again.
    r = play([[["A", "殺 I"], ["H", "救 I"]], [], [["B", "殺 I"], ["B", "殺 J"]], [], [["C", "殺 K"]], [], [["C", "殺 I"]]])
    assert reasons(r, "B") == ["repeat_kill"]
    assert [x.data["target"] for x in replies_to(r, "B") if x.key == "killer_club/rejected"] == ["I"]
    assert out_names(r) == ["J", "K", "I"]


def test_no_order_one_night_breaks_the_run():
    r = play([[["A", "殺 I"], ["H", "救 I"]], [], [], [], [["A", "殺 I"]]])
    assert reasons(r, "A") == [] and out_names(r) == ["I"]


def test_nurse_may_not_save_the_same_player_two_nights_running():
    r = play([[["H", "救 I"]], [], [["H", "救 I"], ["H", "救 J"]], [], [["H", "救 J"], ["H", "救 K"]], [], [["H", "救 K"], ["H", "救 I"]]])
    assert reasons(r, "H") == ["repeat_save", "repeat_save", "repeat_save"]
    assert r.game.ruleset.nights[-1]["save"] == "I"


def test_nurse_changes_her_save_before_the_deadline_last_stands():
    r = play([[["A", "殺 I"], ["H", "救 J"], ["H", "救 I"]]])
    assert out_names(r) == []
    assert replies_to(r, "H")[-1].data["replaced"] == "J"


# --- team orders ------------------------------------------------------------------------------------------
def test_team_order_overridden_by_a_later_one_and_relayed():
    r = play([[["A", "殺 I"], ["B", "殺 J"]]])
    assert out_names(r) == ["J"]
    relayed = [(x.to, x.data["actor"], x.data["target"], x.data["replaced"]) for x in
               [y for ph in r.phases for y in ph.step.replies if y.key == "killer_club/order_relayed"]]
    assert relayed == [("B", "A", "I", None), ("C", "A", "I", None), ("A", "B", "J", "I"), ("C", "B", "J", "I")]
    mine = next(x for x in replies_to(r, "B") if x.key == "killer_club/order_recorded")
    assert mine.data["replaced"] == "I" and mine.data["relayed"] == ["A", "C"]


def test_relays_go_to_living_teammates_only():
    day1 = votes("C", others("C"))
    r = play([[], day1, [["A", "殺 I"]]])
    assert out_names(r)[:1] == ["C"]
    relays = [y.to for ph in r.phases for y in ph.step.replies if y.key == "killer_club/order_relayed"]
    assert relays == ["B"]


# --- checks and the nurse's question ---------------------------------------------------------------------
def test_police_check_result_correct_and_sent_to_every_living_police():
    r = play([[["D", "驗 A"]], [], [["E", "查 I"]]], )
    first = [(x.to, x.data["is_killer"]) for x in r.phases[1].step.replies if x.key == "killer_club/check_result"]
    assert first == [("D", True), ("E", True), ("F", True)]
    second = [(x.to, x.data["target"], x.data["is_killer"], x.data["by"]) for x in r.phases[3].step.replies
              if x.key == "killer_club/check_result"]
    assert second == [("D", "I", False, "E"), ("E", "I", False, "E"), ("F", "I", False, "E")]


def test_check_result_skips_dead_police():
    r = play([[["A", "殺 D"]], [], [["E", "驗 B"]]])
    assert [x.to for x in r.phases[3].step.replies if x.key == "killer_club/check_result"] == ["E", "F"]


def test_police_check_once_a_night_for_the_team():
    r = play([[["D", "驗 A"], ["E", "驗 B"], ["D", "驗 C"]]])
    assert reasons(r, "E") == ["already_checked"] and reasons(r, "D") == ["already_checked"]
    assert replies_to(r, "E")[-1].data["target"] == "A"


def test_police_may_not_check_themselves_or_teammates():
    r = play([[["D", "驗 D"], ["D", "驗 E"]]])
    assert reasons(r, "D") == ["check_self", "check_teammate"]


def test_helper_check_waits_for_the_kill_then_is_answered():
    r = play([[["G", "驗 D"], ["A", "殺 I"]]])
    assert keys(r, "G")[-2:] == ["check_waiting", "check_result"]
    night = r.phases[1].step.replies
    order = [x.key for x in night]
    assert order.index("killer_club/order_recorded") < order.index("killer_club/check_result")
    assert replies_to(r, "G")[-1].data["is_killer"] is False


def test_helper_check_after_the_kill_is_answered_at_once():
    r = play([[["A", "殺 I"], ["G", "驗 B"]]])
    assert keys(r, "G")[-1] == "check_result" and replies_to(r, "G")[-1].data["is_killer"] is True


def test_helper_check_without_kill_is_answered_at_the_deadline():
    r = play([[["G", "驗 B"]]])
    results = [x for x in r.phases[1].step.replies if x.key == "killer_club/check_result"]
    assert [x.to for x in results] == ["G"]
    step = r.phases[1].step.outputs
    assert step.index(results[0]) > next(i for i, o in enumerate(step) if getattr(o, "key", "") == "killer_club/check_waiting")


def test_nurse_question_answered_at_once():
    r = play([[["H", "問 D"], ["H", "救 I"]], [], [["H", "ask I"]]])
    answers = [(x.data["target"], x.data["is_police"]) for x in replies_to(r, "H") if x.key == "killer_club/ask_result"]
    assert answers == [("D", True), ("I", False)]


def test_nurse_question_once_a_night_and_before_the_save():
    r = play([[["H", "問 D"], ["H", "問 E"]], [], [["H", "救 I"], ["H", "問 D"]]])
    assert reasons(r, "H") == ["already_asked", "ask_after_save"]


# --- dead players and wrong roles ------------------------------------------------------------------------
@pytest.mark.parametrize("sender,text", [("I", "殺 J"), ("D", "殺 J"), ("A", "驗 D"), ("D", "救 I"), ("G", "問 D"),
                                         ("I", "驗 A"), ("A", "救 A"), ("H", "驗 A")])
def test_wrong_role_rejected(sender, text):
    r = play([[[sender, text]]])
    assert reasons(r, sender) == ["not_your_role"]
    assert out_names(r) == []


def test_actions_by_dead_players_rejected():
    # night 1: A kills D (police); day 1: A voted out; night 2: dead A, D act; B kills H (nurse);
    # night 3: dead H saves; day 3: dead I votes.
    day1 = votes("A", others("A", "D"))
    r = play([[["A", "殺 D"]], day1, [["A", "殺 I"], ["D", "驗 B"], ["B", "殺 H"]], [], [["H", "救 J"], ["B", "殺 I"]],
              [["I", "投 B"], ["H", "投 B"]]])
    assert reasons(r, "A") == ["you_are_out"]
    assert reasons(r, "D") == ["you_are_out"]
    assert reasons(r, "H") == ["you_are_out", "you_are_out"]
    assert reasons(r, "I") == ["you_are_out"]
    assert out_names(r)[:4] == ["D", "A", "H", "I"]


def test_dead_nurse_save_does_not_count():
    # the nurse saves I, then is removed by the organiser that night: the kill goes through.
    r = play([{"messages": [["H", "救 I"], ["A", "殺 I"]], "organiser": [["Org", "罰分 H 潛水"]]}])
    assert "I" in out_names(r)


def test_night_commands_outside_the_night_rejected():
    r = play([{"phase": "prologue", "messages": [["A", "殺 I"], ["D", "驗 A"]]}, [["I", "投 A"]], [["A", "殺 I"]]])
    assert reasons(r, "A") == ["wrong_phase", "wrong_phase"] and reasons(r, "D") == ["wrong_phase"]
    assert reasons(r, "I") == ["wrong_phase"]


# --- votes, run-offs and the victim's choice -------------------------------------------------------------
def test_most_votes_executed_first_vote_stands():
    r = play([[], votes("A", "DEFGHIJK") + votes("D", "ABC") + [["D", "投 B"]]])
    assert out_names(r) == ["A"] and reasons(r, "D") == ["already_voted"]
    assert posts(r, "vote_result")[0].data["counts"] == [{"name": "A", "votes": 8}, {"name": "D", "votes": 3}]


def test_vote_names_exactly_one_living_player():
    r = play([[["A", "殺 I"]], [["D", "投 A B"], ["D", "投 I"], ["D", "投 A"]]])
    assert reasons(r, "D") == ["one_target", "dead_target"]


def test_nobody_votes_nobody_executed():
    r = play([[], []])
    assert out_names(r) == [] and posts(r, "vote_result")[0].data["result"] == "none"
    assert r.game.phase.kind == "night" and r.game.phase.round == 2


TIE = votes("A", "DEFGHI") + votes("D", "ABCJKL")


def test_tie_goes_to_runoff_among_the_tied():
    r = play([[], TIE, [["M", "投 B"], ["M", "投 A"]] + votes("A", "DEFGHI")])
    assert posts(r, "runoff_open")[0].data["candidates"] == ["A", "D"]
    assert reasons(r, "M") == ["not_candidate"]
    assert out_names(r) == ["A"]
    assert [ph.phase for ph in r.phases[:4]] == ["prologue", "night", "vote", "runoff"]


def test_three_ties_end_with_the_victims_choice():
    r = play([[["A", "殺 N"]], TIE, TIE, TIE, {"phase": "choice", "messages": [["N", "殺 M"], ["N", "殺 D"]]}])
    assert out_names(r) == ["N", "D"]
    assert [p.data["result"] for p in posts(r, "vote_result")] == ["runoff", "runoff", "choice"]
    assert posts(r, "choice_result")[0].data == {"round": 1, "victim": "N", "chosen": "D", "how": "named", "last_words": True}
    assert reasons(r, "N") == ["not_candidate"]
    assert keys(r, "N")[-3:] == ["choice_prompt", "rejected", "choice_recorded"]
    assert r.game.players[3].out_reason == "chosen"
    assert r.game.phase.kind == "night" and r.game.phase.round == 2


def test_victim_who_names_nobody_in_time_nobody_dies():
    r = play([[["A", "殺 N"]], TIE, TIE, TIE, {"phase": "choice"}])
    assert out_names(r) == ["N"] and posts(r, "choice_result")[0].data["how"] == "nobody"


def test_victim_who_names_nobody_with_draw_config():
    r = play([[["A", "殺 N"]], TIE, TIE, TIE, {"phase": "choice"}], params={"tie_fallback": "draw"}, seed=3)
    drawn = posts(r, "choice_result")[0].data
    assert drawn["how"] == "drawn" and drawn["chosen"] in ("A", "D")
    again = play([[["A", "殺 N"]], TIE, TIE, TIE, {"phase": "choice"}], params={"tie_fallback": "draw"}, seed=3)
    assert posts(again, "choice_result")[0].data == drawn


def test_three_ties_without_a_night_victim_nobody_dies():
    r = play([[], TIE, TIE, TIE])
    assert out_names(r) == [] and posts(r, "vote_result")[-1].data["result"] == "nobody"
    assert r.game.phase.kind == "night"


def test_three_ties_without_a_night_victim_seeded_draw_when_configured():
    results = {posts(play([[], TIE, TIE, TIE], params={"tie_fallback": "draw"}, seed=s), "vote_result")[-1].data["chosen"]
               for s in range(8)}
    assert results == {"A", "D"}
    r = play([[], TIE, TIE, TIE], params={"tie_fallback": "draw"}, seed=1)
    assert posts(r, "vote_result")[-1].data["result"] == "drawn"
    assert any(e.kind == "draw" for ph in r.phases for e in ph.step.events)


def test_number_of_votes_is_config():
    r = play([[], TIE], params={"votes": 1})
    assert posts(r, "vote_result")[-1].data["result"] == "nobody"


def test_thread_vote_when_configured():
    r = play([[], {"messages": [["D", "投 A"]], "posts": [[x, "投 A"] for x in "EFGHI"] + [["J", "我覺得 A 很可疑"]]}],
             params={"vote_in_thread": True})
    assert reasons(r, "D") == ["vote_in_thread"]
    assert out_names(r) == ["A"]
    assert len(posts(r, "vote_result")[0].data["ballots"]) == 5


# --- the day's speaking order -----------------------------------------------------------------------------
def test_speaking_order_starts_after_the_victim():
    r = play([[["A", "殺 K"]]])
    assert posts(r, "day_open")[0].data["order"] == list("LMNABCDEFGHIJ")


def test_speaking_order_after_a_peaceful_night_starts_after_the_last_death():
    r = play([[], votes("C", others("C")), [["A", "殺 I"], ["H", "救 I"]]])
    assert posts(r, "day_open")[1].data["order"] == list("DEFGHIJKLMNAB")
    assert posts(r, "day_open")[0].data["order"] == PLAYERS


# --- last words ------------------------------------------------------------------------------------------
def test_last_words_for_the_first_n_deaths_only():
    # N = 3 (three killers). Deaths: I (night 1), J (day 1), K (night 2), L (day 2).
    r = play([
        [["A", "殺 I"]],
        {"messages": votes("J", others("I", "J")), "posts": [["I", "遺言"], ["I", "再說一句"]]},
        {"messages": [["A", "殺 K"]], "posts": [["J", "遺言"]]},
        {"messages": votes("L", others("I", "J", "K", "L")), "posts": [["K", "遺言"]]},
        {"posts": [["L", "遺言"]]},
    ], organisers=["Org"])
    events = [(e.kind, e.data["name"]) for ph in r.phases for e in ph.step.events if e.kind in ("last_words", "dead_player_post")]
    assert events == [("last_words", "I"), ("dead_player_post", "I"), ("last_words", "J"), ("last_words", "K"),
                      ("dead_player_post", "L")]
    assert [x.data["player"] for x in replies_to(r, "Org")] == ["I", "L"]
    assert posts(r, "vote_result")[1].data["last_words"] is False


def test_last_words_outside_the_window_refused():
    r = play([[["A", "殺 I"]], [], {"posts": [["I", "遲到的遺言"]]}], organisers=["Org"])
    assert [e.kind for ph in r.phases for e in ph.step.events if e.kind in ("last_words", "dead_player_post")] == ["dead_player_post"]


@pytest.mark.parametrize("n,killers,expected", [(10, 2, 2), (11, 2, 3), (12, 2, 3), (14, 3, 3), (8, 2, 2), (17, 4, 4)])
def test_number_of_last_words(n, killers, expected):
    g = Game(Setup("killer_club", tuple(f"p{i}" for i in range(n)), seed=1))
    g.start()
    assert g.ruleset.start_counts["killer"] == killers and g.ruleset.first.limit == expected


def test_last_words_param():
    r = play([], params={"last_words": 1})
    assert r.game.ruleset.first.limit == 1


# --- win conditions --------------------------------------------------------------------------------------
def test_all_killers_dead_police_side_wins():
    r = play([[], votes("A", others("A")), [], votes("B", others("A", "B")), [], votes("C", others("A", "B", "C"))])
    assert r.game.winner == "police" and r.game.ruleset.win_reason == "killers_dead"
    final = posts(r, "final")[0].data
    won = {p["name"]: p["won"] for p in final["players"]}
    assert won["H"] and won["I"] and won["D"] and not won["G"] and not won["A"]


def test_all_police_dead_killer_side_wins():
    r = play([[["A", "殺 D"]], votes("E", others("D", "E")), [["A", "殺 F"]]])
    assert r.game.winner == "killer" and r.game.ruleset.win_reason == "police_dead"
    assert posts(r, "final")[0].data["players"][6]["won"] is True  # the helper wins with the killers


def test_all_civilians_dead_killer_side_wins():
    small = {"A": "killer", "B": "killer", "C": "police", "D": "police"}
    r = play([[["A", "殺 G"]], votes("H", "ABCDEF")], players="ABCDEFGH", roles={**small, "E": "nurse", "F": "helper"})
    assert r.game.winner == "killer" and r.game.ruleset.win_reason == "civilians_dead"


def test_killers_at_least_all_others_killer_side_wins():
    roles = {"A": "killer", "B": "killer", "C": "police", "D": "police"}
    r = play([[["A", "殺 E"]], votes("F", "ABCD")], players="ABCDEFGH", roles=roles)
    assert r.game.winner is None  # 2 killers, 4 others
    r = play([[["A", "殺 E"]], votes("F", "ABCD"), [["A", "殺 G"]], votes("C", "ABH")], players="ABCDEFGH", roles=roles)
    # deaths: E, F, G, C: killers A B vs D H -> 2 >= 2
    assert r.game.winner == "killer" and r.game.ruleset.win_reason == "killers_outnumber"


def test_win_checked_after_a_night_death_no_day_post():
    r = play([[["A", "殺 D"]], votes("E", others("D", "E")), [["A", "殺 F"]]])
    assert len(posts(r, "day_open")) == 1 and posts(r, "final")


def test_win_checked_after_the_victims_choice():
    roles = {"A": "killer", "B": "police"}
    tie = [["B", "投 A"], ["C", "投 A"], ["A", "投 C"], ["D", "投 C"]]
    r = play([[["A", "殺 F"]], tie, tie, tie, {"phase": "choice", "messages": [["F", "殺 A"]]}], players="ABCDEF", roles=roles)
    assert r.game.winner == "police" and out_names(r) == ["F", "A"]


def test_organiser_penalty_checks_the_win():
    r = play([{"organiser": [["Org", "罰分 A 潛水"], ["Org", "罰分 B 潛水"], ["Org", "罰分 C 潛水"]]}])
    assert r.game.winner == "police" and r.game.finished


def test_organiser_end_has_no_winner():
    r = play([{"organiser": [["Org", "結束遊戲"]]}])
    assert r.game.finished and r.game.winner is None and posts(r, "final")[0].data["winner"] is None


# --- no role is revealed before the end -------------------------------------------------------------------
def test_no_role_in_any_post_before_the_final_one():
    r = replay(load_transcript(FULL))
    before = [p for p in posts(r) if p.key != "killer_club/final"]
    assert before
    for p in before:
        assert ("role" not in p.data and "players" not in p.data) or p.key == "killer_club/opening"
        assert not any(isinstance(v, dict) and "role" in v for v in p.data.values())
    assert all("role" in x for x in posts(r, "final")[0].data["players"])


# --- role counts -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("n,counts", [
    (6, (1, 1, 0, 0, 4)), (7, (1, 1, 0, 0, 5)), (8, (2, 2, 0, 0, 4)), (10, (2, 2, 0, 0, 6)), (12, (2, 2, 0, 0, 8)),
    (13, (3, 3, 1, 1, 5)), (14, (3, 3, 1, 1, 6)), (16, (3, 3, 1, 1, 8)), (17, (4, 4, 1, 1, 7)), (21, (5, 5, 1, 1, 9)),
])
def test_role_count_presets_and_scaling(n, counts):
    from forumbot.rulesets.killer_club import preset_counts

    got = preset_counts(n)
    assert (got["killer"], got["police"], got["helper"], got["nurse"], got["civilian"]) == counts
    g = Game(Setup("killer_club", tuple(f"p{i}" for i in range(n)), seed=n))
    dealt = [p.role for p in g.players]
    assert [dealt.count(r) for r in ("killer", "police", "helper", "nurse", "civilian")] == list(counts)


def test_role_counts_from_params():
    g = Game(Setup("killer_club", tuple(f"p{i}" for i in range(10)), params={"killers": 3, "police": 2, "nurse": 1}))
    dealt = [p.role for p in g.players]
    assert (dealt.count("killer"), dealt.count("police"), dealt.count("nurse"), dealt.count("helper"), dealt.count("civilian")) == (3, 2, 1, 0, 4)


@pytest.mark.parametrize("params", [{"killers": 5, "police": 5}, {"helper": 2}, {"killers": 0}])
def test_bad_role_counts_are_a_setup_error(params):
    with pytest.raises(SetupError):
        Game(Setup("killer_club", tuple(f"p{i}" for i in range(8)), params=params))


@pytest.mark.parametrize("roles", [{"A": "killer"}, {"A": "killer", "B": "killer", "C": "killer", "D": "police"},
                                   {"A": "killer", "B": "police", "C": "nurse", "D": "nurse"}])
def test_an_unplayable_draw_is_a_setup_error(roles):
    g = Game(Setup("killer_club", tuple("ABCDEF"), roles=roles))
    with pytest.raises(SetupError):
        g.start()


def test_the_role_draw_is_seeded():
    a = Game(Setup("killer_club", tuple(PLAYERS), seed="s1"))
    b = Game(Setup("killer_club", tuple(PLAYERS), seed="s1"))
    assert [p.role for p in a.players] == [p.role for p in b.players]


# --- role PMs ---------------------------------------------------------------------------------------------
def test_role_pm_tells_role_teammates_and_commands():
    r = play([])
    pm = {x.to: x.data for x in r.phases[0].step.replies}
    assert pm["A"]["role"] == "killer" and pm["A"]["teammates"] == ["B", "C"] and pm["A"]["verbs"] == ["kill"]
    assert pm["D"]["teammates"] == ["E", "F"] and pm["D"]["verbs"] == ["check"]
    assert pm["G"]["teammates"] == [] and pm["H"]["verbs"] == ["ask", "save"] and pm["I"]["verbs"] == []
    text = Renderer("zh-Hant").render("killer_club/role", pm["H"])
    assert "護士" in text and "救 " in text and "截止時間" in text


def test_help_lists_the_commands_of_the_role_and_phase():
    r = play([[["A", "幫助"], ["H", "幫助"], ["I", "幫助"]], [["I", "幫助"]]])
    helps = {(x.to, i): x.data["verbs"] for i, ph in enumerate(r.phases) for x in ph.step.replies if x.key == "killer_club/help"}
    assert helps[("A", 1)] == ["kill", "status", "help"]
    assert helps[("H", 1)] == ["ask", "save", "status", "help"]
    assert helps[("I", 1)] == ["status", "help"]
    assert helps[("I", 2)] == ["vote", "status", "help"]


def test_pending():
    g = Game(Setup("killer_club", tuple(PLAYERS), roles={"A": "killer", "B": "killer", "D": "police", "H": "nurse"}))
    g.start()
    g.apply(Deadline(0))
    assert g.ruleset.pending() == [1, 2, 4, 8]
    g.apply(Message("A", "殺 I"))
    assert g.ruleset.pending() == [4, 8]


# --- the opening post (issue 10.14) ---------------------------------------------------------------------
@pytest.mark.parametrize(("locale", "team", "each"), [
    ("zh-Hans", "警察一起验一人", "各验一人"), ("zh-Hant", "警察一起驗一人", "各驗一人"),
    ("en", "the police together check one player", "check one each"),
])
def test_opening_says_the_police_check_once_as_a_team_and_gives_the_prologue_deadline(locale, team, each):
    for players, roles in ((PLAYERS, None), (list("ABCDEFGHIJ"), {"A": "killer", "B": "killer", "C": "police", "D": "police"})):
        r = play([], players=players, roles=roles)
        opening = next(p for p in posts(r) if p.key == "killer_club/opening")
        text = Renderer(locale).render(opening.key, opening.data, deadline="12-02 20:00")
        assert team in text and each not in text
        assert "12-02 20:00" in text


def test_templates_write_the_game_thread_as_youxitie():
    """「游戏帖」 (a thread) everywhere, never 「游戏贴」 (issue 10.14)."""
    root = Path(__file__).parents[2] / "forumbot" / "templates"
    assert [str(f) for f in root.rglob("*.j2") if "游戏贴" in f.read_text(encoding="utf-8") or "遊戲貼" in f.read_text(encoding="utf-8")] == []


def test_status_shows_each_open_action_with_the_team_order_and_what_is_still_owed():
    r = play([[["A", "杀 I"], ["B", "状态"], ["H", "问 D"], ["H", "状态"], ["I", "状态"]]])
    status = {x.to: x.data for x in r.phases[1].step.replies if x.key == "killer_club/status"}
    # the killers' order is the team's: B sees A's order
    assert [(a["action"], a["targets"], a["owed"]) for a in status["B"]["actions"]] == [("kill", ["I"], False)]
    assert [(a["action"], a["recorded"], a["targets"], a["owed"]) for a in status["H"]["actions"]] == [
        ("ask", True, ["D"], False), ("save", False, [], True)]
    assert status["I"]["actions"] == [] and status["I"]["role"] == "civilian"
    text = Renderer("en").render("killer_club/status", status["H"])
    assert "Asked tonight: D (police)." in text and "Saving tonight: not yet" in text  # the answer she was told


def test_a_nurse_who_saved_without_asking_is_no_longer_offered_the_question():
    """The question comes before the save: once she has saved without asking, help and status no longer offer
    it, and it is refused; asked first, a second question repeats the first answer as before."""
    r = play([[["H", "救 I"], ["H", "帮助"], ["H", "状态"], ["H", "问 D"]]])
    night = r.phases[1].step.replies
    help_ = next(x for x in night if x.to == "H" and x.key == "killer_club/help")
    status = next(x for x in night if x.to == "H" and x.key == "killer_club/status")
    assert help_.data["verbs"] == ["save", "status", "help"]
    assert [a["action"] for a in status.data["actions"]] == ["save"]
    assert reasons(r, "H") == ["ask_after_save"]
    r = play([[["H", "问 D"], ["H", "救 I"], ["H", "问 E"]]])
    assert reasons(r, "H") == ["already_asked"]
