"""Discuz!: no read skips a message or a post, whatever request fails when (issue 24).

The contract fake (``fake_discuz.py``: conversations listed by the second of their last message, a PM of the
current second missing from the view, pages of a thread past the end repeating the last) is polled the way
the bot polls (``poll_loop.Consumer``, a copy of ``Bot._poll``); hypothesis chooses which requests fail
(refused connection, an answer lost after the forum acted, an answer cut short, a proxy's error page) and
when players write; after polls that succeed, every message and post is stored once, with its whole text.
"""

from __future__ import annotations

import sys
from pathlib import Path

import httpx
from discuz_helpers import Site
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parents[1]))
from no_skip import Faulty, events, play
from poll_loop import Consumer

PLAYERS = ("小明", "小红", "alice", "王大锤")


def _play(played) -> tuple[Site, Consumer, set[int], set[int]]:
    site = Site()
    faulty = Faulty(site.fake.handle)
    site.fake.__class__ = type("FaultyFake", (site.fake.__class__,), {
        "transport": property(lambda self: httpx.MockTransport(faulty.handle))})
    thread = site.fake.new_thread("法官", 3, "版杀 第一天", "第一天开始，请投票。")
    judge = site.client()
    consumer = Consumer(judge, "法官", thread_id=thread.tid)
    pms: set[int] = set()
    posts: set[int] = set()
    # two pages of the thread (50 a page) and more conversations; the list's pages of 100 (a season's
    # conversations fit one) are not exercised: 100 conversations opened per example are too slow here
    for i in range(55):
        site.clock.advance(1)
        if i < 12:
            site.fake.add_user(f"路人{i}")
            pms.add(site.fake.player_pm(f"路人{i}", "法官", f"报到 {i}"))
        posts.add(site.fake.player_post(PLAYERS[i % 4], thread.tid, f"路过 {i}"))

    def write(kind: str, a: int) -> None:
        if kind == "pm":
            pms.add(site.fake.player_pm(PLAYERS[a], "法官", f"投 {PLAYERS[(a + 1) % 4]}\n\n第 {len(pms)} 条"))
        elif kind == "post":
            posts.add(site.fake.player_post(PLAYERS[a], thread.tid, f"投 {PLAYERS[a]}（第 {len(posts)} 帖）"))
        else:
            site.clock.advance(a * 20)

    play(consumer, faulty, played, write, before=lambda: site.clock.advance(1))
    site.clock.advance(2)
    for _ in range(3):
        site.clock.advance(2)
        assert consumer.poll()
    return site, consumer, pms, posts


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(events(len(PLAYERS), fault_at=10, waits=True), max_size=25))
def test_every_message_and_post_is_stored_once_whatever_fails(played):
    site, consumer, pms, posts = _play(played)
    assert set(consumer.stored["pm"]) == pms
    assert set(consumer.stored["thread"]) == posts
    texts = {p.pmid: p.text for p in site.fake.pms}
    for pmid, text in consumer.stored["pm"].items():
        assert text == texts[pmid]
    thread = next(iter(site.fake.threads.values()))
    for post in thread.posts:
        if post.pid in posts:
            assert consumer.stored["thread"][post.pid] == post.text


def test_a_subject_over_two_lines_or_with_spaces_is_sent_as_one_line_and_found():
    """Discuz! PMs have no subject: it is the message's first line, which Discuz! trims. A subject with a line
    break or spaces around is sent as one line, and find_sent_pm finds the message by it (before, a subject
    "身份\\n说明" was sent as two lines and never found: the send counted as uncertain)."""
    site = Site()
    judge = site.client()
    sent = judge.send_pm("小红", "  你的身份\n说明 ", "你是平民。")
    stored = next(p for p in site.fake.pms if p.pmid == sent.message_id)
    assert stored.text.startswith("你的身份 说明\n\n")
    site.clock.advance(2)
    assert judge.find_sent_pm("小红", " 你的身份\n说明").message_id == sent.message_id
    assert judge.find_sent_pm("小红", "你的身份 说明", "你是平民。").message_id == sent.message_id
