"""`forumbot check --forum` fails when NodeBB's post queue would hold the judge's own posts (issue 24), from
the recorded live answers of scenario ``forum-check``: a stock judge (neither administrator nor moderator)
on a forum with ``postQueue`` on, and a Global Moderator judge on the same forum (exempt)."""

from __future__ import annotations

from test_nodebb_recorded import replay

from forumbot.forums.check import failed, nodebb_queue


def test_a_queued_judge_fails_the_check_and_an_exempt_one_passes():
    result, _ = replay("forum-check")
    stock = nodebb_queue(result["stock"])
    assert len(stock) == 1 and failed(stock)
    assert "post queue is on" in stock[0] and "Global Moderators" in stock[0] and "Post Queue" in stock[0]
    assert nodebb_queue(result["judge"]) == []
    assert not failed(result["judge"])
