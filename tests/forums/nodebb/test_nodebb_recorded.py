"""The NodeBB adapter against answers recorded on a live NodeBB v4.11.2 (``captures/``, see nodebb_cassette).

Each test replays one scenario of ``nodebb_scenarios.py``: the adapters must ask exactly what they asked
the real forum, in the same order, and the assertions check what they made of the answers.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime

import pytest
from nodebb_cassette import CAPTURES, Cassette
from nodebb_scenarios import SCENARIOS

from forumbot.forums.errors import (
    AuthFailed,
    NoSuchUser,
    NotAllowed,
    NotFound,
    PostQueued,
    PostTooShort,
    RateLimited,
    SendFailed,
)
from forumbot.forums.nodebb import USER_AGENT, NodeBBForum

BASE = "http://127.0.0.1:4590"


@dataclass
class Clock:
    """Monotonic seconds for the adapters; ``sleep`` advances it and remembers each wait."""

    now: float = 1000.0
    slept: list[float] = field(default_factory=list)

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(round(seconds, 2))
        self.now += seconds


@dataclass
class Replay:
    scenario: str
    clock: Clock = field(default_factory=Clock)
    tapes: dict[str, Cassette] = field(default_factory=dict)

    def make(self, user: str, **kwargs):
        auth = kwargs.pop("auth", "session")
        secret = kwargs.pop("secret", None) or "replayed"
        kwargs.setdefault("retries", 0)
        tape = self.tapes.setdefault(user, Cassette(self.scenario, user))
        return NodeBBForum(BASE, user, secret, auth=auth, transport=tape.transport, sleep=self.clock.sleep,
                           monotonic=self.clock, **kwargs)

    def run(self) -> dict:
        ctx = json.loads((CAPTURES / self.scenario / "_ctx.json").read_text("utf-8"))
        result = SCENARIOS[self.scenario](self.make, ctx)
        unused = {user: tape.unused() for user, tape in self.tapes.items() if tape.unused()}
        assert not unused, f"the adapter skipped calls the real forum answered: {unused}"
        return result


def replay(scenario: str) -> tuple[dict, Replay]:
    r = Replay(scenario)
    return r.run(), r


def ctx_of(scenario: str) -> dict:
    return json.loads((CAPTURES / scenario / "_ctx.json").read_text("utf-8"))


def kind(outcome) -> str:
    return outcome[0] if isinstance(outcome, tuple) else "ok"


def test_every_scenario_has_a_recording():
    assert sorted(p.name for p in CAPTURES.iterdir() if p.is_dir()) == sorted(SCENARIOS)


# -- session -------------------------------------------------------------------------------------------

def test_login_with_session_csrf_and_find_user():
    result, r = replay("login")
    assert result["whoami"] == "judge" and result["per_page"] == 20
    assert result["alice"] == "alice" and result["nobody"] is None
    assert result["ALICE"] is None  # NodeBB matches user names exactly
    judge = r.tapes["judge"]
    assert judge.paths()[:3] == ["GET /api/config", "POST /api/v3/utilities/login", "GET /api/config"]
    login, after = judge.requests[1], judge.requests[3]
    assert login.headers["x-csrf-token"] and "bot" not in login.headers["user-agent"].lower()
    assert login.headers["user-agent"] == USER_AGENT
    assert after.url.params["lang"] == "en-GB"


def test_wrong_password_is_auth_failed_and_not_tried_again_at_once():
    result, _r = replay("login-refused")
    assert kind(result["first"]) == "AuthFailed" and "invalid-login-credentials" in result["first"][1]
    assert kind(result["again"]) == "AuthFailed" and "not trying again" in result["again"][1]
    assert result["requests"] == 2


def test_lost_session_write_is_forbidden_then_logged_in_again_and_sent_once():
    result, r = replay("session-lost")
    assert result["pid"] > 0
    paths = r.tapes["judge"].paths()
    assert paths.count("POST /api/v3/topics/4") == 2 and paths.count("POST /api/v3/utilities/login") == 2


def test_user_agent_with_bot_gets_no_csrf_token_and_a_clear_error():
    result, _ = replay("crawler-user-agent")
    assert kind(result["login"]) == "AuthFailed" and "crawler" in result["login"][1]


def test_bearer_token_writes_without_session_or_cookie():
    result, r = replay("token")
    assert result["whoami"] == "judge" and result["pid"] > 0
    assert kind(result["wrong"]) == "AuthFailed" and "bearer token" in result["wrong"][1]
    judge = r.tapes["judge"]
    write = next(q for q in judge.requests if q.method == "POST")
    assert write.headers["authorization"].startswith("Bearer ") and "cookie" not in write.headers
    assert "x-csrf-token" not in write.headers


# -- stock anti-spam settings --------------------------------------------------------------------------

def test_stock_judge_thread_is_queued_reply_hits_newbie_delay_and_chat_delay():
    result, r = replay("stock-judge")
    assert kind(result["thread"]) == "PostQueued" and "topic-" in result["thread"][1]
    assert kind(result["again"]) == "PostQueued" and "not sent again" in result["again"][1]
    assert kind(result["reply"]) == "RateLimited" and result["reply"][2] == 120.0
    assert result["chat"].message_id > 0
    assert kind(result["chat2"]) == "RateLimited" and result["chat2"][2] == 120.0
    assert result["account"]["reputation"] == 0
    tape = r.tapes[ctx_of("stock-judge")["judge"]]
    assert tape.paths().count("POST /api/v3/topics") == 1  # the queued thread was not sent twice


def test_stock_newbie_initial_delay_minimum_length_queue_and_newbie_chat_delay():
    result, r = replay("stock-newbie")
    assert kind(result["too_new"]) == "RateLimited" and result["too_new"][2] == 10.0
    assert kind(result["short"]) == "PostTooShort" and "at least 8" in result["short"][1]
    assert kind(result["queued"]) == "PostQueued" and kind(result["queued_again"]) == "PostQueued"
    assert r.tapes[ctx_of("stock-newbie")["newbie"]].paths().count(f"POST /api/v3/topics/{ctx_of('stock-newbie')['tid']}") == 3  # not queued twice
    assert r.clock.slept[-1] >= 10.0  # initialPostDelay, learned from the refusal, waited before the next post
    assert kind(result["chat2"]) == "RateLimited" and result["chat2"][2] == 120.0
    assert result["chat_interval"] == 120.0  # newbieChatMessageDelay, learned


def test_refusal_types():
    assert issubclass(PostQueued, NotAllowed) and issubclass(PostTooShort, SendFailed)


# -- thread --------------------------------------------------------------------------------------------

def test_thread_read_whole_edit_seen_quotes_dropped_exact_times():
    result, _ = replay("thread")
    posts = result["posts"]
    assert [p.author for p in posts] == ["judge", "alice", "bob"]
    assert posts[0].text == "Welcome to game 1.\n\nVote with ##vote name."
    assert posts[1].edited and posts[1].text.startswith("##vote carol")
    assert not posts[2].edited and posts[2].text == "No, ##vote carol"  # the quote and "said in" line dropped
    assert "<blockquote>" in posts[2].raw_html
    assert posts[0].time_utc.tzinfo is UTC and posts[0].time_utc.microsecond % 1000 == 0
    assert posts[0].time_utc < posts[1].time_utc < posts[2].time_utc
    assert posts[0].time_utc > datetime(2026, 1, 1, tzinfo=UTC)


def test_thread_idle_poll_is_one_request_and_a_new_post_one_more():
    result, _ = replay("thread")
    assert result["idle"] == [] and result["idle_requests"] == 1
    assert [p.post_id for p in result["new"]] == [result["ids"][2]] and result["new_requests"] == 1
    assert result["new"][0].text == "VOTE: dave"
    assert result["cursor"]["threads"][str(result["tid"])]["pid"] == result["ids"][2]


def test_find_thread_by_subject():
    result, _ = replay("thread")
    assert result["find"] == result["tid"] and result["find_none"] is None


def test_long_thread_pages_and_reading_from_a_post_id_without_cursor():
    result, r = replay("paging")
    assert result["count"] == 46 and result["ids"] == sorted(result["ids"])
    assert r.tapes["judge"].paths().count("GET /api/topic/3") == 3 + 1  # 3 pages, then the tail's page
    assert result["tail"] == result["ids"][-2:] and result["tail_requests"] == 2  # the post's index, its page


def test_writes_are_paced_by_post_delay():
    _result, r = replay("thread")
    assert any(9.9 <= s <= 10.3 for s in r.clock.slept)  # alice's second reply waited postDelay


# -- moderation and refusals ---------------------------------------------------------------------------

def test_lock_unlock_and_refusals():
    result, _ = replay("moderation")
    assert kind(result["alice_lock"]) == "NotAllowed"
    assert kind(result["reply_locked"]) == "NotAllowed" and "locked" in result["reply_locked"][1]
    assert isinstance(result["reply_unlocked"], int)
    assert kind(result["missing_thread"]) == "NotFound" and kind(result["missing_read"]) == "NotFound"
    assert kind(result["edit_others"]) == "NotAllowed"


def test_post_delay_refusal_is_rate_limited_with_the_named_wait():
    result, r = replay("post-delay")
    assert kind(result["first"]) == "RateLimited" and result["first"][2] == 10.0
    assert isinstance(result["second"], int) and result["learned"] == 10.0
    assert r.clock.slept and r.clock.slept[-1] >= 10.0


# -- private messages (chats) --------------------------------------------------------------------------

def test_send_pm_opens_a_room_and_long_messages_are_split():
    result, r = replay("private-messages")
    assert result["sent"].conversation_id > 0 and result["sent"].recipient == "alice"
    assert result["long"].message_id > result["sent"].message_id
    posts = [json.loads(q.content) for q in r.tapes["judge"].requests if q.url.path.startswith("/api/v3/chats/")
             and q.method == "POST"]
    assert all(len(p["message"]) <= 1000 for p in posts) and len(posts) == 4  # 1 + 2 parts + 1
    assert posts[0]["message"].startswith("**Killer club game 1 · judge**\n\n")
    # each part of the split message says whose it is (the captures' two parts were re-labelled by hand when the
    # parts got their header: the forum stores a chat as sent)
    assert [p["message"].split("\n", 1)[0] for p in posts[1:3]] == [
        "**Killer club game 1 · judge** (1/2)", "**Killer club game 1 · judge** (2/2)"]


def test_inbox_poll_reads_changed_rooms_only_idle_is_one_request():
    result, _ = replay("private-messages")
    assert [(m.sender, m.body) for m in result["poll"]] == [
        ("alice", "kill bob"), ("bob", "What is my role again? I am confused.")]  # the quote dropped
    assert result["idle"] == [] and result["idle_requests"] == 1
    assert [m.message_id for m in result["again_unacked"]] == [m.message_id for m in result["poll"]]
    assert result["again_requests"] == 3  # the list and the two rooms not yet acknowledged
    assert all(m.time_precision_seconds == 0 and m.time_utc.tzinfo is UTC for m in result["poll"])


def test_find_sent_pm_and_conversation_reuse():
    result, _ = replay("private-messages")
    assert result["found"] == result["sent"]
    assert result["found_long"] == result["long"]  # the last part of a split message
    assert result["not_found"] is None
    assert result["in_room"].conversation_id == result["sent"].conversation_id
    assert kind(result["no_user"]) == "NoSuchUser"


def test_chat_restricted_recipient_is_send_failed():
    result, _ = replay("chat-restricted")
    assert kind(result["restricted"]) == "SendFailed" and "restricted" in result["restricted"][1]


def test_moderator_judge_has_no_post_delay_and_a_two_second_chat_delay():
    result, r = replay("chat-delay-moderator")
    assert all(isinstance(x, int) for x in result["replies"])  # three replies at once: no postDelay
    assert result["chat1"].message_id > 0
    assert kind(result["chat2"]) == "RateLimited" and result["chat2"][2] == 2.2  # not the newbie 120 s
    assert result["chat_interval"] == 2.2 and r.clock.slept == [2.4, 2.4]  # + the 0.2 s margin
    assert result["chat3"].message_id > result["chat1"].message_id
    assert result["restricted_ok"].recipient == "carol"  # a moderator is not refused by chat settings


def test_forum_check_explains_the_settings_a_judge_needs():
    result, _ = replay("forum-check")
    judge, stock = "\n".join(result["judge"]), "\n".join(result["stock"])
    assert "global moderator" in judge and "exempt from the post queue" in judge
    assert "WARNING: the judge is neither an administrator nor a moderator" in stock
    assert "Global Moderators" in stock and "28 minutes" in stock  # 14 role messages at 120 s
    for text in (judge, stock):
        assert "post queue is on" in text and "minimumPostLength is 8" in text and "投 李四" in text


def test_cursor_round_trip_keeps_the_idle_poll_at_one_request():
    result, _ = replay("private-messages")
    cursor = result["cursor"]
    other = NodeBBForum(BASE, "judge", "x")
    other.import_cursor(cursor)
    assert other.export_cursor() == cursor
    other.import_cursor({"kind": "discuz/1"})
    assert other.export_cursor() == cursor
    foreign = NodeBBForum("http://elsewhere", "judge", "x")
    foreign.import_cursor(cursor)
    assert foreign.export_cursor()["rooms"] == {}


@pytest.mark.parametrize("exc", [AuthFailed, NoSuchUser, NotFound, RateLimited])
def test_errors_are_forum_errors(exc):
    from forumbot.forums.errors import ForumError

    assert issubclass(exc, ForumError)
