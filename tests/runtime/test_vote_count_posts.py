"""Running vote counts in the thread (issue 13) on the memory forum: the count's rhythm (every N new
votes, fixed times before the deadline), the first count posted and later ones edited in place, and no
doubled post across a crash between queueing and sending an edit."""

from __future__ import annotations

from datetime import timedelta

import pytest
from bot_helpers import make_season

from forumbot.forums.errors import NotAllowed
from forumbot.render import LOCALES, MARKUPS, Renderer

KC = list("ABCDEFGHIJKLMN")
KC_ROLES = {"A": "killer", "B": "killer", "C": "killer", "D": "police", "E": "police", "F": "police",
            "G": "helper", "H": "nurse"}


def season(tmp_path, schedule=None, **params):
    sch = {"vote_count_every": 2, "vote_count_before": [], **(schedule or {})}
    s = make_season(tmp_path, KC, KC_ROLES, ruleset="killer_club", params={"vote_in_thread": True, **params},
                    schedule=sch)
    s.bot.cycle()
    for _ in range(2):  # prologue, then night 1 (nobody killed): the day's vote opens
        s.clock.now = s.bot.deadline() + timedelta(seconds=2)
        s.bot.cycle()
    assert s.bot.game.phase.kind == "vote"
    return s


def vote(s, voter, target, cycle=True):
    post = s.forum.player_post(s.thread, voter, f"投 {target}")
    s.clock.advance(1)
    if cycle:
        s.bot.cycle()
    return post


def counts(s):
    return [p for p in s.forum.posts_by_judge(s.thread) if "Vote count" in p.text]


def test_count_after_every_n_votes_then_edited_in_place(tmp_path):
    s = season(tmp_path)
    vote(s, "D", "A")
    assert counts(s) == []  # one new vote: not yet
    last = vote(s, "E", "A")
    [first] = counts(s)
    assert "| A | 2 | D, E |" in first.text and f"post #{last}" in first.text
    assert "Not voted (12 of 14)" in first.text and "F, G" in first.text
    assert "Time left:" in first.text
    vote(s, "F", "B")
    assert counts(s)[0].text == first.text  # three votes: the rhythm is every two
    last = vote(s, "G", "B")
    [edited] = counts(s)
    assert edited.post_id == first.post_id and edited.edited and s.forum.edits == 1
    assert "| A | 2 | D, E |" in edited.text and "| B | 2 | F, G |" in edited.text
    assert f"post #{last}" in edited.text and "Not voted (10 of 14)" in edited.text
    kinds = [r.kind for r in s.bot.store.outbox() if ":count:" in r.key]
    assert kinds == ["post", "edit"]


def test_counts_at_fixed_times_before_the_deadline(tmp_path):
    s = season(tmp_path, {"lengths": {"vote": "24h"}, "vote_count_every": 0, "vote_count_before": ["12h", "1h"]})
    dl = s.bot.deadline()
    vote(s, "D", "A")
    assert counts(s) == []
    assert s.bot.next_wakeup() == dl - timedelta(hours=12)  # the bot wakes for the count
    s.clock.now = dl - timedelta(hours=12)
    s.bot.cycle()
    [first] = counts(s)
    assert "Time left: 12 h" in first.text and "D" in first.text
    assert s.bot.next_wakeup() == dl - timedelta(hours=1)
    vote(s, "E", "A")
    s.clock.now = dl - timedelta(hours=1)
    s.bot.cycle()
    [edited] = counts(s)
    assert edited.post_id == first.post_id and "Time left: 1 h" in edited.text and "D, E" in edited.text
    s.clock.now = dl - timedelta(minutes=30)
    s.bot.cycle()
    assert counts(s)[0].text == edited.text and s.forum.edits == 1  # each fixed time once


def test_crash_between_queueing_and_sending_an_edit_posts_nothing_twice(tmp_path):
    s = season(tmp_path)
    vote(s, "D", "A")
    vote(s, "E", "A")
    vote(s, "F", "B")
    vote(s, "G", "B", cycle=False)
    s.bot._poll()
    s.bot._advance()
    s.bot.vote_counts.run()  # the edit is queued ... and the bot dies before delivering it
    assert [r.status for r in s.bot.store.outbox() if r.kind == "edit"] == ["pending"]
    s.restart()
    for _ in range(2):
        s.clock.advance(1)
        s.bot.cycle()
    [count] = counts(s)
    assert "F, G" in count.text and s.forum.edits == 1
    assert [r.status for r in s.bot.store.outbox() if ":count:" in r.key] == ["sent", "sent"]


def test_an_unanswered_edit_is_done_again_not_posted_again(tmp_path):
    s = season(tmp_path)
    s.forum.request_horizon_seconds = 5
    vote(s, "D", "A")
    vote(s, "E", "A")
    vote(s, "F", "B")
    vote(s, "G", "B", cycle=False)
    s.bot._poll()
    s.bot._advance()
    s.bot.delivery.run()  # the reply to G goes out
    s.bot.vote_counts.run()
    s.forum.late_writes = 1  # the edit gets no answer; the forum performs it 10 s later
    s.bot.delivery.run()
    assert [r.status for r in s.bot.store.outbox() if r.kind == "edit"] == ["sending"]
    s.restart()
    for _ in range(12):
        s.clock.advance(1)
        s.bot.cycle()
    [count] = counts(s)
    assert "F, G" in count.text
    assert [r.status for r in s.bot.store.outbox() if ":count:" in r.key] == ["sent", "sent"]


def test_a_refused_edit_is_posted_anew_and_later_counts_edit_that(tmp_path):
    s = season(tmp_path)
    vote(s, "D", "A")
    vote(s, "E", "A")
    real_edit = s.forum.edit_post

    def too_old(post_id, body):
        raise NotAllowed("the edit time limit has passed")

    s.forum.edit_post = too_old
    vote(s, "F", "B")
    vote(s, "G", "B")
    s.clock.advance(1)
    s.bot.cycle()
    first, second = counts(s)
    assert "| B |" not in first.text and "| B | 2 | F, G |" in second.text
    s.forum.edit_post = real_edit
    vote(s, "I", "B")
    vote(s, "J", "B")
    assert len(counts(s)) == 2 and "F, G, I, J" in counts(s)[1].text


def test_without_editing_each_count_is_a_new_post(tmp_path):
    s = season(tmp_path, {"vote_count_edit": False})
    for voter in "DEFG":
        vote(s, voter, "A")
    first, second = counts(s)
    assert "D, E |" in first.text and "D, E, F, G" in second.text and s.forum.edits == 0


def test_no_count_when_votes_are_sent_by_private_message(tmp_path):
    s = make_season(tmp_path, KC, KC_ROLES, ruleset="killer_club", schedule={"vote_count_every": 1})
    s.bot.cycle()
    for _ in range(2):
        s.clock.now = s.bot.deadline() + timedelta(seconds=2)
        s.bot.cycle()
    for voter in "DEF":
        s.forum.player_pm(voter, "投 A")
        s.clock.advance(1)
        s.bot.cycle()
    assert counts(s) == [] and s.bot.vote_counts.next_time() is None


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("markup", MARKUPS)
def test_count_template_escapes_names_and_keeps_order(locale, markup):
    data = {"round": 2, "number": 2, "votes": 3, "alive": 5, "through": 1234, "left": 5400, "edited_in_place": True,
            "every": 3, "before": [43200, 3600], "targets": [{"name": "[b]x[/b]*y*", "no_lynch": False, "voters": ["Zed", "Amy"], "count": 2},
                        {"name": "", "no_lynch": True, "voters": ["Bob"], "count": 1}],
            "not_voted": ["Cy", "Dee"]}
    text = Renderer(locale, markup).render("common/vote_count", data)
    assert "[b]x[/b]" not in text and (markup == "bbcode" or "*y*" not in text)  # no markup from a name
    assert text.index("Zed") < text.index("Amy") < text.index("Bob") and "1234" in text
    assert {"en": "1 h 30 min", "zh-Hans": "1小时30分钟", "zh-Hant": "1小時30分鐘"}[locale] in text
    assert {"en": "No lynch", "zh-Hans": "不放逐", "zh-Hant": "不放逐"}[locale] in text
    assert "Cy" in text and "Dee" in text


def test_an_unanswered_count_edit_does_not_hold_the_result_post(tmp_path):
    """An edit of the running count that got no answer waits its request horizon, but only edits of that
    post wait with it: the round's result post and the next phase's post go out at the deadline (issue 24:
    one stuck row holds only its own destination; the result within poll + grace + one write interval)."""
    from forumbot.forums.errors import ForumDown

    s = season(tmp_path)
    s.forum.request_horizon_seconds = 600
    vote(s, "D", "A")
    vote(s, "E", "A")
    assert len(counts(s)) == 1  # the count is posted: the next one is an edit of it
    edit_post = s.forum.edit_post

    def no_answer(post_id, body):
        raise ForumDown("timed out")

    s.forum.edit_post = no_answer
    vote(s, "F", "B")
    vote(s, "G", "B")  # the count's edit goes out and gets no answer: uncertain for 600 s
    assert [r.status for r in s.bot.store.outbox() if r.kind == "edit"] == ["sending"]
    s.forum.edit_post = edit_post
    posts = len(s.forum.posts_by_judge(s.thread))
    dl = s.bot.deadline()
    s.clock.now = dl + timedelta(seconds=2)
    s.bot.cycle()
    assert s.bot.game.phase.kind != "vote"  # the round closed
    assert len(s.forum.posts_by_judge(s.thread)) > posts  # its result is on the forum at once
    assert s.bot.deadline() is not None  # and the next phase's clock runs


@pytest.mark.parametrize("locale,said", [
    ("en", "This post is updated after every 3 new votes, and 12 h, 1 h before the deadline."),
    ("zh-Hans", "本帖每新增 3 票更新一次，截止前 12小时、1小时 也会更新。"),
    ("zh-Hant", "本帖每新增 3 票更新一次，截止前 12小時、1小時 也會更新。")])
def test_the_count_says_its_rhythm_not_that_it_follows_every_vote(locale, said):
    """Issue 28: with ``vote_count_every = 3`` a count said 「本帖隨投票更新」 and stayed at 4 votes after two more (as
    the rhythm wants); the post says when it is updated."""
    data = {"round": 1, "number": 1, "votes": 4, "alive": 7, "through": 9, "left": 600, "edited_in_place": True,
            "every": 3, "before": [43200, 3600], "targets": [], "not_voted": []}
    text = Renderer(locale, "bbcode").render("common/vote_count", data)
    assert said in text and "随投票更新" not in text and "隨投票更新" not in text, text
    only_times = Renderer(locale, "bbcode").render("common/vote_count", {**data, "every": 0, "before": [3600]})
    assert {"en": "This post is updated 1 h before the deadline.", "zh-Hans": "本帖在截止前 1小时 更新。",
            "zh-Hant": "本帖在截止前 1小時 更新。"}[locale] in only_times
    as_new_posts = Renderer(locale, "bbcode").render("common/vote_count", {**data, "edited_in_place": False})
    assert "3" not in as_new_posts.split("\n")[-1]


@pytest.mark.parametrize("left,shown", [(55, "55 s"), (59.9, "59 s"), (60, "1 min"), (119, "1 min"), (3725, "1 h 2 min")])
def test_time_left_in_the_unit_that_fits(left, shown):
    """Issue 28: 55 s left read ``Time left: 0 s`` (minutes rounded down)."""
    from forumbot.render import duration
    from forumbot.runtime.votecount import time_left

    assert duration(time_left(timedelta(seconds=left)), "en") == shown


def test_a_count_under_a_minute_before_the_deadline_says_the_seconds(tmp_path):
    s = season(tmp_path, {"vote_count_every": 1})
    s.clock.now = s.bot.deadline() - timedelta(seconds=56)
    vote(s, "D", "A")
    [first] = counts(s)
    assert "Time left: 55 s" in first.text, first.text


def test_the_rhythm_names_only_the_fixed_times_this_vote_has(tmp_path):
    s = season(tmp_path, {"lengths": {"vote": "2h"}, "vote_count_every": 1, "vote_count_before": ["12h", "1h"]})
    vote(s, "D", "A")
    [first] = counts(s)
    assert "This post is updated after every new vote, and 1 h before the deadline." in first.text, first.text
