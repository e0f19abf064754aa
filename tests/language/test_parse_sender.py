"""A text with no self reference reads the same whoever sends it (:func:`forumbot.language.parse.names_sender`): the
engine's memo of readings (:meth:`forumbot.engine.game.Game.parse`) shares one reading between senders then."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from forumbot.engine.game import Game, Setup
from forumbot.language.parse import names_sender, parse
from forumbot.language.types import Roster

ROSTER = Roster.of(["张三", "李四", "王五", "Moonlight", "alice"])
PIECES = ["投", "杀", "救", "查", " ", "，", "张三", "李四", "王五", "Moon", "alice", "vote ", "kill ", "save ", "3号",
          "自己", "我", "me", "myself", "自救", "(", "##", "\n", "不", "吗", "说"]


@given(st.lists(st.sampled_from(PIECES), max_size=12).map("".join), st.sampled_from(["pm", "thread"]))
@settings(max_examples=400, deadline=None)
def test_a_text_that_names_no_sender_reads_the_same_for_every_sender(text: str, channel: str) -> None:
    if names_sender(text):
        return
    readings = {parse(text, ROSTER, sender_seat=seat, channel=channel) for seat in (None, 1, 2, 5)}
    assert len(readings) == 1, (text, readings)


def test_a_self_reference_is_read_per_sender_through_the_memo() -> None:
    assert names_sender("救自己") and names_sender("vote me") and names_sender("自救") and not names_sender("投 张三")
    g = Game(Setup("sunlight", ("张三", "李四", "王五", "赵六"), roles={"张三": "killer"}, seed=1))
    g.start()
    assert g.parse("投 自己", 2) != g.parse("投 自己", 3)  # each sender's own seat
    assert g.parse("投 王五", 2) is g.parse("投 王五", 4)  # one reading for every sender


def test_a_full_memo_never_gives_one_game_the_reading_of_another_roster(monkeypatch) -> None:
    import forumbot.engine.game as game

    monkeypatch.setattr(game, "PARSE_MEMO", 1)  # every new reading empties the memo
    a = Game(Setup("sunlight", ("甲", "乙", "丙", "丁"), roles={"甲": "killer"}, seed=1))
    b = Game(Setup("sunlight", ("戊", "己", "庚", "辛"), roles={"戊": "killer"}, seed=1))
    a.parse("投 乙", 1)
    b.parse("投 己", 1)  # read after the memo was emptied: b's roster must not take a's place in it
    assert a.parse("投 己", 1) == a._read("投 己", 1, "pm", None)  # 己 is nobody in a
