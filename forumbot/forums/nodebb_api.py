"""NodeBB 4 answers → Python: the ``/api/v3`` envelope, the refusals as typed errors, and text as meant.

Every ``/api/v3`` answer is ``{"status": {"code", "message"}, "response": {...}}``; the read routes
(``/api/topic/…``, ``/api/config``, ``/api/user/…``) answer the object itself. A refusal is an HTTP 4xx
whose ``status.message`` is NodeBB's error text in the language the request asks for: the adapter sends
``lang=en-GB`` with every request so that :func:`refusal` can read the English texts of
``public/language/en-GB/error.json`` ("You can only post once every 10 second(s)", …).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import httpx
from bs4 import BeautifulSoup

from forumbot.forums.errors import (
    ForumError,
    NoSuchUser,
    NotAllowed,
    NotFound,
    PostTooShort,
    RateLimited,
    SendFailed,
)
from forumbot.forums.html_text import html_to_text

#: Stock NodeBB anti-spam settings (``install/data/defaults.json``), seconds: ``postDelay``,
#: ``newbiePostDelay`` (while reputation < ``newbieReputationThreshold`` = 3), ``initialPostDelay``,
#: ``chatMessageDelay`` (2000 ms) and ``newbieChatMessageDelay`` (120000 ms).
POST_DELAY = 10.0
NEWBIE_POST_DELAY = 120.0
INITIAL_POST_DELAY = 10.0
CHAT_DELAY = 2.0
NEWBIE_CHAT_DELAY = 120.0
#: NodeBB's stock ``maximumChatMessageLength``: the limit when the forum does not say its own (``/api/config``);
#: a longer private message is sent as several chat messages
MAX_CHAT_LENGTH = 1000
#: ``minimumPostLength`` (characters, after trimming)
MIN_POST_LENGTH = 8
#: added to every delay counted from the answer (NodeBB stamps a write when it checks it, before answering,
#: and compares milliseconds of the same clock: the answer is always later than the stamp)
PACING_MARGIN = 0.2


@dataclass(frozen=True)
class Answer:
    """One answer: ``status`` (HTTP), ``code``/``message`` of the v3 envelope (empty for the read routes),
    ``data`` the ``response`` object (or the whole body of a read route); ``json`` false for a non-JSON
    body, then ``text`` holds its start."""

    status: int
    json: bool
    data: Any
    code: str = ""
    message: str = ""
    text: str = ""

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300


def parse_answer(response: httpx.Response) -> Answer:
    """The :class:`Answer` of ``response`` (never raises)."""
    try:
        body = json.loads(response.content.decode("utf-8", errors="replace") or "null")
    except ValueError:
        text = response.content.decode("utf-8", errors="replace")
        return Answer(response.status_code, False, None, text=" ".join(text.split())[:300])
    if isinstance(body, dict) and isinstance(body.get("status"), dict) and "response" in body:
        status = body["status"]
        return Answer(response.status_code, True, body.get("response"), str(status.get("code") or ""),
                      str(status.get("message") or ""))
    return Answer(response.status_code, True, body)


def to_int(value: Any, default: int = 0) -> int:
    """``int`` of a NodeBB number (sent as a number or a string), ``default`` when not one."""
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return default


_NUMBER = re.compile(r"(\d+)")


def _first_number(text: str, default: float) -> float:
    found = _NUMBER.search(text)
    return float(found.group(1)) if found else default


def refusal(answer: Answer, what: str, *, chat: bool = False) -> ForumError:
    """The error for a write that NodeBB refused (``answer.status`` 4xx, English ``answer.message``).

    ``what`` names the action for the message. Post delays (``postDelay``, ``newbiePostDelay``,
    ``initialPostDelay``) and chat delays (``chatMessageDelay``, ``newbieChatMessageDelay``) are
    :class:`RateLimited` with the wait NodeBB names (the chat refusal names none: 120 s, the newbie
    delay, when ``chat`` is true — the judge is known to be held to it — else the 2 s one); ``minimumPostLength`` :class:`PostTooShort`; a missing
    thread, post or room :class:`NotFound`; an unknown user :class:`NoSuchUser`; a recipient's chat
    settings, a block, a locked thread, missing privileges or reputation :class:`NotAllowed`; anything
    else :class:`SendFailed`.
    """
    text = answer.message or answer.text or f"HTTP {answer.status}"
    low = text.lower()
    if "as a new user, you can only post once every" in low:
        unit = 60.0 if "minute" in low else 1.0
        wait = _first_number(text, NEWBIE_POST_DELAY) * unit
        return RateLimited(
            f"{what} was refused: NodeBB's new-user delay ({text}); the judge's account needs reputation "
            "≥ newbieReputationThreshold, or membership of a group in groupsExemptFromNewUserRestrictions, or "
            "to be an administrator or a moderator of the category", wait)
    if "you can only post once every" in low:
        return RateLimited(f"{what} was refused by NodeBB's postDelay ({text})", _first_number(text, POST_DELAY))
    if "before making your first post" in low:
        return RateLimited(f"{what} was refused: the judge's account is too new ({text}: initialPostDelay)",
                           _first_number(text, INITIAL_POST_DELAY))
    if "sent too many messages" in low:
        return RateLimited(
            f"{what} was refused by NodeBB's chat delay ({text}): chatMessageDelay (2 s) or, for an account "
            "with reputation below newbieReputationThreshold that is not an administrator or moderator, "
            "newbieChatMessageDelay (120 s)", NEWBIE_CHAT_DELAY if chat else CHAT_DELAY + PACING_MARGIN)
    if "posts should contain at least" in low:
        least = int(_first_number(text, MIN_POST_LENGTH))
        return PostTooShort(f"{what} was refused: {text} (minimumPostLength {least})", "content-too-short",
                            min_length=least)
    if "user does not exist" in low or "no-user" in low:
        return NoSuchUser(f"{what} was refused: {text} (no account of that name)", text)
    if answer.status == 404 or "does not exist" in low or "no-room" in low:
        return NotFound(f"{what} was refused: {text} (the thread, post or chat room does not exist)")
    if "restricted their chat" in low or "blocked" in low:
        return SendFailed(f"{what} was refused: {text} (the recipient's chat settings refuse the judge; an "
                          "administrator or moderator judge is not refused)", text)
    if "chat with yourself" in low:
        return SendFailed(f"{what} was refused: {text}", text)
    if "reputation to chat" in low or "privileges" in low or "locked" in low or "banned" in low or \
            "muted" in low or "chat is disabled" in low or "not-allowed" in low or answer.status == 403:
        return NotAllowed(f"{what} was refused: {text}; check the judge's group, reputation and privileges")
    return SendFailed(f"{what} was refused by the forum ({text})", text)


# -- text as meant ----------------------------------------------------------------------------------

_SAID_IN = re.compile(r"\bsaid in\b.*:\s*$", re.DOTALL)


def post_text(content: str) -> str:
    """The text a player meant of a post's or chat message's ``content`` (NodeBB's rendered HTML).

    Quotes are dropped: Markdown ``>`` renders as ``<blockquote>``, and NodeBB's quote button writes
    "@alice said in [Thread](/post/5):" as a paragraph right before it, which goes too. Emoji images
    become their ``alt`` text; mentions keep their ``@name``.
    """
    if "<" not in content:
        return html_to_text(f"<p>{content}</p>")
    soup = BeautifulSoup(content, "lxml")
    for quote in soup.find_all("blockquote"):
        before = quote.find_previous_sibling()
        if before is not None and before.name == "p" and _SAID_IN.search(before.get_text(" ")):
            before.decompose()
        quote.decompose()
    body = soup.body
    return html_to_text(body.decode_contents() if body is not None else str(soup))


def chat_parts(subject: str, body: str, limit: int = MAX_CHAT_LENGTH) -> list[str]:
    """The chat messages of a private message: ``body`` headed by ``subject`` in bold (none when empty), in one
    message when it fits ``limit`` characters (the forum's ``maximumChatMessageLength``), else cut by
    :func:`split_chat` with each part headed by the subject and its number (``**subject** (2/3)``), so a
    player reading the second part still sees which season it belongs to. Raises ValueError when ``limit``
    leaves no room for the text after a header."""
    whole = f"**{subject}**\n\n{body}" if subject else body
    if len(whole.strip()) <= limit:
        return [whole.strip()]
    n = 2
    while True:  # the header's length depends on the number of parts (10+ parts: two digits)
        header = f"**{subject}** ({n}/{n})\n\n" if subject else f"({n}/{n})\n\n"
        room = limit - len(header)
        if room < 20:
            raise ValueError(f"a chat limit of {limit} characters leaves no room for the text")
        chunks = split_chat(body, room)
        if len(chunks) <= n:
            break
        n = len(chunks)
    total = len(chunks)
    return [(f"**{subject}** ({i}/{total})\n\n" if subject else f"({i}/{total})\n\n") + c
            for i, c in enumerate(chunks, 1)]


def split_chat(text: str, limit: int = MAX_CHAT_LENGTH) -> list[str]:
    """``text`` cut into chat messages of at most ``limit`` characters (NodeBB's
    ``maximumChatMessageLength``), at paragraph breaks, else line breaks, else spaces, else anywhere."""
    text = text.strip()
    parts: list[str] = []
    while len(text) > limit:
        window = text[:limit]
        cut = max(window.rfind("\n\n"), 0)
        if cut < limit // 3:
            cut = window.rfind("\n")
        if cut < limit // 3:
            cut = window.rfind(" ")
        if cut < limit // 3:
            cut = limit
        parts.append(text[:cut].rstrip())
        text = text[cut:].lstrip()
    if text:
        parts.append(text)
    return parts
