"""An adversarial read of the console by a visitor without a login, an organiser of another season, and on the
public pages: every page and method, before and after the night's private messages, tells nothing the thread did
not (no role, no private message, no outbox count or timing that moves with them); error pages name no database
and no season file's contents."""

from __future__ import annotations

import html
import re

from console_helpers import client, running_season

from forumbot.console.source import SeasonSource, SeasonUnavailable

URLS = ["/", "/seasons/春季赛", "/seasons/春季赛?page=abc", "/seasons/春季赛?lang=zh-Hans&player=Carol",
        "/seasons/春季赛/report/public/", "/seasons/春季赛/report/full/", "/seasons/春季赛/steer",
        "/public", "/public?lang=zh-Hant", "/public/春季赛", "/public/春季赛/report/", "/public/nope",
        "/seasons/nope", "/nothing", "/static/../../config.py", "/seasons/春季赛/report/public/assets/..%2f..%2fapp.py",
        "/login?next=//evil.example/", "/login?next=/seasons/春季赛"]


def _snapshot(path, clock) -> dict:
    """Every page for a visitor and for another season's organiser, with GET, HEAD and POST: (status, location,
    body without the countdown's instant)."""
    out = {}
    for who in (None, "Mallory"):
        c = client([path], who=who, public=True, clock=clock)
        for url in URLS:
            for method in ("GET", "HEAD", "POST"):
                r = c.request(method, url)
                out[who, method, url] = (r.status_code, r.headers.get("location"), re.sub(r'datetime="[^"]*"', "", r.text))
    return out


def test_nothing_moves_with_the_nights_private_messages(tmp_path):
    path, season = running_season(tmp_path)
    g = season.bot.game
    seen = []
    while not g.finished and len(seen) < 4:
        season.clock.advance(60 * 60 * 30)
        season.bot.cycle()
        before = _snapshot(path, season.clock)
        for who, text in (("Carol", "kill Alice"), ("Bob", "vote Carol"), ("Dave", "status"), ("Erin", "blah")):
            season.forum.player_pm(who, text)
        season.clock.advance(1)
        season.bot.cycle()
        after = _snapshot(path, season.clock)
        changed = [k for k in before if before[k] != after[k]]
        assert not changed, (g.phase.kind, changed)
        seen.append(g.phase.kind)
        for (who, method, url), (status, location, body) in after.items():
            assert status < 500, (who, method, url)
            text = html.unescape(body)
            assert "Killer" not in text and "killer" not in text.replace("Killer Club", ""), (who, url)
            assert "kill Alice" not in text and "vote Carol" not in text, (who, url)
            assert location is None or location.startswith(("/", "http://testserver/")), location
            assert "evil.example" not in (location or "")
    assert "kill" in seen  # a night was read


def test_a_file_that_is_not_a_season_file_is_named_not_quoted(tmp_path):
    path, _ = running_season(tmp_path)
    text = path.read_text(encoding="utf-8").replace('roles = { "Carol" = "killer" }',
                                                     'roles = { "Carol" = "killer", "Bob" = 3 }')
    (tmp_path / "broken.toml").write_text(text, encoding="utf-8")
    page = html.unescape(client(directory=tmp_path, who="Mallory").get("/").text)
    assert "Not a season file" in page and "broken.toml" in page
    assert "Bob" not in page and "roles" not in page and str(tmp_path) not in page


def test_a_database_that_cannot_be_read_is_not_described_to_a_visitor(tmp_path, monkeypatch):
    path, _ = running_season(tmp_path)

    def down(self, config):
        raise SeasonUnavailable("the database postgresql://judge@secret-host/forumbot cannot be read (refused)")

    monkeypatch.setattr(SeasonSource, "season", down)
    public = client([path], who=None, public=True).get("/public/春季赛")
    assert public.status_code == 503 and "secret-host" not in public.text
    organiser = client([path], public=True).get("/seasons/春季赛")
    assert organiser.status_code == 503 and "secret-host" in organiser.text  # the operator's own page says why
