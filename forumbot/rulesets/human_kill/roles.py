"""human_kill's roles, factions, the starting distribution and the weather table.

Sources: the rulebook 《人类杀》 (准备游戏: the thirds rule), its appendix (the same game's public rules: the
standard table by player count and the weather) and the rulings on what they leave open (human_kill).
"""

from __future__ import annotations

import random

from pydantic import BaseModel, ConfigDict, Field, field_validator

HUMAN, REIMU, RINNOSUKE = "human", "reimu", "rinnosuke"
YOUKAI, REMILIA, YUKARI, MAMIZOU, YUUKA, UTSUHO = "youkai", "remilia", "yukari", "mamizou", "yuuka", "utsuho"
PARSEE, DOREMY = "parsee", "doremy"
#: 永江衣玖: a great youkai in no preset, dealt only when a season asks for her (``extra_great``).
IKU = "iku"

HUMAN_SIDE = (HUMAN, REIMU, RINNOSUKE)
#: The great youkai the distribution tables draw from.
GREAT = (REMILIA, YUKARI, MAMIZOU, YUUKA, UTSUHO)
#: Great youkai in no preset (a season deals them with ``extra_great``, each in an ordinary youkai's place).
EXTRA_GREAT = (IKU,)
#: Every great youkai: the ones the humans' 重创 must put out.
ALL_GREAT = GREAT + EXTRA_GREAT
OTHERS = (PARSEE, DOREMY)
ROLES = HUMAN_SIDE + (YOUKAI,) + GREAT + OTHERS + EXTRA_GREAT

#: role -> faction id ("human", "youkai", or the other faction's own id, which is also the winner id).
FACTION = {**{r: "human" for r in HUMAN_SIDE}, YOUKAI: "youkai", **{r: "youkai" for r in ALL_GREAT},
           PARSEE: PARSEE, DOREMY: DOREMY}
#: Who takes a player with her when she goes out.
TAKERS = (REIMU, YUUKA)
#: The day actors, in the order they act (the humans' exorcism sits between Mamizou and Yukari; Iku
#: acts before the weather is announced, so first).
DAY_ORDER = ("iku", "remilia", "mamizou", "exorcism", "yukari", "doremy")


def remilia_sees(role: str) -> str:
    """What Remilia's check says: "human", "youkai" or "other" (Rinnosuke shows as youkai)."""
    if role == RINNOSUKE:
        return "youkai"
    f = FACTION[role]
    return f if f in ("human", "youkai") else "other"


def _known_roles(roles: tuple[str, ...]) -> tuple[str, ...]:
    """``roles`` unchanged; ValueError naming the first unknown role id (a row of the season's table)."""
    for r in roles:
        if r not in ROLES:
            raise ValueError(f"unknown human_kill role {r!r}; known: {', '.join(ROLES)}")
    return roles


class Pick(BaseModel):
    """``count`` roles drawn (without repeats) from ``of``."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    count: int = Field(ge=0)
    of: tuple[str, ...]

    @field_validator("of")
    @classmethod
    def _known(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        return _known_roles(v)


class Row(BaseModel):
    """One row of the distribution table: ordinary humans and youkai, fixed roles and draws."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    humans: int = Field(ge=0)
    youkai: int = Field(ge=0)
    fixed: tuple[str, ...] = ()
    picks: tuple[Pick, ...] = ()

    @field_validator("fixed")
    @classmethod
    def _known(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        return _known_roles(v)


def _row(h: int, y: int, fixed: tuple[str, ...] = (), *picks: tuple[int, tuple[str, ...]]) -> Row:
    return Row(humans=h, youkai=y, fixed=fixed, picks=tuple(Pick(count=c, of=o) for c, o in picks))


_FOUR = (REMILIA, YUKARI, MAMIZOU, YUUKA)
_OTHER = (1, (PARSEE, DOREMY))
#: The standard table (the appendix), by player count.
STANDARD: dict[int, Row] = {
    6: _row(2, 2, (REMILIA, YUKARI)),
    7: _row(2, 3, (REMILIA,), (1, (YUKARI, MAMIZOU))),
    8: _row(2, 3, (REMILIA, PARSEE), (1, (YUKARI, MAMIZOU, YUUKA))),
    9: _row(3, 3, (REMILIA,), (2, (YUKARI, MAMIZOU, YUUKA))),
    10: _row(3, 3, (), (3, _FOUR), _OTHER),
    11: _row(3, 3, (), (4, GREAT), _OTHER),
    12: _row(2, 3, (REIMU, RINNOSUKE), (4, GREAT), _OTHER),
    13: _row(2, 4, (REIMU, RINNOSUKE), (4, GREAT), _OTHER),
    14: _row(2, 5, (REIMU, RINNOSUKE), (4, GREAT), _OTHER),
    15: _row(3, 5, (REIMU, RINNOSUKE), (4, GREAT), _OTHER),
    16: _row(3, 5, (REIMU, RINNOSUKE) + GREAT, _OTHER),
}


def row_counts(row: Row, rng: random.Random) -> dict[str, int]:
    """The role counts a row deals; its draws use ``rng``."""
    counts = {r: 0 for r in ROLES}
    counts[HUMAN] += row.humans
    counts[YOUKAI] += row.youkai
    for r in row.fixed:
        counts[r] += 1
    for p in row.picks:
        for r in rng.sample(sorted(p.of, key=ROLES.index), p.count):
            counts[r] += 1
    return counts


def thirds_counts(n: int, rng: random.Random) -> dict[str, int]:
    """The rulebook's rule: humans, ordinary youkai and great youkai a third each, the remainder to
    the ordinary youkai first, then the great youkai (8: 2, 3, 3). Humans are ordinary humans; the
    great youkai are drawn from the five great roles (more than five: the rest ordinary youkai)."""
    base, rest = divmod(n, 3)
    ordinary = base + (1 if rest >= 1 else 0)
    great = base + (1 if rest >= 2 else 0)
    counts = {r: 0 for r in ROLES}
    counts[HUMAN] = base
    drawn = min(great, len(GREAT))
    for r in rng.sample(list(GREAT), drawn):
        counts[r] += 1
    counts[YOUKAI] = ordinary + great - drawn
    return counts


#: Weather (the appendix): id -> draw weight. 极光 (kyokkou) is not in the table: with its own
#: chance the day's real weather is hidden (``kyokkou_chance``).
WEATHER = {
    "kaisei": 1.0, "donten": 1.0, "souten": 1.0, "hanagumori": 1.0, "tenkiame": 1.0, "kawagiri": 1.0,
    "taifuu": 1.0, "nagi": 1.0, "kousa": 1.0, "retsujitsu": 1.0, "baiu": 1.0, "noumu": 1.0,
    "kirisame": 1.0, "hyou": 1.0, "yuki": 1.0, "sou": 1.0, "fuuu": 1.0, "seiran": 1.0, "diamond_dust": 1.0,
}
#: Not drawn on day 1.
NOT_DAY_ONE = ("kaisei", "taifuu", "retsujitsu", "baiu")
