"""``forumbot demo``'s final output (without starting a forum: tests/e2e/test_demo.py plays a whole demo)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from forumbot.cli.demo import demo_folder, print_standings
from forumbot.replay import load_transcript, replay

TRANSCRIPT = Path(__file__).parent / "transcripts" / "sunlight_worked_example.yaml"


@pytest.mark.parametrize(("locale", "words"), [("zh-Hans", ["首任凶手", "幸存"]), ("zh-Hant", ["首任兇手"]),
                                               ("en", ["first killer"])])
def test_standings_use_the_final_posts_role_names(locale: str, words: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    game = replay(load_transcript(TRANSCRIPT)).game
    assert game.finished
    print_standings(game, locale)
    out = capsys.readouterr().out
    assert all(w in out.lower() for w in words), out
    assert "first_killer" not in out
    if locale != "en":
        assert not re.search("[a-z]{4}", out.split("Killers:")[1]), out  # no internal ids in the table


@pytest.mark.parametrize(("winner", "locale", "word"), [("killer", "zh-Hans", "历任凶手"), ("killer", "zh-Hant", "歷任兇手"),
                                                       ("killer", "en", "the killers"), ("good", "zh-Hans", "完全好人"),
                                                       (None, "zh-Hans", "nobody")])
def test_standings_name_the_winning_camp_in_the_final_posts_words(winner, locale, word, monkeypatch, capsys) -> None:
    """The newcomer's trial (2026-12-04): a rehearsal the killers won printed "Winner: killer" (a camp id)."""
    game = replay(load_transcript(TRANSCRIPT)).game
    final = game.ruleset.final_data
    monkeypatch.setattr(game.ruleset, "final_data", lambda: {**final(), "winner": winner})
    print_standings(game, locale)
    line = capsys.readouterr().out.split("\n")[1]
    assert line.startswith(f"Winner: {word}") and "win index" in line, line


def test_demo_folder_is_removed_unless_kept(capsys: pytest.CaptureFixture[str]) -> None:
    with demo_folder(keep=False) as folder:
        (folder / "season.sqlite").write_text("every private message", encoding="utf-8")
    assert not folder.exists()
    with demo_folder(keep=True) as kept:
        pass
    try:
        assert kept.exists() and str(kept) in capsys.readouterr().out
    finally:
        kept.rmdir()


def test_demo_refuses_a_bad_option_before_starting_the_forum(monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    import forumbot.testforum
    from forumbot.cli import app

    started: list[object] = []
    monkeypatch.setattr(forumbot.testforum, "start_forum", lambda *a, **k: started.append(a) or pytest.fail("started"))
    res = CliRunner().invoke(app, ["demo", "--locale", "fr", "--no-wait"])
    assert res.exit_code == 2 and not started, res.output
    assert res.output.strip() == "error: --locale: 'fr' is not allowed: write one of 'zh-Hans', 'zh-Hant' or 'en'", res.output
