"""A phpBB judge in "Newly registered users" (its posts queued for approval, no private messages) makes
`forumbot check --forum` fail, not only print an ERROR line (issue 24); recorded live answers (``check``)."""

from __future__ import annotations

from test_phpbb_recorded import check_reports

from forumbot.forums.check import failed


def test_a_newly_registered_judge_fails_the_check():
    _, good, bad = check_reports()
    assert not failed(good)
    assert failed(bad)
