"""`forumbot report SEASON -o DIR` and `forumbot standings ... --html DIR` on stored seasons (issue 13)."""

from __future__ import annotations

import json
import re

from bot_helpers import Clock, Season, example_phases, play_phases
from test_runtime_cli import SEASON
from typer.testing import CliRunner

from forumbot.cli import app
from forumbot.config import load_config
from forumbot.forums.memory import MemoryForum

SEVEN = SEASON.replace('["A", "B", "C", "D", "E"]', '["A", "B", "C", "D", "E", "F", "G"]')


def page_data(path) -> dict:
    html = path.read_text(encoding="utf-8")
    return json.loads(re.search(r'id="report-data">(.*?)</script>', html, re.DOTALL).group(1))


def season(tmp_path, name: str, phases: int | None = None):
    path = tmp_path / f"{name}.toml"
    path.write_text(SEVEN.replace('name = "cli"', f'name = "{name}"'), encoding="utf-8")
    config = load_config(path)
    clock = Clock()
    s = Season(config, MemoryForum("judge", clock), clock, config.database_url)
    play_phases(s, example_phases()[:phases] if phases else example_phases())
    return path, s


def test_report_of_a_running_season_is_public_unless_the_organiser_asks(tmp_path):
    runner = CliRunner()
    path, s = season(tmp_path, "running", phases=2)
    assert not s.bot.game.finished
    refused = runner.invoke(app, ["report", str(path), "-o", str(tmp_path / "full")])
    assert refused.exit_code == 2 and "--public" in refused.output and "--organiser" in refused.output
    assert not (tmp_path / "full").exists()
    public = runner.invoke(app, ["report", str(path), "-o", str(tmp_path / "pub"), "--public"])
    assert public.exit_code == 0, public.output
    data = page_data(tmp_path / "pub" / "index.html")
    assert data["meta"]["public"] and not data["meta"]["finished"]
    assert all("role" not in p for p in data["players"]) and data["scores"] is None
    # the schedule's times, in the season's zone (time_zone = "UTC"), saying which zone that is
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", data["phases"][1]["opened_at"])
    assert data["phases"][1]["deadline"].endswith(" UTC")
    html = (tmp_path / "pub" / "index.html").read_text(encoding="utf-8")
    assert f'<td>{data["phases"][1]["opened_at"]}</td>' in html
    assert data["votes"][0]["round"] == 1 and data["votes"][0]["chosen"] == "C"
    organiser = runner.invoke(app, ["report", str(path), "-o", str(tmp_path / "org"), "--organiser"])
    assert organiser.exit_code == 0
    assert {p["name"]: p["role"] for p in page_data(tmp_path / "org" / "index.html")["players"]}["C"] == "killer"


def test_report_of_a_finished_season_matches_the_game(tmp_path):
    path, s = season(tmp_path, "done")
    g = s.bot.game
    assert g.finished
    out = CliRunner().invoke(app, ["report", str(path), "-o", str(tmp_path / "r")])
    assert out.exit_code == 0, out.output
    data = page_data(tmp_path / "r" / "index.html")
    scores = g.ruleset.summary()["scores"]
    assert {p["name"]: p["score"] for p in data["standings"]} == {g.name(seat): v for seat, v in scores.items()}
    assert data["meta"]["winner"] == g.winner and len(data["votes"]) == 4


def test_series_page(tmp_path):
    paths = [str(season(tmp_path, f"game{n}")[0]) for n in (1, 2)]
    out = CliRunner().invoke(app, ["standings", *paths, "--html", str(tmp_path / "series"), "--json"])
    assert out.exit_code == 0, out.output
    json.loads(out.stdout)  # stdout stays JSON; the page's path goes to stderr
    data = page_data(tmp_path / "series" / "index.html")
    assert [g["name"] for g in data["games"]] == ["game1", "game2"]
    rows = {r["name"]: r for r in data["rows"]}
    assert (rows["A"]["played"], rows["A"]["won"]) == (2, 2) and rows["C"]["roles"] == {"killer": {"played": 2, "won": 0}}
    assert (tmp_path / "series" / "assets" / "report.css").is_file()
    html = (tmp_path / "series" / "index.html").read_text(encoding="utf-8")
    assert re.search(r'id="series-chart"><svg', html) and 'id="series-chart-legend"' in html  # played / won, named


def test_report_of_a_stored_season_keeps_each_rounds_names_after_a_replacement(tmp_path):
    """`forumbot report` of a season where G sent no ballot in round 1 and the organiser replaced G by 新人 (by
    private message) in round 7: round 1 still says G did not vote, round 7's row shows the replacement."""
    path = tmp_path / "swap.toml"
    path.write_text(SEVEN.replace('name = "cli"', 'name = "swap"'), encoding="utf-8")
    config = load_config(path)
    clock = Clock()
    s = Season(config, MemoryForum("judge", clock), clock, config.database_url)
    phases = example_phases()
    phases[0] = [m for m in phases[0] if m[0] != "G"]
    phases[-1] = [*phases[-1], ("Org", "replace G 新人")]
    play_phases(s, phases)
    assert s.bot.game.player(7).name == "新人"
    out = CliRunner().invoke(app, ["report", str(path), "-o", str(tmp_path / "r"), "--public"])
    assert out.exit_code == 0, out.output
    data = page_data(tmp_path / "r" / "index.html")
    assert data["votes"][0]["missing"] == ["G"]
    assert [p["replaced"] for p in data["phases"] if p["replaced"]] == [[{"old": "G", "new": "新人", "seat": 7}]]
