"""Which season a private message to a judge account belongs to, when several seasons share its inbox.

Two seasons judged by the same account on the same forum (``forumbot serve``) read the same inbox. Each
private message must be stored, applied and answered by exactly one of them: :func:`route` decides which,
from the message alone (sender, subject, body) and the seasons sharing the inbox, so every season reading
the inbox reaches the same decision and exactly one stores the message. The rules, in order:

1. **prefix** — the body begins with a season's name and a separator (``春季杀：投 3``, ``[春季杀] 投 3``,
   ``春季杀 投3``): that season, which parses the body without the name. It comes before the subject: it is
   typed in this very message, while a subject may be inherited from the conversation.
2. **subject** — the subject (after reply prefixes such as ``Re:``, ``回复：``) names exactly one of the
   seasons: that season. The judge's own private messages have the subject ``<season> · 法官`` (template
   ``common/pm_subject``), so a reply goes to the season that wrote. (Not on the engines of
   :data:`INHERITED_SUBJECTS`.)
3. **sender** — the sender plays in or organises exactly one of the seasons: that season.
4. **ask** — the sender is in several of the seasons: the first of them by name stores the message, applies
   nothing, and asks him (template ``common/which_season``) to name the season.
5. **stranger** — the sender is in none: the first season by name answers him, as a season read alone would.

Rules 3 to 5 count only the seasons that had started when the message was sent (by their configured
start; all of them when none had): a season whose start is weeks away neither takes a player's messages
from the season he is playing now nor keeps a stranger waiting for an answer until it starts. A message
that names a season (rules 1 and 2) goes to it whenever it starts.

Names are compared as the command parser compares them (:func:`forumbot.language.normalize.fold`: width,
case, traditional and simplified forms ignored). A name is found only as a whole: between the subject's
start or end and characters that are neither letters nor digits, so ``春季杀`` is not found in
``春季杀2 · 法官``, and where two names are found one inside the other (``Spring`` in ``Spring 2``), only the
longer counts.

Pure: no I/O, no clock. Deterministic: the result does not depend on the order of ``seasons``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from forumbot.language.normalize import fold, normalize_message

Rule = Literal["subject", "prefix", "sender", "ask", "stranger"]

#: forum engines on which every private message shows the subject its conversation began with, and one
#: conversation holds everything two accounts ever wrote to each other, whatever the season (Discuz!: the
#: captures show the first message's subject on each reply): there a subject names no season, and the
#: runtime routes with an empty one
INHERITED_SUBJECTS = frozenset({"discuz"})

# Reply and forward marks that forums and players put before a subject: Re:, RE[2]:, Fw:, 回复：, 答复, 转发:
# (folded: full-width and traditional forms are already their plain simplified forms).
_REPLY_PREFIX = re.compile(r"^\s*(?:(?:re|fwd?|aw|回复|回覆|答复|答覆|转发)\s*(?:\[\d+\]|\(\d+\))?\s*[:：]?\s*)+")
# What may close a name written in brackets at the start of a body, and what may follow a name.
_OPENERS = "[【「『(<《〔〖"
_CLOSERS = "]】」』)>》〕〗"
_SEPARATORS = ":,，、;；|/\\-—–~·.。!！"


@dataclass(frozen=True)
class InboxSeason:
    """A season reading a shared inbox: its ``name``, the forum accounts in it (``players``, in seat order
    as the season file lists them, and ``organisers``) and its configured ``start`` (aware UTC; None: it
    starts when it is first run, counted as started)."""

    name: str
    players: tuple[str, ...] = ()
    organisers: tuple[str, ...] = ()
    start: datetime | None = None

    def started_by(self, when: datetime | None) -> bool:
        """Whether the season had started at ``when`` (aware UTC; None: unknown, counted as started)."""
        return self.start is None or when is None or self.start <= when

    def has(self, account: str) -> bool:
        """Whether forum account ``account`` (exact, as the forum gives it) plays in or organises this season."""
        return account in self.players or account in self.organisers


@dataclass(frozen=True)
class Route:
    """Where a private message goes. ``season``: the name of the season that stores it (None only when no
    season shares the inbox); ``rule``: which rule decided (see the module's description); ``text``: the body
    that season parses (the body without its season prefix for rule ``prefix``); ``choices``: for rule
    ``ask``, the names of the sender's seasons, sorted."""

    season: str | None
    rule: Rule
    text: str
    choices: tuple[str, ...] = ()


def _name_pattern(name: str) -> re.Pattern[str]:
    """A season name, folded, with any run of white space where the name has one."""
    return re.compile(r"\s+".join(re.escape(part) for part in fold(name).split(" ")))


def _named_in_subject(subject: str, seasons: Sequence[InboxSeason]) -> set[str]:
    """The names of the seasons the subject names (whole names; a name inside a longer name found at the
    same place does not count)."""
    s = _REPLY_PREFIX.sub("", fold(subject))
    found: list[tuple[int, int, str]] = []
    for season in seasons:
        if not fold(season.name):
            continue
        for m in _name_pattern(season.name).finditer(s):
            a, b = m.span()
            if (a == 0 or not s[a - 1].isalnum() or not s[a].isalnum()) and \
                    (b == len(s) or not s[b].isalnum() or not s[b - 1].isalnum()):
                found.append((a, b, season.name))
    return {name for a, b, name in found
            if not any(a2 <= a and b <= b2 and (b2 - a2) > (b - a) for a2, b2, _ in found)}


def _body_prefix(body: str, seasons: Sequence[InboxSeason]) -> tuple[str, str] | None:
    """(season name, the body after it) when the body begins with a season's name and a separator (or the
    name in brackets); the longest such name wins. Quotes and markup before the name are passed over."""
    t = normalize_message(body)
    s = t.s
    lead = len(s) - len(s.lstrip())
    opener = s[lead] if lead < len(s) and s[lead] in _OPENERS else ""
    start = lead + len(opener)
    if opener:
        start += len(s[start:]) - len(s[start:].lstrip())
    best: tuple[int, str, int] | None = None  # (name length, season, end of the prefix in s)
    for season in seasons:
        if not fold(season.name):
            continue
        m = _name_pattern(season.name).match(s, start)
        if m is None:
            continue
        end = m.end()
        if opener:
            rest = s[end:]
            end += len(rest) - len(rest.lstrip())
            if end >= len(s) or s[end] not in _CLOSERS:
                continue
            end += 1
        elif end < len(s) and not (s[end].isspace() or s[end] in _SEPARATORS):
            continue  # a longer word (春季杀2), or a command written against the name: not a prefix
        # the separator itself, and the space after it
        while end < len(s) and (s[end].isspace() or s[end] in _SEPARATORS):
            end += 1
        length = m.end() - m.start()
        # the longest name; between names written alike once folded (春季杀, 春季殺), the first by name
        if best is None or length > best[0] or (length == best[0] and season.name < best[1]):
            best = (length, season.name, end)
    if best is None:
        return None
    _, name, end = best
    cut = t.idx[end] if end < len(t.idx) else len(t.orig)
    return name, body[cut:]


def route(sender: str, subject: str, body: str, seasons: Sequence[InboxSeason], sent_at: datetime | None = None) -> Route:
    """Which of ``seasons`` (the seasons sharing one judge account's inbox, their names distinct) stores the
    private message from forum account ``sender`` with ``subject`` and ``body``, sent at ``sent_at`` (aware
    UTC, as the forum states it; None: every season counts as started), and what it parses (see the module's
    description for the rules). The result is the same whatever the order of ``seasons``. Never raises; with
    no seasons, ``season`` is None."""
    if not seasons:
        return Route(None, "stranger", body)
    prefixed = _body_prefix(body, seasons)
    if prefixed is not None:
        return Route(prefixed[0], "prefix", prefixed[1])
    named = _named_in_subject(subject, seasons)
    if len(named) == 1:
        return Route(named.pop(), "subject", body)
    running = [s for s in seasons if s.started_by(sent_at)] or list(seasons)
    his = tuple(sorted(s.name for s in running if s.has(sender)))
    if len(his) == 1:
        return Route(his[0], "sender", body)
    if his:
        return Route(his[0], "ask", body, his)
    return Route(min(s.name for s in running), "stranger", body)
