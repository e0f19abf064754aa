"""phpBB: no read skips a private message or a post, whatever request fails when (issue 24).

A fake phpBB 3.3 whose pages are the recorded ones (``captures/judge_ops.json``: the inbox folder and a
message; ``captures/pages.json``: a topic page) with their rows repeated: the inbox newest first, 25 a page
(``topics_per_page``), with prosilver's pagination; a message's page with its "Sent:" minute; a topic 10
posts a page; message and post ids global and growing. It is polled the way the bot polls
(``poll_loop.Consumer``, a copy of ``Bot._poll``); hypothesis chooses which requests fail (refused
connection, an answer lost, cut short, a proxy's page) and when players write.
"""

from __future__ import annotations

import html
import re
import sys
from pathlib import Path

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from phpbb_cassette import _path_of, load

from forumbot.forums.phpbb import PhpBBForum

sys.path.insert(0, str(Path(__file__).parents[1]))
from no_skip import Faulty, events, play, poll_until_read
from poll_loop import Consumer

PLAYERS = [f"Player{i}" for i in range(8)]
_PAGINATION = re.compile(r'<div class="pagination">.*?</div>', re.S)


def _page(capture: str, path: str) -> str:
    return [e for e in load(capture) if e["path"] == path][-1]["body"]


def _pagination(base: str, count: int, noun: str, start: int, per: int) -> str:
    pages = max(1, -(-count // per))
    now = start // per + 1
    items = []
    for n in range(1, pages + 1):
        items.append(f'<li class="active"><span>{n}</span></li>' if n == now else
                     f'<li><a class="button" href="{base}&amp;start={(n - 1) * per}" role="button">{n}</a></li>')
    if now < pages:
        items.append(f'<li class="arrow next"><a class="button button-icon-only" href="{base}&amp;start={now * per}" '
                     'rel="next" role="button"><i class="icon fa-chevron-right fa-fw" aria-hidden="true"></i>'
                     '<span class="sr-only">Next</span></a></li>')
    bar = "<ul>\n" + "\n".join(items) + "\n</ul>" if pages > 1 else "&bull; Page <strong>1</strong> of <strong>1</strong>"
    return f'<div class="pagination">\n\t\t\t{count} {noun}{"s" if count != 1 else ""}\n{bar}\n\t\t\t\t\t</div>'


class FakePhpBB:
    def __init__(self) -> None:
        inbox = _page("judge_ops", "/ucp.php?i=pm&folder=inbox")
        a = inbox.index('<li class="row bg2">')
        b = inbox.index('<li class="row bg1">')
        end = inbox.index("</ul>", b)
        self.row = inbox[a:b]
        self.inbox_head, self.inbox_tail = inbox[:a], inbox[end:]
        self.view = _page("judge_ops", "/ucp.php?i=pm&mode=view&f=0&p=7")
        topic = _page("pages", "/viewtopic.php?t=8")
        first, last = topic.index('<div id="p58"'), topic.index('<div id="p67"')
        bottom = topic.index('<div class="action-bar bar-bottom">')
        self.post = topic[last:bottom]
        self.topic_head, self.topic_tail = topic[:first], topic[bottom:]
        self.ids = {"mid": 0, "pid": 0}
        self.minute = 0
        self.pms: list[tuple[int, str, str, str]] = []  # (id, sender, subject, text), oldest first
        self.posts: list[tuple[int, str, str]] = []
        self.faulty = Faulty(self.respond)

    def _when(self) -> tuple[str, str]:
        self.minute += 1
        h, m = divmod(self.minute, 60)
        return f"2026-12-01T{12 + h:02d}:{m:02d}:00+00:00", f"Tue Dec 01, 2026 {h + 12 - 12 if h else 12}:{m:02d} pm"

    def pm(self, sender: str, text: str) -> int:
        self.ids["mid"] += 1
        self.pms.append((self.ids["mid"], sender, "Re: Your role", text))
        self._when()
        return self.ids["mid"]

    def reply(self, author: str, text: str) -> int:
        self.ids["pid"] += 1
        self.posts.append((self.ids["pid"], author, text))
        return self.ids["pid"]

    def respond(self, request: httpx.Request) -> httpx.Response:
        status, body = self._answer(_path_of(request.url), request.url.params)
        return httpx.Response(status, content=body.encode("utf-8"), headers={"content-type": "text/html; charset=UTF-8"})

    def _answer(self, path: str, q: httpx.QueryParams) -> tuple[int, str]:
        start = int(q.get("start", 0) or 0)
        if path.startswith("/ucp.php?i=pm&folder=inbox"):
            newest = list(reversed(self.pms))
            rows = []
            for i, (mid, sender, subject, _) in enumerate(newest[start: start + 25]):
                r = self.row.replace("p=7", f"p={mid}").replace('value="7"', f'value="{mid}"')
                r = r.replace(">Re: Your role<", f">{html.escape(subject)}<").replace(">Alice<", f">{sender}<")
                rows.append(r.replace("row bg2", f"row bg{2 - i % 2}"))
            head = re.sub(r"\(\d+ out of 50 messages stored\)", f"({len(self.pms)} out of 50 messages stored)",
                          self.inbox_head)
            head = _PAGINATION.sub(_pagination("./ucp.php?i=pm&amp;folder=inbox", len(self.pms), "message",
                                               start, 25), head, count=1)
            return 200, head + "".join(rows) + "\n\t\t" + self.inbox_tail
        if m := re.fullmatch(r"/ucp\.php\?i=pm&mode=view&f=0&p=(\d+)", path):
            found = next((p for p in self.pms if p[0] == int(m.group(1))), None)
            if found is None:
                return 404, self.view
            mid, sender, subject, text = found
            page = self.view.replace("post-7", f"post-{mid}").replace("profile7", f"profile{mid}")
            page = page.replace("p=7", f"p={mid}").replace("/pm/7/", f"/pm/{mid}/")
            page = page.replace('class="first">Re: Your role<', f'class="first">{html.escape(subject)}<')
            page = page.replace('class="username">Alice</a>\n\t\t\t<br /><strong>Recipient',
                                f'class="username">{sender}</a>\n\t\t\t<br /><strong>Recipient')
            a = page.index('<div class="content">')
            b = page.index("</div>", a)
            return 200, page[:a] + f'<div class="content">{html.escape(text)}' + page[b:]
        if path.startswith("/viewtopic.php?t=8"):
            blocks = []
            for i, (pid, author, text) in enumerate(self.posts[start: start + 10]):
                p = self.post.replace("p67", f"p{pid}").replace("profile67", f"profile{pid}").replace("p=67", f"p={pid}")
                p = p.replace(">Ivan<", f">{author}<").replace("Ivan says hello, vote nobody yet.", html.escape(text))
                p = p.replace("2026-12-01T11:39:30+00:00", f"2026-12-01T12:{(start + i) // 60:02d}:{(start + i) % 60:02d}+00:00")
                blocks.append(p)
            bar = _pagination("./viewtopic.php?t=8", len(self.posts), "post", start, 10)
            return 200, _PAGINATION.sub(bar, self.topic_head) + "".join(blocks) + _PAGINATION.sub(bar, self.topic_tail)
        raise AssertionError(f"not modelled: {path}")


def _judge(site: FakePhpBB) -> PhpBBForum:
    judge = PhpBBForum("http://127.0.0.1:8090", "Judge", "pw", transport=httpx.MockTransport(site.faulty.handle),
                       sleep=lambda s: None, retries=0)
    judge._logged_in, judge._user = True, "Judge"
    return judge


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(events(len(PLAYERS)), max_size=25))
def test_every_private_message_and_post_is_stored_once_whatever_fails(played):
    site = FakePhpBB()
    pms: dict[int, str] = {}
    posts: dict[int, str] = {}
    for i in range(26):  # more than a page of the inbox (25), three pages of posts (each poll parses them all)
        pms[site.pm(PLAYERS[i % 8], f"hello {i}")] = f"hello {i}"
        posts[site.reply(PLAYERS[i % 8], f"here {i}")] = f"here {i}"
    consumer = Consumer(_judge(site), "Judge", thread_id=8)

    def write(kind: str, a: int) -> None:
        if kind == "pm":
            text = f"VOTE: Player{(a + 1) % 8} ({len(pms)})"
            pms[site.pm(PLAYERS[a], text)] = text
        else:
            text = f"##vote Player{a} ({len(posts)})"
            posts[site.reply(PLAYERS[a], text)] = text

    play(consumer, site.faulty, played, write)
    poll_until_read(consumer, pms, posts)


def test_a_subject_with_spaces_is_sent_trimmed_and_found_as_phpbb_stores_it():
    """phpBB trims a form's subject (and its form takes 120 characters): the adapter sends it so, and finds
    its message in the recorded sent box by it (before, "  Your role " was never found: WriteUncertain)."""
    exchanges = {e["path"]: e for e in load("judge_ops") if e["method"] == "GET"}
    sent_answer = next(e for e in load("judge_ops") if e["method"] == "POST" and "compose" in e["path"])

    def handle(request: httpx.Request) -> httpx.Response:
        e = exchanges[_path_of(request.url)]
        return httpx.Response(e["status"], content=e["body"].encode("utf-8"), headers={"content-type": "text/html"})

    judge = PhpBBForum("http://127.0.0.1:8090", "Judge", "pw", transport=httpx.MockTransport(handle),
                       sleep=lambda s: None, retries=0)
    judge._logged_in, judge._user = True, "Judge"
    body = "You are a [b]Citizen[/b]. Good luck."
    assert judge.find_sent_pm("Alice", "  Your \n role ", body) is not None
    fields: list[dict] = []
    judge._profile = lambda name: (60, name)  # type: ignore[method-assign]
    judge._write = lambda path, f, what, action=None: fields.append(dict(f)) or httpx.Response(  # type: ignore[method-assign]
        200, content=sent_answer["body"].encode("utf-8"))
    judge.send_pm("Alice", "  Your role " + "x" * 200, body)
    assert fields[0]["subject"] == ("Your role " + "x" * 200)[:120]
