"""Text a GBK forum can show: every character GBK lacks is replaced by one it has, or marked.

A GBK Discuz! X3.5 cannot store characters outside GBK, and it escapes every ``&``: a character sent
as a numeric entity (``&#128512;`` for 😀, ``&#8364;`` for €) is shown literally as that code, on the
mobile API and on the web page alike (captures ``gbk/``). So on a GBK site the bot sends only what GBK
carries: the symbols its templates use get a GBK look-alike (✓ → √, ✗ → ×, ♥ → 心), other characters
their compatibility form when GBK has it (full-width/ligature forms), a few their usual spelling
(€ → EUR, ½ → 1/2), invisible ones (variation selectors, zero-width joiners) are dropped, and the rest
(emoji, rare CJK) become □: marked, never garbled.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

#: What GBK shows for characters it lacks: the symbols of the bot's templates first.
SYMBOLS = {
    "✓": "√", "✔": "√", "☑": "√", "✗": "×", "✘": "×", "✕": "×", "☒": "×",
    "♥": "心", "❤": "心", "♡": "心",
    "€": "EUR", "½": "1/2", "¼": "1/4", "¾": "3/4", "©": "(C)", "®": "(R)", "™": "(TM)",
    "–": "-", "‐": "-", "‑": "-", "•": "·", "‧": "·", "⋯": "…",
}
#: The mark of a character GBK cannot show at all.
MARK = "□"
#: ``forumbot.render.escape`` writes "[" + ZERO WIDTH SPACE in BBCode so that no tag can start; GBK has no
#: ZERO WIDTH SPACE, so there the bracket becomes the full-width one, which starts no tag either.
_ESCAPED_BRACKET = "[\u200b"


def gbk_safe(text: str) -> str:
    """``text`` with only characters GBK can encode (see the module docstring); GBK text is unchanged."""
    text = text.replace(_ESCAPED_BRACKET, "［")
    try:
        text.encode("gbk")
        return text
    except UnicodeEncodeError:
        return "".join(_char(ch) for ch in text)


@lru_cache(maxsize=4096)
def _char(ch: str) -> str:
    if _encodable(ch):
        return ch
    if ch in SYMBOLS:
        return SYMBOLS[ch]
    if unicodedata.category(ch) in ("Mn", "Me", "Cf") or 0xFE00 <= ord(ch) <= 0xFE0F:
        return ""  # combining marks, joiners, variation selectors: nothing to show
    compat = unicodedata.normalize("NFKC", ch)
    if compat != ch and _encodable(compat):
        return compat
    base = unicodedata.normalize("NFKD", ch)[:1]
    if base != ch and base.isascii() and base.isalpha():
        return base  # ő → o: a letter GBK lacks keeps its base letter
    return MARK


def _encodable(text: str) -> bool:
    try:
        text.encode("gbk")
    except UnicodeEncodeError:
        return False
    return True
