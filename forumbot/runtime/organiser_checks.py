"""Checks of an organiser command before it is stored (``forumbot organiser`` and the console alike): what the bot
would never apply is refused with one sentence saying why and what to write. The bot itself answers a command it
cannot apply by private message; these checks refuse it before it is stored, where the organiser typed it.

Each check gives a :class:`OrganiserRefusal` (a key and its values); its sentence is the macro of that key in
``templates/<locale>/console/refusals.html`` (:func:`sentence`): the command line prints the English one
(``str(refusal)``), the console shows the page's locale."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from forumbot.config import SeasonConfig
from forumbot.engine.game import MAX_EXTEND_SECONDS
from forumbot.forums.errors import ForumError
from forumbot.forums.settings import SettingsError


@dataclass(frozen=True)
class OrganiserRefusal:
    """Why an organiser command is refused: ``key``, a macro of ``console/refusals.html``, and its ``values``
    (strings, or lists of names). ``str()``: the English sentence."""

    key: str
    values: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return sentence(self, "en")


@functools.cache
def _refusals(locale: str) -> Any:
    import jinja2

    from forumbot.render import TEMPLATES

    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES / locale)), autoescape=False,
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    return env.get_template("console/refusals.html").module


def sentence(refusal: OrganiserRefusal, locale: str = "en") -> str:
    """The sentence of ``refusal`` in ``locale`` (zh-Hans, zh-Hant, en), plain text."""
    return str(getattr(_refusals(locale), refusal.key)(refusal.values)).strip()


def why_not_organiser(parsed: Any, game: Any) -> OrganiserRefusal:
    """Why a command typed on the command line is not an organiser command, and what to type."""
    from forumbot.language.types import ParseError

    if not isinstance(parsed, ParseError):
        return OrganiserRefusal("player_verb", {"verb": parsed.verb})
    if parsed.code == "unknown_name":
        return OrganiserRefusal("unknown_name", {"written": parsed.written, "players": [p.name for p in game.players]})
    if parsed.code == "ambiguous_name":
        return OrganiserRefusal("ambiguous_name", {"written": parsed.written, "candidates": list(game.names(parsed.candidates))})
    if parsed.code == "bad_number" and parsed.verb == "extend":
        return OrganiserRefusal("bad_duration")
    if parsed.code == "bad_argument" and parsed.verb == "replace":
        return OrganiserRefusal("replace_needs_two")
    if parsed.code == "bad_argument" and parsed.verb == "penalty":
        return OrganiserRefusal("penalty_needs_reason", {"written": parsed.written or ""})
    if parsed.code == "missing_target":
        return OrganiserRefusal("missing_target", {"verb": parsed.verb})
    return OrganiserRefusal("not_organiser_command")


def explain(parsed: Any, game: Any) -> str:
    """:func:`why_not_organiser` in English."""
    return str(why_not_organiser(parsed, game))


def too_long(parsed: Any) -> OrganiserRefusal | None:
    """Why an ``extend`` longer than :data:`MAX_EXTEND_SECONDS` is refused, or None."""
    if parsed.verb == "extend" and parsed.number is not None and parsed.number > MAX_EXTEND_SECONDS:
        return OrganiserRefusal("extend_too_long", {"days": MAX_EXTEND_SECONDS // 86400})
    return None


def inexact_refusal(parsed: Any, game: Any) -> OrganiserRefusal | None:
    """Why a ``penalty`` or ``replace`` (neither can be taken back) whose player was read loosely (a typo,
    a prefix: the parser's :class:`~forumbot.language.types.NameReading` not exact) is refused, or None
    when the player is named exactly (account name, a declared alias, seat number)."""
    if parsed.verb not in ("penalty", "replace") or not parsed.readings or parsed.readings[0].exact:
        return None
    reading = parsed.readings[0]
    return OrganiserRefusal("inexact_name", {"written": reading.written, "meant": game.name(reading.seat), "verb": parsed.verb})


def inexact(parsed: Any, game: Any) -> str | None:
    """:func:`inexact_refusal` in English."""
    refusal = inexact_refusal(parsed, game)
    return None if refusal is None else str(refusal)


def no_account_refusal(config: SeasonConfig, new: str, make_forum: Callable[[SeasonConfig], Any]) -> OrganiserRefusal | None:
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
        return OrganiserRefusal("forum_not_asked", {"new": new, "error": str(exc)})
    finally:
        if forum is not None:
            forum.close()
    if found == new:
        return None
    if found is not None:
        return OrganiserRefusal("spelt_otherwise", {"found": found})
    return OrganiserRefusal("no_account", {"new": new, "near": near or ""})


def no_account(config: SeasonConfig, new: str, make_forum: Callable[[SeasonConfig], Any]) -> str | None:
    """:func:`no_account_refusal` in English."""
    refusal = no_account_refusal(config, new, make_forum)
    return None if refusal is None else str(refusal)


def already_penalised_refusal(parsed: Any, game: Any) -> OrganiserRefusal | None:
    """Why a ``penalty`` of a player who already carries one is refused (the game answers it with
    common/organiser_refused, reason "already_penalised": one penalty a seat), or None."""
    if parsed.verb != "penalty" or not parsed.targets or parsed.targets[0] not in game.penalties:
        return None
    seat = parsed.targets[0]
    return OrganiserRefusal("already_penalised", {"player": game.name(seat), "earlier": game.penalties[seat]})


def already_penalised(parsed: Any, game: Any) -> str | None:
    """:func:`already_penalised_refusal` in English."""
    refusal = already_penalised_refusal(parsed, game)
    return None if refusal is None else str(refusal)


def bad_substitute_refusal(parsed: Any, game: Any, config: SeasonConfig) -> OrganiserRefusal | None:
    """Why ``replace NAME NEWACCOUNT`` cannot be applied (the game refuses a substitute who already plays
    or organises: common/organiser_refused), or None when it can."""
    old, new = game.name(parsed.targets[0]), (parsed.text or "").strip()
    if new == old:
        return OrganiserRefusal("same_player", {"old": old, "new": new})
    if game.seat_of(new) is not None:
        return OrganiserRefusal("already_plays", {"new": new, "season": config.name})
    if new in config.organisers:
        return OrganiserRefusal("organises", {"new": new, "season": config.name})
    return None


def bad_substitute(parsed: Any, game: Any, config: SeasonConfig) -> str | None:
    """:func:`bad_substitute_refusal` in English."""
    refusal = bad_substitute_refusal(parsed, game, config)
    return None if refusal is None else str(refusal)
