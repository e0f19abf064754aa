"""Reading a labelled corpus of real messages (tests/language/data/real_messages.jsonl, see its README)
the way the judge would, and scoring the parser on it."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from forumbot.language.parse import DEFAULT_THREAD_MARKS, parse
from forumbot.language.types import Command, ParseError, Roster

DATA = Path(__file__).parent / "data"


def load(name: str) -> list[dict]:
    """The rows of ``data/<name>`` (JSON lines)."""
    with open(DATA / name, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def read(row: dict) -> Command | ParseError:
    """Parse one row as the judge would: its channel, roster, sender, the verbs the game takes in the
    thread (a game that takes votes there also takes unvote and no-lynch) and the locale's marks."""
    roster = Roster.of(row["roster"])
    sender = roster.seat(row["sender"]) if row.get("sender") else None
    if row["channel"] == "thread":
        verbs = set(row["verbs"]) | ({"unvote", "nolynch"} if "vote" in row["verbs"] else set())
        return parse(row["text"], roster, sender_seat=sender, channel="thread",
                     marks=DEFAULT_THREAD_MARKS[row["lang"]], verbs=verbs)
    return parse(row["text"], roster, sender_seat=sender)


@dataclass(frozen=True)
class Verdict:
    """``as_labelled``: the reading is the label's; ``wrong``: a command was recorded that the label
    does not give (another verb, other targets, or any command for chat or a question)."""

    as_labelled: bool
    wrong: bool


def judge(row: dict, result: Command | ParseError) -> Verdict:
    exp = row["expected"]
    if exp.get("none") or exp.get("verb") == "none":
        ok = isinstance(result, ParseError) and (row["channel"] == "pm" or result.code == "no_command")
        return Verdict(ok, isinstance(result, Command))
    if exp.get("ambiguous") or exp.get("verb") == "ambiguous":
        ok = isinstance(result, ParseError) and result.code != "no_command"
        return Verdict(ok, isinstance(result, Command))
    if not isinstance(result, Command):
        return Verdict(False, False)
    roster = row["roster"]
    ok = result.verb == exp["verb"]
    if ok and "targets" in exp and result.verb not in ("unvote", "nolynch"):
        ok = [roster[t - 1] for t in result.targets] == exp["targets"]
    return Verdict(ok, not ok)
