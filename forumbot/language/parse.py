"""The command parser: one message in, one :class:`Command` or :class:`ParseError` out.

How a verb is chosen (one command per message):

1. The message is normalised (see :mod:`normalize`): quotes and signatures dropped, full-width
   folded, traditional converted to simplified, case folded.
2. Every verb keyword is a candidate, in text order, except: a keyword inside a roster name
   (a player called 查理 is not a check); a keyword inside an ordinary word such as 投降, 检查,
   问题, 救命, 杀手 (see ``vocabulary.NOT_COMMANDS``) unless a player's name follows it directly.
3. A candidate whose arguments read completely (投3号, 线索 2, 延长 30分钟) is a *complete* command;
   the first complete command in the message wins. So ``我今天状态不好，投3号`` is a vote, and in
   ``投3号，杀5号`` the vote wins because it comes first.
4. A verb that takes no argument (状态, help, 暂停, end…) counts only standing as its own clause
   (``状态``, ``法官，状态？``, ``help please``), never inside running prose (``in the end``,
   ``继续观察``). It wins over errors but loses to a complete command anywhere in the message.
5. A verb whose argument does not read (投 王八, 线索 abc, 投 alone) gives its error only when it is
   written as a command: at the start of a clause, after lead-in words like 我/今晚/请/I/please, or
   followed by a colon. Otherwise it is prose (``他们会杀王八``) and ignored. The first such error
   is returned when no command is complete.
6. Nothing found: ``ParseError("no_command")``.
"""

from __future__ import annotations

import re

from forumbot.language import names, targets as T, vocabulary as V
from forumbot.language.names import Found
from forumbot.language.normalize import Text, normalize_message
from forumbot.language.numbers import clue_at, duration_at
from forumbot.language.types import Command, NameReading, ParseError, Roster

_COMPLETE, _BARE, _ERROR = 3, 2, 1

_LEAD_INS = re.compile(
    r"(?:\s*(?:"
    + "|".join(re.escape(w) for w in sorted(V.LEAD_INS_CJK, key=len, reverse=True))
    + "|"
    + "|".join(rf"{re.escape(w)}(?![a-z])" for w in sorted(V.LEAD_INS_LATIN, key=len, reverse=True))
    + r"))*\s*"
)
_DECOR = "#/!@*[]()【】「」 \t"
_SUFFIX = re.compile(
    "|".join(rf"{re.escape(w)}(?![a-z])" if V.is_latin(w) else re.escape(w)
             for w in sorted(V.SUFFIXES, key=len, reverse=True))
)
_PENALTY = re.compile("|".join(re.escape(w) for w in sorted(V.PENALTY_REASONS, key=len, reverse=True)))
_REPLACE_FILLER = re.compile(
    "|".join(rf"{re.escape(w)}(?![a-z])" if V.is_latin(w) else re.escape(w)
             for w in sorted(V.REPLACE_FILLERS, key=len, reverse=True))
)
_NEW_NAME_END = re.compile(r"[\n,;。!?]")


def _clause_start(s: str, a: int, latin: bool) -> bool:
    """Whether the keyword at ``a`` opens a clause, allowing lead-in words before it. For CJK
    keywords a space also separates clauses; for Latin ones it does not (``in the end``)."""
    k = a
    while k > 0 and s[k - 1] not in V.CLAUSE_BREAKS and (latin or not s[k - 1].isspace()):
        k -= 1
    prefix = s[k:a].strip(_DECOR)
    return _LEAD_INS.fullmatch(prefix) is not None


def _clause_end(s: str, b: int) -> bool:
    """Whether nothing but polite suffixes (一下, 吧, please…) follows ``b`` in its clause."""
    p = b
    for _ in range(4):
        p = len(s) - len(s[p:].lstrip(" \t")) if p < len(s) else p
        m = _SUFFIX.match(s, p)
        if not m:
            break
        p = m.end()
    return p >= len(s) or s[p] in V.CLAUSE_BREAKS


def _inside(spans: list[tuple[int, int]], a: int, b: int) -> bool:
    return any(x <= a and b <= y for x, y in spans)


def _error(t: Text, code: str, verb: str, r) -> ParseError:
    """A ParseError for a target problem ``r`` (None, Unknown, PostNumber, or an ambiguous Found).
    A post number (``3楼``) is a bad_argument: it names a post, not a player."""
    if r is None:
        return ParseError("missing_target", verb)
    written = t.written(r.start, r.end)
    if isinstance(r, T.PostNumber):
        return ParseError("bad_argument", verb, written)
    if isinstance(r, Found):
        return ParseError("ambiguous_name", verb, written, r.seats)
    return ParseError(code, verb, written)


def _readings(t: Text, found: list[Found]) -> tuple[NameReading, ...]:
    return tuple(NameReading(t.written(f.start, f.end), f.seats[0], f.exact) for f in found)


def _word(t: Text, p: int) -> str | None:
    end = T.word_end(t.s, p)
    return t.written(p, end) or None


def _read(t: Text, ix, verb: str, fixed: int | None, kw: str, a: int, b: int,
          sender_seat: int | None):
    """Read the arguments of the keyword ``kw`` at ``a:b``: (Command or ParseError, directly
    followed by an exact name)."""
    s = t.s
    arity = V.ARITY[verb]
    if fixed is not None:
        return Command(verb, number=fixed), False
    if kw in V.SELF_KEYWORDS:
        if sender_seat is None or sender_seat not in ix.seats:
            return ParseError("unknown_name", verb, t.written(a, b)), False
        return Command(verb, (sender_seat,), readings=(NameReading(t.written(a, b), sender_seat),)), False
    if arity == V.NONE:
        return Command(verb), False
    p = T.skip_lead(s, b, ix)
    if arity == V.NUMBER:
        n, end = clue_at(s, p)
        return (Command(verb, number=n), False) if n is not None else (
            ParseError("bad_number", verb, _word(t, p)), False)
    if arity == V.DURATION:
        n, end = duration_at(s, p)
        return (Command(verb, number=n), False) if n is not None else (
            ParseError("bad_number", verb, _word(t, p)), False)
    self_words = V.SELF_WORDS + (V.SELF_WORDS_SAVE if verb == "save" else ())
    r = T.read_list(ix, s, p, self_words, sender_seat, many=arity == V.TARGETS)
    direct = isinstance(r, list) and r[0].start == b and r[0].exact
    if not isinstance(r, list):
        return _error(t, "unknown_name", verb, r), False
    if arity == V.TARGETS:
        return Command(verb, tuple(f.seats[0] for f in r), readings=_readings(t, r)), direct
    q = T.skip_separators(s, r[0].end)
    if arity == V.PENALTY:
        m = _PENALTY.match(s, q)
        if not m:
            return ParseError("bad_argument", verb, _word(t, q)), direct
        return Command(verb, (r[0].seats[0],), text=V.PENALTY_REASONS[m.group()],
                       readings=_readings(t, r[:1])), direct
    # replace: the new account name, exactly as typed, to the end of the clause
    m = _REPLACE_FILLER.match(s, q)
    if m:
        q = T.skip_separators(s, m.end())
    end = _NEW_NAME_END.search(s, q)
    new = t.written(q, end.start() if end else len(s))
    if not new:
        return ParseError("bad_argument", verb, None), direct
    return Command(verb, (r[0].seats[0],), text=new, readings=_readings(t, r[:1])), direct


def parse(text: str, roster: Roster, *, sender_seat: int | None = None) -> Command | ParseError:
    """Read one command from a forum message.

    ``text``: the message as posted (any string; quotes, signatures, full-width forms, traditional
    characters and pinyin marks are handled). ``roster``: the players names are read against.
    ``sender_seat``: the sender's seat, for 自己 / me / myself (None: such words are unknown names).

    Returns a :class:`Command` (targets are roster seats, in written order, repeats kept;
    ``readings`` say how each was read) or a :class:`ParseError` with code no_command,
    unknown_name, ambiguous_name (``candidates``: roster seats), missing_target, bad_number or
    bad_argument. Never raises. The module docstring says which verb wins in a mixed message.
    """
    t = normalize_message(text)
    s = t.s
    ix = names.index(roster)
    name_spans = names.occurrences(ix, s)
    prose_spans = [m.span() for m in V.NOT_COMMANDS_RE.finditer(s)]
    best: tuple[int, Command | ParseError] | None = None
    pos = 0
    while (m := V.KEYWORD_RE.search(s, pos)) is not None:
        a, b = m.span()
        pos = a + 1
        if _inside(name_spans, a, b):
            continue
        kw = m.group()
        verb, fixed = V.KEYWORDS[kw]
        latin = V.is_latin(kw)
        in_prose = _inside(prose_spans, a, b)
        if V.ARITY[verb] == V.NONE or (fixed is not None and latin):
            if in_prose or not _clause_start(s, a, latin) or (fixed is None and not _clause_end(s, b)):
                continue
        result, direct = _read(t, ix, verb, fixed, kw, a, b, sender_seat)
        if in_prose and not direct:
            continue
        if isinstance(result, Command):
            score = _BARE if V.ARITY[verb] == V.NONE else _COMPLETE
        else:
            explicit = _clause_start(s, a, latin) or s[b:].lstrip(" \t").startswith(":")
            if not explicit:
                continue
            score = _ERROR
        if best is None or score > best[0]:
            best = (score, result)
        if score == _COMPLETE:
            break
    return best[1] if best else ParseError("no_command")
