"""Whether a Discuz! forum lets the judge post without a captcha: for ``forumbot check --forum``.

The mobile API's ``module=secure&type=post`` (``source/plugin/mobile/api/4/secure.php``) runs Discuz!'s own
``seccheck('post')`` for the logged-in account and answers ``Variables.sechash`` with ``seccode`` (the URL of
a captcha picture) and/or ``secqaa`` (a security question) when a post by this account must carry them, and
neither when it need not. ``seccheck`` returns nothing for a user group without the ``seccode`` permission
(the group is exempt), nor when the account has more posts than the captcha's ``minposts``: so the answer is
about the judge's group and the judge as they are. A post without the answer is refused with
``submit_seccode_invalid`` / ``submit_secqaa_invalid`` (seen on a real X3.5 with the stock captcha on;
``sendpm`` is not affected), so a season would open no thread and post no result. The bot cannot answer
either. Reads only; posts nothing.
"""

from __future__ import annotations

from typing import Any

from forumbot.forums.errors import ForumError

#: what to change, named as the Discuz! admin centre names it
FIX = ("switch the posting captcha off (Admin → Anti-spam → Captcha, 后台 → 防灌水 → 验证码设置: 发帖; and the "
       "security question for posting, 验证问答设置), or exempt the judge's user group from them")


def posting_lines(forum: Any) -> list[str]:
    """Report lines on the posting captcha for the logged-in judge of DiscuzForum ``forum``: one ``ERROR:``
    line (the check fails) when posts need a captcha or a security question, a WARNING when the forum
    could not say (an old mobile plugin without ``module=secure``), else one line saying none is needed.
    Raises ForumError when the forum cannot be reached."""
    try:
        answer = forum._read("secure", {"type": "post"})
    except ForumError as exc:
        if not getattr(exc, "status", None) and "JSON" in str(exc):  # no such module: an answer that is a page
            return [f"  WARNING: could not ask the forum whether posting needs a captcha ({exc}); if it does, {FIX}."]
        raise
    v = answer.variables
    if answer.error or answer.messageval == "module_not_exists":
        return [f"  WARNING: the forum's mobile API does not say whether posting needs a captcha "
                f"({answer.error or answer.messageval}); if it does, {FIX}."]
    needs = [what for key, what in (("seccode", "a captcha (seccode)"), ("secqaa", "a security question (secqaa)"))
             if v.get(key)]
    if not needs:
        return ["Posting: the judge's posts need no captcha and no security question."]
    return [f"  ERROR: the forum asks the judge for {' and '.join(needs)} with every post and reply: the bot cannot "
            f"answer it, so the game thread, the phases' posts and the results could not be posted. To fix it: {FIX}."]
