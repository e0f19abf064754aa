"""Parsers of phpBB 3.3 pages (prosilver style, English language pack). Pure functions: HTML in, data out.

Each parser takes the page's HTML and its URL and raises :class:`LayoutChanged` (with the URL and what
was not found) when the page does not have the expected shape. phpBB has no JSON API: everything the
adapter knows comes from these pages (facts recorded live on phpBB 3.3.17, see docs/forums.md).

Refusals are recognised by phpBB's English sentences (``language/en``): the judge's account must use the
English language pack (UCP → Board preferences → language) for :func:`refusal` to classify them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone
from urllib.parse import parse_qs, urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bs4 import BeautifulSoup, Tag

from forumbot.forums.base import ThreadPost
from forumbot.forums.errors import LayoutChanged
from forumbot.forums.html_text import html_to_text


@dataclass(frozen=True)
class PageCommon:
    """What every page tells: the logged-in user (None for a guest), the form token of the page's form
    (``creation_time``, ``form_token``; None when it has none), the errors shown above a form
    (``div.error``), the text of an information / error box (``#message``), and the zone the page's
    written times are in (from "All times are ..."; None when the page does not say)."""

    user: str | None
    token: tuple[str, str] | None
    errors: tuple[str, ...]
    message: str
    zone: timezone | ZoneInfo | None


@dataclass(frozen=True)
class TopicPage:
    """One page of a topic: its posts oldest first, ``start`` (offset of its first post), the number of
    posts of the topic, the posts shown per page (0 when the topic has one page), and the URL of the next
    page (None on the last)."""

    common: PageCommon
    posts: tuple[ThreadPost, ...]
    start: int
    total: int
    per_page: int
    next_url: str | None
    forum_id: int | None
    locked: bool


@dataclass(frozen=True)
class FolderRow:
    """One private message in a folder list (inbox, outbox, sent): its id, subject, the other party."""

    message_id: int
    subject: str
    party: str


@dataclass(frozen=True)
class FolderPage:
    """A private message folder page, newest first; ``used``/``limit``: "Folder is N% full (used out of
    limit messages stored)" (None when not shown); ``next_url`` of the next page."""

    common: PageCommon
    rows: tuple[FolderRow, ...]
    used: int | None
    limit: int | None
    next_url: str | None


@dataclass(frozen=True)
class MessagePage:
    """One private message (``ucp.php?i=pm&mode=view&p=ID``): sender, recipients, subject, the minute
    it was sent (phpBB shows PM times to the minute), text (quotes removed) and rendered HTML."""

    common: PageCommon
    message_id: int
    sender: str
    recipients: tuple[str, ...]
    subject: str
    time_utc: datetime
    text: str
    raw_html: str


@dataclass(frozen=True)
class BoardRow:
    """One topic of a board's list: id, title, who opened it."""

    thread_id: int
    subject: str
    author: str


@dataclass(frozen=True)
class FormPage:
    """A page with a form: its ``action`` and the fields to send back (hidden inputs, checked boxes,
    text inputs and text areas), by name."""

    common: PageCommon
    action: str
    values: dict[str, str]


def attr(tag: Tag, name: str) -> str:
    """The attribute ``name`` of ``tag`` as text ("" when absent; a multi-valued one joined by spaces)."""
    value = tag.get(name)
    if value is None:
        return ""
    return value if isinstance(value, str) else " ".join(value)


def soup_of(html: str) -> BeautifulSoup:
    """Parses HTML with lxml."""
    return BeautifulSoup(html, "lxml")


def _text(node: Tag | None) -> str:
    return node.get_text(" ", strip=True) if node is not None else ""


def parse_common(soup: BeautifulSoup, url: str) -> PageCommon:
    """Reads the user menu, a form token, form errors, the message box and the time zone.

    Raises LayoutChanged when the page shows neither the logged-in user menu nor a login link."""
    menu = soup.select_one("#username_logged_in .username, #username_logged_in .username-coloured")
    if menu is not None:
        user: str | None = _text(menu)
    elif soup.select_one("a[href*='mode=login'], form#login, input[name=login]") is not None:
        user = None
    else:
        raise LayoutChanged(url, "the user menu '#username_logged_in' or a login link")
    created = soup.select_one("input[name=creation_time]")
    token = soup.select_one("input[name=form_token]")
    pair = (attr(created, "value"), attr(token, "value")) if created is not None and token is not None else None
    errors = tuple(e for e in (_text(n) for n in soup.select("p.error, div.error")) if e)
    box = soup.select_one("div#message")
    message = ""
    if box is not None:
        title = _text(box.select_one(".message-title, h2"))
        message = _text(box.select_one("p") or box)
        if title and title not in ("Information",) and not message.startswith(title):
            message = f"{title}: {message}"
    return PageCommon(user=user, token=pair, errors=errors, message=message, zone=_zone(soup))


def _zone(soup: BeautifulSoup) -> timezone | ZoneInfo | None:
    """The zone of "All times are <span title=ZONE>UTC+08:00</span>" in the footer."""
    for item in soup.select("li.rightside, p, div.copyright, li"):
        text = item.get_text(" ", strip=True)
        if not text.startswith("All times are"):
            continue
        span = item.select_one("span[title]")
        name = attr(span, "title") if span is not None else ""
        if name:
            try:
                return ZoneInfo(name)
            except (ZoneInfoNotFoundError, ValueError):
                pass
        match = re.search(r"UTC(?:([+-])(\d{1,2})(?::?(\d{2}))?)?", text)
        if match:
            if not match.group(1):
                return UTC
            offset = timedelta(hours=int(match.group(2)), minutes=int(match.group(3) or 0))
            return timezone(offset if match.group(1) == "+" else -offset)
    return None


def parse_common_page(html: str, url: str) -> PageCommon:
    """Any page: only what :func:`parse_common` reads."""
    return parse_common(soup_of(html), url)


def parse_time(value: str | None, url: str, what: str) -> datetime:
    """An ISO 8601 time (``<time datetime="2026-12-01T11:16:47+00:00">``) as an aware UTC datetime."""
    if not value:
        raise LayoutChanged(url, what)
    try:
        when = datetime.fromisoformat(value.strip())
    except ValueError:
        raise LayoutChanged(url, f"{what} (unreadable: {value!r})") from None
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


#: date formats of phpBB's English pack (``dateformats`` and the default ``D M d, Y g:i a``), as strptime
_WRITTEN_FORMATS = ("%a %b %d, %Y %I:%M %p", "%a %b %d, %Y %H:%M", "%d %b %Y, %H:%M", "%d %b %Y, %I:%M %p",
                    "%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S", "%a %b %d, %Y %I:%M:%S %p", "%a %b %d, %Y %H:%M:%S",
                    "%d %b %Y %H:%M", "%b %d, %Y %I:%M %p")


def parse_written_time(text: str, zone: timezone | ZoneInfo | None, url: str, what: str) -> tuple[datetime, float]:
    """A time as phpBB writes it for a person ("Tue Dec 01, 2026 11:20 am") in ``zone`` (UTC when None):
    (the earliest UTC instant it allows, the width of the window in seconds: 60 without seconds, else 1).
    Raises LayoutChanged for a format not known (set the judge's date format to a standard one)."""
    clean = " ".join(text.replace("\u00a0", " ").split())
    for fmt in _WRITTEN_FORMATS:
        try:
            local = datetime.strptime(clean, fmt)
        except ValueError:
            continue
        aware = local.replace(tzinfo=zone or UTC)
        return aware.astimezone(UTC), 1.0 if "%S" in fmt else 60.0
    raise LayoutChanged(url, f"{what} in a known date format (got {clean!r}; choose a standard date format "
                             "without 'Today/Yesterday' in the judge's board preferences)")


def query_int(url: str, name: str) -> int | None:
    """The integer argument ``name`` of a URL (``t``, ``p``, ``f``, ``start``...), None when absent."""
    values = parse_qs(urlsplit(url.replace("&amp;", "&")).query).get(name)
    return int(values[0]) if values and values[0].isdigit() else None


def post_id_from_url(url: str) -> int | None:
    """The post id of ``viewtopic.php?p=NNN#pNNN`` (a reply's redirect), None otherwise."""
    match = re.search(r"#p(\d+)$", url)
    return int(match.group(1)) if match else query_int(url, "p")


def _pagination(soup: BeautifulSoup, url: str) -> tuple[int, int, int, str | None]:
    """(items counted, the page shown, items per page (0 when one page), URL of the next page) of the
    first ``div.pagination``."""
    bar = soup.select_one("div.pagination")
    if bar is None:
        raise LayoutChanged(url, "the pagination 'div.pagination'")
    text = bar.get_text(" ", strip=True)
    count = re.search(r"(\d[\d,]*)\s+(?:post|posts|message|messages|topic|topics)\b", text)
    total = int(count.group(1).replace(",", "")) if count else 0
    current = bar.select_one("li.active span")
    page_now = int(current.get_text(strip=True)) if current and current.get_text(strip=True).isdigit() else 1
    per_page = 0
    for link in bar.select("li a[href]"):
        start = query_int(attr(link, "href"), "start")
        label = link.get_text(strip=True)
        if start and label.isdigit() and int(label) > 1:
            per_page = start // (int(label) - 1)
            break
    nxt = bar.select_one("li.next a[href], a[rel=next]")
    return total, page_now, per_page, attr(nxt, "href") if nxt is not None else None


def parse_topic(html: str, url: str) -> TopicPage:
    """A topic page (``viewtopic.php?t=T&start=N``): posts with author, exact time (``<time datetime>``),
    text without quotes, and whether the post shows "Last edited by"."""
    soup = soup_of(html)
    common = parse_common(soup, url)
    nodes = soup.select("div.post[id^=p]")
    if not nodes:
        raise LayoutChanged(url, "posts 'div.post[id^=p]'")
    posts = []
    for node in nodes:
        raw_id = attr(node, "id")[1:]
        if not raw_id.isdigit():
            raise LayoutChanged(url, f"a numeric id 'pNNN' on a post (got {node.get('id')!r})")
        post_id = int(raw_id)
        author = node.select_one("p.author .username, p.author .username-coloured, dl.postprofile dt a.username, "
                                 "dl.postprofile dt a.username-coloured, dl.postprofile dt span.username")
        stamp = node.select_one("p.author time[datetime]")
        content = node.select_one("div.content")
        if author is None or stamp is None or content is None:
            missing = "the author" if author is None else "'p.author time[datetime]'" if stamp is None else "'div.content'"
            raise LayoutChanged(url, f"{missing} of post {post_id}")
        notice = node.select_one("div.notice")
        posts.append(ThreadPost(
            post_id=post_id,
            author=_text(author),
            time_utc=parse_time(attr(stamp, "datetime"), url, f"the time of post {post_id}"),
            text=html_to_text(content),
            raw_html=content.decode_contents().strip(),
            edited=notice is not None and "Last edited by" in notice.get_text(" ", strip=True),
        ))
    total, page_now, per_page, next_url = _pagination(soup, url)
    if not per_page and page_now > 1:
        per_page = (query_int(url, "start") or 0) // (page_now - 1)
    start = (page_now - 1) * per_page if per_page else (query_int(url, "start") or 0)
    forum_link = soup.select_one("#nav-breadcrumbs [data-forum-id]")
    forum_id = int(attr(forum_link, "data-forum-id")) if forum_link is not None and str(attr(forum_link, "data-forum-id")).isdigit() else None
    if forum_id is None:
        link = soup.select_one("h2.topic-title a[href], a[href*='viewforum.php?f=']")
        forum_id = query_int(attr(link, "href"), "f") if link is not None else None
    locked = soup.select_one(".action-bar .button .fa-lock, a.button[href*='posting.php'] i.fa-lock") is not None
    return TopicPage(common, tuple(posts), start, total or len(posts), per_page, next_url, forum_id, locked)


def parse_folder(html: str, url: str) -> FolderPage:
    """A private message folder (``ucp.php?i=pm&folder=inbox|outbox|sentbox``): rows newest first."""
    soup = soup_of(html)
    common = parse_common(soup, url)
    if soup.select_one("#viewfolder") is None:
        raise LayoutChanged(url, "the message list form '#viewfolder'")
    rows = []
    for item in soup.select("ul.pmlist li.row"):
        link = item.select_one("a.topictitle[href]")
        if link is None:
            continue
        mid = query_int(attr(link, "href"), "p")
        if mid is None:
            raise LayoutChanged(url, "a message link '...mode=view&p=ID'")
        party = item.select_one("a.username, a.username-coloured, span.username")
        rows.append(FolderRow(mid, _text(link), _text(party)))
    used = limit = None
    full = re.search(r"\((\d+) out of (\d+) messages stored\)", soup.get_text(" "))
    if full:
        used, limit = int(full.group(1)), int(full.group(2))
    next_url = None
    bar = soup.select_one("div.pagination")
    if bar is not None:
        nxt = bar.select_one("li.next a[href], a[rel=next]")
        next_url = attr(nxt, "href") if nxt is not None else None
    return FolderPage(common, tuple(rows), used, limit, next_url)


def parse_message(html: str, url: str) -> MessagePage:
    """One private message (``ucp.php?i=pm&mode=view&f=F&p=ID``)."""
    soup = soup_of(html)
    common = parse_common(soup, url)
    node = soup.select_one("div.post.pm[id^=post-]")
    if node is None:
        raise LayoutChanged(url, "the message 'div.post.pm'")
    mid = int(attr(node, "id").removeprefix("post-")) if attr(node, "id").removeprefix("post-").isdigit() else None
    if mid is None:
        raise LayoutChanged(url, "a numeric id 'post-ID' on the message")
    author = node.select_one("p.author")
    content = node.select_one("div.content")
    if author is None or content is None:
        raise LayoutChanged(url, "'p.author' and 'div.content' of the message")
    sender = ""
    recipients: list[str] = []
    sent_text = ""
    label = ""
    for child in author.children:
        if isinstance(child, Tag) and child.name == "strong":
            label = _text(child).rstrip(":").lower()
        elif isinstance(child, Tag) and child.name == "a" and label in ("from",):
            sender = _text(child)
        elif isinstance(child, Tag) and child.name == "a" and label in ("recipient", "recipients", "to", "bcc"):
            recipients.append(_text(child))
        elif label == "sent" and not isinstance(child, Tag):
            sent_text += str(child)
    if not sender or not sent_text.strip():
        raise LayoutChanged(url, "'Sent:' and 'From:' in the message header 'p.author'")
    when, _ = parse_written_time(sent_text, common.zone, url, "the time the message was sent")
    subject = _text(node.select_one("h3"))
    return MessagePage(common, mid, sender, tuple(recipients), subject, when, html_to_text(content),
                       content.decode_contents().strip())


def parse_board(html: str, url: str) -> tuple[BoardRow, ...]:
    """A board's topic list (``viewforum.php?f=F``), in the board's order (announcements and stickies first)."""
    soup = soup_of(html)
    parse_common(soup, url)
    rows = []
    for item in soup.select("ul.topiclist.topics li.row"):
        link = item.select_one("a.topictitle[href]")
        if link is None:
            continue
        tid = query_int(attr(link, "href"), "t")
        if tid is None:
            raise LayoutChanged(url, "a topic link 'viewtopic.php?t=ID'")
        poster = item.select_one(".topic-poster a.username, .topic-poster a.username-coloured, .topic-poster span.username")
        rows.append(BoardRow(tid, _text(link), _text(poster)))
    if not rows and soup.select_one("ul.topiclist") is None and "no topics" not in soup.get_text(" ").lower():
        raise LayoutChanged(url, "the topic list 'ul.topiclist.topics'")
    return tuple(rows)


def parse_profile(html: str, url: str) -> tuple[int, str]:
    """A member's profile (``memberlist.php?mode=viewprofile&un=NAME``): (user id, name as the forum spells it)."""
    soup = soup_of(html)
    parse_common(soup, url)
    title = _text(soup.select_one("h2.memberlist-title"))
    name = title.split(" - ", 1)[1].strip() if " - " in title else ""
    form = soup.select_one("a[href*='mode=compose'][href*='u='], a[href*='author_id=']")
    uid = None
    if form is not None:
        uid = query_int(attr(form, "href"), "u") or query_int(attr(form, "href"), "author_id")
    if uid is None:
        hidden = soup.select_one("input[name=u]")
        uid = int(attr(hidden, "value")) if hidden is not None and str(attr(hidden, "value")).isdigit() else None
    if not name or uid is None:
        raise LayoutChanged(url, "the member's name 'h2.memberlist-title' and user id")
    return uid, name


def parse_form(html: str, url: str, form_selector: str = "form#postform") -> FormPage:
    """The fields of a form to send back (hidden inputs, checked boxes, texts and text areas)."""
    soup = soup_of(html)
    common = parse_common(soup, url)
    form = soup.select_one(form_selector)
    if form is None:
        raise LayoutChanged(url, f"the form '{form_selector}'")
    values: dict[str, str] = {}
    for node in form.select("input[name], textarea[name]"):
        kind = (attr(node, "type") or "text").lower()
        if kind in ("file", "submit", "button", "image") or (kind in ("checkbox", "radio") and not node.has_attr("checked")):
            continue
        values[attr(node, "name")] = node.get_text() if node.name == "textarea" else attr(node, "value")
    return FormPage(common, attr(form, "action"), values)


def sent_message_id(html: str) -> int | None:
    """The id of the message in phpBB's "This message has been sent successfully" page (its "View your
    submitted private message" link), None when the page is not that."""
    soup = soup_of(html)
    box = soup.select_one("div#message")
    if box is None or "sent successfully" not in box.get_text(" "):
        return None
    link = box.select_one("a[href*='mode=view'][href*='p=']")
    return query_int(attr(link, "href"), "p") if link is not None else None
