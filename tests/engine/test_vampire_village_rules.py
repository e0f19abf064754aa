"""Every rule of vampire_village (shared/seeds/002_d9ee23489227a64b.txt, README § vampire_village): the
transcripts in tests/transcripts/vampire_village_*.yaml, and short games for the details. The table
(vampire_village_helpers): A, B, C vampires; D seer; E cupid; F witch; G guard; H hunter; I elder; J piper;
K..N villagers."""

from __future__ import annotations

from pathlib import Path

import pytest
from vampire_village_helpers import kinds, out_names, play, posts, reasons, replies_to, votes

from forumbot.engine.game import Game, Setup, SetupError
from forumbot.engine.types import Deadline
from forumbot.render import Renderer
from forumbot.replay import load_transcript, replay
from forumbot.rulesets.vampire_village.roles import PRESETS, preset_counts

T = Path(__file__).parent.parent / "transcripts"


def transcript(name: str):
    return replay(load_transcript(T / f"vampire_village_{name}.yaml"))


def events(result, kind: str) -> list[dict]:
    return [e.data for ph in result.phases for e in ph.step.events if e.kind == kind]


# --- presets ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", range(13, 19))
def test_presets_by_player_count(n):
    c = preset_counts(n)
    assert sum(c.values()) == n
    assert (c["vampire"], c["villager"]) == {13: (3, 6), 14: (4, 5), 15: (4, 6), 16: (4, 6), 17: (5, 6), 18: (5, 6)}[n]
    assert c["seer"] == c["cupid"] == c["witch"] == c["guard"] == 1
    assert c["hunter"] == (n >= 14) and c["elder"] == (n >= 16) and c["piper"] == (n == 18)
    g = Game(Setup("vampire_village", tuple(f"p{i}" for i in range(n)), seed=n))
    dealt = {r: sum(1 for p in g.players if p.role == r) for r in c}
    assert dealt == c


def test_outside_the_presets_needs_counts():
    with pytest.raises(SetupError, match="13-18"):
        Game(Setup("vampire_village", tuple("ABCDEFGHIJ")))
    g = Game(Setup("vampire_village", tuple("ABCDEFGHIJ"), params={"counts": {"vampire": 2, "seer": 1, "witch": 1}}))
    assert sorted(p.role for p in g.players).count("villager") == 6
    assert set(PRESETS) == set(range(13, 19))


def test_vampires_see_each_other_others_only_themselves():
    r = play([])
    role = {x.to: x.data for x in r.phases[0].step.replies if x.key == "vampire_village/role"}
    assert role["A"]["teammates"] == ["B", "C"] and role["C"]["teammates"] == ["A", "B"]
    assert all(role[n]["teammates"] == [] for n in "DEFGHIJKLMN")


# --- night 1: cupid and the first night ---------------------------------------------------------------
def test_first_day_transcript():
    r = transcript("first_day")
    assert kinds(r) == ["prologue", "cupid", "night", "witch", "election", "election", "vote", "runoff", "night", "witch", "shot", "night",
                        "witch"]
    assert reasons(r, "E") == ["same_twice"]
    assert [x.to for x in r.phases[1].step.replies if x.key == "vampire_village/lovers"] == ["K", "L"]
    assert reasons(r, "D") == ["already_checked"]
    assert replies_to(r, "D", "seer_result")[0].data["role"] == "vampire"
    assert reasons(r, "A") == ["wrong_phase", "selfkill_first_night"]
    assert reasons(r, "F") == ["wrong_phase", "not_victim"]
    assert reasons(r, "K") == ["not_your_role", "lover", "not_candidate"]
    assert reasons(r, "G") == ["repeat_guard"]
    assert reasons(r, "C") == ["selfkill_taken"]
    # the guard beat the kill and the witch was told of no victim
    assert replies_to(r, "F", "prompt")[0].data["victim"] is None
    assert posts(r, "day_open")[0].data["dead"] == []
    # the charmed are told at dawn
    assert [x.to for x in replies_to(r, "N", "charmed") + replies_to(r, "I", "charmed")] == ["N", "I"]
    # election tied twice: a seeded draw
    assert events(r, "draw")[0]["among"] == [1, 4] and events(r, "title")[0]["how"] == "drawn"
    # the sheriff's vote counts double: D 3 (A×2 + B) against C 3
    first = posts(r, "vote_result")[2].data
    assert first["counts"][:2] == [{"name": "C", "votes": 3}, {"name": "D", "votes": 3}] and first["result"] == "runoff"
    assert posts(r, "vote_result")[3].data["result"] == "nobody"
    # the self-kill: B dies, the witch saved the team's victim N, and day 2 is skipped
    assert out_names(r) == ["B"]
    assert posts(r, "day_open")[1].data["skip"] is True
    assert not r.game.finished


def test_cupid_may_link_himself_or_nobody():
    r = play([[["E", "連 E K"]]])
    assert [x.to for x in r.phases[1].step.replies if x.key == "vampire_village/lovers"] == ["E", "K"]
    r = play([[], [["A", "殺 K"]], []])
    assert r.game.ruleset.links.pairs == [] and out_names(r) == ["K"]


def test_cupid_only_on_night_1():
    r = play([[], [], [], [], votes("N", "ABCDEFGHIJKLM"), [["E", "連 K L"]]])
    assert reasons(r, "E") == ["wrong_phase"]


# --- the witch --------------------------------------------------------------------------------------
def test_witch_told_the_victim_and_saves():
    r = play([[], [["A", "殺 K"]], [["F", "救 K"]]])
    assert replies_to(r, "F", "prompt")[0].data["victim"] == "K" and out_names(r) == []


def test_witch_one_potion_a_night_each_once_a_game():
    # night 1: save K then poison L: the last stands (poison); night 2: the poison is gone, the antidote still there
    r = play([[], [["A", "殺 K"]], [["F", "救 K"], ["F", "毒 L"]], [], [], [], [["A", "殺 M"]], [["F", "毒 N"], ["F", "救 M"]]])
    assert out_names(r) == ["K", "L"]
    assert reasons(r, "F") == ["no_potion"]
    assert replies_to(r, "F", "prompt")[1].data == {"kind": "witch", "round": 2, "victim": "M", "save": True, "poison": False}


def test_witch_not_told_without_the_antidote():
    r = play([[], [["A", "殺 K"]], [["F", "救 K"]], [], [], [["A", "殺 M"]], []])
    assert replies_to(r, "F", "prompt")[1].data["victim"] is None and out_names(r) == ["M"]


def test_guarded_player_can_still_be_poisoned():
    r = play([[], [["G", "守 K"]], [["F", "毒 K"]]])
    assert out_names(r) == ["K"]


def test_guard_and_save_same_target_lives_by_default_dies_by_param():
    r = play([[], [["A", "殺 K"], ["G", "守 K"]], [["F", "救 K"]]])
    assert reasons(r, "F") == ["not_victim"] and out_names(r) == []
    r = transcript("params")
    assert out_names(r)[0] == "M" and events(r, "potion")[0]["kind"] == "save"


def _statuses(r, name: str) -> list[dict]:
    return [x.data for x in replies_to(r, name, "status")]


def test_status_shows_each_open_action_and_what_he_recorded():
    """The status reply (issue 11): each action open to him with his (his team's) standing order; the seer's
    answer; the witch's victim as her prompt told her; nothing of anybody else's orders."""
    r = play([[], [["A", "殺 K"], ["B", "狀態"], ["D", "驗 A"], ["D", "狀態"], ["G", "守 L"], ["G", "狀態"], ["K", "狀態"]],
              [["F", "狀態"], ["F", "毒 N"], ["F", "狀態"]]])
    entry = {"recorded": True, "number": None, "note": None, "owed": False}
    assert _statuses(r, "B")[0]["actions"] == [{"action": "kill", "targets": ["K"], **entry}]  # the team's order
    assert _statuses(r, "D")[0]["actions"] == [{"action": "check", "targets": ["A"], **entry, "note": "vampire"}]
    assert _statuses(r, "G")[0]["actions"] == [{"action": "guard", "targets": ["L"], **entry}]
    villager = _statuses(r, "K")[0]
    assert villager["actions"] == [] and not villager["told"] and villager["victim"] is None
    before, after = _statuses(r, "F")
    assert before["told"] and before["victim"] == "K"
    assert [(a["action"], a["recorded"], a["owed"]) for a in before["actions"]] == [("save", False, True), ("poison", False, True)]
    assert [(a["action"], a["targets"], a["owed"]) for a in after["actions"]] == [("save", [], False), ("poison", ["N"], False)]
    text = Renderer("en", "markdown").render("vampire_village/status", after)
    assert "The vampires' victim tonight: K." in text and "Antidote tonight: none yet." in text and "Poison tonight: N." in text


def test_status_shows_the_sheriffs_double_ballot_and_a_self_kill():
    r = play([[], [], [], [["D", "投 A"], *votes("D", "ABCEFGHIJKLMN")], [["D", "投 K"], ["D", "狀態"]], [],  # K out: shot window
              [["A", "自殺"], ["B", "狀態"]]])
    assert kinds(r)[6:8] == ["shot", "night"]
    assert _statuses(r, "D")[0]["actions"] == [{"action": "vote", "recorded": True, "targets": ["K"], "number": None,
                                                "note": "double", "owed": False}]
    assert "你的投票：K（警长一票算两票）。" in Renderer("zh-Hans", "markdown").render("vampire_village/status", _statuses(r, "D")[0])
    mate = _statuses(r, "B")[0]["actions"]
    assert [(a["action"], a["targets"], a["owed"]) for a in mate] == [("kill", [], True), ("selfkill", ["A"], False)]


# --- vampires ---------------------------------------------------------------------------------------
def test_vampires_may_kill_nobody():
    r = play([[], [], []])
    assert out_names(r) == [] and posts(r, "day_open")[0].data["dead"] == []


def test_first_order_stands_by_param():
    r = transcript("params")
    assert reasons(r, "B") == ["order_taken"]


def test_last_vampire_may_not_kill_himself():
    roles = {"A": "vampire", "B": "vampire", "E": "cupid"}
    r = play([[], [["A", "殺 K"]], [], votes("B", "AEKLMN"), [["A", "自殺"]]], players=list("ABEKLMN"), roles=roles)
    assert out_names(r)[:2] == ["K", "B"] and reasons(r, "A") == ["selfkill_last"]


def test_selfkill_cannot_be_saved_and_the_team_kill_still_happens():
    r = play([[], [], [], [], [], [["A", "自殺"], ["B", "殺 K"]], [["F", "救 A"]], []])
    assert reasons(r, "F") == ["not_victim"]
    assert sorted(out_names(r)) == ["A", "K"]
    assert kinds(r)[-1] == "night"  # the day was skipped


# --- the elder ----------------------------------------------------------------------------------------
def test_elder_two_lives_and_the_witch_saves_at_zero():
    r = play([[], [["A", "殺 I"]], [], [], [], [["A", "殺 I"]], [["F", "救 I"]], [], [["A", "殺 I"]], []])
    vv = r.game.ruleset
    assert replies_to(r, "F", "prompt")[0].data["victim"] is None   # first hit: a life lost, no victim
    assert replies_to(r, "F", "prompt")[1].data["victim"] == "I"    # second: he would die
    assert out_names(r) == ["I"]  # saved with one life on night 2, killed on night 3
    assert not vv.powers_lost     # killed by the vampires: the powers stay


def test_elder_poisoned_or_executed_takes_the_powers():
    r = play([[], [], [["F", "毒 I"]], [], [], [], [["G", "守 K"], ["D", "驗 A"]]])
    assert r.game.ruleset.powers_lost and reasons(r, "G") == ["powers_lost"] and reasons(r, "D") == ["powers_lost"]
    assert {x.to for x in r.phases[3].step.replies if x.key == "vampire_village/powers_lost"} == set("DFGHJ")
    r = play([[], [], [], [], votes("I", "ABCDEFGHIJKLMN")])
    assert r.game.ruleset.powers_lost


def test_elder_dying_as_a_lover_keeps_the_powers():
    r = play([[["E", "連 I K"]], [["A", "殺 K"]], []])
    assert out_names(r) == ["K", "I"] and not r.game.ruleset.powers_lost


def test_hunter_without_power_does_not_shoot():
    # the elder poisoned: powers lost; H killed on night 2. The time to shoot still opens (it follows every
    # death), but H is not asked and his shot is refused
    r = play([[], [], [["F", "毒 I"]], [], [], [], [["A", "殺 H"]], [], [["H", "開槍 A"]]])
    assert kinds(r) == ["prologue", "cupid", "night", "witch", "shot", "election", "vote", "night", "witch", "shot", "vote"]
    assert replies_to(r, "H", "prompt") == [] and reasons(r, "H") == ["powers_lost"] and out_names(r) == ["I", "H"]


# --- hunter, lovers, sheriff --------------------------------------------------------------------------
def test_deaths_transcript():
    r = transcript("deaths")
    assert out_names(r) == ["H", "K", "I", "C", "L", "M", "N"]
    assert r.game.winner == "vampires"
    assert reasons(r, "H") == ["dead_target"] and reasons(r, "B") == ["not_your_window"]
    assert reasons(r, "G") == reasons(r, "D") == reasons(r, "J") == ["powers_lost"]
    assert events(r, "title") == [{"title": "sheriff", "seat": 3, "how": "elected"}, {"title": "sheriff", "seat": 1, "how": "named"}]
    assert events(r, "last_words") == [{"seat": 8, "name": "H"}] and len(events(r, "dead_player_post")) == 1
    assert r.game.ruleset.summary()["scores"][1] == 3 and r.game.ruleset.summary()["scores"][4] == -3


def test_hunter_shoots_unless_the_game_is_over():
    roles = {"A": "vampire", "H": "hunter"}
    r = play([[["A", "殺 H"]]], players=list("AHKL"), roles=roles)
    assert kinds(r)[-1] == "shot"
    r = play([[["A", "殺 H"]], [["H", "開槍 A"]]], players=list("AHKL"), roles=roles)
    assert r.game.winner == "villagers" and out_names(r) == ["H", "A"]
    roles = {"A": "vampire", "H": "hunter", "L": "cupid"}
    r = play([[["L", "連 H K"]], [["A", "殺 H"]]], players=list("AHKL"), roles=roles)  # K dies with him: over
    assert r.game.winner == "vampires" and "shot" not in kinds(r)


def test_sheriff_successor_drawn_when_not_named():
    r = play([[], [], [], votes("K", "ABCDEFGHIJKLMN"), votes("K", "ABCDEFGHIJLMN"), [], []])
    assert events(r, "title")[1]["how"] == "drawn" and r.game.player(events(r, "title")[1]["seat"]).alive


def test_lovers_die_together_and_win_alone():
    r = transcript("lovers")
    assert r.game.winner == "lovers" and reasons(r, "阿明") == ["lover", "kill_self"] and reasons(r, "小強") == ["lover"]
    assert r.game.ruleset.summary()["scores"] == {1: 4, 2: -4, 3: -4, 4: 4, 5: -4}


def test_same_side_lovers_win_with_their_side():
    roles = {"A": "vampire", "E": "cupid"}
    r = play([[["E", "連 K L"]], [["A", "殺 M"]], [], votes("A", "EKL")], players=list("AEKLM"), roles=roles)
    assert r.game.winner == "villagers" and r.game.ruleset.winners() == {2, 3, 4, 5}


def test_piper_wins_alone():
    r = transcript("piper")
    assert r.game.winner == "piper" and reasons(r, "Jay") == ["charm_self", "charm_count"]
    assert r.game.ruleset.summary()["scores"] == {1: -2, 2: 2, 3: -2, 4: -2, 5: -2}
    assert posts(r, "vote_result")[-1].data["result"] == "none" and kinds(r)[-1] == "night"


# --- days ---------------------------------------------------------------------------------------------
def test_nobody_votes_straight_to_night():
    r = play([[], [], [], [], []])
    assert kinds(r) == ["prologue", "cupid", "night", "witch", "election", "vote", "night"]


def test_tie_twice_draw_by_param():
    r = transcript("params")
    assert events(r, "draw")[0]["purpose"] == "tie:1" and posts(r, "vote_result")[-1].data["dead"][0]["role"] == "vampire"


def test_roles_never_announced_by_default():
    r = transcript("deaths")
    for p in posts(r):
        if p.key != "vampire_village/final":
            for d in p.data.get("dead", []):
                assert d["role"] is None


def test_organiser_penalty_takes_the_lover_and_end():
    r = transcript("params")
    assert out_names(r)[-2:] == ["K", "L"] and r.game.finished and r.game.winner is None
    assert events(r, "title")[-1]["how"] == "drawn"


def test_transcripts_are_deterministic_and_render():
    for path in sorted(T.glob("vampire_village_*.yaml")):
        a = replay(load_transcript(path)).to_json(Renderer("en"))
        assert a == replay(load_transcript(path)).to_json(Renderer("en"))


def test_deadline_of_another_phase_changes_nothing():
    g = Game(Setup("vampire_village", tuple("ABCDEFGHIJKLMN"), seed=1))
    g.start()
    assert not g.apply(Deadline(5)).events


# --- what the thread reveals (issue 10) -----------------------------------------------------------------
def _public(result, locale: str = "zh-Hant") -> list[str]:
    """Every post before the final post, rendered."""
    renderer = Renderer(locale)
    return [renderer.render(p.key, p.data) for ph in result.phases for p in ph.step.posts if p.key != "vampire_village/final"]


def test_hunter_window_names_nobody():
    """A hunter who does not shoot is never revealed: the same game with the hunter's card on another
    player gives the same thread, and every death gets a time to shoot."""
    t = load_transcript(T / "vampire_village_hunter_hidden.yaml")
    r = replay(t)
    assert kinds(r).count("shot") == 3  # after night 1, the execution and night 2
    assert [x.data["kind"] for x in replies_to(r, "H", "prompt")] == ["shot"] and replies_to(r, "K", "prompt") == []
    assert reasons(r, "K") == ["not_your_window"]
    swapped = replay(t.model_copy(update={"roles": {**t.roles, "H": "villager", "K": "hunter"}}))
    assert _public(r) == _public(swapped)
    assert not any("有獵人死亡" in text or "獵人沒有開槍" in text for text in _public(r))
    assert [e["target"] for e in events(r, "shot")] == [None, None]
    assert events(r, "last_words") == [{"seat": 11, "name": "K"}] and events(r, "dead_player_post") == []


def test_hunter_shot_is_announced_and_ends_the_windows():
    r = play([[], [["A", "殺 H"]], [], [["H", "開槍 B"]], [], votes("K", "ACDEFGIJKLMN"), []])
    assert out_names(r) == ["H", "B", "K"]
    assert [p.data["chosen"] for p in posts(r, "window_result") if p.data["kind"] == "shot"] == ["B"]
    assert kinds(r).count("shot") == 1 and kinds(r)[-1] == "night"  # the shot revealed him: no more windows


def test_hunter_window_only_at_his_death_when_roles_are_announced():
    r = play([[], [["A", "殺 K"]], [], [], votes("L", "ABCDEFGHIJKLMN")], params={"reveal_roles_at_death": True})
    assert "shot" not in kinds(r)
    r = play([[], [["A", "殺 H"]], []], params={"reveal_roles_at_death": True})
    assert kinds(r)[-1] == "shot"


def test_day_post_speaking_order():
    r = transcript("hunter_hidden")
    first, second = posts(r, "day_open")[:2]
    assert first.data["order"] == list("IJKLMNABCDEFG")        # from the seat after H, clockwise
    assert second.data["order"][:3] == ["M", "N", "A"]        # after L (night 2); K is out
    r = play([[], [], []])
    assert posts(r, "day_open")[0].data["order"] == list("ABCDEFGHIJKLMN")  # nobody died: from seat 1


def test_dawn_that_ends_the_game_says_no_more_than_the_dead():
    roles = {"A": "vampire", "E": "cupid", "F": "seer"}
    r = play([[], [["A", "殺 K"]]], players=list("AEFK"), roles=roles)
    day = posts(r, "day_open")[0]
    assert r.game.finished and day.data["over"] and day.data["order"] == []
    text = Renderer("zh-Hans").render(day.key, day.data)
    assert "发言" not in text and "投票" not in text


@pytest.mark.parametrize("n", [13, 14, 15, 16, 17])
def test_opening_mentions_only_the_roles_dealt(n):
    for locale, piper in (("zh-Hans", "吹笛者"), ("zh-Hant", "吹笛者"), ("en", "piper")):
        g = Game(Setup("vampire_village", tuple(f"p{i}" for i in range(n)), seed=1))
        opening = next(p for p in g.start().posts if p.key == "vampire_village/opening")
        assert piper not in Renderer(locale).render(opening.key, opening.data)


@pytest.mark.parametrize("reveal", [False, True])
def test_hunter_role_pm_renders_in_every_locale(reveal):
    r = play([], params={"reveal_roles_at_death": reveal})
    pm = replies_to(r, "H", "role")[0]
    for locale, goal in (("zh-Hans", "目标："), ("zh-Hant", "目標："), ("en", "Goal:")):
        lines = Renderer(locale).render(pm.key, pm.data).splitlines()
        assert sum(line.startswith(goal) for line in lines) == 1  # the hunter's line ends with its own break


def test_status_tells_a_dead_player_only_what_he_was_told():
    """The charmed and the power holders are told at dawn only while alive (docs/vampire_village.md, "What each
    player learns": the charmed, living seer, witch, guard, hunter, piper): the seer, killed in the batch that
    also takes the poisoned elder, and charmed that night, must not learn from his status that the piper chose
    him nor that the elder died by the village's hand (he may still post last words)."""
    r = play([[], [["A", "kill D"], ["J", "charm D K"]], [["F", "poison I"]],
              [["D", "status"], ["K", "status"], ["G", "status"]]])
    assert out_names(r) == ["D", "I"]
    told = {x.to for ph in r.phases for x in ph.step.replies if x.key in ("vampire_village/charmed", "vampire_village/powers_lost")}
    assert "D" not in told and {"K", "G"} <= told
    seer, charmed, guard = _statuses(r, "D")[0], _statuses(r, "K")[0], _statuses(r, "G")[0]
    assert not seer["charmed"] and not seer["powers_lost"]
    assert charmed["charmed"] and guard["powers_lost"]
    text = Renderer("en", "markdown").render("vampire_village/status", seer)
    assert "charmed" not in text and "power" not in text


@pytest.mark.parametrize("guarded", [True, False])
def test_witch_told_nobody_is_not_offered_the_antidote(guarded):
    """「如果當晚有被吸血鬼殺死的玩家，女巫可以選擇用解藥救他」: the antidote saves only the victim she was told; told that
    nobody will die by the vampires (the victim is guarded), her help and status do not offer it as still to
    do; the poison stays."""
    r = play([[], [["A", "kill K"], ["G", "guard K" if guarded else "guard L"]], [["F", "status"], ["F", "help"]]])
    assert (replies_to(r, "F", "prompt")[0].data["victim"] is None) == guarded
    status = [(a["action"], a["owed"]) for a in _statuses(r, "F")[0]["actions"]]
    assert status == ([("poison", True)] if guarded else [("save", True), ("poison", True)])
    assert ("save" in replies_to(r, "F", "help")[0].data["verbs"]) != guarded
