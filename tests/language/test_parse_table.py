"""Table test: real-looking messages and the exact Command or ParseError each must give."""

from __future__ import annotations

from dataclasses import replace

import pytest

from forumbot.language.frames import NOT_MEANT
from forumbot.language.parse import parse
from forumbot.language.types import Command, NameReading, ParseError, Roster

# CJK names, a Latin name with a space, names with digits, names one edit apart (王五/王六,
# 小红/小虹), overlapping names (张三/张三丰), traditional-script names with aliases.
ROSTER = Roster.of(
    ["张三", "李四", "张三丰", "Big Bear", "王五", "王六", "Neo42", "劉備", "alice", "趙雲", "小红", "小虹"],
    {"劉備": ["大耳"], "趙雲": ["子龙"], "alice": ["Ali"]},
)
ME = 2  # sender seat in the table


def C(verb, *targets, number=None, text=None):
    return Command(verb, tuple(targets), number=number, text=text)


def E(code, verb=None, written=None, candidates=()):
    return ParseError(code, verb, written, tuple(candidates))


CASES = [
    # --- votes, the forms from the issue
    ("投 张三 李四", C("vote", 1, 2)),
    ("投票：张三，李四", C("vote", 1, 2)),
    ("投：3号、5号", C("vote", 3, 5)),
    ("vote 张三, 李四", C("vote", 1, 2)),
    ("##vote 张三", C("vote", 1)),
    ("Vote: #3 #5", C("vote", 3, 5)),
    # --- votes, other ways players type them
    ("投票: 張三, 李四", C("vote", 1, 2)),
    ("投票給趙雲", C("vote", 10)),
    ("我投张三李四吧", C("vote", 1, 2)),
    ("投张三和李四", C("vote", 1, 2)),
    ("投3號5號", C("vote", 3, 5)),
    ("投 #3、#5", C("vote", 3, 5)),
    ("投 No.3", C("vote", 3)),
    ("投三号", C("vote", 3)),
    ("Vote: 3, 5", C("vote", 3, 5)),
    ("vote 3 5 thanks", C("vote", 3, 5)),
    ("vote for alice", C("vote", 9)),
    ("vote alice and big bear", C("vote", 9, 4)),
    ("VOTE ALICE; BIG BEAR", C("vote", 9, 4)),
    ("投 张三 张三 李四", C("vote", 1, 1, 2)),  # repeats kept: the rules engine refuses them
    ("投 张三 1号", C("vote", 1, 1)),
    ("法官好，我投3号，谢谢", C("vote", 3)),
    ("法官好，我投3号，因为他昨天一直在划水", C("vote", 3)),
    ("请问法官，我投3号", C("vote", 3)),
    ("請問法官，我投3號", C("vote", 3)),
    ("我今天状态不好，投3号", C("vote", 3)),
    ("in the end I vote alice", C("vote", 9)),
    ("@法官 投 5号 6号", C("vote", 5, 6)),
    ("投 12", C("vote", 12)),
    # --- full width and half width
    ("投３號，ＢＩＧ　ＢＥＡＲ", C("vote", 3, 4)),
    ("投票：３号，５号", C("vote", 3, 5)),
    ("ｖｏｔｅ　Ｎｅｏ４２", C("vote", 7)),
    ("投；张三；李四", C("vote", 1, 2)),
    ("投 张三/李四", C("vote", 1, 2)),
    # --- longest match, names with digits and spaces, Latin word boundaries
    ("投张三丰", C("vote", 3)),
    ("投 張三豐", C("vote", 3)),
    ("投张三张三丰", C("vote", 1, 3)),
    ("vote neo42", C("vote", 7)),
    ("vote Big  Bear", C("vote", 4)),
    ("vote big bear, alice", C("vote", 4, 9)),
    # --- aliases and traditional/simplified forms of names
    ("投子龍", C("vote", 10)),
    ("投 子龙", C("vote", 10)),
    ("問 大耳", C("ask", 8)),
    ("查 刘备", C("check", 8)),
    ("check ALI", C("check", 9)),
    ("投 赵云", C("vote", 10)),
    # --- kill / check / ask / save / successor
    ("杀 李四", C("kill", 2)),
    ("殺 李四", C("kill", 2)),
    ("kill 李四", C("kill", 2)),
    ("今晚杀李四", C("kill", 2)),
    ("杀掉李四", C("kill", 2)),
    ("我是杀手，今晚杀3号", C("kill", 3)),
    ("數(shù)殺(shā) 3號", C("kill", 3)),
    ("殺(shā)李四", C("kill", 2)),
    ("验 Big Bear", C("check", 4)),
    ("驗 劉備", C("check", 8)),
    ("查一下5号", C("check", 5)),
    ("check alice", C("check", 9)),
    ("问 3号", C("ask", 3)),
    ("ask ali?", C("ask", 9)),
    ("救 李四", C("save", 2)),
    ("救自己", C("save", ME)),
    ("救 自己", C("save", ME)),
    ("救我", C("save", ME)),
    ("自救", C("save", ME)),
    ("save me", C("save", ME)),
    ("save myself please", C("save", ME)),
    ("接任 李四", C("successor", 2)),
    ("successor: 李四", C("successor", 2)),
    # --- clue
    ("线索 2", C("clue", number=2)),
    ("線索 2", C("clue", number=2)),
    ("clue 2", C("clue", number=2)),
    ("线索二", C("clue", number=2)),
    ("线索 0", C("clue", number=0)),
    ("不要线索", C("clue", number=0)),
    ("不要線索，謝謝", C("clue", number=0)),
    ("no clue", C("clue", number=0)),
    # --- no-argument verbs
    ("状态", C("status")),
    ("狀態", C("status")),
    ("status", C("status")),
    ("法官，状态？", C("status")),
    ("查看状态", C("status")),
    ("帮助", C("help")),
    ("幫助", C("help")),
    ("help", C("help")),
    ("/help", C("help")),
    ("help, how do I vote?", C("help")),
    # --- organiser verbs
    ("罚分 3号 潜水", C("penalty", 3, text="lurking")),
    ("罰分 張三 灌水", C("penalty", 1, text="flooding")),
    ("penalty 张三 lurking", C("penalty", 1, text="lurking")),
    ("penalty 张三 flooding", C("penalty", 1, text="flooding")),
    ("替换 张三 新账号", C("replace", 1, text="新账号")),
    ("替換 張三 為 新帳號", C("replace", 1, text="新帳號")),
    ("replace 张三 NewGuy", C("replace", 1, text="NewGuy")),
    ("replace Big Bear with Little Bear 2", C("replace", 4, text="Little Bear 2")),
    ("延长 30分钟", C("extend", number=1800)),
    ("延長 2小時", C("extend", number=7200)),
    ("延长 1小时30分钟", C("extend", number=5400)),
    ("延长半小时", C("extend", number=1800)),
    ("extend 30m", C("extend", number=1800)),
    ("extend 2h", C("extend", number=7200)),
    ("extend 1h30m", C("extend", number=5400)),
    ("暂停", C("pause")),
    ("暫停一下", C("pause")),
    ("pause", C("pause")),
    ("继续", C("resume")),
    ("繼續遊戲", C("resume")),
    ("恢复", C("resume")),
    ("resume", C("resume")),
    ("结束游戏", C("end")),
    ("結束遊戲", C("end")),
    ("end", C("end")),
    # --- quotes and signatures are not read
    ("> 投 李四\n杀 张三", C("kill", 1)),
    ("＞ 投 李四\n投 张三", C("vote", 1)),
    ("[quote]投 李四[/quote]\n投 张三", C("vote", 1)),
    ("[quote=张三]投 李四 [quote]杀 王五[/quote][/quote]投 小红", C("vote", 11)),
    ("[QUOTE]投 李四", E("no_command")),
    ("【引用】张三：投李四\n投 王五", C("vote", 5)),
    ("【 在 张三 的大作中提到: 】\n: 投李四\n投 王六", C("vote", 6)),
    ("投 张三\n--\n投李四是我签名", C("vote", 1)),
    ("投 张三\n-- \nkill everyone", C("vote", 1)),
    ("vote alice\n——\n杀 李四", C("vote", 9)),
    # --- typos: one edit, unambiguous, is accepted (readings say exact=False)
    ("投张叁", C("vote", 1)),
    ("vote big baer", C("vote", 4)),
    ("vote alicd", C("vote", 9)),
    ("投 劉倍", C("vote", 8)),
    # --- ambiguity: never guess between two players
    ("投王七", E("ambiguous_name", "vote", "王七", (5, 6))),
    ("投 小宏", E("ambiguous_name", "vote", "小宏", (11, 12))),
    ("投张三封", E("ambiguous_name", "vote", "张三封", (1, 3))),
    ("投 张三、王八", E("ambiguous_name", "vote", "王八", (5, 6))),
    # --- errors
    ("投 孙悟空", E("unknown_name", "vote", "孙悟空")),
    ("杀孙悟空吧", E("unknown_name", "kill", "孙悟空")),
    ("投 张三、孙悟空", E("unknown_name", "vote", "孙悟空")),
    ("投 张三 孙悟空 李四", E("unknown_name", "vote", "孙悟空")),
    ("投 15号", E("unknown_name", "vote", "15号")),
    ("投 13", E("unknown_name", "vote", "13")),
    ("vote bob", E("unknown_name", "vote", "bob")),
    ("投", E("missing_target", "vote")),
    ("投票：", E("missing_target", "vote")),
    ("vote?", E("missing_target", "vote")),
    ("救", E("missing_target", "save")),
    ("罚分", E("missing_target", "penalty")),
    ("线索 abc", E("bad_number", "clue", "abc")),
    ("线索", E("bad_number", "clue")),
    ("延长30", E("bad_number", "extend", "30")),
    ("extend soon", E("bad_number", "extend", "soon")),
    ("罚分 张三", E("bad_argument", "penalty")),
    ("罚分 张三 骂人", E("bad_argument", "penalty", "骂人")),
    ("替换 张三", E("bad_argument", "replace")),
    # --- a post number (N楼 = the author of post #N) is never a seat
    ("投 3楼", E("bad_argument", "vote", "3楼")),
    ("投 3樓的", E("bad_argument", "vote", "3樓")),
    ("投 #3楼", E("bad_argument", "vote", "#3楼")),
    ("投三楼", E("bad_argument", "vote", "三楼")),
    ("投 第5楼", E("bad_argument", "vote", "第5楼")),
    ("投 张三 5楼", E("bad_argument", "vote", "5楼")),
    ("杀 3楼", E("bad_argument", "kill", "3楼")),
    ("罚分 3楼 潜水", E("bad_argument", "penalty", "3楼")),
    ("投 3号，理由见5楼", C("vote", 3)),
    # --- no command: verb characters inside ordinary words, prose
    ("今天天气不错", E("no_command")),
    ("", E("no_command")),
    ("我投降", E("no_command")),
    ("检查一下", E("no_command")),
    ("我有个问题", E("no_command")),
    ("救命", E("no_command")),
    ("他们会杀孙悟空", E("no_command")),
    ("我觉得应该查一查他的发言", E("no_command")),
    ("I have no clue who is mafia", E("no_command")),
    ("in the end", E("no_command")),
    ("the end.", E("no_command")),
    ("继续观察一下", E("no_command")),
    ("我是杀手", E("no_command")),
    # --- interview_vampire verbs
    ("吸 张三 李四", C("suck", 1, 2)),
    ("吸血 3號", C("suck", 3)),
    ("今晚吸张三和王五", C("suck", 1, 5)),
    ("吸 1号 2号 3号", C("suck", 1, 2, 3)),
    ("suck alice, big bear", C("suck", 9, 4)),
    ("轉化 劉備", C("convert", 8)),
    ("转化3号", C("convert", 3)),
    ("初擁 李四", C("convert", 2)),
    ("convert alice", C("convert", 9)),
    ("取消转化", C("convert", number=0)),
    ("不轉化了", C("convert", number=0)),
    ("cancel convert", C("convert", number=0)),
    ("我是吸血鬼", E("no_command")),
    ("他可能被轉化成吸血鬼了", E("no_command")),
    ("深呼吸一下", E("no_command")),
    ("这个规则很吸引人", E("no_command")),
    ("昨晚吸了好几个人", E("no_command")),
    # --- human_kill verbs
    ("退治 张三", C("exorcise", 1)),
    ("驅魔 李四", C("exorcise", 2)),
    ("exorcise alice", C("exorcise", 9)),
    ("放逐 3号", C("vote", 3)),
    ("banish big bear", C("vote", 4)),
    ("弃权", C("abstain")),
    ("我棄權", C("abstain")),
    ("abstain", C("abstain")),
    ("退選", C("withdraw")),
    ("withdraw", C("withdraw")),
    ("偽裝 5号", C("disguise", 5)),
    ("disguise alice", C("disguise", 9)),
    ("夢 张三 李四", C("dream", 1, 2)),
    ("入梦 张三、王五", C("dream", 1, 5)),
    ("dream 3 5", C("dream", 3, 5)),
    ("带走 王五", C("take", 5)),
    ("帶走 劉備", C("take", 8)),
    ("take alice", C("take", 9)),
    ("顺时针 3号", C("clockwise", 3)),
    ("逆時針 自己", C("anticlockwise", ME)),
    ("counterclockwise alice", C("anticlockwise", 9)),
    ("他被放逐了", E("no_command")),
    ("昨晚做梦了", E("no_command")),
    ("退治专家很强", E("no_command")),
    ("弃权票不算", E("no_command")),
    # --- vampire_village verbs
    ("連 张三 李四", C("link", 1, 2)),
    ("连 自己 3号", C("link", ME, 3)),
    ("link alice big bear", C("link", 9, 4)),
    ("守 张三", C("guard", 1)),
    ("守護自己", C("guard", ME)),
    ("guard 5", C("guard", 5)),
    ("毒 李四", C("poison", 2)),
    ("毒殺3號", C("poison", 3)),
    ("poison alice", C("poison", 9)),
    ("吹 张三 王五", C("charm", 1, 5)),
    ("魅惑 劉備", C("charm", 8)),
    ("charm 3, 5", C("charm", 3, 5)),
    ("開槍 王五", C("shoot", 5)),
    ("shoot alice", C("shoot", 9)),
    ("傳警徽 李四", C("successor", 2)),
    ("自殺", C("selfkill")),
    ("我要自爆", C("selfkill")),
    ("selfkill", C("selfkill")),
    ("他是自殺的", E("no_command")),
    ("不能連續兩晚守同一個人", E("no_command")),
    ("守護者是誰", E("no_command")),
    ("女巫的毒藥還在", E("no_command")),
    ("吹笛者贏了", E("no_command")),
]


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[c[0][:24] for c in CASES])
def test_table(text, expected):
    assert parse(text, ROSTER, sender_seat=ME) == expected


def test_table_is_big_enough():
    assert len(CASES) >= 80


READINGS = [
    ("投张叁", (NameReading("张叁", 1, False),)),
    ("投３號，ＢＩＧ　ＢＥＡＲ", (NameReading("３號", 3, True), NameReading("ＢＩＧ　ＢＥＡＲ", 4, True))),
    ("投 張三豐", (NameReading("張三豐", 3, True),)),
    ("vote big baer", (NameReading("big baer", 4, False),)),
    ("殺(shā)李四", (NameReading("李四", 2, True),)),
    ("救自己", (NameReading("自己", ME, True),)),
]


@pytest.mark.parametrize(("text", "readings"), READINGS)
def test_readings_say_how_names_were_read(text, readings):
    result = parse(text, ROSTER, sender_seat=ME)
    assert isinstance(result, Command)
    assert result.readings == readings


def test_self_without_sender_is_unknown():
    assert parse("救自己", ROSTER) == E("unknown_name", "save", "自己")
    assert parse("save me", ROSTER, sender_seat=99) == E("unknown_name", "save", "me")


def test_replace_keeps_new_name_as_typed():
    # the new account name is not folded: case and traditional characters survive
    assert parse("替換 劉備 為 曹操ABC", ROSTER).text == "曹操ABC"


def test_same_canonical_name_for_two_players_is_ambiguous():
    roster = Roster.of(["張三", "张三", "李四"])
    assert parse("投 张三", roster) == E("ambiguous_name", "vote", "张三", (1, 2))


def test_name_containing_verb_is_not_a_verb():
    roster = Roster.of(["查理", "李四", "杀手小李"])
    assert parse("查查理", roster) == C("check", 1)
    assert parse("投杀手小李", roster) == C("vote", 3)
    assert parse("杀手小李说得对", roster) == E("no_command")


def test_verb_inside_prose_word_counts_when_a_name_follows():
    roster = Roster.of(["降龙", "李四"])
    assert parse("投降龙", roster) == C("vote", 1)
    assert parse("我投降", roster) == E("no_command")


def test_latin_names_and_numbers_are_whole_words():
    roster = Roster.of(["bob"] + [f"p{i}" for i in range(2, 36)])
    assert parse("vote bobby", roster) == E("unknown_name", "vote", "bobby")
    assert parse("vote bob", roster) == C("vote", 1)
    assert parse("投 35", roster) == C("vote", 35)
    assert parse("投 3号5", roster) == C("vote", 3, 5)


# --- issue 17: what real players write ------------------------------------------------------------

def U(frame, verb, *targets, number=None):
    """An "unclear" error: the judge asks whether the player meant ``verb targets``; for a frame in which
    the player does not mean it (a negation, a mock, a name compared away) it offers nothing back."""
    meant = None if frame in NOT_MEANT else Command(verb, tuple(targets), number=number)
    return ParseError("unclear", verb, frame=frame, meant=meant)


def unquoted(result, text):
    """``result`` without the quote of an "unclear" error, after checking the quote is what was written."""
    if isinstance(result, ParseError) and result.code == "unclear":
        assert result.written and result.written in text, (result.written, text)
        return replace(result, written=None)
    return result


PM_CASES = [
    # negation, retraction, reported speech, suggestion, past tense, question: asked, never recorded
    ("我不投张三", U("negation", "vote", 1)),
    ("别杀张三", U("negation", "kill", 1)),
    ("我不会再投李四了", U("negation", "vote", 2)),
    ("I won't vote alice", U("negation", "vote", 9)),
    ("don't kill big bear", U("negation", "kill", 4)),
    ("李四说他要投张三", U("reported", "vote", 1)),
    ("Bats says: Just vote alice.", U("reported", "vote", 9)),
    ("今天我倾向投3号", U("suggestion", "vote", 3)),
    ("建议今天归票投3号", U("suggestion", "vote", 3)),
    ("let's vote alice", U("suggestion", "vote", 9)),
    ("Okay, please clarify your vote on alice", E("no_command")),  # "your vote": a noun
    ("我验了3号", U("past", "check", 3)),
    ("我救了3号", U("past", "save", 3)),
    ("我毒了3号", U("past", "poison", 3)),
    ("我守了3号", U("past", "guard", 3)),
    ("昨晚我守的是 3 号", E("no_command")),
    ("投3号吗？", U("question", "vote", 3)),
    # a retraction followed by a vote: the vote stands; a negated vote and a vote: the vote
    ("不投张三，投李四", C("vote", 2)),
    ("取消投票：张三 投票：李四", C("vote", 2)),
    ("取消投票", C("unvote")),
    ("撤票", C("unvote")),
    ("unvote", C("unvote")),
    ("vote no lynch", C("nolynch")),
    ("投 不放逐", C("nolynch")),
    ("no lynch", C("nolynch")),
    # nouns and prose are no commands
    ("with a vote on me", E("no_command")),
    ("no clue why you Europeans stay up so late", E("no_command")),
    # the bot's own verbs (templates' m.verb) always parse
    ("杀人 张三", C("kill", 1)),
    ("救人 张三", C("save", 1)),
    ("验人 王五", C("check", 5)),
    ("詢問 李四", C("ask", 2)),
    ("猎杀 3", C("shoot", 3)),
    ("出3号", C("vote", 3)),
    ("投出3号", C("vote", 3)),
    ("谁未投票", C("status")),
    ("棄權", C("abstain")),
]


@pytest.mark.parametrize(("text", "expected"), PM_CASES, ids=[c[0][:24] for c in PM_CASES])
def test_private_messages(text, expected):
    assert unquoted(parse(text, ROSTER, sender_seat=ME), text) == expected


THREAD_CASES = [
    # marked: line start, ##, !, /, bold, 【】, vote tags, the last clause (Chinese)
    ("我觉得他很可疑。\n投 张三", C("vote", 1)),
    ("long argument here\n\n##vote alice", C("vote", 9)),
    ("whatever ##vote Big Bear", C("vote", 4)),
    ("!vote alice", C("vote", 9)),
    ("[b]vote: alice[/b]", C("vote", 9)),
    ("**vote alice**", C("vote", 9)),
    ("【投票】张三", C("vote", 1)),
    ("I think so. [vote]alice[/vote]", C("vote", 9)),
    ("[v]alice[/v]", C("vote", 9)),
    ("[unvote][/unvote]", C("unvote")),
    ("[uv][/uv]", C("unvote")),
    ("##unvote\n##vote alice", C("vote", 9)),
    ("##vote alice\n##unvote", C("unvote")),
    ("## Vote: no lynch", C("nolynch")),
    ("##vote NOLYNCH", C("nolynch")),
    ("##vote:\n\nalice", C("vote", 9)),
    ("同意，3号问题很大，投3号", C("vote", 3)),
    ("我投3号", C("vote", 3)),
    ("##vote 孙悟空", E("unknown_name", "vote", "孙悟空")),
    ("vote him", E("unknown_name", "vote", "him")),
    # unmarked: chat, no reply
    ("李四说他要投张三", E("no_command")),
    ("我不投张三", E("no_command")),
    ("今天我倾向投3号。", E("no_command")),
    ("If she votes me she looks super scummy", E("no_command")),
    ("everyone is trying to kill me", E("no_command")),
    ("Someone save me from this tunnel", E("no_command")),
    ("I'm keeping my vote on alice for now.", E("no_command")),
    ("Vote count please?", E("no_command")),
    ("Vote him also.", E("no_command")),
    ("UNVOTE RIGHT NOW YOU STUPID", E("no_command")),
    ("Vote alice with me Neo42. Quick!", E("no_command")),
    ("Vote me then.", E("no_command")),
    ("投了3号", E("no_command")),
    ("我验了3号", E("no_command")),
    ("3号可疑，3号带节奏", E("no_command")),
    ("我要验尚未发言的3号", E("no_command")),
]


@pytest.mark.parametrize(("text", "expected"), THREAD_CASES, ids=[c[0][:24] for c in THREAD_CASES])
def test_thread_posts(text, expected):
    assert parse(text, ROSTER, sender_seat=ME, channel="thread") == expected


def test_thread_verbs_and_marks_are_settings():
    # a game that takes only votes in the thread: "kill toad" is chat
    assert parse("kill alice", ROSTER, channel="thread", verbs={"vote"}) == E("no_command")
    assert parse("kill alice", ROSTER, channel="thread") == C("kill", 9)
    # a season that accepts only ## marks
    assert parse("vote alice", ROSTER, channel="thread", marks=("hash",)) == E("no_command")
    assert parse("##vote alice", ROSTER, channel="thread", marks=("hash",)) == C("vote", 9)
    assert parse("[vote]alice[/vote]", ROSTER, channel="thread", marks=("hash",)) == E("no_command")


TL = Roster.of(["27ninjabunnies", "Eden1892", "GlowingBear", "Half the Sky", "Holyflare", "IAmRobik",
                "justanothertownie", "liancourt", "Toadesstern", "TheWarWaffle", "KelsierSC", "Wile E. Coyote",
                "The Shining", "jarjarbinks", "coolTLname", "DarthPunk", "DrParnassus", "rsoultin"])
LOOSE = [
    ("lian", 8, "prefix"), ("toad", 9, "prefix"), ("Rso", 18, "prefix"), ("Eden", 2, "words"),
    ("Robik", 6, "words"), ("Wile", 12, "words"), ("Shining", 13, "words"), ("WarWaffle", 10, "words"),
    ("GB", 3, "initials"), ("HTS", 4, "initials"), ("HF", 5, "initials"), ("JJB", 14, "initials"),
    ("JAT", 7, "initials"), ("WW", 10, "initials"), ("KSC", 11, "initials"),
    ("Jar Jar Binks", 14, "spacing"), ("halfthesky", 4, "spacing"), ("TL Cool Name", 15, "spacing"),
    ("Trfel", None, None), ("Tfrel", None, None),
]


@pytest.mark.parametrize(("written", "seat", "how"), LOOSE)
def test_loose_names_are_read_and_reported(written, seat, how):
    result = parse(f"##vote {written}", TL, channel="thread")
    if seat is None:
        assert isinstance(result, ParseError)
        return
    assert result == C("vote", seat)
    assert result.readings[0].how == how and not result.readings[0].exact


def test_loose_names_never_guess_between_two():
    # DP: DarthPunk or DrParnassus
    assert parse("##vote DP", TL, channel="thread") == E("ambiguous_name", "vote", "DP", (16, 17))
    # a pronoun or chat word is never a prefix or initials
    assert isinstance(parse("##vote him", TL, channel="thread"), ParseError)


def test_every_verb_word_of_the_templates_parses():
    from forumbot.language.vocabulary import (
        ARITY,
        FREE,
        NONE,
        NUMBER,
        TARGETS,
        VERB_WORDS,
    )

    args = {TARGETS: " 张三", NUMBER: " 2", NONE: "", FREE: ""}
    for locale, words in VERB_WORDS.items():
        for verb, word in words.items():
            arity = ARITY[verb]
            text = word + args.get(arity, "")
            if verb == "penalty":
                text = word + " 张三 潜水"
            elif verb == "replace":
                text = word + " 张三 新号"
            elif verb == "extend":
                text = word + " 30分钟"
            result = parse(text, ROSTER, sender_seat=ME)
            assert isinstance(result, Command) and result.verb == verb, (locale, verb, text, result)
