"""Reading names against the roster: exact names and aliases, seat numbers, self references, and
one-typo corrections.

Everything here works on canonical text (see :mod:`forumbot.language.normalize`). Exact matches
take the longest name at a position (张三丰 over 张三); a Latin or digit end must not run on into
another letter or digit (bob is not read inside bobby, 3 not inside 35).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from rapidfuzz import process
from rapidfuzz.distance import OSA

from forumbot.language.normalize import fold
from forumbot.language.numbers import cjk_int
from forumbot.language.types import Roster

# Seat numbers: #3, No.3, 3号, 第3位, 3, ３號 (already 3号 here); 三号 needs the 号.
_SEAT = re.compile(
    r"(?:#\s*|no\.\s*|第\s*)?(\d{1,4})(?![0-9])(?:\s*(?:号|位|座))?"
    r"|第?([〇零一二两三四五六七八九十百]{1,4})号|第([〇零一二两三四五六七八九十百]{1,4})位"
)
_LATIN_END = re.compile(r"[a-z0-9]")
# A post number: 3楼, #3楼, 第3楼, 三楼 (樓 is 楼 here). On a forum 3楼 is the author of post #3, not seat 3.
_POST = re.compile(r"(?:#\s*|第\s*)?(?:\d{1,4}|[〇零一二两三四五六七八九十百]{1,4})\s*楼")


@dataclass(frozen=True)
class RosterIndex:
    """A roster prepared for matching: ``forms`` maps each canonical name/alias to its seats
    (more than one seat = two players share the form, which is always ambiguous).

    For the loose readings of Latin names (:func:`loose`): ``compact`` maps a name without spaces,
    dots, dashes and underscores to its seats; ``words`` gives each seat's names split into words
    (at spaces, dashes, underscores, digits and camelCase: ``IAmRobik`` -> i, am, robik);
    ``runs`` maps every run of neighbouring words, joined (``robik``, ``amrobik``, ``warwaffle``), to
    its seats; ``initials`` maps the initials of every run of two or more words (``gb``, ``hts``,
    ``ww``) to its seats; ``single`` holds the one-word Latin names (``holyflare``) whose initials are
    read as letters in order (``hf``)."""

    forms: dict[str, tuple[int, ...]]
    form_list: tuple[str, ...]
    seats: frozenset[int]
    pattern: re.Pattern[str] | None
    max_words: int
    compact: dict[str, frozenset[int]] = field(default_factory=dict)
    words: tuple[tuple[int, tuple[str, ...]], ...] = ()
    runs: dict[str, frozenset[int]] = field(default_factory=dict)
    initials: dict[str, frozenset[int]] = field(default_factory=dict)
    single: tuple[tuple[int, str], ...] = ()
    scan: tuple[re.Pattern[str], ...] = ()
    given: dict[str, frozenset[int]] = field(default_factory=dict)
    given_pattern: re.Pattern[str] | None = None


@dataclass(frozen=True)
class Found:
    """A name read at ``start:end`` of the canonical text. ``seats``: one seat, or the candidates
    when ambiguous. ``exact``: False for a one-typo correction."""

    start: int
    end: int
    seats: tuple[int, ...]
    exact: bool = True
    how: str = "exact"


def _form_regex(form: str) -> str:
    body = r"\s+".join(re.escape(w) for w in form.split(" "))
    head = r"(?<![a-z0-9])" if _LATIN_END.match(form[0]) else ""
    tail = r"(?![a-z0-9])" if _LATIN_END.match(form[-1]) else ""
    return head + body + tail


_LAST: list[tuple[Roster, RosterIndex]] = []


def index(roster: Roster) -> RosterIndex:
    """The canonical forms of ``roster`` (cached: the same Roster object is found by identity at once,
    an equal one through the hash of its entries)."""
    for known, ix in _LAST:
        if known is roster:
            return ix
    ix = _index(roster)
    _LAST[:] = [(roster, ix)] + _LAST[:7]
    return ix


@lru_cache(maxsize=64)
def _index(roster: Roster) -> RosterIndex:
    forms: dict[str, set[int]] = {}
    for e in roster.entries:
        for written in (e.name, *e.aliases):
            f = fold(written)
            if f:
                forms.setdefault(f, set()).add(e.seat)
    ordered = sorted(forms, key=len, reverse=True)
    pattern = re.compile("|".join(_form_regex(f) for f in ordered)) if ordered else None
    compact: dict[str, set[int]] = {}
    runs: dict[str, set[int]] = {}
    initials: dict[str, set[int]] = {}
    words_of: list[tuple[int, tuple[str, ...]]] = []
    single: list[tuple[int, str]] = []
    given: dict[str, set[int]] = {}
    for e in roster.entries:
        for written in (e.name, *e.aliases):
            for g in given_names(fold(written)):
                if g not in forms:  # another player's whole name is read exactly
                    given.setdefault(g, set()).add(e.seat)
    for e in roster.entries:
        for written in (e.name, *e.aliases):
            c = compact_form(fold(written))
            if not c:
                continue
            compact.setdefault(c, set()).add(e.seat)
            raw = _WORD_SPLIT.findall(written)
            words = tuple(fold(w) for w in raw)
            # an acronym hump gives all its letters (KelsierSC -> k + sc)
            heads = tuple(fold(w) if w.isupper() and w.isascii() else fold(w)[:1] for w in raw)
            words_of.append((e.seat, words))
            alpha = [w for w in words if w.isascii() and w.isalpha()]
            if len(words) == 1 and c.isascii() and c.isalpha():
                single.append((e.seat, c))
            elif len(alpha) == 1 and c.isascii() and all(w.isdigit() for w in words if w not in alpha):
                single.append((e.seat, alpha[0]))  # evilpacman18: its letters (EPM)
            for i in range(len(words)):
                for j in range(i + 1, min(len(words), i + 6) + 1):
                    runs.setdefault("".join(words[i:j]), set()).add(e.seat)
                    if j - i >= 2:
                        initials.setdefault("".join(heads[i:j]), set()).add(e.seat)
    return RosterIndex(
        forms={f: tuple(sorted(s)) for f, s in forms.items()},
        form_list=tuple(ordered),
        seats=frozenset(e.seat for e in roster.entries),
        pattern=pattern,
        max_words=max((f.count(" ") + 1 for f in forms), default=1),
        compact={k: frozenset(v) for k, v in compact.items()},
        words=tuple(words_of),
        runs={k: frozenset(v) for k, v in runs.items()},
        initials={k: frozenset(v) for k, v in initials.items()},
        single=tuple(single),
        scan=_scan_patterns(ordered),
        given={k: frozenset(v) for k, v in given.items()},
        given_pattern=re.compile("|".join(map(re.escape, sorted(given, key=len, reverse=True)))) if given else None,
    )


_HAN = re.compile(r"[\u4e00-\u9fff]{3,4}")


def given_names(canonical: str) -> tuple[str, ...]:
    """The given names a Chinese name may be called by: the name without a one-character surname
    (沈修竹 -> 修竹), and for four characters also without a two-character one (欧阳修竹 -> 修竹, 阳修竹).
    Only names of three or four Han characters have one (a two-character name's given name is a single
    character, which says nothing)."""
    if not _HAN.fullmatch(canonical):
        return ()
    return (canonical[1:],) if len(canonical) == 3 else (canonical[2:], canonical[1:])


def given_at(ix: RosterIndex, s: str, pos: int) -> Found | None:
    """The given name (:func:`given_names`) of a player written at ``pos`` (the longest; several seats
    when two players share it: the caller asks), or None."""
    if ix.given_pattern is None:
        return None
    m = ix.given_pattern.match(s, pos)
    if not m:
        return None
    return Found(pos, m.end(), tuple(sorted(ix.given[m.group()])), exact=False, how="given")


# Words of a name as written (before folding): camelCase humps, digit runs, CJK runs.
_WORD_SPLIT = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+|[^\W\d_a-zA-Z]+")
_COMPACT_DROP = re.compile(r"[\s._\-'·]+")

#: Words that are never read loosely as a name (a prefix, initials): pronouns, chat words, verbs.
STOP_WORDS = frozenset(
    ["me", "my", "no", "on", "in", "it", "is", "at", "to", "of", "or", "an", "as", "be", "by", "do", "go", "he", "hi", "if", "ok", "so", "up", "us", "we", "and", "the", "for", "not", "him", "her", "his", "you", "yes", "all", "any", "one", "two", "lol", "lmao", "idk", "imo", "tbh", "pls", "plz", "thx", "now", "today", "then", "them", "they", "this", "that", "with", "from", "here", "there", "what", "who", "why", "how", "later", "please", "thanks", "again", "back", "first", "guy", "guys", "someone", "anyone", "everyone", "nobody", "none", "lynch", "vote", "votes", "kill", "scum", "town", "mafia", "wolf", "count", "counts", "instead", "too", "also", "just"]
)


def compact_form(canonical: str) -> str:
    """``canonical`` without spaces, dots, dashes, underscores and apostrophes (``jar jar binks`` ->
    ``jarjarbinks``)."""
    return _COMPACT_DROP.sub("", canonical)


def _subsequence(letters: str, name: str) -> bool:
    it = iter(name)
    return all(c in it for c in letters)


def _covers(words: list[str], name: str) -> bool:
    """Whether ``words`` (two or more) are pieces of ``name`` that, in any order, make it up exactly
    (``tl cool name`` for ``cooltlname``)."""
    if sum(map(len, words)) != len(name):
        return False
    taken = [False] * len(name)
    for w in sorted(words, key=len, reverse=True):
        start = 0
        while (i := name.find(w, start)) >= 0 and any(taken[i:i + len(w)]):
            start = i + 1
        if i < 0:
            return False
        taken[i:i + len(w)] = [True] * len(w)
    return True


def loose(ix: RosterIndex, written: str, caps: bool = False) -> tuple[tuple[int, ...], str]:
    """Seats a Latin name written loosely may stand for, and how it was read.

    ``written``: canonical text of one or more words. The rules, in order, stop at the first that
    fits anyone (several seats = ambiguous, the caller asks): "spacing" (other spacing or word order:
    ``jar jar binks``, ``tl cool name``), "words" (a run of a name's words: ``wile``, ``robik``,
    ``warwaffle``), "prefix" (the start of a run of words, 3 letters or more: ``lian``, ``rso``),
    "initials" (of a run of two or more words: ``gb``, ``hts``, ``ww``; or letters in order from the
    first letter of a one-word name: ``hf`` for holyflare, ``jjb`` for jarjarbinks, ``epm`` for
    evilpacman18), "fragment" (4 letters or more inside a one-word name, a third of it at least: ``fitz``
    for havingfitz). Returns ((), "") when none fits. Short chat words (``STOP_WORDS``) are never read as
    a prefix or initials, unless ``caps`` (the player wrote them in capitals: ``IS`` for Internet Stranger).
    """
    if written.endswith(("'s", "'")) and len(written) > 3:  # a possessive: Lateralus's (replacement)
        written = written[:-2] if written.endswith("'s") else written[:-1]
    c = compact_form(written)
    if not c:
        return (), ""
    pieces = written.split()
    if len(pieces) == 1 and c in ix.compact:
        return tuple(sorted(ix.compact[c])), "spacing"
    if len(pieces) > 1:
        if c in ix.compact:
            return tuple(sorted(ix.compact[c])), "spacing"
        seats = {seat for seat, words in ix.words if _covers(pieces, "".join(words))}
        return tuple(sorted(seats)), ("spacing" if seats else "")
    if len(c) >= 2 and c in ix.runs and c not in STOP_WORDS:
        return tuple(sorted(ix.runs[c])), "words"
    if not (c.isascii() and c.isalnum()):
        return (), ""
    if c in STOP_WORDS:
        if caps and 2 <= len(c) <= 5 and c in ix.initials:
            return tuple(sorted(ix.initials[c])), "initials"
        return (), ""
    if len(c) >= 3:
        seats = {s for run, ss in ix.runs.items() if len(run) > len(c) and run.startswith(c) for s in ss}
        if seats:
            return tuple(sorted(seats)), "prefix"
    if 2 <= len(c) <= 5 and c.isalpha():
        if c in ix.initials:
            return tuple(sorted(ix.initials[c])), "initials"
        seats = {seat for seat, name in ix.single if name[0] == c[0] and len(name) > len(c) and _subsequence(c[1:], name[1:])}
        if seats:
            return tuple(sorted(seats)), "initials"
    if len(c) >= 4 and c.isalpha():
        seats = {seat for k, ss in ix.compact.items() if len(k) > len(c) and c in k[1:] and 3 * len(c) >= len(k)
                 for seat in ss}
        if seats:
            return tuple(sorted(seats)), "fragment"
    return (), ""


def _scan_patterns(ordered: list[str]) -> tuple[re.Pattern[str], ...]:
    """The names as two patterns for scanning a whole text: names that start with a Latin letter or
    digit behind one word boundary, the others plainly (one lookbehind per branch makes a joint
    pattern many times slower to scan)."""
    latin = [f for f in ordered if _LATIN_END.match(f[0])]
    other = [f for f in ordered if not _LATIN_END.match(f[0])]
    out = []
    if latin:
        out.append(re.compile(r"(?<![a-z0-9])(?:" + "|".join(_form_regex(f) for f in latin) + ")"))
    if other:
        out.append(re.compile("|".join(_form_regex(f) for f in other)))
    return tuple(out)


def occurrences(ix: RosterIndex, s: str) -> list[tuple[int, int]]:
    """Spans of every exact name occurrence in ``s`` (leftmost, the longest at a position, not
    overlapping)."""
    if len(ix.scan) == 1:
        return [m.span() for m in ix.scan[0].finditer(s)]
    spans = sorted((m.start(), -m.end()) for p in ix.scan for m in p.finditer(s))
    out: list[tuple[int, int]] = []
    for a, neg_b in spans:
        if not out or a >= out[-1][1]:
            out.append((a, -neg_b))
    return out


def _name_at(ix: RosterIndex, s: str, pos: int) -> Found | None:
    if ix.pattern is None:
        return None
    m = ix.pattern.match(s, pos)
    if not m:
        return None
    form = " ".join(m.group().split())
    return Found(pos, m.end(), ix.forms[form])


def _seat_at(ix: RosterIndex, s: str, pos: int) -> tuple[Found | None, int]:
    """A seat number at ``pos``: (Found for a seat in the roster, or None; end of the number text
    or -1 when there is no number). A bare number must not run on into a Latin letter (2b is a
    name; 3号no.5 is two seats)."""
    m = _SEAT.match(s, pos)
    if not m:
        return None, -1
    if m.end() < len(s) and "a" <= s[m.end()] <= "z" and s[m.end() - 1].isdigit():
        return None, -1
    # 两位 / 三位 without 第 is a count of people (先验2、5两位), never a seat
    n = int(m.group(1)) if m.group(1) else cjk_int(m.group(2) or m.group(3))
    if n is None or n not in ix.seats:
        return None, m.end()
    return Found(pos, m.end(), (n,)), m.end()


def exact_at(ix: RosterIndex, s: str, pos: int) -> tuple[Found | None, int]:
    """The exact name or seat number at ``pos`` (longest wins; a name and a seat number of the same
    length naming different players is ambiguous). Returns (Found or None, end of a seat number
    that is not in the roster, else -1) so the caller can report ``15号`` as unknown."""
    name = _name_at(ix, s, pos)
    seat, seat_end = _seat_at(ix, s, pos)
    if name and seat:
        if name.end > seat.end:
            return name, -1
        if seat.end > name.end:
            return seat, -1
        return Found(pos, name.end, tuple(sorted(set(name.seats) | set(seat.seats)))), -1
    if name:
        return name, -1
    return seat, (seat_end if seat is None else -1)


def post_number_at(s: str, pos: int) -> int:
    """End of a post number (``3楼``, ``#3楼``, ``三楼``) at ``pos``, or -1."""
    m = _POST.match(s, pos)
    return m.end() if m else -1


def self_at(s: str, pos: int, words: tuple[str, ...]) -> int:
    """End of a self reference (自己, me, myself…) at ``pos``, or -1."""
    for w in sorted(words, key=len, reverse=True):
        if s.startswith(w, pos):
            end = pos + len(w)
            if _LATIN_END.match(w[-1]) and end < len(s) and _LATIN_END.match(s[end]):
                continue
            return end
    return -1


def fuzzy(ix: RosterIndex, written: str) -> tuple[int, ...]:
    """Seats whose name or alias is one edit (insert, delete, substitute, swap two neighbours) from
    ``written``; empty for text shorter than 2 characters (one edit of a one-character text says
    nothing)."""
    if len(written) < 2:
        return ()
    hits = process.extract(written, ix.form_list, scorer=OSA.distance, score_cutoff=1, limit=None)
    seats: set[int] = set()
    for form, _dist, _ in hits:
        if len(form) >= 2:
            seats.update(ix.forms[form])
    return tuple(sorted(seats))


# A Latin word as players write names: letters, digits, _ ' - (canonical text).
LATIN_WORD = re.compile(r"[a-z0-9][a-z0-9_'\-]{0,39}(?![a-z0-9_'\-])")
