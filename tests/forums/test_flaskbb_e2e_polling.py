"""Incremental polling of a long thread on a real FlaskBB, counting the HTTP requests the adapter makes."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.e2e

AUTHORS = ("小明", "小红", "alice", "bob", "王大锤")


@pytest.fixture
def long_thread(forum, judge):
    """A thread of 1 + 125 posts (13 pages): 120 seeded, 5 posted over HTTP by players."""
    thread = judge.create_thread(forum.forum_id, "长帖 polling", "第 0 楼")
    forum.seed_posts(thread, [(AUTHORS[i % 5], f"第 {i + 1} 楼") for i in range(120)])
    for i in range(120, 125):
        author = forum.client(AUTHORS[i % 5])
        author.reply(thread, f"第 {i + 1} 楼")
        author.close()
    return thread


def _polled(client, thread, after):
    before = client.request_count
    posts = client.thread_posts(thread, after)
    return posts, client.request_count - before


def test_first_read_returns_every_post_once_in_order(judge, long_thread):
    judge.login()
    posts, requests = _polled(judge, long_thread, None)
    assert [p.text for p in posts] == [f"第 {i} 楼" for i in range(126)]
    ids = [p.post_id for p in posts]
    assert ids == sorted(set(ids))
    assert requests == 13  # one per page, 10 posts a page


def test_nothing_new_costs_one_request(judge, long_thread):
    posts = judge.thread_posts(long_thread)
    for _ in range(3):
        again, requests = _polled(judge, long_thread, posts[-1].post_id)
        assert again == [] and requests == 1


def test_new_posts_across_a_page_boundary(forum, judge, long_thread):
    posts = judge.thread_posts(long_thread)  # 126 posts: the last page (13) holds 6
    added = forum.seed_posts(long_thread, [("bob", f"new {i}") for i in range(7)])  # fills page 13, opens 14
    new, requests = _polled(judge, long_thread, posts[-1].post_id)
    assert [p.post_id for p in new] == added
    assert requests == 2
    again, requests = _polled(judge, long_thread, new[-1].post_id)
    assert again == [] and requests == 1


def test_resume_from_an_older_post_finds_its_page(judge, long_thread):
    posts = judge.thread_posts(long_thread)
    middle = posts[54]  # page 6
    rest, requests = _polled(judge, long_thread, middle.post_id)
    assert rest == posts[55:]
    assert requests == 1 + 8  # the /post/{id} redirect, then pages 6..13


def test_cursor_survives_a_restart_as_json(forum, judge, long_thread, clients):
    posts = judge.thread_posts(long_thread)
    saved = json.dumps(judge.export_cursor())
    fresh = forum.client(retries=0)
    clients.append(fresh)
    fresh.import_cursor(json.loads(saved))
    fresh.login()
    again, requests = _polled(fresh, long_thread, posts[-1].post_id)
    assert again == [] and requests == 1


def test_a_stale_or_foreign_cursor_only_costs_requests(forum, judge, long_thread, clients):
    posts = judge.thread_posts(long_thread)
    fresh = forum.client(retries=0)
    clients.append(fresh)
    fresh.import_cursor({"kind": "something-else", "threads": "garbage"})
    fresh.login()
    again, requests = _polled(fresh, long_thread, posts[-1].post_id)
    assert again == [] and requests == 2  # locate + page


def test_two_threads_poll_independently(forum, judge):
    one = judge.create_thread(forum.forum_id, "甲", "a")
    two = judge.create_thread(forum.forum_id, "乙", "b")
    last = {t: judge.thread_posts(t)[-1].post_id for t in (one, two)}
    forum.seed_posts(two, [("alice", "only in two")])
    judge.login()
    before = judge.request_count
    assert judge.thread_posts(one, last[one]) == []
    assert [p.text for p in judge.thread_posts(two, last[two])] == ["only in two"]
    assert judge.request_count - before == 2


def test_new_posts_all_on_a_fresh_page(forum, judge):
    thread = judge.create_thread(forum.forum_id, "整页", "第 0 楼")
    forum.seed_posts(thread, [("alice", f"第 {i} 楼") for i in range(1, 20)])  # exactly 2 full pages
    last = judge.thread_posts(thread)[-1].post_id
    added = forum.seed_posts(thread, [("bob", f"new {i}") for i in range(5)])  # all on page 3
    new, requests = _polled(judge, thread, last)
    assert [p.post_id for p in new] == added
    assert requests == 2  # page 2 (nothing new, but a page 3 now exists), page 3
