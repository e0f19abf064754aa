"""One-time sign-in links (forumbot.console.login_link) and the console file that keeps them hashed
(forumbot.console.console_file)."""

from __future__ import annotations

import hashlib
import stat
import threading

from forumbot.console.console_file import FILE_NAME, ConsoleFile
from forumbot.console.login_link import LINK_SECONDS, TEMPLATE, LinkTokens, sign_in_pm


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def test_a_link_signs_in_once_in_the_browser_that_asked_for_it(tmp_path):
    links = LinkTokens(ConsoleFile(tmp_path), Clock())
    issued = links.issue("Org", "nonce-of-the-browser", "S1")
    assert len(issued.token) == 64 and issued.key.startswith("console-sign-in:")
    assert links.redeem(issued.token, "another-browser") == (None, "other_browser")
    assert links.redeem(issued.token, None) == (None, "other_browser")
    assert links.redeem(issued.token, "nonce-of-the-browser") == ("Org", "ok")  # still valid after the wrong browser
    assert links.redeem(issued.token, "nonce-of-the-browser") == (None, "unknown")  # single use
    assert links.redeem("0" * 64, "nonce-of-the-browser") == (None, "unknown")


def test_a_link_expires(tmp_path):
    clock = Clock()
    links = LinkTokens(ConsoleFile(tmp_path), clock)
    issued = links.issue("Org", "n", "S1")
    clock.now += LINK_SECONDS - 1
    kept = links.issue("Org", "n", "S1")
    clock.now += 1
    assert links.redeem(issued.token, "n") == (None, "expired")
    assert links.redeem(issued.token, "n") == (None, "unknown")  # removed when found expired
    assert links.redeem(kept.token, "n") == ("Org", "ok")


def test_the_file_keeps_hashes_only_and_is_private(tmp_path):
    links = LinkTokens(ConsoleFile(tmp_path), Clock())
    issued = links.issue("Org", "the-nonce", "S1")
    text = (tmp_path / FILE_NAME).read_text(encoding="utf-8")
    assert issued.token not in text and "the-nonce" not in text
    assert hashlib.sha256(issued.token.encode()).hexdigest() in text
    assert stat.S_IMODE((tmp_path / FILE_NAME).stat().st_mode) == 0o600


def test_expired_links_are_dropped_when_a_new_one_is_issued(tmp_path):
    clock = Clock()
    file = ConsoleFile(tmp_path)
    links = LinkTokens(file, clock)
    for _ in range(5):
        links.issue("Org", "n", "S1")
    clock.now += LINK_SECONDS
    links.issue("Org", "n", "S1")
    assert len(file.read()["links"]) == 1


def test_changes_from_two_writers_are_both_kept(tmp_path):
    """Two console processes (here: two threads, each its own ConsoleFile) issuing links at once lose none."""
    def issue(n: int) -> None:
        links = LinkTokens(ConsoleFile(tmp_path), Clock())
        for i in range(20):
            links.issue(f"Org{n}", f"nonce{i}", "S1")

    threads = [threading.Thread(target=issue, args=(n,)) for n in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(ConsoleFile(tmp_path).read()["links"]) == 60


def test_the_secret_is_made_once_and_the_environment_overrides_it(tmp_path, monkeypatch):
    monkeypatch.delenv("FORUMBOT_CONSOLE_SECRET", raising=False)
    first = ConsoleFile(tmp_path).secret()
    assert len(first) >= 32 and ConsoleFile(tmp_path).secret() == first
    monkeypatch.setenv("FORUMBOT_CONSOLE_SECRET", "from-the-environment-" * 3)
    assert ConsoleFile(tmp_path).secret() == "from-the-environment-" * 3


def test_a_broken_console_file_is_one_clear_error(tmp_path):
    import pytest

    from forumbot.console.console_file import ConsoleFileError

    (tmp_path / FILE_NAME).write_text("{not json", encoding="utf-8")
    with pytest.raises(ConsoleFileError, match="is not the console's JSON file"):
        ConsoleFile(tmp_path).password_hash("Org")


def _season(tmp_path, locale="en"):
    from forumbot.config import SeasonConfig
    from forumbot.migrations import upgrade
    from forumbot.runtime.store import Store, make_engine

    config = SeasonConfig.model_validate({
        "name": "S1", "ruleset": "sunlight", "locale": locale, "organisers": ["Org_1"], "players": list("ABCDEFG"),
        "forum": {"engine": "flaskbb", "base_url": "http://127.0.0.1:1", "username": "judge",
                  "password_env": "X", "thread_id": 1},
    })
    engine = make_engine(f"sqlite:///{tmp_path / 's.db'}")
    upgrade(engine)
    return config, Store.open_season(engine, "S1", "1", {})


def test_the_link_goes_through_the_seasons_outbox_once(tmp_path):
    config, store = _season(tmp_path)
    link = "http://127.0.0.1:8000/login/link/" + "ab" * 32
    for _ in range(2):  # asked twice with the same key (a retried request): queued once
        sign_in_pm(store, config, "Org_1", link, "console-sign-in:k1")
    rows = store.outbox()
    assert len(rows) == 1
    row = rows[0]
    assert (row.kind, row.recipient, row.status, row.template) == ("pm", "Org_1", "pending", TEMPLATE)
    assert row.subject == "S1 · Judge"
    assert link in row.body and "Org\\_1" in row.body and "15 minutes" in row.body  # the name escaped for Markdown


def test_the_link_message_is_in_the_seasons_locale(tmp_path):
    config, store = _season(tmp_path, "zh-Hant")
    sign_in_pm(store, config, "Org_1", "http://127.0.0.1:8000/login/link/ff", "console-sign-in:k2")
    assert "登入" in store.outbox()[0].body and "法官" in store.outbox()[0].subject


def test_no_other_token_or_nonce_redeems_a_link(tmp_path):
    """Property: whatever token and nonce are tried, only the issued pair signs in (hypothesis)."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    links = LinkTokens(ConsoleFile(tmp_path), Clock())
    issued = links.issue("Org", "the-nonce", "S1")

    @settings(max_examples=60, deadline=None)
    @given(st.text(alphabet="0123456789abcdef", min_size=0, max_size=64) | st.text(max_size=80),
           st.one_of(st.none(), st.text(max_size=40)))
    def tried(token: str, nonce: str | None) -> None:
        name, _ = links.redeem(token, nonce)
        assert name is None or (token == issued.token and nonce == "the-nonce")

    tried()
    assert links.redeem(issued.token, "the-nonce") == ("Org", "ok")
