"""The phpBB 3.3 adapter against answers recorded live on phpBB 3.3.17 (``captures/``, see phpbb_cassette).

Each test replays one recorded scenario in the order the live run sent it, with a fake clock: the adapter
must send the same requests and understand the answers. Refusals are the forum's own pages.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from phpbb_cassette import Cassette, load

from forumbot.forums import phpbb_pages as pages
from forumbot.forums.errors import (
    AuthFailed,
    FloodControl,
    FormTooFresh,
    NoSuchUser,
    NotAllowed,
    NotFound,
    PostQueued,
    PostTooShort,
    SendFailed,
)
from forumbot.forums.phpbb import PhpBBForum

URL = "http://127.0.0.1:8090"


class Clock:
    """A monotonic clock moved only by the adapter's sleeps (which are recorded)."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.sleeps: list[float] = []

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            self.sleeps.append(round(seconds, 2))
            self.now += seconds

    def __call__(self) -> float:
        return self.now


def forum(cassette: Cassette, user: str = "Judge", password: str = "secret", clock: Clock | None = None,
          **kwargs) -> PhpBBForum:
    clock = clock or Clock()
    return PhpBBForum(URL, user, password, transport=cassette, sleep=clock.sleep, monotonic=clock, **kwargs)


def judge_ops() -> tuple[Cassette, PhpBBForum, Clock]:
    cassette, clock = Cassette(load("judge_ops")), Clock()
    judge = forum(cassette, clock=clock, min_write_interval_seconds=0)
    judge.login()
    return cassette, judge, clock


def test_login_whoami_and_find_user():
    cassette, judge, _ = judge_ops()
    assert judge.whoami() == "Judge"
    assert judge.find_user("alice") == "Alice"  # phpBB matches names without case: the forum's spelling
    assert judge.find_user("Nobody Here") is None
    login = cassette.posts()[0]
    assert login[0] == "/ucp.php?mode=login" and login[1]["password"] == "***" and login[1]["form_token"]


def _thread_ops(judge: PhpBBForum) -> dict:
    tid = judge.create_thread(2, "Killer club test season", "[b]Welcome[/b] to the game.")
    p1 = judge.reply(tid, "Day 1 begins. Vote with [b]VOTE: name[/b].")
    return {"tid": tid, "p1": p1}


def test_create_thread_reply_and_read_with_quotes_stripped():
    cassette, judge, clock = judge_ops()
    judge.whoami(), judge.find_user("alice"), judge.find_user("Nobody Here")
    made = _thread_ops(judge)
    posts = judge.thread_posts(made["tid"])
    assert [p.author for p in posts] == ["Judge", "Judge", "Alice"]
    assert posts[1].post_id == made["p1"] and posts[1].text == "Day 1 begins. Vote with VOTE: name."
    assert posts[2].text == "##vote Bob"  # the quote of the judge's post is not part of the vote
    assert "blockquote" in posts[2].raw_html
    assert all(p.time_utc.tzinfo is UTC for p in posts) and posts[0].time_utc.year == 2026
    before = judge.request_count
    assert judge.thread_posts(made["tid"], posts[-1].post_id) == []
    assert judge.request_count - before == 1  # an idle poll is one request
    # every write waited at least the form's minimum age after fetching it
    assert clock.sleeps and min(clock.sleeps) >= 1.0
    reply = next(form for path, form in cassette.posts() if path.startswith("/posting.php?mode=reply"))
    assert reply["message"] == "Day 1 begins. Vote with [b]VOTE: name[/b]." and "topic_cur_post_id" not in reply


def test_edit_lock_unlock_find_thread_and_private_messages():
    cassette, judge, _ = judge_ops()
    judge.whoami(), judge.find_user("alice"), judge.find_user("Nobody Here")
    made = _thread_ops(judge)
    posts = judge.thread_posts(made["tid"])
    judge.thread_posts(made["tid"], posts[-1].post_id)
    judge.edit_post(made["p1"], "Day 1 begins. Vote with [b]VOTE: name[/b]. (edited)")
    after = judge.thread_posts(made["tid"])
    assert after[1].text.endswith("(edited)")
    assert after[1].edited is False  # a moderator's edit without a reason leaves no "Last edited by"
    judge.lock_thread(made["tid"])
    judge.unlock_thread(made["tid"])
    assert judge.find_thread(2, "Killer club test season") == made["tid"]
    sent = judge.send_pm("Alice", "Your role", "You are a [b]Citizen[/b]. Good luck.")
    assert sent.recipient == "Alice" and sent.message_id > 0 and sent.conversation_id == 0
    assert sent.time_utc.tzinfo is not None
    found = judge.find_sent_pm("Alice", "Your role", "You are a [b]Citizen[/b]. Good luck.")
    assert found is not None and found.message_id <= sent.message_id  # the first one with that text
    with pytest.raises(NoSuchUser):
        judge.send_pm("Nobody Here", "Your role", "hello there")
    messages = judge.private_messages()
    assert messages and all(m.sender == "Alice" for m in messages)
    assert messages[-1].body == "kill Bob tonight"  # the quoted role is stripped
    assert messages[-1].time_precision_seconds == 60 and messages[-1].time_utc.second == 0
    assert [m.message_id for m in messages] == sorted(m.message_id for m in messages)
    before = judge.request_count
    assert judge.private_messages(messages[-1].message_id) == []
    assert judge.request_count - before == 1  # an idle inbox poll is one request
    assert judge.inbox_usage_seen[1] == 50
    assert cassette.done


def test_locked_thread_refuses_a_player():
    cassette, clock = Cassette(load("locked")), Clock()
    judge = forum(cassette, clock=clock, min_write_interval_seconds=0)
    judge.login()
    judge.lock_thread(1)
    alice = forum(cassette, "Alice", clock=clock, min_write_interval_seconds=0)
    alice.login()
    with pytest.raises(NotAllowed, match="locked"):
        alice.reply(1, "Can I still vote here?")
    judge.unlock_thread(1)
    assert cassette.done
    confirm = [form for path, form in cassette.posts() if path.startswith("/mcp.php")]
    assert len(confirm) == 2 and all(form["confirm"] == "Yes" and form["confirm_uid"] == "59" for form in confirm)


def test_pages_incremental_reading_cursor_and_edits_seen():
    facts_cassette = Cassette(load("pages"))
    clock = Clock()
    judge = forum(facts_cassette, clock=clock, min_write_interval_seconds=0)
    judge.login()
    tid = judge.create_thread(2, "Pages test", "Page test opening post.")
    first = judge.thread_posts(tid)
    assert len(first) == 13 and len({p.author for p in first}) == 13
    alice = next(p for p in first if p.author == "Alice")
    assert alice.edited and "Carol" in alice.text  # a player's edit of a post others answered shows
    before = judge.request_count
    assert judge.thread_posts(tid, first[-1].post_id) == []
    assert judge.request_count - before == 1  # only the last page is read
    cursor = json.loads(json.dumps(judge.export_cursor()))
    assert cursor["threads"][str(tid)]["start"] == 10
    new = judge.thread_posts(tid, first[-1].post_id)
    assert [p.author for p in new] == ["Bob"] and new[0].text == "##unvote and VOTE: Alice"
    restarted = forum(facts_cassette, clock=clock, min_write_interval_seconds=0)
    restarted.login()
    again = restarted.thread_posts(tid, first[5].post_id)  # no cursor: viewtopic.php?p=ID finds the page
    assert [p.post_id for p in again] == [p.post_id for p in first[6:]] + [new[0].post_id]
    assert facts_cassette.done


def test_cursor_round_trip_and_foreign_cursor_ignored():
    judge = forum(Cassette([]))
    judge.import_cursor({"kind": "phpbb/1", "base_url": URL, "threads": {"5": {"post": 70, "start": 10}}})
    assert judge.export_cursor()["threads"] == {"5": {"post": 70, "start": 10}}
    judge.import_cursor({"kind": "discuz/1", "threads": {}})
    judge.import_cursor({"kind": "phpbb/1", "base_url": URL, "threads": {"5": {"post": "x"}}})
    assert judge.export_cursor()["threads"] == {"5": {"post": 70, "start": 10}}


def refusals() -> tuple[Cassette, Clock]:
    return Cassette(load("refusals")), Clock()


def test_flood_control_is_waited_and_the_reply_sent_again():
    cassette, clock = refusals()
    alice = forum(cassette, "Alice", clock=clock, min_write_interval_seconds=0)
    alice.login()
    alice.reply(1, "Alice's first reply in the flood test.")
    clock.sleeps.clear()
    second = alice.reply(1, "Alice's second reply, too soon.")
    assert second > 0 and 15.0 in clock.sleeps  # refused by flood control, waited the interval, sent
    assert len([p for p in cassette.posts() if p[0].startswith("/posting.php")]) == 3


def test_form_token_too_fresh_is_retried_with_an_older_form():
    cassette, clock = refusals()
    alice = forum(cassette, "Alice", clock=clock, min_write_interval_seconds=0)
    alice.login()
    alice.reply(1, "Alice's first reply in the flood test.")
    alice.reply(1, "Alice's second reply, too soon.")
    bob = forum(cassette, "Bob", clock=clock, min_write_interval_seconds=0, form_min_age_seconds=0)
    bob.login()
    clock.sleeps.clear()
    assert bob.reply(1, "Bob posts the form in the second it was fetched.") > 0
    assert clock.sleeps and clock.sleeps[-1] >= 1.0  # the second form was kept a second before posting


def _past_writes(cassette: Cassette, clock: Clock) -> None:
    alice = forum(cassette, "Alice", clock=clock, min_write_interval_seconds=0)
    alice.login()
    alice.reply(1, "Alice's first reply in the flood test.")
    alice.reply(1, "Alice's second reply, too soon.")
    bob = forum(cassette, "Bob", clock=clock, min_write_interval_seconds=0, form_min_age_seconds=0)
    bob.login()
    bob.reply(1, "Bob posts the form in the second it was fetched.")
    with pytest.raises(NotFound):
        alice.reply(99999, "no such thread")
    with pytest.raises(NotFound):
        alice.thread_posts(99999)
    with pytest.raises(NotAllowed):
        alice.lock_thread(1)


def test_missing_thread_and_no_moderator_rights():
    cassette, clock = refusals()
    _past_writes(cassette, clock)


def test_newly_registered_judge_is_queued_and_cannot_send_pms():
    cassette, clock = refusals()
    _past_writes(cassette, clock)
    queued = forum(cassette, "Judge2", clock=clock, min_write_interval_seconds=0)
    queued.login()
    with pytest.raises(PostQueued):
        queued.reply(1, "A newly registered judge posts.")
    with pytest.raises(SendFailed, match="not authorised"):
        queued.send_pm("Alice", "Role", "A newly registered judge sends a role.")
    with pytest.raises(AuthFailed, match="incorrect password"):
        forum(cassette, "Judge", "wrong-password", clock=clock).login()
    assert cassette.done


def test_too_short_post_is_typed_with_the_minimum():
    cassette = Cassette(load("min_chars"))
    carol = forum(cassette, "Carol", min_write_interval_seconds=0)
    carol.login()
    with pytest.raises(PostTooShort) as refused:
        carol.reply(1, "vote Bob")
    assert refused.value.min_length == 10
    assert cassette.done


def test_pacing_counts_the_flood_interval_from_the_answer():
    judge = forum(Cassette([]), min_write_interval_seconds=15)
    assert judge.write_wait_seconds() == 0.0
    judge.http._last_write_end = judge.http._clock()
    assert judge.write_wait_seconds() == pytest.approx(15.0)


def test_refusal_classification_of_phpbb_sentences():
    from forumbot.forums.phpbb import refusal

    def common(errors=(), message=""):
        return pages.PageCommon(user="Judge", token=None, errors=tuple(errors), message=message, zone=None)

    assert isinstance(refusal(common(["You cannot make another post so soon after your last."]), "x", 15), FloodControl)
    assert isinstance(refusal(common(["The submitted form was invalid. Try submitting again."]), "x", 15), FormTooFresh)
    assert refusal(common(message="This message has been sent successfully."), "x", 15) is None
    assert refusal(common(), "x", 15) is None


def test_written_pm_times_in_the_board_zone():
    from zoneinfo import ZoneInfo

    when, width = pages.parse_written_time("Tue Dec 01, 2026 7:20 pm", ZoneInfo("Asia/Shanghai"), URL, "t")
    assert when == datetime(2026, 12, 1, 11, 20, tzinfo=UTC) and width == 60


def check_reports() -> tuple[Cassette, list[str], list[str]]:
    """The lines of ``forumbot check --forum`` for 14 players on the recorded phpBB (``check``): with the judge
    "Judge" (a global moderator), then with "Judge2" (in "Newly registered users"); and the cassette."""
    from forumbot.forums.phpbb_check import phpbb_report
    from forumbot.forums.settings import ForumSettings

    cassette = Cassette(load("check"))
    settings = ForumSettings.model_validate({"engine": "phpbb", "base_url": URL, "username": "Judge",
                                             "password_env": "X", "thread_id": 1})
    reports = []
    for user in ("Judge", "Judge2"):
        judge = forum(cassette, user)
        judge.login()
        reports.append(list(phpbb_report(judge, settings, 14)))
    return cassette, reports[0], reports[1]


def test_forum_check_explains_the_judge_account_and_board_settings():
    cassette, good, bad = check_reports()
    assert good[0] == "phpBB judge account groups: Global moderators, Registered users."
    assert any("Inbox: 3 of 50" in line for line in good)
    assert any("holds new messages back" in line for line in good)  # 14 players need more room than 47
    assert any("(Global moderators) may ignore the flood limit" in line for line in good)
    assert not any("ERROR" in line or "moderator tools" in line for line in good)
    assert any(line.startswith("  ERROR: the judge is in 'Newly registered users'") for line in bad)
    assert any("cannot lock the thread" in line for line in bad)
    assert cassette.done
