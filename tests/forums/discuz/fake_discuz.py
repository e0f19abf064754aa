"""A contract fake of Discuz! X3.5's mobile API (``api/mobile/index.php``) for httpx.MockTransport.

It behaves as ../shared/notes/discuz.md says a real X3.5 does, from the JSON shapes in ``fixtures/``:
every value a string; cookies under a random prefix; a formhash that changes at login (and on
:meth:`rotate_formhash`), a stale one answered by an HTTP 503 page, a missing one by ``submit_invalid``;
the version-4 login answering HTTP 503 HTML although it logged in; flood control shared by posts and
PMs; UCenter's conversations-a-day limit (replies into existing conversations refused too); the new
account wait; captchas; ``mobile_is_closed``; a page past the end of a thread repeating the last page;
thread messages double-escaped with BBCode rendered; PMs escaped once and dated only by relative text
(``dgmdate(..., 'u')``), a PM of the current second missing from the conversation view; GBK sites
(form bodies decoded as GBK, JSON in UTF-8); failed logins counted and locking after 5.

Players act directly (:meth:`player_post`, :meth:`player_pm`) or through the adapter logged in as them.
"""

from __future__ import annotations

import copy
import hashlib
import html
import json
import math
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from urllib.parse import parse_qs

import httpx

FIXTURES = Path(__file__).with_name("fixtures")
CAPTURES = Path(__file__).with_name("captures")
ADMIN_GROUPS = {"1", "2", "3"}


def _fixture(name: str):
    text = (FIXTURES / name).read_text("utf-8")
    return json.loads(text) if name.endswith(".json") else text


@dataclass
class User:
    uid: int
    name: str
    password: str
    groupid: str = "10"
    lastpost: float = 0.0


@dataclass
class Post:
    pid: int
    author: User
    text: str  # what the author typed (BBCode)
    dateline: int
    position: int
    first: bool = False
    edited_by: str = ""
    attachments: list[int] = field(default_factory=list)  # aids moved to the post by attachnew


@dataclass
class Thread:
    tid: int
    fid: int
    subject: str
    author: User
    posts: list[Post] = field(default_factory=list)
    closed: bool = False
    maxposition: int = 0


@dataclass
class Pm:
    pmid: int
    plid: int
    sender: User
    text: str
    dateline: int


@dataclass
class Conversation:
    plid: int
    members: frozenset[int]
    subject: str
    isnew: dict[int, bool] = field(default_factory=dict)


class FakeDiscuz:
    """One Discuz! site. ``clock()`` gives the site's time (Unix seconds); ``charset`` "UTF-8" or "GBK";
    ``timeoffset`` the site's hours from UTC. Switches: ``floodctrl`` (s), ``pm_limit`` (conversations a
    day), ``captcha_post``, ``captcha_login``, ``mobile_closed``, ``v4_login_503``, ``newbies`` (uids),
    ``attach_allowed`` (the groups may upload pictures), ``max_attach_bytes`` (the group's maxattachsize).
    Uploads (``module=forumupload``, as a real X3.5 answers them, captures utf8-attach*/) go to
    :attr:`unused` until a reply names them in ``attachnew``; :attr:`attachments` holds every upload."""

    def __init__(self, *, clock: Callable[[], float] = time.time, charset: str = "UTF-8", timeoffset: int = 8,
                 floodctrl: int = 15, pm_limit: int = 25, base: str = "http://discuz.test"):
        self.clock = clock
        self.charset = charset
        self.timeoffset = timeoffset
        self.floodctrl = floodctrl
        self.pm_limit = pm_limit
        self.base = base
        self.minpostsize = 10  # bytes in the site's charset; admin groups are exempt (disablepostctrl)
        self.captcha_post = False
        self.captcha_login = False
        self.mobile_closed = False
        self.v4_login_503 = True
        self.newbies: set[int] = set()
        self.stall: set[str] = set()  # modules whose next POST is acted on but answered by a read timeout
        self.hidden_pmids: set[int] = set()  # PMs the conversation view does not show yet (as if sent this second)
        self.cookiepre = secrets.token_hex(2) + "_2132_"
        self.users: dict[int, User] = {}
        self.forums = {2: "默认版块", 3: "版杀"}
        self.threads: dict[int, Thread] = {}
        self.pms: list[Pm] = []
        self.convs: dict[int, Conversation] = {}
        self.sessions: dict[str, int] = {}  # auth token -> uid
        self.epoch = 0  # formhash generation (rotate_formhash)
        self.failed_logins = 0
        self.login_posts = 0
        self.log: list[tuple[str, str]] = []  # (method, module)
        self._ids = {"pid": 0, "tid": 0, "pmid": 0, "plid": 0, "aid": 0}
        self.attach_allowed = True
        self.max_attach_bytes = 2048000
        self.attachments: dict[int, tuple[int, bytes]] = {}  # aid -> (uploader's uid, bytes)
        self.unused: set[int] = set()  # aids no post uses yet
        self.fail_upload_answer = False  # the next upload is stored, but its answer is lost (a read timeout)

    # -- setup and players ------------------------------------------------------------------------------

    @property
    def transport(self) -> httpx.MockTransport:
        return httpx.MockTransport(self._stalling)

    def _stalling(self, request: httpx.Request) -> httpx.Response:
        response = self.handle(request)
        module = request.url.params.get("module", "")
        if request.method == "POST" and module in self.stall:
            # as when the forum stalled during the request (capture dup-thread/): done, but never answered
            self.stall.discard(module)
            raise httpx.ReadTimeout("the forum stalled", request=request)
        return response

    def add_user(self, name: str, password: str = "pw", groupid: str = "10") -> User:
        user = User(len(self.users) + 2, name, password, groupid)
        self.users[user.uid] = user
        return user

    def user(self, name: str) -> User:
        return next(u for u in self.users.values() if u.name == name)

    def _next(self, kind: str) -> int:
        self._ids[kind] += 1
        return self._ids[kind]

    def now(self) -> int:
        return int(self.clock())

    def new_thread(self, author: str, fid: int, subject: str, text: str) -> Thread:
        user = self.user(author)
        thread = Thread(self._next("tid"), fid, subject, user)
        self.threads[thread.tid] = thread
        self._add_post(thread, user, text, first=True)
        return thread

    def _add_post(self, thread: Thread, user: User, text: str, first: bool = False) -> Post:
        thread.maxposition += 1
        post = Post(self._next("pid"), user, text, self.now(), thread.maxposition, first)
        thread.posts.append(post)
        return post

    def player_post(self, author: str, tid: int, text: str) -> int:
        """``author`` replies in thread ``tid`` (no flood control); returns the pid."""
        return self._add_post(self.threads[tid], self.user(author), text).pid

    def delete_post(self, pid: int) -> None:
        for thread in self.threads.values():
            thread.posts = [p for p in thread.posts if p.pid != pid]

    def player_pm(self, sender: str, to: str, text: str) -> int:
        """``sender`` sends ``to`` a private message (no limits); returns the pmid."""
        return self._store_pm(self.user(sender), self.user(to), text).pmid

    def _store_pm(self, sender: User, to: User, text: str) -> Pm:
        members = frozenset({sender.uid, to.uid})
        conv = next((c for c in self.convs.values() if c.members == members), None)
        if conv is None:
            conv = Conversation(self._next("plid"), members, _summary(text, 80))
            self.convs[conv.plid] = conv
        conv.isnew[to.uid] = True
        pm = Pm(self._next("pmid"), conv.plid, sender, text, self.now())
        self.pms.append(pm)
        return pm

    def pms_to(self, name: str) -> list[Pm]:
        uid = self.user(name).uid
        return [p for p in self.pms if p.sender.uid != uid and uid in self.convs[p.plid].members]

    def expire_sessions(self) -> None:
        self.sessions.clear()

    def rotate_formhash(self) -> None:
        self.epoch += 1

    # -- HTTP ------------------------------------------------------------------------------------------

    def handle(self, request: httpx.Request) -> httpx.Response:
        codec = "gbk" if self.charset.upper() == "GBK" else "utf-8"  # a GBK site reads its query as GBK
        params = {k: v[-1] for k, v in parse_qs(request.url.query.decode("ascii"), keep_blank_values=True,
                                                encoding=codec, errors="replace").items()}
        form = self._form(request)
        token = request.headers.get("cookie", "")
        cookies = dict(part.strip().split("=", 1) for part in token.split(";") if "=" in part)
        saltkey = cookies.get(self.cookiepre + "saltkey") or secrets.token_hex(4)
        uid = self.sessions.get(cookies.get(self.cookiepre + "auth", ""), 0)
        me = self.users.get(uid)
        ctx = _Ctx(self, me, saltkey, params, form, request.method)
        self.log.append((request.method, params.get("module", request.url.path)))
        if request.url.path == "/forum.php":
            response = self._web(ctx)
        elif request.url.path != "/api/mobile/index.php":
            response = httpx.Response(404, text="not found")
        elif self.mobile_closed:
            response = httpx.Response(200, json={"error": "mobile_is_closed"})
        elif "check" in params and "module" not in params:
            check = _fixture("check.json")
            check.update(charset=self.charset, totalmembers=str(len(self.users)))
            response = httpx.Response(200, json=check)
        else:
            response = self._module(ctx)
        headers = [(k, v) for k, v in response.headers.items() if k.lower() != "content-length"]
        if cookies.get(self.cookiepre + "saltkey") is None:
            headers.append(("set-cookie", f"{self.cookiepre}saltkey={saltkey}; path=/; httponly"))
        headers += [("set-cookie", value) for value in ctx.set_cookies]
        return httpx.Response(response.status_code, content=response.content, headers=headers)

    def _form(self, request: httpx.Request) -> dict[str, str]:
        if request.method != "POST":
            return {}
        if request.headers.get("content-type", "").startswith("multipart/form-data"):
            return multipart(request)
        body = request.content.decode("ascii")
        codec = "gbk" if self.charset.upper() == "GBK" else "utf-8"
        return {k: v[-1] for k, v in parse_qs(body, keep_blank_values=True, encoding=codec, errors="strict").items()}

    def formhash(self, me: User | None, saltkey: str) -> str:
        seed = f"{self.epoch}|{me.uid if me else 0}|{me.name if me else ''}|{saltkey}"
        return hashlib.md5(seed.encode()).hexdigest()[8:16]

    def _module(self, ctx: _Ctx) -> httpx.Response:
        module = ctx.params.get("module", "")
        handler = getattr(self, f"_m_{module}", None)
        if handler is None:
            return ctx.answer(message="module_not_exists")
        return handler(ctx)

    # -- modules -----------------------------------------------------------------------------------------

    def _m_forumindex(self, ctx: _Ctx) -> httpx.Response:
        extra = {"setting_bbclosed": "", "catlist": [{"fid": "1", "name": "Discuz!", "forums": [str(f) for f in self.forums]}],
                 "forumlist": [{"fid": str(f), "name": n, "threads": "0", "posts": "0", "todayposts": "0"}
                               for f, n in self.forums.items()]}
        if ctx.me:
            group = _fixture("group.json")
            group["groupid"] = ctx.me.groupid
            group["grouptitle"] = {"1": "管理员", "2": "超级版主", "3": "版主"}.get(ctx.me.groupid, "新手上路")
            extra.update(member_email=f"u{ctx.me.uid}@example.invalid", member_credits="2", group=group)
        return ctx.answer(**extra)

    def _m_login(self, ctx: _Ctx) -> httpx.Response:
        version = ctx.params.get("version")
        if ctx.method != "POST":
            return ctx.answer()
        self.login_posts += 1
        if self.failed_logins >= 5:
            return ctx.answer(message="login_strike")
        if self.captcha_login:
            return ctx.answer(message="submit_seccode_invalid")
        user = next((u for u in self.users.values() if u.name == ctx.form.get("username")), None)
        if user is None or user.password != ctx.form.get("password"):
            self.failed_logins += 1
            if version == "4" and self.v4_login_503:
                return httpx.Response(503, text=_fixture("login_v4_503.html"), headers={"content-type": "text/html"})
            return ctx.answer(message="login_invalid")
        token = secrets.token_hex(8)
        self.sessions[token] = user.uid
        ctx.me = user
        ctx.set_cookies.append(f"{self.cookiepre}auth={token}; path=/; httponly")
        if version == "4" and self.v4_login_503:
            return httpx.Response(503, text=_fixture("login_v4_503.html"), headers={"content-type": "text/html"})
        return ctx.answer(message="login_succeed")

    def _m_viewthread(self, ctx: _Ctx) -> httpx.Response:
        thread = self.threads.get(_int(ctx.params.get("tid")))
        if thread is None:
            return ctx.answer(message="thread_nonexistence")
        ppp = _int(ctx.params.get("ppp")) or 10
        last = max(1, math.ceil(thread.maxposition / ppp))
        page = min(max(1, _int(ctx.params.get("page")) or 1), last)  # past the end: the last page again
        posts = [p for p in thread.posts if (page - 1) * ppp < p.position <= page * ppp]
        row = _fixture("thread.json")
        row.update(tid=str(thread.tid), fid=str(thread.fid), author=thread.author.name, authorid=str(thread.author.uid),
                   subject=thread.subject, short_subject=thread.subject, replies=str(len(thread.posts) - 1),
                   allreplies=str(len(thread.posts) - 1), maxposition=str(thread.maxposition),
                   closed="1" if thread.closed else "0", dateline=str(thread.posts[0].dateline if thread.posts else 0))
        postlist = []
        for p in posts:
            item = _fixture("post.json")
            item.update(pid=str(p.pid), tid=str(thread.tid), first="1" if p.first else "0", author=p.author.name,
                        username=p.author.name, authorid=str(p.author.uid), position=str(p.position),
                        number=str(p.position), dbdateline=str(p.dateline),
                        dateline=dgmdate(p.dateline, self.now(), self.timeoffset), message=render_post(p, self.base))
            postlist.append(item)
        return ctx.answer(thread=row, fid=str(thread.fid), postlist=postlist, ppp=str(ppp), **_fixture("viewthread_extra.json"))

    def _m_checkpost(self, ctx: _Ctx) -> httpx.Response:
        """``module=checkpost&version=3&submodule=checkpost`` (utf8-attach/006): the judge's ``allowperm``;
        ``allowupload`` is left out when the group may not upload (utf8-attach-refused/008)."""
        perm: dict[str, object] = {"allowpost": "1", "allowreply": "1"}
        if self.attach_allowed:
            perm["allowupload"] = dict.fromkeys(("jpg", "jpeg", "gif", "png", "mp3", "txt", "zip", "rar", "pdf"), "-1")
            perm["attachremain"] = {"size": "-1", "count": "-1"}
        perm["uploadhash"] = self.uploadhash(ctx.me.uid if ctx.me else 0)
        return ctx.answer(allowperm=perm)

    def _m_secure(self, ctx: _Ctx) -> httpx.Response:
        """``module=secure&type=post`` (X3.4/X3.5 ``source/plugin/mobile/api/4/secure.php``, no recorded answer):
        ``seccheck('post')`` for the logged-in account; ``sechash`` with ``seccode`` (the captcha picture's URL)
        when posts need a captcha (``captcha_post``, which this fake applies to every group: a group
        exempt from it answers neither), nothing more when they do not."""
        if ctx.params.get("type") == "post" and self.captcha_post:
            sechash = secrets.token_hex(4)
            return ctx.answer(sechash=sechash, seccode=f"{self.base}/api/mobile/index.php?module=seccodehtml&"
                                                        f"sechash={sechash}&version=4")
        return ctx.answer()

    def uploadhash(self, uid: int) -> str:
        return hashlib.md5(f"authkey|{uid}".encode()).hexdigest()

    def _m_forumupload(self, ctx: _Ctx) -> httpx.Response:
        """``DISCUZUPLOAD|status|aid|isimage|sizelimit`` (simple=1), or an empty body for a wrong hash."""
        uid = _int(ctx.form.get("uid"))
        if uid not in self.users or ctx.form.get("hash") != self.uploadhash(uid):
            return httpx.Response(200, text="", headers={"content-type": "text/html; charset=utf-8"})
        data = ctx.form.get("Filedata", b"")
        assert isinstance(data, bytes)
        if not self.attach_allowed:
            status, aid, limit = 6, 0, 0
        elif len(data) > self.max_attach_bytes:
            status, aid, limit = 3, 0, self.max_attach_bytes
        else:
            aid = self._next("aid")
            self.attachments[aid] = (uid, data)
            self.unused.add(aid)
            status, limit = 0, 0
        if self.fail_upload_answer and status == 0:
            self.fail_upload_answer = False
            raise httpx.ReadTimeout("the upload was stored but its answer is lost")
        return httpx.Response(200, text=f"DISCUZUPLOAD|{status}|{aid}|1|{limit}",
                              headers={"content-type": "text/html; charset=utf-8"})

    def _m_forumdisplay(self, ctx: _Ctx) -> httpx.Response:
        """A board's thread list, shaped as a real X3.5 answers (utf8-after-season/011): latest activity
        first, ``tpp`` 20 a page, guests allowed."""
        fid = _int(ctx.params.get("fid"))
        if fid not in self.forums:
            return ctx.answer(message="forum_nonexistence")
        recorded = json.loads((CAPTURES / "utf8-after-season" / "011_forumdisplay_fid2_judge.json").read_text("utf-8"))
        template = recorded["json"]["Variables"]["forum_threadlist"][0]
        threads = sorted((t for t in self.threads.values() if t.fid == fid),
                         key=lambda t: (t.posts[-1].dateline if t.posts else 0, t.tid), reverse=True)
        tpp, page = 20, max(1, _int(ctx.params.get("page")) or 1)
        rows = []
        for t in threads[(page - 1) * tpp: page * tpp]:
            first, last = t.posts[0], t.posts[-1]
            row = copy.deepcopy(template)
            row.update(tid=str(t.tid), author=t.author.name, authorid=str(t.author.uid),
                       subject=dhtmlspecialchars(t.subject), dbdateline=str(first.dateline),
                       dblastpost=str(last.dateline), lastposter=last.author.name, replies=str(len(t.posts) - 1),
                       dateline=dgmdate(first.dateline, self.now(), self.timeoffset),
                       lastpost=dgmdate(last.dateline, self.now(), self.timeoffset), message=_summary(first.text, 200))
            rows.append(row)
        forum = dict(recorded["json"]["Variables"]["forum"], fid=str(fid), name=self.forums[fid],
                     threads=str(len(threads)), threadcount=str(len(threads)))
        return ctx.answer(forum=forum, forum_threadlist=rows, tpp=str(tpp), page=str(page))

    def _write_checks(self, ctx: _Ctx) -> httpx.Response | None:
        if ctx.method != "POST":
            return ctx.answer(message="submit_invalid")
        if "formhash" not in ctx.form:
            return ctx.answer(message="submit_invalid")
        if ctx.form["formhash"] != self.formhash(ctx.me, ctx.saltkey):
            return httpx.Response(503, text=_fixture("tainted_503.html"), headers={"content-type": "text/html"})
        if ctx.me is None:
            return ctx.answer(message="to_login")
        if ctx.me.uid in self.newbies:
            return ctx.answer(message="no_privilege_newbiespan")
        return None

    def _too_short(self, ctx: _Ctx) -> bool:
        """X3.5's minpostsize counts bytes in the site's charset: "投 王五" is 10 in UTF-8, 7 in GBK
        (capture season-gbk/065, post_message_tooshort)."""
        size = len(ctx.form.get("message", "").encode("gbk" if self.charset.upper() == "GBK" else "utf-8"))
        return ctx.me.groupid not in ADMIN_GROUPS and size < self.minpostsize

    def _flooded(self, me: User) -> bool:
        # whole seconds, and a gap equal to floodctrl is still refused: on a real X3.5 a write 15.0 s after
        # the previous one is refused, one 16.0 s after accepted (captures utf8-flood-posts/, utf8-pmflood/)
        return self.now() - me.lastpost <= self.floodctrl

    def _m_sendreply(self, ctx: _Ctx) -> httpx.Response:
        refused = self._write_checks(ctx)
        if refused is not None:
            return refused
        thread = self.threads.get(_int(ctx.params.get("tid")))
        if thread is None:
            return ctx.answer(message="thread_nonexistence")
        if self.captcha_post:
            return ctx.answer(message="submit_seccode_invalid")
        if thread.closed and ctx.me.groupid not in ADMIN_GROUPS:
            return ctx.answer(message="post_thread_closed", tid=str(thread.tid), pid="0")
        if self._flooded(ctx.me) and ctx.me.groupid not in ADMIN_GROUPS:
            return ctx.answer(message="post_flood_ctrl", tid=str(thread.tid), pid="0")
        if self._too_short(ctx):
            return ctx.answer(message="post_message_tooshort", tid=str(thread.tid), pid="0")
        ctx.me.lastpost = self.now()
        post = self._add_post(thread, ctx.me, ctx.form.get("message", ""))
        for key in ctx.form:  # updateattach: attachnew[AID][description] moves the judge's unused upload here
            m = re.fullmatch(r"attachnew\[(\d+)\]\[description\]", key)
            if m and int(m.group(1)) in self.unused and self.attachments[int(m.group(1))][0] == ctx.me.uid:
                self.unused.discard(int(m.group(1)))
                post.attachments.append(int(m.group(1)))
        return ctx.answer(message="post_reply_succeed", tid=str(thread.tid), pid=str(post.pid))

    def _m_newthread(self, ctx: _Ctx) -> httpx.Response:
        refused = self._write_checks(ctx)
        if refused is not None:
            return refused
        fid = _int(ctx.params.get("fid"))
        if fid not in self.forums:
            return ctx.answer(message="forum_nonexistence")
        if self.captcha_post:
            return ctx.answer(message="submit_seccode_invalid")
        if self._flooded(ctx.me) and ctx.me.groupid not in ADMIN_GROUPS:
            return ctx.answer(message="post_flood_ctrl", tid="0", pid="0")
        ctx.me.lastpost = self.now()
        thread = self.new_thread(ctx.me.name, fid, ctx.form.get("subject", ""), ctx.form.get("message", ""))
        return ctx.answer(message="post_newthread_succeed", tid=str(thread.tid), pid=str(thread.posts[0].pid))

    def _m_sendpm(self, ctx: _Ctx) -> httpx.Response:
        refused = self._write_checks(ctx)
        if refused is not None:
            return refused
        me = ctx.me
        if "touid" in ctx.form or "touid" in ctx.params:
            to = self.users.get(_int(ctx.form.get("touid") or ctx.params.get("touid")))
        else:
            to = next((u for u in self.users.values() if u.name == ctx.form.get("username")), None)
        if to is None:
            return ctx.answer(message="message_bad_touser", pmid=None)
        if self._flooded(me):  # posts and PMs share the window; UCenter's pmfloodctrl spares no group
            return ctx.answer(message="message_can_not_send_2", pmid=None)
        since = self.now() - 86400
        written = {p.plid for p in self.pms if p.sender.uid == me.uid and p.dateline > since}
        if len(written) > self.pm_limit:  # N+1 conversations get through on a real X3.5 (utf8-pmlimit3/)
            return ctx.answer(message="message_can_not_send_1", pmid="-1")
        me.lastpost = self.now()
        pm = self._store_pm(me, to, ctx.form.get("message", ""))
        return ctx.answer(message="do_success", pmid=str(pm.pmid))

    def _m_profile(self, ctx: _Ctx) -> httpx.Response:
        # home_space.php: fetch_by_username (MySQL's collation ignores Latin case), else space_does_not_exist;
        # a guest also gets home_no_privilege with the space filled (captures/utf8-profile/).
        wanted = ctx.params.get("username", "")
        user = next((u for u in self.users.values() if u.name.casefold() == wanted.casefold()), None)
        if user is None:
            return ctx.answer(message="space_does_not_exist")
        space = {"uid": str(user.uid), "username": user.name, "groupid": user.groupid}
        return ctx.answer(message=None if ctx.me else "home_no_privilege//1", space=space)

    def _m_mypm(self, ctx: _Ctx) -> httpx.Response:
        if ctx.me is None:
            return ctx.answer(message="to_login")
        if ctx.params.get("subop") == "view":
            return self._pm_view(ctx)
        me = ctx.me
        mine = [c for c in self.convs.values() if me.uid in c.members]
        if ctx.params.get("filter") == "newpm":
            mine = [c for c in mine if c.isnew.get(me.uid)]

        def latest(c: Conversation) -> Pm:
            return max((p for p in self.pms if p.plid == c.plid), key=lambda p: p.pmid)

        perpage, page = 15, max(1, _int(ctx.params.get("page")) or 1)
        if 0 < _int(ctx.params.get("perpage")) < 500:  # mob_perpage: the mobile API honours 1..499
            perpage = _int(ctx.params.get("perpage"))
        # Sorted by the second of the last message only: within one second the order changes with the
        # page's query (capture mypm-same-second/: pages of 15 skip one conversation and repeat another).
        mine.sort(key=lambda c: (latest(c).dateline, c.plid if page % 2 else -c.plid), reverse=True)
        rows = []
        for c in mine[(page - 1) * perpage: page * perpage]:
            last, first = latest(c), min((p for p in self.pms if p.plid == c.plid), key=lambda p: p.pmid)
            other = self.users[next(iter(c.members - {me.uid}), me.uid)]
            rows.append({"plid": str(c.plid), "isnew": "1" if c.isnew.get(me.uid) else "0", "subject": c.subject,
                         "touid": str(other.uid), "pmid": str(first.pmid), "msgfromid": str(last.sender.uid),
                         "msgfrom": last.sender.name, "message": _list_summary(last.text), "tousername": other.name,
                         "vdateline": dgmdate(last.dateline, self.now(), self.timeoffset)})
        return ctx.answer(list=rows, count=str(len(mine)), perpage=str(perpage), page=str(page))

    def _pm_view(self, ctx: _Ctx) -> httpx.Response:
        me = ctx.me
        other = _int(ctx.params.get("touid"))
        conv = next((c for c in self.convs.values() if c.members == frozenset({me.uid, other})), None)
        if conv is None:
            return ctx.answer(list=[], count="0", perpage="5", page="1", pmid="0")
        conv.isnew[me.uid] = False
        messages = sorted((p for p in self.pms if p.plid == conv.plid), key=lambda p: p.pmid)
        perpage = min(max(1, _int(ctx.params.get("perpage")) or 5), 499)
        pages = max(1, math.ceil(len(messages) / perpage))
        page = min(_int(ctx.params.get("page")) or pages, pages)  # no page: the newest
        # pages are counted from the newest end: the last page is full, page 1 holds the oldest leftover
        # (capture utf8-after-season/007, 008: 16 messages, 5 a page → 1, 5, 5, 5)
        end = len(messages) - (pages - page) * perpage
        now = self.now()
        shown = [p for p in messages[max(0, end - perpage): end] if p.dateline < now and p.pmid not in self.hidden_pmids]
        rows = [{"plid": str(conv.plid), "subject": conv.subject, "pmid": str(p.pmid), "message": _pm_escape(p.text),
                 "touid": str(next(iter(conv.members - {p.sender.uid}), p.sender.uid)), "msgfromid": str(p.sender.uid),
                 "msgfrom": p.sender.name, "vdateline": dgmdate(p.dateline, now, self.timeoffset)} for p in shown]
        return ctx.answer(list=rows, count=str(len(messages)), perpage=str(perpage), page=str(page),
                          pmid=rows[-1]["pmid"] if rows else "0")

    # -- web forms (edit, moderation) -----------------------------------------------------------------

    def _web(self, ctx: _Ctx) -> httpx.Response:
        page = '<html><body><div id="messagetext"><p>{}</p></div></body></html>'
        if ctx.method != "POST" or ctx.me is None or ctx.form.get("formhash") != self.formhash(ctx.me, ctx.saltkey):
            return httpx.Response(200, text=page.format("您无权进行当前操作"), headers={"content-type": "text/html"})
        mod = ctx.params.get("mod")
        if mod == "post" and ctx.params.get("action") == "edit":
            thread = self.threads.get(_int(ctx.form.get("tid")))
            post = next((p for p in thread.posts if p.pid == _int(ctx.form.get("pid"))), None) if thread else None
            if post is None or post.author.uid != ctx.me.uid:
                return httpx.Response(200, text=page.format("抱歉，您没有权限编辑"), headers={"content-type": "text/html"})
            if post.first and not ctx.form.get("subject", "").strip():  # post_sm_isnull
                return httpx.Response(200, text=page.format("抱歉，您尚未输入标题或内容"), headers={"content-type": "text/html"})
            thread.subject = ctx.form["subject"] if post.first else thread.subject
            post.text, post.edited_by = ctx.form.get("message", ""), ctx.me.name
            return httpx.Response(200, text=page.format("帖子编辑成功"), headers={"content-type": "text/html"})
        if mod == "topicadmin" and ctx.me.groupid in ADMIN_GROUPS:
            thread = self.threads.get(_int(ctx.form.get("moderate[]")))
            if thread is not None:
                thread.closed = ctx.form.get("operations[]") == "close"
            return httpx.Response(200, text=page.format("操作成功"), headers={"content-type": "text/html"})
        return httpx.Response(200, text=page.format("您无权进行当前操作"), headers={"content-type": "text/html"})


class _Ctx:
    """One request: who asks, with which saltkey, parameters and form; builds the JSON envelope."""

    def __init__(self, site: FakeDiscuz, me: User | None, saltkey: str, params: dict, form: dict, method: str):
        self.site, self.me, self.saltkey, self.params, self.form, self.method = site, me, saltkey, params, form, method
        self.set_cookies: list[str] = []

    def answer(self, message: str | None = None, **variables) -> httpx.Response:
        site, me = self.site, self.me
        data = _fixture("envelope.json")
        data["Charset"] = site.charset
        data["Version"] = self.params.get("version", "4")
        v = data["Variables"]
        v.update(cookiepre=site.cookiepre, auth=None if me is None else "REDACTED", saltkey=self.saltkey,
                 member_uid=str(me.uid if me else 0), member_username=me.name if me else "",
                 groupid=me.groupid if me else "7", formhash=site.formhash(me, self.saltkey),
                 readaccess="10" if me else "1")
        # notice.newpm stays "0" on a real X3.5 even with an unread PM (capture utf8-newpm-notice/): the
        # fixture's "0" is kept, so nothing may rely on it
        v.update(copy.deepcopy(variables))
        if message is not None:
            data["Message"] = {"messageval": message, "messagestr": f"mobile:{message}"}
        return httpx.Response(200, content=json.dumps(data, ensure_ascii=False).encode("utf-8"),
                              headers={"content-type": "application/json; charset=utf-8"})


# -- Discuz!'s text and times ------------------------------------------------------------------------

def _int(value) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


def dhtmlspecialchars(text: str) -> str:
    """X3.5's escaping: htmlspecialchars, numeric entities included (a GBK site shows ``&#128512;`` sent by
    a client literally, capture gbk/web_viewthread_tid2_gbk.html)."""
    return html.escape(text, quote=True).replace("&#x27;", "&#039;")


_BBCODE = [
    (re.compile(r"\[b\](.*?)\[/b\]", re.S | re.I), r"<strong>\1</strong>"),
    (re.compile(r"\[i\](.*?)\[/i\]", re.S | re.I), r"<i>\1</i>"),
    (re.compile(r"\[color=([#\w]+)\](.*?)\[/color\]", re.S | re.I), r'<font color="\1">\2</font>'),
    (re.compile(r"\[url=([^\]]+)\](.*?)\[/url\]", re.S | re.I), r'<a href="\1" target="_blank">\2</a>'),
    # as a real X3.5's mobile API writes them (captures utf8-after-season/009, season-utf8/viewthread_…):
    # a quote is a div.reply_wrap; a table is malformed, each cell closing a row that [tr] opened once
    (re.compile(r"\[quote\](.*?)\[/quote\]", re.S | re.I), r'<div class="reply_wrap">\1</div>'),
    (re.compile(r"\[table\]\s*", re.I), '<table class="dzcode_table" cellspacing="0" >'),
    (re.compile(r"\[/table\]", re.I), "</table>"),
    (re.compile(r"\[tr\]", re.I), "<tr>"),
    (re.compile(r"\[/tr\]\s*", re.I), ""),
    (re.compile(r"\[td\](.*?)\[/td\]", re.S | re.I), r'<td class="dzcode_td">\1</td></tr>'),
]
_SMILIES = {":)": ("smile", 1), ":(": ("sad", 2), ":D": ("biggrin", 3)}


def render_post(post: Post, base: str = "http://discuz.test") -> str:
    """A post's ``message`` as the mobile API sends it: escaped twice, BBCode and smilies rendered (smilies
    with absolute URLs), no "edited" note (the mobile API never shows it)."""
    text = html.escape(dhtmlspecialchars(post.text), quote=False)
    for pattern, repl in _BBCODE:
        text = pattern.sub(repl, text)
    for code, (name, _sid) in _SMILIES.items():
        text = text.replace(html.escape(html.escape(code)), f'<img src="{base}/static/image/smiley/default/{name}.gif" />')
    # a picture the post owns: as the mobile API writes it (utf8-attach/009); [attach] of one it does not own: gone
    text = re.sub(r"\[attach(?:img)?\](\d+)\[/attach(?:img)?\]", lambda m: (
        f'<div class="img"><img src="{base}/data/attachment/forum/{m.group(1)}.png" attach="{post.pid}" /></div>'
        if int(m.group(1)) in post.attachments else ""), text)
    return text.replace("\r\n", "\n").replace("\n", "<br />\n")


def multipart(request: httpx.Request) -> dict:
    """The fields of a multipart form (text fields as str, files as their bytes)."""
    from email.parser import BytesParser
    from email.policy import HTTP

    head = f"Content-Type: {request.headers['content-type']}\r\n\r\n".encode()
    message = BytesParser(policy=HTTP).parsebytes(head + request.content)
    out: dict = {}
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        payload = part.get_payload(decode=True)
        out[str(name)] = payload if part.get_filename() else payload.decode("utf-8")
    return out


def _pm_escape(text: str) -> str:
    return dhtmlspecialchars(text)


def _summary(text: str, limit: int) -> str:
    flat = re.sub(r"\[/?\w+(?:=[^\]]*)?\]", "", " ".join(text.split()))
    return flat[:limit]


def _list_summary(text: str) -> str:
    return dhtmlspecialchars(_summary(text, 150)).replace("&#039;", "\\'")


def dgmdate(timestamp: int, now: int, timeoffset: int) -> str:
    """``dgmdate($timestamp, 'u')`` of Discuz! X3 as the mobile API writes it (no <span>)."""
    zone = timezone(timedelta(hours=timeoffset))
    local = datetime.fromtimestamp(timestamp, zone)
    local_now = datetime.fromtimestamp(now, zone)
    today = int(datetime(local_now.year, local_now.month, local_now.day, tzinfo=zone).timestamp())
    ago = now - timestamp
    if timestamp >= today:
        if ago > 3600:
            return f"{ago // 3600}&nbsp;小时前"
        if ago > 1800:
            return "半小时前"
        if ago > 60:
            return f"{ago // 60}&nbsp;分钟前"
        if ago > 0:
            return f"{ago}&nbsp;秒前"
        if ago == 0:
            return "刚刚"
        return local.strftime("%Y-%-m-%-d %H:%M")
    days = (today - timestamp) // 86400
    if days == 0:
        return "昨天&nbsp;" + local.strftime("%H:%M")
    if days == 1:
        return "前天&nbsp;" + local.strftime("%H:%M")
    if days < 7:
        return f"{days + 1}&nbsp;天前"
    return local.strftime("%Y-%-m-%-d %H:%M")


def utc(ts: float) -> datetime:
    return datetime.fromtimestamp(ts, UTC)
