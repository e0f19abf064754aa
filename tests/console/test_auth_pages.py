"""The console's real logins (forumbot.console.auth) through its pages: passwords, sign-in links delivered by
the season's bot, CSRF on every form, throttles, cookies, logout."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from console_helpers import running_season
from starlette.testclient import TestClient

from forumbot.console.app import create_app
from forumbot.console.auth import ACCOUNT_FAILURES, ADDRESS_FAILURES, COOKIE, ConsoleAuth
from forumbot.console.console_file import ConsoleFile
from forumbot.console.passwords import hash_password
from forumbot.console.source import SeasonSource

PASSWORD = "organiser's long password"
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def console(tmp_path, monkeypatch):
    """A console over one running season (organiser "Org", who has a console password), its auth and season."""
    monkeypatch.delenv("FORUMBOT_CONSOLE_SECRET", raising=False)
    path, season = running_season(tmp_path)
    ConsoleFile(tmp_path).set_password_hash("Org", hash_password(PASSWORD))
    clock = Clock()

    def make(base_url: str = "http://127.0.0.1:8765", more: tuple[Path, ...] = (), **options: Any
             ) -> tuple[TestClient, ConsoleAuth]:
        source = SeasonSource(files=[path, *more])
        auth = ConsoleAuth(source, tmp_path, clock=clock, **options)
        app = create_app(source, auth=auth, clock=season.clock)
        return TestClient(app, base_url=base_url, follow_redirects=False), auth

    return make, season, clock


def token(client: TestClient, page: str = "/login") -> str:
    res = client.get(page)
    assert res.status_code == 200, res.text
    return CSRF.search(res.text).group(1)


def log_in(client: TestClient, name: str = "Org", password: str = PASSWORD, **more: str):
    return client.post("/login", data={"csrf_token": token(client), "name": name, "password": password, **more})


def test_pages_need_a_login_and_a_password_opens_them(console):
    make, _, _ = console
    client, _ = make()
    res = client.get("/seasons/春季赛")
    assert res.status_code == 303 and res.headers["location"].startswith("/login?next=")
    res = log_in(client, next="/seasons/%E6%98%A5%E5%AD%A3%E8%B5%9B")
    assert res.status_code == 303 and res.headers["location"] == "/seasons/%E6%98%A5%E5%AD%A3%E8%B5%9B"
    page = client.get("/seasons/春季赛")
    assert page.status_code == 200 and "killer" in page.text  # the organiser sees the roles
    cookie = next(h for h in res.headers.get_list("set-cookie") if h.startswith(COOKIE))
    assert "httponly" in cookie.lower() and "samesite=lax" in cookie.lower()
    assert "secure" not in cookie.lower()  # plain http on the loopback address
    assert PASSWORD not in cookie


def test_a_wrong_password_or_a_stranger_is_refused_alike(console):
    make, _, _ = console
    client, _ = make()
    wrong = log_in(client, password="not the password at all")
    stranger = log_in(client, name="Stranger", password=PASSWORD)
    for res in (wrong, stranger):
        assert res.status_code == 401 and "Wrong name or password." in res.text
    assert client.get("/").status_code == 303  # still nobody


def test_a_form_without_its_csrf_token_is_refused(console):
    make, _, _ = console
    client, _ = make()
    client.get("/login")
    res = client.post("/login", data={"name": "Org", "password": PASSWORD})
    assert res.status_code == 403 and "security token" in res.text
    res = client.post("/login", data={"name": "Org", "password": PASSWORD, "csrf_token": "forged"})
    assert res.status_code == 403
    assert client.get("/").status_code == 303
    other, _ = make()  # another browser's token is not this one's
    res = client.post("/login", data={"name": "Org", "password": PASSWORD, "csrf_token": token(other)})
    assert res.status_code == 403


def test_failed_logins_are_throttled_per_account_then_freed(console):
    make, _, clock = console
    client, _ = make()
    for _ in range(ACCOUNT_FAILURES):
        assert log_in(client, password="wrong password, again").status_code == 401
    res = log_in(client)  # the right password, but too many failures
    assert res.status_code == 429 and "Too many failed logins: try again in 15 min." in res.text
    clock.now += 15 * 60
    assert log_in(client).status_code == 303


def test_failed_logins_are_throttled_per_address(console):
    make, _, _ = console
    client, _ = make()
    for i in range(ADDRESS_FAILURES):
        assert log_in(client, name=f"guess{i}", password="wrong password, again").status_code == 401
    assert log_in(client).status_code == 429  # Org never failed, but this address did


def test_a_login_never_sends_the_organiser_to_another_site(console):
    make, _, _ = console
    for target in ("//evil.example/", "https://evil.example/", "/\\evil.example", "javascript:alert(1)"):
        client, _ = make()
        res = log_in(client, next=target)
        assert res.status_code == 303 and res.headers["location"] == "/", target


def test_a_sign_in_link_by_private_message_signs_in_once_in_the_asking_browser(console):
    make, season, _ = console
    client, _ = make()
    res = client.post("/login/link", data={"csrf_token": token(client), "name": "Org"})
    assert res.status_code == 200 and "sign-in link" in res.text
    rows = [r for r in season.bot.store.outbox() if r.recipient == "Org"]
    assert len(rows) == 1 and rows[0].kind == "pm" and rows[0].status == "pending"
    season.bot.cycle()  # the season's judge delivers its outbox
    pms = season.forum.pms_to("Org")
    assert len(pms) == 1 and pms[0].subject.startswith("春季赛")
    link = re.search(r"http://127\.0\.0\.1:8765(/login/link/[0-9a-f]{64})", pms[0].body).group(1)
    other, _ = make()
    res = other.get(link)  # someone else who read the message
    assert res.status_code == 409 and "only in the browser that asked for it" in res.text
    res = client.get(link)
    assert res.status_code == 303 and res.headers["location"] == "/"
    assert client.get("/").status_code == 200
    fresh, _ = make()
    fresh.cookies = client.cookies  # the same browser again, logged out: the link is used up
    fresh.post("/logout", data={"csrf_token": token(fresh, "/logout")})
    assert fresh.get(link).status_code == 404


def test_a_link_for_a_stranger_sends_nothing_and_says_the_same(console):
    make, season, _ = console
    client, _ = make()
    before = len(season.bot.store.outbox())
    res = client.post("/login/link", data={"csrf_token": token(client), "name": "Stranger"})
    assert res.status_code == 200 and "If Stranger organises a running season here" in res.text
    assert len(season.bot.store.outbox()) == before


def test_links_are_offered_only_with_a_trusted_address(console):
    """A request's Host header is anyone's to write: without FORUMBOT_CONSOLE_URL only a loopback address is trusted."""
    make, season, _ = console
    client, _ = make(base_url="http://evil.example")
    res = client.post("/login/link", data={"csrf_token": token(client), "name": "Org"})
    assert res.status_code == 400 and "FORUMBOT_CONSOLE_URL" in res.text
    assert not [r for r in season.bot.store.outbox() if r.recipient == "Org"]
    client, _ = make(base_url="http://evil.example", public_url="https://judge.example.org/console", secure=False)
    assert client.post("/login/link", data={"csrf_token": token(client), "name": "Org"}).status_code == 200
    body = next(r.body for r in season.bot.store.outbox() if r.recipient == "Org")
    assert "https://judge.example.org/console/login/link/" in body and "evil.example" not in body


def test_an_https_address_makes_the_cookie_secure(console):
    make, _, _ = console
    client, _ = make(base_url="https://judge.example.org", public_url="https://judge.example.org")
    res = client.get("/login")
    cookie = next(h for h in res.headers.get_list("set-cookie") if h.startswith(COOKIE))
    assert "secure" in cookie.lower()


def test_link_requests_are_throttled(console):
    make, season, _ = console
    client, _ = make()
    codes = [client.post("/login/link", data={"csrf_token": token(client), "name": "Org"}).status_code
             for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    assert len([r for r in season.bot.store.outbox() if r.recipient == "Org"]) == 3


def test_logout_is_a_form_with_its_token(console):
    make, _, _ = console
    client, _ = make()
    log_in(client)
    page = client.get("/logout")
    assert page.status_code == 200 and 'id="logout-form"' in page.text
    assert client.post("/logout", data={}).status_code == 403
    assert client.get("/").status_code == 200  # a forged logout did nothing
    res = client.post("/logout", data={"csrf_token": CSRF.search(page.text).group(1)})
    assert res.status_code == 200 and "You are logged out." in res.text
    assert client.get("/").status_code == 303


def test_a_session_ends_after_its_hours(console):
    make, _, clock = console
    client, _ = make()
    log_in(client)
    clock.now += 12 * 3600 + 1
    assert client.get("/").status_code == 303


def test_the_login_page_speaks_the_seasons_language_or_the_asked_one(console):
    make, _, _ = console
    client, _ = make()
    assert "Organiser login" in client.get("/login").text
    assert "组织者登录" in client.get("/login?lang=zh-Hans").text
    assert "組織者登入" in client.get("/login?lang=zh-Hant").text


def test_may_steer_only_the_seasons_one_organises(console):
    make, _, _ = console
    client, auth = make()
    log_in(client)
    seen: dict = {}

    async def probe(scope, receive, send):
        from starlette.requests import Request

        request = Request(scope, receive)
        seen["mine"] = auth.may_steer(request, "春季赛", ["Org"])
        seen["theirs"] = auth.may_steer(request, "other", ["Someone"])
        await PlainTextResponse("")(scope, receive, send)

    from starlette.middleware.sessions import SessionMiddleware
    from starlette.responses import PlainTextResponse

    app = SessionMiddleware(probe, secret_key=auth.file.secret(), session_cookie=COOKIE)
    TestClient(app, base_url="http://127.0.0.1:8765", cookies=client.cookies).get("/")
    assert seen == {"mine": True, "theirs": False}


def test_logging_out_ends_the_login_in_every_browser(console):
    """A session cookie cannot be taken back: the organiser's login epoch in the console file ends the copies."""
    make, _, _ = console
    laptop, _ = make()
    phone, _ = make()
    log_in(laptop)
    log_in(phone)
    copied, _ = make()
    copied.cookies = laptop.cookies  # a cookie someone copied from the laptop
    assert copied.get("/").status_code == 200
    phone.post("/logout", data={"csrf_token": token(phone, "/logout")})
    assert laptop.get("/").status_code == 303 and copied.get("/").status_code == 303


def test_a_new_password_ends_the_sessions_of_the_old(console, tmp_path):
    make, _, _ = console
    client, _ = make()
    log_in(client)
    assert client.get("/").status_code == 200
    ConsoleFile(tmp_path).set_password_hash("Org", hash_password("a brand new password"))
    assert client.get("/").status_code == 303
    assert log_in(client, password="a brand new password").status_code == 303


def test_a_failed_login_logs_an_organisers_name_but_no_other(console, caplog):
    make, _, _ = console
    client, _ = make()
    with caplog.at_level("WARNING", logger="forumbot"):
        log_in(client, password="not the password at all")
        log_in(client, name="my secret password typed here", password="x" * 12)
    text = caplog.text
    assert "a failed login as 'Org'" in text
    assert "my secret password typed here" not in text and "a name that organises no season" in text


def test_an_organiser_of_another_season_sees_no_role_here(console, tmp_path):
    """An organiser of one season may play in another: its roles, inbound log and full report are not theirs."""
    from bot_helpers import Clock as SeasonClock
    from bot_helpers import Season, cli_season

    from forumbot.config import load_config
    from forumbot.forums.memory import MemoryForum

    make, _, _ = console
    other = tmp_path / "other"
    other.mkdir()
    path = other / "秋季赛.toml"
    path.write_text(cli_season("秋季赛", ["Org", "Bob", "Carol", "Dave", "Erin"]).replace(
        'organisers = ["Org"]', 'organisers = ["Boss"]'), encoding="utf-8")
    config = load_config(path)
    clock = SeasonClock()
    Season(config, MemoryForum("judge", clock), clock, config.database_url).bot.cycle()
    client, _ = make(more=(path,))
    log_in(client)
    assert client.get("/seasons/春季赛").status_code == 200
    for page in ("/seasons/秋季赛", "/seasons/秋季赛/report/full/"):
        res = client.get(page)
        assert res.status_code == 403 and "not one you organise" in res.text, page
        assert "killer" not in res.text.lower()
    rows = re.findall(r"<tr>\s*<td>.*?</tr>", client.get("/").text, re.S)
    mine, theirs = (next(r for r in rows if name in r) for name in ("春季赛", "秋季赛"))
    assert "sent" in mine.lower() and "sent" not in theirs.lower()  # its outbox counts are its organisers'


def test_no_link_goes_through_a_season_that_has_not_started(tmp_path, monkeypatch):
    """A season waiting for its start has a store but no thread yet: a private message queued before the start
    would keep the start from opening the thread (it opens one only into an empty outbox)."""
    monkeypatch.delenv("FORUMBOT_CONSOLE_SECRET", raising=False)
    path, season = running_season(tmp_path, cycles=0)
    auth = ConsoleAuth(SeasonSource(files=[path]), tmp_path, clock=Clock())
    client = TestClient(create_app(SeasonSource(files=[path]), auth=auth, clock=season.clock),
                        base_url="http://127.0.0.1:8765", follow_redirects=False)
    res = client.post("/login/link", data={"csrf_token": token(client), "name": "Org"})
    assert res.status_code == 200
    assert season.bot.store.outbox() == []
    season.bot.cycle()
    assert season.bot.thread_id is not None


def test_a_console_file_that_cannot_be_read_is_a_message_page(console, tmp_path):
    make, _, _ = console
    client, _ = make()
    form = {"csrf_token": token(client), "name": "Org", "password": PASSWORD}
    (tmp_path / ".forumbot-console.json").write_text("{broken", encoding="utf-8")
    res = client.post("/login", data=form)
    assert res.status_code == 500 and "Traceback" not in res.text and "operator" in res.text


def test_a_login_form_that_is_not_a_form_gets_the_page_not_a_500(console):
    make, _, _ = console
    client, _ = make()
    token(client)
    for path in ("/login", "/login/link", "/logout"):
        broken = client.post(f"{path}?lang=zh-Hans", content=b"\xff" * 10,
                             headers={"content-type": "multipart/form-data; boundary=b"})
        assert broken.status_code == 403 and "Traceback" not in broken.text, (path, broken.text)
        assert 'lang="zh-Hans"' in broken.text
    latin = client.post("/login", content=b"csrf_token=x&name=\xff\xfe&password=\xff",
                        headers={"content-type": "application/x-www-form-urlencoded"})
    assert latin.status_code == 403 and "Traceback" not in latin.text
