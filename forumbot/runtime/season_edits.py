"""A season file edited while its season runs: which edits are accepted, and what a refusal says.

The game is a function of the setup it started with (players, draw, parameters, organisers, aliases),
stored in the database, and is always replayed from it. After an organiser's ``replace OLD NEW`` the natural tidy-up is to write NEW
in place of OLD in ``players`` (and in ``roles`` / ``aliases`` keys): such a file describes the same
season and is accepted; the game is still built from the stored setup and replays the replacement.
Any other difference is refused, naming the field and the difference, with the way back; a running
season is never abandoned.

The setup also records the versions that judged the season (the command parser's and the ruleset's,
:func:`judging_versions`): a forumbot whose versions differ refuses to re-read the season's stored messages
(:func:`check_versions`) unless the organiser explicitly accepts the new versions, which is recorded.
"""

from __future__ import annotations

import json
from typing import Any

from forumbot.config import ConfigError, SeasonConfig

#: fields a ``replace`` renames; every other field of the setup must stay as the season started
RENAMED = ("players", "roles", "aliases")
#: fields of the setup about the code that judges the season, checked by :func:`check_versions`
VERSION_FIELDS = ("versions", "versions_accepted")
#: the versions of a season stored before versions were recorded (the first of each)
FIRST_VERSIONS = {"parser": "1", "rules": "1"}


class VersionsChanged(ConfigError):
    """A running season was judged by another version of the parser or of its ruleset than this forumbot's."""


def judging_versions(ruleset_id: str) -> dict[str, str]:
    """``{"parser": ..., "rules": ...}``: the versions of the command parser and of ruleset ``ruleset_id``
    (:data:`forumbot.language.parse.PARSER_VERSION`, :attr:`forumbot.engine.ruleset.Ruleset.rules_version`).
    Raises KeyError for an unknown ruleset."""
    from forumbot.engine.ruleset import get_ruleset
    from forumbot.language.parse import PARSER_VERSION

    return {"parser": PARSER_VERSION, "rules": get_ruleset(ruleset_id).rules_version}


def check_versions(config: SeasonConfig, stored: dict[str, Any], current: dict[str, str], accept: bool,
                   inputs: int, at: str) -> dict[str, Any] | None:
    """Whether a running season (``stored``: its setup; ``inputs``: how many inputs it has judged) may be
    resumed by code of the ``current`` versions.

    Returns None when the versions are the season's; the setup to store when they differ and ``accept`` is
    true (the new versions, and the change appended to ``versions_accepted`` with ``at``, an ISO time).
    Raises :class:`VersionsChanged` when they differ and ``accept`` is false: re-reading the stored messages
    with another parser or rules might decide them differently from what the players were told.
    """
    before = dict(stored.get("versions") or FIRST_VERSIONS)
    if before == current:
        return None
    changed = [f"the command parser {before.get('parser')} → {current['parser']}"
               if before.get("parser") != current["parser"] else "",
               f"the {config.ruleset} rules {before.get('rules')} → {current['rules']}"
               if before.get("rules") != current["rules"] else ""]
    what = " and ".join(c for c in changed if c)
    if not accept:
        raise VersionsChanged(
            f"season {config.name!r} was judged by other versions than this forumbot's ({what}); re-reading its "
            f"{inputs} stored inputs with the new versions could decide them differently from what the players "
            "were told, so the season does not resume. Either finish the season with the forumbot release that "
            f"started it (versions: parser {before.get('parser')}, rules {before.get('rules')}), or, having "
            "checked that the changes cannot alter this season's past decisions, run it once with "
            "`forumbot run FILE --accept-new-rules`: the new versions are then recorded in the season.")
    accepted = [*stored.get("versions_accepted", []), {"from": before, "to": current, "at": at}]
    return {**stored, "versions": current, "versions_accepted": accepted}


def as_started(config: SeasonConfig, stored: dict[str, Any]) -> SeasonConfig:
    """``config`` with everything the season started with (``stored``: ruleset, parameters, organisers,
    players, draw, aliases), for replaying its game whatever the file now says; :func:`check_unchanged` and
    :func:`check_after_replacements` then say what of the file may stand."""
    return config.model_copy(update={
        "ruleset": stored.get("ruleset", config.ruleset), "params": stored.get("params", config.params),
        "organisers": list(stored.get("organisers", config.organisers)),
        "players": list(stored.get("players", config.players)),
        "roles": stored.get("roles"), "aliases": stored.get("aliases", {})})


def check_unchanged(config: SeasonConfig, stored: dict[str, Any], current: dict[str, Any], finished: bool) -> None:
    """Raise :class:`ConfigError` when a field a season cannot change (ruleset, parameters, organisers)
    differs between the setup it started with (``stored``) and the file (``current``), naming it and the
    difference; ``finished``: the season is over (the message says so)."""
    fixed = [k for k in sorted(set(stored) | set(current))
             if k not in RENAMED + VERSION_FIELDS and stored.get(k) != current.get(k)]
    if fixed:
        problems = [f"{k}: {_difference(stored.get(k), current.get(k))}" for k in fixed]
        goes_on = "its results stand unchanged" if finished else "the game goes on unchanged"
        raise ConfigError(
            f"season {config.name!r} {_state(finished)} and its file changed what the game is made of: "
            + "; ".join(problems)
            + f". Put back what the season started with ({goes_on}); "
            + ", ".join(fixed) + " cannot change once a season has started."
        )


def _state(finished: bool) -> str:
    return "is over" if finished else "is running"


def check_after_replacements(config: SeasonConfig, stored: dict[str, Any], names_now: list[str],
                             finished: bool = False) -> None:
    """Accept ``config`` (the edited file) if its players, draw and aliases are the season's as it
    started (``stored``) or after its replacements (``names_now``: the players' names now, in seat
    order). Raises :class:`ConfigError` naming each field that matches neither and how it differs;
    ``finished``: the season is over (the message says so, and no longer offers ``replace``)."""
    started = list(stored.get("players", []))
    renames = {old: new for old, new in zip(started, names_now, strict=False) if old != new}
    problems = []
    if config.players not in (started, names_now):
        problems.append("players: " + _players_difference(config.players, names_now, renames))
    roles = stored.get("roles")
    allowed_roles = [roles] if roles is None else [roles, {renames.get(k, k): v for k, v in roles.items()}]
    if config.roles not in allowed_roles:
        want = allowed_roles[-1]
        problems.append(f"roles: {_difference(want, config.roles)}")
    aliases = stored.get("aliases", {})
    allowed_aliases = [aliases, {k: v for k, v in aliases.items() if k not in renames},
                       {renames.get(k, k): v for k, v in aliases.items()}]
    if config.aliases not in allowed_aliases:
        problems.append(f"aliases: {_difference(allowed_aliases[1], config.aliases)}")
    if problems:
        if finished:
            raise ConfigError(
                f"season {config.name!r} is over and its file does not match it: " + "; ".join(problems)
                + ". Correct the file (the season's results stand unchanged); for a new game, write a new season "
                "file with another name."
            )
        raise ConfigError(
            f"season {config.name!r} is running and its file does not match it: " + "; ".join(problems)
            + ". Correct the file (the game goes on unchanged); to seat someone new, use the organiser command "
            "`replace OLD NEW`, then write NEW in place of OLD."
        )


def _players_difference(written: list[str], now: list[str], renames: dict[str, str]) -> str:
    replaced = ", ".join(f"{old} → {new}" for old, new in renames.items())
    season = f"the season's players{f' (after replace {replaced})' if replaced else ''} are {_names(now)}"
    extra = [n for n in written if n not in now]
    missing = [n for n in now if n not in written]
    parts = []
    if extra:
        gone = [n for n in extra if n in renames]
        parts.append(f"the file lists {_names(extra)}, not in the season"
                     + (f" ({_names(gone)} replaced)" if gone else ""))
    if missing:
        parts.append(f"it leaves out {_names(missing)}")
    if not parts:
        parts.append("the file has the same names in another order (the list is in seat order)")
    return f"{season}; " + ", and ".join(parts)


def _names(names: list[str]) -> str:
    return ", ".join(names) if names else "nobody"


def _difference(started: Any, written: Any) -> str:
    if isinstance(started, dict) and isinstance(written, dict):
        changed = [k for k in sorted(set(started) | set(written)) if started.get(k) != written.get(k)]
        return "; ".join(
            f"{k} was {_show(started[k]) if k in started else '(not set)'} at the start, the file says "
            f"{_show(written[k]) if k in written else '(not set)'}" for k in changed
        )
    return f"was {_show(started)} at the start, the file says {_show(written)}"


def _show(value: Any) -> str:
    return "(not set)" if value is None else json.dumps(value, ensure_ascii=False)
