"""Checks of an organiser command before it is stored (``forumbot organiser`` and the console alike): what the bot
would never apply is refused with one sentence saying why and what to write. The bot itself answers a command it
cannot apply by private message; these checks refuse it before it is stored, where the organiser typed it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from forumbot.config import SeasonConfig
from forumbot.forums.errors import ForumError
from forumbot.forums.settings import SettingsError

ORGANISER_HELP = ("penalty NAME lurking|flooding, replace NAME NEWACCOUNT, extend 2h (or 30m), pause, resume, end")


def explain(parsed: Any, game: Any) -> str:
    """Why a command typed on the command line is not an organiser command, and what to type."""
    from forumbot.language.types import ParseError

    if not isinstance(parsed, ParseError):
        return f"{parsed.verb!r} is a player's command; organiser commands are: {ORGANISER_HELP}"
    if parsed.code == "unknown_name":
        return f"no player {parsed.written!r} in this season; players: {', '.join(p.name for p in game.players)}"
    if parsed.code == "ambiguous_name":
        return f"{parsed.written!r} could be {', '.join(game.names(parsed.candidates))}: write the full name"
    if parsed.code == "bad_number" and parsed.verb == "extend":
        return "extend needs a duration with its unit, e.g. extend 2h or extend 30m"
    if parsed.code == "bad_argument" and parsed.verb == "replace":
        return "replace needs the player's name and then the new account's name: replace NAME NEWACCOUNT"
    if parsed.code == "bad_argument" and parsed.verb == "penalty":
        return ("penalty needs a reason: lurking or flooding"
                + (f" ({parsed.written!r} is neither)" if parsed.written else "") + ", e.g. penalty NAME lurking")
    if parsed.code == "missing_target":
        return f"{parsed.verb} needs a player's name: {ORGANISER_HELP}"
    return f"not an organiser command; organiser commands are: {ORGANISER_HELP}"


def inexact(parsed: Any, game: Any) -> str | None:
    """Why a ``penalty`` or ``replace`` (neither can be taken back) whose player was read loosely (a typo,
    a prefix: the parser's :class:`~forumbot.language.types.NameReading` not exact) is refused, or None
    when the player is named exactly (account name, a declared alias, seat number)."""
    if parsed.verb not in ("penalty", "replace") or not parsed.readings or parsed.readings[0].exact:
        return None
    reading = parsed.readings[0]
    return (f"{reading.written!r} is not a player's exact name: did you mean {game.name(reading.seat)}? "
            f"write the exact name (or an alias of the season, or the seat number): a {parsed.verb} cannot be taken back")


def no_account(config: SeasonConfig, new: str, make_forum: Callable[[SeasonConfig], Any]) -> str | None:
    """Why ``replace NAME NEW`` is refused because the forum has no account ``new`` (exactly so spelt:
    private messages go to the exact name), or because the forum could not be asked; None when it exists.
    ``make_forum(config)``: the season's forum adapter. The same look-up as ``forumbot check --forum`` (:func:`forumbot.forums.check.account_report`)."""
    from forumbot.forums.check import name_variants

    forum = None
    try:
        forum = make_forum(config)
        forum.login()
        found = forum.find_user(new)
        near = None if found is not None else next((v for v in name_variants(new) if forum.find_user(v)), None)
    except (ForumError, SettingsError) as exc:
        return (f"could not ask the forum whether the account {new!r} exists ({exc}); try again when it answers, "
                "or add --no-check to replace without checking")
    finally:
        if forum is not None:
            forum.close()
    if found == new:
        return None
    if found is not None:
        return f"the forum spells this account {found}: write it exactly so (private messages go to the exact name)"
    hint = f"; the account {near} exists: is it the one meant?" if near else "; check the spelling on the forum"
    return f"no account {new!r} on the forum{hint} (the role message could not be delivered)"


def already_penalised(parsed: Any, game: Any) -> str | None:
    """Why a ``penalty`` of a player who already carries one is refused (the game answers it with
    common/organiser_refused, reason "already_penalised": one penalty a seat), or None."""
    if parsed.verb != "penalty" or not parsed.targets or parsed.targets[0] not in game.penalties:
        return None
    seat = parsed.targets[0]
    return f"{game.name(seat)} has already been penalised ({game.penalties[seat]}): one penalty a player"


def bad_substitute(parsed: Any, game: Any, config: SeasonConfig) -> str | None:
    """Why ``replace NAME NEWACCOUNT`` cannot be applied (the game refuses a substitute who already plays
    or organises: common/organiser_refused), or None when it can."""
    old, new = game.name(parsed.targets[0]), (parsed.text or "").strip()
    if new == old:
        return f"replace {old} {new} names the same player in and out: write the new account's name second"
    if game.seat_of(new) is not None:
        return f"{new} already plays in season {config.name!r}: the substitute must be a new account"
    if new in config.organisers:
        return f"{new} is an organiser of season {config.name!r}: the substitute must be a new account"
    return None
