"""Every command a template shows a player as an example ("kill NAME", 「投 某人」) reads as that command: the
words the bot teaches are words the parser reads (one vocabulary; issue #11, templates)."""

from __future__ import annotations

import re

import pytest

import forumbot.rulesets  # noqa: F401  (registers them)
from forumbot.engine.ruleset import get_ruleset, ruleset_ids
from forumbot.language.parse import parse
from forumbot.language.types import Command, Roster
from forumbot.language.vocabulary import VERB_WORDS
from forumbot.render import LOCALES, TEMPLATES

NAMES = ["Alice", "Bob", "Carol"]
ROSTER = Roster.of([*NAMES, "Dave"])
# an example: a quoted command with one or more placeholders for a player's name
EXAMPLE = {"en": re.compile(r'"([^"\n]*\bNAME\b[^"\n]*)"'), "zh-Hans": re.compile(r"「([^」\n]*某人[^」\n]*)」"),
           "zh-Hant": re.compile(r"「([^」\n]*某人[^」\n]*)」")}
PLACEHOLDER = {"en": "NAME", "zh-Hans": "某人", "zh-Hant": "某人"}
VERB = re.compile(r"""\{\{\s*m\.verb\(["'](\w+)["']\)\s*\}\}""")
TAG = re.compile(r"\{%.*?%\}", re.S)
EXPRESSION = re.compile(r"\{\{.*?\}\}", re.S)
COMMENT = re.compile(r"\{#.*?#\}", re.S)


def _examples(locale: str) -> list[tuple[str, str]]:
    found = []
    for path in sorted((TEMPLATES / locale).rglob("*.j2")):
        source = VERB.sub(lambda m: VERB_WORDS[locale][m.group(1)], path.read_text(encoding="utf-8"))
        source = TAG.sub("", EXPRESSION.sub("\0", COMMENT.sub("", source)))
        for text in EXAMPLE[locale].findall(source):
            if "\0" not in text:  # an example made of data (a name the bot fills in) is not a placeholder's
                found.append((f"{path.relative_to(TEMPLATES)}: {text}", text))
    return found


def _fill(text: str, placeholder: str) -> str:
    """``text`` with each placeholder replaced by the next roster name."""
    parts = text.split(placeholder)
    return "".join(part + (NAMES[k % len(NAMES)] if k < len(parts) - 1 else "") for k, part in enumerate(parts))


def _verbs(ruleset: str) -> set[str]:
    """The verbs a ruleset takes: its declared actions' and the day vote's."""
    declared = {verb for action in get_ruleset(ruleset).actions for verb in action.verbs}
    return declared | {"vote", "unvote", "nolynch", "status", "help"}


@pytest.mark.parametrize("locale", LOCALES)
def test_every_example_command_in_a_template_reads_as_a_command(locale: str) -> None:
    examples = _examples(locale)
    assert len(examples) > 20
    unread = []
    for where, text in examples:
        filled = _fill(text, PLACEHOLDER[locale])
        parsed = parse(filled, ROSTER, sender_seat=3)
        if not isinstance(parsed, Command):
            unread.append(f"{where} -> {filled!r}: {parsed.code}")
            continue
        ruleset = where.split("/")[1]
        if ruleset in ruleset_ids() and parsed.verb not in _verbs(ruleset):
            unread.append(f"{where} -> {filled!r}: {parsed.verb}, not a verb of {ruleset}")
    assert not unread, "\n".join(unread)
