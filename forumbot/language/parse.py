"""The command parser: one message in, one :class:`Command` or :class:`ParseError` out.

Two channels, two readings (see docs/commands.md):

**Private message to the judge** (``channel="pm"``): business, read tolerantly.

1. The message is normalised (see :mod:`normalize`): quotes, signatures and formatting markup dropped,
   full-width folded, traditional converted to simplified, case folded. The whole message is read.
2. Every verb keyword is a candidate, in text order, except: a keyword inside a roster name
   (a player called 查理 is not a check); a keyword inside an ordinary word such as 投降, 检查,
   问题, 救命, 杀手 (see ``vocabulary.NOT_COMMANDS``) unless a player's name follows it directly.
3. A candidate whose arguments read completely (投3号, 线索 2, 延长 30分钟) is a *complete* command;
   the first complete command in the message wins. So ``我今天状态不好，投3号`` is a vote, and in
   ``投3号，杀5号`` the vote wins because it comes first. Among votes, unvotes and no-lynch votes the
   last one written stands (``取消投票 张三 投票 李四`` is a vote for 李四).
4. A complete command inside a frame (:mod:`frames`, the model of the clause around the verb: negation
   我不投张三, talk about the command 投张三是不可能的 / 谁投张三谁是狼, a mock 投张三（误）, a name compared
   away 投张三不如投李四, reported speech 李四说他要投张三, suggestion 建议投3号, past tense 我验了3号, a
   question 投3号吗, a tentative 票口压在3号身上) is not recorded: when nothing else in the message is a
   command, the result is ``ParseError("unclear", written=<the sentence as written>, frame=..., meant=...)``;
   the judge quotes what it read and, unless the frame says the opposite (:data:`frames.NOT_MEANT`:
   then ``meant`` is None), asks "did you mean …?".
5. A verb that takes no argument (状态, help, 暂停, end…) counts only standing as its own clause
   (``状态``, ``法官，状态？``, ``help please``), never inside running prose (``in the end``,
   ``继续观察``). It wins over errors but loses to a complete command anywhere in the message.
6. A verb whose argument does not read (投 王八, 线索 abc, 投 alone) gives its error only when it is
   written as a command: at the start of a clause, after lead-in words like 我/今晚/请/I/please, or
   followed by a colon. Otherwise it is prose (``他们会杀王八``) and ignored. The first such error
   is returned when no command is complete.
7. Nothing found: ``ParseError("no_command")``; but a short message that is a misspelled question the
   judge answers (``stauts``, ``hlep``, ``状 态``, ``狀態查詢``: see :func:`misspelled`) gives
   ``ParseError("did_you_mean", verb)``.

**Post in the game thread** (``channel="thread"``): chat, unless a command is *marked* (the marks
accepted are a season setting, :data:`DEFAULT_THREAD_MARKS` per locale): at the start of a line
("line"), after ``##``/``#`` ("hash", ``##`` also mid-line), ``!`` ("bang"), ``/`` ("slash"), in bold
("bold"), after ``【`` ("bracket"), inside a vote tag ``[vote]X[/vote]``, ``[v]X[/v]``,
``[unvote][/unvote]``, ``[uv][/uv]`` ("tag"), or as the last clause of the post after a comma
(``3号很可疑，投3号``: "clause", Chinese locales). A line or last clause may open with the writer
(``今天我投3号，因为…``, ``I vote Alice because…``): the command then counts when its clause ends after its
argument (a reason may follow). Only the verbs the game takes in the thread (``verbs``) are read. A
marked command in a frame (any frame of :mod:`frames`) is chat. Among votes and unvotes the last one
*written* stands (``[b]Unvote Vote X[/b]``: a vote right after an unvote on its line is read too). A marked command
whose argument does not read is an error only when the mark is explicit (``##``, ``!``, a tag…) or the
line is just the verb and one word (``vote him``); anything else is chat and gets no reply.

Work is linear in the length of the message: every look around a verb is bounded, at most
:data:`MAX_CANDIDATES` verbs are tried, and :func:`parse_counted` reports the work done.
"""

from __future__ import annotations

import heapq
import re
from bisect import bisect_right
from dataclasses import dataclass
from typing import Any

from rapidfuzz.distance import OSA

from forumbot.language import frames, names
from forumbot.language import targets as T
from forumbot.language import vocabulary as V
from forumbot.language.names import Found
from forumbot.language.normalize import Text, normalize_message
from forumbot.language.numbers import clue_at, duration_at
from forumbot.language.types import Command, NameReading, ParseError, Roster

#: The version of the command language (this parser and its vocabulary, names, numbers, frames), recorded in
#: each season: bumped by hand when a change can read a message differently (another command, target or error).
#: A season judged by another version is not resumed silently (docs/runtime.md § Versions).
PARSER_VERSION = "4"

_COMPLETE, _BARE, _ERROR = 3, 2, 1
quiet_mark = "\x00"  # ``written`` of an error not worth building yet (see _Reader.error)

#: At most this many verb keywords are tried in one message: a message with more is prose, and the
#: cap bounds the work (a post of 2,000 repeated verb characters costs no more than 100 verbs).
MAX_CANDIDATES = 100

#: Every thread mark (see the module docstring).
THREAD_MARKS = ("line", "hash", "bang", "slash", "bold", "bracket", "tag", "clause")
#: The marks accepted in a season's thread unless its config says otherwise, per locale.
DEFAULT_THREAD_MARKS: dict[str, tuple[str, ...]] = {
    "zh-Hans": THREAD_MARKS,
    "zh-Hant": THREAD_MARKS,
    "en": ("line", "hash", "bang", "slash", "bold", "bracket", "tag"),
}
_EXPLICIT_MARKS = frozenset({"hash", "bang", "slash", "bold", "bracket", "tag"})

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
_NO_LYNCH = re.compile(
    "(?:" + "|".join(rf"{re.escape(w)}(?![a-z])" if V.is_latin(w) else re.escape(w)
                     for w in sorted(V.NO_LYNCH_TARGETS, key=len, reverse=True)) + ")"
)
_DETERMINER = re.compile(r"(?<![a-z'])(?:" + "|".join(V.DETERMINERS) + r")\s+$")
_NEW_NAME_END = re.compile(r"[\n,;。!?]")
# Thread marks at the start of a line: any mix of ##, #, %% (## typed with shift slipped), !, /, 【, @name.
_LINE_MARKS = re.compile(r"(?m)^[ \t]*((?:(?:##?|%%|!+|/+|【|@[^\s@]{1,30})[ \t]*)*)")
_HASH_MID = re.compile(r"##[ \t]*")
# "I" before a verb that opens a line or the last clause (我退选, 今天我投3号，因为…, I vote Alice): the
# command's clause must end after its argument (_CLAUSE_DONE); a reason may follow.
_FIRST_PERSON = re.compile(
    r"(?:(?:今天|今晚|今日|今夜|这轮|本轮|那么|那就|所以|最后|那|好)[ \t,，]*)?"
    r"(?:我的|我|(?:so |then |ok |now )?i(?:'ll| will)?\s+)(?:就|还是|决定|要|先|也|直接|今天|今晚|改|这轮|本轮)*[ \t]*"
)
#: A first-person line (我投3号) is a command only when this short after the verb.
FIRST_PERSON_REST = 24
_VOTE_TAG = re.compile(r"\[(vote|v|unvote|uv)\]([^\[\n]{0,200})(?:\[/(?:vote|v|unvote|uv)\])?")
# After a first-person thread command (我投3号, I vote Alice): the clause ends there (its reason may follow).
_FP_FIRST = frozenset("今这本那所最好我stoni")  # the characters _FIRST_PERSON can start with (a cheap test first)
_CLAUSE_DONE = re.compile(
    r"[ \t]*(?:$|[\n,，.。;；!！~…:：(]|(?:因为|由于|毕竟|理由|原因|because|since|cause|as)(?![a-z]))"
)
_AFTER_UNVOTE = re.compile(r"[ \t,.;:!&]*(?:and|then|&)?[ \t,.;:!]*")
_TARGET_NEXT_LINE = re.compile(r"[ \t]*:?[ \t]*\n\s*")
#: A reply quotes at most this many characters either side of a command it did not record.
QUOTE_CHARS = 40
_SENTENCE_BACK = re.compile(r"[\n。.!?;…](?=[^\n。.!?;…]*$)")
_SENTENCE_FWD = re.compile(r"[\n。!?;…]|\.(?![a-z0-9])|$")
_LAST_CLAUSE = re.compile(r"[,，;；](?=[^,，;；\n]*[。.!！~]*\s*$)")


@dataclass
class Work:
    """The work one parse did: ``candidates`` verb keywords tried, ``reads`` argument reads (one per
    candidate read), ``names`` places a name was read at (each place once: the lists of several verbs share
    them), ``listed`` names put in those lists (at most ``targets.LIST_CAP`` a read), ``chars`` characters
    of the message (each read a bounded number of times)."""

    candidates: int = 0
    reads: int = 0
    chars: int = 0
    skipped: int = 0
    names: int = 0
    listed: int = 0

    @property
    def steps(self) -> int:
        """One number for the work: characters, a fixed cost per verb skipped by a bounded look (inside
        a name or an ordinary word) and per name read (a bounded look at one place), and a larger fixed
        cost per candidate and per read."""
        return self.chars + 4 * self.names + 8 * (self.skipped + self.listed) + 64 * (self.candidates + self.reads)


class _Spans:
    """Non-overlapping spans (from ``finditer``), with a logarithmic "is a:b inside one" test."""

    def __init__(self, spans: list[tuple[int, int]]) -> None:
        self.starts = [a for a, _ in spans]
        self.ends = [b for _, b in spans]

    def inside(self, a: int, b: int) -> bool:
        i = bisect_right(self.starts, a) - 1
        return i >= 0 and b <= self.ends[i]


def _last_break(chars: str) -> re.Pattern[str]:
    return re.compile("[" + re.escape(chars) + "](?=[^" + re.escape(chars) + "]*$)")


# Clause breaks: for Latin verbs punctuation and line ends; for CJK verbs also spaces.
_LAST_BREAK_LATIN = _last_break("\n,、;:.。!?…~")
_LAST_BREAK_CJK = _last_break("\n,、;:.。!?…~ \t\r\f\v\u3000")


class _Breaks:
    """Where the clause holding a position starts, looking back at most ``window`` characters (every
    caller only cares about a short clause prefix, so the look is bounded)."""

    def __init__(self, last: re.Pattern[str], s: str, window: int = 64) -> None:
        self.last = last  # a break with no other break after it in the searched slice
        self.s = s
        self.window = window

    def before(self, a: int) -> int:
        """The position of the break that ends the previous clause: -1 when there is none before
        ``a``, or ``a - window - 1`` when none is within the window (the clause is longer)."""
        lo = max(0, a - self.window)
        m = self.last.search(self.s, lo, a)
        if m:
            return m.start()
        return -1 if lo == 0 else lo - 1

    def start(self, a: int) -> int:
        return self.before(a) + 1


class _Reader:
    """One message being read: canonical text, roster index and the precomputed spans."""

    def __init__(self, text: str, roster: Roster, sender_seat: int | None, work: Work) -> None:
        self.t: Text = normalize_message(text)
        self.s = self.t.s
        self.ix = names.index(roster)
        self.sender_seat = sender_seat
        self.work = work
        work.chars = len(self.s)
        self._names: _Spans | None = None
        self._prose: _Spans | None = None
        self._jargon: _Spans | None = None
        self.breaks_latin = _Breaks(_LAST_BREAK_LATIN, self.s)
        self.breaks_cjk = _Breaks(_LAST_BREAK_CJK, self.s)
        self.quiet = False
        self.arg_end = 0  # where the arguments of the last read command end (see read)
        self.read_names: T.Memo = {}  # each place's name, read once
        self._readings: dict[tuple[Any, ...], NameReading] = {}

    @property
    def names(self) -> _Spans:
        """Where roster names are written (found on first use: chat without a verb never needs it)."""
        if self._names is None:
            self._names = _Spans(names.occurrences(self.ix, self.s))
        return self._names

    @property
    def prose(self) -> _Spans:
        """Where ordinary words holding a verb character are written (投降, 问题…), found on first use."""
        if self._prose is None:
            self._prose = _Spans([m.span() for m in V.NOT_COMMANDS_RE.finditer(self.s)])
        return self._prose

    @property
    def jargon(self) -> _Spans:
        """Where werewolf jargon holding a verb is written (查杀), found on first use."""
        if self._jargon is None:
            self._jargon = _Spans([m.span() for m in V.JARGON_RE.finditer(self.s)])
        return self._jargon

    # --- clause tests -----------------------------------------------------------------------------
    def clause_start(self, a: int, latin: bool) -> bool:
        """Whether the keyword at ``a`` opens a clause, allowing lead-in words before it. For CJK
        keywords a space also separates clauses; for Latin ones it does not (``in the end``)."""
        k = (self.breaks_latin if latin else self.breaks_cjk).start(a)
        if a - k > 40:  # lead-ins are short
            return False
        prefix = self.s[k:a].strip(_DECOR)
        return _LEAD_INS.fullmatch(prefix) is not None

    def clause_end(self, b: int) -> bool:
        """Whether nothing but polite suffixes (一下, 吧, please…) follows ``b`` in its clause."""
        s = self.s
        p = b
        for _ in range(4):
            p = len(s) - len(s[p:p + 64].lstrip(" \t")) - len(s[p + 64:]) if p < len(s) else p
            m = _SUFFIX.match(s, p)
            if not m:
                break
            p = m.end()
        return p >= len(s) or s[p] in V.CLAUSE_BREAKS

    def frame_before(self, a: int, kw: str) -> str | None:
        """The frame the clause before the keyword at ``a`` puts on it (:func:`frames.before`); a
        clause that follows ``…says:`` is looked at with that clause."""
        k = self.breaks_latin.start(a)
        start = max(k, a - frames.LOOK_BACK)
        prev = self.breaks_latin.before(a)
        if prev >= 0 and self.s[prev] == ":" and a - prev <= frames.LOOK_BACK:
            start = max(self.breaks_latin.start(prev), a - frames.LOOK_BACK)
        return frames.before(self.s[start:a], kw)

    def frame_of(self, a: int, b: int, kw: str, verb: str) -> str | None:
        """The frame of the clause around the command just read (keyword at ``a:b``, arguments ending at
        ``self.arg_end``): the words before the verb, the aspect or question mark after it, and the words
        after its arguments (:mod:`frames`). None: the command is meant."""
        if kw in V.TENTATIVE:
            return "tentative"
        frame = self.frame_before(a, kw)
        if frame is None and V.ARITY[verb] == V.TARGETS and verb != "ask":
            frame = frames.after(self.s, b, kw) or frames.after_target(self.s, self.arg_end, kw)
        elif frame is None and verb != "ask":
            frame = frames.after_target(self.s, self.arg_end, kw)
            frame = frame if frame in ("mock", "statement") else None
        return frame

    def quote(self, a: int) -> str:
        """The sentence around the keyword at ``a`` as the player wrote it (at most :data:`QUOTE_CHARS`
        characters either side of the command), for a reply that says what it read."""
        s = self.s
        lo = max(0, a - QUOTE_CHARS)
        m = _SENTENCE_BACK.search(s, lo, a)
        start = m.end() if m else lo
        fwd = _SENTENCE_FWD.search(s, max(a, self.arg_end), self.arg_end + QUOTE_CHARS)
        end = fwd.end() if fwd else min(len(s), self.arg_end + QUOTE_CHARS)
        return self.written(start, end)

    # --- reading arguments ------------------------------------------------------------------------
    def written(self, start: int, end: int) -> str:
        return self.t.written(start, end)

    def error(self, code: str, verb: str, r) -> ParseError:
        """A ParseError for a target problem ``r`` (None, Unknown, PostNumber, or an ambiguous Found).
        A post number (``3楼``) is a bad_argument: it names a post, not a player. Once an error is
        kept for the reply, later ones are only counted (``quiet``): their text is not built."""
        if r is None:
            return ParseError("missing_target", verb)
        if self.quiet:
            return ParseError(code, verb, quiet_mark, r.seats if isinstance(r, Found) else ())
        written = self.written(r.start, r.end)
        if isinstance(r, T.PostNumber):
            return ParseError("bad_argument", verb, written)
        if isinstance(r, Found):
            return ParseError("ambiguous_name", verb, written, r.seats)
        return ParseError(code, verb, written)

    def readings(self, found: list[Found]) -> tuple[NameReading, ...]:
        out = []
        for f in found:  # the lists of several verbs share their names (read_names): each reading is made once
            key = (f.start, f.end, f.seats[0], f.exact, f.how)
            got = self._readings.get(key)
            if got is None:
                got = self._readings[key] = NameReading(self.written(f.start, f.end), f.seats[0], f.exact, f.how)
            out.append(got)
        return tuple(out)

    def caps(self, start: int, end: int) -> bool:
        """Whether the player wrote ``s[start:end]`` in capitals (``IS``: initials, not the word "is")."""
        w = self.written(start, end)
        return len(w) >= 2 and w.isascii() and w.isupper()

    def word(self, p: int) -> str | None:
        return self.written(p, T.word_end(self.s, p)) or None

    def read(self, verb: str, fixed: int | None, kw: str, a: int, b: int, arg: int | None = None):
        """Read the arguments of the keyword ``kw`` at ``a:b`` (from ``arg`` when the argument is
        elsewhere, e.g. on the next line): (Command or ParseError, directly followed by an exact
        name)."""
        self.work.reads += 1
        self.arg_end = b
        s, ix = self.s, self.ix
        arity = V.ARITY[verb]
        if fixed is not None:
            return Command(verb, number=fixed), False
        if kw in V.SELF_KEYWORDS:
            if self.sender_seat is None or self.sender_seat not in ix.seats:
                return ParseError("unknown_name", verb, self.written(a, b)), False
            return Command(verb, (self.sender_seat,),
                           readings=(NameReading(self.written(a, b), self.sender_seat),)), False
        if arity in (V.NONE, V.FREE):
            return Command(verb), False
        p = T.skip_lead(s, b if arg is None else arg, ix)
        if arity == V.NUMBER:
            n, _ = clue_at(s, p)
            return (Command(verb, number=n), False) if n is not None else (
                ParseError("bad_number", verb, self.word(p)), False)
        if arity == V.DURATION:
            n, _ = duration_at(s, p)
            return (Command(verb, number=n), False) if n is not None else (
                ParseError("bad_number", verb, self.word(p)), False)
        if verb == "vote" and _NO_LYNCH.match(s, p) and names.exact_at(ix, s, p)[0] is None:
            return Command("nolynch"), False
        self_words = V.SELF_WORDS + (V.SELF_WORDS_SAVE if verb == "save" else ())
        r = T.read_list(ix, s, p, self_words, self.sender_seat, many=arity == V.TARGETS, caps=self.caps,
                        memo=self.read_names)
        self.work.names = len(self.read_names)
        self.work.listed += len(r) if isinstance(r, list) else 1
        direct = isinstance(r, list) and r[0].exact and (
            r[0].start == b or any(s.startswith(f, b) and r[0].start == b + len(f) for f in V.DIRECT_FILLERS))
        if not isinstance(r, list):
            return self.error("unknown_name", verb, r), False
        self.arg_end = r[-1].end
        if arity == V.TARGETS:
            return Command(verb, tuple(f.seats[0] for f in r), readings=self.readings(r)), direct
        q = T.skip_separators(s, r[0].end)
        if arity == V.PENALTY:
            m = _PENALTY.match(s, q)
            if not m:
                return ParseError("bad_argument", verb, self.word(q)), direct
            return Command(verb, (r[0].seats[0],), text=V.PENALTY_REASONS[m.group()],
                           readings=self.readings(r[:1])), direct
        # replace: the new account name, exactly as typed, to the end of the clause
        m = _REPLACE_FILLER.match(s, q)
        if m:
            q = T.skip_separators(s, m.end())
        end = _NEW_NAME_END.search(s, q, q + 200)
        new = self.written(q, end.start() if end else min(len(s), q + 200))
        if not new:
            return ParseError("bad_argument", verb, None), direct
        return Command(verb, (r[0].seats[0],), text=new, readings=self.readings(r[:1])), direct


class _Outcome:
    """What the candidates of one message gave: the first complete command, the last vote-family
    command, the best error, the first framed command."""

    def __init__(self) -> None:
        self.complete: Command | None = None
        self.last_vote: Command | ParseError | None = None
        self.bare: Command | None = None
        self.error: ParseError | None = None
        self.framed: tuple[str, Command, str] | None = None  # frame, command, quote
        self.last_vote_at: tuple | None = None
        self.last_vote_pos = -1

    def add(self, result: Command | ParseError, score: int, pos: int = -1) -> None:
        """Record a candidate read at ``pos`` (its place in the text: the last vote-family command *written*
        stands, whatever order the marks were looked at in: vote tags first, then lines and bold)."""
        if result.verb in V.VOTE_FAMILY and (isinstance(result, Command) or self.last_vote is not None) and (
                pos >= self.last_vote_pos):
            # ##unvote then ##vote X: X decides; if X does not read, ask rather than half-apply
            self.last_vote = result
            self.last_vote_pos = pos
        if isinstance(result, Command):
            if score == _COMPLETE and self.complete is None:
                self.complete = result
            elif score == _BARE and self.bare is None:
                self.bare = result
        elif self.error is None:
            self.error = result

    def add_framed(self, frame: str, cmd: Command, quote: str) -> None:
        """A command its clause does not mean: the first one kept for the reply, but a frame the writer
        may have meant (a question, a suggestion…) wins over one he did not (negation, mock, a name
        compared away): ``投张三不如投李四`` asks about 李四, never 张三."""
        if self.framed is None or (self.framed[0] in frames.NOT_MEANT and frame not in frames.NOT_MEANT):
            self.framed = (frame, cmd, quote)

    def done(self) -> bool:
        """Whether reading can stop: a complete command that no later vote can replace."""
        return self.complete is not None and self.complete.verb not in V.VOTE_FAMILY

    def result(self) -> Command | ParseError:
        first = self.complete or self.bare
        if first is not None and first.verb in V.VOTE_FAMILY and self.last_vote is not None:
            return self.last_vote
        if self.complete is not None:
            return self.complete
        if self.bare is not None:
            return self.bare
        if self.framed is not None:
            frame, cmd, quote = self.framed
            meant = None if frame in frames.NOT_MEANT else cmd
            return ParseError("unclear", cmd.verb, quote, frame=frame, meant=meant)
        return self.error or ParseError("no_command")


def _finish(r: _Reader, out: _Outcome) -> Command | ParseError:
    """The outcome's result; an error kept without its text (see _Reader.error) is read again."""
    res = out.result()
    if isinstance(res, ParseError) and res.written == quiet_mark and out.last_vote_at is not None:
        r.quiet = False
        res = r.read(*out.last_vote_at)[0]
    return res


def _after_direct_filler(s: str, b: int, kw: str) -> int:
    """Where the name of a direct-only keyword ending at ``b`` must start: after 掉 (出掉5号), else ``b``."""
    if kw in V.DIRECT_ONLY:
        for f in V.DIRECT_FILLERS:
            if s.startswith(f, b):
                return b + len(f)
    return b


def _pm(r: _Reader) -> Command | ParseError:
    s = r.s
    out = _Outcome()
    pos = 0
    last_end = 0
    scan = V.KeywordScanner(s)
    while (m := scan.next(pos)) is not None and r.work.candidates < MAX_CANDIDATES:
        a, b = m.span()
        pos = a + 1
        r.work.skipped += 1
        if a < last_end or r.names.inside(a, b):  # inside a longer keyword (un-vote) or a name
            continue
        kw = m.group()
        verb, fixed = V.KEYWORDS[kw]
        latin = V.is_latin(kw)
        in_prose = r.prose.inside(a, b)
        if (in_prose or kw in V.DIRECT_ONLY) and names.exact_at(r.ix, s, _after_direct_filler(s, b, kw))[0] is None:
            continue  # 问题, 投降, 出局: an ordinary word, unless a name follows directly (出掉5号 too)
        if in_prose and r.jargon.inside(a, b):
            continue  # 查杀5号: a seer's result, never a kill
        r.work.candidates += 1
        arity = V.ARITY[verb]
        if latin and _DETERMINER.search(s, max(0, a - 12), a):
            continue  # a vote on me, my vote: a noun
        if (arity in (V.NONE, V.FREE) or (fixed is not None and latin)) and (
                in_prose or not r.clause_start(a, latin) or (arity != V.FREE and not r.clause_end(b))):
            continue
        result, direct = r.read(verb, fixed, kw, a, b)
        if (in_prose or kw in V.DIRECT_ONLY) and not direct:
            continue
        last_end = b
        if isinstance(result, Command):
            frame = r.frame_of(a, b, kw, verb)
            if frame is not None:
                if not (frame == "negation" and verb in V.VOTE_FAMILY - {"vote"}):
                    out.add_framed(frame, result, r.quote(a))
                continue
            out.add(result, _BARE if arity == V.NONE else _COMPLETE, a)
        else:
            explicit = r.clause_start(a, latin) or s[b:b + 8].lstrip(" \t").startswith(":")
            if not explicit or r.frame_before(a, kw) is not None:
                continue
            out.add(result, _ERROR, a)
            out.last_vote_at = (verb, fixed, kw, a, b, None)
            r.quiet = True
        if out.done():
            break
    return _finish(r, out)


def _line_candidates(r: _Reader):
    """Line starts (after any marks) in text order: (position, mark)."""
    s = r.s
    for m in _LINE_MARKS.finditer(s):
        lead = m.group(1)
        if "【" in lead:
            yield m.end(), "bracket"
        elif "#" in lead or "%" in lead:
            yield m.end(), "hash"
        elif "!" in lead:
            yield m.end(), "bang"
        elif "/" in lead:
            yield m.end(), "slash"
        elif m.end() in r.t.bold:
            yield m.end(), "bold"
        else:
            fp = _FIRST_PERSON.match(s, m.end()) if s[m.end():m.end() + 1] in _FP_FIRST else None
            if fp and V.KEYWORD_RE.match(s, fp.end()):
                yield fp.end(), "person"
            yield m.end(), "line"
        if m.end() >= len(s):
            break


def _thread_candidates(r: _Reader, marks: frozenset[str]):
    """The marked places of a thread post, lazily in text order: (position of the keyword, mark)."""
    s = r.s
    sources = [_line_candidates(r), ((m.end(), "hash") for m in _HASH_MID.finditer(s)),
               ((p, "bold") for p in sorted(r.t.bold))]
    if "clause" in marks:
        c = _LAST_CLAUSE.search(s)
        if c:
            p = c.end() + len(s[c.end():]) - len(s[c.end():].lstrip())
            fp = _FIRST_PERSON.match(s, p)
            sources.append(iter([(fp.end() if fp and V.KEYWORD_RE.match(s, fp.end()) else p, "clause")]))
    last = -1
    for p, mk in heapq.merge(*sources):
        if p == last or (mk if mk != "person" else "line") not in marks:
            continue
        last = p
        yield p, mk


def _with_votes_after_unvotes(candidates, after_unvote: list[int], s: str):
    """The thread candidates, and right after an unvote the keyword that follows it on its line
    (``[b]Unvote Vote Olinea[/b]``: the vote is read too, with the unvote's mark)."""
    for a, mark in candidates:
        yield a, mark
        while after_unvote:
            m = _AFTER_UNVOTE.match(s, after_unvote.pop())  # matches the empty string at worst
            if m and m.end() < len(s) and s[m.end()] != "\n":
                yield m.end(), mark


def _whole_line(s: str, b: int) -> bool:
    """Whether the line after ``b`` is short and one clause (the command is the whole line)."""
    nl = s.find("\n", b, b + FIRST_PERSON_REST + 1)
    rest = s[b:nl if nl >= 0 else b + FIRST_PERSON_REST + 1]
    return len(rest) <= FIRST_PERSON_REST and not any(c in V.CLAUSE_BREAKS for c in rest.rstrip("。.!！~ \t"))


def _line_is_short(s: str, b: int, words: int = 1) -> bool:
    """Whether the rest of the line after ``b`` is ``words`` words at most, and no question."""
    nl = s.find("\n", b, b + 80)
    rest = s[b:nl if nl >= 0 else b + 80].strip(" \t:")
    return len(rest.split()) <= words and "?" not in rest and len(rest) < 40


def _self_word_vote(cmd: Command) -> bool:
    """Whether ``cmd`` names its sender with a self word (``Vote me then.``: a dare, not a ballot); a
    self-vote by name (``投 carol``, written by carol) is a ballot like any other."""
    return any(rd.written.casefold() in V.SELF_WORDS or rd.written in V.SELF_WORDS for rd in cmd.readings)


def _thread(r: _Reader, marks: frozenset[str], verbs: frozenset[str] | None) -> Command | ParseError:
    s = r.s
    out = _Outcome()
    after_unvote: list[int] = []  # where an unvote ended: a vote may follow it on the line (Unvote Vote X)
    if "tag" in marks:
        for m in _VOTE_TAG.finditer(s):
            if r.work.candidates >= MAX_CANDIDATES:
                break
            r.work.candidates += 1
            tag = m.group(1)
            verb = "vote" if tag in ("vote", "v") else "unvote"
            if verbs is not None and verb not in verbs:
                continue
            if verb == "unvote":
                out.add(Command("unvote"), _COMPLETE, m.start())
                continue
            result, _ = r.read("vote", None, "vote", m.start(2), m.start(2))
            out.add(result, _COMPLETE if isinstance(result, Command) else _ERROR, m.start())
    for a, mark in _with_votes_after_unvotes(_thread_candidates(r, marks), after_unvote, s):
        if r.work.candidates >= MAX_CANDIDATES:
            break
        k = V.KEYWORD_RE.match(s, a)
        if k is None or r.names.inside(a, k.end()):
            continue
        r.work.candidates += 1
        kw, b = k.group(), k.end()
        verb, fixed = V.KEYWORDS[kw]
        if verbs is not None and verb not in verbs and not (verb == "nolynch" and "vote" in verbs):
            continue
        arity = V.ARITY[verb]
        latin = V.is_latin(kw)
        if arity == V.NONE and not r.clause_end(b):
            continue
        if arity == V.FREE and mark in ("line", "person", "clause") and not _line_is_short(s, b, 2):
            continue  # UNVOTE RIGHT NOW YOU… : shouting at someone, not a command
        if latin and b < len(s) and s[b].isalnum():
            continue
        nxt = _TARGET_NEXT_LINE.match(s, b)
        arg = nxt.end() if nxt and arity == V.TARGETS else None
        result, direct = r.read(verb, fixed, kw, a, b, arg)
        if kw in V.DIRECT_ONLY and not direct:
            continue
        if isinstance(result, Command):
            nl = s.find("\n", b, b + 120)
            rest = s[b:nl if nl >= 0 else b + 120]
            if r.frame_of(a, b, kw, verb) is not None or (arity == V.TARGETS and (
                    (mark in ("line", "person", "clause") and frames.appeal(rest))
                    or (mark in ("line", "person") and verb == "vote" and _self_word_vote(result))
                    or (mark == "person" and not _CLAUSE_DONE.match(s, r.arg_end)))):
                continue  # 投了3号, vote X?, 投张三是不可能的, Vote X with me, Vote me then: chat
            out.add(result, _BARE if arity == V.NONE else _COMPLETE, a)
            if verb == "unvote":
                after_unvote.append(b)
        elif mark in _EXPLICIT_MARKS or (mark == "line" and _line_is_short(s, b)):
            out.add(result, _ERROR, a)
            out.last_vote_at = (verb, fixed, kw, a, b, arg)
            r.quiet = True
    return _finish(r, out)


def parse_counted(text: str, roster: Roster, *, sender_seat: int | None = None, channel: str = "pm",
                  marks: tuple[str, ...] | frozenset[str] | None = None,
                  verbs: frozenset[str] | set[str] | None = None) -> tuple[Command | ParseError, Work]:
    """:func:`parse`, and the :class:`Work` it did (for the bounded-work tests and benchmarks)."""
    work = Work()
    r = _Reader(text, roster, sender_seat, work)
    if channel == "thread":
        accepted = frozenset(THREAD_MARKS if marks is None else marks)
        return _thread(r, accepted, None if verbs is None else frozenset(verbs)), work
    if channel != "pm":
        raise ValueError(f"unknown channel {channel!r}: 'pm' or 'thread'")
    result = _pm(r)
    if isinstance(result, ParseError) and result.code == "no_command":
        verb = misspelled(r.s)
        if verb is not None:
            return ParseError("did_you_mean", verb, meant=Command(verb)), work
    return result, work


#: The no-argument questions a misspelling is read as (the judge asks "did you mean …?").
MISSPELT_VERBS = ("status", "help")
#: A message longer than this (letters and digits only) is never read as a misspelled question.
MISSPELT_MAX = 8
_NOT_LETTERS = re.compile(r"[\W_]+")
_MISSPELT_KEYWORDS = tuple(sorted((kw, verb) for kw, (verb, fixed) in V.KEYWORDS.items()
                                  if verb in MISSPELT_VERBS and fixed is None))


def misspelled(canonical: str) -> str | None:
    """The no-argument question (:data:`MISSPELT_VERBS`) a short message with no command in it was
    probably meant as, or None. ``canonical``: the normalised message. Spaces and punctuation are
    dropped; then a Latin keyword of 4 letters or more one edit away (``stauts``, ``statsu``, ``hlep``:
    insert, delete, substitute, swap two neighbours), or a CJK keyword written with two characters more
    or one changed (``状态查询``, ``状况``, ``求助``), is taken; never an ordinary word holding the keyword
    (``状态不好``: :data:`~forumbot.language.vocabulary.NOT_COMMANDS`)."""
    compact = _NOT_LETTERS.sub("", canonical)
    if not compact or len(compact) > MISSPELT_MAX:
        return None
    for kw, verb in _MISSPELT_KEYWORDS:
        if V.is_latin(kw):
            if len(kw) >= 4 and " " not in kw and compact.isascii() and OSA.distance(compact, kw) <= 1:
                return verb
        elif (kw in compact and len(compact) - len(kw) <= 2
              and not any(kw in w and w in compact for w in V.NOT_COMMANDS)) or (
                len(kw) == 2 == len(compact) and not compact.isascii() and OSA.distance(compact, kw) <= 1):
            return verb
    return None


#: what a self reference is written as: the only places the sender's seat is read (:func:`names_sender`)
_SELF_TEXTS = (*V.SELF_WORDS, *V.SELF_WORDS_SAVE, *sorted(V.SELF_KEYWORDS))


def names_sender(text: str) -> bool:
    """Whether the reading of ``text`` can depend on who sent it: a self reference (自己, me, 救我, 自救) is written
    in its canonical form. When it is not, :func:`parse` reads ``text`` the same for any ``sender_seat`` (the
    sender is read only at a self reference), so a memo of readings may share one reading between senders."""
    s = normalize_message(text).s
    return any(w in s for w in _SELF_TEXTS)


def parse(text: str, roster: Roster, *, sender_seat: int | None = None, channel: str = "pm",
          marks: tuple[str, ...] | frozenset[str] | None = None,
          verbs: frozenset[str] | set[str] | None = None) -> Command | ParseError:
    """Read one command from a forum message.

    ``text``: the message as posted (any string; quotes, signatures, formatting, full-width forms,
    traditional characters and pinyin marks are handled; the whole message is read).
    ``roster``: the players names are read against. ``sender_seat``: the sender's seat, for 自己 / me /
    myself (None: such words are unknown names). ``channel``: "pm" (a private message to the judge:
    business, read tolerantly) or "thread" (a post in the game thread: chat unless marked).
    ``marks``: for the thread, the marks that make a command (default: all of :data:`THREAD_MARKS`;
    a season uses :data:`DEFAULT_THREAD_MARKS` for its locale unless configured). ``verbs``: for the
    thread, the verbs the game takes there (None: all); other verbs in a thread post are chat.

    Returns a :class:`Command` (targets are roster seats, in written order, repeats kept;
    ``readings`` say how each was read) or a :class:`ParseError` with code no_command, unclear,
    unknown_name, ambiguous_name (``candidates``: roster seats), missing_target, bad_number or
    bad_argument. Raises ValueError only for an unknown ``channel``. The module docstring says which
    verb wins in a mixed message.
    """
    return parse_counted(text, roster, sender_seat=sender_seat, channel=channel, marks=marks, verbs=verbs)[0]
