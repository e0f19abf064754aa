"""Text normalisation for the command parser.

Messages and roster names are both brought to one canonical form before any matching:
NFKC (full-width ＡＢＣ１２３：， become ABC123:,), casefold, traditional -> simplified (OpenCC
``t2s``, applied character by character so a name converts the same way whatever text surrounds
it), and the ``字(zì)`` pinyin marks that GB->Big5 converters leave are removed. For messages, quoted
text and forum signatures are removed as well.

The canonical text keeps, for every character, the index of the original character it came from,
so errors and free arguments (a substitute's account name) can be reported exactly as typed.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left
from dataclasses import dataclass
from functools import lru_cache

import opencc

#: Only this much of a raw message is read: far more than any forum allows in one post (Discuz! and
#: phpBB default to 10,000-60,000 characters), so a whole post is always read; it bounds the work.
MAX_RAW_CHARS = 100_000


@lru_cache(maxsize=1)
def _t2s() -> opencc.OpenCC:
    return opencc.OpenCC("t2s")


@lru_cache(maxsize=8192)
def _fold_char(c: str) -> str:
    """Canonical form of one character: NFKC, casefold, traditional -> simplified."""
    out = unicodedata.normalize("NFKC", c).casefold()
    if out.isascii():
        return out
    return "".join(_t2s().convert(ch) if ord(ch) >= 0x2E80 else ch for ch in out)


# A pinyin mark right after a CJK character: 數(shù), 殺(shā). Latin letters only, short.
_PINYIN = re.compile(r"(?<=[\u3400-\u9fff])\([a-zàáâãäāăǎèéêëēěìíîïīǐòóôõöōǒùúûüūǔǖǘǚǜńňǹḿ]{1,7}\)")
# Quote blocks: BBCode [quote]/[quote=x], and HTML <blockquote>, possibly nested.
_QUOTE_TAG = re.compile(r"\[(/?)quote(?:=[^\]\n]*)?\]|<(/?)blockquote[^>]*>")
# Signature separators: a line that is only "--" / "-- " / "——" (or a vBulletin underscore rule).
_SIGNATURE = re.compile(r"^[ \t]*(?:--|——|_{5,})[ \t]*$", re.MULTILINE)
# A line opening a quote in the newsmth / 【引用】 style, or a Discuz "引用 X 发表于" header.
_QUOTE_HEADER = re.compile(r"^\s*(?:【\s*(?:引用|在|quote)|引用.*发表于)")


# Formatting markup that carries no words: BBCode tags (also the broken ``/b]`` players type),
# Markdown bold and strike marks. Bold is dropped too, but where it opened is kept (``Text.bold``):
# bold is one of the marks that make a thread line a command.
_FORMAT_TAG = re.compile(
    r"\[/?(?:b|i|u|s|strike|color|size|font|align|center|left|right|url|highlight|backcolor|spoiler|"
    r"indent|sup|sub)(?:=[^\]\n]{0,80})?\]|(?<!\[)/b\]|\*\*|__|~~"
)
_BOLD_OPEN = re.compile(r"\[b\]|\*\*|__")


# A character that can begin something normalize_message drops: a tag, a quote mark or header, a
# signature rule, a pinyin mark, Markdown bold or strike.
_SPECIAL = re.compile(r"[\[<>【:\-—_*~(/引]")


@dataclass(frozen=True)
class Text:
    """A message in canonical form. ``s``: the canonical text; ``orig``: the message as received;
    ``idx[i]``: the index in ``orig`` of the character ``s[i]`` came from; ``bold``: the positions in
    ``s`` where bold text began (its markup removed)."""

    s: str
    orig: str
    idx: tuple[int, ...]
    bold: frozenset[int] = frozenset()

    def written(self, start: int, end: int) -> str:
        """The original characters behind ``s[start:end]``, stripped (what the player typed)."""
        seen: list[int] = []
        for i in self.idx[start:end]:
            if not seen or seen[-1] != i:
                seen.append(i)
        return "".join(self.orig[i] for i in seen).strip()


def fold(text: str) -> str:
    """Canonical form of a short string (a roster name, a keyword): folded, pinyin marks removed,
    whitespace runs collapsed to one space, stripped."""
    s = "".join(_fold_char(c) for c in text)
    s = _PINYIN.sub("", s)
    return " ".join(s.split())


def _drop(s: str, idx: list[int], spans: list[tuple[int, int]]) -> tuple[str, list[int]]:
    """Remove the characters in ``spans`` (sorted, non-overlapping) from ``s`` and ``idx``."""
    if not spans:
        return s, idx
    keep_s: list[str] = []
    keep_i: list[int] = []
    pos = 0
    for a, b in spans:
        keep_s.append(s[pos:a])
        keep_i.extend(idx[pos:a])
        pos = max(pos, b)
    keep_s.append(s[pos:])
    keep_i.extend(idx[pos:])
    return "".join(keep_s), keep_i


def _quote_spans(s: str) -> list[tuple[int, int]]:
    """Spans of [quote]...[/quote] and <blockquote> blocks; an unclosed one runs to the end."""
    spans: list[tuple[int, int]] = []
    depth, start = 0, 0
    for m in _QUOTE_TAG.finditer(s):
        closing = bool(m.group(1) or m.group(2))
        if not closing:
            if depth == 0:
                start = m.start()
            depth += 1
        elif depth > 0:
            depth -= 1
            if depth == 0:
                spans.append((start, m.end()))
        # a stray closing tag is left alone: it carries no command anyway
    if depth > 0:
        spans.append((start, len(s)))
    return spans


# A line that may be part of a quote: "> ..." , a 【引用】 / "引用 X 发表于" header, or ": ..." (a quoted
# line under such a header). Only these lines are looked at, so the work is one regex pass.
_QUOTE_LINE = re.compile(r"(?m)^([ \t]*)(>|:|【\s*(?:引用|在|quote)|引用.*发表于)")


def _line_spans(s: str) -> list[tuple[int, int]]:
    """Spans of quoted lines (``> ...``, 【引用】 headers and the ``: ...`` lines right after them) and
    of the signature (from its separator line to the end)."""
    spans: list[tuple[int, int]] = []
    sig = _SIGNATURE.search(s)
    end = sig.start() if sig else len(s)
    if sig:
        spans.append((sig.start(), len(s)))
    header_until = -1  # ": ..." lines count while they follow a header directly
    for m in _QUOTE_LINE.finditer(s, 0, end):
        start = m.start()
        nl = s.find("\n", start, end)
        line_end = end if nl < 0 else nl
        mark = m.group(2)
        if mark == ">":
            spans.append((start, line_end))
        elif mark == ":":
            if start == header_until:
                spans.append((start, line_end))
                header_until = line_end + 1
        else:  # a 【引用】 or "引用 X 发表于" header
            spans.append((start, line_end))
            header_until = line_end + 1
    spans.sort()
    return spans


def normalize_message(text: str) -> Text:
    """Canonical form of a message, with quotes, signatures and pinyin marks removed.

    Formatting markup (BBCode tags but vote tags, Markdown bold) is removed as well; where bold began
    is kept in ``Text.bold``. Never raises; any ``str`` is accepted (only the first MAX_RAW_CHARS are
    read). Work is linear in the length of the text.
    """
    orig = text[:MAX_RAW_CHARS]
    table = {ord(c): _fold_char(c) for c in set(orig)}
    s = orig.translate(table)
    if all(len(f) == 1 for f in table.values()):  # each character folds to one: positions are kept
        idx: list[int] = list(range(len(orig)))
    else:
        parts: list[str] = []
        idx = []
        for i, c in enumerate(orig):
            f = table[ord(c)]
            parts.append(f)
            idx.extend([i] * len(f))
        s = "".join(parts)
    s = s.replace("\r\n", " \n").replace("\r", "\n")
    if not _SPECIAL.search(s):  # nothing to drop (most messages): skip the passes below
        return Text(s, orig, tuple(idx))
    s, idx = _drop(s, idx, _quote_spans(s))
    s, idx = _drop(s, idx, _line_spans(s))
    s, idx = _drop(s, idx, [m.span() for m in _PINYIN.finditer(s)])
    tags = [m.span() for m in _FORMAT_TAG.finditer(s)]
    opened = [idx[b] if b < len(idx) else len(orig) for a, b in tags if _BOLD_OPEN.fullmatch(s, a, b)]
    s, idx = _drop(s, idx, tags)
    bold = frozenset(bisect_left(idx, o) for o in opened)
    return Text(s, orig, tuple(idx), bold)
