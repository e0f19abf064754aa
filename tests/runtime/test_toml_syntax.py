"""TOML syntax mistakes are told where they are (issue 27), whatever the file around them: the line of the `[` of
a list never closed, both lines of a key written twice."""

from __future__ import annotations

import tomllib

from hypothesis import given
from hypothesis import strategies as st

from forumbot.toml_syntax import syntax_message

KEYS = st.lists(st.from_regex(r"[a-z][a-z_]{0,8}", fullmatch=True), min_size=2, max_size=8, unique=True)
NAMES = st.lists(st.text(alphabet="张三李四王五abc,[]#=", min_size=1, max_size=6), min_size=1, max_size=5)


def _value(names: list[str]) -> str:
    return "[" + ", ".join('"' + n + '"' for n in names) + "]"


@given(KEYS, NAMES, st.data())
def test_a_list_never_closed_is_told_at_its_opening_line(keys, names, data):
    broken = data.draw(st.sampled_from(keys))
    split = data.draw(st.integers(min_value=1, max_value=len(names)))
    lines = []
    for key in keys:
        if key == broken:
            opening = len(lines) + 1
            lines.append(f"{key} = [" + ", ".join(f'"{n}"' for n in names[:split]) + ",")
            lines.extend(f'  "{n}",' for n in names[split:])  # the "]" is missing
        else:
            lines.append(f"{key} = {_value(names)}  # a comment with [ and \"")
    lines.append("[forum]")
    lines.append('username = "法官"')
    text = "\n".join(lines) + "\n"
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = syntax_message(text, str(exc))
    else:
        raise AssertionError("the file should not be TOML")
    assert message.startswith(f"line {opening}: {broken}: the list opened with '[' on line {opening} is never closed"), (
        text, message)


@given(KEYS, st.data())
def test_a_key_written_twice_is_told_with_both_lines(keys, data):
    twice = data.draw(st.sampled_from(keys))
    lines = [f'{key} = "{key}"' for key in keys]
    first = keys.index(twice) + 1
    at = data.draw(st.integers(min_value=first, max_value=len(lines)))
    lines.insert(at, f"{twice} = 1")
    text = "\n".join(lines) + "\n"
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = syntax_message(text, str(exc))
    else:
        raise AssertionError("the file should not be TOML")
    assert message.startswith(f"line {at + 1}: {twice}: written twice, on line {first} and on line {at + 1}"), (
        text, message)
