"""killer_club: the police's, the helper's and the nurse's ``status`` shows the answer each was told
(findings of a newcomer's trial, item 22), never before he was told it: the helper's waits for the kill."""

from __future__ import annotations

from typing import Any

from forumbot.render import Renderer
from tests.engine.killer_club_helpers import play, replies_to


def _statuses(name: str, result: Any) -> list[Any]:
    return [r for r in replies_to(result, name) if r.key == "killer_club/status"]


def _line(reply: Any, action: str) -> dict[str, Any]:
    return next(a for a in reply.data["actions"] if a["action"] == action)


def test_check_and_ask_answers_in_status() -> None:
    night = [["D", "验 A"], ["D", "状态"], ["G", "验 E"], ["G", "状态"], ["A", "杀 I"], ["G", "状态"],
             ["H", "问 E"], ["H", "状态"]]
    result = play([{"phase": "night", "messages": night}])
    police, = _statuses("D", result)
    helper_before, helper_after = _statuses("G", result)
    nurse, = _statuses("H", result)
    assert _line(police, "check")["note"] == "killer"
    assert _line(helper_before, "check")["note"] == "waiting"  # not told yet: the kill comes first
    assert _line(helper_after, "check")["note"] == "not_killer"
    assert _line(nurse, "ask")["note"] == "police"
    texts = {loc: Renderer(loc, "markdown").render(police.key, police.data) for loc in ("zh-Hans", "zh-Hant", "en")}
    assert "（是杀手）" in texts["zh-Hans"] and "（是殺手）" in texts["zh-Hant"] and "(a killer)" in texts["en"]
    waiting = Renderer("en", "markdown").render(helper_before.key, helper_before.data)
    assert "Checked tonight: E (you get the answer once the killers have given their order)." in waiting


def test_the_nurses_help_says_the_question_comes_before_the_save() -> None:
    """The nurse's help (findings of a newcomer's trial, item 11): 「save me」 then 「ask erin」 is refused, so the
    help says the order."""
    result = play([{"phase": "night", "messages": [["H", "帮助"]]}])
    [reply] = [r for r in replies_to(result, "H") if r.key == "killer_club/help"]
    texts = {loc: Renderer(loc, "markdown").render(reply.key, reply.data) for loc in ("zh-Hans", "zh-Hant", "en")}
    assert "救人之前问" in texts["zh-Hans"] and "救人之前問" in texts["zh-Hant"] and "ask before you save" in texts["en"]


def test_replies_name_nights_and_days_as_the_thread_does() -> None:
    """killer_club's replies say 「第 1 夜」「第 1 天投票」 as its thread posts do, not 「第 1 輪夜晚」 (findings of a
    newcomer's trial, item 12); sunlight keeps its rounds."""
    result = play([{"phase": "night", "messages": [["I", "投 A"]]}, {"phase": "vote", "messages": [["D", "验 A"]]}])
    [night] = [r for r in replies_to(result, "I") if r.key == "killer_club/rejected"]
    [day] = [r for r in replies_to(result, "D") if r.key == "killer_club/rejected"]
    hant = Renderer("zh-Hant", "markdown")
    assert "現在是第 1 夜，" in hant.render(night.key, night.data)
    assert "現在是第 1 天投票，" in hant.render(day.key, day.data)
    assert "this is night 1" in Renderer("en", "markdown").render(night.key, night.data)
    for key, data in (("common/late", {"closed_phase": "night", "closed_round": 1, "closed_at": "20:00", "straddled": False}),
                      ("common/reminder", {"phase": "vote", "round": 2})):
        text = Renderer("zh-Hans", "markdown").render(key, {**data, "day_rounds": True})
        assert "轮夜晚" not in text and "轮投票" not in text and ("第 1 夜" in text or "第 2 天投票" in text), text
        assert "第 2 轮投票" in Renderer("zh-Hans", "markdown").render("common/reminder", {"phase": "vote", "round": 2,
                                                                                     "day_rounds": False})
