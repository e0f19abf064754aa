"""The season report page (issue 13): its data (asserted on the JSON the page embeds), what the public
report may show, escaping, and that it needs nothing from the network."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from forumbot.cli import app
from forumbot.replay import parse_transcript, replay
from forumbot.report.data import extract
from forumbot.report.html import render_page, write_page
from forumbot.report.log import from_transcript

TRANSCRIPTS = Path(__file__).resolve().parent.parent / "transcripts"
DATA = re.compile(r'<script type="application/json" id="report-data">(.*?)</script>', re.DOTALL)


def raw(name: str) -> dict:
    return yaml.safe_load((TRANSCRIPTS / f"{name}.yaml").read_text(encoding="utf-8"))


def page_data(html: str) -> dict:
    """The report data embedded in a page."""
    match = DATA.search(html)
    assert match, "no embedded report data"
    return json.loads(match.group(1))


def report(t_raw: dict, public: bool = False) -> tuple[dict, str]:
    t = parse_transcript(t_raw)
    data = extract(from_transcript(t, "test"), public=public)
    html = render_page("report", data, t.locale)
    return page_data(html), html


def test_sunlight_report_holds_the_rounds_ranked_ballots_scores_and_standings():
    t = parse_transcript(raw("sunlight_worked_example"))
    result = replay(t)
    data, html = report(raw("sunlight_worked_example"))
    votes = data["votes"]
    assert [v["round"] for v in votes] == [1, 3, 5, 7]
    first = votes[0]
    a = next(b for b in first["ballots"] if b["voter"] == "A")
    assert a["targets"] == ["B", "D"] and a["points"] == [3, 2]  # first and second name: 3 and 2 points
    assert {t["name"]: t["value"] for t in first["totals"]}["C"] == 11 and first["chosen"] == "C"
    assert votes[1]["chosen"] is None and votes[1]["tied"] == ["A", "G"]
    summary = result.game.ruleset.summary()
    standings = data["standings"]
    assert [(p["name"], p["score"], p["rank"]) for p in standings][:2] == [("A", 11, 1), ("B", 8, 2)]
    assert {p["name"]: p["score"] for p in standings} == {result.game.name(s): v for s, v in summary["scores"].items()}
    assert data["scores"]["win_index"][-1] == pytest.approx(summary["win_index"], abs=1e-4)
    assert data["scores"]["threshold"] == 0.35 and data["scores"]["rounds"] == [1, 3, 5, 7]
    assert [(d["name"], d["round"], d["reason"]) for d in data["deaths"]][:2] == [("C", 1, "voted"), ("E", 2, "killed")]
    assert 'id="vote-chart-3"' in html and 'id="score-chart"' in html and 'id="index-chart"' in html


def test_killer_club_report_holds_the_run_offs_and_the_victims_choice():
    data, html = report(raw("killer_club_full_game"))
    day2 = [v for v in data["votes"] if v["round"] == 2]
    assert [v["number"] for v in day2] == [1, 2, 3]  # the vote and two run-offs
    assert all(v["tied"] == ["王五", "小明"] for v in day2)
    assert [v["phase"] for v in day2] == ["vote", "runoff", "runoff"]
    day1 = data["votes"][0]
    assert day1["chosen"] == "李四" and {t["name"]: t["value"] for t in day1["totals"]} == {"李四": 10, "趙六": 4}
    assert [(d["name"], d["reason"]) for d in data["deaths"] if d["round"] == 2] == [("阿珍", "killed"), ("王五", "chosen")]
    assert data["meta"]["winner"] == "police" and data["camps"]["points"][-1]["counts"]["killer"] == 1  # the helper
    assert "王五 被投出" not in html and "王五" in html


def test_who_did_not_vote_is_listed():
    t_raw = raw("killer_club_full_game")
    t_raw["phases"][1]["messages"] = [m for m in t_raw["phases"][1]["messages"] if m[0] not in ("Bob", "阿強")]
    data, _ = report(t_raw)
    assert data["votes"][0]["missing"] == ["阿強", "Bob"]


@pytest.mark.parametrize("name", sorted(p.stem for p in TRANSCRIPTS.glob("*.yaml")))
def test_every_transcript_makes_an_offline_page(name, tmp_path):
    t = parse_transcript(raw(name))
    for public in (False, True):
        out = tmp_path / ("public" if public else "full")
        path = write_page("report", extract(from_transcript(t, name), public=public), t.locale, out)
        html = path.read_text(encoding="utf-8")
        sources = re.findall(r'<script[^>]*\bsrc="([^"]+)"', html) + re.findall(r'<link[^>]*\bhref="([^"]+)"', html)
        assert sources and all(not re.match(r"(https?:)?//", s) for s in sources)
        assert all((out / s).is_file() for s in sources)
        assert not re.search(r"<script\b(?![^>]*application/json)", html)  # no script: the charts are SVG already
        assert "http://" not in html.replace("http://www.w3.org", "") and "https://" not in html
        data = page_data(html)
        assert data["meta"]["ruleset"] == t.ruleset and len(data["phases"]) >= 2
        assert len(re.findall(r'class="chart vote-chart"[^>]*><svg', html)) == len(data["votes"])


def _truncated(name: str, phases: int) -> dict:
    t_raw = raw(name)
    t_raw["phases"] = t_raw["phases"][:phases]
    return t_raw


def test_public_report_of_a_running_game_does_not_depend_on_the_draw():
    # Two killer_club games with the same inputs whose draws differ only in two players who did
    # nothing the thread could see: a police (周八) and a civilian (小明) trade roles.
    first = _truncated("killer_club_full_game", 3)
    second = copy.deepcopy(first)
    second["roles"] = {**first["roles"], "小明": "police"}
    del second["roles"]["周八"]
    public = [report(t, public=True) for t in (first, second)]
    assert public[0][1] == public[1][1]  # the same page, byte for byte
    full = [report(t)[0] for t in (first, second)]
    assert full[0]["players"] != full[1]["players"]  # ...while the draws do differ


def test_public_report_of_a_running_game_shows_no_role_and_no_private_result():
    for name, phases in (("killer_club_full_game", 3), ("vampire_village_deaths", 6), ("human_kill_core", 4),
                         ("interview_vampire_full_game", 3), ("sunlight_worked_example", 3)):
        data, html = report(_truncated(name, phases), public=True)
        assert not data["meta"]["finished"] and data["meta"]["winner"] is None
        assert all(set(p) == {"seat", "name", "alive", "out_reason", "out_round", "replaced"} for p in data["players"])
        assert data["scores"] is None and data["camps"] is None and data["standings"] == []
        assert all("facts" not in ph for ph in data["phases"])
        assert all(d["reason"] in {"voted", "sun", "banished", "chosen", "drawn", "penalty", "suicide", "died"}
                   for d in data["deaths"])
        assert 'id="standings"' not in html and 'class="fact"' not in html


def test_vampire_village_public_report_hides_how_a_night_death_happened():
    data, _ = report(_truncated("vampire_village_deaths", 4), public=True)
    full, _ = report(_truncated("vampire_village_deaths", 4))
    assert {d["reason"] for d in full["deaths"]} & {"poisoned", "killed", "lover", "shot"}
    assert {d["reason"] for d in data["deaths"]} <= {"died", "voted"}


def test_names_cannot_inject_markup():
    bad = "</script><script>alert(1)</script>"
    t_raw = raw("killer_club_full_game")
    t_raw["players"] = [bad if p == "Bob" else p for p in t_raw["players"]]
    for entry in t_raw["phases"]:
        entry["messages"] = [[bad if s == "Bob" else s, text] for s, text in entry.get("messages", [])]
    for public in (False, True):
        data, html = report(t_raw, public=public)
        assert "<script>alert(1)" not in html and "&lt;/script&gt;&lt;script&gt;alert(1)" in html
        assert bad in [p["name"] for p in data["players"]]  # the JSON still holds the name as it is
        assert any(b["voter"] == bad for b in data["votes"][0]["ballots"])


def test_replay_html_refuses_the_full_report_of_an_unfinished_game(tmp_path):
    runner = CliRunner()
    path = str(TRANSCRIPTS / "vampire_village_first_day.yaml")
    refused = runner.invoke(app, ["replay", path, "--html", str(tmp_path / "full")])
    assert refused.exit_code == 2 and "--public" in refused.output and not (tmp_path / "full").exists()
    public = runner.invoke(app, ["replay", path, "--html", str(tmp_path / "pub"), "--public"])
    assert public.exit_code == 0 and (tmp_path / "pub" / "index.html").is_file()
    organiser = runner.invoke(app, ["replay", path, "--html", str(tmp_path / "org"), "--organiser"])
    assert organiser.exit_code == 0
    assert "role" in page_data((tmp_path / "org" / "index.html").read_text(encoding="utf-8"))["players"][0]


@pytest.mark.parametrize("flag", ["--public", "--organiser"])
def test_replay_refuses_a_report_option_without_html(flag):
    path = str(TRANSCRIPTS / "vampire_village_first_day.yaml")
    refused = CliRunner().invoke(app, ["replay", path, flag])  # it was silently ignored
    assert refused.exit_code == 2 and refused.output == f"error: {flag} needs --html DIR: it says what the HTML report shows\n"


@pytest.mark.parametrize("command", [["replay", str(TRANSCRIPTS / "vampire_village_first_day.yaml"), "--html", "x"],
                                     ["report", "season.toml", "-o", "x"]])
def test_public_and_organiser_together_are_refused(command, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    refused = CliRunner().invoke(app, [*command, "--public", "--organiser"])  # --public quietly won
    assert refused.exit_code == 2
    assert refused.output == "error: --public and --organiser ask for two different reports: give one\n"
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize("locale,word", [("en", "Timeline"), ("zh-Hans", "时间线"), ("zh-Hant", "時間線")])
def test_the_page_is_in_the_season_locale(locale, word):
    t_raw = raw("sunlight_worked_example")
    t_raw["locale"] = locale
    _, html = report(t_raw)
    assert word in html and f'<html lang="{locale}">' in html


def test_weighted_ballots_show_their_weight():
    # vampire_village: the sheriff's vote counts double (shown ×2 in the ballot table and stacked on the chart)
    data, html = report(raw("vampire_village_deaths"))
    weighted = [(v, b) for v in data["votes"] for b in v["ballots"] if b["weight"] != 1]
    assert weighted, "the sheriff voted"
    _, b = weighted[0]
    assert b["points"] == [b["weight"]] * len(b["targets"])
    assert f"<td>{b['voter']}</td><td>{b['targets'][0]} (×{b['weight']})" in html


def test_secret_votes_are_in_the_full_report_only():
    full, html = report(raw("human_kill_core"))
    secret = [v for v in full["votes"] if v["secret"]]
    assert secret and secret[0]["kind"] == "exorcism" and secret[0]["totals"]
    assert f'id="vote-chart-{secret[0]["index"]}"' in html
    public, _ = report(raw("human_kill_core"), public=True)
    assert not any(v["secret"] for v in public["votes"]) and all(v["kind"] != "exorcism" for v in public["votes"])
    crimes, _ = report(raw("interview_vampire_full_game"))
    assert any(v["kind"] == "crime" for v in crimes["votes"])


@pytest.mark.parametrize("locale,killer,successor,other", [("zh-Hans", "凶手", "接任凶手", "杀手"),
                                                            ("zh-Hant", "兇手", "接任兇手", "殺手")])
def test_the_sunlight_report_uses_the_games_terms(locale, killer, successor, other):
    """《阳光下的罪恶》 says 凶手 and 接任凶手, not 杀手 and 成为杀手的继任者 (findings of a newcomer's trial, item 12)."""
    t_raw = raw("sunlight_worked_example")
    t_raw["locale"] = locale
    _, html = report(t_raw)
    assert f"<td>{killer}</td>" in html and successor in html
    assert f"<td>{other}</td>" not in html and "继任者" not in html and "繼任者" not in html


def _replaced_game() -> dict:
    """The worked example where G sends no ballot in round 1 and, in round 7, the organiser replaces G by 新人
    and B by 阿芳 (after their ballots)."""
    t_raw = raw("sunlight_worked_example")
    t_raw["organisers"] = ["法官"]
    t_raw["phases"][0]["messages"] = [m for m in t_raw["phases"][0]["messages"] if m[0] != "G"]
    t_raw["phases"][-1]["organiser"] = [["法官", "替换 G 新人"], ["法官", "替换 B 阿芳"]]
    return t_raw


@pytest.mark.parametrize("public", [True, False])
def test_each_round_shows_the_names_the_thread_showed_then(public):
    """After a replacement the earlier rounds keep their names (the thread said G did not vote in round 1,
    not 新人), and the replacement is shown in its own round."""
    data, html = report(_replaced_game(), public=public)
    votes = {v["round"]: v for v in data["votes"]}
    assert votes[1]["missing"] == ["G"] and "新人" not in str(votes[1]) and "阿芳" not in str(votes[3])
    assert votes[7]["missing"] == [] and {b["voter"] for b in votes[7]["ballots"]} == {"A", "阿芳", "新人"}
    rows = {p["id"]: p for p in data["phases"]}
    assert [p["replaced"] for p in data["phases"] if p["replaced"]] == [
        [{"old": "G", "new": "新人", "seat": 7}, {"old": "B", "new": "阿芳", "seat": 2}]]
    assert rows[8]["replaced"] and rows[8]["out"] == ["阿芳"]  # out in round 7 under the name he had then
    row8 = re.search(r'<tr class="phase" data-phase="8">(.*?)</tr>', html, re.DOTALL).group(1)
    assert "新人 接替 G" in row8 and "阿芳 接替 B" in row8
    players = {p["seat"]: p for p in data["players"]}
    assert players[2]["name"] == "阿芳" and players[2]["replaced"] == ["B"] and players[2]["out_round"] == 7
    if data["standings"]:
        assert "<td>阿芳<span class=\"took-over\">（接替 B）</span></td>" in html
    if not public:  # the night's facts name the killer as the thread knew him then
        facts = [f for p in data["phases"] for f in p["facts"]]
        assert {"kind": "successor", "data": {"seat": "B", "name": "B", "how": "named"}} in facts
        assert all(f["data"].get("killer") == "B" for f in facts if f["kind"] == "kill_order")


def test_the_camp_chart_counts_a_successor_from_when_he_became_one_in_the_games_words():
    """阳光下的罪恶 has one killer at a time: B, the successor named in the poll after round 1, is a good until
    then (not 5 goods / 2 killers from the prologue); the chart's legend says 凶手, as the game does."""
    data, html = report(raw("sunlight_worked_example"))
    counts = [(p["kind"], p["counts"]["good"], p["counts"]["killer"]) for p in data["camps"]["points"]]
    assert counts[:4] == [("prologue", 6, 1), ("vote", 6, 0), ("poll", 5, 1), ("kill", 4, 1)]
    assert all(killers <= 1 for _, _, killers in counts)
    chart = re.search(r'id="camp-chart">(<svg.*?</svg>)', html, re.DOTALL).group(1)
    legend = set(re.findall(r"<text[^>]*>([^<]+)</text>", chart.split('id="camp-chart-legend"')[1]))
    assert legend == {"好人", "凶手"} and "杀手" not in chart
    kc, _ = report(raw("interview_vampire_full_game"))
    start = kc["camps"]["points"][0]["counts"]
    dealt = raw("interview_vampire_full_game").get("roles", {})
    assert start.get("vampire", 0) == sum(1 for r in dealt.values() if r == "vampire")  # converts count later


def test_a_timeline_time_names_its_zone_as_the_season_words_it():
    """Times in the report say their zone as posts do (forumbot.local_time): the locale's name of a known zone, the
    UTC offset otherwise or when the season's time_zone_label says "offset"; never an ambiguous CST."""
    from datetime import UTC, datetime
    from zoneinfo import ZoneInfo

    from forumbot.report.data import _when
    from forumbot.report.log import GameLog

    at = datetime(2026, 7, 1, 12, 0, tzinfo=UTC)
    log = GameLog(None, [], "en", "t")  # type: ignore[arg-type]  # only its zone is read
    for zone, shown in (("Asia/Shanghai", "2026-07-01 20:00 Beijing time"),
                        ("America/New_York", "2026-07-01 08:00 UTC-4"),
                        ("Asia/Kolkata", "2026-07-01 17:30 UTC+5:30"), ("Europe/London", "2026-07-01 13:00 UTC+1"),
                        ("UTC", "2026-07-01 12:00 UTC")):
        log.tz = ZoneInfo(zone)
        assert _when(log, at) == shown
    log.tz, log.locale = ZoneInfo("Asia/Shanghai"), "zh-Hans"
    assert _when(log, at) == "2026-07-01 20:00 北京时间"
    log.time_zone_label = "offset"
    assert _when(log, at) == "2026-07-01 20:00 UTC+8"
    log.tz = None
    assert _when(log, at) == "2026-07-01 12:00 UTC" and _when(log, None) is None


def test_roles_camps_and_winners_are_named_in_the_games_own_words():
    """The page says what the game's posts say: 殺助 and 水民 in killer_club (not 帮手, 平民), 犯罪的吸血鬼 in
    interview_vampire, and camps that win together by their names, not their ids."""
    data, html = report(raw("killer_club_full_game"))
    roles = {p["name"]: p["role"] for p in data["players"]}
    helper = next(n for n, r in roles.items() if r == "helper")
    assert re.search(rf"<td>{helper}</td><td>殺助</td>", html) and "<td>水民</td>" in html
    assert "<td>幫手</td>" not in html and "<td>平民</td>" not in html
    both, both_html = report(raw("interview_vampire_both_camps"))
    assert isinstance(both["meta"]["winner"], list)
    sub = re.search(r'<p class="sub">(.*?)</p>', both_html, re.DOTALL).group(1)
    assert sub.split("Winner: ")[1].strip() == "Humans + Vampires"  # not "human + vampire"
    crim, crim_html = report(raw("interview_vampire_criminals"))
    assert any(p["role"] == "criminal" for p in crim["players"]) and "<td>犯罪的吸血鬼</td>" in crim_html


def test_charts_need_no_cjk_font_on_the_machine_that_writes_them(monkeypatch):
    """The SVG keeps its text as text: the reader's browser draws the Chinese names, so a machine without a CJK
    font still writes every chart (the Discuz! PNG is the one that needs the font)."""
    import warnings

    from forumbot.report import charts

    monkeypatch.setattr(charts, "cjk_font", lambda: None)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "Glyph missing" warning either
        _, html = report(raw("killer_club_full_game"))
    first = re.search(r'id="vote-chart-0"[^>]*>(<svg.*?</svg>)', html, re.DOTALL).group(1)
    assert ">李四</text>" in first and ">投票人</text>" in first and "DejaVu Sans" in first
