"""A season file's mistakes in an organiser's words: what the validation of :mod:`forumbot.config` finds,
told with the key, what is wrong and what to write instead (never the validation library's own phrasing,
never a 0-based index: "the 6th player").

Also the two steps that let one run of ``forumbot check`` report every mistake of a file: the shapes a
person often gets wrong (``players = "a,b"``, a number among the players) are told and read as meant, and
a key whose value is wrong is set aside (:func:`without`) so that the checks between keys still run.
"""

from __future__ import annotations

import difflib
import re
from typing import Any

from pydantic import BaseModel, ValidationError

Loc = list[str | int]

#: what one entry of a list key is called in a message
ENTRY_NOUNS = {"players": "player", "organisers": "organiser", "aliases": "alias", "reminders": "reminder",
               "vote_count_before": "time", "exact_kinds": "phase kind", "thread_marks": "mark"}
_SEPARATORS = "[，、,；;]"
#: the season file's durations (written "24h"), by their key under [schedule]; every entry of schedule.lengths is one
DURATION_KEYS = {"default", "poll_interval", "grace", "outage", "post_delay", "reminders", "vote_count_before", "lengths"}
#: (key, a value as people write it, lower case) -> the value meant
_VALUE_WORDS = {("locale", "zh-cn"): "zh-Hans", ("locale", "zh-sg"): "zh-Hans", ("locale", "cn"): "zh-Hans",
                ("locale", "zh"): "zh-Hans", ("locale", "简体"): "zh-Hans", ("locale", "简体中文"): "zh-Hans",
                ("locale", "zh-tw"): "zh-Hant", ("locale", "zh-hk"): "zh-Hant", ("locale", "繁體"): "zh-Hant",
                ("locale", "繁體中文"): "zh-Hant", ("locale", "english"): "en", ("locale", "en-us"): "en",
                ("locale", "en-gb"): "en", ("charset", "gb2312"): "gbk", ("charset", "gb18030"): "gbk",
                ("charset", "utf8"): "utf-8"}
_TYPE_WORDS = {"int": "a whole number (digits, no quotes)", "string": "text in quotes",
               "float": "a number (digits, no quotes)", "bool": "true or false (no quotes)"}


def ordinal(number: int) -> str:
    """1 -> "1st", 2 -> "2nd", 11 -> "11th", 23 -> "23rd"."""
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def _quoted_list(values: list[str]) -> str:
    return "[" + ", ".join(f'"{v}"' for v in values) + "]"


def name_list_problems(data: dict[str, Any]) -> tuple[list[tuple[Loc, str]], dict[str, Any]]:
    """The mistakes in the shape of ``players`` and ``organisers`` (text where a list belongs, an entry that
    is not in quotes), each (key, message), and ``data`` with those values read as meant (the text split at
    its commas, a number taken as its digits) so that the other checks can run on them."""
    problems: list[tuple[Loc, str]] = []
    fixed = dict(data)
    for key in ("players", "organisers"):
        value = data.get(key)
        noun = ENTRY_NOUNS[key]
        if isinstance(value, str):
            names = [p.strip() for p in re.split(_SEPARATORS, value) if p.strip()] or ["name"]
            problems.append(([key], f"write {key} as a list, each name in quotes: {key} = {_quoted_list(names)}"))
            fixed[key] = names
        elif isinstance(value, list):
            entries = []
            for index, entry in enumerate(value):
                if isinstance(entry, str):
                    entries.append(entry)
                    continue
                what = "a number" if isinstance(entry, int | float) and not isinstance(entry, bool) else "not a name"
                shown = str(entry).lower() if isinstance(entry, bool) else str(entry)
                problems.append(([key], f"the {ordinal(index + 1)} {noun}, {shown}, is {what}: write every name in "
                                        f'quotes, "{shown}" (a forum user name made of digits too)'))
                entries.append(shown)
            fixed[key] = entries
    aliases = data.get("aliases")
    if isinstance(aliases, dict):
        fixed_aliases = {}
        for owner, value in aliases.items():
            if isinstance(value, str):
                problems.append((["aliases", owner], f'write the aliases of {owner} as a list: "{owner}" = ["{value}"]'))
                value = [value]
            fixed_aliases[owner] = value
        fixed["aliases"] = fixed_aliases
    return problems, fixed


def _real_loc(loc: tuple[str | int, ...]) -> Loc:
    """A pydantic location without the names of union members (``seed.int``) and validators."""
    return [p for p in loc if not (isinstance(p, str) and (p in ("int", "str", "float", "bool", "none") or "[" in p))]


def _value_at(data: Any, loc: Loc) -> Any:
    for part in loc:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def plain_errors(exc: ValidationError, data: dict[str, Any], models: dict[tuple[str, ...], type[BaseModel]],
                 missing_hints: dict[str, str], examples: dict[str, str]) -> list[tuple[Loc, str]]:
    """Each error of ``exc`` (a validation of ``data``) as (key path without list indexes, message in plain
    words). ``models`` maps a table's path to its model (for an unknown key's likely spelling)."""
    grouped: dict[tuple[str | int, ...], list[dict[str, Any]]] = {}
    for e in exc.errors(include_url=False):
        grouped.setdefault(tuple(_real_loc(e["loc"])), []).append(dict(e))
    result = []
    for loc, errors in grouped.items():
        keys: Loc = [p for p in loc if isinstance(p, str)]
        index = next((p for p in loc if isinstance(p, int)), None)
        value = _value_at(data, list(loc))
        if len(errors) > 1 and all(e["type"].endswith(("_type", "_parsing", "_from_float")) for e in errors):
            words = [w for e in errors if (w := _TYPE_WORDS.get(e["type"].split("_")[0]))]
            message = f"{_shown(value)} cannot be used here: write " + " or ".join(dict.fromkeys(words))
        else:
            message = _message(errors[0], keys, value, data, models, missing_hints, examples)
        if index is not None and keys:
            noun = ENTRY_NOUNS.get(str(keys[-1]), "entry")
            message = f"the {ordinal(index + 1)} {noun}: {message}"
        result.append((keys, message))
    return result


def _id_in_address(address: str, leaf: str) -> str | None:
    """The thread's (or board's) number in its address: Discuz!'s tid= (fid=), phpBB's t= (f=), or the first
    number of the path (FlaskBB /topic/12, NodeBB /topic/12/slug); None when there is none."""
    from urllib.parse import parse_qs, urlsplit

    parts = urlsplit(address)
    query = parse_qs(parts.query)
    for name in (("tid", "t") if leaf == "thread_id" else ("fid", "f")):
        if query.get(name, [""])[0].isdigit():
            return query[name][0]
    m = re.search(r"\d+", parts.path)
    return m.group(0) if m else None


def _home_table(leaf: str, parent: Loc, models: dict[tuple[str, ...], type[BaseModel]]) -> str | None:
    """Where the key ``leaf``, written in the table ``parent`` that has no such key, belongs: "[schedule]",
    "the top level", or None when no table of ``models`` has it."""
    for path, model in models.items():
        if list(path) != [str(p) for p in parent] and leaf in model.model_fields and leaf != "path":
            return f"[{'.'.join(path)}]" if path else "the top level"
    return None


def _number_example(value: Any, keys: Loc, models: dict[tuple[str, ...], type[BaseModel]]) -> str:
    """A number to show in "e.g. key = ...": "35%" as 0.35, else the key's default (a chance of 0.05 is
    not shown as 15), else 15."""
    if isinstance(value, str) and (m := re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*[%％]\s*", value)):
        return f"{float(m.group(1)) / 100:g}"
    model = models.get(tuple(str(k) for k in keys[:-1]))
    field = model.model_fields.get(str(keys[-1])) if model is not None and keys else None
    default = field.default if field is not None else None
    if isinstance(default, int | float) and not isinstance(default, bool):
        return f"{default:g}"
    return "15"


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    return repr(value) if isinstance(value, str) else str(value)


def _message(e: dict[str, Any], keys: Loc, value: Any, data: dict[str, Any],
             models: dict[tuple[str, ...], type[BaseModel]], missing_hints: dict[str, str],
             examples: dict[str, str]) -> str:
    kind: str = e["type"]
    leaf = str(keys[-1]) if keys else ""
    ctx = e.get("ctx") or {}
    if kind == "extra_forbidden":
        model = models.get(tuple(str(k) for k in keys[:-1]))
        near = difflib.get_close_matches(leaf, list(model.model_fields) if model else [], n=1, cutoff=0.7)
        if not near and (home := _home_table(leaf, keys[:-1], models)) is not None:
            here = f"[{'.'.join(str(k) for k in keys[:-1])}]" if keys[:-1] else "the top level"
            return (f"{leaf} is a key of {home}, not of {here}: " + (
                f"move it above the first [table] header (a key below [{keys[0]}] belongs to [{keys[0]}])"
                if home == "the top level" else f"is the {home} header missing above it?"))
        return ("unknown key" + (f": did you mean {near[0]}?" if near else "")
                + " (check its spelling and its table; docs/config.md lists the keys allowed)")
    if kind == "missing":
        return "missing: " + missing_hints.get(".".join(str(k) for k in keys), "add it (see docs/config.md)")
    if kind == "literal_error":
        allowed = re.findall(r"'([^']*)'", str(ctx.get("expected", "")))
        written = str(value).strip().lower().replace("_", "-")
        meant = [a for a in allowed if a.lower().replace("_", "-") == written] or (
            [_VALUE_WORDS[(leaf, written)]] if (leaf, written) in _VALUE_WORDS else []) or difflib.get_close_matches(
            str(value), allowed, n=1, cutoff=0.75)
        hint = f"did you mean {leaf} = \"{meant[0]}\"? " if meant else ""
        return f"{_shown(value)} is not allowed: {hint}write one of {ctx.get('expected', '')}".rstrip()
    if kind in ("list_type", "tuple_type", "set_type"):
        example = _quoted_list([str(value)]) if isinstance(value, str | int) else '["..."]'
        return f"write {leaf} as a list, in brackets: {leaf} = {example}"
    if kind == "string_type" and isinstance(value, int | float) and not isinstance(value, bool) \
            and keys[:1] == ["schedule"] and len(keys) > 1 and keys[1] in DURATION_KEYS:
        unit = "m" if value > 48 else "h"  # 120 is more likely minutes than five days
        return (f"{_shown(value)} is a number without its unit: write a duration in quotes, e.g. "
                f"\"{_shown(value)}{unit}\" (h hours, m minutes, s seconds, d days)")
    if kind == "string_type":
        return f"{_shown(value)} is not text: write it in quotes, \"{_shown(value)}\""
    if kind in ("int_type", "int_parsing", "int_from_float") and leaf in ("thread_id", "forum_id") \
            and isinstance(value, str) and "://" in value and (number := _id_in_address(value, leaf)):
        return (f"{_shown(value)} is the address, not the number: write {leaf} = {number} (the "
                f"{'thread' if leaf == 'thread_id' else 'board'}'s number in its address, without quotes)")
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return f"{_shown(value)} is not a whole number: write digits without quotes, e.g. {leaf} = 3"
    if kind in ("float_type", "float_parsing"):
        return f"{_shown(value)} is not a number: write digits without quotes, e.g. {leaf} = {_number_example(value, keys, models)}"
    if kind in ("bool_type", "bool_parsing"):
        return f"{_shown(value)} is not true or false: write {leaf} = true or {leaf} = false (no quotes)"
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        return f"must be a table: write [{'.'.join(str(k) for k in keys)}] on a line of its own, its keys below it"
    if kind in ("greater_than", "greater_than_equal", "less_than", "less_than_equal"):
        bound = next(iter(ctx.values()), "")
        words = {"greater_than": "more than", "greater_than_equal": "at least", "less_than": "less than",
                 "less_than_equal": "at most"}[kind]
        return f"{_shown(value)} is too {'small' if 'greater' in kind else 'large'}: it must be {words} {bound}"
    if kind == "too_short":
        return "the list is empty: " + ('list the players, players = ["张三", "李四", ...]' if leaf == "players"
                                         else "give at least one entry")
    if kind == "string_too_short":
        return "must not be empty"
    if kind.startswith(("time", "datetime", "date")):
        return f"{_shown(value)} is not a valid {'time' if kind.startswith('time') else 'date-time'}; " + examples.get(
            leaf, "see docs/config.md")
    message: str = e["msg"].removeprefix("Value error, ")
    return message.replace("Input should be", "must be")


def without(data: dict[str, Any], loc: Loc, models: dict[tuple[str, ...], type[BaseModel]],
            free: set[tuple[str, ...]]) -> dict[str, Any] | None:
    """A copy of ``data`` without the key at ``loc`` (so that the rest can be checked), or None when the key
    is required and cannot be left out. ``models`` maps a table's path to its model; ``free`` lists the
    tables whose entries any key may name (``schedule.lengths``: an entry can always be dropped)."""
    keys = [str(k) for k in loc if isinstance(k, str)]
    for cut in range(len(keys), 0, -1):
        parent, key = tuple(keys[: cut - 1]), keys[cut - 1]
        model = models.get(parent)
        if model is None and parent not in free:
            continue
        if model is not None and key in model.model_fields and model.model_fields[key].is_required():
            return None
        copy = _deep_copy(data)
        table = _value_at(copy, list(parent))
        if isinstance(table, dict) and key in table:
            del table[key]
            return copy
        return None
    return None


def _deep_copy(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: _deep_copy(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_deep_copy(v) for v in data]
    return data


def locate(text: str, loc: list[str]) -> int | None:
    """The line (1-based) where the key ``loc`` (a path such as ["schedule", "lengths", "vote"]) is
    written in the TOML ``text``, or of its nearest written parent; None if not found."""
    lines = text.splitlines()
    best: int | None = None
    table: list[str] = []
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        m = re.match(r"^\[+\s*([^\]]+?)\s*\]+", line)
        if m:
            table = [p.strip().strip('"') for p in m.group(1).split(".")]
            if table == loc[: len(table)]:
                best = number
            continue
        m = re.match(r'^("?)([^"=]+?)\1\s*=', line)
        if m:
            key = table + [p.strip().strip('"') for p in m.group(2).split(".")]
            if key == loc[: len(key)]:
                best = number
    return best
