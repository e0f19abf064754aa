"""A season with ``vote_chart_images`` on the fake Discuz! (its uploads answer as a real X3.5's do, captures
``utf8-attach*/``): every vote-result post carries its round's PNG chart, and crashes around the upload
never double a post nor lose the picture (issue 13; the outbox rule of docs/runtime.md)."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
from discuz_helpers import Site
from test_discuz_season import PLAYERS, example_phases, make_config

from forumbot.forums.discuz import DiscuzForum
from forumbot.runtime.bot import Bot
from forumbot.runtime.store import make_engine

TAG = re.compile(r"\n\[attachimg\](\d+)\[/attachimg\]")


class Crash(BaseException):
    """The process dies here (SIGKILL): nothing after this line runs."""


class Run:
    """The worked example's season on ``site``; a :class:`Crash` inside a cycle restarts the bot (a new
    process: a new adapter, the same database)."""

    def __init__(self, tmp_path: Path, site: Site, charts: bool):
        self.site = site
        config = make_config(tmp_path, site)
        self.config = config.model_copy(update={"vote_chart_images": charts})
        self.db = f"sqlite:///{tmp_path / 'season.db'}"
        self.crashes = 0
        self.bot = self.new_bot()

    def new_bot(self) -> Bot:
        clock = self.site.clock
        return Bot(self.config, self.site.client(retries=0), clock=clock, engine=make_engine(self.db), sleep=clock.advance)

    def cycle(self) -> None:
        try:
            self.bot.cycle()
        except Crash:
            self.crashes += 1
            self.bot = self.new_bot()

    def catch_up(self) -> None:
        for _ in range(500):
            if not self.bot.store.outbox(("pending", "sending")):
                return
            self.site.clock.advance(1)
            self.cycle()

    def play(self) -> None:
        clock = self.site.clock
        self.cycle()
        self.catch_up()
        clock.now = self.bot.deadline() + timedelta(seconds=2)
        self.cycle()
        for messages in example_phases():
            clock.advance(3)
            for sender, text in messages:
                self.site.fake.player_pm(sender, "法官", text)
                clock.advance(0.5)
                self.cycle()
            self.catch_up()
            clock.now = self.bot.deadline() + timedelta(seconds=2) if self.bot.deadline() else clock.now
            self.cycle()
            self.catch_up()
        for _ in range(3):
            clock.advance(70)
            self.cycle()
        assert self.bot.game.finished and self.bot.done()

    def judge_posts(self):
        return [p for p in self.site.fake.threads[self.bot.thread_id].posts if p.author.name == "法官"]


def season(tmp_path: Path, name: str, charts: bool = True) -> tuple[Run, Site]:
    (tmp_path / name).mkdir()
    site = Site()
    for player in [*PLAYERS, "Org"]:
        site.fake.add_user(player)
    return Run(tmp_path / name, site, charts), site


TIME = re.compile(r"\w{3} \d{2} \w{3} \d{4} \d{2}:\d{2}(?::\d{2})? UTC")


def plain(texts: list[str]) -> list[str]:
    """Post texts without picture tags and with times as <time> (a post that went out late moves its
    phase's deadline: docs/runtime.md, post_delay)."""
    return [TIME.sub("<time>", TAG.sub("", t)) for t in texts]


@pytest.fixture(scope="module")
def calm(tmp_path_factory):
    """Crash-free seasons: (post texts with the option off, the run and site with it on)."""
    tmp = tmp_path_factory.mktemp("calm")
    off, site_off = season(tmp, "off", charts=False)
    off.play()
    assert not any(module in ("forumupload", "checkpost") for _, module in site_off.fake.log)
    on, site_on = season(tmp, "on")
    on.play()
    site_off.close()
    site_on.close()
    return [p.text for p in off.judge_posts()], on, site_on


def test_every_vote_result_post_carries_its_chart_and_the_text_is_unchanged(calm):
    off, on, _ = calm
    texts = [p.text for p in on.judge_posts()]
    assert [TAG.sub("", t) for t in texts] == off  # option off: the same posts, without pictures
    charted = [t for t in texts if TAG.search(t)]
    assert len(charted) == 4  # the worked example's vote rounds 1, 3, 5, 7
    assert all(len(TAG.findall(t)) == 1 and "results[/b]" in t and "Points received" in t for t in charted)


def test_uploads_are_named_by_their_posts_and_are_pngs(calm):
    _, run, site = calm
    fake = site.fake
    posts = [p for p in run.judge_posts() if p.attachments]
    assert len(posts) == 4 and fake.unused == set() and len(fake.attachments) == 4
    for p in posts:
        (aid,) = p.attachments
        assert f"[attachimg]{aid}[/attachimg]" in p.text
        assert fake.attachments[aid][1].startswith(b"\x89PNG\r\n\x1a\n") and len(fake.attachments[aid][1]) > 5000
    rows = [r for r in run.bot.store.outbox() if r.image_json]
    assert sorted(r.image_ref for r in rows) == sorted(p.attachments[0] for p in posts)
    assert fake.log.count(("POST", "forumupload")) == 4


def test_crashes_and_a_lost_upload_answer_neither_double_a_post_nor_lose_a_picture(tmp_path, monkeypatch, calm):
    """Round 1: the process dies after the picture's id was stored, before the post is written. Round 3: it
    dies after the forum wrote the post, before the outbox knew. Either way the restarted bot looks for the
    post after the request horizon and posts it (naming the same upload) only when it is not there.
    Round 5: the upload is stored but its answer never comes (its id unknown): after the horizon the post,
    not found, goes with a new upload; the first stays among the judge's unused attachments (shown nowhere;
    Discuz!'s clean-up removes it): the one orphan the design allows. Round 7: the forum refuses pictures
    (no permission): the text goes alone."""
    run, site = season(tmp_path, "troubled")
    fake = site.fake
    original = DiscuzForum.reply_with_images
    original_upload = DiscuzForum.upload_image
    named: list[int] = []

    def reply_with_images(self, thread_id, body, image_ids):
        named.append(image_ids[0])
        if len(named) == 1:
            raise Crash("before the post")
        if len(named) == 3:
            original(self, thread_id, body, image_ids)
            raise Crash("after the post")
        return original(self, thread_id, body, image_ids)

    def upload_image(self, thread_id, filename, data):
        uploads = fake.log.count(("POST", "forumupload"))
        if uploads == 2:
            fake.fail_upload_answer = True  # round 5's first upload
        if uploads == 4:
            fake.attach_allowed = False  # round 7
        return original_upload(self, thread_id, filename, data)

    monkeypatch.setattr(DiscuzForum, "reply_with_images", reply_with_images)
    monkeypatch.setattr(DiscuzForum, "upload_image", upload_image)
    run.play()
    assert run.crashes == 2
    posts = run.judge_posts()
    got, want = plain([p.text for p in posts]), plain(calm[0])
    assert got == want  # every post once, in order
    assert [p.attachments for p in posts if p.attachments] == [[1], [2], [4]]
    # round 1's retry named the stored upload; round 3's post was found ([b]…[/b] read back as plain text),
    # not written again; round 5 named the second upload (the first one's id never came back)
    assert named == [1, 1, 2, 4]
    assert fake.unused == {3} and len(fake.attachments) == 4
    assert [r.image_ref for r in run.bot.store.outbox() if r.image_json] == [1, 2, 4, 0]
    site.close()
