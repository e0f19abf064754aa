"""The words of the command language, all in canonical (simplified, lower-case) form.

Traditional spellings need no entries: messages are converted to simplified before matching
(殺 -> 杀, 驗 -> 验, 線索 -> 线索, 結束遊戲 -> 结束游戏).
"""

from __future__ import annotations

import re

# Argument shapes a verb takes.
TARGETS = "targets"     # one or more names/seats
NUMBER = "number"       # clue number
DURATION = "duration"   # extend: seconds
PENALTY = "penalty"     # one name + reason
REPLACE = "replace"     # one name + new account name
NONE = "none"           # no argument
FREE = "free"           # no argument, and whatever follows on the line is ignored (##unvote Palmar, for now)

ARITY = {
    "vote": TARGETS, "unvote": FREE, "nolynch": NONE, "kill": TARGETS, "check": TARGETS, "ask": TARGETS, "save": TARGETS,
    "successor": TARGETS, "clue": NUMBER, "status": NONE, "help": NONE,
    "penalty": PENALTY, "replace": REPLACE, "extend": DURATION,
    "pause": NONE, "resume": NONE, "end": NONE,
    # human_kill
    "exorcise": TARGETS, "abstain": NONE, "withdraw": NONE, "disguise": TARGETS, "dream": TARGETS,
    "take": TARGETS, "clockwise": TARGETS, "anticlockwise": TARGETS, "stand_in": TARGETS,
    "cancel_weather": NONE, "foresee": NONE,
    # interview_vampire
    "suck": TARGETS, "convert": TARGETS,
    # vampire_village
    "link": TARGETS, "guard": TARGETS, "poison": TARGETS, "charm": TARGETS, "shoot": TARGETS, "selfkill": NONE,
}

#: keyword -> (verb, fixed number or None). CJK keywords may be glued to surrounding text; Latin
#: keywords must stand as words. Longer keywords win at the same position (投票 before 投).
KEYWORDS: dict[str, tuple[str, int | None]] = {
    "投票": ("vote", None), "投": ("vote", None), "票投": ("vote", None), "vote": ("vote", None),
    # vote idioms: 我的票挂3号, 票挂在6号, my vote is on X; 票口压在3号身上 is tentative (TENTATIVE)
    "票挂": ("vote", None), "票挂给": ("vote", None), "my vote is on": ("vote", None), "my vote's on": ("vote", None),
    "my vote goes to": ("vote", None), "my vote is for": ("vote", None),
    "票口压": ("vote", None), "票压": ("vote", None),
    "votes": ("vote", None), "出": ("vote", None),
    "unvote": ("unvote", None), "un-vote": ("unvote", None), "取消投票": ("unvote", None),
    "撤票": ("unvote", None), "撤回投票": ("unvote", None), "收回投票": ("unvote", None),
    "撤销投票": ("unvote", None), "撤回我的投票": ("unvote", None), "取消我的投票": ("unvote", None),
    "nolynch": ("nolynch", None), "no lynch": ("nolynch", None), "no-lynch": ("nolynch", None),
    "no elimination": ("nolynch", None), "no execution": ("nolynch", None), "不放逐": ("nolynch", None),
    "杀人": ("kill", None), "验人": ("check", None), "查人": ("check", None), "救人": ("save", None),
    "询问": ("ask", None), "猎杀": ("shoot", None),
    "谁未投票": ("status", None), "谁没投票": ("status", None), "谁还没投票": ("status", None),
    "谁没有投票": ("status", None),
    "杀": ("kill", None), "刀": ("kill", None), "kill": ("kill", None),
    "验": ("check", None), "查验": ("check", None), "查": ("check", None), "check": ("check", None),
    "问": ("ask", None), "ask": ("ask", None),
    "救": ("save", None), "save": ("save", None), "自救": ("save", None),
    "接任": ("successor", None), "successor": ("successor", None),
    "线索": ("clue", None), "clue": ("clue", None),
    "不要线索": ("clue", 0), "不用线索": ("clue", 0), "放弃线索": ("clue", 0),
    "no clue": ("clue", 0), "no clues": ("clue", 0),
    "状态": ("status", None), "status": ("status", None),
    "帮助": ("help", None), "help": ("help", None),
    "罚分": ("penalty", None), "扣分": ("penalty", None), "penalty": ("penalty", None),
    "penalise": ("penalty", None), "penalize": ("penalty", None),
    "替换": ("replace", None), "replace": ("replace", None),
    "延长": ("extend", None), "延时": ("extend", None), "extend": ("extend", None),
    "暂停": ("pause", None), "pause": ("pause", None),
    "继续": ("resume", None), "恢复": ("resume", None), "resume": ("resume", None),
    "结束游戏": ("end", None), "结束": ("end", None), "end": ("end", None), "end game": ("end", None),
    # human_kill
    "退治": ("exorcise", None), "驱魔": ("exorcise", None), "exorcise": ("exorcise", None),
    "放逐": ("vote", None), "banish": ("vote", None),
    "弃权": ("abstain", None), "弃票": ("abstain", None), "abstain": ("abstain", None),
    "退选": ("withdraw", None), "withdraw": ("withdraw", None),
    "伪装": ("disguise", None), "disguise": ("disguise", None),
    "梦": ("dream", None), "入梦": ("dream", None), "dream": ("dream", None),
    "带走": ("take", None), "take": ("take", None),
    "顺时针": ("clockwise", None), "clockwise": ("clockwise", None),
    "逆时针": ("anticlockwise", None), "anticlockwise": ("anticlockwise", None),
    "counterclockwise": ("anticlockwise", None), "counter-clockwise": ("anticlockwise", None),
    "替": ("stand_in", None), "替死": ("stand_in", None), "代替": ("stand_in", None), "顶替": ("stand_in", None),
    "stand in": ("stand_in", None), "stand-in": ("stand_in", None), "die for": ("stand_in", None),
    "取消天气": ("cancel_weather", None), "取消今天的天气": ("cancel_weather", None), "取消今日天气": ("cancel_weather", None),
    "cancel weather": ("cancel_weather", None), "cancel the weather": ("cancel_weather", None),
    "预知天气": ("foresee", None), "预知": ("foresee", None), "预报天气": ("foresee", None),
    "foresee": ("foresee", None), "foresee weather": ("foresee", None), "forecast": ("foresee", None),
    # interview_vampire
    "吸": ("suck", None), "吸血": ("suck", None), "suck": ("suck", None),
    "转化": ("convert", None), "初拥": ("convert", None), "convert": ("convert", None),
    # number 0: withdraw the standing conversion (as 不要线索 is clue 0)
    "取消转化": ("convert", 0), "不转化": ("convert", 0), "不转化了": ("convert", 0), "撤回转化": ("convert", 0),
    "取消初拥": ("convert", 0), "cancel convert": ("convert", 0), "no convert": ("convert", 0),
    "don't convert": ("convert", 0), "do not convert": ("convert", 0),
    # vampire_village
    "连": ("link", None), "连情侣": ("link", None), "link": ("link", None),
    "守": ("guard", None), "守护": ("guard", None), "guard": ("guard", None), "protect": ("guard", None),
    "毒": ("poison", None), "毒杀": ("poison", None), "poison": ("poison", None),
    "吹": ("charm", None), "魅惑": ("charm", None), "charm": ("charm", None),
    "开枪": ("shoot", None), "开枪带走": ("shoot", None), "枪杀": ("shoot", None), "shoot": ("shoot", None),
    "传警徽": ("successor", None), "移交警徽": ("successor", None),
    "自杀": ("selfkill", None), "自爆": ("selfkill", None), "selfkill": ("selfkill", None),
    "self-kill": ("selfkill", None),
}

#: Keywords that put a vote down for the time being (票口压在3号身上): never recorded, the judge asks.
TENTATIVE = frozenset({"票口压", "票压"})

#: Fillers a direct-only keyword may take before its name (出掉5号 = 出5号).
DIRECT_FILLERS = ("掉",)

#: Werewolf jargon holding a verb character that is never a command, even with a name after it
#: (查杀5号: "my check found 5 a wolf", not a kill).
JARGON = ("查杀", "发查杀", "被查杀", "验杀")

#: Keywords that act on the sender without a name (自救 = 救自己).
SELF_KEYWORDS = frozenset({"自救"})

#: Keywords that count only when a player's name or seat follows them directly (出3号 = vote 3, but
#: 出局, 出去, 出来 are no command).
DIRECT_ONLY = frozenset({"出"})

#: A vote for nobody (##vote no lynch, 投 不放逐): the argument of a vote that makes it a no-lynch vote.
NO_LYNCH_TARGETS = ("no lynch", "nolynch", "no-lynch", "no_lynch", "no elimination", "no execution",
                    "nobody", "no one", "不放逐", "平安日", "空票")

#: Verbs that change one's day vote: when several are written in one post, the last one stands
#: (##unvote then ##vote X is a vote for X).
VOTE_FAMILY = frozenset({"vote", "unvote", "nolynch"})

#: The word each locale's templates show for a verb (the ``m.verb`` macro): one vocabulary for the
#: parser and the bot's own texts. Every word here parses as its verb (tests/language checks it).
VERB_WORDS: dict[str, dict[str, str]] = {
    "zh-Hans": {
        "vote": "投票", "unvote": "取消投票", "nolynch": "不放逐", "kill": "杀人", "check": "验人",
        "ask": "询问", "save": "救人", "successor": "接任", "clue": "线索", "status": "状态", "help": "帮助",
        "exorcise": "退治", "abstain": "弃权", "withdraw": "退选", "disguise": "伪装", "dream": "入梦",
        "take": "带走", "clockwise": "顺时针", "anticlockwise": "逆时针", "stand_in": "替死", "suck": "吸血", "convert": "转化",
        "cancel_weather": "取消天气", "foresee": "预知天气",
        "link": "连情侣", "guard": "守护", "poison": "毒", "charm": "魅惑", "shoot": "开枪", "selfkill": "自杀",
        "penalty": "罚分", "replace": "替换", "extend": "延长", "pause": "暂停", "resume": "继续",
        "end": "结束游戏",
    },
    "zh-Hant": {
        "vote": "投票", "unvote": "取消投票", "nolynch": "不放逐", "kill": "殺人", "check": "驗人",
        "ask": "詢問", "save": "救人", "successor": "接任", "clue": "線索", "status": "狀態", "help": "幫助",
        "exorcise": "退治", "abstain": "棄權", "withdraw": "退選", "disguise": "偽裝", "dream": "入夢",
        "take": "帶走", "clockwise": "順時針", "anticlockwise": "逆時針", "stand_in": "替死", "suck": "吸血", "convert": "轉化",
        "cancel_weather": "取消天氣", "foresee": "預知天氣",
        "link": "連情侶", "guard": "守護", "poison": "毒", "charm": "魅惑", "shoot": "開槍", "selfkill": "自殺",
        "penalty": "罰分", "replace": "替換", "extend": "延長", "pause": "暫停", "resume": "繼續",
        "end": "結束遊戲",
    },
    "en": {
        "vote": "vote", "unvote": "unvote", "nolynch": "no lynch", "kill": "kill", "check": "check",
        "ask": "ask", "save": "save", "successor": "successor", "clue": "clue", "status": "status",
        "help": "help", "exorcise": "exorcise", "abstain": "abstain", "withdraw": "withdraw",
        "disguise": "disguise", "dream": "dream", "take": "take", "clockwise": "clockwise",
        "anticlockwise": "anticlockwise", "stand_in": "stand in",
        "cancel_weather": "cancel weather", "foresee": "foresee weather", "suck": "suck", "convert": "convert", "link": "link",
        "guard": "guard", "poison": "poison", "charm": "charm", "shoot": "shoot", "selfkill": "self-kill",
        "penalty": "penalty", "replace": "replace", "extend": "extend", "pause": "pause", "resume": "resume",
        "end": "end game",
    },
}

#: Ordinary words that contain a verb character but are not commands. A verb inside one of
#: these is skipped unless a player's name follows the verb directly (a player called 降龙 can
#: still be voted with 投降龙).
NOT_COMMANDS = (
    "投降", "投入", "投诉", "投资", "投机", "投稿", "投篮", "投放", "投影", "投标", "投胎", "投缘",
    "投射", "投掷", "投靠", "投奔", "投身", "投递", "投向", "投票权", "投票数", "投票结果",
    "杀手", "自杀的", "自杀式", "杀人游戏", "杀人犯", "杀人凶手", "版杀", "被杀", "暗杀", "杀气", "抹杀", "秒杀", "杀死了",
    "刀子", "刀法", "菜刀", "一刀",
    "经验", "体验", "考验", "检验", "实验", "验证", "验收", "应验", "测验", "灵验", "验出",
    "检查", "调查", "查看", "查询", "审查", "排查", "查到", "查出", "查杀",
    "问题", "请问", "疑问", "问好", "问候", "提问", "学问", "顾问", "反问", "不问", "问下大家",
    "救命", "急救", "救援", "拯救", "得救", "救不了", "救人要紧",
    "线索呢", "有线索", "没线索", "没有线索",
    "继续观察", "继续发言", "继续说",
    "状态不好", "状态很好",
    "结束了", "结束后", "结束前", "结束时", "结束之",
    "被退治", "退治专家", "被驱魔", "被放逐", "放逐了", "弃权票", "退选了",
    "伪装成", "做梦", "梦见", "梦想", "梦到", "梦里", "梦游", "白日梦", "美梦", "噩梦", "梦境", "梦幻",
    "带走了", "被带走",
    "替代", "替身", "接替", "替补", "代替品", "替换了", "替我", "替你", "替他", "替她",
    "吸血鬼", "吸引", "呼吸", "吸收", "吸烟", "吸毒", "吸取", "吸气", "吸管", "吸尘", "吸饱", "吸满",
    "吸够", "吸到", "吸不到", "吸过", "吸食", "被吸", "吸了", "转化为", "转化成", "被转化", "转化了",
    "连续", "连接", "连着", "连忙", "一连", "接连", "连带", "连胜", "连任",
    "守护者", "遵守", "保守", "防守", "守住", "守规矩", "守门", "守夜人",
    "毒药", "中毒", "病毒", "有毒", "毒舌", "狠毒", "恶毒", "解毒", "毒死了", "被毒",
    "吹笛者", "吹笛人", "吹笛", "吹牛", "吹水", "吹风", "吹嘘", "吹捧", "被吹",
    "开枪了", "被枪杀",
)

#: Words that make a Latin verb a noun (a vote on me, my vote, the kill): prose, never a command.
DETERMINERS = ("a", "an", "the", "my", "your", "his", "her", "their", "our", "its", "this", "that", "no",
               "any", "every", "each", "one", "first", "last", "next", "another", "of", "whose", "which")

#: Words skipped between a verb and its argument (投给张三, 杀掉李四, 查一下3号, vote for X).
FILLERS = ("票给", "给", "掉", "死", "了", "一下", "下", "一个", "在", "for", "on", "to")

#: Self references: they name the sender (``sender_seat``). 我 alone only for save (救我).
SELF_WORDS = ("我自己", "自己", "本人", "myself", "me", "self")
SELF_WORDS_SAVE = ("我",)

#: Words that may stand between the start of a clause and a verb without making the verb part of
#: running prose: 我投…, 今晚杀…, 请帮助, 查看状态, I vote…, please help.
LEAD_INS_CJK = (
    "我们", "我", "要", "想", "请", "麻烦", "法官", "今晚", "今天", "今夜", "这轮", "本轮", "这局",
    "改", "就", "那就", "那", "还是", "决定", "选择", "最后", "游戏", "查看", "看看", "显示", "先",
    "再", "现在", "立即", "马上", "直接", "的", "好",
)
LEAD_INS_LATIN = (
    "i", "i'll", "i will", "i'd like to", "i want to", "we", "please", "pls", "judge", "tonight",
    "now", "my", "show", "game", "let's", "ok",
)

#: Words that may follow a verb without an argument and still leave it a command (暂停一下, help please).
SUFFIXES = ("一下", "吧", "啊", "呀", "吗", "呢", "谢谢", "游戏", "please", "pls", "plz", "thanks", "me")

#: Trailing words and particles: they end a name list without being an unknown name.
TRAILING = ("谢谢", "谢了", "多谢", "感谢", "thanks", "thank you", "thx", "please", "pls", "吧", "了",
            "啊", "呀", "哦", "吗", "嘛", "呢", "哈", "好了", "就好", "ok", "一票", "1票", "身上")
#: Words that end a name list without being read (a comparison: 投张三不如…, vote Bob than Alice).
LIST_STOPS = ("还不如", "倒不如", "不如", "而不是", "than", "rather than", "instead of", "over")
PARTICLES = "吧了啊呀哦吗嘛呢哈!?~"

#: Penalty reasons -> the text the engine expects.
PENALTY_REASONS = {
    "潜水": "lurking", "不发言": "lurking", "lurking": "lurking", "lurk": "lurking",
    "灌水": "flooding", "恶意灌水": "flooding", "刷屏": "flooding", "flooding": "flooding", "flood": "flooding",
    "spam": "flooding", "spamming": "flooding",
}

#: Words between the replaced player and the new account name (替换 张三 为 新号, replace X with Y).
REPLACE_FILLERS = ("换成", "换为", "为", "成", "with", "by", "->", "=>", "→", "to")

#: Separators between items and around arguments (after NFKC: full-width forms are half-width).
SEPARATORS = " \t\n,、/;:|"
#: Characters that end a clause (a verb after one of these starts a new clause).
CLAUSE_BREAKS = "\n,、;:.。!?…~"


def _alternation(words) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


def is_latin(word: str) -> bool:
    """True when ``word`` starts with an ASCII letter/digit (it must then stand as a word)."""
    return bool(word) and word[0].isascii() and word[0].isalnum()


#: Every keyword; Latin ones bounded as words.
KEYWORD_RE = re.compile(
    "|".join(
        (rf"(?<![a-z0-9]){re.escape(k)}(?![a-z0-9])" if is_latin(k) else re.escape(k))
        for k in sorted(KEYWORDS, key=len, reverse=True)
    )
)
NOT_COMMANDS_RE = re.compile(_alternation(NOT_COMMANDS))
JARGON_RE = re.compile(_alternation(JARGON))

# The same keywords as two patterns, for scanning: one alternation of Latin words behind a single word
# boundary, one of CJK words (an alternation that starts with plain characters is scanned fast; one
# lookbehind per Latin branch made the joint pattern ten times slower).
_LATIN_KEYWORD_RE = re.compile(
    r"(?<![a-z0-9])(?:" + _alternation(k for k in KEYWORDS if is_latin(k)) + r")(?![a-z0-9])"
)
_CJK_KEYWORD_RE = re.compile(_alternation(k for k in KEYWORDS if not is_latin(k)))


class KeywordScanner:
    """The keywords of one text in order: :meth:`next` gives the first keyword starting at or after
    ``pos`` (the longest one at a position), like ``KEYWORD_RE.search(s, pos)`` but faster."""

    def __init__(self, s: str) -> None:
        self.s = s
        self._next: list[re.Match[str] | None] = [None, None]
        self._from = [-1, -1]

    def next(self, pos: int) -> re.Match[str] | None:
        found = []
        for i, pattern in enumerate((_LATIN_KEYWORD_RE, _CJK_KEYWORD_RE)):
            m = self._next[i]
            if self._from[i] < 0 or (m is not None and m.start() < pos) or (m is None and self._from[i] > pos):
                m = pattern.search(self.s, pos)
                self._next[i], self._from[i] = m, pos
            if m is not None:
                found.append(m)
        if not found:
            return None
        return min(found, key=lambda m: (m.start(), -len(m.group())))
