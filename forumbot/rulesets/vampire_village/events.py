"""The facts of the vampire_village ruleset (吸血鬼村莊; :class:`~forumbot.engine.types.Event` subclasses, one
per kind). Seats are ints; night ``round`` comes before day ``round``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from forumbot.engine.types import Event


@dataclass(frozen=True)
class Setup(Event):
    """What the draw dealt: ``counts`` (role -> players, 【參加人數及職業配置】 or the season's)."""

    kind: ClassVar[str] = "setup"
    counts: dict[str, int]


@dataclass(frozen=True)
class LinkOrder(Event):
    """The cupid (``seat``) names the two lovers (「指定任意兩個人（可以包括他自己）建立戀愛關係」); a later order
    replaces it until his phase closes."""

    kind: ClassVar[str] = "link_order"
    seat: int
    targets: list[int]


@dataclass(frozen=True)
class Check(Event):
    """The seer (``seat``) learns ``target``'s role on night ``round`` (「每晚可以確認一個人的真實身份」)."""

    kind: ClassVar[str] = "check"
    seat: int
    target: int
    round: int


@dataclass(frozen=True)
class SelfkillOrder(Event):
    """Vampire ``seat`` kills himself on night ``round`` (「也可以選擇自殺」): the next day's talk and vote are
    skipped."""

    kind: ClassVar[str] = "selfkill_order"
    seat: int
    round: int


@dataclass(frozen=True)
class CharmOrder(Event):
    """The piper (``seat``) charms one or two ``targets`` tonight (「對最多對兩個人施魔法」); a later order
    replaces it."""

    kind: ClassVar[str] = "charm_order"
    seat: int
    targets: list[int]


@dataclass(frozen=True)
class ShotOrder(Event):
    """The hunter (``seat``) names ``target`` in his window; the shot is taken when it closes."""

    kind: ClassVar[str] = "shot_order"
    seat: int
    target: int


@dataclass(frozen=True)
class SuccessorOrder(Event):
    """The dead sheriff (``seat``) names ``target`` his successor; the badge passes when his window closes."""

    kind: ClassVar[str] = "successor_order"
    seat: int
    target: int


@dataclass(frozen=True)
class Ballot(Event):
    """``voter``'s vote for ``choice`` in the ``vote_kind`` ("election", "vote" or "runoff") of day ``round``,
    vote ``number`` (2, 3: the revotes among the tied); ``weight`` 2 for the sheriff in the day vote
    (「警長有雙倍投票的功能」), else 1. The first vote stands."""

    kind: ClassVar[str] = "ballot"
    keys: ClassVar[dict[str, str]] = {"vote_kind": "kind"}
    vote_kind: str
    round: int
    number: int
    voter: int
    choice: int
    weight: float


@dataclass(frozen=True)
class NightClosed(Event):
    """Night ``round`` is over: the vampires' ``target`` (None: no kill), the ``guarded`` player, whether the
    witch ``saved`` the target, and the ``dead`` in the order they died (lovers after their partner)."""

    kind: ClassVar[str] = "night_closed"
    round: int
    target: int | None
    guarded: int | None
    saved: bool
    dead: list[int]


@dataclass(frozen=True)
class VoteClosed(Event):
    """The ``vote_kind`` ("election" or "vote") closed, vote ``number``: ``result`` is the tally's kind
    ("decided", "none", "runoff", "exhausted"), ``chosen`` the top name, ``tied`` the tied."""

    kind: ClassVar[str] = "vote_closed"
    keys: ClassVar[dict[str, str]] = {"vote_kind": "kind"}
    vote_kind: str
    number: int
    result: str
    chosen: int | None
    tied: list[int]


@dataclass(frozen=True)
class Lovers(Event):
    """The lovers linked on night 1 (「情侶相認」); empty when the cupid named nobody, or he or one of them died."""

    kind: ClassVar[str] = "lovers"
    seats: list[int]


@dataclass(frozen=True)
class Potion(Event):
    """The witch used her ``potion`` ("save" or "poison") on ``target`` on night ``round`` (「兩種藥只能各使用
    一次」)."""

    kind: ClassVar[str] = "potion"
    keys: ClassVar[dict[str, str]] = {"potion": "kind"}
    potion: str
    target: int
    round: int


@dataclass(frozen=True)
class Charmed(Event):
    """The players the piper's charms reached on night ``round`` (living, not charmed before)."""

    kind: ClassVar[str] = "charmed"
    seats: list[int]
    round: int


@dataclass(frozen=True)
class Shot(Event):
    """The hunter's window (``seat``; 0: a window opened while the hunter is hidden, whoever died) closed with a
    shot at ``target``, or None: no shot."""

    kind: ClassVar[str] = "shot"
    seat: int
    target: int | None


@dataclass(frozen=True)
class ElderLife(Event):
    """The vampires' kill reached the elder (``seat``): ``lives`` left (「吸血鬼每殺一次長老少一條命」)."""

    kind: ClassVar[str] = "elder_life"
    seat: int
    lives: int


@dataclass(frozen=True)
class PowersLost(Event):
    """The ``elder`` died by the village's hand (``cause``: "poisoned", "shot", "voted" or "drawn"): every
    villager-side power is gone from now on (「村民所有特殊能力消失，但身份依然保留」)."""

    kind: ClassVar[str] = "powers_lost"
    elder: int
    cause: str
