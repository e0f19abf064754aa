"""Steering a season from the console: the organiser commands of ``forumbot organiser`` (extend, pause, resume,
penalty, replace, end), checked as the command line checks them and stored as it stores them.

A command is an inbound row of source ``cli`` in the season's store (:meth:`forumbot.runtime.bot.Bot.organiser_command`):
whichever process judges the season (this one, another ``forumbot serve`` worker, a ``forumbot run``) applies it in
order at its next cycle, as it applies a private message, and its answer is a ``note`` in the outbox. Nothing is lost:
two commands given at the same instant cannot take the same row number (the store skips a row whose number is
taken, and :func:`give` takes the next one). Nothing is doubled: the confirmation page carries a one-time token, stored
with the command (the row's subject), and a form sent twice stores one command.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlmodel import Session, select

from forumbot.runtime.organiser_checks import OrganiserRefusal
from forumbot.runtime.store import InboundRow

ACTIONS = ("extend", "pause", "resume", "penalty", "replace", "end")
REASONS = ("lurking", "flooding")
#: the longest field a steering form takes (a name, an account, a duration): longer is refused before any work
MAX_FIELD = 200


class Refused(Exception):
    """An organiser command that would not be applied: ``refusal`` says why and what to write (the command
    line's reasons, :class:`forumbot.runtime.organiser_checks.OrganiserRefusal`; ``str()``: its English sentence), shown in
    the page's locale."""

    def __init__(self, refusal: OrganiserRefusal) -> None:
        super().__init__(str(refusal))
        self.refusal = refusal


def command_text(form: Any) -> str:
    """The organiser command of a steering form (``action`` and its fields: ``duration``; ``player`` and ``reason``;
    ``player`` and ``new``), as ``forumbot organiser`` takes it, e.g. ``extend 2h``, ``penalty 张三 lurking``.
    Raises :class:`Refused` for a form that names no action."""
    action = str(form.get("action", "")).strip()[:MAX_FIELD]
    if action not in ACTIONS:
        raise Refused(OrganiserRefusal("no_action", {"action": action, "actions": list(ACTIONS)}))

    def field(name: str) -> str:
        value = " ".join(str(form.get(name, "")).split())
        if not value:
            raise Refused(OrganiserRefusal("empty_field", {"field": name}))
        if len(value) > MAX_FIELD:
            raise Refused(OrganiserRefusal("too_long_field", {"field": name, "most": MAX_FIELD}))
        return value
    if action == "extend":
        return f"extend {field('duration')}".strip()
    if action == "penalty":
        return f"penalty {field('player')} {field('reason')}".strip()
    if action == "replace":
        return f"replace {field('player')} {field('new')}".strip()
    return action


def check(bot: Any, text: str, check_account: bool = True) -> str:
    """``text`` when the bot would apply it as an organiser command of its running season; raises
    :class:`Refused` otherwise, with the reasons of ``forumbot organiser`` (:mod:`forumbot.runtime.organiser_checks`) (not started, over, not an organiser
    command, a name not written exactly for a penalty or a replacement, a substitute who already plays, and —
    with ``check_account`` — a substitute account the forum does not have)."""
    from forumbot.forums.settings import make_forum
    from forumbot.language.parse import parse
    from forumbot.language.types import ORGANISER_VERBS, ParseError
    from forumbot.runtime.organiser_checks import (
        already_penalised_refusal,
        bad_substitute_refusal,
        inexact_refusal,
        no_account_refusal,
        too_long,
        why_not_organiser,
    )

    c = bot.config
    if not bot.started:
        raise Refused(OrganiserRefusal("not_started", {"season": c.name}))
    if bot.game.finished:
        raise Refused(OrganiserRefusal("over", {"season": c.name}))
    if len(text) > 3 * MAX_FIELD:  # a forged confirmation: no form gives a longer command
        raise Refused(OrganiserRefusal("too_long_field", {"field": "action", "most": 3 * MAX_FIELD}))
    parsed = parse(text, bot.game.roster)
    if isinstance(parsed, ParseError) or parsed.verb not in ORGANISER_VERBS:
        raise Refused(why_not_organiser(parsed, bot.game))
    if refusal := too_long(parsed) or inexact_refusal(parsed, bot.game):
        raise Refused(refusal)
    if parsed.verb == "replace" and (refusal := bad_substitute_refusal(parsed, bot.game, c)):
        raise Refused(refusal)
    if refusal := already_penalised_refusal(parsed, bot.game):
        raise Refused(refusal)
    if parsed.verb == "replace" and check_account and (refusal := no_account_refusal(
            c, (parsed.text or "").strip(), lambda cfg: make_forum(cfg.forum, cfg.base_dir))):
        # the console's form has a box for it where the command line has --no-check
        raise Refused(OrganiserRefusal("forum_not_asked_console", refusal.values) if refusal.key == "forum_not_asked" else refusal)
    return text


def irreversible(text: str) -> bool:
    """Whether the command cannot be taken back (a penalty, a replacement, the end of the game)."""
    return text.split(" ", 1)[0] in ("penalty", "replace", "end")


def give(bot: Any, text: str, organiser: str, token: str, now: datetime | None = None) -> bool:
    """Store the organiser command ``text`` given by ``organiser`` from the console (the confirmation's one-time
    ``token``); False when a command with this token is stored already (the form was sent twice)."""
    subject = f"console {organiser} {token}"
    store = bot.store
    for _ in range(20):
        with Session(store.engine) as s:
            if s.exec(select(InboundRow.id).where(InboundRow.season_id == store.season_id, InboundRow.source == "cli",
                                                  InboundRow.subject == subject)).first() is not None:
                return False
        row = InboundRow(season_id=0, source="cli", forum_id=store.next_cli_id(), sender="@cli",
                         sent_at=now or datetime.now(UTC), subject=subject, text=text)
        if store.store_inbound([row], {}):
            return True
    raise RuntimeError("could not store the organiser command: its row number was taken 20 times in a row")
