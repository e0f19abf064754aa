"""The inbound log words every code the engine and the parser can give (a refusal's reason, why a message was not
read as a command, the reply that refused it, a penalty's reason) in the page's locale, never as the id."""

from __future__ import annotations

import html
import importlib
import re
import sys
from pathlib import Path

import pytest
from console_helpers import client, running_season

from forumbot.console import inbound_log
from forumbot.console.inbound_log import code_words
from forumbot.console.steer import REASONS
from forumbot.render import LOCALES

PACKAGE = Path(inbound_log.__file__).parents[1]


def every_code() -> set[str]:
    """Every code an inbound row's reading can carry: the rulesets' refusal reasons (read from the code as
    tests/test_templates_rejected.py reads them), the parser's error codes, the refusing replies' names and the
    penalty reasons."""
    sys.path.insert(0, str(Path(__file__).parents[1]))
    emitted = importlib.import_module("test_templates_rejected").emitted
    reasons = {reason for by_ruleset in emitted().values() for reason in by_ruleset}
    parser = (PACKAGE / "language" / "parse.py").read_text(encoding="utf-8")
    parse_codes = set(re.findall(r'ParseError\("([a-z_]+)"', parser)) | set(re.findall(r'self\.error\("([a-z_]+)"', parser))
    assert {"unknown_name", "no_command", "unclear", "did_you_mean"} <= parse_codes
    assert {"already_voted", "wrong_phase", "dead_target"} <= reasons
    return reasons | parse_codes | set(inbound_log._REFUSALS.values()) | set(REASONS)


@pytest.mark.parametrize("locale", LOCALES)
def test_every_code_has_words_in_each_locale(locale):
    words = code_words(locale)
    missing = every_code() - set(words)
    assert not missing, f"{locale}/console/codes.html has no words for {sorted(missing)}"
    for code, text in words.items():
        assert text and (text != code or code in REASONS), (locale, code)  # "lurking" is its own word
        if locale != "en":
            assert not re.search(r"[A-Za-z]", text), (locale, code, text)


def _played(tmp_path):
    path, season = running_season(tmp_path)
    season.clock.advance(62)
    season.bot.cycle()  # the first vote opens
    season.forum.player_pm("Alice", "vote Bob")
    season.forum.player_pm("Bob", "vote Nobodyhere")
    season.clock.advance(2)
    season.bot.cycle()
    season.forum.player_pm("Alice", "vote Carol")  # the first vote stands
    season.clock.advance(2)
    season.bot.cycle()
    return path, season


@pytest.mark.parametrize(("lang", "refused", "unknown", "command"), [
    ("zh-Hans", "已经投过票（首票有效）", "没有这个玩家 · Nobodyhere", "投票 Bob"),
    ("zh-Hant", "已經投過票（首票有效）", "沒有這個玩家 · Nobodyhere", "投票 Bob"),
    ("en", "vote · already voted (the first vote stands)", "no such player · Nobodyhere", "vote Bob"),
])
def test_the_inbound_log_words_its_codes_in_the_pages_locale(tmp_path, lang, refused, unknown, command):
    path, _ = _played(tmp_path)
    page = client([path]).get("/seasons/春季赛", params={"lang": lang})
    assert page.status_code == 200
    rows = page.text.split('<tr class="inbound-row">')[1:]
    cells = [html.unescape(re.findall(r"<td>(.*?)</td>", row, re.S)[4]) for row in rows]  # "read as"
    assert any(refused in c for c in cells), cells
    assert any(unknown in c for c in cells), cells
    assert any(command in c for c in cells), cells
    assert not any(code in c for c in cells for code in ("already_voted", "unknown_name")), cells


def test_the_search_finds_a_reading_by_its_words(tmp_path):
    path, _ = _played(tmp_path)
    page = client([path]).get("/seasons/春季赛", params={"lang": "zh-Hans", "q": "首票有效"})
    assert "vote Carol" in html.unescape(page.text) and "vote Nobodyhere" not in html.unescape(page.text)
