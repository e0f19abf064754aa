"""Brackets around a name are no part of it (findings of a newcomer's trial, item 10: 投【李四】 was
"找不到玩家「【李四】」")."""

from __future__ import annotations

import pytest

from forumbot.language.parse import parse
from forumbot.language.types import Command, ParseError, Roster

ROSTER = Roster.of(["张三", "李四", "王五", "alice", "Bob Lee", "[AFK]Ann"])


@pytest.mark.parametrize("text, targets", [
    ("投【李四】", (2,)), ("投「李四」", (2,)), ("投『李四』", (2,)), ("投[李四]", (2,)), ("投(李四)", (2,)),
    ("投（李四）", (2,)), ("投《李四》吧", (2,)), ("投 【李四】【王五】", (2, 3)), ("投「李四」、「王五」", (2, 3)),
    ("vote [alice], [Bob Lee]", (4, 5)), ("vote (alice)", (4,)), ("投 李四 （理由：他昨天没发言）", (2,)),
    ("vote [AFK]Ann", (6,)), ("vote [[AFK]Ann]", (6,)),
])
def test_brackets_around_names(text: str, targets: tuple[int, ...]) -> None:
    result = parse(text, ROSTER, sender_seat=1)
    assert isinstance(result, Command) and result.verb == "vote" and result.targets == targets, result


def test_an_unknown_name_is_reported_without_its_brackets() -> None:
    assert parse("投【赵六】", ROSTER) == ParseError("unknown_name", "vote", "赵六")


def test_brackets_in_the_thread() -> None:
    result = parse("##投【李四】", ROSTER, sender_seat=1, channel="thread")
    assert isinstance(result, Command) and result.targets == (2,)
