"""A page or answer that does not have its forum's structure is never read as messages or posts (issue 24).

Each adapter reads the inbox and a thread from answers recorded on the real forum (FlaskBB ``pages/``,
phpBB ``phpbb/captures``, Discuz! ``discuz/captures``, NodeBB ``nodebb/captures``), served by path. Then
each answer the read needs is cut short at points through it (as when a connection drops mid-page), or
replaced by a proxy's error page served with HTTP 200: the read raises :class:`BrokenPage`, a
:class:`ForumDown` the runtime reads again at its next poll, and returns nothing (a cut page used to parse
into a shorter message: "投 王五\\n\\nR").
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from forumbot.forums.errors import BrokenPage, ForumDown

HERE = Path(__file__).parent
for sub in ("phpbb", "discuz", "nodebb"):
    sys.path.insert(0, str(HERE / sub))

from fake_flaskbb import JUDGE, FakeFlaskBB, judge_on  # noqa: E402

PROXY_PAGE = ("<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center>"
              "<hr><center>nginx</center></body></html>")
FRACTIONS = [i / 20 for i in range(1, 20)] + [0.99, 0.999]


class Served(httpx.BaseTransport):
    """Answers by a key of the request (``key_of``) from ``bodies``; ``cut`` = (key, fraction) cuts that
    answer's body to a prefix, ``proxy`` = key serves a proxy's error page instead. ``asked``: keys asked."""

    def __init__(self, bodies: dict[str, tuple[int, str, str]], key_of: Callable[[httpx.Request], str]):
        self.bodies, self.key_of = bodies, key_of
        self.cut: tuple[str, float] | None = None
        self.proxy: str | None = None
        self.asked: list[str] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        key = self.key_of(request)
        self.asked.append(key)
        if key == self.proxy:
            return httpx.Response(200, text=PROXY_PAGE, headers={"content-type": "text/html"}, request=request)
        if key not in self.bodies:
            raise AssertionError(f"not recorded: {key}")
        status, body, ctype = self.bodies[key]
        if self.cut is not None and self.cut[0] == key:
            data = body.encode("utf-8")
            body = data[: int(len(data) * self.cut[1])].decode("utf-8", errors="ignore")
        return httpx.Response(status, content=body.encode("utf-8"), headers={"content-type": ctype}, request=request)


def _every_cut(served: Served, read: Callable[[], list[Any]]) -> None:
    """``read`` returns items when nothing is cut; with any answer it needs cut or replaced it raises BrokenPage."""
    served.asked.clear()
    assert read(), "the recorded answers hold something to read"
    keys = list(dict.fromkeys(served.asked))
    for key in keys:
        for fraction in FRACTIONS:
            served.cut = (key, fraction)
            with pytest.raises(BrokenPage):
                read()
        served.cut, served.proxy = None, key
        with pytest.raises(ForumDown):
            read()
        served.proxy = None


# -- FlaskBB ------------------------------------------------------------------------------------------


def test_flaskbb_a_cut_or_foreign_page_is_never_read():
    site = FakeFlaskBB()
    for i in range(12):
        site.judge_sends(f"玩家{i}", "你的身份", "你是平民。")
    for i in range(3):
        site.player_sends(f"玩家{i}", f"投 王五\n\nReason {i}: 他昨天没发言", reply_to=i + 1)
    for i in range(13):
        site.player_posts(f"玩家{i}", f"投 玩家{i + 1}\n\n理由很长很长")
    cut: dict[str, Any] = {}

    def mangle(path: str, body: str) -> str:
        if cut.get("path") == path:
            if cut["how"] == "proxy":
                return PROXY_PAGE
            return body[: int(len(body) * cut["fraction"])]
        return body

    site.mangle = mangle

    def reads() -> dict[str, Callable[[], list[Any]]]:
        return {"pm": lambda: judge_on(site).private_messages(), "thread": lambda: judge_on(site).thread_posts(1)}

    paths = {"pm": ["/conversations/inbox", "/conversations/1/view", "/conversations/3/view"],
             "thread": ["/topic/1"]}
    for source, read in reads().items():
        assert read()
        for path in paths[source]:
            for fraction in FRACTIONS:
                cut.update(path=path, how="cut", fraction=fraction)
                with pytest.raises(BrokenPage):
                    read()
            cut.update(path=path, how="proxy")
            with pytest.raises(ForumDown):
                read()
            cut.clear()
    assert JUDGE == "法官"


# -- phpBB --------------------------------------------------------------------------------------------


def test_phpbb_a_cut_or_foreign_page_is_never_read():
    from phpbb_cassette import _path_of, load

    from forumbot.forums.phpbb import PhpBBForum

    bodies = {}
    for name in ("judge_ops", "pages"):
        for e in load(name):
            if e["method"] == "GET" and e["status"] in (200, 404):
                bodies[e["path"]] = (e["status"], e["body"], e["headers"].get("content-type", "text/html"))
    served = Served(bodies, lambda r: _path_of(r.url))

    def judge() -> PhpBBForum:
        forum = PhpBBForum("http://127.0.0.1:8090", "Judge", "pw", transport=served, retries=0)
        forum._logged_in, forum._user = True, "Judge"
        return forum

    _every_cut(served, lambda: judge().private_messages())
    _every_cut(served, lambda: judge().thread_posts(8))


# -- Discuz! ------------------------------------------------------------------------------------------


def _discuz_key(request: httpx.Request) -> str:
    q = request.url.params
    parts = [q.get("module", "")] + [f"{k}={q[k]}" for k in ("subop", "touid", "tid", "page") if k in q]
    return "&".join(parts)


def test_discuz_a_cut_or_foreign_answer_is_never_read():
    from forumbot.forums.discuz import DiscuzForum

    folder = HERE / "discuz" / "captures" / "utf8-after-season"
    bodies: dict[str, tuple[int, str, str]] = {}
    for name in ("004_mypm_list_法官.json", "006_mypm_view_touid5_perpage100_judge.json",
                 "009_viewthread_2_p1_法官.json"):
        data = json.loads((folder / name).read_text("utf-8"))
        query = {k: v for k, v in data["request"]["query"].items() if k in ("module", "subop", "touid", "tid")}
        key = "&".join([query.pop("module")] + [f"{k}={v}" for k, v in query.items()])
        bodies[key] = (200, json.dumps(data["json"], ensure_ascii=False), "application/json")
    listing = json.loads(bodies.pop("mypm")[1])  # the list, down to the conversation recorded in full
    listing["Variables"]["list"] = [r for r in listing["Variables"]["list"] if r["touid"] == "5"]
    listing["Variables"]["count"] = "1"
    bodies["mypm&page=1"] = (200, json.dumps(listing, ensure_ascii=False), "application/json")
    bodies["viewthread&tid=2&page=1"] = bodies.pop("viewthread&tid=2")
    uid = int(json.loads(bodies["mypm&page=1"][1])["Variables"]["member_uid"])
    served = Served(bodies, _discuz_key)

    def judge() -> DiscuzForum:
        forum = DiscuzForum("http://127.0.0.1:18765", "法官", "pw", transport=served, sleep=lambda s: None, retries=0)
        forum._uid = uid
        return forum

    _every_cut(served, lambda: judge().private_messages())
    _every_cut(served, lambda: judge().thread_posts(2))


# -- NodeBB -------------------------------------------------------------------------------------------


def _nodebb_key(request: httpx.Request) -> str:
    query = "&".join(f"{k}={v}" for k, v in sorted(request.url.params.items()) if k != "lang")
    return request.url.path + (f"?{query}" if query else "")


def test_nodebb_a_cut_or_foreign_answer_is_never_read():
    from nodebb_cassette import load

    from forumbot.forums.nodebb import NodeBBForum

    bodies: dict[str, tuple[int, str, str]] = {}
    uid = 0
    for scenario in ("private-messages", "paging"):
        for e in load(scenario, "judge"):
            if e.method != "GET":
                continue
            query = "&".join(f"{k}={v}" for k, v in sorted(e.query.items()))
            bodies.setdefault(e.path + (f"?{query}" if query else ""), (e.status, e.body, e.content_type))
            if e.path == "/api/config":
                uid = uid or int(json.loads(e.body).get("uid") or 0)
    ctx = json.loads((HERE / "nodebb" / "captures" / "paging" / "_ctx.json").read_text("utf-8"))
    served = Served(bodies, _nodebb_key)

    def judge() -> NodeBBForum:
        forum = NodeBBForum("http://127.0.0.1:4590", "judge", "x", transport=served, sleep=lambda s: None, retries=0)
        forum._uid = uid
        return forum

    assert uid > 0
    _every_cut(served, lambda: judge().private_messages())
    _every_cut(served, lambda: judge().thread_posts(ctx["long_tid"]))
