"""Frames that make a command no order: negation, reported speech, suggestion, past tense, question.

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

# Negation directly before the verb, with only modal words between: 我不投, 别杀, 不要再投, 我不会投, 没投.
_NEG_CJK = re.compile(
    r"(?:不|别|没|没有|勿|莫|甭|未)(?:要|想|会|能|再|去|用|打算|准备|可以|应该|必|得|敢|愿意|肯|需要|必要|急着|着急)*\s*$"
)
_NEG_LATIN = re.compile(
    r"(?<![a-z'])(?:don'?t|do not|doesn'?t|does not|didn'?t|did not|won'?t|will not|wouldn'?t|would not|"
    r"shouldn'?t|should not|can'?t|cannot|can not|couldn'?t|could not|mustn'?t|must not|never|not|no need to|"
    r"isn'?t|aren'?t|ain'?t|refuse to|stop)(?:\s+(?:to|be|really|ever|even|just|gonna|going to|want to|"
    r"wanna|plan to|intend to|need to|have to))*\s*$"
)
# Words that make the clause someone else's words, or a suggestion, a plan, a condition.
_REPORTED_CJK = re.compile(r"说|讲|表示|声称|称|告诉|让我|叫我|要我|他|她|它|他们|她们|别人|有人|人家|某人")
_REPORTED_LATIN = re.compile(
    r"(?<![a-z])(?:says?|said|told|tells?|asks?|asked|wrote|writes|claims?|claimed|quoted?|he|she|they|"
    r"someone|somebody|everyone|everybody|people|nobody|anyone|his|her|their)(?![a-z'])"
)
_SUGGEST_CJK = re.compile(
    r"建议|倾向|应该|应当|可以|不如|要不|咱们|我们|大家|一起|归票|考虑|也许|或许|可能|打算|准备|估计|如果|要是|"
    r"假如|万一|除非|等|想不想|是否|是不是|看看要不要|或者|还是要"
)
_SUGGEST_LATIN = re.compile(
    r"(?<![a-z])(?:let'?s|lets|should|shall|could|would|might|may|maybe|perhaps|probably|suggest|propose|"
    r"consider|considering|gonna|going to|planning|plan to|prefer|leaning|lean|if|unless|when|whether|"
    r"until|we|us|our|clarify|explain|why|how|what|who|or)(?![a-z'])"
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
    if _NEG_CJK.search(tail) or _NEG_LATIN.search(tail):
        return "negation"
    if _PAST_BEFORE_CJK.search(tail) or _PAST_BEFORE_LATIN.search(tail):
        return "past"
    if _REPORTED_CJK.search(tail) or _REPORTED_LATIN.search(tail):
        return "reported"
    if _SUGGEST_CJK.search(tail) or _SUGGEST_LATIN.search(tail):
        return "suggestion"
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
