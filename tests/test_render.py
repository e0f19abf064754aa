"""Templates: every output of the engine renders in every locale and markup; user text is escaped."""

from __future__ import annotations

from pathlib import Path

import pytest

from forumbot.render import LOCALES, MARKUPS, TEMPLATES, Renderer, escape
from forumbot.replay import load_transcript, parse_transcript, replay

EXAMPLE = Path(__file__).parent / "transcripts" / "sunlight_worked_example.yaml"
KILLER_CLUB = Path(__file__).parent / "transcripts" / "killer_club_full_game.yaml"


def outputs():
    """Outputs of games that touch every template: the worked example plus a game of rejections,
    strikes, clue polls, organiser commands and dead players' posts."""
    results = [replay(load_transcript(EXAMPLE))]
    r1 = [[x, "投 A"] for x in "BCDEFG"] + [["A", "投 A B"], ["B", "投 C"], ["B", "取消投票"], ["C", "no lynch"],
                                           ["D", "我不投 C"]]
    raw = {
        "ruleset": "sunlight", "players": list("ABCDEFG"), "roles": {"C": "killer"}, "organisers": ["Org"], "others": ["Z"],
        "phases": [
            {"messages": [["Z", "投 B"], ["Org", "投 B"], ["Org", "帮助"], ["Org", "状态"], ["A", "hi"], ["A", "投 Q"], ["B", "杀 A"], ["A", "状态"], ["A", "帮助"]] + r1},
            {"messages": [["B", "线索 2"], ["C", "线索 3"], ["D", "线索 9"], ["B", "线索 1"], ["B", "状态"], ["B", "帮助"]],
             "posts": [["A", "遗书"], ["A", "again"]],
             "organiser": [["Org", "延长 30分钟"], ["Org", "暂停"], ["Org", "继续"], ["Org", "替换 G Gina"], ["Org", "替换 B C"]]},
            {"messages": [["C", "杀 C"], ["C", "杀 A"], ["C", "杀 B"], ["C", "杀 D"], ["C", "状态"], ["Gina", "帮助"]]},
            {"messages": [["B", "投 B"], ["C", "投 E"], ["E", "投 C, F"], ["E", "投 F"], ["F", "投 C C"], ["F", "投 C E F"]],
             "organiser": [["Org", "罚分 F 灌水"], ["F", "罚分 E 潜水"]]},
        ],
    }
    results.append(replay(parse_transcript(raw)))
    ended = {"ruleset": "sunlight", "players": list("ABCD"), "phases": [{"organiser": [["Org", "结束游戏"]]}]}
    results.append(replay(parse_transcript(ended)))
    results += killer_club_results()
    # every transcript in tests/transcripts/ (each ruleset's transcripts together cover its templates)
    for path in sorted(EXAMPLE.parent.glob("*.yaml")):
        if path not in (EXAMPLE, KILLER_CLUB):
            results.append(replay(load_transcript(path)))
    for r in results:
        for ph in r.phases:
            yield from ph.step.replies
            yield from ph.step.posts
    yield from direct_outputs()


def killer_club_results():
    """killer_club: the full game, a game of rejections, help and status in every phase kind, the
    victim's choice changed, an organiser's end; and a thread-vote game whose last tie is drawn."""
    results = [replay(load_transcript(KILLER_CLUB))]
    night = [["G", "殺 A"], ["A", "殺 C D"], ["C", "驗 C"], ["C", "驗 D"], ["E", "驗 E"], ["F", "問 F"], ["F", "救 G"],
             ["F", "問 A"], ["G", "投 A"], ["A", "狀態"], ["F", "狀態"], ["C", "狀態"], ["E", "狀態"], ["A", "幫助"],
             ["G", "幫助"], ["A", "接任 B"], ["C", "驗 A"], ["D", "驗 B"], ["E", "驗 A"], ["A", "殺 H"], ["E", "驗 B"],
             ["F", "問 A"], ["F", "救 G"]]
    tie = [["A", "投 C"], ["B", "投 C"], ["C", "投 A"], ["D", "投 A"]]
    raw = {
        "ruleset": "killer_club", "players": list("ABCDEFGH"), "organisers": ["Org"],
        "roles": {"A": "killer", "B": "killer", "C": "police", "D": "police", "E": "helper", "F": "nurse"},
        "phases": [
            {"phase": "prologue", "messages": [["A", "殺 C"], ["A", "幫助"], ["A", "狀態"]]},
            {"phase": "night", "messages": night},
            {"phase": "vote", "messages": [["H", "投 A"], ["A", "投 H"], ["A", "投 B C"]] + tie + [["A", "投 D"], ["A", "狀態"], ["A", "幫助"]],
             "posts": [["H", "遺言"], ["H", "again"]]},
            {"phase": "runoff", "messages": [["G", "投 E"], ["A", "狀態"]] + tie},
            {"phase": "runoff", "messages": tie},
            {"phase": "choice", "messages": [["H", "殺 E"], ["H", "殺 C"], ["H", "殺 A"], ["H", "狀態"], ["H", "幫助"], ["G", "投 A"], ["G", "狀態"]]},
            {"phase": "night", "messages": [["B", "殺 H"], ["B", "殺 G"]], "organiser": [["Org", "結束遊戲"]]},
        ],
    }
    results.append(replay(parse_transcript(raw)))
    thread = {
        "ruleset": "killer_club", "players": list("ABCDEF"), "roles": {"A": "killer", "B": "police"},
        "params": {"vote_in_thread": True, "tie_fallback": "draw", "votes": 1},
        "phases": [
            {"phase": "night", "messages": [["B", "驗 C"]]},
            {"phase": "vote", "messages": [["C", "投 D"], ["C", "幫助"]], "posts": [["C", "投 D"], ["D", "投 C"], ["E", "我覺得是 A"]]},
            {"phase": "night", "messages": [["A", "殺 B"]]},
        ],
    }
    results.append(replay(parse_transcript(thread)))
    return results


def direct_outputs():
    """Outputs a transcript cannot reach in order: commands while paused and after the end."""
    from forumbot.engine.game import Game, Setup
    from forumbot.engine.types import Deadline, Message

    g = Game(Setup("sunlight", tuple("ABCD"), roles={"C": "killer"}, organisers=("Org",)))
    steps = [g.start(), g.apply(Deadline(0))]
    for sender, text in [("A", "罚分 B 潜水"), ("Org", "暂停"), ("A", "投 B"), ("Org", "继续")]:
        steps.append(g.apply(Message(sender, text)))
    steps.append(g.apply(Deadline(1)))  # nobody voted: warnings
    steps.append(g.apply(Deadline(2)))  # kill round, nobody killed
    steps.append(g.apply(Deadline(3)))  # second miss: suicides, game over
    steps.append(g.apply(Message("A", "投 B")))
    for s in steps:
        yield from s.replies
        yield from s.posts


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("markup", MARKUPS)
def test_every_output_renders(locale, markup):
    renderer = Renderer(locale, markup)
    keys = set()
    for o in outputs():
        text = renderer.render(o.key, o.data)
        assert text.strip(), o.key
        assert "\n\n\n" not in text, f"{o.key}: a run of blank lines"  # at most one (newcomer's trial, item 13)
        keys.add(o.key)
    for key in keys:  # runtime context (deadlines) is optional in every template
        assert renderer.render(key, next(o.data for o in outputs() if o.key == key), deadline="2026-12-01 20:00 CST")


RUNTIME_TEMPLATES = {"common/pm_subject", "common/reminder", "common/delivery_failed", "common/late",
                     "common/vote_count", "common/which_season",
                     "common/console_sign_in"}  # rendered by the runtime (the last: by the console)


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("markup", MARKUPS)
def test_late_reply_says_the_round_closed_and_when(locale, markup):
    text = Renderer(locale, markup).render("common/late", {"closed_phase": "vote", "closed_round": 1, "straddled": True,
                                                           "closed_at": "2026-12-01 22:00:00 CST"})
    assert "22:00" in text and {"en": "late", "zh-Hans": "逾期", "zh-Hant": "逾期"}[locale] in text
    assert {"en": "round 1", "zh-Hans": "第 1 轮", "zh-Hant": "第 1 輪"}[locale] in text


def test_every_template_is_used():
    import jinja2.meta

    used = {o.key for o in outputs()} | RUNTIME_TEMPLATES
    env = Renderer("en", "markdown").env
    for key in list(used):  # a template another one extends (common/rejected) is used through it
        path = TEMPLATES / "en" / f"{key}.j2"
        if path.exists():
            refs = jinja2.meta.find_referenced_templates(env.parse(path.read_text(encoding="utf-8")))
            used |= {ref[: -len(".j2")] for ref in refs if ref}
    files = {p.relative_to(TEMPLATES / "en").as_posix()[: -len(".j2")] for p in (TEMPLATES / "en").rglob("*.j2")
             if not p.name.startswith("_")}  # _macros.j2 is imported, not rendered
    assert files <= used


def test_every_locale_has_the_same_templates():
    names = {loc: sorted(p.relative_to(TEMPLATES / loc).as_posix() for p in (TEMPLATES / loc).rglob("*.j2")) for loc in LOCALES}
    assert names["zh-Hans"] == names["en"] == names["zh-Hant"]


def test_names_are_escaped_in_both_markups():
    md = Renderer("en", "markdown").render("common/replaced", {"old": "**bold**", "new": "[b]x[/b]<script>", "seat": 1})
    assert "**bold**" not in md and "\\*\\*bold\\*\\*" in md and "\\<script\\>" in md
    bb = Renderer("en", "bbcode").render("common/replaced", {"old": "a", "new": "[url=http://x]y[/url]", "seat": 1})
    assert "[url=" not in bb and "[b][\u200burl=http://x]y[\u200b/url][/b]" in bb


def test_escape_keeps_plain_cjk_text():
    assert escape("张三 李四", "markdown") == "张三 李四"
    assert escape("张三", "bbcode") == "张三"


def test_season_override_folder_wins(tmp_path):
    (tmp_path / "en" / "common").mkdir(parents=True)
    (tmp_path / "en" / "common" / "game_paused.j2").write_text("PAUSED BY US")
    assert Renderer("en", "markdown", overrides=tmp_path).render("common/game_paused", {}) == "PAUSED BY US\n"
    assert "paused" in Renderer("en", "markdown").render("common/game_paused", {})


def test_unknown_locale_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown locale"):
        Renderer("fr")


@pytest.mark.parametrize("locale", LOCALES)
def test_runtime_templates_render(locale):
    r = Renderer(locale, "bbcode")
    subject = r.render("common/pm_subject", {"ref": "3.1"}, season="S").strip()
    assert subject in ("S · Judge", "S · 法官")  # one readable subject a season: no message number
    assert r.render("common/reminder", {"phase": "vote", "round": 3}, deadline="D")
    text = r.render("common/delivery_failed", {"recipient": "[b]x", "kind": "pm", "error": "full", "attempt": 1, "max_attempts": 5})
    assert "[\u200bb]x" in text and "1" in text and "5" in text
    final = r.render("common/delivery_failed", {"recipient": "x", "kind": "pm", "error": "no such user", "attempt": 1,
                                                "max_attempts": 1, "final": True, "cause": "no_account"})
    # settled: the reason in the organiser's words (not the adapter's), no attempt count, no promise to retry
    assert "no such user" not in final and "1" not in final


# OpenCC s2twp slips and mainland words in the zh-Hant templates: (pattern, why).
ZH_HANT_SLIPS = [
    ("線上索", "在线索 turned into 線上索 (online)"),
    ("線上", "在线 read as 線上 (online); no template means 'online'"),
    ("遊戲貼", "the thread is 遊戲帖"),
    ("賬號", "Taiwan/Hong Kong write 帳號"),
    ("通過短訊息", "by PM is 透過短訊息"),
    ("傳送", "mixed with 發送 for the same 发送"),
    ("資訊", "信息 here is an order, not information"),
    ("示例", "Taiwan/Hong Kong write 範例"),
    ("短消息", "a zh-Hans word: PMs are 短訊息"),
    ("信息", "a zh-Hans word"),
    ("網絡", "a zh-Hans word"),
    ("“", "Traditional Chinese quotes are 「」"),
    ("”", "Traditional Chinese quotes are 「」"),
]


@pytest.mark.parametrize("folder", ["common", "sunlight", "killer_club", "human_kill", "vampire_village"])
def test_zh_hant_templates_have_no_conversion_slips(folder):
    for path in sorted((TEMPLATES / "zh-Hant" / folder).rglob("*.j2")):
        text = path.read_text(encoding="utf-8")
        for pattern, why in ZH_HANT_SLIPS:
            assert pattern not in text, f"{path.relative_to(TEMPLATES)}: {pattern!r} ({why})"


def test_no_zh_hant_template_reads_online_for_in():
    for path in sorted((TEMPLATES / "zh-Hant").rglob("*.j2")):
        assert "線上" not in path.read_text(encoding="utf-8"), path.relative_to(TEMPLATES)


def test_strike_warning_reads_naturally():
    en = Renderer("en", "markdown")
    first = en.render("sunlight/warning", {"round": 1, "strikes": 1, "limit": 2})
    assert "This is your first warning; one more missed or self vote and you are out as a suicide." in first
    assert "of 1" not in first and "at 2" not in first
    assert "your second warning; two more missed or self votes" in en.render("sunlight/warning", {"round": 3, "strikes": 2, "limit": 4})
    assert "再有一次逾期不投或自投" in Renderer("zh-Hans", "markdown").render("sunlight/warning", {"round": 1, "strikes": 1, "limit": 2})
    assert "再有 2 次逾期不投或自投" in Renderer("zh-Hant", "markdown").render("sunlight/warning", {"round": 1, "strikes": 1, "limit": 3})


@pytest.mark.parametrize("locale", LOCALES)
def test_ambiguous_name_reply_lists_the_names(locale):
    """docs/commands.md: the reply to an ambiguous name lists the players' names."""
    text = Renderer(locale, "markdown").render("common/parse_error", {
        "code": "ambiguous_name", "verb": "vote", "written": "王七", "candidates": ["王五", "王六"], "organiser": False})
    assert "王五" in text and "王六" in text
    doc = (TEMPLATES.parents[1] / "docs" / "commands.md").read_text(encoding="utf-8")
    assert "listing both seats" not in doc and "lists their seats" not in doc


@pytest.mark.parametrize("locale,says", [("zh-Hans", "楼层"), ("zh-Hant", "樓層"), ("en", "post number")])
def test_post_number_error_explains_it_is_not_a_seat(locale, says):
    from forumbot.language.parse import parse
    from forumbot.language.types import Roster

    err = parse("投 3楼", Roster.of(["张三", "李四", "王五"]), sender_seat=1)
    text = Renderer(locale, "markdown").render("common/parse_error", {
        "code": err.code, "verb": err.verb, "written": err.written, "candidates": [], "organiser": False})
    assert "3楼" in text and says in text and ("3号" in text or "3號" in text)


# --- verb ids, penalty reasons and durations in the post's language ------------------------------------
def _all_verbs():
    from forumbot.language.types import ORGANISER_VERBS, PLAYER_VERBS

    return PLAYER_VERBS + ORGANISER_VERBS


@pytest.mark.parametrize("locale", LOCALES)
def test_every_verb_has_a_name_in_every_locale(locale):
    """forumbot/templates/<locale>/_macros.j2 names every verb the parser knows (a new verb needs a name in each)."""
    module = Renderer(locale, "markdown").env.get_template("_macros.j2").module
    missing = [v for v in _all_verbs() if v not in module.verbs]
    assert not missing, f"{locale}/_macros.j2 has no name for {missing}"
    assert set(module.reasons) >= {"lurking", "flooding"}
    if locale != "en":
        import re

        assert not [n for n in module.verbs.values() if re.search(r"[A-Za-z]", n)]


def _verb_outputs(verb):
    """Every common template that names a verb, with ``verb``."""
    yield "common/game_over", {"verb": verb}
    yield "common/not_a_player", {"verb": verb}
    yield "common/not_organiser", {"verb": verb}
    yield "common/organiser_not_player", {"verb": verb}
    yield "common/paused", {"verb": verb}
    yield "common/organiser_done", {"verb": verb}
    yield "common/organiser_refused", {"verb": verb, "reason": "bad_substitute", "player": "王五"}
    for code in ("unknown_name", "ambiguous_name", "missing_target", "bad_number", "bad_argument"):
        yield "common/parse_error", {"code": code, "verb": verb, "written": "王七", "candidates": ["王五", "王六"],
                                     "organiser": False}
    yield "sunlight/rejected", {"verb": verb, "reason": "not_in_game", "phase": "vote", "round": 1}


@pytest.mark.parametrize("locale", ["zh-Hans", "zh-Hant"])
def test_chinese_replies_name_verbs_in_chinese(locale):
    import re

    renderer = Renderer(locale, "markdown")
    for verb in _all_verbs():
        for key, data in _verb_outputs(verb):
            text = renderer.render(key, data)
            assert not re.search(rf"(?<![a-z]){re.escape(verb)}(?![a-z])", text), (key, verb, text)
            assert not re.search(r"[A-Za-z]", text), (key, verb, text)


@pytest.mark.parametrize("locale,hours,both", [
    ("zh-Hans", "2小时", "1小时30分钟"), ("zh-Hant", "2小時", "1小時30分鐘"), ("en", "2 h", "1 h 30 min")])
def test_organiser_replies_and_extension_post_in_the_post_language(locale, hours, both):
    r = Renderer(locale, "bbcode")
    penalty = r.render("common/organiser_done", {"verb": "penalty", "player": "张三", "reason": "lurking"})
    extend = r.render("common/organiser_done", {"verb": "extend", "seconds": 7200})
    post = r.render("common/deadline_extended", {"seconds": 5400, "phase_id": 1})
    assert hours in extend and both in post and "1h30m" not in post
    if locale != "en":
        assert "penalty" not in penalty and "lurking" not in penalty and "extend" not in extend
        assert ("潜水" if locale == "zh-Hans" else "潛水") in penalty
        assert ("罚分" if locale == "zh-Hans" else "罰分") in penalty


def test_duration_filter():
    from forumbot.render import duration

    assert duration(5400, "zh-Hans") == "1小时30分钟"
    assert duration(5400, "zh-Hant") == "1小時30分鐘"
    assert duration(5400, "en") == "1 h 30 min"
    assert duration(45, "en") == "45 s" and duration(0, "zh-Hans") == "0秒" and duration(3661, "zh-Hans") == "1小时1分钟1秒"


@pytest.mark.parametrize("locale", LOCALES)
def test_reminders_name_every_phase_kind_in_the_locale(locale):
    from forumbot.engine.ruleset import get_ruleset, ruleset_ids

    r = Renderer(locale, "markdown")
    for rid in ruleset_ids():
        for kind in get_ruleset(rid).phase_kinds:
            text = r.render("common/reminder", {"phase": kind, "round": 2})
            if locale != "en":
                assert kind not in text, (rid, kind, text)


def test_gbk_renderer_picks_symbols_gbk_carries():
    """interview_vampire's final post uses ✓ ✗ and vampire_village's ♥: a GBK Discuz! would show them as
    &#10003; codes (capture gbk/web_viewthread_tid2_gbk.html), so a GBK renderer writes √ × 心."""
    from forumbot.render import Renderer

    plain, gbk = Renderer("zh-Hans", "bbcode"), Renderer("zh-Hans", "bbcode", charset="gbk")
    source = plain.env.from_string("{{ name }} ✓ ✗ ♥ 😀")
    assert source.render(name="小[b]明") == "小[\u200bb]明 ✓ ✗ ♥ 😀"
    assert gbk.env.globals["gbk"] and not plain.env.globals["gbk"]
    assert gbk.render("common/pm_subject", {}, season="版杀 😀 ✓") == "版杀 □ √ · 法官\n"
    assert plain.render("common/pm_subject", {}, season="版杀 😀 ✓") == "版杀 😀 ✓ · 法官\n"


def test_phpbb_bbcode_has_no_table_tags():
    """phpBB 3.3 ships no [table] BBCode (it would show the tags): tables become a header line and a list."""
    from forumbot.render import Renderer

    plain = Renderer("en", "bbcode", tables=False)
    text = plain.env.from_string("{{ rows | table(['Voter', 'Vote']) }}").render(rows=[["Bob", "Dave"], ["[b]x", "Al"]])
    assert "[table]" not in text and "[td]" not in text
    assert text.splitlines()[0] == "[b]Voter · Vote[/b]"
    assert "[*]Bob · Dave" in text and "[*][\u200bb]x · Al" in text  # cells stay escaped
    assert "[table]" in Renderer("en", "bbcode").env.from_string("{{ rows | table }}").render(rows=[["a"]])


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("markup", MARKUPS)
def test_which_season_question_lists_the_seasons_and_escapes_what_the_player_wrote(locale, markup):
    text = Renderer(locale, markup).render("common/which_season", {"seasons": ["夏季杀", "[b]春季杀"],
                                                                   "text": "投 [url=x]3[/url]"})
    assert "夏季杀" in text and "春季杀" in text
    assert "[b]春季杀" not in text and "[url=x]" not in text  # escaped: no tag can start
    assert {"en": "not recorded", "zh-Hans": "没有记录", "zh-Hant": "沒有記錄"}[locale] in text
    assert {"en": "subject", "zh-Hans": "标题", "zh-Hant": "標題"}[locale] in text
    discuz = Renderer(locale, markup).render("common/which_season", {"seasons": ["a", "b"], "text": "", "subjects": False})
    assert {"en": "subject", "zh-Hans": "标题", "zh-Hant": "標題"}[locale] not in discuz and "a" in discuz


NOW = {"sunlight": ("prologue", "vote", "poll", "kill"), "killer_club": ("prologue", "night", "vote", "runoff", "choice")}


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize(("ruleset", "phase"), [(r, k) for r, kinds in NOW.items() for k in kinds])
def test_status_and_help_name_the_phase_alike(locale, ruleset, phase):
    """The ``status`` and ``help`` replies open with the same "Now: ..." line (sunlight's status said "prologue
    round 0" where its help says "the prologue"; killer_club's said "day 2, taken along" where its help says
    who is waited for)."""
    r = Renderer(locale, "markdown")
    status = {"phase": phase, "round": 2, "alive": True, "actions": [], "strikes": 0, "role": "civilian", "teammates": []}
    help_ = {"phase": phase, "round": 2, "verbs": ["status", "help"], "clue_options": [1, 2]}
    now = ("Now:", "现在：", "現在：")

    def line(key: str, data: dict) -> str:
        return next(x for x in r.render(f"{ruleset}/{key}", data).splitlines() if x.startswith(now))
    assert line("status", status) == line("help", help_)


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("phase", ("prologue", "cupid", "night", "witch", "shot", "successor", "election", "vote", "runoff"))
def test_vampire_village_help_names_the_phase_as_status_does(locale, phase):
    """vampire_village's ``help`` heads its list with the round and phase in the words its ``status`` uses (the
    English help printed the phase's id: "Round 1, shot")."""
    r = Renderer(locale, "markdown")
    status = {"phase": phase, "round": 1, "alive": True, "actions": [], "role": "villager", "teammates": [], "lover": [],
              "charmed": False, "sheriff": None, "powers_lost": False, "potions": None, "lives": None, "told": False,
              "victim": None}
    head = r.render("vampire_village/help", {"phase": phase, "round": 1, "verbs": ["status", "help"]}).splitlines()[0]
    words = head.split("**")[1]
    assert r.render("vampire_village/status", status).strip().startswith(words + ("." if locale == "en" else "。"))
