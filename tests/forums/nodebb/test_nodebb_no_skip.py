"""NodeBB: no read skips a chat message or a post, whatever request fails when (issue 24).

A fake NodeBB whose answers are the recorded ones (``captures/private-messages``, ``captures/paging``) with
their items repeated: the chat list by the time of each room's last message, newest first, 50 a page, its
teaser the last message; a room's messages newest 50 first (``start``), each page oldest first; a topic
20 posts a page with its ``pagination``; mids and pids global and growing. It is polled the way the bot
polls (``poll_loop.Consumer``, a copy of ``Bot._poll``); hypothesis chooses which requests fail (refused
connection, an answer lost, cut short, a proxy's page) and when players write.
"""

from __future__ import annotations

import copy
import json
import math
import re
import sys
from pathlib import Path

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from forumbot.forums.nodebb import NodeBBForum

sys.path.insert(0, str(Path(__file__).parents[1]))
from no_skip import Faulty, events, play, poll_until_read
from poll_loop import Consumer

CAPTURES = Path(__file__).with_name("captures")
PLAYERS = [f"player{i}" for i in range(56)]


def _recorded(scenario: str, name: str) -> dict:
    return json.loads(json.loads((CAPTURES / scenario / name).read_text("utf-8"))["body"])


class FakeNodeBB:
    def __init__(self) -> None:
        self.chats = _recorded("private-messages", "004_judge_GET_api_v3_chats.json")
        self.messages = _recorded("private-messages", "005_judge_GET_api_v3_chats_3_messages.json")
        self.topic = _recorded("paging", "004_judge_GET_api_topic_3.json")
        self.config = _recorded("paging", "003_judge_GET_api_config.json")
        self.judge_uid = int(self.config["uid"])
        self.ms = 1796124406718
        self.ids = {"mid": 0, "pid": 0}
        self.rooms: dict[int, list[dict]] = {}  # roomId -> messages, oldest first
        self.room_of: dict[str, int] = {}
        self.posts: list[dict] = []
        self.faulty = Faulty(self.respond)

    def _user(self, name: str) -> dict:
        uid = 10 + PLAYERS.index(name) if name in PLAYERS else self.judge_uid
        user = copy.deepcopy(self.messages["response"]["messages"][0]["fromUser"])
        user.update(uid=uid, username=name, userslug=name, displayname=name)
        return user

    def chat(self, sender: str, text: str) -> int:
        self.ms += 1000
        self.ids["mid"] += 1
        rid = self.room_of.setdefault(sender, len(self.room_of) + 1)
        m = copy.deepcopy(self.messages["response"]["messages"][0])
        m.update(mid=self.ids["mid"], messageId=self.ids["mid"], content=f'<p dir="auto">{text}</p>\n', timestamp=self.ms,
                 fromuid=self._user(sender)["uid"], roomId=str(rid), fromUser=self._user(sender))
        self.rooms.setdefault(rid, []).append(m)
        return self.ids["mid"]

    def post(self, author: str, text: str) -> int:
        self.ms += 1000
        self.ids["pid"] += 1
        p = copy.deepcopy(self.topic["posts"][1])
        p.update(pid=self.ids["pid"], content=f'<p dir="auto">{text}</p>\n', timestamp=self.ms, index=len(self.posts),
                 user={**p["user"], "uid": self._user(author)["uid"], "username": author, "userslug": author})
        self.posts.append(p)
        return self.ids["pid"]

    def respond(self, request: httpx.Request) -> httpx.Response:
        content = json.dumps(self._answer(request), ensure_ascii=False).encode("utf-8")
        return httpx.Response(200, content=content, headers={"content-type": "application/json; charset=utf-8"})

    def _answer(self, request: httpx.Request) -> dict:
        path, q = request.url.path, request.url.params
        if path == "/api/v3/chats":
            per, page = int(q.get("perPage", 20)), int(q.get("page", 1))
            order = sorted(self.rooms, key=lambda r: self.rooms[r][-1]["timestamp"], reverse=True)
            rooms = []
            for rid in order[(page - 1) * per: page * per]:
                last = self.rooms[rid][-1]
                room = copy.deepcopy(self.chats["response"]["rooms"][0])
                room.update(roomId=rid, timestamp=last["timestamp"], messageCount=len(self.rooms[rid]))
                room["teaser"].update(fromuid=last["fromuid"], content=re.sub("<[^>]+>", "", last["content"]).strip(),
                                      timestamp=last["timestamp"], roomId=str(rid))
                rooms.append(room)
            return {**self.chats, "response": {**self.chats["response"], "rooms": rooms}}
        if m := re.fullmatch(r"/api/v3/chats/(\d+)/messages", path):
            start = int(q.get("start", 0))
            newest_first = list(reversed(self.rooms.get(int(m.group(1)), [])))
            return {**self.messages, "response": {"messages": list(reversed(newest_first[start: start + 50]))}}
        if path == "/api/topic/1":
            page = int(q.get("page", 1))
            count = max(1, math.ceil(len(self.posts) / 20))
            shown = self.posts[(page - 1) * 20: page * 20]
            return {**self.topic, "tid": 1, "postcount": len(self.posts), "posts": shown,
                    "pagination": {**self.topic["pagination"], "currentPage": page, "pageCount": count}}
        if m := re.fullmatch(r"/api/v3/posts/(\d+)/index", path):
            index = next((p["index"] for p in self.posts if p["pid"] == int(m.group(1))), 0)
            return {"status": {"code": "ok", "message": "OK"}, "response": {"index": index}}
        raise AssertionError(f"not modelled: {path}")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(events(len(PLAYERS)), max_size=30))
def test_every_chat_message_and_post_is_stored_once_whatever_fails(played):
    site = FakeNodeBB()
    site.post("judge", "Day 1 begins.")
    judge = NodeBBForum("http://nodebb.test", "judge", "x", transport=httpx.MockTransport(site.faulty.handle),
                        sleep=lambda s: None, retries=0)
    judge._uid, judge._user, judge._config = site.judge_uid, "judge", dict(site.config)
    consumer = Consumer(judge, "judge", thread_id=1)
    pms: dict[int, str] = {}
    posts: dict[int, str] = {}
    for i, name in enumerate(PLAYERS[:53]):  # more rooms than a page of the chat list, two pages of posts
        pms[site.chat(name, f"hello {i}")] = f"hello {i}"
        posts[site.post(name, f"here {i}")] = f"here {i}"

    def write(kind: str, a: int) -> None:
        if kind == "pm":
            text = f"vote player{(a + 1) % 6} ({len(pms)})"
            a = a if a < 6 else 50 + a % 6  # some of them in rooms on the list's second page
            pms[site.chat(PLAYERS[a], text)] = text
        else:
            text = f"VOTE: player{a} ({len(posts)})"
            posts[site.post(PLAYERS[a], text)] = text

    play(consumer, site.faulty, played, write)
    poll_until_read(consumer, pms, posts)


def test_a_subject_with_spaces_around_is_sent_as_a_bold_first_line():
    """The subject is the chat message's bold first line: "** 你的身份**" is not bold in Markdown (and a line
    break would split it), so it is sent stripped, on one line; find_sent_pm finds it by it."""
    site = FakeNodeBB()
    judge = NodeBBForum("http://nodebb.test", "judge", "x", transport=httpx.MockTransport(site.faulty.handle),
                        sleep=lambda s: None, retries=0)
    judge._uid, judge._user, judge._config = site.judge_uid, "judge", dict(site.config)
    sent: list[str] = []

    from forumbot.forums.nodebb_api import Answer as NodeBBAnswer

    answer = NodeBBAnswer(200, True, {"mid": 99, "timestamp": 1796124406718})

    judge._lookup = lambda name: (11, name)  # type: ignore[method-assign]
    judge._room_with = lambda uid: 4  # type: ignore[method-assign]
    judge._write = lambda method, path, body, **kw: sent.append(body["message"]) or answer  # type: ignore[method-assign]
    judge.send_pm("player1", "  你的身份\n ", "你是平民。")
    assert sent == ["**你的身份**\n\n你是平民。"]


def test_a_room_answer_older_than_the_chat_list_is_read_again_and_the_read_not_complete():
    """A cache served a room's messages as they were before its newest one (JSON, HTTP 200). Before: the room
    counted as read (its teaser stored) and a newer message in another room moved the cursor past the
    missing one for good. Now the read is ``inbox_incomplete`` and the room read again."""
    site = FakeNodeBB()
    judge = NodeBBForum("http://nodebb.test", "judge", "x", transport=httpx.MockTransport(site.faulty.handle),
                        sleep=lambda s: None, retries=0)
    judge._uid, judge._user, judge._config = site.judge_uid, "judge", dict(site.config)
    consumer = Consumer(judge, "judge")
    first = site.chat("player1", "hello")
    assert consumer.poll()
    missing = site.chat("player1", "vote player2")
    newer = site.chat("player2", "vote player3")
    answer = site._answer
    room = site.room_of["player1"]

    def old_copy(request: httpx.Request) -> dict:
        body = answer(request)
        if request.url.path == f"/api/v3/chats/{room}/messages":
            site._answer = answer  # type: ignore[method-assign]
            body["response"]["messages"] = [m for m in body["response"]["messages"] if m["mid"] != missing]
        return body

    site._answer = old_copy  # type: ignore[method-assign]
    assert consumer.poll()
    assert judge.inbox_incomplete and consumer.cursors["pm_after"] == first
    assert consumer.poll()
    assert set(consumer.stored["pm"]) == {first, missing, newer}
