"""What the NodeBB adapter was made to do on a live NodeBB v4.11.2, one function per capture folder.

Each scenario drives adapters (``make(user, **kwargs)`` gives one for an account) and returns what it
saw. ``record_nodebb.py`` runs a scenario against the live forum with :class:`nodebb_cassette.Recorder`
transports; ``test_nodebb_recorded.py`` runs the same function with :class:`nodebb_cassette.Cassette`
transports and asserts on the result, so the adapter must ask exactly what it asked the real forum.
``ctx`` holds the ids the scenario works on (a thread, a category), the same in both runs; ``admin``
(recording only; None in tests) changes forum settings between steps and is not recorded.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from forumbot.forums.errors import ForumError

Make = Callable[..., Any]


def outcome(call: Callable[[], Any]) -> Any:
    """The value of ``call()``, or the error it raised as ``(class name, message)``."""
    try:
        return call()
    except ForumError as exc:
        return (type(exc).__name__, str(exc), getattr(exc, "wait_seconds", None))


def login(make: Make, ctx: dict, admin: Any = None) -> dict:
    judge = make("judge")
    judge.login()
    return {"whoami": judge.whoami(), "alice": judge.find_user("alice"), "ALICE": judge.find_user("ALICE"),
            "nobody": judge.find_user("nobody-here"), "per_page": judge.config().get("postsPerPage"),
            "requests": judge.request_count}


def login_refused(make: Make, ctx: dict, admin: Any = None) -> dict:
    judge = make("judge", secret="wrong-password")
    first = outcome(judge.login)
    again = outcome(judge.login)
    return {"first": first, "again": again, "requests": judge.request_count}


def crawler_user_agent(make: Make, ctx: dict, admin: Any = None) -> dict:
    judge = make("judge")
    judge.http.client.headers["User-Agent"] = "forumbot/0.1"
    return {"login": outcome(judge.login), "requests": judge.request_count}


def token(make: Make, ctx: dict, admin: Any = None) -> dict:
    judge = make("judge", auth="token")
    judge.login()
    pid = judge.reply(ctx["tid"], "A reply written with a bearer token, no session.")
    return {"whoami": judge.whoami(), "pid": pid, "wrong": outcome(make("judge", auth="token", secret="nope").login)}


def stock_judge(make: Make, ctx: dict, admin: Any = None) -> dict:
    """The judge is a plain member with no posts and no reputation, stock anti-spam settings."""
    judge = make(ctx.get("judge", "judge"))
    out: dict[str, Any] = {}
    out["thread"] = outcome(lambda: judge.create_thread(ctx["cid"], "Killer club game 0", "Welcome, the game starts soon."))
    out["again"] = outcome(lambda: judge.create_thread(ctx["cid"], "Killer club game 0", "Welcome, the game starts soon."))
    out["reply"] = outcome(lambda: judge.reply(ctx["tid"], "A reply from the judge to an existing thread."))
    out["chat"] = outcome(lambda: judge.send_pm("alice", "Game 0", "Your role: villager."))
    out["chat2"] = outcome(lambda: judge.send_pm("bob", "Game 0", "Your role: villager."))
    out["account"] = {k: judge.account().get(k) for k in ("reputation", "postcount", "groupTitleArray")}
    out["requests"] = judge.request_count
    return out


def stock_newbie(make: Make, ctx: dict, admin: Any = None) -> dict:
    """A player registered a moment ago, stock anti-spam settings."""
    newbie = make(ctx["newbie"], min_write_interval_seconds=0, chat_interval_seconds=0)
    out: dict[str, Any] = {}
    out["too_new"] = outcome(lambda: newbie.reply(ctx["tid"], "My very first post on this forum."))
    newbie._sleep(11)
    out["short"] = outcome(lambda: newbie.reply(ctx["tid"], "投 李四"))
    out["queued"] = outcome(lambda: newbie.reply(ctx["tid"], "My very first post on this forum."))
    out["queued_again"] = outcome(lambda: newbie.reply(ctx["tid"], "My very first post on this forum."))
    out["chat1"] = outcome(lambda: newbie.send_pm("judge", "", "Hello judge, is this the right place?"))
    out["chat2"] = outcome(lambda: newbie.send_pm("judge", "", "Hello again, a second message at once."))
    out["chat_interval"] = newbie.chat_interval
    out["requests"] = newbie.request_count
    return out


def thread(make: Make, ctx: dict, admin: Any = None) -> dict:
    """The judge opens a thread; players reply (a quote, an edit); the judge reads it whole, then polls."""
    judge, alice, bob = make("judge"), make("alice"), make("bob")
    out: dict[str, Any] = {}
    tid = judge.create_thread(ctx["cid"], "Killer club game 1", "Welcome to **game 1**.\n\nVote with `##vote name`.")
    out["tid"] = tid
    p1 = alice.reply(tid, "##vote bob\n\nbecause he is quiet")
    p2 = bob.reply(tid, f"> ##vote bob\n\n@alice said in [Killer club game 1](/post/{p1}):\n> ##vote bob\n\nNo, ##vote carol")
    alice.edit_post(p1, "##vote carol\n\n(changed my mind)")
    out["posts"] = judge.thread_posts(tid)
    before = judge.request_count
    out["idle"] = judge.thread_posts(tid, out["posts"][-1].post_id)
    out["idle_requests"] = judge.request_count - before
    p3 = alice.reply(tid, "VOTE: dave")
    before = judge.request_count
    out["new"] = judge.thread_posts(tid, out["posts"][-1].post_id)
    out["new_requests"] = judge.request_count - before
    out["ids"] = (p1, p2, p3)
    out["cursor"] = judge.export_cursor()
    out["find"] = judge.find_thread(ctx["cid"], "Killer club game 1")
    out["find_none"] = judge.find_thread(ctx["cid"], "No such thread")
    return out


def paging(make: Make, ctx: dict, admin: Any = None) -> dict:
    """A thread of more than two pages read whole, then from a post id without a cursor."""
    judge = make("judge")
    out: dict[str, Any] = {}
    posts = judge.thread_posts(ctx["long_tid"])
    out["count"] = len(posts)
    out["requests"] = judge.request_count
    fresh = make("judge")
    before_last = posts[-3].post_id
    fresh.login()
    start = fresh.request_count
    out["tail"] = [p.post_id for p in fresh.thread_posts(ctx["long_tid"], before_last)]
    out["tail_requests"] = fresh.request_count - start
    out["ids"] = [p.post_id for p in posts]
    return out


def moderation(make: Make, ctx: dict, admin: Any = None) -> dict:
    judge, alice = make("judge"), make("alice")
    out: dict[str, Any] = {}
    tid = ctx["tid"]
    out["alice_lock"] = outcome(lambda: alice.lock_thread(tid))
    judge.lock_thread(tid)
    out["reply_locked"] = outcome(lambda: alice.reply(tid, "Can I still post here after the lock?"))
    judge.unlock_thread(tid)
    out["reply_unlocked"] = outcome(lambda: alice.reply(tid, "Now I can post again, good."))
    out["missing_thread"] = outcome(lambda: judge.reply(999999, "Where does this go, nowhere?"))
    out["missing_read"] = outcome(lambda: judge.thread_posts(999999))
    out["edit_others"] = outcome(lambda: alice.edit_post(ctx["judge_pid"], "Alice edits the judge's post"))
    out["post_delay"] = outcome(lambda: make("bob", min_write_interval_seconds=0).reply(tid, "One reply from bob here.")
                                and None)
    return out


def post_delay(make: Make, ctx: dict, admin: Any = None) -> dict:
    bob = make("bob", min_write_interval_seconds=0)
    out: dict[str, Any] = {"first": outcome(lambda: bob.reply(ctx["tid"], "One reply from bob here."))}
    out["second"] = outcome(lambda: bob.reply(ctx["tid"], "And another at once, too quickly."))
    out["learned"] = bob.post_interval
    return out


def private_messages(make: Make, ctx: dict, admin: Any = None) -> dict:
    judge, alice, bob = make("judge"), make("alice"), make("bob")
    out: dict[str, Any] = {}
    out["first_poll"] = judge.private_messages()
    high = max([m.message_id for m in out["first_poll"]], default=0)
    sent = judge.send_pm("alice", "Killer club game 1 · judge", "Your role: **Killer**.\n\nKill at night with `kill name`.")
    out["sent"] = sent
    long_body = "\n\n".join(f"Paragraph {i}: " + "rules text " * 20 for i in range(1, 8))
    out["long"] = judge.send_pm("bob", "Killer club game 1 · judge", long_body)
    out["found"] = judge.find_sent_pm("alice", "Killer club game 1 · judge",
                                      "Your role: **Killer**.\n\nKill at night with `kill name`.", conversation_id=sent.conversation_id)
    out["found_long"] = judge.find_sent_pm("bob", "Killer club game 1 · judge", long_body)
    out["not_found"] = judge.find_sent_pm("alice", "Killer club game 1 · judge", "Never sent this text at all.")
    alice.send_pm("judge", "", "kill bob")
    bob.send_pm("judge", "", "> Your role\n\nWhat is my role again? I am **confused**.")
    out["poll"] = judge.private_messages(high)
    before = judge.request_count
    out["idle"] = judge.private_messages(max(m.message_id for m in out["poll"]))
    out["idle_requests"] = judge.request_count - before
    before = judge.request_count
    out["again_unacked"] = judge.private_messages(high)  # not acknowledged: the rooms are read again
    out["again_requests"] = judge.request_count - before
    out["cursor"] = judge.export_cursor()
    out["no_user"] = outcome(lambda: judge.send_pm("nobody-here", "s", "Hello nobody, are you there?"))
    out["in_room"] = judge.send_pm("alice", "", "Night 1 has begun.", conversation_id=sent.conversation_id)
    return out


def chat_delay_moderator(make: Make, ctx: dict, admin: Any = None) -> dict:
    """A Global Moderator judge: no post delay at all, chats 2 s apart (chatMessageDelay)."""
    judge = make("judge", min_write_interval_seconds=0, chat_interval_seconds=0)
    out: dict[str, Any] = {"replies": [outcome(lambda i=i: judge.reply(ctx["tid"], f"Judge reply {i} in a quick row."))
                                       for i in range(3)]}
    out["chat1"] = outcome(lambda: judge.send_pm("alice", "", "First of two quick chat messages."))
    out["chat2"] = outcome(lambda: judge.send_pm("alice", "", "Second of two quick chat messages."))
    out["chat_interval"] = judge.chat_interval
    out["chat3"] = outcome(lambda: judge.send_pm("alice", "", "Third chat message, after the wait."))
    out["restricted_ok"] = outcome(lambda: judge.send_pm("carol", "", "A moderator may chat with carol anyway."))
    return out


def chat_restricted(make: Make, ctx: dict, admin: Any = None) -> dict:
    alice = make("alice")
    return {"restricted": outcome(lambda: alice.send_pm("carol", "", "Hello carol, can we talk about the game?"))}


def forum_check(make: Make, ctx: dict, admin: Any = None) -> dict:
    return {"judge": make("judge").check_report(14), "stock": make("stockjudge").check_report(14)}


def session_lost(make: Make, ctx: dict, admin: Any = None) -> dict:
    """The session cookie is gone (expired, the forum's sessions cleared): a write answers 403
    "Forbidden"; the adapter logs in again and sends it once more."""
    judge = make("judge")
    judge.login()
    judge.http.clear_cookies()
    return {"pid": judge.reply(ctx["tid"], "A reply after the session was lost."), "requests": judge.request_count}


SCENARIOS: dict[str, Callable[..., dict]] = {
    "login": login,
    "login-refused": login_refused,
    "crawler-user-agent": crawler_user_agent,
    "token": token,
    "stock-judge": stock_judge,
    "stock-newbie": stock_newbie,
    "thread": thread,
    "paging": paging,
    "moderation": moderation,
    "post-delay": post_delay,
    "private-messages": private_messages,
    "chat-restricted": chat_restricted,
    "chat-delay-moderator": chat_delay_moderator,
    "forum-check": forum_check,
    "session-lost": session_lost,
}
