"""docs/config.md agrees with the code (issue 27): every key of the season file and every forum engine the code
takes is documented, and every key, engine and `forumbot` command the docs name exists."""

from __future__ import annotations

import re
import typing
from pathlib import Path

import pytest
import typer.main

from forumbot.cli import app, load_all
from forumbot.config import Schedule, SeasonConfig
from forumbot.config_warnings import MIN_POST_LENGTH
from forumbot.forums.settings import ForumSettings

ROOT = Path(__file__).resolve().parents[2]
CONFIG_MD = ROOT / "docs" / "config.md"
TABLES = {"Top level": SeasonConfig, "`[forum]`": ForumSettings, "`[schedule]`": Schedule}


def documented_keys(text: str) -> dict[str, dict[str, str]]:
    """Section title -> {key: its table row}, from the first column of each section's key table (a cell may
    name several keys: `` `a` / `b` `` or `` `a`, `b` ``)."""
    sections: dict[str, dict[str, str]] = {}
    current = None
    for line in text.splitlines():
        if line.startswith("## "):
            current = line[3:].strip()
            sections.setdefault(current, {})
        elif current is not None and line.startswith("| `"):
            first = line.split("|")[1]
            for key in re.findall(r"`([a-z_]+)`", first):
                sections[current][key] = line
    return sections


def code_keys(model: type) -> set[str]:
    return {name for name, field in model.model_fields.items() if not field.exclude}


def engines() -> set[str]:
    return set(typing.get_args(ForumSettings.model_fields["engine"].annotation))


@pytest.mark.parametrize("section", list(TABLES))
def test_every_key_in_the_code_is_documented_and_every_documented_key_exists(section):
    sections = documented_keys(CONFIG_MD.read_text(encoding="utf-8"))
    keys = set(sections[section]) | {name for name in code_keys(TABLES[section]) if f"`[{name}]`" in sections}
    model = TABLES[section]
    assert sorted(code_keys(model) - set(keys)) == [], f"keys of {model.__name__} missing from docs/config.md"
    assert sorted(set(keys) - code_keys(model)) == [], f"docs/config.md documents keys {model.__name__} lacks"


def test_every_engine_is_documented_and_every_documented_engine_exists():
    row = documented_keys(CONFIG_MD.read_text(encoding="utf-8"))["`[forum]`"]["engine"]
    meaning = row.split("|")[3]
    named = {word for word in re.findall(r"`([a-z]+)`", meaning)}
    assert named == engines(), row
    assert set(MIN_POST_LENGTH) == engines()  # each engine has a default minimum post length


def commands_named(text: str) -> set[str]:
    """The `forumbot X` commands named in inline code and in fenced blocks of a markdown ``text``."""
    named = set(re.findall(r"`(?:python -m )?forumbot ([a-z][a-z-]*)", text))
    for block in re.findall(r"```.*?\n(.*?)```", text, flags=re.DOTALL):
        named.update(re.findall(r"^\s*(?:\$ )?(?:\S+=\S+ )*(?:python -m )?forumbot ([a-z][a-z-]*)", block,
                                flags=re.MULTILINE))
    return named


def test_every_command_the_docs_name_exists():
    load_all()  # the command line imports a command's module when it runs: here every command is wanted
    commands = set(typer.main.get_command(app).commands)  # type: ignore[attr-defined]
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        unknown = commands_named(path.read_text(encoding="utf-8")) - commands
        assert not unknown, f"{path.name} names forumbot {', '.join(sorted(unknown))}, not a command"


def test_the_parsers_of_this_test_see_what_they_look_for():
    text = "## Top level\n| `a` / `b` | x | y |\n| `c`, `d` | 1 | 2 |\nsee `forumbot nope --x`\n```\n$ forumbot also\n```\n"
    assert documented_keys(text) == {"Top level": {k: text.splitlines()[1 if k in "ab" else 2] for k in "abcd"}}
    assert commands_named(text) == {"nope", "also"}
