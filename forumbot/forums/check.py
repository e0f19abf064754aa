"""What ``forumbot forum-check CONFIG`` (:mod:`forumbot.cli.forum_check`) and ``forumbot check --forum`` say: the
lines of a report on a forum reached with the season's ``[forum]`` settings, and one paragraph on what is wrong when
it fails."""

from __future__ import annotations

from forumbot.forums.discuz_api import FLOOD_SECONDS, conversations_allowed
from forumbot.forums.errors import (
    AuthFailed,
    ForumDown,
    ForumError,
    LayoutChanged,
    NotAllowed,
    NotFound,
    RateLimited,
)
from forumbot.forums.settings import ForumSettings


def failed(lines) -> bool:
    """True when report ``lines`` hold an ``ERROR:`` line: the judge could not do its work (post, send its
    private messages) as the forum is set up, so ``forumbot check --forum`` fails (exit 1)."""
    return any(line.lstrip().startswith("ERROR:") for line in lines)


def _report(forum, settings: ForumSettings, recipients: int | None = None):
    """Lines of the report. ``recipients``: players + organisers of the season, when known (for limits).
    An ``ERROR:`` line (:func:`failed`) says what stops the judge and the setting to change: Discuz!'s
    posting captcha, a queue that holds the judge's posts for a moderator (NodeBB's post queue, phpBB's
    newly registered users)."""
    forum.login()
    yield f"Logged in to {settings.base_url} ({settings.engine}) as {forum.whoami()}."
    if settings.engine == "discuz":
        yield from _discuz_report(forum, settings, recipients)
    if settings.engine == "nodebb":
        lines = forum.check_report(recipients)
        yield from lines
        yield from nodebb_queue(lines)
    if settings.engine == "phpbb":
        from forumbot.forums.phpbb_check import phpbb_report

        yield from phpbb_report(forum, settings, recipients)
    # each part of the report is read on its own: a missing thread must not hide the inbox or the accounts
    # (the organiser fixes every problem in one round)
    if settings.thread_id is None:
        yield "No thread_id set: the game thread was not read."
    else:
        try:
            posts = forum.thread_posts(settings.thread_id)
        except ForumError as exc:
            yield f"Thread {settings.thread_id}:"
            yield f"  ERROR: {diagnose(exc, settings)}"
            posts = None
        if posts is not None:
            authors = {p.author for p in posts}
            edited = sum(p.edited for p in posts)
            yield f"Thread {settings.thread_id}: {len(posts)} posts by {len(authors)} users, {edited} edited."
            if posts:
                yield f"  first post {posts[0].post_id} by {posts[0].author} at {posts[0].time_utc:%Y-%m-%d %H:%M} UTC"
                yield f"  last post {posts[-1].post_id} by {posts[-1].author} at {posts[-1].time_utc:%Y-%m-%d %H:%M} UTC:"
                yield "    " + _short(posts[-1].text)
    try:
        yield from _inbox_lines(forum, settings)
    except ForumError as exc:
        yield "Inbox:"
        yield f"  ERROR: {diagnose(exc, settings)}"
    usage = getattr(forum, "inbox_usage", None)
    if usage is not None:
        count, quota = usage()
        if quota is None:
            yield f"Mailbox: {count} conversations, no quota."
        else:
            yield f"Mailbox: {count} of {quota} conversations used."
            if count is not None and count >= quota - 5:
                yield "  WARNING: the mailbox is (nearly) full; FlaskBB refuses to send private messages from a full box."
    if settings.forum_id is not None:
        yield f"New threads will go to board {settings.forum_id} (not checked: that would mean posting)."
    yield f"Writes are spaced at least {settings.min_write_interval_seconds:g} s apart; timeout {settings.timeout_seconds:g} s."


def _inbox_lines(forum, settings: ForumSettings):
    """The inbox part of the report: what the judge received from others. A message the judge wrote itself
    (an adapter that lists a conversation's messages both ways) is no player's: the bot skips it too
    (:meth:`forumbot.runtime.bot.Bot._store_read`), so it is counted apart and not listed as received."""
    judge = {settings.username, forum.whoami()}
    everything = forum.private_messages()
    messages = [m for m in everything if m.sender not in judge]
    own = len(everything) - len(messages)
    senders = {m.sender for m in messages}
    shown = messages[-3:]  # the newest few show that reading works; all of them would flood the report
    yield (f"Inbox: {len(messages)} private message{'s' * (len(messages) != 1)} received from {len(senders)} "
           f"user{'s' * (len(senders) != 1)}"
           + (f" (and {own} of the judge's own, not counted)" if own else "")
           + (f"; the last {len(shown)}:" if len(shown) < len(messages) else ":" if messages else "."))
    for message in shown:
        yield f"  {message.message_id} from {message.sender} at {message.time_utc:%Y-%m-%d %H:%M} UTC: {_short(message.subject)}"


def nodebb_queue(lines: list[str]) -> list[str]:
    """An ``ERROR:`` line when NodeBB's post queue would hold the judge's own posts, from the lines of
    :meth:`NodeBBForum.check_report <forumbot.forums.nodebb.NodeBBForum.check_report>` (read from them: the
    report has asked the forum already, and a second ask would only repeat it). The queue (``postQueue``
    of ``/api/config``) holds the posts of an account that is neither an administrator nor a moderator
    until its reputation reaches postQueueReputationThreshold (seen live: 202 ``"queued": true``), so the
    game thread, the phases' posts and the results would wait for a moderator."""
    queue_on = bool(lines) and "post queue on" in lines[0]
    exempt = any("exempt from the post queue" in line for line in lines)
    if not queue_on or exempt:
        return []
    return ["  ERROR: the post queue is on and the judge is neither an administrator nor a moderator: its game "
            "thread, phase posts and results would wait for a moderator's approval. Make the judge a Global "
            "Moderator (ACP → Manage → Groups → Global Moderators) or a moderator of the game's category, or "
            "switch the post queue off (ACP → Settings → Posts → Post Queue)."]


def _discuz_report(forum, settings: ForumSettings, recipients: int | None):
    from forumbot.forums.discuz_posting import posting_lines

    info = forum.site_info()
    account = forum.account()
    version = info.get("discuzversion") or "unknown (?check gave nothing)"
    yield (f"Discuz! {version}, charset {info.get('charset') or 'unknown'} (form fields sent as "
           f"{forum._send_charset().upper()}), mobile API on (plugin {info.get('pluginversion') or '?'}).")
    if forum._send_charset() == "gbk" and settings.charset == "auto":
        yield ("  NOTE: a GBK site shows characters GBK lacks (emoji, ✓, €) as raw &#NNN; codes: the bot sends GBK-safe "
               'text (✓ → √, emoji → □); set forum.charset = "gbk" so that its templates pick GBK symbols too.')
    yield (f"Judge account: uid {account['uid']}, group {account['grouptitle'] or '?'} (groupid {account['groupid']}); "
           f"cookies prefixed {account['cookiepre'] or '?'}.")
    yield (f"Site times are read in {settings.site_time_zone}; PM times are relative (\"3 分钟前\"): "
           "the earliest instant they allow is used.")
    yield from posting_lines(forum)
    limit = settings.pm_conversation_limit
    if recipients is not None and limit and recipients > conversations_allowed(limit):
        yield (f"  WARNING: day 1 needs private messages to {recipients} players and organisers, but the forum lets "
               f"the judge write in only {conversations_allowed(limit)} conversations a day (UCenter privatepmthreadlimit "
               f"{limit}, which lets {conversations_allowed(limit)} through; then even replies "
               "into old conversations fail). Ask the administrator to raise it above "
               f"{recipients + 5} (UCenter → 短消息 → 每人每天最多发起会话数) and set forum.pm_conversation_limit to "
               "match; otherwise the rest are queued, retried and reported to the organisers.")
    if settings.min_write_interval_seconds < FLOOD_SECONDS:
        yield (f"  WARNING: writes are spaced {settings.min_write_interval_seconds:g} s apart but Discuz!'s flood "
               "control (15 s by default, posts and PMs share it, no group is spared for PMs) compares whole "
               f"seconds and needs {FLOOD_SECONDS:g} s in practice: keep min_write_interval_seconds = "
               f"{FLOOD_SECONDS:g} unless the administrator lowered 防灌水 → 两次发表时间间隔 and UCenter's pmfloodctrl.")


def account_report(forum, players: list[str], organisers: list[str]) -> tuple[list[str], int]:
    """Lines saying whether every player's and organiser's account exists on ``forum`` (exactly as the
    season file spells it), and how many do not. A missing name is looked up once more in its
    simplified/traditional, half-width and case variants, to show the account meant (赵六 for 趙六).
    Raises ForumError when the forum cannot be asked."""
    problems: list[str] = []
    missing = {"player": 0, "organiser": 0}
    checked: set[str] = set()
    for role, names in (("player", players), ("organiser", organisers)):
        for name in names:
            if name in checked:
                continue
            checked.add(name)
            found = forum.find_user(name)
            if found == name:
                continue
            if found is not None:  # the forum matched it loosely (case) but spells it otherwise
                problems.append(f"  ERROR: {role} {name}: the forum spells this account {found}: write it exactly so "
                                "(commands are matched by the exact name)")
                missing[role] += 1
                continue
            near = next((v for v in name_variants(name) if forum.find_user(v) is not None), None)
            hint = f"; the account {near} exists: is it this player? Write the name exactly as the forum does" if near \
                else "; check the spelling (simplified/traditional characters, spaces, case) on the forum"
            problems.append(f"  ERROR: {role} {name}: no account of this name on the forum{hint}")
            missing[role] += 1
    n_players, n_orgs = len(set(players)), len(set(organisers) - set(players))
    if not problems:
        who = _count(n_players, "player") + (f" and {_count(n_orgs, 'organiser')}" if n_orgs else "")
        return [f"Accounts: the {who} all have an account on the forum."], 0
    # each count with its own whole ("2 of the 4 players" listed 1 player and 1 organiser)
    parts = [_of(missing[role], total, role) for role, total in (("player", n_players), ("organiser", n_orgs))
             if missing[role]]
    return ([f"Accounts: {' and '.join(parts)} {'has' if len(problems) == 1 else 'have'} no account of that exact "
             "name on the forum:", *problems,
             ("  Fix players / organisers in the season file: a private message (a role!) to a name without an "
              "account cannot be delivered.")], len(problems))


def _of(part: int, whole: int, noun: str) -> str:
    """``part`` of ``whole`` (a count of ``noun``) in words: "2 of the 5 players", "the organiser", "all 3 organisers"."""
    if part == whole:
        return f"the {noun}" if whole == 1 else f"all {whole} {noun}s"
    return f"{part} of the {_count(whole, noun)}"


def _count(n: int, noun: str) -> str:
    """``n`` and ``noun``, plural unless ``n`` is 1: "1 organiser", "4 players"."""
    return f"{n} {noun}{'s' * (n != 1)}"


def name_variants(name: str) -> list[str]:
    """Other spellings of ``name`` a roster mistake often is: traditional/simplified (OpenCC), half-width
    (NFKC), other case; without ``name`` itself and without repeats."""
    import unicodedata

    import opencc

    out: list[str] = []
    for variant in (opencc.OpenCC("t2s").convert(name), opencc.OpenCC("s2t").convert(name),
                    unicodedata.normalize("NFKC", name), name.lower(), name.capitalize(), name.upper()):
        if variant != name and variant not in out:
            out.append(variant)
    return out


def _short(text: str, limit: int = 70) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def diagnose(exc: ForumError, settings: ForumSettings) -> str:
    """One paragraph for the organiser: what went wrong and what to check."""
    where = settings.base_url
    said = _Said(exc)
    if isinstance(exc, AuthFailed):
        return (
            f"Login failed: {said}. Check forum.username ({settings.username!r}) and the password in "
            f"{_password_source(settings)}."
        )
    if isinstance(exc, ForumDown):
        return f"Cannot reach the forum: {said}. Check forum.base_url ({where}) and that the forum is running."
    if isinstance(exc, RateLimited):
        return f"The forum is rate limiting us: {said}. Wait {exc.wait_seconds:.0f} s and try again."
    if isinstance(exc, NotFound):
        return (
            f"Not found: {said}. Check forum.thread_id ({settings.thread_id}) and that the thread is visible "
            f"to {settings.username!r}."
        )
    if isinstance(exc, NotAllowed):
        return f"The forum refused access: {said}. Check the permissions of {settings.username!r}."
    if isinstance(exc, LayoutChanged):
        supported = {"discuz": "Discuz! X3.4/X3.5 with the mobile API", "nodebb": "NodeBB 4 (API v3)",
                     "phpbb": "phpBB 3.3 with the prosilver style and the English language pack for the judge"}.get(
            settings.engine, "FlaskBB 3.0 with the conversations plugin")
        return (
            f"The forum's pages are not what the {settings.engine} adapter expects: {said}. Is {where} really a "
            f"{settings.engine} forum of a supported version ({supported})?"
        )
    return f"The forum check failed: {said}."


class _Said:
    """A forum error as a clause of :func:`diagnose`'s sentences: its text without the full stop the forum's
    own message may end with ("Wrong username or password." made "password.."), or the error's kind when it
    has no text."""

    def __init__(self, error: ForumError) -> None:
        self.error = error

    def __str__(self) -> str:
        return str(self.error).strip().rstrip(".。") or type(self.error).__name__


def _password_source(settings: ForumSettings) -> str:
    if settings.password_env:
        return f"the environment variable {settings.password_env}"
    return f"the secrets file {settings.password_file}"

