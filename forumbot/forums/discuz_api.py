"""Discuz! mobile API answers → Python: the envelope, the refusals as typed errors, and text as meant.

Every answer of ``api/mobile/index.php`` is ``{"Version", "Charset", "Variables": {...}, "Message":
{"messageval", "messagestr"}}`` with every value a string; a closed API answers ``{"error":
"mobile_is_closed"}``; some failures (a stale formhash, X3.5's version-4 login) answer HTTP 503 with an
HTML page. :func:`parse_answer` turns a response into an :class:`Answer`; :func:`refusal` turns a
``messageval`` into the error to raise.
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass, field
from typing import Any

import httpx
from bs4 import BeautifulSoup

from forumbot.forums.errors import ForumError, NoSuchUser, NotAllowed, NotFound, RateLimited, SendFailed
from forumbot.forums.html_text import html_to_text

API = "/api/mobile/index.php"

#: Seconds from the answer to one write to the next write. Discuz!'s ``floodctrl`` and UCenter's
#: ``pmfloodctrl`` are 15 s by default, but both compare whole seconds: on a real X3.5 a write 15.0 s after
#: the previous one is refused (``post_flood_ctrl``, ``message_can_not_send_2``) and one 16.0 s after goes
#: through. Counted from the answer, 16 s is always enough: the server stamped the previous write before
#: answering, so the next one reaches it at least 16 whole seconds later.
FLOOD_SECONDS = 16.0


def conversations_allowed(limit: int) -> int:
    """Conversations the judge can write in within 24 h when UCenter's ``privatepmthreadlimit`` is
    ``limit``: a real X3.5 lets a user write in ``limit + 1`` (the check counts before adding), after which
    new conversations *and* replies into existing ones are refused (``message_can_not_send_1``)."""
    return limit + 1 if limit > 0 else 0


class ConversationLimit(SendFailed):
    """UCenter's ``privatepmthreadlimit``: the judge wrote in as many conversations as allowed in 24 h.

    Handled by the runtime like any :class:`SendFailed` (kept, retried later, organisers told); the
    limit frees up within a day, so a retry is due an hour later by default."""

    def __init__(self, message: str, reason: str = "", retry_after_seconds: float | None = 3600.0):
        super().__init__(message, reason, retry_after_seconds)


class MobileApiClosed(NotAllowed):
    """The site's administrator has switched the mobile API (the "mobile" plugin) off."""


@dataclass(frozen=True)
class Answer:
    """One API answer. ``status`` is the HTTP status; ``json`` is false for an HTML (error) page, then
    ``page`` holds its text. ``messageval`` is ``""`` when the answer carries no Message."""

    status: int
    json: bool
    variables: dict[str, Any] = field(default_factory=dict)
    messageval: str = ""
    charset: str = ""
    version: str = ""
    error: str = ""
    page: str = ""

    @property
    def uid(self) -> int:
        """``member_uid`` (0 for a guest or when absent)."""
        return to_int(self.variables.get("member_uid"))

    @property
    def formhash(self) -> str:
        return str(self.variables.get("formhash") or "")

    @property
    def stale_formhash(self) -> bool:
        """An HTML page refusing the request as tainted: Discuz!'s answer to a wrong formhash."""
        text = self.page.lower()
        return not self.json and ("request_tainting" in text or "非法字符" in self.page or "illegal" in text)


def to_int(value: Any, default: int = 0) -> int:
    """Discuz! sends numbers as strings (or null): ``int`` of it, ``default`` when not a number."""
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return default


def decode(response: httpx.Response) -> str:
    """The body as text: UTF-8 (the API always answers UTF-8), else GB18030 (a GBK site's HTML page)."""
    body = response.content
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        return body.decode("gb18030", errors="replace")


def parse_answer(response: httpx.Response) -> Answer:
    """The :class:`Answer` of ``response``; an HTML page or unparsable body gives ``json=False``."""
    text = decode(response)
    try:
        data = json.loads(text)
    except ValueError:
        page = BeautifulSoup(text, "lxml").get_text(" ", strip=True) if "<" in text else text
        return Answer(response.status_code, False, page=" ".join(page.split())[:2000])
    if not isinstance(data, dict):
        return Answer(response.status_code, False, page=text[:2000])
    variables, message = data.get("Variables"), data.get("Message")
    variables = variables if isinstance(variables, dict) else {}
    message = message if isinstance(message, dict) else {}
    return Answer(
        response.status_code,
        True,
        variables=variables,
        messageval=str(message.get("messageval") or ""),
        charset=str(data.get("Charset") or ""),
        version=str(data.get("Version") or ""),
        error=str(data.get("error") or ""),
    )


_FLOOD = {"post_flood_ctrl", "message_can_not_send_2", "pm_flood_ctrl", "post_flood_ctrl_posts_per_hour"}
_NEWBIE = {"no_privilege_newbiespan", "post_newbie_span"}
_CAPTCHA = {"submit_seccode_invalid", "submit_secqaa_invalid", "login_seccheck2", "seccode_invalid"}
_LOGIN_NEEDED = {"to_login", "login_before_enter_home", "not_loggedin", "nologin", "group_nopermission_guest"}


def is_login_needed(answer: Answer) -> bool:
    """The answer says the session is a guest's (expired or never logged in)."""
    return answer.messageval in _LOGIN_NEEDED or ("login" in answer.messageval and "nopermission" in answer.messageval)


def refusal(answer: Answer, what: str, *, flood_wait: float, newbie_wait: float = 120.0) -> ForumError:
    """The error for a write that the forum refused with ``answer.messageval``.

    ``what`` names the action for the message ("the reply in thread 3"). Flood control and the new
    account wait are :class:`RateLimited` (``flood_wait``/``newbie_wait`` seconds); the conversation
    limit :class:`ConversationLimit`; a missing thread/board :class:`NotFound`; an unknown recipient
    :class:`NoSuchUser`; permissions and captcha :class:`NotAllowed`; anything else :class:`SendFailed`.
    """
    val = answer.messageval or answer.error or f"HTTP {answer.status}"
    if answer.error == "mobile_is_closed":
        return closed_error()
    if val in _FLOOD:
        return RateLimited(f"{what} was refused by the forum's flood control ({val}): wait {flood_wait:g} s", flood_wait)
    if val in _NEWBIE:
        return RateLimited(
            f"{what} was refused: the judge's account is too new to post or send messages ({val}); "
            "the forum's newbiespan must pass, or the account's group be exempted", newbie_wait)
    if val == "message_can_not_send_1":
        return ConversationLimit(
            f"{what} was refused: the judge has written in as many private conversations as the forum allows "
            "in 24 hours (UCenter's privatepmthreadlimit, 25 by default); ask the administrator to raise it "
            "(UCenter → 短消息设置) or wait a day", val)
    if val in _CAPTCHA:
        return NotAllowed(
            f"{what} was refused: the forum asks the judge's account for a captcha ({val}); ask the administrator "
            "to switch the posting captcha off or exempt the judge's user group from it (防灌水 → 验证码)")
    if "nonexistence" in val or "not_exist" in val or val in ("thread_nonexistence", "forum_nonexistence"):
        return NotFound(f"{what} was refused: {val} (the thread or board does not exist or is hidden)")
    if val == "message_can_not_send_8":
        return SendFailed(f"{what} was refused: {val} (a private message to itself: the judge cannot be its own "
                          "recipient)", val)
    if val.startswith("message_bad_to") or "user_not_exist" in val:  # captures utf8-errors/016: no such account
        return NoSuchUser(f"{what} was refused: {val} (no account of that name)", val)
    if val == "message_can_not_send_onlyfriend":
        return SendFailed(f"{what} was refused: {val} (the recipient accepts messages from friends only)", val)
    if "nopermission" in val or "no_privilege" in val or "closed" in val or "banned" in val or "not_allow" in val:
        return NotAllowed(f"{what} was refused: the judge's account may not do it ({val}); check its user group")
    return SendFailed(f"{what} was refused by the forum ({val})", val)


def closed_error() -> MobileApiClosed:
    """The error for ``{"error": "mobile_is_closed"}``."""
    return MobileApiClosed(
        "the forum's mobile API is switched off (mobile_is_closed); ask the administrator to enable the "
        "手机版/掌上论坛 (mobile) plugin: 应用 → 插件 → 掌上论坛 → 启用")


# -- text as meant ----------------------------------------------------------------------------------

# smilies: X3.5's mobile API writes <img src="http://HOST/static/image/smiley/default/smile.gif" /> (an
# absolute URL, no smilieid); the web page adds smilieid
_SMILEY = re.compile(r"<img[^>]*(?:\bsmilieid=|/static/image/smiley/)[^>]*>", re.I)
_EDITED = re.compile(r"<i\s+class=\"?pstatus\"?[^>]*>.*?</i>", re.I | re.S)


def post_text(message: str) -> tuple[str, bool]:
    """(text a player meant, edited?) of a thread post's ``message`` (rendered HTML, entities escaped twice).

    Quotes, smilies, attachments, signatures and the "本帖最后由 … 编辑" note are dropped. X3.5's mobile API
    renders ``[quote]`` as ``<div class="reply_wrap">`` (the web page as ``div.quote > blockquote``): both
    are quotes, so a quoted command is never read as the poster's own. ``[table]`` comes out malformed
    (``<tr><td>A</td></tr><td>B</td></tr>``): each cell still becomes its own line, in order. The mobile API
    never shows the "edited" note, so ``edited`` is true only on the web page's HTML.
    """
    edited = bool(_EDITED.search(message))
    cleaned = _EDITED.sub("", message)
    cleaned = _SMILEY.sub("", cleaned)
    cleaned = _drop_quotes(cleaned)
    text = html_to_text(cleaned)
    return html.unescape(text), edited


def _drop_quotes(message: str) -> str:
    if "<" not in message:
        return message
    soup = BeautifulSoup(message, "lxml")
    for node in soup.select("div.quote, div.reply_wrap, div.blockquote, div.sign, div.pstatus, blockquote, "
                            "ignore_js_op"):
        node.decompose()
    body = soup.body
    return body.decode_contents() if body is not None else str(soup)


def pm_text(message: str) -> str:
    """The text of a private message's ``message`` (escaped once; newlines kept, quotes dropped)."""
    message = message.replace("\\'", "'")
    if not re.search(r"<(?:br|p|div)\b", message, re.I):
        message = message.replace("\r\n", "\n").replace("\n", "<br>")
    return html_to_text(_drop_quotes(_SMILEY.sub("", message)))


def plain(value: Any) -> str:
    """A short field (name, subject, summary) as text: entities decoded once, ``\\'`` undone."""
    return html.unescape(str(value or "")).replace("\\'", "'").strip()
