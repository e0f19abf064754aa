"""Reading the name arguments of a verb: one name, or a list of names (ranked votes).

Works on canonical text. A name is an exact roster name or alias (longest first), a seat number,
a self reference, or a one-typo correction of a whole word. A list goes on while names follow
(with or without separators); it ends at the first word that is not a name, so polite words
after a vote (``投3号，谢谢``) are not read as names. An unreadable word *between* two names, or
after a strong list mark (``、`` ``/`` ``和`` ``and``), is reported as an unknown name instead of
being skipped, because the player plainly meant it as a name.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from forumbot.language import names
from forumbot.language import vocabulary as V
from forumbot.language.names import Found, RosterIndex

#: Brackets players put around a name (投【李四】, vote [Alice], 投「李四」, 投 (李四)): skipped, never read
#: as part of the name (a roster name written with brackets is still read exactly).
OPEN_BRACKETS = "【[「(『《〔"
CLOSE_BRACKETS = "】]」)』》〕"
# "[" ends a word too: the closing tag of [vote]Fitz[/vote] is no part of the name.
_WORD_END = set(V.SEPARATORS) | set(V.CLAUSE_BREAKS) | set(CLOSE_BRACKETS) | {"["}
# Separators inside a list. The strong ones make an unknown word after them an error.
_LIST_SEP = re.compile(r"(?:[ \t,、/;|&+>" + re.escape(OPEN_BRACKETS + CLOSE_BRACKETS)
                       + r"]|和|跟|(?<![a-z])and(?![a-z]))+")
_STRONG_SEP = re.compile(r"[、/|&+>]|和|跟|and")
_FILLER = re.compile(
    "|".join(rf"{re.escape(f)}(?![a-z0-9])" if V.is_latin(f) else re.escape(f) for f in V.FILLERS)
)
_TRAILING = re.compile(
    "|".join(rf"{re.escape(w)}(?![a-z0-9])" if V.is_latin(w) else re.escape(w)
             for w in sorted(V.TRAILING, key=len, reverse=True))
)
_LIST_STOP = re.compile(
    "|".join(rf"{re.escape(w)}(?![a-z0-9])" if V.is_latin(w) else re.escape(w)
             for w in sorted(V.LIST_STOPS, key=len, reverse=True))
)
_SEPS = re.compile(r"[ \t,、/;|:@" + re.escape(CLOSE_BRACKETS) + "]*")
#: A word longer than this is no name (it bounds the work of reading one word).
WORD_CAP = 64
#: A list longer than this is no ballot (it bounds the work of reading one list).
LIST_CAP = 32
_WORD = re.compile("[^" + re.escape("".join(sorted(_WORD_END))) + "]{0," + str(WORD_CAP) + "}")


#: ``caps(start, end)``: whether the player wrote the canonical ``s[start:end]`` in capitals.
Caps = Callable[[int, int], bool] | None


@dataclass(frozen=True)
class Unknown:
    """An unreadable word at ``start:end`` (canonical positions)."""

    start: int
    end: int


@dataclass(frozen=True)
class PostNumber:
    """A post number (``3楼``) at ``start:end`` where a name was expected: never read as a seat."""

    start: int
    end: int


def skip_separators(s: str, pos: int) -> int:
    """Position after any separators (spaces, colons, commas…) at ``pos``."""
    m = _SEPS.match(s, pos)  # matches the empty string at worst
    return m.end() if m else pos


def skip_lead(s: str, pos: int, ix: RosterIndex) -> int:
    """Position after separators and filler words (给, 掉, 一下, for…) between a verb and its
    argument. A filler that begins a roster name is not skipped (a player may be called 下弦月)."""
    pos = skip_separators(s, pos)
    if pos < len(s) and s[pos] in OPEN_BRACKETS and names.exact_at(ix, s, pos)[0] is None:
        pos = skip_separators(s, pos + 1)
    for _ in range(3):
        m = _FILLER.match(s, pos)
        if not m or names.exact_at(ix, s, pos)[0] is not None:
            break
        pos = skip_separators(s, m.end())
    return pos


def word_end(s: str, pos: int) -> int:
    """End of the word at ``pos`` (up to a separator or clause break, at most WORD_CAP characters)."""
    m = _WORD.match(s, pos)  # matches the empty string at worst
    return m.end() if m else pos


def _trim(s: str, start: int, end: int) -> int:
    """``end`` moved back over trailing particles (吧 了 啊 …) and a trailing 谢谢/please."""
    while end > start and s[end - 1] in V.PARTICLES:
        end -= 1
    for w in V.TRAILING:
        if end - start > len(w) and s.endswith(w, start, end):
            return _trim(s, start, end - len(w))
    return end


def _fuzzy_at(ix: RosterIndex, s: str, pos: int) -> Found | None:
    """A one-typo name starting at ``pos``: the longest chunk of up to ``max_words`` words (names
    may contain spaces) within one edit of a name or alias."""
    ends = []
    end = word_end(s, pos)
    for _ in range(ix.max_words):
        ends.append(end)
        if end >= len(s) or s[end] != " " or end + 1 >= len(s) or s[end + 1] in _WORD_END:
            break
        end = word_end(s, end + 1)
    for end in reversed(ends):
        if end - pos >= WORD_CAP:
            continue
        end = _trim(s, pos, end)
        seats = names.fuzzy(ix, s[pos:end])
        if seats:
            return Found(pos, end, seats, exact=False, how="typo")
        if end < len(s) and s[end] == "?" and end > pos:
            # a GBK forum writes a character it cannot store as "?" (王喆 -> 王?): one edit, like a typo; the
            # "?" still makes the message a question, so the judge asks, never records
            seats = names.fuzzy(ix, s[pos:end + 1])
            if seats:
                return Found(pos, end + 1, seats, exact=False, how="typo")
    return None


def _loose_at(ix: RosterIndex, s: str, pos: int, caps: Caps = None) -> Found | None:
    """A Latin name written loosely at ``pos`` (:func:`names.loose`): the longest run of up to
    ``max_words + 2`` words that fits, else None."""
    ends = []
    p = pos
    for _ in range(ix.max_words + 2):
        m = names.LATIN_WORD.match(s, p)
        if not m:
            break
        ends.append(m.end())
        if m.end() + 1 >= len(s) or s[m.end()] != " ":
            break
        p = m.end() + 1
    for end in reversed(ends):
        seats, how = names.loose(ix, s[pos:end], caps is not None and caps(pos, end))
        if seats:
            return Found(pos, end, seats, exact=False, how=how)
    return None


def read_one(ix: RosterIndex, s: str, pos: int, self_words: tuple[str, ...],
             sender_seat: int | None, loose: bool = True, caps: Caps = None) -> Found | Unknown | PostNumber | None:
    """The name at ``pos``: Found (``seats`` has several entries when ambiguous), Unknown, a
    PostNumber (``3楼``, unless a roster name at least as long is written there), or None when
    nothing is written there. A self reference gives ``sender_seat`` (Unknown without one).
    ``loose``: also read Latin names written loosely (prefix, some words, initials, other spacing).
    ``caps(start, end)``: whether the player wrote ``s[start:end]`` in capitals (None: never)."""
    if pos >= len(s) or s[pos] in V.CLAUSE_BREAKS:
        return None
    exact, bad_seat_end = names.exact_at(ix, s, pos)
    if exact is None and s[pos] in OPEN_BRACKETS:
        return read_one(ix, s, skip_separators(s, pos + 1), self_words, sender_seat, loose, caps)
    post_end = names.post_number_at(s, pos)
    if post_end > 0 and (exact is None or exact.end < post_end):
        return PostNumber(pos, post_end)
    self_end = names.self_at(s, pos, self_words)
    if self_end > 0 and (exact is None or self_end > exact.end):
        if sender_seat is None or sender_seat not in ix.seats:
            return Unknown(pos, self_end)
        return Found(pos, self_end, (sender_seat,))
    if exact is not None:
        return _check_overrun(ix, s, exact)
    if bad_seat_end > 0:
        return Unknown(pos, bad_seat_end)
    gv = names.given_at(ix, s, pos)
    if gv is not None:
        return gv
    lz = _loose_at(ix, s, pos, caps) if loose else None
    fz = _fuzzy_at(ix, s, pos)
    if lz is not None and (fz is None or lz.end >= fz.end):
        return lz
    if fz is not None:
        return fz
    end = _trim(s, pos, word_end(s, pos))
    return Unknown(pos, max(end, pos + 1))


def _check_overrun(ix: RosterIndex, s: str, exact: Found) -> Found:
    """An exact name followed directly by more letters that are not a name (张三封): if that whole
    word is one typo from another player (张三丰), the player may have meant either: ambiguous."""
    end = exact.end
    if end >= len(s) or s[end] in _WORD_END or _TRAILING.match(s, end):
        return exact
    if names.exact_at(ix, s, end)[0] is not None:
        return exact
    word = _trim(s, exact.start, word_end(s, exact.start))
    if word <= end:
        return exact
    others = set(names.fuzzy(ix, s[exact.start:word])) - set(exact.seats)
    if not others:
        return exact
    return Found(exact.start, word, tuple(sorted(set(exact.seats) | others)), exact=False)


#: the names read at each place of one message: (position, loose, self words) -> :func:`read_one`'s reading
Memo = dict[tuple[int, bool, tuple[str, ...]], "Found | Unknown | PostNumber | None"]


def read_list(ix: RosterIndex, s: str, pos: int, self_words: tuple[str, ...],
              sender_seat: int | None, many: bool, caps: Caps = None,
              memo: Memo | None = None) -> list[Found] | Found | Unknown | PostNumber | None:
    """Names from ``pos``: a list of Found (unambiguous, in written order, repeats kept: whether a
    repeated name is allowed is the rules engine's call), or
    the first problem: an ambiguous Found, an Unknown, a PostNumber (anywhere in the list), or None
    when no name is written. ``memo``: the names already read in this message, by (position, loose,
    self words), shared by the lists read from its verbs (``投张三 投张三 …``: each verb's list runs over the
    names of the verbs after it), so each place is read once (:func:`read_one` is pure); its size is the
    number of names read."""
    def one(at: int, loose: bool = True) -> Found | Unknown | PostNumber | None:
        if memo is None:
            return read_one(ix, s, at, self_words, sender_seat, loose, caps)
        key = (at, loose, self_words)
        if key not in memo:
            memo[key] = read_one(ix, s, at, self_words, sender_seat, loose, caps)
        return memo[key]

    first = one(pos)
    if not isinstance(first, Found) or len(first.seats) > 1:
        return first
    out = [first]
    end = first.end
    while many and len(out) < LIST_CAP:
        m = _LIST_SEP.match(s, end)
        q = m.end() if m else end
        if m and "[/" in m.group():
            break  # the end of a vote tag ([vote]X[/vote])
        strong = bool(m and _STRONG_SEP.search(m.group()))
        if _TRAILING.match(s, q) or _LIST_STOP.match(s, q):
            break
        # after the first name, a loose reading needs a plain list mark (a comma, 、, /, and)
        nxt = one(q, strong or bool(m and "," in m.group()))
        if nxt is None:
            break
        if isinstance(nxt, PostNumber):
            return nxt
        if isinstance(nxt, Unknown):
            after = _LIST_SEP.match(s, nxt.end)
            follows = names.exact_at(ix, s, after.end() if after else nxt.end)[0] is not None
            if strong or follows:
                return nxt
            break  # trailing prose after the list
        if len(nxt.seats) > 1:
            return nxt
        out.append(nxt)
        end = nxt.end
    return out
