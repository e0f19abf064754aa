"""`forumbot replay`'s closing standings are in the game's language and words: the winner as the report page
says it (游戏结束 · 胜方: 好人, not "over: 好人 won"), 《阳光下的罪恶》's 凶手 (not 杀手), seats, fates."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from forumbot.cli import app

TRANSCRIPTS = Path(__file__).resolve().parent.parent / "transcripts"


def standings(name: str, *args: str) -> list[str]:
    out = CliRunner().invoke(app, ["replay", str(TRANSCRIPTS / f"{name}.yaml"), *args])
    assert out.exit_code == 0, out.output
    text = out.stdout
    return text[text.rindex("=== "):].splitlines()


def test_the_standings_speak_the_games_language():
    zh = standings("sunlight_worked_example")
    assert zh[:3] == ["=== 最终排名 ===", "游戏结束 · 胜方: 好人", "胜负指数: 0.3699"]
    assert zh[4].split() == ["2", "B", "2", "号位", "凶手", "出局", "8"]  # the game says 凶手
    assert not any("won" in line or "over" in line or "杀手" in line or "alive" in line for line in zh)
    en = standings("sunlight_worked_example", "--locale", "en")
    assert en[:2] == ["=== Final standings ===", "Game over · Winner: Goods"] and "seat 2" in en[4]
    hant = standings("killer_club_full_game")
    assert hant[1] == "遊戲結束 · 勝方: 警察方" and all(line == line.rstrip() for line in hant)
