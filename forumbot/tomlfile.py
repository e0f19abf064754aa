"""Reading a season file as organisers write it: UTF-8 (a byte order mark, as Windows Notepad writes,
is accepted), and TOML whose mistakes are named the way a person can fix them.

Chinese keyboards make two mistakes that TOML's own messages do not explain: a file saved as GBK, and
full-width punctuation (，：＝“” …) typed between values. Both are reported with the line, the
character and the fix.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

BOM = "\ufeff"

#: full-width or typographic characters that break TOML outside a string -> (what it is, what to type)
LOOKALIKES: dict[str, tuple[str, str]] = {
    "，": ("a full-width comma", ","),
    "、": ("an ideographic comma", ","),
    "：": ("a full-width colon", ":"),
    "＝": ("a full-width equals sign", "="),
    "［": ("a full-width bracket", "["),
    "］": ("a full-width bracket", "]"),
    "【": ("a full-width bracket", "["),
    "】": ("a full-width bracket", "]"),
    "｛": ("a full-width brace", "{"),
    "｝": ("a full-width brace", "}"),
    "“": ("a curly quotation mark", '"'),
    "”": ("a curly quotation mark", '"'),
    "＂": ("a full-width quotation mark", '"'),
    "‘": ("a curly quotation mark", "'"),
    "’": ("a curly quotation mark", "'"),
    "＃": ("a full-width number sign", "#"),
    "．": ("a full-width full stop", "."),
    "。": ("an ideographic full stop", "."),
    "\u3000": ("a full-width space", "an ordinary space"),
    **{chr(0xFF10 + d): ("a full-width digit", str(d)) for d in range(10)},
}


class TomlFileError(ValueError):
    """The file cannot be read as UTF-8 TOML; the message names the line and the fix."""


def read_toml_file(path: Path) -> tuple[str, dict[str, Any]]:
    """The text (without a byte order mark) and the parsed TOML of ``path``.

    Raises :class:`TomlFileError` when the file cannot be read, is not UTF-8 (e.g. GBK), or is not TOML;
    a full-width or curly punctuation mark outside a string is named with its line, column and the
    ASCII character to type instead.
    """
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise TomlFileError(f"cannot read {path}: {exc.strerror}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        guess = ""
        try:
            raw.decode("gb18030")
            guess = " (it looks like GBK/GB18030, the Chinese Windows default)"
        except UnicodeDecodeError:
            pass
        raise TomlFileError(
            f"{path} line {line}: the file is not UTF-8{guess}; a season file must be saved as UTF-8. "
            "In Notepad: File → Save As → Encoding: UTF-8; or convert it with "
            f"`iconv -f GB18030 -t UTF-8 {path.name} > new.toml`"
        ) from None
    text = text.removeprefix(BOM)
    try:
        return text, tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        found = first_lookalike(text)
        if found is not None:
            line, column, char = found
            what, fix = LOOKALIKES[char]
            typed = "replace it with an ordinary space" if fix.startswith("an ") else f"type {fix!r} instead"
            raise TomlFileError(
                f"{path} line {line}, column {column}: {what} {char!r} (U+{ord(char):04X}) outside quotes breaks "
                f"the TOML: {typed}, with the keyboard in English mode (e.g. players = [\"张三\", \"李四\"])"
            ) from None
        raise TomlFileError(f"{path} is not valid TOML: {exc}") from None


_STRING = re.compile(r'"""(?:\\.|[^\\])*?"""|\'\'\'.*?\'\'\'|"(?:\\.|[^"\\\n])*"|\'[^\'\n]*\'|#[^\n]*', re.DOTALL)


def first_lookalike(text: str) -> tuple[int, int, str] | None:
    """(line, column, character), 1-based, of the first :data:`LOOKALIKES` character outside strings and
    comments of ``text``, or None. A curly quotation mark counts even though it opens a "string"."""
    spans = [m.span() for m in _STRING.finditer(text)]
    covered: set[int] = set()
    for start, end in spans:
        covered.update(range(start, end))
    for index, char in enumerate(text):
        if char in LOOKALIKES and index not in covered:
            line = text.count("\n", 0, index) + 1
            column = index - (text.rfind("\n", 0, index) + 1) + 1
            return line, column, char
    return None
