"""Poll-cycle cost on a 1,000-post thread of a real FlaskBB (started locally): requests and wall time.

    .venv/bin/python benchmarks/bench_poll.py [--posts 1000] [--rounds 5]

A poll cycle = the game thread + the inbox. Measured: the first full read, a cycle with nothing new, and a
cycle with 10 new posts. Prints the figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import time

from forumbot.testforum import start_forum


def _cycle(judge, thread: int, after_post: int, after_pm: int):
    before, started = judge.request_count, time.perf_counter()
    posts = judge.thread_posts(thread, after_post)
    messages = judge.private_messages(after_pm)
    return posts, messages, judge.request_count - before, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--posts", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    authors = ["小明", "小红", "alice", "bob"]
    with start_forum(players=authors) as forum:
        judge = forum.client()
        thread = judge.create_thread(forum.forum_id, "benchmark", "post 0")
        for start in range(1, args.posts, 250):
            count = min(250, args.posts - start)
            forum.seed_posts(thread, [(authors[i % 4], f"post {i}") for i in range(start, start + count)])
        sender = forum.client("alice")
        sender.send_pm(forum.judge.name, "夜间行动", "刀 bob")
        judge.login()

        posts, messages, requests, seconds = _cycle(judge, thread, 0, 0)
        assert len(posts) == args.posts and len(messages) == 1
        print(f"thread of {len(posts)} posts ({(len(posts) + 9) // 10} pages), inbox of 1 conversation")
        print(f"first full read:        {requests:4d} requests  {seconds * 1000:8.1f} ms")
        last_post, last_pm = posts[-1].post_id, messages[-1].message_id

        idle = []
        for _ in range(args.rounds):
            new_posts, new_pms, requests, seconds = _cycle(judge, thread, last_post, last_pm)
            assert not new_posts and not new_pms
            idle.append((requests, seconds))
        print(
            f"poll, nothing new:      {idle[0][0]:4d} requests  {statistics.median(s for _, s in idle) * 1000:8.1f} ms"
            f"  (median of {args.rounds})"
        )

        busy = []
        for _ in range(args.rounds):
            added = forum.seed_posts(thread, [("bob", f"new {i}") for i in range(10)])
            new_posts, _, requests, seconds = _cycle(judge, thread, last_post, last_pm)
            assert [p.post_id for p in new_posts] == added
            last_post = added[-1]
            busy.append((requests, seconds))
        print(
            f"poll, 10 new posts:     {'/'.join(str(r) for r, _ in busy)} requests"
            f"  {statistics.median(s for _, s in busy) * 1000:8.1f} ms  (median of {args.rounds};"
            " 2 page reads when the new posts straddle a page)"
        )
        judge.close()
        sender.close()


if __name__ == "__main__":
    main()
