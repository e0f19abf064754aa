"""A vote round's PNG chart (issue 13: the picture a Discuz! round post carries): a valid PNG of some
size, the same bytes for the same round, the report's words, and a clean refusal without a CJK font."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest
import yaml

from forumbot import vote_chart as vote_chart
from forumbot.replay import parse_transcript
from forumbot.report.data import extract
from forumbot.report.log import from_transcript
from forumbot.vote_chart import ChartUnavailable, lines, segments, title, vote_png

TRANSCRIPTS = Path(__file__).resolve().parent.parent / "transcripts"


def votes(name: str) -> tuple[list[dict], str]:
    t = parse_transcript(yaml.safe_load((TRANSCRIPTS / f"{name}.yaml").read_text(encoding="utf-8")))
    return extract(from_transcript(t, "test"))["votes"], t.locale


def size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_a_sunlight_round_is_a_deterministic_png_of_its_ranked_points():
    rounds, locale = votes("sunlight_worked_example")
    first = rounds[0]
    data = vote_png(first, locale)
    width, height = size(data)
    assert width == 800 and 300 < height < 1000 and len(data) > 8000
    assert data[-12:] == b"\x00\x00\x00\x00IEND\xaeB`\x82"
    assert vote_png(first, locale) == data  # the same round gives the same bytes (a retry uploads the same picture)
    assert vote_png(rounds[1], locale) != data
    assert b"tIME" not in data and b"Software" not in data  # no timestamp, no version in the file
    bars = dict(segments(first))
    assert sum(v for _, v in bars["C"]) == 11 and ("A", 3.0) in bars["B"]  # A's first name, 3 points
    assert title(first, locale) == "投票 · 第 1 轮"
    assert lines(first, locale)[-1] == "C 被投出" and lines(first, locale)[1] == "未投票: –"


def test_a_tie_and_the_non_voters_are_written_under_the_bars():
    rounds, locale = votes("sunlight_worked_example")
    tied = rounds[1]
    assert lines(tied, locale)[-1] == "平票：A, G"
    vv, vv_locale = votes("vampire_village_first_day")
    runoff = next(v for v in vv if v["phase"] == "vote" and v["missing"])
    assert lines(runoff, vv_locale)[1] == lines(runoff, vv_locale)[1].split(":")[0] + ": " + ", ".join(runoff["missing"])
    assert len(runoff["missing"]) == 8
    size(vote_png(runoff, vv_locale))
    kc, kc_locale = votes("killer_club_full_game")
    assert {title(v, kc_locale) for v in kc} >= {"投票 · 第 1 輪"}  # traditional Chinese words for zh-Hant
    assert all(size(vote_png(v, kc_locale)) for v in kc)


def test_an_english_round_needs_no_cjk_font_but_a_chinese_one_does(monkeypatch):
    rounds, _ = votes("sunlight_worked_example")
    monkeypatch.setattr(vote_chart, "cjk_font", lambda: None)
    size(vote_png(rounds[0], "en"))  # names A..G and English words: the default font is enough
    with pytest.raises(ChartUnavailable, match="CJK font"):
        vote_png(rounds[0], "zh-Hans")


def test_a_cjk_font_is_found_on_this_machine():
    """CI installs fonts-wqy-microhei (.ci/run); without it Chinese round charts are not attached."""
    assert vote_chart.cjk_font() in vote_chart.CJK_FONTS


def test_the_figure_names_each_voter_in_its_legend():
    """Who is who: the picture (PNG for Discuz!, SVG in the report) has a legend, one entry per voter in his
    segments' colour; a name like ``$x$`` is a name, not math."""
    import matplotlib

    rounds, locale = votes("sunlight_worked_example")
    first = dict(rounds[0], ballots=[dict(b, voter="$x$" if b["voter"] == "A" else b["voter"]) for b in rounds[0]["ballots"]])
    with matplotlib.rc_context(vote_chart.rc(vote_chart.cjk_font())):
        fig = vote_chart.figure(first, locale)
    (legend,) = fig.legends
    assert legend.get_title().get_text() == "投票人"
    labels = [t.get_text() for t in legend.get_texts()]
    assert sorted(labels) == sorted({b["voter"] for b in first["ballots"]}) and "$x$" in labels
    colour = {t.get_text(): h.get_facecolor() for t, h in zip(legend.get_texts(), legend.legend_handles, strict=True)}
    assert len(set(colour.values())) == len(colour)  # a colour each
    size(vote_png(first, locale))
