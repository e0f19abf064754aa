"""The report's timeline words every event in every locale: each ruleset's transcripts and simulated games give
no line that is a raw ``kind key: value`` dump, and every event kind a ruleset emits has its own line; the
report's words are the thread's (one concept, one name)."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from forumbot.engine.types import Event
from forumbot.render import LOCALES, TEMPLATES
from forumbot.replay import load_transcript, parse_transcript
from forumbot.report.data import _PLAIN, extract
from forumbot.report.html import environment, fact_line
from forumbot.report.log import GameLog, from_transcript
from forumbot.simulate.play import play_game
from forumbot.simulate.policies import make_policy

ROOT = Path(__file__).parents[2]
SIZES = {"interview_vampire": 12, "sunlight": 19, "killer_club": 10, "vampire_village": 13, "human_kill": 9}
# a raw dump ("night_closed round: 1; target: -"), Python values, or an internal id (snake_case) in the line
RAW = re.compile(r"(^|; )[a-z_]+( [a-z_]+)?: |\bNone\b|\bTrue\b|\bFalse\b|[{}\[\]]|\b[a-z]+_[a-z_]+\b")


@cache
def _logs() -> list[GameLog]:
    logs = [from_transcript(load_transcript(p), p.name) for p in sorted((ROOT / "tests" / "transcripts").glob("*.yaml"))]
    for ruleset, n in SIZES.items():
        for policy in ("random", "heuristic"):
            for seed in range(2):
                played = play_game(ruleset, n, {}, seed, make_policy(policy, ruleset, 0.5), record=True)
                logs.append(from_transcript(parse_transcript(played.transcript), f"{ruleset}-{policy}-{seed}"))
    return logs


def _emitted_kinds() -> set[str]:
    """Every event kind declared (engine and rulesets): each is an Event subclass."""
    import forumbot.engine.events
    import forumbot.rulesets  # noqa: F401

    kinds: set[str] = set()
    todo = list(Event.__subclasses__())
    while todo:
        cls = todo.pop()
        kinds.add(cls.kind)
        todo += cls.__subclasses__()
    return kinds - _PLAIN


@pytest.mark.parametrize("locale", LOCALES)
def test_every_emitted_event_kind_has_a_line(locale: str) -> None:
    source = (TEMPLATES / locale / "report" / "facts.html").read_text(encoding="utf-8")
    kinds = _emitted_kinds()
    assert {"night_closed", "kill_closed", "deadline_extended", "organiser_end", "game_paused"} <= kinds
    missing = sorted(k for k in kinds if f'k == "{k}"' not in source)
    assert not missing, missing


@pytest.mark.parametrize("locale", LOCALES)
def test_timeline_lines_are_human_words(locale: str) -> None:
    fallback = str(environment(locale).get_template("report/facts.html").module.fallback)  # type: ignore[attr-defined]
    seen: set[str] = set()
    for log in _logs():
        for phase in extract(log)["phases"]:
            for fact in phase["facts"]:
                line = fact_line(fact["kind"], fact["data"], locale)
                seen.add(fact["kind"])
                assert line.strip() and line != fallback, (log.title, fact)
                assert not RAW.search(line), (log.title, fact, line)
                if locale != "en":  # an internal id (a weather, a choice) shown as it is would be English here
                    names = {p.name for p in log.game.players}
                    ids = [v for v in fact["data"].values() if isinstance(v, str) and v not in names
                           and re.fullmatch(r"[a-z][a-z_:0-9]*", v)]
                    assert not [i for i in ids if re.search(rf"\b{re.escape(i)}\b", line)], (log.title, fact, line)
    assert {"night_closed", "kill_closed", "dawn", "team_order", "check"} <= seen


def test_the_report_uses_the_threads_words() -> None:
    words = {loc: (TEMPLATES / loc / "report" / "words.html").read_text(encoding="utf-8") for loc in LOCALES}
    assert "胜负指数" in words["zh-Hans"] and "胜率指数" not in words["zh-Hans"]
    assert "勝負指數" in words["zh-Hant"] and "勝率指數" not in words["zh-Hant"]
    assert "阳光下的罪恶" in words["zh-Hans"] and "阳光杀" not in words["zh-Hans"]
    assert "陽光下的罪惡" in words["zh-Hant"] and "陽光殺" not in words["zh-Hant"]
