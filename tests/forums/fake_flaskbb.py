"""A fake FlaskBB 3.0 (conversations 3.0.7) for httpx.MockTransport, its pages built from the recorded ones.

The pages are the real pages of ``pages/`` (``inbox.html``, ``conversation.html``, ``topic_page1.html``)
with their rows repeated: one recorded conversation row, message and post serve as templates, the
pagination is FlaskBB's own markup. What it models is FlaskBB's behaviour that reading depends on
(``conversations/views.py``, ``models.py`` of the plugin; ``flaskbb/forum/views.py``):

- the judge's box lists its conversations (received and sent) by ``date_modified``, newest first, 10 a
  page (``TOPICS_PER_PAGE``); a row shows the time and an excerpt of the conversation's *last* message;
- a new message in a conversation sets its ``date_modified`` and (from a player) its ``unread`` flag;
- opening an unread conversation clears the flag *and sets ``date_modified``* (``Conversation.save()``),
  so it moves to the top of the list;
- message and post ids are global and grow; a topic shows 10 posts a page, oldest first.

Only GET pages are served (the adapter is marked logged in by :func:`judge_on`); ``fail`` is a set of
request numbers (0-based, counted over all requests) answered by a connection error instead; ``faults``
maps request numbers to other faults: ``"lost"`` (done, e.g. a conversation opened, but the answer is
lost), ``"cut"`` (the page cut after a fraction of it), ``"proxy"`` (a proxy's error page with HTTP 200).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import parse_qsl, quote

import httpx

from forumbot.forums.flaskbb import FlaskBBForum

PAGES = Path(__file__).with_name("pages")
PER_PAGE = 10
JUDGE = "法官"
T0 = datetime(2026, 11, 29, 16, 0, 0, tzinfo=UTC)
_PAGINATION = re.compile(r'<ul class="pagination".*?</ul>', re.S)


def _between(text: str, start: str, end: str) -> tuple[int, int]:
    a = text.index(start)
    return a, text.index(end, a + len(start))


def _stamp(t: datetime) -> str:
    return t.isoformat()


def pagination(path: str, page: int, last: int) -> str:
    """FlaskBB's pagination bar (as in topic_page1.html): the current page active, links to the others."""
    items = ['<li class="page-item disabled"><a class="page-link"\n   href="#"><span class="pages-label">Pages</span></a></li>']
    for n in range(1, last + 1):
        if n == page:
            items.append(f'<li class="page-item active"><a class="page-link" href="#">{n}</a></li>')
        else:
            items.append(f'<li class="page-item"><a class="page-link"\n   href="{path}?page={n}">{n}</a></li>')
    if page < last:
        items.append(f'<li class="page-item"><a class="page-link"\n   href="{path}?page={page + 1}">»</a></li>')
    return ('<ul class="pagination"\n        hx-boost="true"\n        hx-target="#page-content"\n'
            '        hx-select="#page-content"\n        hx-swap="outerHTML show:window:top"\n'
            '        hx-select-oob="unset">\n        ' + "\n        ".join(items) + "\n    </ul>")


class Templates:
    """The recorded pages cut into a frame and one repeatable item each."""

    def __init__(self) -> None:
        inbox = (PAGES / "inbox.html").read_text("utf-8")
        a, b = _between(inbox, '<div class="row conversation-row hover unread">', '<div class="row conversation-row hover unread">')
        self.inbox_row = inbox[a:b]
        end = inbox.index("    </div>\n</div>", inbox.rindex('<div class="row conversation-row'))
        self.inbox_head, self.inbox_tail = inbox[:a], inbox[end:]
        conv = (PAGES / "conversation.html").read_text("utf-8")
        a = conv.index('<div class="conversation-message " id="mid4">')
        b = conv.index("    </div>\n</div>", a)
        self.conv_head, self.message, self.conv_tail = conv[:a], conv[a:b], conv[b:]
        topic = (PAGES / "topic_page1.html").read_text("utf-8")
        a, b = _between(topic, '<div id="9" class="row post-row">', '<div id="10" class="row post-row">')
        self.post = topic[a:b]
        first = topic.index('<div id="1" class="row post-row">')
        tail = topic.rindex("</div>", 0, topic.index("<!-- end topic-body -->"))
        self.topic_head, self.topic_tail = topic[:first], topic[tail:]

    def inbox_page(self, rows: list[str], page: int, last: int, count: int) -> str:
        head = self.inbox_head.replace("3/6", f"{count}/50")
        return _PAGINATION.sub(pagination("/conversations/inbox", page, last), head + "".join(rows) + self.inbox_tail)

    def row(self, cid: int, subject: str, frm: str, to: str, when: datetime, excerpt_html: str, unread: bool) -> str:
        r = self.inbox_row.replace("/conversations/6/", f"/conversations/{cid}/")
        r = r.replace("<strong>查验</strong>", f"<strong>{html.escape(subject)}</strong>" if unread else html.escape(subject))
        r = r.replace("hover unread", "hover unread" if unread else "hover ")
        r = r.replace('href="/user/%E5%B0%8F%E7%BA%A2">小红</a>', f'href="/user/{quote(frm)}">{html.escape(frm)}</a>')
        r = r.replace('href="/user/%E6%B3%95%E5%AE%98">法官</a>', f'href="/user/{quote(to)}">{html.escape(to)}</a>')
        r = r.replace("2026-11-29T16:50:05.042869+00:00", _stamp(when))
        return r.replace("<p>查验 小明</p>", excerpt_html)

    def conversation_page(self, cid: int, subject: str, messages: list[str]) -> str:
        head = self.conv_head.replace("<strong>夜间行动</strong>", f"<strong>{html.escape(subject)}</strong>")
        tail = self.conv_tail.replace("/conversations/4/view", f"/conversations/{cid}/view")
        return head + "".join(messages) + tail

    def message_html(self, mid: int, author: str, when: datetime, body_html: str) -> str:
        m = self.message.replace('id="mid4"', f'id="mid{mid}"').replace("/message/4/raw", f"/message/{mid}/raw")
        m = m.replace('href="/user/%E5%B0%8F%E6%98%8E">小明</a>', f'href="/user/{quote(author)}">{html.escape(author)}</a>')
        m = m.replace("2026-11-29 16:50:04.981292+00:00", str(when)).replace("2026-11-29T16:50:04.981292+00:00", _stamp(when))
        a, b = _between(m, '<div class="message-content">', "            </div>\n        </div>")
        return m[:a] + '<div class="message-content">\n                ' + body_html + "\n" + m[b:]

    def topic_page(self, tid: int, posts: list[str], page: int, last: int) -> str:
        return _PAGINATION.sub(pagination(f"/topic/{tid}-di-yi-tian-day-1", page, last),
                               self.topic_head + "".join(posts) + self.topic_tail)

    def post_html(self, pid: int, author: str, when: datetime, body_html: str) -> str:
        p = self.post
        for old, new in (('id="9"', f'id="{pid}"'), ("/post/9", f"/post/{pid}"), ('"pid9"', f'"pid{pid}"'),
                         ("<strong>#9</strong>", f"<strong>#{pid}</strong>"), ('data-post-id="9"', f'data-post-id="{pid}"')):
            p = p.replace(old, new)
        p = p.replace('<a href="/user/alice">alice</a>', f'<a href="/user/{quote(author)}">{html.escape(author)}</a>')
        p = p.replace("2026-11-29T16:50:04.424741+00:00", _stamp(when))
        return p.replace("<p>第 9 楼</p>", body_html)


TEMPLATES: Templates | None = None


def templates() -> Templates:
    global TEMPLATES
    if TEMPLATES is None:
        TEMPLATES = Templates()
    return TEMPLATES


@dataclass
class Message:
    mid: int
    author: str
    text: str
    when: datetime


@dataclass
class Conversation:
    """The judge's copy of a conversation with ``other``."""

    cid: int
    other: str
    subject: str
    from_user: str
    messages: list[Message] = field(default_factory=list)
    modified: datetime = T0
    unread: bool = False


class FakeFlaskBB:
    """The judge's side of a FlaskBB forum: its box of conversations and one thread (id 1)."""

    def __init__(self) -> None:
        self.t = T0
        self.ids = {"mid": 0, "cid": 0, "pid": 0}
        self.convs: dict[int, Conversation] = {}
        self.posts: list[Message] = []
        self.requests = 0
        self.fail: set[int] = set()
        self.faults: dict[int, tuple[str, float]] = {}  # request number -> (kind, where): see handle()
        self.mangle: Callable[[str, str], str] | None = None  # (path, page) -> the page as served

    def tick(self) -> datetime:
        self.t += timedelta(seconds=1)
        return self.t

    def _next(self, kind: str) -> int:
        self.ids[kind] += 1
        return self.ids[kind]

    def judge_sends(self, to: str, subject: str, text: str) -> int:
        """A new conversation started by the judge (as send_pm does): read, on top of the box."""
        c = Conversation(self._next("cid"), to, subject, JUDGE)
        when = self.tick()
        c.messages.append(Message(self._next("mid"), JUDGE, text, when))
        c.modified = when
        self.convs[c.cid] = c
        return c.cid

    def player_sends(self, sender: str, text: str, subject: str = "行动", reply_to: int | None = None) -> int:
        """A player's message: into the judge's conversation ``reply_to`` (a reply), else a new one."""
        c = self.convs.get(reply_to) if reply_to else None
        if c is None:
            c = Conversation(self._next("cid"), sender, subject, sender)
            self.convs[c.cid] = c
        when = self.tick()
        mid = self._next("mid")
        c.messages.append(Message(mid, sender, text, when))
        c.modified, c.unread = when, True
        return mid

    def player_posts(self, author: str, text: str) -> int:
        pid = self._next("pid")
        self.posts.append(Message(pid, author, text, self.tick()))
        return pid

    def text_of(self, item_id: int, post: bool = False) -> str:
        """The text a player wrote in message (or post) ``item_id``."""
        items = self.posts if post else [m for c in self.convs.values() for m in c.messages]
        return next(m.text for m in items if m.mid == item_id)

    # -- serving --------------------------------------------------------------------------------------

    @property
    def transport(self) -> httpx.MockTransport:
        return httpx.MockTransport(self.handle)

    def handle(self, request: httpx.Request) -> httpx.Response:
        n, self.requests = self.requests, self.requests + 1
        if n in self.fail:
            raise httpx.ConnectError("injected failure", request=request)
        fault, where = self.faults.get(n, ("", 0.0))
        if fault == "proxy":  # a proxy's own error page, served with 200
            return httpx.Response(200, text=PROXY_PAGE, headers={"content-type": "text/html"})
        path = request.url.path
        page = int(request.url.params.get("page", "1") or 1)
        if request.method == "POST" and path == "/conversations/new":  # NewConversation.post, as sent
            form = dict(parse_qsl(request.content.decode()))
            self.judge_sends(form["to_user"], form["subject"], form["message"])
            return httpx.Response(302, headers={"location": "/conversations/sent"})
        if path == "/conversations/inbox":
            body = self._inbox(page)
        elif path == "/conversations/sent":  # Sent.get: the judge's conversations not addressed to the judge
            body = self._inbox(page, sent=True)
        elif m := re.fullmatch(r"/conversations/(\d+)/view", path):
            c = self.convs.get(int(m.group(1)))
            if c is None:
                return httpx.Response(404, text="not found")
            if c.unread:  # ViewConversation.get: unread = False; conversation.save() sets date_modified
                c.unread, c.modified = False, self.tick()
            t = templates()
            body = t.conversation_page(c.cid, c.subject, [t.message_html(x.mid, x.author, x.when, _md(x.text))
                                                           for x in c.messages])
        elif re.fullmatch(r"/topic/1(-[\w-]+)?", path):
            last = max(1, -(-len(self.posts) // PER_PAGE))
            page = min(page, last)
            t = templates()
            shown = self.posts[(page - 1) * PER_PAGE: page * PER_PAGE]
            body = t.topic_page(1, [t.post_html(p.mid, p.author, p.when, _md(p.text)) for p in shown], page, last)
        else:
            return httpx.Response(404, text="not found")
        if self.mangle is not None:
            body = self.mangle(path, body)
        if fault == "lost":  # acted on (an opened conversation moved up), the answer never came
            raise httpx.ReadTimeout("injected: answer lost", request=request)
        if fault == "cut":  # the connection dropped mid-page: what arrived is a prefix of it
            body = body[: int(len(body) * where)]
        return httpx.Response(200, text=body, headers={"content-type": "text/html; charset=utf-8"})

    def _inbox(self, page: int, sent: bool = False) -> str:
        t = templates()
        order = sorted((c for c in self.convs.values() if not sent or c.from_user == JUDGE),
                       key=lambda c: (c.modified, c.cid), reverse=True)
        last = max(1, -(-len(order) // PER_PAGE))
        rows = []
        for c in order[(page - 1) * PER_PAGE: page * PER_PAGE]:
            m = c.messages[-1]
            rows.append(t.row(c.cid, c.subject, c.from_user, JUDGE if c.from_user != JUDGE else c.other, m.when,
                              _md(m.text[:150]), c.unread))
        return t.inbox_page(rows, page, last, len(order))


PROXY_PAGE = ("<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center>"
              "<hr><center>nginx</center></body></html>")


def _md(text: str) -> str:
    """Markdown as FlaskBB renders plain paragraphs."""
    return "\n".join(f"<p>{html.escape(p)}</p>" for p in text.split("\n\n"))


def judge_on(site: FakeFlaskBB, **kwargs) -> FlaskBBForum:
    """A FlaskBB adapter for the judge on ``site``, logged in, with no retries (a failure is a failure)."""
    kwargs.setdefault("retries", 0)
    forum = FlaskBBForum("http://flaskbb.test", JUDGE, "pw", **kwargs)
    forum.http.client = httpx.Client(base_url="http://flaskbb.test", transport=site.transport, follow_redirects=False,
                                     event_hooks={"request": [forum.http._count]})
    forum._logged_in, forum._user = True, JUDGE
    forum._csrf, forum._csrf_at = "token", float("inf")
    return forum
