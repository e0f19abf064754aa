"""The organiser's console in a real browser: Debian's chromium driven by Playwright (its own browser download
is not used), a season judged by ``forumbot run`` on the test FlaskBB, and the console beside it (uvicorn in
this process, over the season's database, as ``forumbot run FILE --web`` serves it).

- An organiser logs in (a wrong password and a form without its CSRF token are refused first), sees the running
  season, finds a player's private message in the inbound log, extends the deadline and sees the thread's new
  post with the later deadline, pauses and resumes; a sign-in link asked for in another browser reaches the
  organiser's forum inbox through the season's outbox and signs that browser in, once.
- A visitor without a login reads every public page of a season in each of its phase kinds (prologue, vote,
  poll, kill) and finds no role and no private message; the organiser pages send the visitor to the login.

Screenshots of each page go to ``FORUMBOT_SCREENSHOTS`` (a folder; e.g. ``docs/images`` to refresh the docs'
pictures), else to the test's temporary folder.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest
from season_driver import (
    BotProcess,
    Players,
    deadline_in,
    judge_posts,
    phase_posts,
    thread_of,
    wait_for,
    write_season,
)

from forumbot.testforum import start_forum

pytestmark = pytest.mark.e2e

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
playwright_api = pytest.importorskip("playwright.sync_api")
if CHROMIUM is None:
    pytest.skip("Debian's chromium is not installed", allow_module_level=True)

EXAMPLE_PLAYERS = list("ABCDEFG")
CJK_PLAYERS = ["小明", "小红", "阿强", "阿珍", "老王", "老李", "小芳"]
PASSWORD = "主持人的控制台密码 2026"
#: what no public page may show before the game is over: role words (in its text: the public report carries
#: every ruleset's camp names in its page script, "Killers" among them), and anywhere in the page the private
#: messages of the worked example, the organiser pages' sections and a player's role in the report's data
SHOWN_SECRETS = ("Killer", "killer")
PAGE_SECRETS = ("杀 E", "投 B D", "接任 B", "Inbound log", "Outbox", '"role": "')


def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("FORUMBOT_SCREENSHOTS") or tmp_path / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="module")
def forum() -> Iterator:
    with start_forum(players=[*EXAMPLE_PLAYERS, *CJK_PLAYERS, "Org"], judge="法官") as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator:
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        try:
            yield b
        finally:
            b.close()


class Console:
    """The console of one season file as ``forumbot run FILE --web`` serves it (uvicorn in a thread, here of this
    process, on 127.0.0.1), with the organiser's password set by ``forumbot console-password``."""

    def __init__(self, config: Path, public: bool = False) -> None:
        from typer.testing import CliRunner

        from forumbot.cli import app

        res = CliRunner().invoke(app, ["console-password", str(config), "Org", "--password-stdin"], input=f"{PASSWORD}\n")
        assert res.exit_code == 0, res.output
        self.config, self.public = config, public

    def __enter__(self) -> Console:
        from forumbot.console.server import file_console

        self.server = file_console(self.config, None, "127.0.0.1", 0, self.public).start()
        self.url = f"http://127.0.0.1:{self.server.port}"

        def up() -> bool:
            try:
                return httpx.get(self.url + "/login", timeout=5).status_code == 200
            except httpx.TransportError:
                return False

        wait_for(up, "the console to answer", lambda: self.server.thread.is_alive(), patience=60)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.stop()


def start_season(folder: Path, forum, players: list[str], roles: dict[str, str], name: str, locale: str,
                 length: float, lengths: str = "") -> tuple[Path, BotProcess]:
    folder.mkdir(parents=True, exist_ok=True)
    start = datetime.now(UTC).replace(microsecond=0) + timedelta(seconds=3)
    config = write_season(folder, forum, players, start, length, roles, ["Org"], name=name, locale=locale)
    if lengths:
        text = config.read_text(encoding="utf-8").replace("[schedule]\n", f"[schedule]\nlengths = {{ {lengths} }}\n")
        config.write_text(text, encoding="utf-8")
    os.environ["FORUMBOT_E2E_PASSWORD"] = forum.judge.password  # the console's read-only bot reads the file too
    bot = BotProcess(config, forum, folder / "bot.log")
    bot.start()
    return config, bot


def submit(page, form: str, status: int | None = None):
    """Submit ``form`` (a CSS selector) by its button and wait for the page it leads to; returns that response."""
    with page.expect_navigation() as nav:
        page.locator(f"{form} button[type=submit], {form} button").first.click()
    response = nav.value
    if status is not None:
        assert response is not None and response.status == status, (response.status if response else None, page.content())
    return response


def steer(page, tmp: Path, action: str, bot: BotProcess, shot: str | None = None, **fields: str) -> None:
    """Give ``action`` from the season page's form, confirm it, and come back to the season page."""
    form = f"form:has(input[name=action][value={action}])"
    for name, value in fields.items():
        page.locator(f"{form} [name={name}]").fill(value)
    submit(page, form, 200)
    assert page.locator("code.command").inner_text().startswith(action)
    if shot:
        page.screenshot(path=str(tmp / shot), full_page=True)
    submit(page, "section.confirm form", 200)
    assert page.locator("#steered").is_visible()


def test_organiser_logs_in_finds_a_message_and_steers_the_season(tmp_path, forum, browser):
    images = shots(tmp_path)
    config, bot = start_season(tmp_path / "steer", forum, CJK_PLAYERS, {"阿强": "killer"}, "春季赛", "zh-Hans",
                               length=600)
    wait_for(lambda: thread_of(config), "the season's thread", bot.signs, tail=bot.log_tail)
    hello = "法官你好，我是小明，报个到"
    player = forum.client("小明")
    try:
        player.send_pm(forum.judge.name, "报到", hello)
    finally:
        player.close()

    with Console(config) as console:
        context = browser.new_context(locale="zh-CN", viewport={"width": 1280, "height": 900})
        page = context.new_page()
        # a visitor is sent to the login page
        page.goto(console.url + "/")
        assert page.url.startswith(console.url + "/login?next=")
        page.screenshot(path=str(images / "console-login.png"), full_page=True)
        for lang, title in (("en", "Organiser login"), ("zh-Hant", "組織者登入")):
            page.goto(f"{console.url}/login?lang={lang}")
            assert page.locator("section.login h2").inner_text() == title
            page.screenshot(path=str(images / f"console-login-{lang}.png"), full_page=True)
        page.goto(console.url + "/login")
        # a wrong password is refused
        page.fill("#password-form [name=name]", "Org")
        page.fill("#password-form [name=password]", "not the password at all")
        submit(page, "#password-form", 401)
        assert page.locator("#login-error").inner_text() == "用户名或密码错误。"
        page.screenshot(path=str(images / "console-login-refused.png"), full_page=True)
        # a form without its CSRF token is refused, even with the right password
        page.evaluate("document.querySelector('#password-form [name=csrf_token]').remove()")
        page.fill("#password-form [name=password]", PASSWORD)
        submit(page, "#password-form", 403)
        assert "安全令牌" in page.locator("#login-error").inner_text()
        # the right password, with the form's token: on to the page asked for (the seasons)
        page.goto(console.url + "/login?next=%2F")
        page.fill("#password-form [name=name]", "Org")
        page.fill("#password-form [name=password]", PASSWORD)
        submit(page, "#password-form", 200)
        assert page.url == console.url + "/"
        assert page.locator("table.seasons").inner_text().count("春季赛") >= 1
        page.screenshot(path=str(images / "console-seasons.png"), full_page=True)

        # the player's private message in the inbound log, found by player
        season_url = f"{console.url}/seasons/{quote('春季赛')}"

        def logged() -> bool:
            page.goto(f"{season_url}?player={quote('小明')}#inbound")
            return hello in page.locator("section.inbound").inner_text()

        wait_for(logged, "小明's private message in the inbound log", bot.signs, tail=bot.log_tail, every=1.0)
        row = page.locator("tr.inbound-row", has_text=hello)
        assert row.count() == 1 and "小明" in row.inner_text()
        assert "阿强" in page.locator("section.players").inner_text()  # the organiser sees the roles
        page.screenshot(path=str(images / "console-season.png"), full_page=True)

        # extend: confirmed, stored, applied by the bot: the thread gets a post with the later deadline
        thread = thread_of(config)
        before = judge_posts(forum, thread)
        old = max(d for d in (deadline_in(t) for t in before) if d is not None)
        steer(page, images, "extend", bot, shot="console-confirm.png", duration="1h")

        def extended() -> str | None:
            return next((t for t in judge_posts(forum, thread)[len(before):] if "延长" in t), None)

        post = wait_for(extended, "the thread's post of the extension", bot.signs, tail=bot.log_tail, every=1.0)
        assert deadline_in(post) == old + timedelta(hours=1), post
        # pause, then resume: each a post in the thread, and the season page's state follows
        steer(page, images, "pause", bot)
        wait_for(lambda: any("暂停" in t for t in judge_posts(forum, thread)[len(before):]), "the pause post",
                 bot.signs, tail=bot.log_tail, every=1.0)

        def paused_page() -> bool:
            page.goto(season_url)
            return page.locator("form:has(input[name=action][value=resume])").count() == 1

        wait_for(paused_page, "the season page to show the season paused", bot.signs, every=1.0)
        steer(page, images, "resume", bot)
        wait_for(lambda: any("游戏继续" in t for t in judge_posts(forum, thread)[len(before):]), "the resume post",
                 bot.signs, tail=bot.log_tail, every=1.0)
        page.goto(f"{console.url}/logout")
        page.screenshot(path=str(images / "console-logout.png"), full_page=True)
        submit(page, "#logout-form", 200)
        page.goto(season_url)
        assert "/login" in page.url

        # a sign-in link by private message, asked for in another browser, through the season's outbox
        other = browser.new_context(viewport={"width": 1280, "height": 900})
        page2 = other.new_page()
        page2.goto(console.url + "/login")
        page2.fill("#link-form [name=name]", "Org")
        submit(page2, "#link-form", 200)
        assert page2.locator("#login-note").is_visible()
        page2.screenshot(path=str(images / "console-link-sent.png"), full_page=True)
        organiser = forum.client("Org")

        def link_received() -> str | None:
            for m in organiser.private_messages():
                if m.sender == forum.judge.name and (found := re.search(r"/login/link/[0-9a-f]{64}", m.body)):
                    return found.group(0)
            return None

        try:
            link = wait_for(link_received, "the sign-in link in Org's forum inbox", bot.signs, tail=bot.log_tail,
                            every=1.0)
        finally:
            organiser.close()
        elsewhere = browser.new_context().new_page()  # someone else who read the message cannot use it
        response = elsewhere.goto(console.url + link)
        assert response is not None and response.status == 409
        response = page2.goto(console.url + link)
        assert response is not None and response.status == 200 and page2.url == console.url + "/"
        assert "春季赛" in page2.locator("table.seasons").inner_text()
        response = page2.goto(console.url + link)  # used once
        assert response is not None and response.status == 404
        other.close()
        elsewhere.context.close()
        context.close()
    bot.stop()


def test_public_pages_show_no_role_in_any_phase(tmp_path, forum, browser):
    images = shots(tmp_path)
    example = Path(__file__).parent.parent / "transcripts" / "sunlight_worked_example.yaml"
    import yaml

    phases = [[tuple(m) for m in p.get("messages", [])] for p in yaml.safe_load(example.read_text("utf-8"))["phases"]]
    config, bot = start_season(tmp_path / "public", forum, EXAMPLE_PLAYERS, {"C": "killer"}, "e2e", "en", length=15,
                               lengths='prologue = "6s", poll = "8s", kill = "8s"')
    driver = Players(forum, phases[:3], thread_id=lambda: thread_of(config), over=bot.finished, progress=bot.signs,
                     tail=bot.log_tail)
    sender = driver.thread()
    reader = forum.client()
    with Console(config, public=True) as console:
        visitor = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        organiser = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        organiser.goto(console.url + "/login")
        organiser.fill("#password-form [name=name]", "Org")
        organiser.fill("#password-form [name=password]", PASSWORD)
        submit(organiser, "#password-form", 200)
        public = ["/public", "/public/e2e", "/public/e2e/report/"]
        private = ["/", "/seasons/e2e", "/seasons/e2e/report/full/", "/seasons/e2e/report/public/"]
        read_in: set[int] = set()
        posts: list = []

        def read_every_page() -> None:
            phase = len(posts)  # 0: the prologue; k: the k-th phase after it
            for path in public:
                response = visitor.goto(console.url + path)
                assert response is not None and response.status == 200, (path, response.status if response else None)
                html, text = visitor.content(), visitor.inner_text("body")
                leaked = [s for s in SHOWN_SECRETS if s in text] + [s for s in PAGE_SECRETS if s in html]
                assert not leaked, f"{path} in phase {phase} shows {leaked}"
            for path in private:
                visitor.goto(console.url + path)
                assert "/login" in visitor.url, path
            read_in.add(phase)

        def progressed() -> bool:
            thread = thread_of(config)
            posts[:] = phase_posts(reader.thread_posts(thread), forum.judge.name) if thread else []
            return len(posts) >= 4

        seen: list = [None]

        def step() -> bool:
            """Read every page whenever the bot did something; done once round 3's vote opens (the game's phase
            kinds all seen)."""
            if thread_of(config) and bot.signs() != seen[0]:
                seen[0] = bot.signs()
                read_every_page()
            assert not driver.errors, driver.errors
            assert not bot.exited(), bot.log_tail()
            return progressed()

        wait_for(step, "round 3's vote to open", bot.signs, tail=bot.log_tail, every=0.5)
        read_every_page()
        assert read_in == {0, 1, 2, 3, 4}, read_in
        # the secrets are real: the organiser's own page shows the killer and the private messages
        organiser.goto(console.url + "/seasons/e2e")
        assert "接任 B" in organiser.content() and "杀 E" in organiser.content()
        assert "Killer" in organiser.inner_text("section.players")
        organiser.goto(console.url + "/seasons/e2e/report/full/")
        assert '"role": "killer"' in organiser.content()
        visitor.goto(console.url + "/public/e2e")
        visitor.screenshot(path=str(images / "console-public-season.png"), full_page=True)
        visitor.goto(console.url + "/public")
        visitor.screenshot(path=str(images / "console-public.png"), full_page=True)
    reader.close()
    bot.stop()
    sender.join(timeout=60)
