"""The renderer looks a key's template file up once (issue 30: the search for ``KEY.<markup>.j2`` missed on every
render, and Jinja does not keep misses), and a markup's own file still wins over the plain one."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from forumbot.render import Renderer


def test_the_search_for_a_markup_file_is_made_once_a_key(monkeypatch: pytest.MonkeyPatch) -> None:
    r = Renderer("en", "markdown")
    asked: list[str] = []
    loader: Any = r.env.loader
    get_source = loader.get_source

    def spy(env: Any, name: str) -> Any:
        asked.append(name)
        return get_source(env, name)

    monkeypatch.setattr(loader, "get_source", spy)
    first = r.render("common/game_over", {"verb": "vote"})
    assert r.render("common/game_over", {"verb": "vote"}) == first
    assert asked.count("common/game_over.markdown.j2") == 1


def test_a_markup_file_still_wins_and_an_edit_on_disk_is_read(tmp_path: Path) -> None:
    own = tmp_path / "en" / "common" / "game_over.bbcode.j2"
    own.parent.mkdir(parents=True)
    own.write_text("over ({{ verb }})", encoding="utf-8")
    r = Renderer("en", "bbcode", overrides=tmp_path)
    assert r.render("common/game_over", {"verb": "vote"}) == "over (vote)\n"
    assert "not recorded" in Renderer("en", "markdown", overrides=tmp_path).render("common/game_over", {"verb": "vote"})
    own.write_text("finished ({{ verb }})", encoding="utf-8")
    os.utime(own, (own.stat().st_atime + 5, own.stat().st_mtime + 5))  # a later modification time
    assert r.render("common/game_over", {"verb": "vote"}) == "finished (vote)\n"
