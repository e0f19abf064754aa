"""A running season records the versions of the parser and rules that judged it: a forumbot with other
versions refuses to re-read its stored messages, unless the organiser accepts the new versions (recorded)."""

from __future__ import annotations

import json

import pytest
from bot_helpers import make_season
from typer.testing import CliRunner

from forumbot.cli import app
from forumbot.language import parse
from forumbot.rulesets.sunlight import Sunlight
from forumbot.runtime.season_edits import FIRST_VERSIONS, VersionsChanged
from forumbot.runtime.store import Store, make_engine

PLAYERS = ["A", "B", "C", "D", "E"]


@pytest.fixture(autouse=True)
def _first_versions(monkeypatch):
    """The seasons here start with parser 1 and sunlight rules 1, whatever the versions are today."""
    monkeypatch.setattr(parse, "PARSER_VERSION", "1")
    monkeypatch.setattr(Sunlight, "rules_version", "1")


def _running(tmp_path):
    s = make_season(tmp_path, PLAYERS, {"C": "killer"})
    s.bot.cycle()
    s.clock.advance(62)
    s.bot.cycle()
    s.forum.player_pm("A", "投 B")
    s.clock.advance(1)
    s.bot.cycle()
    assert s.bot.started and s.bot.store.inputs()
    return s


def _setup(s) -> dict:
    return json.loads(s.bot.store.season().setup_json)


def test_a_new_season_records_the_versions(tmp_path):
    s = _running(tmp_path)
    assert _setup(s)["versions"] == {"parser": parse.PARSER_VERSION, "rules": Sunlight.rules_version}


def test_a_new_parser_refuses_to_resume_a_running_season(tmp_path, monkeypatch):
    s = _running(tmp_path)
    before = _setup(s)
    monkeypatch.setattr(parse, "PARSER_VERSION", "2")
    with pytest.raises(VersionsChanged) as refused:
        s.restart()
    message = str(refused.value)
    assert "the command parser 1 → 2" in message and "rules" not in message.split("(")[1].split(")")[0]
    assert "--accept-new-rules" in message and "finish the season with the forumbot release" in message
    assert json.loads(Store.find_season(make_engine(s.db_url), s.config.name).season().setup_json) == before


def test_new_rules_refuse_and_the_cli_says_why(tmp_path, monkeypatch):
    s = _running(tmp_path)
    monkeypatch.setattr(Sunlight, "rules_version", "2")
    with pytest.raises(VersionsChanged, match=r"the sunlight rules 1 → 2"):
        s.restart()
    import forumbot.cli.season as season_cli

    monkeypatch.setattr(season_cli, "_load", lambda path: s.config)
    monkeypatch.setattr(season_cli, "_no_database", lambda config: False)
    from forumbot.runtime.bot import Bot

    real_init = Bot.__init__
    monkeypatch.setattr(Bot, "__init__", lambda self, config, forum=None, accept_new_rules=False, engine=None: real_init(
        self, config, s.forum, s.clock, engine or make_engine(s.db_url), accept_new_rules=accept_new_rules))
    out = CliRunner().invoke(app, ["status", "season.toml"])
    assert out.exit_code == 2 and "sunlight rules 1 → 2" in out.output and "Traceback" not in out.output


def test_accepting_the_new_versions_is_recorded_and_the_season_goes_on(tmp_path, monkeypatch):
    s = _running(tmp_path)
    posts = s.posts()
    monkeypatch.setattr(parse, "PARSER_VERSION", "2")
    monkeypatch.setattr(Sunlight, "rules_version", "3")
    bot = s.bot = type(s.bot)(s.config, s.forum, s.clock, make_engine(s.db_url), accept_new_rules=True)
    setup = _setup(s)
    assert setup["versions"] == {"parser": "2", "rules": "3"}
    assert setup["versions_accepted"] == [{"from": {"parser": "1", "rules": "1"}, "to": {"parser": "2", "rules": "3"},
                                           "at": s.clock().isoformat()}]
    assert setup["players"] == PLAYERS and bot.started
    s.restart()  # accepted once: later restarts need no flag
    s.bot.cycle()
    assert s.posts() == posts  # nothing posted twice


def test_a_season_stored_before_versions_were_recorded_is_version_one(tmp_path, monkeypatch):
    assert FIRST_VERSIONS == {"parser": "1", "rules": "1"}
    s = _running(tmp_path)
    setup = _setup(s)
    del setup["versions"]
    s.bot.store.set_setup(setup)
    s.restart()  # this forumbot's versions are the first ones: it resumes
    monkeypatch.setattr(parse, "PARSER_VERSION", "2")
    with pytest.raises(VersionsChanged, match="parser 1 → 2"):
        s.restart()


def test_a_season_not_started_takes_the_new_versions(tmp_path, monkeypatch):
    s = make_season(tmp_path, PLAYERS, {"C": "killer"})
    assert not s.bot.store.inputs()
    monkeypatch.setattr(parse, "PARSER_VERSION", "2")
    s.restart()
    assert _setup(s)["versions"]["parser"] == "2" and "versions_accepted" not in _setup(s)
