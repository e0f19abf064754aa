"""The facts of the human_kill ruleset (人类杀; :class:`~forumbot.engine.types.Event` subclasses, one per
kind). Seats are ints; round r is day r and the night after it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from forumbot.engine.types import Event


@dataclass(frozen=True)
class Setup(Event):
    """What the draw dealt: ``counts`` (role -> players, every role, 0 for those not dealt) and
    ``windows`` (the day windows of this game, in order: the exorcism and those of the roles dealt)."""

    kind: ClassVar[str] = "setup"
    counts: dict[str, int]
    windows: list[str]


@dataclass(frozen=True)
class Iku(Event):
    """Iku's choice on day ``round`` taking effect as her window closes: ``choice`` "cancel" (today's
    weather is cancelled and her ability is gone for good) or "foresee" (she learns tomorrow's weather)."""

    kind: ClassVar[str] = "iku"
    round: int
    choice: str


@dataclass(frozen=True)
class Check(Event):
    """Remilia (``seat``) checks ``target`` on day ``round``: ``seen`` "human", "youkai" or "other"
    (Rinnosuke shows as youkai), or None when the check failed under 烈日."""

    kind: ClassVar[str] = "check"
    seat: int
    target: int
    seen: str | None
    round: int


@dataclass(frozen=True)
class ExorciseBallot(Event):
    """A human's exorcism ballot on day ``round`` (``choice`` None: an abstention); the later replaces
    the earlier (the team talks until the deadline)."""

    kind: ClassVar[str] = "exorcise_ballot"
    round: int
    voter: int
    choice: int | None


@dataclass(frozen=True)
class Volunteer(Event):
    """苍天: ``seat`` offers to go out in the place of the dying ``for_`` on day ``round`` (his last offer
    stands)."""

    kind: ClassVar[str] = "volunteer"
    keys: ClassVar[dict[str, str]] = {"for_": "for"}
    round: int
    seat: int
    for_: int


@dataclass(frozen=True)
class Withdrawn(Event):
    """``seat`` withdraws from the sage election in phase ``phase`` ("election", or "sage_pleas" for
    one of the tied): 「宣布退选的玩家不能再重新宣布竞选」."""

    kind: ClassVar[str] = "withdrawn"
    seat: int
    phase: str


@dataclass(frozen=True)
class Ballot(Event):
    """A ballot of round ``round`` in vote ``number`` of phase ``phase_kind`` (the banish vote or its
    run-off, the sage vote or its run-off): ``choice`` None is an abstention; ``weight`` is the sage's
    ``sage_weight`` in the banish vote, else 1.0."""

    kind: ClassVar[str] = "ballot"
    keys: ClassVar[dict[str, str]] = {"phase_kind": "kind"}
    phase_kind: str
    round: int
    number: int
    voter: int
    choice: int | None
    weight: float


@dataclass(frozen=True)
class ExorcismClosed(Event):
    """The humans' exorcism of day ``round`` is decided: ``target`` (None: nobody), ``how`` ("plurality",
    "drawn", "tie", "abstained" or "no_votes"), ``protected`` (Mamizou's disguise saved him: he is not
    out at nightfall)."""

    kind: ClassVar[str] = "exorcism_closed"
    round: int
    target: int | None
    how: str
    protected: bool


@dataclass(frozen=True)
class SageChanged(Event):
    """The sage's title passes from ``from_`` (who went out) to ``to`` (his successor; None: the title
    ends): 「当贤者出局时，其可以选择…指定一位未出局玩家成为贤者」."""

    kind: ClassVar[str] = "sage_changed"
    keys: ClassVar[dict[str, str]] = {"from_": "from"}
    from_: int
    to: int | None


@dataclass(frozen=True)
class BanishClosed(Event):
    """Vote ``number`` of the night's banish vote on round ``round`` closed: ``vote_kind`` ("decided",
    "runoff", "exhausted" or "none"), ``chosen`` (the banished; None: nobody) and the ``tied``."""

    kind: ClassVar[str] = "banish_closed"
    keys: ClassVar[dict[str, str]] = {"vote_kind": "kind"}
    round: int
    number: int
    vote_kind: str
    chosen: int | None
    tied: list[int]


@dataclass(frozen=True)
class SageVoteClosed(Event):
    """Sage vote ``number`` closed: ``vote_kind`` ("decided", "runoff", "exhausted" or "none"),
    ``chosen`` and the ``tied`` (everyone abstaining in the first vote is a tie of all, ruling 2026-12)."""

    kind: ClassVar[str] = "sage_vote_closed"
    keys: ClassVar[dict[str, str]] = {"vote_kind": "kind"}
    number: int
    vote_kind: str
    chosen: int | None
    tied: list[int]


@dataclass(frozen=True)
class SageElected(Event):
    """The sage election is over: ``seat`` holds the title (None: no sage) and ``why`` ("elected",
    "tie", "no_votes", "nobody_withdrew", "everyone_withdrew" or "no_voters")."""

    kind: ClassVar[str] = "sage_elected"
    seat: int | None
    why: str


@dataclass(frozen=True)
class LongPost(Event):
    """浓雾: ``seat`` posted ``length`` characters, over the day's limit; the organisers are told (the
    appendix: 「speeches limited to 10 characters」)."""

    kind: ClassVar[str] = "long_post"
    seat: int
    length: int


@dataclass(frozen=True)
class SageOut(Event):
    """A sage elected today went out at nightfall: he names his successor now, in a succession window."""

    kind: ClassVar[str] = "sage_out"
    seat: int


@dataclass(frozen=True)
class UtsuhoSpeech(Event):
    """The banished Utsuho (``seat``), sealed but in the game, posted her one speech."""

    kind: ClassVar[str] = "utsuho_speech"
    seat: int


@dataclass(frozen=True)
class SealedPost(Event):
    """The banished Utsuho (``seat``, ``name``) posted again after her one speech; the organisers are
    told."""

    kind: ClassVar[str] = "sealed_post"
    seat: int
    name: str


@dataclass(frozen=True)
class Substituted(Event):
    """苍天: ``by`` goes out on day ``round`` in the place of the dying ``for_``, inheriting the cause."""

    kind: ClassVar[str] = "substituted"
    keys: ClassVar[dict[str, str]] = {"for_": "for"}
    round: int
    for_: int
    by: int
