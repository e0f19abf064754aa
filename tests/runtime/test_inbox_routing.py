"""Which season stores a private message to a judge account whose inbox several seasons share
(forumbot.runtime.inbox_routing.route): subject, body prefix, sender, ask, stranger."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from forumbot.runtime.inbox_routing import InboxSeason, route

SPRING = InboxSeason("春季杀", ("阿甲", "阿乙", "双栖"), ("主持",))
SUMMER = InboxSeason("夏季杀", ("阿丙", "双栖"), ("主持",))
SEASONS = [SPRING, SUMMER]


def test_a_reply_to_the_judges_pm_goes_to_the_season_its_subject_names():
    for subject in ("Re: 夏季杀 · 法官", "回复：夏季杀 · 法官", "回复: 夏季杀 · 法官", "RE：RE：夏季杀 · 法官", "夏季杀 · 法官",
                    "回覆：夏季殺 · 法官", "Re[2]: 夏季杀 · Judge", "夏季杀"):
        r = route("双栖", subject, "投 3", SEASONS)
        assert (r.season, r.rule, r.text) == ("夏季杀", "subject", "投 3"), subject


def test_a_subject_in_traditional_or_full_width_forms_names_the_season():
    seasons = [InboxSeason("Spring Cup", ("a",)), InboxSeason("秋季殺人遊戲", ("a",))]
    assert route("a", "Ｒｅ：ＳＰＲＩＮＧ ＣＵＰ · Judge", "vote 3", seasons).season == "Spring Cup"
    assert route("a", "回覆：秋季殺人遊戲 · 法官", "投3", seasons).season == "秋季殺人遊戲"
    assert route("a", "回复：秋季杀人游戏 · 法官", "投3", seasons).season == "秋季殺人遊戲"


def test_a_subject_naming_both_seasons_or_none_decides_nothing():
    r = route("双栖", "春季杀 / 夏季杀 · 法官", "投 3", SEASONS)
    assert (r.season, r.rule, r.choices) == ("夏季杀", "ask", ("夏季杀", "春季杀"))  # the first by name asks
    assert route("阿甲", "问个问题", "投 3", SEASONS).rule == "sender"


def test_a_name_inside_a_word_of_the_subject_is_not_a_name():
    seasons = [InboxSeason("春季", ("x",)), InboxSeason("春季杀2", ("y",))]
    assert route("z", "Re: 春季杀2 · 法官", "投 3", seasons).season == "春季杀2"
    assert route("z", "关于春季杀2的问题", "投 3", seasons).rule == "stranger"


def test_a_season_name_that_is_a_prefix_of_anothers_loses_to_the_longer_one():
    spring, spring2 = InboxSeason("Spring", ("a", "b")), InboxSeason("Spring 2", ("a", "c"))
    seasons = [spring, spring2]
    assert route("a", "Re: Spring 2 · Judge", "vote 3", seasons).season == "Spring 2"
    assert route("a", "Re: Spring · Judge", "vote 3", seasons).season == "Spring"
    r = route("a", "", "Spring 2: vote 3", seasons)
    assert (r.season, r.rule, r.text) == ("Spring 2", "prefix", "vote 3")
    r = route("a", "", "spring: vote 3", seasons)
    assert (r.season, r.text) == ("Spring", "vote 3")
    cjk = [InboxSeason("春季", ("a",)), InboxSeason("春季杀", ("a",))]
    assert route("a", "", "春季杀：投 3", cjk).season == "春季杀"
    assert route("a", "", "春季：投 3", cjk).season == "春季"
    assert route("a", "", "春季杀投3", cjk).rule == "ask"  # no separator after the name: not a prefix


def test_a_body_that_begins_with_a_season_name_goes_to_it_without_the_name():
    for body, text in (("夏季杀：投 3", "投 3"), ("[夏季杀] 投 3", "投 3"), ("夏季杀 投3", "投3"), ("【夏季杀】投3", "投3"),
                       ("  夏季殺：投 3", "投 3"), ("「夏季杀」 投 3", "投 3"), ("夏季杀, 投 3\n理由", "投 3\n理由"),
                       ("［夏季杀］投３", "投３")):
        r = route("双栖", "", body, SEASONS)
        assert (r.season, r.rule, r.text) == ("夏季杀", "prefix", text), body


def test_the_body_prefix_comes_before_the_subject():
    # a Discuz! conversation shows the subject of its first message on every later one: the name typed wins
    r = route("双栖", "Re: 春季杀 · 法官", "夏季杀：投 3", SEASONS)
    assert (r.season, r.rule, r.text) == ("夏季杀", "prefix", "投 3")


def test_a_sender_in_one_season_goes_to_it():
    assert (route("阿甲", "", "投 3", SEASONS).season, route("阿丙", "", "投 3", SEASONS).season) == ("春季杀", "夏季杀")
    only_here = [InboxSeason("B", (), ("org",)), InboxSeason("A", ("p",))]
    assert route("org", "", "pause", only_here).season == "B"  # an organiser of one season


def test_a_sender_in_several_seasons_is_asked_by_the_first_of_his_by_name():
    seasons = [InboxSeason("c", ("x",)), InboxSeason("b", ("x",)), InboxSeason("a", ("y",))]
    r = route("x", "", "vote 3", seasons)
    assert (r.season, r.rule, r.choices, r.text) == ("b", "ask", ("b", "c"), "vote 3")
    assert route("主持", "", "暂停", SEASONS).rule == "ask"  # an organiser of both


def test_a_stranger_goes_to_the_first_season_by_name():
    seasons = [InboxSeason("c", ("x",)), InboxSeason("b", ("y",))]
    r = route("nobody", "", "vote 3", seasons)
    assert (r.season, r.rule) == ("b", "stranger")
    assert route("nobody", "", "c: vote 3", seasons).season == "c"  # unless he names one
    assert route("nobody", "", "vote", []).season is None


def test_a_season_name_in_the_body_not_at_its_start_is_no_prefix():
    assert route("阿甲", "", "投 3 夏季杀", SEASONS).season == "春季杀"
    assert route("阿甲", "", "夏季杀人游戏真好玩", SEASONS).season == "春季杀"


def test_a_season_not_started_when_the_message_was_sent_takes_none_but_named_messages():
    now = datetime(2026, 12, 1, 12, tzinfo=UTC)
    later = InboxSeason("夏季杀", ("双栖", "阿丙"), ("主持",), start=now + timedelta(days=30))
    running = InboxSeason("春季杀", ("双栖", "阿甲"), ("主持",), start=now - timedelta(days=1))
    seasons = [later, running]
    assert route("双栖", "", "投 3", seasons, now) == route("双栖", "", "投 3", [running], now)
    assert route("双栖", "", "投 3", seasons, now).rule == "sender"
    assert route("路人", "", "投 3", seasons, now).season == "春季杀"  # not kept waiting a month for an answer
    assert route("阿丙", "", "投 3", seasons, now).season == "春季杀"  # as a stranger: 夏季杀 has not started
    assert route("双栖", "", "夏季杀：投 3", seasons, now).season == "夏季杀"  # named: it goes there
    assert route("双栖", "Re: 夏季杀 · 法官", "投 3", seasons, now).season == "夏季杀"
    assert route("双栖", "", "投 3", seasons, now + timedelta(days=31)).rule == "ask"  # both started by then
    assert route("双栖", "", "投 3", seasons).rule == "ask"  # no time: every season counts
    none_yet = [InboxSeason("b", ("x",), start=now + timedelta(1)), InboxSeason("a", ("y",), start=now + timedelta(2))]
    assert route("z", "", "hi", none_yet, now).season == "a"  # none started: all of them count


NAMES = st.sampled_from(["春季杀", "春季", "夏季杀", "Spring", "Spring 2", "spring cup", "秋季殺", "秋季杀"])
ACCOUNTS = st.sampled_from(["a", "b", "c", "org", "stranger"])
SUBJECTS = st.one_of(st.just(""), st.text(max_size=20),
                     st.builds(lambda p, n, s: f"{p}{n}{s}", st.sampled_from(["", "Re: ", "回复：", "回覆: "]), NAMES,
                               st.sampled_from(["", " · 法官", " · Judge", "2", " / 春季杀"])))
BODIES = st.one_of(st.text(max_size=30),
                   st.builds(lambda o, n, s, c: f"{o}{n}{s}{c}", st.sampled_from(["", "[", "【", " "]), NAMES,
                             st.sampled_from(["", "：", "] ", ":", " ", "】"]), st.sampled_from(["投 3", "vote 3", ""])))


T = datetime(2026, 12, 1, tzinfo=UTC)
STARTS = st.one_of(st.none(), st.integers(-3, 3).map(lambda d: T + timedelta(days=d)))


@st.composite
def inboxes(draw):
    names = draw(st.lists(NAMES, min_size=0, max_size=4, unique_by=lambda n: n))
    return [InboxSeason(n, tuple(draw(st.lists(ACCOUNTS, max_size=3, unique=True))), tuple(draw(st.lists(
        st.just("org"), max_size=1))), draw(STARTS)) for n in names]


@settings(max_examples=300, deadline=None)
@given(inboxes(), ACCOUNTS, SUBJECTS, BODIES, STARTS, st.randoms(use_true_random=False))
def test_exactly_one_season_or_none_stores_any_message(seasons, sender, subject, body, sent_at, rnd):
    # each season decides from its own view (the seasons listed in its own order): exactly one keeps the message
    keepers = []
    for season in seasons:
        view = list(seasons)
        rnd.shuffle(view)
        if route(sender, subject, body, view, sent_at).season == season.name:
            keepers.append(season.name)
    assert len(keepers) == (1 if seasons else 0)
    r = route(sender, subject, body, seasons, sent_at)
    if r.rule == "ask":
        assert r.season == r.choices[0] and len(r.choices) > 1 and all(
            any(s.name == c and s.has(sender) for s in seasons) for c in r.choices)
    if r.rule != "prefix":
        assert r.text == body


def test_routing_does_not_depend_on_the_order_of_the_seasons():
    seasons = [InboxSeason(n, ("a",)) for n in ("Spring", "Spring 2", "春季", "春季杀")]
    for body in ("Spring 2: vote 3", "春季杀 投3", "vote 3"):
        results = set()
        for _ in range(10):
            random.shuffle(seasons)
            results.add(route("a", "", body, seasons))
        assert len(results) == 1, body
