"""Frames that make a command no order: the model of the clause around a command verb.

A verb with a readable argument is an order only when its clause means it. The clause decides, in this
order (the first that fits):

- ``negation``: 我不投张三, 不是投张三, 怎么可能投张三, don't kill Bob;
- ``statement``: the command is the subject or the object of another sentence: 投张三是不可能的,
  投张三的人是狼, 谁投张三谁是狼, vote Alice is impossible, whoever votes Alice is scum;
- ``mock``: 投张三（误）, 投张三，开玩笑的, vote Alice jk;
- ``compared``: the name a comparison sets aside: 投张三不如投李四, 与其投张三, rather than vote Alice;
- ``past``, ``reported``, ``suggestion`` (also the name a comparison prefers: 不如投李四, I'd rather vote
  Bob), ``question``, ``tentative`` (票口压在3号身上).

A contrast word (but, 但是, 不过…) starts the clause again: ``I was going to vote Alice but I'll vote Bob``
is a vote for Bob. :data:`NOT_MEANT` frames say the writer does *not* want the command: the judge never
offers it back ("did you mean …?"), it only quotes what it read.

A private message is business, read tolerantly; but ``我不投张三`` is not a vote for 张三, ``李四说他要投张三``
is 李四's plan, ``建议今天归票投3号`` a suggestion, ``我验了3号`` a claim about the past and ``投3号吗?`` a
question. The parser does not record such a command; it asks the player what they meant
(:class:`forumbot.language.types.ParseError` code "unclear"). The same frames around a marked command in
a thread post make it chat.

Every look here is bounded (a few dozen characters either side of the verb), so a frame costs
constant work per verb.
"""

from __future__ import annotations

import re

#: How far back (canonical characters) a frame word is looked for, within the clause.
LOOK_BACK = 48
#: How far after a command's argument a mock or comparison word is looked for (the rest of the sentence).
LOOK_AHEAD = 40

#: Frames in which the writer does not mean the command: the reply never suggests it.
NOT_MEANT = frozenset({"negation", "statement", "mock", "compared"})

# Negation directly before the verb, with only modal words between: 我不投, 别杀, 不要再投, 我不会投, 没投.
_NEG_CJK = re.compile(
    r"(?:(?:不|别|没|没有|勿|莫|甭|未|绝不|决不|才不|并不|并非)"
    r"(?:是|要|想|会|能|再|去|用|打算|准备|可以|应该|必|得|敢|愿意|肯|需要|必要|急着|着急)*"
    r"|怎么可能|怎么会|哪会|哪能|不可能|休想)\s*(?:我|会|要|去|再)*\s*$"
)
_NEG_LATIN = re.compile(
    r"(?<![a-z'])(?:don'?t|do not|doesn'?t|does not|didn'?t|did not|won'?t|will not|wouldn'?t|would not|"
    r"shouldn'?t|should not|can'?t|cannot|can not|couldn'?t|could not|mustn'?t|must not|never|not|no need to|"
    r"isn'?t|aren'?t|ain'?t|refuse to|stop)(?:\s+(?:to|be|really|ever|even|just|gonna|going to|want to|"
    r"wanna|plan to|intend to|need to|have to))*\s*$"
)
# The command inside a larger sentence, before the verb: 谁投…, 凡是投…, whoever votes…, anyone who votes….
_STATEMENT_BEFORE_CJK = re.compile(r"谁|凡是|任何人|哪个人|哪位")
_STATEMENT_BEFORE_LATIN = re.compile(
    r"(?<![a-z])(?:whoever|anyone who|anybody who|those who|people who|someone who|the one who|whomever)"
    r"\s*$"
)
# ... and right after its argument: 投张三是不可能的, 投张三的人, 投张三的话; vote Alice is impossible.
_STATEMENT_AFTER_CJK = re.compile(r"[ \t]*(?:是(?![吧吗嘛么])|就是|才是|的(?!话)|不可能|不行|没门|没用|要不得|可不行|太|会被|会让)")
# A condition after the argument: 投张三的话, 投3号，如果他不解释, vote Alice if she claims.
_IF_AFTER = re.compile(r"[ \t]*的话|[ \t,，]*(?:如果|要是|假如|万一|除非|(?<![a-z])(?:if|unless|only if)(?![a-z]))")
_STATEMENT_AFTER_LATIN = re.compile(
    r"[ \t]*(?:is|are|was|were|isn't|wasn't|would be|will be|won't be|would|will|seems|sounds|makes|means|"
    r"gets|'s)(?![a-z])"
)
# A mock or a slip, anywhere in the rest of the sentence: 投张三（误）, 投张三，开玩笑的, vote Alice jk.
# Not 手滑 / 口误 / "no kidding": after a command they excuse an earlier message (投李四，上一条手滑了).
_MOCK = re.compile(
    r"\(误\)|\(划掉\)|开玩笑|开个玩笑|玩笑话|说笑的|逗你|骗你的|假的啦"
    r"|(?<![a-z])(?:jk|j/k|just kidding|(?<!no )kidding|joking|/s)(?![a-z])"
)
# A comparison that sets the name before it aside: 投张三不如投李四, 投张三还不如投李四; vote Alice? rather than….
_COMPARED_AFTER = re.compile(r"[ \t,，]*(?:还不如|倒不如|不如|比不上|还不及|(?<![a-z])than(?![a-z]))")
_COMPARED_BEFORE = re.compile(r"与其|(?<![a-z])rather than\s*$|(?<![a-z])instead of\s*$")
# A contrast word: the clause starts again after it (I was going to vote Alice but I'll vote Bob).
_CONTRAST = re.compile(r"(?<![a-z])(?:but|however|though|instead)(?![a-z])|不过|但是|可是|然而|但")

# Set phrases holding a frame word that frame nothing: "with that said, vote X" is the writer's own vote.
_NEUTRAL = re.compile(
    r"(?<![a-z])(?:(?:with |all )?that (?:being )?said|having said that|that's said|needless to say)(?![a-z])"
    r"|所以说|话说|说真的|说实话|老实说|总的来说|话虽如此"
)

# Words that make the clause someone else's words, or a suggestion, a plan, a condition.
_REPORTED_CJK = re.compile(r"说|讲|表示|声称|称|告诉|让我|叫我|要我|他|她|它|他们|她们|别人|有人|人家|某人|你(?!好)")
_REPORTED_LATIN = re.compile(
    r"(?<![a-z])(?:says?|said|told|tells?|asks?|asked|wrote|writes|claims?|claimed|quoted?|he|she|they|"
    r"someone|somebody|everyone|everybody|people|nobody|anyone|his|her|their)(?![a-z'])"
)
_SUGGEST_CJK = re.compile(
    r"建议|倾向|应该|应当|可以|不如|要不|咱们|我们|大家|一起|归票|考虑|也许|或许|可能|打算|准备|估计|如果|要是|"
    r"假如|万一|除非|等|想不想|是否|是不是|看看要不要|或者|还是要|与其|接下来|随后|之后|以后|稍后|明天|明晚|下轮|下一轮|我会|我将|将会"
)
_SUGGEST_LATIN = re.compile(
    r"(?<![a-z])(?:let'?s|lets|should|shall|could|would(?! like)|might|may|maybe|perhaps|probably|suggest|propose|"
    r"consider|considering|gonna|going to|planning|plan to|prefer|leaning|lean|if|unless|when|whether|"
    r"until|we|us|our|clarify|explain|why|how|what|who|or|rather|i'd(?! like)|was going to|were going to|"
    r"wanted to|thought about|thinking about|thinking of)(?![a-z'])"
)
# Past tense: a time in the past before the verb, or an aspect mark right after it (验了, 投过, 守的是).
_PAST_BEFORE_CJK = re.compile(
    r"昨晚|昨天|昨夜|前晚|前天|首夜|首晚|第\s*[0-9一二三四五六七八九十百两]+\s*[夜晚天轮]|上轮|上一轮|上局|之前|"
    r"刚才|刚刚|已经|当时|那晚|那天|曾经|早就|早已"
)
_PAST_BEFORE_LATIN = re.compile(r"(?<![a-z])(?:last night|yesterday|already|earlier|previously|had|have)(?![a-z])")
_PAST_AFTER_CJK = re.compile(r"\s*(?:了|过|的是|的|出|到|完|中|好了)")
_QUESTION = re.compile(r"[^\n.。!！;；]{0,24}?(?:[?？]|[吗嘛么](?![a-z0-9\u4e00-\u9fff]))")


# After a thread command, words that make it an appeal to others (Vote Palmar with me Robik; vote for
# hts and i will tell you…; Vote me then.): a suggestion, not the poster's own order.
_OTHERS = re.compile(
    r"(?<![a-z'])(?:with me|with us|everyone|everybody|every1|guys|people|y'?all|you guys|and i|and we|"
    r"if you|so that|so we|then|too|also|instead|already|before|tomorrow|later)(?![a-z'])"
)


def appeal(rest: str) -> bool:
    """Whether ``rest`` (the rest of a thread line after a command, canonical text) makes the command an
    appeal to other players or a plan (``with me``, ``and i will``, ``then``, ``tomorrow``)."""
    return _OTHERS.search(rest[:80]) is not None


def _latin(word: str) -> bool:
    return bool(word) and word[0].isascii() and word[0].isalpha()


def before(prefix: str, keyword: str) -> str | None:
    """The frame that the words ``prefix`` (the clause before the verb ``keyword``, canonical text, at
    most LOOK_BACK characters) put around the verb: "negation", "reported", "suggestion", "past" or
    None."""
    tail = prefix[-LOOK_BACK:]
    if not tail.strip(" \t#/!@*[]()【】「」"):
        return None  # the verb opens its clause (the common case: a marked line)
    tail = _NEUTRAL.sub(" ", tail)
    contrasts = list(_CONTRAST.finditer(tail))
    if contrasts:
        tail = tail[contrasts[-1].end():]
    if _NEG_CJK.search(tail) or _NEG_LATIN.search(tail):
        return "negation"
    if _COMPARED_BEFORE.search(tail):
        return "compared"
    if _STATEMENT_BEFORE_CJK.search(tail) or _STATEMENT_BEFORE_LATIN.search(tail):
        return "statement"
    if _PAST_BEFORE_CJK.search(tail) or _PAST_BEFORE_LATIN.search(tail):
        return "past"
    if _REPORTED_CJK.search(tail) or _REPORTED_LATIN.search(tail):
        return "reported"
    if _SUGGEST_CJK.search(tail) or _SUGGEST_LATIN.search(tail):
        return "suggestion"
    return None


def after_target(s: str, end: int, keyword: str) -> str | None:
    """The frame the words after a command's argument (``s[end:]``, canonical text, the argument ending at
    ``end``) put on it: "statement" (投张三是不可能的, 投张三的人, vote Alice is impossible), "suggestion"
    (a condition: 投张三的话, 投3号，如果…, vote Alice if…), "compared" (投张三不如…, vote Alice than…), "mock" (（误）, 开玩笑的, jk,
    anywhere in the rest of the line, at most :data:`LOOK_AHEAD` characters), or None. Nothing here looks
    past the end of the line (``##vote X`` then a new paragraph ``If she flips town…`` is a vote)."""
    latin = _latin(keyword)
    if _IF_AFTER.match(s, end):
        return "suggestion"
    if (_STATEMENT_AFTER_LATIN if latin else _STATEMENT_AFTER_CJK).match(s, end):
        return "statement"
    if _COMPARED_AFTER.match(s, end):
        return "compared"
    nl = s.find("\n", end, end + LOOK_AHEAD)
    if _MOCK.search(s, end, end + LOOK_AHEAD if nl < 0 else nl):  # on the command's line
        return "mock"
    return None


def after(s: str, end: int, keyword: str) -> str | None:
    """The frame that the text right after the verb keyword (``s[end:]``) puts on it: "past" for an
    aspect mark (验了, 投过, 守的是) on a CJK verb, "question" when the clause ends in a question mark
    or 吗; else None."""
    if not _latin(keyword) and _PAST_AFTER_CJK.match(s, end):
        return "past"
    m = _QUESTION.match(s, end)
    if m and "\n" not in m.group():
        return "question"
    return None
