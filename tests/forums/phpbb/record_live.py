"""Records the captures of ``captures/`` from a live phpBB 3.3 (not a test; run by hand).

    PHPBB_URL=http://127.0.0.1:8090 .venv/bin/python tests/forums/phpbb/record_live.py SCENARIO...

The board must have the accounts named below with the password ``pass-NAME-123``: Judge (a global
moderator), players Alice, Bob, ..., and Judge2 in the Newly registered users group; board 2 open to
registered users. ``min_chars`` needs the board's ``min_post_chars`` set to 10 beforehand. Only the
forum's answers are saved (see :mod:`phpbb_cassette`).
"""

from __future__ import annotations

import json
import os
import sys
import time

from phpbb_cassette import Recorder

from forumbot.forums import errors
from forumbot.forums.phpbb import PhpBBForum

URL = os.environ.get("PHPBB_URL", "http://127.0.0.1:8090")
PLAYERS = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi", "Ivan", "Judy", "Mallory", "Niaj"]


def account(name: str, recorder: Recorder | None = None, **kwargs) -> PhpBBForum:
    return PhpBBForum(URL, name, f"pass-{name}-123", transport=recorder, **kwargs)


def once(name: str, call: str, *args):
    """One write by a player's account, its connection closed after (PHP's built-in server has few workers
    and an idle keep-alive connection holds one)."""
    forum = account(name)
    try:
        return getattr(forum, call)(*args)
    finally:
        forum.close()


def expect(error: type[Exception], call, *args) -> Exception:
    try:
        call(*args)
    except error as exc:
        print("   refused as expected:", type(exc).__name__, exc)
        return exc
    raise SystemExit(f"{call.__name__} was not refused with {error.__name__}")


def judge_ops(rec: Recorder) -> dict:
    judge = account("Judge", rec, min_write_interval_seconds=0)
    alice = account("Alice", min_write_interval_seconds=0)
    judge.login()
    facts: dict = {"whoami": judge.whoami(), "find_alice": judge.find_user("alice"),
                   "find_nobody": judge.find_user("Nobody Here")}
    tid = judge.create_thread(2, "Killer club test season", "[b]Welcome[/b] to the game.")
    p1 = judge.reply(tid, "Day 1 begins. Vote with [b]VOTE: name[/b].")
    alice_post = once("Alice", "reply", tid, "[quote=Judge]Day 1 begins.[/quote]\n##vote Bob")
    facts["all"] = [p.post_id for p in judge.thread_posts(tid)]
    before = judge.request_count
    facts["idle"] = [p.post_id for p in judge.thread_posts(tid, alice_post)]
    facts["idle_requests"] = judge.request_count - before
    judge.edit_post(p1, "Day 1 begins. Vote with [b]VOTE: name[/b]. (edited)")
    facts["after_edit"] = [(p.post_id, p.edited, p.text) for p in judge.thread_posts(tid)]
    judge.lock_thread(tid)
    expect(errors.NotAllowed, alice.reply, tid, "can I still post?")
    judge.unlock_thread(tid)
    facts["find_thread"] = judge.find_thread(2, "Killer club test season")
    sent = judge.send_pm("Alice", "Your role", "You are a [b]Citizen[/b]. Good luck.")
    facts["sent"] = [sent.message_id, sent.recipient, sent.time_utc.isoformat()]
    facts["find_sent"] = judge.find_sent_pm("Alice", "Your role", "You are a [b]Citizen[/b]. Good luck.").message_id
    expect(errors.NoSuchUser, judge.send_pm, "Nobody Here", "Your role", "hello there")
    alice.close()
    once("Alice", "send_pm", "Judge", "Re: Your role", "[quote=Judge]You are a Citizen[/quote]\nkill Bob tonight")
    facts["pms"] = [(m.message_id, m.sender, m.subject, m.body, m.time_utc.isoformat()) for m in judge.private_messages()]
    before = judge.request_count
    facts["pms_idle"] = len(judge.private_messages(facts["pms"][-1][0]))
    facts["pms_idle_requests"] = judge.request_count - before
    facts["thread"] = tid
    facts["cursor"] = judge.export_cursor()
    judge.close()
    return facts


def pages(rec: Recorder) -> dict:
    judge = account("Judge", rec, min_write_interval_seconds=0)
    judge.login()
    tid = judge.create_thread(2, "Pages test", "Page test opening post.")
    posted = {name: once(name, "reply", tid, f"{name} says hello, vote nobody yet.") for name in PLAYERS}
    once("Alice", "edit_post", posted["Alice"], "Alice says hello, ##vote Carol (changed my mind).")
    first = judge.thread_posts(tid)
    before = judge.request_count
    idle = judge.thread_posts(tid, first[-1].post_id)
    idle_requests = judge.request_count - before
    late = once("Bob", "reply", tid, "##unvote and VOTE: Alice")
    new = judge.thread_posts(tid, first[-1].post_id)
    fresh = account("Judge", rec, min_write_interval_seconds=0)  # a restart without the cursor: locate by post
    fresh.login()
    again = fresh.thread_posts(tid, first[5].post_id)
    fresh.close()
    judge.close()
    return {"thread": tid, "first": [p.post_id for p in first], "idle": len(idle), "idle_requests": idle_requests,
            "late": late, "new": [p.post_id for p in new], "again": [p.post_id for p in again]}


def refusals(rec: Recorder) -> dict:
    alice = account("Alice", rec, min_write_interval_seconds=0)
    alice.login()
    tid = 1
    facts = {"first": alice.reply(tid, "Alice's first reply in the flood test.")}
    facts["flooded_then_sent"] = alice.reply(tid, "Alice's second reply, too soon.")  # refused, waited, sent
    fresh = account("Bob", rec, min_write_interval_seconds=0, form_min_age_seconds=0)
    fresh.login()
    facts["fresh_then_sent"] = fresh.reply(tid, "Bob posts the form in the second it was fetched.")
    expect(errors.NotFound, alice.reply, 99999, "no such thread")
    expect(errors.NotFound, alice.thread_posts, 99999)
    expect(errors.NotAllowed, alice.lock_thread, tid)
    queued = PhpBBForum(URL, "Judge2", "pass-Judge-123", transport=rec, min_write_interval_seconds=0)
    queued.login()
    expect(errors.PostQueued, queued.reply, tid, "A newly registered judge posts.")
    expect(errors.SendFailed, queued.send_pm, "Alice", "Role", "A newly registered judge sends a role.")
    bad = account("Judge", rec)
    expect(errors.AuthFailed, PhpBBForum(URL, "Judge", "wrong-password", transport=rec).login)
    del bad
    return facts


def locked(rec: Recorder) -> dict:
    judge = account("Judge", rec, min_write_interval_seconds=0)
    judge.login()
    judge.lock_thread(1)
    alice = account("Alice", rec, min_write_interval_seconds=0)
    alice.login()
    exc = expect(errors.NotAllowed, alice.reply, 1, "Can I still vote here?")
    judge.unlock_thread(1)
    return {"refused": str(exc)}


def check(rec: Recorder) -> dict:
    from forumbot.forums.phpbb_check import phpbb_report
    from forumbot.forums.settings import ForumSettings

    settings = ForumSettings.model_validate({"engine": "phpbb", "base_url": URL, "username": "Judge",
                                             "password_env": "X", "thread_id": 1})
    lines = []
    for name, password in (("Judge", "pass-Judge-123"), ("Judge2", "pass-Judge-123")):
        forum = PhpBBForum(URL, name, password, transport=rec)
        forum.login()
        lines += list(phpbb_report(forum, settings, 14))
    return {"lines": lines}


def min_chars(rec: Recorder) -> dict:
    carol = account("Carol", rec, min_write_interval_seconds=0)
    carol.login()
    exc = expect(errors.PostTooShort, carol.reply, 1, "vote Bob")
    return {"min_length": exc.min_length}


if __name__ == "__main__":
    for scenario in sys.argv[1:]:
        recorder = Recorder()
        started = time.monotonic()
        facts = globals()[scenario](recorder)
        path = recorder.save(scenario)
        recorder.inner.close()
        print(scenario, f"{time.monotonic() - started:.1f} s", len(recorder.exchanges), "exchanges ->", path)
        print(json.dumps(facts, ensure_ascii=False, indent=1, default=str))
