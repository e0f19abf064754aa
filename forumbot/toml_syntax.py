"""TOML syntax mistakes told where they are and how to fix them, in an organiser's words.

:mod:`tomllib` stops at the first mistake and says where it noticed it, which is often not where it is: a
list whose ``]`` is missing is reported where the next table starts (or at the end of the file), a key
written twice at the end of the document, without the key. This module scans the text itself (strings and
comments skipped) to find the bracket that was opened and the two lines that write one key.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_AT = re.compile(r"\s*\(at (?:line (\d+), column (\d+)|end of document)\)$")
_BARE_KEY = r"(?:\"[^\"\n]*\"|'[^'\n]*'|[A-Za-z0-9_-]+)"
_DOTTED = rf"{_BARE_KEY}(?:\s*\.\s*{_BARE_KEY})*"
_KEY_LINE = re.compile(rf"^\s*({_DOTTED})\s*=")
_TABLE_LINE = re.compile(rf"^\s*(\[\[?)\s*({_DOTTED})\s*\]")


@dataclass(frozen=True)
class Opener:
    """A ``[`` or ``{`` that opens a value: its 1-based line and column, the key it is the value of, and
    whether a matching closer follows somewhere in the text."""

    char: str
    line: int
    column: int
    key: str
    closed: bool


def key_parts(dotted: str) -> list[str]:
    """``schedule.lengths."night"`` -> ["schedule", "lengths", "night"]."""
    return [p.strip().strip("\"'") for p in re.findall(_BARE_KEY, dotted)]


def keys_by_line(text: str) -> dict[int, str]:
    """The full dotted key (table prefix included) written on each line that starts ``key =`` or a table
    header, by 1-based line number."""
    found: dict[int, str] = {}
    table: list[str] = []
    for number, raw in enumerate(_blank_multiline_strings(text).splitlines(), start=1):
        if header := _TABLE_LINE.match(raw):
            table = key_parts(header.group(2))
            found[number] = ".".join(table)
        elif written := _KEY_LINE.match(raw):
            found[number] = ".".join(table + key_parts(written.group(1)))
    return found


def key_at(text: str, line: int) -> str | None:
    """The key written on ``line`` or, failing that, the nearest key line above it."""
    keys = keys_by_line(text)
    above = [n for n in keys if n <= line]
    return keys[max(above)] if above else None


def written_twice(text: str) -> tuple[str, int, int] | None:
    """(key, first line, second line) of the first key or table header written twice in ``text``, or None.
    Array-of-tables headers (``[[x]]``) may repeat; a table whose keys were already set by a dotted key
    counts as written twice."""
    seen: dict[str, int] = {}
    arrays: set[str] = set()
    table: list[str] = []
    for number, raw in enumerate(_blank_multiline_strings(text).splitlines(), start=1):
        if header := _TABLE_LINE.match(raw):
            table = key_parts(header.group(2))
            name = ".".join(table)
            if header.group(1) == "[[":
                if name in seen and name not in arrays:  # a key or [table] of that name, then [[name]]
                    return name, seen[name], number
                # every [[x]] opens a new table: its keys start afresh
                seen = {k: v for k, v in seen.items() if not k.startswith(name + ".")}
                arrays.add(name)
                seen.setdefault(name, number)
                continue
            if name in arrays:
                return name, seen[name], number
            if name in seen:
                return name, seen[name], number
            seen[name] = number
        elif written := _KEY_LINE.match(raw):
            name = ".".join(table + key_parts(written.group(1)))
            if name in seen:
                return name, seen[name], number
            seen[name] = number
    return None


def _blank_multiline_strings(text: str) -> str:
    """``text`` with the insides of multi-line strings replaced by spaces (line breaks kept), so that a
    line inside one is never read as a key."""
    def blank(m: re.Match[str]) -> str:
        return re.sub(r"[^\n]", " ", m.group(0))

    return re.sub(r'"""(?:\\.|[^\\])*?"""|\'\'\'.*?\'\'\'', blank, text, flags=re.DOTALL)


def openers(text: str, stop: int | None = None) -> list[Opener]:
    """The value brackets (``[`` of a list, ``{`` of an inline table) still open at offset ``stop`` of
    ``text`` (the end when None), outermost first; strings and comments are skipped, a table header is not a
    value. ``closed`` says whether the rest of the text closes each of them."""
    stack: list[tuple[str, int, int, str]] = []
    line, line_start, index = 1, 0, 0
    in_value = False  # after "key =" on this line, or inside a bracket
    keys = keys_by_line(text)
    result: list[tuple[str, int, int, str]] | None = None
    length = len(text)
    while index < length:
        if stop is not None and index >= stop and result is None:
            result = list(stack)
        char = text[index]
        if char == "\n":
            line += 1
            line_start = index + 1
            in_value = bool(stack)
        elif char == "#":
            end = text.find("\n", index)
            index = length if end < 0 else end
            continue
        elif char in "\"'":
            triple = text.startswith(char * 3, index)
            quote = char * 3 if triple else char
            end = index + len(quote)
            while end < length:
                if char == '"' and text[end] == "\\":
                    end += 2
                    continue
                if text.startswith(quote, end):
                    break
                if not triple and text[end] == "\n":
                    break  # an unclosed one-line string ends at its line: tomllib reports it itself
                end += 1
            newlines = text.count("\n", index, end)
            if newlines:
                line += newlines
                line_start = text.rfind("\n", 0, end) + 1
            index = end + (len(quote) if text.startswith(quote, end) else 0)
            continue
        elif char == "=" and not stack:
            in_value = True
        elif char in "[{" and (in_value or stack):
            stack.append((char, line, index - line_start + 1, keys.get(line) or key_at(text, line) or ""))
        elif char in "]}" and stack and stack[-1][0] == "[{"["]}".index(char)]:
            stack.pop()
        index += 1
    still_open = result if result is not None else list(stack)
    unclosed = {(c, ln, col) for c, ln, col, _ in stack}
    return [Opener(c, ln, col, key, (c, ln, col) not in unclosed) for c, ln, col, key in still_open]


def _offset(text: str, line: int, column: int) -> int:
    lines = text.split("\n")
    return sum(len(x) + 1 for x in lines[: line - 1]) + column - 1


def syntax_message(text: str, error: str) -> str:
    """What is wrong and how to fix it, "line N: key: ..." (no file name), for tomllib's ``error`` on
    ``text``. The line is where the mistake is: the ``[`` of a list never closed, both lines of a key
    written twice."""
    at = _AT.search(error)
    what = error[: at.start()] if at else error
    line = int(at.group(1)) if at and at.group(1) else None
    column = int(at.group(2)) if at and at.group(2) else None
    stop = _offset(text, line, column) if line and column else None

    twice = written_twice(text) if what.startswith(("Cannot overwrite", "Cannot declare", "Cannot mutate")) else None
    if twice:
        name, first, second = twice
        lines = text.split("\n")
        if _TABLE_LINE.match(lines[second - 1]) and not _TABLE_LINE.match(lines[first - 1]):
            return (f"line {second}: {name}: written as a key on line {first} and as a table on line {second}: one "
                    "name is one or the other; rename or delete one of them")
        if _TABLE_LINE.match(lines[second - 1]):
            return (f"line {second}: {name}: the table [{name}] is written twice, on line {first} and on line "
                    f"{second}: put all its keys under one [{name}] and delete the other header")
        return (f"line {second}: {name}: written twice, on line {first} and on line {second}: a key may be "
                "given once; keep one of them and delete the other")
    if what.startswith(("Unclosed array", "Unclosed inline table", "Invalid value", "Expected newline")) or stop is None:
        open_now = openers(text, stop)
        if open_now:
            outer = open_now[0]
            inner = open_now[-1]
            kind = "list" if inner.char == "[" else "inline table"
            closer = "]" if inner.char == "[" else "}"
            if not outer.closed:
                outer_kind = "list" if outer.char == "[" else "inline table"
                outer_closer = "]" if outer.char == "[" else "}"
                return (f"line {outer.line}: {outer.key or 'a value'}: the {outer_kind} opened with "
                        f"{outer.char!r} on line {outer.line} is never closed: add {outer_closer!r} after its last "
                        f"value{', and separate its values with commas' if outer.char == '[' else ''}")
            if line is not None and stop is not None:
                owner = inner.key or "a value"
                here = text[stop:]
                container = "a list" if closer == "]" else "an inline table"
                if what.startswith("Invalid value") and (word := re.match(r"[^\s,\]}\"'=\d+\-\[{]+", here)):
                    return (f"line {line}: {owner}: {word.group(0)!r} is not in quotes: every name or text in "
                            f"{container} goes in quotes, e.g. \"{word.group(0)}\"")
                if here.startswith((";", "|", "/")):
                    return (f"line {line}: {owner}: {here[0]!r} between values in the {kind}: values in {container} "
                            "are separated by commas, e.g. " + ('players = ["张三", "李四"]' if closer == "]" else "{ a = 1, b = 2 }"))
                if re.match(r"[^\s,\]}\"'=\[{]+[\"']", here):
                    return (f"line {line}: {owner}: a quotation mark is missing before column {column} (the text before "
                            "it closes too early): every name in a list has one before and one after it, e.g. "
                            'players = ["张三", "李四"]')
                if what.startswith("Invalid value") and here.startswith(","):
                    return f"line {line}: {owner}: a comma with no value before it (two commas in a row?) in the {kind}"
                return (f"line {line}: {owner}: a comma is missing before column {column} in the {kind} opened on line "
                        f"{inner.line} (values in {container} are separated by "
                        "commas, e.g. " + ('players = ["张三", "李四"])' if closer == "]" else "{ a = 1, b = 2 })"))
    key = key_at(text, line) if line else None
    where = f"line {line}: " if line else ""
    named = f"{key}: " if key else ""
    if what.startswith("Illegal character") and "'\\n'" in what:
        return f"{where}{named}a text in quotes is not closed on its line: add the closing quotation mark"
    if what.startswith("Invalid statement") and line is not None:
        written = text.split("\n")[line - 1].strip()
        name = re.split(r"\s*[=:：＝]", written, maxsplit=1)[0]
        if name and not re.fullmatch(r"[A-Za-z0-9_.\-\s\"']+", name):
            return (f"{where}{name!r} cannot be a key as written: a key is made of English letters, digits, _ and - "
                    "(docs/config.md lists the keys; a name in another script goes in quotes, e.g. \"张三\" = [\"小张\"])")
        return (f"{where}this line is neither key = value nor a [table] header: write e.g. "
                'name = "版杀第一季" or [forum]')
    if what.startswith("Expected '=' after a key"):
        return (f"{where}a key must be followed by = and its value (a key has no spaces; a value that is text "
                'goes in quotes after =, e.g. name = "版杀第一季")')
    if what.startswith("Expected ']' at the end of a table declaration") or what.startswith("Expected ']]'"):
        return f"{where}a table header must end with ']' on its line, e.g. [forum]"
    if what.startswith("Expected newline") and line is not None:
        rest = text.split("\n")[line - 1][column - 1 if column else 0:].lstrip()
        if rest.startswith(("\"", "'", ",")) or "," in rest:
            leaf = (key or "players").split(".")[-1]
            return (f"{where}{named}several values must be written as a list, in brackets: "
                    f'{leaf} = ["a", "b"]')
        return f"{where}{named}one key = value per line: the text after the value does not belong to it"
    if what.startswith("Invalid value") and line is not None:
        return f"{where}{named}not a value TOML can read: text goes in quotes, a list in [ ], a number as digits"
    return f"{where}{named}{what[:1].lower() + what[1:]}"
