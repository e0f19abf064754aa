"""The parser on real players' messages (tests/language/data, see real_messages.README.md).

``real_messages.jsonl``: the labelled corpus of issue 17 (433 messages). ``gathered_messages.jsonl``:
more real messages, each with its public source (TeamLiquid mafia threads through the scraped copy in
Xatalos/mafia-votecount, Chinese werewolf bots' issue threads, a game's Chinese dialogue lines).
``issue25_messages.jsonl``: issue 25's examples by PM and in the thread, Chinese werewolf table talk, and the
mafiascum posts of a public vote counter's fixtures. ``unseen_messages.jsonl``: 142 held-out messages (two mafiascum games, Chinese table talk),
labelled by hand and first read by the parser only after the work on issue 25 (see its README).
A *wrong* reading (a command recorded that the player did not give) is the worst defect a judge can
have: there must be none. Labels the parser disagrees with are listed in LABELS_WE_DISAGREE_WITH with
the reason; they still count as misses.
"""

from __future__ import annotations

import pytest
from corpus import judge, load, read

#: Corpus ids whose label we think is wrong (kept as misses, not bent around): id -> why.
LABELS_WE_DISAGREE_WITH = {
    391: "今天我倾向投3号 in the thread is unmarked chat (an inclination); asking would reply to chat",
    393: "最终归票3号 in the thread is advice to others (归票), unmarked chat",
    402: "建议今天归票投3号 in the thread is a suggestion, unmarked chat",
    411: "狼人 3 by PM: a role name is no verb; reading it would turn the claim 狼人3号 into a kill",
    413: "恋人 2 5 by PM: a role name is no verb (the link command is 连 / 连情侣)",
    414: "跳过 (pass) is no command in any of our rulebooks",
    204: "DP fits DarthPunk and DrParnassus equally (initials): the judge asks, never guesses",
}


@pytest.mark.parametrize(("name", "minimum", "at_least"), [
    ("real_messages.jsonl", 433, 0.95),
    ("gathered_messages.jsonl", 150, 0.95),
    ("issue25_messages.jsonl", 100, 0.98),
    ("unseen_messages.jsonl", 142, 0.98),
])
def test_read_as_labelled_and_never_wrong(name, minimum, at_least):
    rows = load(name)
    assert len(rows) >= minimum
    verdicts = [(row, judge(row, read(row))) for row in rows]
    wrong = [(row["id"], row["text"][:80]) for row, v in verdicts if v.wrong]
    assert wrong == []
    share = sum(v.as_labelled for _, v in verdicts) / len(rows)
    assert share >= at_least, f"{share:.1%} read as labelled"


@pytest.mark.parametrize("name", ["gathered_messages.jsonl", "issue25_messages.jsonl", "unseen_messages.jsonl"])
def test_gathered_messages_have_sources(name):
    rows = load(name)
    assert all(r["source"] and r["source_type"] for r in rows)
    assert len({(r["text"], r["channel"]) for r in rows}) == len(rows)  # no message counted twice
    corpus = {r["text"] for r in load("real_messages.jsonl")}
    assert not corpus & {r["text"] for r in rows}  # none of them is already in the corpus


def test_disagreements_are_still_misses():
    # a label we disagree with is reported, not worked around: the parser reads it otherwise
    rows = {r["id"]: r for r in load("real_messages.jsonl")}
    for id_ in LABELS_WE_DISAGREE_WITH:
        assert not judge(rows[id_], read(rows[id_])).as_labelled
