"""The forum layer: one small interface (:mod:`.base`), typed errors (:mod:`.errors`), the FlaskBB adapter
(:mod:`.flaskbb`) and the settings that pick and configure an adapter (:mod:`.settings`). See docs/forums.md.
"""

from forumbot.forums.base import Forum, PrivateMessage, SentMessage, ThreadPost
from forumbot.forums.errors import (
    AuthFailed,
    ForumDown,
    ForumError,
    LayoutChanged,
    NotAllowed,
    NotFound,
    RateLimited,
    SendFailed,
)

__all__ = [
    "AuthFailed", "Forum", "ForumDown", "ForumError", "LayoutChanged", "NotAllowed", "NotFound",
    "PrivateMessage", "RateLimited", "SendFailed", "SentMessage", "ThreadPost",
]
