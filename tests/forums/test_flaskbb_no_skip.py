"""FlaskBB: no read skips a message or a post, whatever request fails when (issue 24).

A fake FlaskBB whose pages are the recorded ones (``fake_flaskbb.py``: the inbox by ``date_modified``,
10 a page, opening an unread conversation moving it to the top, as FlaskBB does) is polled the way the
bot polls (``poll_loop.Consumer``, a copy of ``Bot._poll``); hypothesis chooses which requests fail and
when players write; at the end, after polls that succeed, every message and post is stored once.
"""

from __future__ import annotations

from fake_flaskbb import JUDGE, FakeFlaskBB, judge_on
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from poll_loop import Consumer

PLAYERS = [f"玩家{i}" for i in range(14)]

event = st.one_of(
    st.tuples(st.just("pm"), st.integers(0, len(PLAYERS) - 1), st.booleans()),
    st.tuples(st.just("post"), st.integers(0, len(PLAYERS) - 1), st.just(False)),
    st.tuples(st.just("poll"), st.dictionaries(st.integers(0, 12), st.tuples(
        st.sampled_from(["connect", "lost", "cut", "proxy"]), st.floats(0.05, 0.999)), max_size=3), st.just(False)),
)


def _site() -> FakeFlaskBB:
    site = FakeFlaskBB()
    for name in PLAYERS:  # the role PMs: the judge's box already holds two pages of conversations
        site.judge_sends(name, "你的身份", f"{name}：你是平民。")
    return site


def _play(site: FakeFlaskBB, events) -> tuple[Consumer, set[int], set[int]]:
    forum = judge_on(site)
    consumer = Consumer(forum, JUDGE, thread_id=1)
    site.player_posts(JUDGE, "第一天开始")
    pms: set[int] = set()
    posts: set[int] = set()
    role_conv = {name: cid for cid, c in site.convs.items() for name in [c.other]}
    for kind, a, b in events:
        if kind == "pm":
            name = PLAYERS[a]
            mid = site.player_sends(name, f"投 玩家{(a + 1) % len(PLAYERS)}\n\n{name} 的第 {len(pms)} 条",
                                    reply_to=role_conv[name] if b else None)
            pms.add(mid)
        elif kind == "post":
            posts.add(site.player_posts(PLAYERS[a], f"投 玩家{a}（{len(posts)}）"))
        else:
            start = site.requests
            site.fail = {start + k for k, (fault, _) in a.items() if fault == "connect"}
            site.faults = {start + k: f for k, f in a.items() if f[0] != "connect"}
            consumer.poll()
            site.fail, site.faults = set(), {}
    for _ in range(3):
        assert consumer.poll()
    return consumer, pms, posts


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(event, max_size=30))
def test_every_message_and_post_is_stored_once_whatever_fails(events):
    site = _site()
    consumer, pms, posts = _play(site, events)
    assert set(consumer.stored["pm"]) == pms
    assert set(consumer.stored["thread"]) == posts
    for mid in pms:  # a page cut short is never stored as a message's text
        assert consumer.stored["pm"][mid] == site.text_of(mid)
    for pid in posts:
        assert consumer.stored["thread"][pid] == site.text_of(pid, post=True)


def _cut_once(site: FakeFlaskBB, path: str, before: str) -> None:
    """The next answer to ``path`` arrives cut short just before the text ``before`` (its last occurrence)."""
    def mangle(p: str, body: str) -> str:
        if p != path:
            return body
        site.mangle = None
        return body[: body.rindex(before)]
    site.mangle = mangle


def test_a_ballot_cut_off_a_conversation_page_is_read_again():
    """A run-off ballot, the last message of its conversation: the page opening the conversation arrived cut
    short before it. Before: the conversation counted as read (its inbox marker stored), the ballot was never
    read. Now the cut page is a BrokenPage and the conversation is opened again."""
    site = _site()
    consumer = Consumer(judge_on(site), JUDGE)
    assert consumer.poll()
    cid = next(c.cid for c in site.convs.values() if c.other == PLAYERS[3])
    first = site.player_sends(PLAYERS[3], "投 玩家1", reply_to=cid)
    ballot = site.player_sends(PLAYERS[3], "投 王五", reply_to=cid)
    _cut_once(site, f"/conversations/{cid}/view", f'id="mid{ballot}"')
    for _ in range(4):
        consumer.poll()
    assert set(consumer.stored["pm"]) == {first, ballot}
    assert consumer.stored["pm"][ballot] == "投 王五"


def test_a_message_cut_in_the_middle_is_never_stored_cut():
    """The page arrived cut inside a message ("投 王五\n\nR"): nothing of it is stored; the whole text is
    stored at the next poll."""
    site = _site()
    consumer = Consumer(judge_on(site), JUDGE)
    assert consumer.poll()
    cid = next(c.cid for c in site.convs.values() if c.other == PLAYERS[5])
    mid = site.player_sends(PLAYERS[5], "投 王五\n\nReason: 他昨天没发言", reply_to=cid)
    _cut_once(site, f"/conversations/{cid}/view", "eason: 他昨天没发言")
    assert not consumer.poll()
    assert consumer.stored["pm"] == {}
    assert consumer.poll()
    assert consumer.stored["pm"] == {mid: "投 王五\n\nReason: 他昨天没发言"}


def test_a_ballot_on_page_two_after_a_failed_read_is_not_skipped():
    """The run-off vote (forum message 268) in a conversation on the inbox's second page, listed by a read
    that failed while opening conversations, is stored, though newer messages on page 1 were stored first.
    (A guard: this order of events was already read right; the reads after a failed one now also list every
    page once, whatever the failed read had opened and moved up.)"""
    site = _site()
    forum = judge_on(site)
    consumer = Consumer(forum, JUDGE)
    assert consumer.poll()
    for name in PLAYERS[:9]:  # nine replies in their role conversations: nine conversations on page 1
        site.player_sends(name, "收到")
    ballot = site.player_sends(PLAYERS[9], "投 玩家3", reply_to=10)  # into an old conversation
    # a new message for each of the first page's conversations except the ballot's: two pages to read
    start = site.requests
    site.fail = {start + 3}  # the list's two pages are read, then two conversations opened, the third fails
    assert not consumer.poll()
    site.fail = set()
    site.player_sends(PLAYERS[0], "投 玩家5")  # newer than the ballot, on page 1
    for _ in range(3):
        assert consumer.poll()
    assert ballot in consumer.stored["pm"]


def test_a_subject_with_spaces_around_is_sent_and_found_as_flaskbb_shows_it():
    """FlaskBB shows a subject stripped: the adapter sends it so and finds its message by it (before, a
    leading space made every send WriteUncertain although the message was delivered)."""
    site = FakeFlaskBB()
    forum = judge_on(site)
    sent = forum.send_pm("玩家1", "  你的身份\n ", "你是平民。")
    conv = site.convs[sent.conversation_id]
    assert conv.subject == "你的身份" and conv.messages[-1].mid == sent.message_id
    assert forum.find_sent_pm("玩家1", " 你的身份", "你是平民。") == sent


def _bot(tmp_path, site: FakeFlaskBB):
    """The real Bot (its store in SQLite) on the fake, for its ``_poll``: the runtime's own consumption."""
    from datetime import timedelta

    from forumbot.config import SeasonConfig
    from forumbot.runtime.bot import Bot
    from forumbot.runtime.store import make_engine

    config = SeasonConfig.model_validate({
        "name": "no-skip", "ruleset": "sunlight", "locale": "zh-Hans", "players": PLAYERS[:7],
        "organisers": ["Org"],
        "forum": {"engine": "flaskbb", "base_url": "http://flaskbb.test", "username": JUDGE, "password_env": "X",
                  "thread_id": 1, "forum_id": 2},
        "schedule": {"start": (site.t - timedelta(days=1)).replace(tzinfo=None).isoformat(), "default": "1h",
                     "grace": "1s", "reminders": [], "poll_interval": "1s"},
        "time_zone": "UTC", "seed": 7, "path": tmp_path / "season.toml",
    })
    return Bot(config, judge_on(site), clock=lambda: site.t + timedelta(hours=1),
               engine=make_engine(f"sqlite:///{tmp_path / 'season.db'}"))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                HealthCheck.function_scoped_fixture])
@given(st.lists(event, max_size=25))
def test_through_the_bot_every_message_and_post_is_stored_once(tmp_path_factory, events):
    """The same, with the runtime's own ``Bot._poll`` and store: each item is one inbound row, whole."""
    site = _site()
    bot = _bot(tmp_path_factory.mktemp("bot"), site)
    site.player_posts(JUDGE, "第一天开始")
    pms: set[int] = set()
    posts: set[int] = set()
    for kind, a, b in events:
        if kind == "pm":
            name = PLAYERS[a % 7]
            pms.add(site.player_sends(name, f"投 玩家{a}", reply_to=a % 7 + 1 if b else None))
        elif kind == "post":
            posts.add(site.player_posts(PLAYERS[a % 7], f"投 玩家{a}（{len(posts)}）"))
        else:
            start = site.requests
            site.fail = {start + k for k, (fault, _) in a.items() if fault == "connect"}
            site.faults = {start + k: f for k, f in a.items() if f[0] != "connect"}
            bot._poll_held_until = None  # no back-off in the test: poll again at once
            bot._poll()
            site.fail, site.faults = set(), {}
    for _ in range(3):
        bot._poll_held_until = None
        assert bot._poll()
    rows = bot.store.unapplied()
    got = {(r.source, r.forum_id): r.text for r in rows}
    assert len(got) == len(rows)
    assert {k for s, k in got if s == "pm"} == pms
    assert {k for s, k in got if s == "thread"} == posts
    for (source, key), text in got.items():
        assert text == site.text_of(key, post=source == "thread")


def test_a_conversation_page_older_than_the_list_is_opened_again_and_the_read_not_complete():
    """A cache served the conversation's page as it was before its newest message (a whole page, HTTP 200).
    Before: the conversation counted as read and a newer message in another conversation moved the cursor
    past the missing one for good. Now the read is ``inbox_incomplete`` and the conversation opened again."""
    site = _site()
    consumer = Consumer(judge_on(site), JUDGE)
    assert consumer.poll()
    a = next(c.cid for c in site.convs.values() if c.other == PLAYERS[2])
    b = next(c.cid for c in site.convs.values() if c.other == PLAYERS[4])
    missing = site.player_sends(PLAYERS[2], "投 王五", reply_to=a)
    newer = site.player_sends(PLAYERS[4], "投 赵六", reply_to=b)

    def old_copy(path: str, body: str) -> str:
        if path != f"/conversations/{a}/view":
            return body
        site.mangle = None
        start = body.index(f'<div class="conversation-message " id="mid{missing}">')
        return body[:start] + body[body.index("    </div>\n</div>", start):]

    site.mangle = old_copy
    assert consumer.poll()
    assert consumer.forum.inbox_incomplete and "pm_after" not in consumer.cursors
    assert consumer.poll()
    assert set(consumer.stored["pm"]) == {missing, newer}
