"""A short message that is a misspelled question (``stauts``, ``状 态``) is read as "did you mean …?"
(findings of a newcomer's trial, item 9); prose stays no command."""

from __future__ import annotations

import pytest

from forumbot.language.parse import parse
from forumbot.language.types import Command, ParseError, Roster

ROSTER = Roster.of(["张三", "李四", "alice"])


@pytest.mark.parametrize("text, verb", [
    ("stauts", "status"), ("statsu", "status"), ("Stats?", "status"), ("状 态", "status"), ("狀態查詢", "status"),
    ("状况", "status"), ("hlep", "help"), ("求助", "help"), ("帮 助！", "help"),
])
def test_misspelled_questions(text: str, verb: str) -> None:
    assert parse(text, ROSTER) == ParseError("did_you_mean", verb, meant=Command(verb))


@pytest.mark.parametrize("text", ["hello", "state", "状态不好", "今天天气不错", "我觉得李四的状态有点怪怪的", "救命", "好的"])
def test_prose_is_still_no_command(text: str) -> None:
    assert parse(text, ROSTER) == ParseError("no_command")


def test_the_thread_is_chat() -> None:
    assert parse("stauts", ROSTER, channel="thread") == ParseError("no_command")
