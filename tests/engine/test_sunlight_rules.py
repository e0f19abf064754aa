"""Every rule and ruling of sunlight (shared/seeds/001 and shared/seeds/README.md § sunlight)."""

from __future__ import annotations

import pytest
from sunlight_helpers import play, posts, replies_to

from forumbot.render import Renderer
from forumbot.replay import TranscriptError, parse_transcript, replay

ALL_VOTE_C = [[x, "投 C"] for x in "ABDEFG"] + [["C", "投 A"]]


def reasons(result, name):
    return [r.data.get("reason") for r in replies_to(result, name) if r.key == "sunlight/rejected"]


def ruleset(result):
    return result.game.ruleset


# --- ballots -----------------------------------------------------------------------------------------
def test_two_names_give_3_and_2_points_one_name_gives_3():
    r = play([[["A", "投 B D"], ["B", "投 D"]]])
    v = ruleset(r).s.votes[0]
    assert v.received == {2: 3, 4: 5}


def test_no_changes_the_first_ballot_stands():
    r = play([[["A", "投 B"], ["A", "投 D"]]])
    assert ruleset(r).s.votes[0].received == {2: 3}
    assert reasons(r, "A") == ["already_voted"]


def test_dead_target_rejected_and_may_be_resent_without_strike():
    # round 1: E voted out; round 2 kill; round 3: A names E (dead), then resends.
    r1 = [[x, "投 E"] for x in "ABCDFG"]
    r = play([r1, {"phase": "poll"}, [["C", "杀 G"]], [["A", "投 E B"], ["A", "投 B"]] + [[x, "投 B"] for x in "BCDF"]])
    assert reasons(r, "A") == ["dead_target"]
    assert ruleset(r).strikes.of(1) == 0
    assert ruleset(r).s.votes[1].received[2] >= 3


def test_unknown_name_gets_parse_error_reply_and_changes_nothing():
    r = play([[["A", "投 Zorro"]]])
    assert any(x.key == "common/parse_error" for x in replies_to(r, "A"))
    assert ruleset(r).s.votes[0].ballots == []


@pytest.mark.parametrize("text,reason", [("投 B D E", "vote_count"), ("投 B B", "vote_duplicate")])
def test_bad_ballot_shapes_rejected(text, reason):
    r = play([[["A", text]]])
    assert reasons(r, "A") == [reason]
    assert ruleset(r).s.votes[0].ballots == []


def test_vote_outside_vote_round_rejected():
    r = play([{"phase": "prologue", "messages": [["A", "投 B"]]}])
    assert reasons(r, "A") == ["wrong_phase"]


# --- strikes -------------------------------------------------------------------------------------------
def test_missed_vote_warns_then_second_makes_suicide():
    tie = [["A", "投 B"], ["B", "投 A"]]  # C..G miss round 1 and round 3
    r = play([tie, [], tie])
    sl = ruleset(r)
    assert sl.s.votes[0].warned == [3, 4, 5, 6, 7]
    assert sorted(sl.s.votes[1].suicides) == [3, 4, 5, 6, 7]
    assert any(x.key == "sunlight/warning" for x in replies_to(r, "D"))
    assert any(x.key == "sunlight/suicide" for x in replies_to(r, "D"))
    assert sl.scores()[4] == -20 and r.game.finished  # the killer C is gone with two goods


def test_self_vote_is_void_and_counts_as_missed():
    r = play([[["A", "投 A B"], ["B", "投 C"]]])
    v = ruleset(r).s.votes[0]
    assert v.n == 1 and 1 in v.warned
    assert v.received == {3: 3}
    assert [x.key for x in replies_to(r, "A") if x.key.startswith("sunlight/vote")] == ["sunlight/vote_self"]


def test_warnings_appear_in_the_round_post():
    r = play([[["A", "投 B"]]])
    result_post = next(p for p in posts(r) if p.key == "sunlight/vote_result")
    assert result_post.data["warned"] == ["B", "C", "D", "E", "F", "G"]


def test_suicides_points_ignored_for_who_is_out_and_their_ballots_leave_the_index():
    # Round 1: everyone but B votes; B warned. Round 3: B misses again -> suicide, though B got the most points.
    r1 = [["A", "投 D"], ["C", "投 D"], ["D", "投 E"], ["E", "投 B"], ["F", "投 B"], ["G", "投 B"]]
    # B has 9 points in round 1 but has voted... no: B missed. B is not out (9 > 6 D) -> B out? use ties.
    r1 = [["A", "投 D"], ["C", "投 D"], ["D", "投 E"], ["E", "投 G"], ["F", "投 G"], ["G", "投 E"]]
    r3 = [["A", "投 B"], ["C", "投 B"], ["D", "投 B"], ["E", "投 A"], ["F", "投 G"], ["G", "投 C"]]
    r = play([r1, [], r3], killer="C")
    sl = ruleset(r)
    v3 = sl.s.votes[1]
    assert v3.suicides == [2] and v3.out is None  # B's 9 points are ignored; nobody else leads alone
    # B cast no ballot in any round, so dropping B changes nothing; now make a suicide who had voted:
    assert r.game.player(2).out_reason == "suicide"


def test_suicide_ballots_from_earlier_rounds_are_dropped_from_index_sums():
    # A votes C (correct) in round 1 and misses rounds 3 and 5 -> suicide; A's round-1 points leave both sums.
    # Every round is a tie, so nobody is voted out.
    r1 = [["A", "投 C"], ["B", "投 D"], ["C", "投 B"], ["D", "投 E"], ["E", "投 F"], ["F", "投 G"], ["G", "投 A"]]
    cycle = [["B", "投 C"], ["C", "投 D"], ["D", "投 E"], ["E", "投 F"], ["F", "投 G"], ["G", "投 B"]]
    r = play([r1, [], cycle, [], cycle], killer="C")
    sl = ruleset(r)
    assert r.game.player(1).out_reason == "suicide"
    correct, total = sl.win_sums()
    assert correct == 6  # B's rounds 3 and 5; A's 3 correct points of round 1 are gone
    assert total == (21 - 3) + 18 + 18
    # scores others earned stay: the killer's round-1 score counted A's ballot (n = 7)
    assert sl.s.killer_scores[3][1] == 1.5 * 7 - 3


# --- who is out, successors ----------------------------------------------------------------------------
def test_tie_puts_nobody_out_and_no_ballots_put_nobody_out():
    r = play([[["A", "投 B"], ["B", "投 A"]]])
    assert ruleset(r).s.votes[0].out is None and ruleset(r).s.votes[0].tied == [1, 2]
    r = play([[]])
    assert ruleset(r).s.votes[0].out is None


def test_voted_out_killer_names_successor_and_only_the_new_killer_is_told():
    r = play([ALL_VOTE_C, {"phase": "poll", "messages": [["C", "接任 D"]]}, [["D", "杀 A"]]])
    sl = ruleset(r)
    assert sl.s.killers == [3, 4]
    assert [x.key for x in replies_to(r, "D")][-2:] == ["sunlight/you_are_killer", "sunlight/kill_recorded"]
    assert r.game.player(1).out_reason == "killed"
    for p in posts(r):
        assert "successor" not in p.key and "D" not in str(p.data.get("killers", ""))


def test_successor_drawn_when_none_named_in_time_and_draw_is_seeded():
    a = play([ALL_VOTE_C, {"phase": "poll"}], seed=11)
    b = play([ALL_VOTE_C, {"phase": "poll"}], seed=11)
    assert ruleset(a).s.killers == ruleset(b).s.killers and len(ruleset(a).s.killers) == 2
    new = ruleset(a).s.killers[1]
    assert new != 3 and a.game.player(new).alive


def test_successor_only_from_the_voted_out_killer():
    r = play([ALL_VOTE_C, {"phase": "poll", "messages": [["A", "接任 D"]]}])
    assert reasons(r, "A") == ["no_successor_due"]


def test_killer_suicide_is_replaced_by_a_draw():
    r1 = [[x, "投 A"] for x in "BDEFG"] + [["A", "投 B"]]  # C misses (warning); A out
    r3 = [["B", "投 E"], ["E", "投 B"], ["F", "投 G"], ["G", "投 F"]]  # a tie; C misses again: suicide
    r = play([r1, {"phase": "poll"}, [["C", "杀 D"]], r3])
    sl = ruleset(r)
    assert r.game.player(3).out_reason == "suicide"
    assert len(sl.s.killers) == 2 and r.game.player(sl.s.killers[1]).alive


# --- kill rounds -----------------------------------------------------------------------------------------
def test_kill_round_kills_and_survivors_get_one_point():
    r = play([[], [["C", "杀 A"]]])
    sl = ruleset(r)
    assert r.game.player(1).out_reason == "killed"
    assert sl.s.survival == {2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 1}


def test_no_kill_order_nobody_dies_everyone_survives():
    r = play([[], []])
    assert r.game.alive() == [1, 2, 3, 4, 5, 6, 7]
    assert ruleset(r).s.survival == {s: 1 for s in range(1, 8)}


def test_last_kill_order_stands():
    r = play([[], [["C", "杀 A"], ["C", "杀 B"]]])
    assert r.game.player(2).out_reason == "killed" and r.game.player(1).alive


@pytest.mark.parametrize("sender,text,reason", [
    ("A", "杀 B", "not_your_role"),
    ("C", "杀 C", "kill_self"),
    ("C", "杀 A B", "kill_count"),
])
def test_bad_kills_rejected(sender, text, reason):
    r = play([[], [[sender, text]]])
    assert reasons(r, sender) == [reason]
    assert r.game.alive() == [1, 2, 3, 4, 5, 6, 7]


def test_kill_in_vote_round_rejected():
    r = play([[["C", "杀 A"]]])
    assert reasons(r, "C") == ["wrong_phase"]


# --- end of game and final scores ----------------------------------------------------------------------
def test_ends_when_killer_alive_with_two_goods():
    # 4 players: A B C(killer) D. Round 1: A out -> killer with B, D: game over.
    r = play([[["B", "投 A"], ["C", "投 A"], ["D", "投 A"], ["A", "投 C"]]], players="ABCD")
    assert r.game.finished
    sl = ruleset(r)
    assert sl.s.final_survival == {3: 1, 2: 0.5, 4: 0.5}


def test_ends_when_killer_voted_out_with_three_goods_and_goods_get_one():
    r = play([[["A", "投 C"], ["B", "投 C"], ["D", "投 C"], ["C", "投 A"]]], players="ABCD")
    assert r.game.finished and r.game.winner == "good"
    assert ruleset(r).s.final_survival == {1: 1, 2: 1, 4: 1}


def test_killer_with_one_good_gets_the_point():
    r = play([[["A", "投 B"], ["C", "投 B"], ["D", "投 B"], ["B", "投 A"]]], players="ABCDE", killer="C")
    # 5 players, B out -> killer + A, D, E = 3 goods: continues to kill then vote
    assert not r.game.finished
    r = play([[["A", "投 B"], ["C", "投 B"], ["D", "投 B"]], {"phase": "poll"}, [["C", "杀 E"]], [["A", "投 D"], ["C", "投 D"]]],
             players="ABCDE", killer="C")
    assert r.game.finished and ruleset(r).s.final_survival == {3: 1}


def test_camp_bonus_goes_to_winners_but_not_suicides():
    r = play([[["A", "投 C"], ["B", "投 C"], ["D", "投 C"]]], players="ABCD")
    sl = ruleset(r)
    assert r.game.winner == "good"
    assert sl.breakdown(1)["bonus"] == 3 and sl.breakdown(3)["bonus"] == 0


def test_win_index_at_threshold_counts_as_goods_win():
    # One ballot of a good naming the killer (3) and the killer's ballot (3): 3/6 = 50%.
    r = play([[["A", "投 C"], ["B", "投 C"], ["D", "投 C"]]], players="ABCD", params={"win_threshold": 1.0})
    assert r.game.winner == "good"  # 9/9 = 100% >= 100%
    r = play([[["A", "投 C"], ["B", "投 C"], ["D", "投 C"], ["C", "投 A"]]], players="ABCD", params={"win_threshold": 0.76})
    assert r.game.winner == "killer"  # 9/12 = 75% < 76%


def test_ranks_share_ties():
    r = play([[["A", "投 C"], ["B", "投 C"], ["D", "投 C"], ["C", "投 A"]]], players="ABCD")
    ranks = ruleset(r).ranks()
    assert ranks[1] == ranks[2] == ranks[4] == 1 and ranks[3] == 4


def test_organiser_penalty_minus_30_and_out():
    r = play([{"organiser": [["Judge", "罚分 A 潜水"]]}], organisers=["Judge"])
    assert r.game.player(1).out_reason == "penalty"
    assert ruleset(r).scores()[1] == -30
    assert any(x.key == "common/organiser_done" for x in replies_to(r, "Judge"))


def test_non_organiser_cannot_penalise():
    r = play([[["A", "罚分 B 潜水"]]])
    assert "common/not_organiser" in [x.key for x in replies_to(r, "A")]
    assert r.game.player(2).alive


# --- clue polls ------------------------------------------------------------------------------------------
def _poll_game(choices, **kw):
    r1 = [[x, "投 A"] for x in "BCDEFG"] + [["A", "投 B"]]  # A (good) out
    return play([r1, {"phase": "poll", "messages": choices}, [["C", "杀 B"]]], **kw)


def clue_post(r):
    return next(p for p in posts(r) if p.key == "sunlight/kill_open" and p.data["round"] == 2)


def test_clue_poll_after_a_vote_out_and_published_in_next_kill_round():
    r = _poll_game([["B", "线索 1"], ["C", "线索 1"], ["D", "线索 2"]])
    clues = clue_post(r).data["clues"]
    assert clues == [{"number": 1, "round": 1, "player": "A", "was_killer": False}]


def test_two_clues_tied_both_published_even_with_no_clue_tied():
    r = _poll_game([["B", "线索 1"], ["C", "线索 3"], ["D", "线索 0"]])
    assert [c["number"] for c in clue_post(r).data["clues"]] == [1, 3]


def test_no_clue_alone_on_top_or_no_votes_publish_nothing():
    assert clue_post(_poll_game([["B", "线索 0"], ["C", "线索 0"], ["D", "线索 1"]])).data["clues"] == []
    assert clue_post(_poll_game([])).data["clues"] == []


@pytest.mark.parametrize(("choices", "nothing", "words"), [
    ([["B", "线索 0"], ["C", "线索 0"], ["D", "线索 1"]], "no_clue", {"zh-Hans": "「不要线索」得票最多", "zh-Hant": "「不要線索」得票最多",
                                                                 "en": '"no clue" had the most votes'}),
    ([], "no_votes", {"zh-Hans": "没有人投票", "zh-Hant": "沒有人投票", "en": "nobody voted"}),
])
def test_the_kill_post_says_when_the_clue_poll_published_nothing(choices, nothing, words):
    """Issue 10.15: the kill post says that "no clue" won (or nobody voted) instead of just having no clue."""
    post = clue_post(_poll_game(choices))
    assert post.data["clues"] == [] and post.data["poll_nothing"] == nothing
    for locale, text in words.items():
        assert text in Renderer(locale).render(post.key, post.data)
    published = clue_post(_poll_game([["B", "线索 1"]]))
    assert published.data["poll_nothing"] is None
    assert "线索投票" not in Renderer("zh-Hans").render(published.key, published.data)


def test_clue_choice_may_be_changed_last_stands():
    r = _poll_game([["B", "线索 1"], ["B", "线索 2"]])
    assert [c["number"] for c in clue_post(r).data["clues"]] == [2]


def test_clue_2_table_of_surviving_goods_and_clue_3_uses_at_or_above():
    r = _poll_game([["B", "线索 2"], ["C", "线索 3"]], params={"win_threshold": 0.0})
    clues = {c["number"]: c for c in clue_post(r).data["clues"]}
    # after round 1: goods B, D, E, F, G alive; B voted A (wrong, -3), others voted A (-3), no survival yet
    assert clues[2]["scores"] == [-3, -3, -3, -3, -3]
    assert clues[3]["reached"] is True  # 0 >= 0


def test_each_clue_published_once():
    r1 = [[x, "投 A"] for x in "BCDEFG"] + [["A", "投 B"]]
    r3 = [[x, "投 B"] for x in "CDEFG"] + [["B", "投 D"]]
    r = play([r1, {"phase": "poll", "messages": [["D", "线索 1"]]}, [], r3,
              {"phase": "poll", "messages": [["D", "线索 1"]]}])
    assert reasons(r, "D") == ["clue_option"]
    assert ruleset(r).s.clue_options == [] and list(ruleset(r).s.published) == [1]


def test_no_poll_when_nobody_is_out():
    r = play([[["A", "投 B"], ["B", "投 A"]]])
    assert r.game.phase.kind == "kill"


# --- hidden information ---------------------------------------------------------------------------------
def test_no_role_or_personal_score_in_public_posts_before_the_final(en):
    from pathlib import Path

    from forumbot.replay import load_transcript

    r = replay(load_transcript(Path(__file__).parent.parent / "transcripts" / "sunlight_worked_example.yaml"))
    public = [p for p in posts(r) if p.key != "sunlight/final"]
    for p in public:
        assert ("role" not in p.data and "roles" not in p.data and "players" not in p.data) or p.key == "sunlight/opening"
        text = en.render(p.key, p.data)
        for killer in ("C", "B"):
            assert f"{killer} was the killer" not in text and f"**{killer}** was **the killer**" not in text
    final = en.render("sunlight/final", next(p for p in posts(r) if p.key == "sunlight/final").data)
    assert "first killer" in final and "successor killer" in final


# --- the dead, strangers, organisers --------------------------------------------------------------------
def test_dead_players_last_words_then_reported():
    r1 = [[x, "投 A"] for x in "BCDEFG"]
    r = play([r1, {"phase": "poll", "posts": [["A", "my last words"], ["A", "one more"]]}], organisers=["Judge"])
    kinds = [e.kind for ph in r.phases for e in ph.step.events]
    assert kinds.count("last_words") == 1 and kinds.count("dead_player_post") == 1
    assert [x.key for x in replies_to(r, "Judge")] == ["common/dead_player_post"]


def test_dead_player_commands_rejected():
    r1 = [[x, "投 A"] for x in "BCDEFG"]
    r = play([r1, {"phase": "poll"}, [], [["A", "投 B"]]])
    assert reasons(r, "A") == ["you_are_out"]


@pytest.mark.parametrize("phase,text", [
    ({"phase": "poll"}, "投 B"),  # the clue poll: not "this is the clue poll"
    ({"phase": "poll"}, "线索 1"),
    ([], "投 B"),  # the kill round
    ([], "杀 B"),
    ([], "线索 2"),  # no clue poll open
])
def test_dead_player_is_told_he_is_out_in_any_phase(phase, text):
    r1 = [[x, "投 A"] for x in "BCDEFG"]
    entry = dict(phase) if isinstance(phase, dict) else {"messages": []}
    entry["messages"] = [["A", text]]
    phases = [r1, entry] if isinstance(phase, dict) else [r1, {"phase": "poll"}, entry]
    r = play(phases)
    assert reasons(r, "A") == ["you_are_out"]


def test_dead_killer_is_told_he_is_out():
    r1 = [[x, "投 C"] for x in "ABDEFG"]
    r = play([r1, {"phase": "poll", "messages": [["C", "接任 A"]]}, [["C", "杀 B"]]])
    assert reasons(r, "C") == ["you_are_out"]


def test_command_posted_in_thread_is_not_counted_and_the_player_is_told():
    r = play([{"phase": "vote", "posts": [["A", "投 B 李四"], ["A", "投 B D"], ["B", "我觉得 A 很可疑"], ["D", "状态"]]}])
    told = [x for x in replies_to(r, "A") if x.key == "common/command_in_thread"]
    assert len(told) == 2 and told[1].data == {"verb": "vote", "targets": ["B", "D"], "number": None, "vote_stands": False}
    assert not [x for x in replies_to(r, "B") if x.key == "common/command_in_thread"]  # discussion: no reply
    assert [x.data["verb"] for x in replies_to(r, "D") if x.key == "common/command_in_thread"] == ["status"]
    assert ruleset(r).s.votes[0].ballots == []  # nothing counted
    assert 1 in ruleset(r).s.votes[0].warned


def test_dead_players_thread_command_follows_the_last_words_rule():
    r1 = [[x, "投 A"] for x in "BCDEFG"]
    r = play([r1, {"phase": "poll", "posts": [["A", "投 B"], ["A", "投 C"]]}], organisers=["Judge"])
    assert not [x for x in replies_to(r, "A") if x.key == "common/command_in_thread"]
    kinds = [e.kind for ph in r.phases for e in ph.step.events]
    assert kinds.count("last_words") == 1 and kinds.count("dead_player_post") == 1
    assert [x.key for x in replies_to(r, "Judge")] == ["common/dead_player_post"]


def test_stranger_and_organiser_votes_not_recorded():
    r = play([[["Mallory", "投 B"], ["Judge", "投 B"]]], organisers=["Judge"], others=["Mallory"])
    assert [x.key for x in replies_to(r, "Mallory")] == ["common/not_a_player"]
    assert [x.key for x in replies_to(r, "Judge")] == ["common/organiser_not_player"]
    assert ruleset(r).s.votes[0].ballots == []


def test_every_message_gets_a_reply():
    msgs = [["A", "投 B"], ["A", "hello judge"], ["B", "状态"], ["C", "帮助"], ["D", "投 Zorro"], ["E", "杀 A"]]
    r = play([msgs])
    vote_phase = r.phases[1]
    assert [x.to for x in vote_phase.step.replies[: len(msgs)]] == [m[0] for m in msgs]


def test_status_and_help():
    r = play([[["A", "投 B D"], ["A", "状态"], ["C", "帮助"]]])
    status = next(x for x in replies_to(r, "A") if x.key == "sunlight/status")
    assert status.data["actions"] == [{"action": "vote", "recorded": True, "targets": ["B", "D"], "number": None,
                                       "note": None, "owed": False}]
    help_ = next(x for x in replies_to(r, "C") if x.key == "sunlight/help")
    assert help_.data["verbs"] == ["vote", "status", "help"]


# --- the transcript itself --------------------------------------------------------------------------------
def test_transcript_phase_mismatch_is_a_clear_error():
    with pytest.raises(TranscriptError, match=r"phase 1: the transcript says 'kill'"):
        play([{"phase": "kill"}])


def test_transcript_bad_line_is_a_clear_error():
    with pytest.raises(TranscriptError, match=r"phase 1"):
        parse_transcript({"ruleset": "sunlight", "players": ["A", "B", "C", "D"], "phases": [{"messages": [["A"]]}]})


def test_transcript_phases_after_the_end_is_an_error():
    with pytest.raises(TranscriptError, match="already over"):
        play([[["A", "投 C"], ["B", "投 C"], ["D", "投 C"]], []], players="ABCD")


def test_unknown_ruleset_and_bad_params_are_clear_errors():
    with pytest.raises(TranscriptError, match="unknown ruleset"):
        replay(parse_transcript({"ruleset": "nope", "players": ["A", "B", "C", "D"]}))
    with pytest.raises(TranscriptError, match="win_threshold"):
        replay(parse_transcript({"ruleset": "sunlight", "players": ["A", "B", "C", "D"], "params": {"win_threshold": 2}}))


def test_stale_deadline_changes_nothing():
    from forumbot.engine.game import Game, Setup
    from forumbot.engine.types import Deadline

    g = Game(Setup("sunlight", tuple("ABCD"), roles={"C": "killer"}))
    g.start()
    g.apply(Deadline(0))
    step = g.apply(Deadline(0))
    assert step.events == [] and g.phase.kind == "vote"


def test_seeded_draw_deals_one_killer_and_is_repeatable():
    from forumbot.engine.game import Game, Setup

    roles = [
        [p.role for p in Game(Setup("sunlight", tuple("ABCDEFGHIJ"), seed=s)).players] for s in (1, 1, 2)
    ]
    assert roles[0] == roles[1] and roles[0].count("killer") == 1


def test_successor_killer_scores_before_his_suicide_are_inherited():
    r1 = [[x, "投 C"] for x in "ABDEFG"] + [["C", "投 A"]]
    cycle = [["A", "投 D"], ["D", "投 E"], ["E", "投 F"], ["F", "投 G"], ["G", "投 A"]]  # a tie; B misses
    r = play([r1, {"phase": "poll", "messages": [["C", "接任 B"]]}, [], cycle, [], cycle])
    sl = ruleset(r)
    assert r.game.player(2).out_reason == "suicide" and sl.scores()[2] == -20
    assert sl.s.killer_scores[2] == {3: 7.5, 5: 7.5}
    assert sl.breakdown(3)["inherited"] == 15  # the first killer keeps his successor's scores
    assert len(sl.s.killers) == 3  # and a new killer is drawn after the suicide


def test_transcript_sender_typo_is_an_error_and_others_are_allowed():
    with pytest.raises(TranscriptError, match=r"phase 1: sender 'Z' is not a player"):
        play([[["Z", "投 B"]]])
    r = play([[["Z", "投 B"]]], others=["Z"])
    assert [x.key for x in replies_to(r, "Z")] == ["common/not_a_player"]


def test_transcript_phase_ending_while_paused_is_an_error_and_deadline_held():
    with pytest.raises(TranscriptError, match="paused when this phase ends"):
        play([{"organiser": [["Org", "暂停"]]}], organisers=["Org"])
    from forumbot.engine.game import Game, Setup
    from forumbot.engine.types import Deadline, Message

    g = Game(Setup("sunlight", tuple("ABCD"), roles={"C": "killer"}, organisers=("Org",)))
    g.start()
    g.apply(Deadline(0))
    g.apply(Message("Org", "暂停"))
    assert g.apply(Deadline(1)).events == [] and g.phase.id == 1


def test_transcript_bad_line_names_the_line():
    with pytest.raises(TranscriptError, match=r"phase 1: messages line 2 \['B'\]: each line is \[sender, text\]"):
        parse_transcript({"ruleset": "sunlight", "players": list("ABCD"), "phases": [{"messages": [["A", "投 B"], ["B"]]}]})
