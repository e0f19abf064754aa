"""Reading a thread across pages against a small stand-in of NodeBB's answers (shapes as recorded in
``captures/``): reading forward from a known post never loops, and a thread whose posts were purged
is found again by stepping back."""

from __future__ import annotations

import json

import httpx
import pytest

from forumbot.forums.nodebb import NodeBBForum

PER_PAGE = 20


def thread_site(pids: list[int], requests: list[str]) -> httpx.MockTransport:
    """A NodeBB with one thread (tid 7) of posts ``pids`` in order, 20 a page; logs each request path."""

    def handle(request: httpx.Request) -> httpx.Response:
        path, q = request.url.path, request.url.params
        requests.append(f"{path}?page={q.get('page', '')}" if path.startswith("/api/topic") else path)
        if path == "/api/config":
            return httpx.Response(200, json={"uid": 2, "csrf_token": "t", "postsPerPage": PER_PAGE})
        if path == "/api/v3/utilities/login":
            return httpx.Response(200, json={"status": {"code": "ok"}, "response": {"uid": 2}})
        if path.startswith("/api/v3/posts/") and path.endswith("/index"):
            pid = int(path.split("/")[4])
            return httpx.Response(200, json={"status": {"code": "ok"}, "response": {"index": pids.index(pid)}})
        if path == "/api/topic/7":
            page = int(q.get("page", "1"))
            chunk = list(enumerate(pids))[(page - 1) * PER_PAGE: page * PER_PAGE]
            posts = [{"pid": pid, "index": i, "timestamp": 1796124000000 + i * 1000, "edited": 0,
                      "content": f"<p>post {pid}</p>", "user": {"username": "alice"}} for i, pid in chunk]
            pages = max(1, -(-len(pids) // PER_PAGE))
            return httpx.Response(200, json={"tid": 7, "posts": posts, "pagination": {"currentPage": page,
                                                                                      "pageCount": pages}})
        return httpx.Response(404, content=json.dumps({"status": {"code": "not-found"}}))

    return httpx.MockTransport(handle)


def judge(pids: list[int], requests: list[str]) -> NodeBBForum:
    forum = NodeBBForum("http://nodebb.test", "judge", "pw", transport=thread_site(pids, requests), retries=0)
    forum.login()
    requests.clear()
    return forum


@pytest.mark.parametrize("after_at", [0, 5, 19, 20, 33, 54])
def test_reading_forward_from_any_post_reads_each_later_page_once(after_at):
    pids = list(range(100, 155))  # 55 posts: 3 pages
    requests: list[str] = []
    forum = judge(pids, requests)
    posts = forum.thread_posts(7, pids[after_at])
    assert [p.post_id for p in posts] == pids[after_at + 1:]
    first_page = after_at // PER_PAGE + 1
    assert requests == [f"/api/v3/posts/{pids[after_at]}/index",
                        *[f"/api/topic/7?page={p}" for p in range(first_page, 4)]]


def test_idle_poll_with_the_cursor_is_one_request_on_a_later_page():
    pids = list(range(100, 145))
    requests: list[str] = []
    forum = judge(pids, requests)
    forum.thread_posts(7)
    requests.clear()
    assert forum.thread_posts(7, pids[-1]) == [] and requests == ["/api/topic/7?page=3"]


def test_a_stale_cursor_after_purged_posts_steps_back_to_the_known_post():
    pids = list(range(100, 145))
    requests: list[str] = []
    forum = judge(pids, requests)
    forum.thread_posts(7)  # cursor: the last post, index 44 (page 3)
    purged = pids[:10] + pids[30:]  # 20 posts purged: the last post is now on page 2
    forum.http.client._transport = thread_site(purged, requests)  # the same forum, after the purge
    requests.clear()
    purged.append(200)
    assert [p.post_id for p in forum.thread_posts(7, pids[-1])] == [200]
    assert len(requests) <= 3
