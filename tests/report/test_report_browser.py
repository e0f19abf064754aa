"""The report page in a real browser: headless Chromium from Debian (``apt-get install chromium``; skipped
when it is not installed) loads the page from files, offline, and the charts are there (matplotlib's SVG
in the DOM) with the replay's numbers, each with a legend naming who (or what) each colour is."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from forumbot.replay import load_transcript
from forumbot.report.data import extract
from forumbot.report.html import write_page
from forumbot.report.log import from_transcript

TRANSCRIPTS = Path(__file__).resolve().parent.parent / "transcripts"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="headless Chromium (Debian package chromium) is not installed")


def legend(dom: str, chart: str) -> set[str]:
    """The texts of ``chart``'s legend as the browser has them (its title included)."""
    group = re.search(rf'<g id="{chart}-legend">(.*?)</svg>', dom, re.DOTALL)
    assert group, f"{chart} has no legend"
    return set(re.findall(r"<text[^>]*>([^<]+)</text>", group.group(1)))


def camp_words(t, camp: str) -> str:
    """A camp as the page names it: the ruleset's own word, else the shared one (report/words.html)."""
    from forumbot.report.html import environment

    module = environment(t.locale).get_template("report/words.html").module
    return {**module.camps, **module.ruleset_words.get(t.ruleset, {})}.get(camp, camp)


def chromium(args: list[str], profile: Path) -> str:
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
           f"--user-data-dir={profile}", "--virtual-time-budget=10000", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=180, check=True).stdout


@pytest.mark.parametrize("name", ["sunlight_worked_example", "killer_club_full_game", "vampire_village_deaths",
                                  "human_kill_sage", "interview_vampire_full_game"])
def test_page_draws_its_charts_offline(name, tmp_path):
    t = load_transcript(TRANSCRIPTS / f"{name}.yaml")
    data = extract(from_transcript(t, name))
    page = write_page("report", data, t.locale, tmp_path / "site")
    url = page.resolve().as_uri()
    dom = chromium(["--dump-dom", url], tmp_path / "profile")
    for v in data["votes"]:
        block = re.search(rf'id="vote-chart-{v["index"]}"[^>]*>(.*?)</article>', dom, re.DOTALL)
        assert block and "<svg" in block.group(1), f"vote chart {v['index']} not drawn"
        for total in v["totals"]:  # every target's name is on the chart's axis
            if total["value"]:
                assert f">{total['name']}<" in block.group(1)
        voters = {b["voter"] for b in v["ballots"] if not b["void"] and b["targets"]}
        if not v["hidden"] and voters:  # who is who: every voter's colour is named in the legend
            assert voters <= legend(dom, f"vote-chart-{v['index']}"), f"vote chart {v['index']}: a voter not in its legend"
    if data["scores"]:
        assert set(data["scores"]["lines"]) <= legend(dom, "score-chart")
        assert len(legend(dom, "index-chart")) == 2  # the win index and its threshold
    if data["camps"]:
        assert legend(dom, "camp-chart") == {camp_words(t, c) for c in data["camps"]["camps"]}
    if data["deaths"]:
        assert legend(dom, "death-chart")
    summary = from_transcript(t, name).game.ruleset.summary()
    players = {p["seat"]: p["name"] for p in data["players"]}
    for seat, score in summary.get("scores", {}).items():  # the standings the browser shows are the replay's
        shown = int(score) if float(score).is_integer() else score
        assert re.search(rf"<td>{re.escape(players[seat])}</td>(<td>[^<]*</td>){{3}}<td>{shown}</td></tr>", dom)
    shot = tmp_path / f"{name}.png"
    chromium(["--window-size=1200,2400", f"--screenshot={shot}", url], tmp_path / "profile")
    assert shot.stat().st_size > 10_000
