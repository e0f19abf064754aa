"""The phpBB part of ``forumbot forum-check``: what the board's settings and the judge's account must allow.

Facts from phpBB 3.3 as it behaved live (docs/forums.md): the flood interval (15 s by default) covers
posts and private messages together unless the judge's group may ignore it; members of "Newly
registered users" have their posts queued for approval and may not send private messages; a full inbox
holds new messages back (50 messages by default); locking needs moderator rights on the board; the
minimum post length (``min_post_chars``, 1 by default) can refuse short votes.
"""

from __future__ import annotations

from collections.abc import Iterator

from forumbot.forums.errors import NotFound
from forumbot.forums.phpbb import FLOOD_SECONDS
from forumbot.forums.settings import ForumSettings

#: private messages the judge receives in a season, per player (commands, night actions, questions): a rough
#: allowance for the inbox check
_MESSAGES_PER_PLAYER = 8


def phpbb_report(forum, settings: ForumSettings, recipients: int | None = None) -> Iterator[str]:
    """Lines about the judge's groups, inbox room, flood interval, moderator rights and the board's
    anti-spam settings. ``recipients``: players + organisers, when known."""
    groups = forum.judge_groups()
    yield f"phpBB judge account groups: {', '.join(groups) or 'none listed'}."
    if any("newly registered" in g.lower() for g in groups):
        yield ("  ERROR: the judge is in 'Newly registered users': phpBB queues its posts for approval and refuses "
               "it private messages. Ask the administrator to remove it from that group (ACP → Users → the judge → "
               "Groups) or to give it the posts of ACP → Registration → New member post limit.")
    privileged = any(g.lower() in ("global moderators", "administrators") for g in groups)
    used, limit = forum.inbox_folder_usage()
    if limit:
        room = limit - (used or 0)
        need = (recipients or 14) * _MESSAGES_PER_PLAYER
        yield f"Inbox: {used} of {limit} messages stored."
        if room < need:
            yield (f"  WARNING: about {need} messages arrive in a season and only {room} fit: phpBB then holds new "
                   "messages back (ACP → Private messages → Full folder default action). Ask the administrator to "
                   f"raise the judge group's 'Maximum private messages per box' to at least {(used or 0) + need} "
                   "(ACP → Users and Groups → Manage groups → the judge's group; 0 there is not unlimited but the "
                   "board's default, 50 unless changed) or empty the inbox.")
    else:
        yield f"Inbox: {used} messages stored, no limit."
    interval = settings.min_write_interval_seconds
    if interval < FLOOD_SECONDS and not privileged:
        yield (f"  WARNING: writes are spaced {interval:g} s apart but phpBB's flood interval (15 s by default, posts "
               "and private messages together) refuses faster ones unless the judge's group has 'Can ignore flood "
               "limit' (ACP → Permissions → Group permissions → Posting). Keep min_write_interval_seconds = 15 "
               "or grant that permission.")
    elif interval >= FLOOD_SECONDS and privileged:
        yield (f"  Writes are spaced {interval:g} s apart, but the judge's group "
               f"({next(g for g in groups if g.lower() in ('global moderators', 'administrators'))}) may ignore the "
               "flood limit by default: min_write_interval_seconds = 0 sends 14 role messages in about 20 s "
               "instead of 3½ minutes.")
    try:
        moderator = forum.moderates(settings.thread_id) if settings.thread_id is not None else True
    except NotFound:  # the report's thread part says the thread is missing; the rest is still checked
        moderator = True
    if not moderator:
        yield ("  WARNING: the judge has no moderator tools in the game thread's board: it cannot lock the thread. "
               "Make it a moderator of that board (ACP → Forums → Forum moderators).")
    yield ("Board settings to check with the administrator: minimum post length (ACP → Posting → Post settings → "
           "'Minimum characters per post', 1 by default; 'VOTE: Al' needs ≤ 8) and that players' posts in the "
           "game board are not queued (the judge, a moderator, sees queued posts; other players do not).")
