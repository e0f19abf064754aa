"""Parsers of FlaskBB 3.0 pages (Aurora theme, conversations plugin 3.0). Pure functions: HTML in, data out.

Each parser takes the page's HTML and its URL and raises :class:`LayoutChanged` (with the URL and the
selector that found nothing) when the page does not have the expected shape, so a change in FlaskBB's
markup is a clear failure instead of silently missing posts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime

from bs4 import BeautifulSoup, Tag

from forumbot.forums.base import ThreadPost
from forumbot.forums.errors import LayoutChanged
from forumbot.forums.html_text import html_to_text

_PAGE_ARG = re.compile(r"[?&]page=(\d+)")


@dataclass(frozen=True)
class PageCommon:
    """What every page tells: the logged-in user name (``None`` for a guest), a CSRF token, flashed alerts."""

    user: str | None
    csrf: str | None
    flashes: tuple[tuple[str, str], ...]  # (level such as "danger" / "success", text)


@dataclass(frozen=True)
class TopicPage:
    """One page of a topic: its posts oldest first, page number, last page number, lock state."""

    common: PageCommon
    posts: tuple[ThreadPost, ...]
    page: int
    last_page: int
    locked: bool | None  # None when the page does not show it (only moderators see the lock control)


@dataclass(frozen=True)
class InboxRow:
    """One conversation in the inbox: ``marker`` changes whenever a message is added to it."""

    conversation_id: int
    subject: str
    from_user: str
    to_user: str
    last_time_utc: datetime
    marker: str


@dataclass(frozen=True)
class InboxPage:
    """One inbox page, newest activity first; ``count``/``quota`` from the header badge (quota None if off)."""

    common: PageCommon
    rows: tuple[InboxRow, ...]
    page: int
    last_page: int
    count: int | None
    quota: int | None


@dataclass(frozen=True)
class ConversationMessage:
    """One message of a conversation page."""

    message_id: int
    author: str
    time_utc: datetime
    text: str
    raw_html: str


@dataclass(frozen=True)
class ConversationPage:
    """A conversation with all its messages, oldest first."""

    common: PageCommon
    subject: str
    messages: tuple[ConversationMessage, ...]


def soup_of(html: str) -> BeautifulSoup:
    """Parses HTML with lxml."""
    return BeautifulSoup(html, "lxml")


def _attr(tag: Tag, name: str) -> str | None:
    """A single-valued attribute's text (bs4 types every attribute as maybe a list), or None when absent."""
    value = tag.get(name)
    return value if value is None or isinstance(value, str) else " ".join(value)


def parse_common(soup: BeautifulSoup, url: str) -> PageCommon:
    """Reads the user menu, a CSRF token and the flashed alerts. Raises LayoutChanged without a user menu."""
    menu = soup.select_one("nav.flaskbb-navbar .btn-group > a.btn")
    if menu is None:
        raise LayoutChanged(url, "the user menu 'nav.flaskbb-navbar .btn-group > a.btn'")
    href = _attr(menu, "href") or ""
    if "/auth/login" in href:
        user = None
    elif "/user/" in href:
        user = menu.get_text(" ", strip=True)
    else:
        raise LayoutChanged(url, "a profile or login link in the user menu")
    token = soup.select_one("input[name=csrf_token]")
    flashes = []
    for alert in soup.select("#flashed-messages .alert"):
        level = next((c[6:] for c in alert.get_attribute_list("class") if c.startswith("alert-") and c != "alert-dismissible"), "")
        flashes.append((level, alert.get_text(" ", strip=True)))
    return PageCommon(user=user, csrf=_attr(token, "value") if token else None, flashes=tuple(flashes))


def parse_time(value: str | None, url: str, what: str) -> datetime:
    """An ISO 8601 time (FlaskBB writes ``2026-11-29T16:41:30.717533+00:00``) as an aware UTC datetime."""
    if not value:
        raise LayoutChanged(url, what)
    try:
        when = datetime.fromisoformat(value.strip())
    except ValueError:
        raise LayoutChanged(url, f"{what} (unreadable: {value!r})") from None
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


def _pages(soup: BeautifulSoup, url: str) -> tuple[int, int]:
    bar = soup.select_one("ul.pagination")
    if bar is None:
        raise LayoutChanged(url, "the pagination 'ul.pagination'")
    active = bar.select_one("li.active")
    page = int(active.get_text(strip=True)) if active and active.get_text(strip=True).isdigit() else 1
    numbers = [int(m.group(1)) for a in bar.select("a[href]") if (m := _PAGE_ARG.search(str(a["href"])))]
    return page, max([page, *numbers])


def _int_attr(tag: Tag, attr: str, url: str, what: str, prefix: str = "") -> int:
    value = _attr(tag, attr) or ""
    if not value.startswith(prefix) or not value[len(prefix):].isdigit():
        raise LayoutChanged(url, what)
    return int(value[len(prefix):])


def parse_topic(html: str, url: str) -> TopicPage:
    """A topic page (``/topic/{id}?page=N``)."""
    soup = soup_of(html)
    common = parse_common(soup, url)
    rows = soup.select("div.post-row")
    if not rows:
        raise LayoutChanged(url, "posts 'div.post-row'")
    posts = []
    for row in rows:
        post_id = _int_attr(row, "id", url, "a numeric id on 'div.post-row'")
        author = row.select_one(".author-name")
        stamp = row.select_one(".post-meta time[datetime]")
        content = row.select_one("div.post-content")
        for tag, what in ((author, "'.author-name'"), (stamp, "'.post-meta time[datetime]'"), (content, "'div.post-content'")):
            if tag is None:
                raise LayoutChanged(url, f"{what} in post {post_id}")
        assert author is not None and stamp is not None and content is not None  # checked just above
        posts.append(
            ThreadPost(
                post_id=post_id,
                author=author.get_text(" ", strip=True),
                time_utc=parse_time(_attr(stamp, "datetime"), url, f"the time of post {post_id}"),
                text=html_to_text(content),
                raw_html=content.decode_contents().strip(),
                edited=row.select_one(".post-meta small time[datetime]") is not None,
            )
        )
    page, last = _pages(soup, url)
    if soup.select_one("form[action*='/unlock']"):
        locked: bool | None = True
    elif soup.select_one("form[action*='/lock']"):
        locked = False
    else:
        locked = None
    return TopicPage(common=common, posts=tuple(posts), page=page, last_page=last, locked=locked)


def parse_inbox(html: str, url: str) -> InboxPage:
    """An inbox page (``/conversations/inbox?page=N``)."""
    soup = soup_of(html)
    common = parse_common(soup, url)
    box = soup.select_one("div.conversation")
    if box is None:
        raise LayoutChanged(url, "the conversation list 'div.conversation'")
    rows = []
    for row in box.select("div.conversation-row"):
        link = row.select_one(".conversation-subject a[href]")
        if link is None:
            if "hover" in row.get_attribute_list("class"):
                raise LayoutChanged(url, "the link '.conversation-subject a' of a conversation")
            continue  # "No conversations found."
        match = re.search(r"/conversations/(\d+)/view", str(link["href"]))
        if match is None:
            raise LayoutChanged(url, "a '/conversations/N/view' link")
        cid = int(match.group(1))
        meta = row.select_one(".conversation-meta")
        stamp = meta.select_one("time[datetime]") if meta else None
        if meta is None or stamp is None:
            raise LayoutChanged(url, f"'.conversation-meta time[datetime]' of conversation {cid}")
        users = [a.get_text(strip=True) for a in meta.select("a")]
        content = row.select_one(".conversation-content")
        excerpt = content.get_text(" ", strip=True) if content else ""
        rows.append(
            InboxRow(
                conversation_id=cid,
                subject=link.get_text(" ", strip=True),
                from_user=users[0] if users else "",
                to_user=users[1] if len(users) > 1 else "",
                last_time_utc=parse_time(_attr(stamp, "datetime"), url, f"the time of conversation {cid}"),
                marker=f"{stamp.get('datetime')}|{excerpt}",
            )
        )
    count = quota = None
    badge = box.select_one(".conversation-header .badge")
    if badge is not None:
        numbers = re.findall(r"\d+", badge.get_text())
        count = int(numbers[0]) if numbers else None
        quota = int(numbers[1]) if len(numbers) > 1 else None
    page, last = _pages(soup, url)
    return InboxPage(common=common, rows=tuple(rows), page=page, last_page=last, count=count, quota=quota)


def parse_conversation(html: str, url: str) -> ConversationPage:
    """A conversation page (``/conversations/{id}/view``)."""
    soup = soup_of(html)
    common = parse_common(soup, url)
    header = soup.select_one(".conversation-header strong")
    if header is None:
        raise LayoutChanged(url, "the subject '.conversation-header strong'")
    messages = []
    for node in soup.select("div.conversation-message"):
        mid = _int_attr(node, "id", url, "an id 'midN' on 'div.conversation-message'", prefix="mid")
        author = node.select_one(".author-name")
        stamp = node.select_one("time[datetime]")
        content = node.select_one(".message-content")
        for tag, what in ((author, "'.author-name'"), (stamp, "'time[datetime]'"), (content, "'.message-content'")):
            if tag is None:
                raise LayoutChanged(url, f"{what} in message {mid}")
        assert author is not None and stamp is not None and content is not None  # checked just above
        messages.append(
            ConversationMessage(
                message_id=mid,
                author=author.get_text(" ", strip=True),
                time_utc=parse_time(_attr(stamp, "datetime"), url, f"the time of message {mid}"),
                text=html_to_text(content),
                raw_html=content.decode_contents().strip(),
            )
        )
    if not messages:
        raise LayoutChanged(url, "messages 'div.conversation-message'")
    return ConversationPage(common=common, subject=header.get_text(" ", strip=True), messages=tuple(messages))


def thread_id_from_url(url: str) -> int | None:
    """The topic id in ``/topic/12-slug`` or ``/topic/12``; ``None`` if the URL is not a topic."""
    match = re.search(r"/topic/(\d+)", url)
    return int(match.group(1)) if match else None


def post_id_from_url(url: str) -> int | None:
    """The post id in ``/post/34`` (a reply's redirect) or ``#pid34``; ``None`` otherwise."""
    match = re.search(r"/post/(\d+)|#pid(\d+)", url)
    return int(match.group(1) or match.group(2)) if match else None


def page_from_url(url: str) -> int:
    """The ``page=N`` argument of a URL, 1 when absent."""
    match = _PAGE_ARG.search(url)
    return int(match.group(1)) if match else 1


def form_errors(html: str) -> list[str]:
    """The validation errors of a re-rendered form ('.invalid-feedback') and its flashed danger/warning alerts."""
    soup = soup_of(html)
    errors = [e.get_text(" ", strip=True) for e in soup.select(".invalid-feedback")]
    errors += [a.get_text(" ", strip=True) for a in soup.select("#flashed-messages .alert-danger, #flashed-messages .alert-warning")]
    return [e for e in errors if e]


def form_values(html: str, url: str, field: str) -> dict[str, str]:
    """Current values of the form holding the field named ``field`` (checked boxes only), for resubmission."""
    soup = soup_of(html)
    target = soup.select_one(f"[name={field}]")
    form = target.find_parent("form") if target is not None else None
    if form is None:
        raise LayoutChanged(url, f"a form with a field '{field}'")
    values: dict[str, str] = {}
    for node in form.select("input[name], textarea[name]"):
        kind = (_attr(node, "type") or "text").lower()
        if kind in ("file", "submit", "button") or (kind in ("checkbox", "radio") and not node.has_attr("checked")):
            continue
        values[str(node["name"])] = node.get_text() if node.name == "textarea" else (_attr(node, "value") or "")
    return values


def parse_common_page(html: str, url: str) -> PageCommon:
    """Any page: only what :func:`parse_common` reads."""
    return parse_common(soup_of(html), url)


@dataclass(frozen=True)
class FormPage:
    """A page with an editing form: its current ``values`` (see :func:`form_values`)."""

    common: PageCommon
    values: dict[str, str]


def parse_post_form(html: str, url: str) -> FormPage:
    """The editor page of a post or topic (``/post/N/edit``, ``/topic/N/edit``)."""
    return FormPage(common=parse_common(soup_of(html), url), values=form_values(html, url, "content"))


def missing_object(html: str) -> str | None:
    """FlaskBB answers a missing topic, post or forum with HTTP 200 and a bare "Unknown Error" page saying
    "Could not load forum data" (or post data). Returns that sentence for such a page, else ``None``."""
    if "Unknown Error" not in html[:400]:
        return None
    soup = soup_of(html)
    title = soup.title.get_text(strip=True) if soup.title else ""
    if "Unknown Error" not in title:
        return None
    text = soup.p.get_text(" ", strip=True) if soup.p else ""
    return text if text.startswith("Could not load") else None


@dataclass(frozen=True)
class BoardRow:
    """One topic in a board's list: its subject, author and the link to it (``/post/N`` or ``/topic/N``)."""

    subject: str
    author: str
    href: str


@dataclass(frozen=True)
class BoardPage:
    """The first page of a board (``/forum/{fid}``): its topics, most recent activity first."""

    common: PageCommon
    rows: tuple[BoardRow, ...]


def parse_board(html: str, url: str) -> BoardPage:
    """A board's topic list."""
    soup = soup_of(html)
    common = parse_common(soup, url)
    if soup.select_one("div.forum-meta") is None:
        raise LayoutChanged(url, "the topic list header 'div.forum-meta'")
    rows = []
    for row in soup.select("div.forum-row"):
        link = row.select_one(".topic-name a[href]")
        author = row.select_one(".topic-author a")
        if link is None:
            continue
        rows.append(BoardRow(link.get_text(" ", strip=True), author.get_text(strip=True) if author else "", str(link["href"])))
    return BoardPage(common, tuple(rows))
