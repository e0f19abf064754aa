"""Shapes of the command language: the roster the parser reads names against, and what it returns.

The parser (:func:`forumbot.language.parse.parse`) is pure: text and roster in, a :class:`Command` or a
:class:`ParseError` out. It knows every verb of every ruleset; whether a verb is allowed for this sender
in this phase is the rules engine's business, not the parser's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: Canonical verb ids. Player verbs, then organiser verbs.
PLAYER_VERBS = (
    "vote",       # 投 / 投票 / vote / ##vote / [vote]X[/vote]: one or more targets, in ranked order
    "unvote",     # 取消投票 / 撤票 / unvote / ##unvote / [unvote][/unvote]: withdraw one's vote
    "nolynch",    # 不放逐 / no lynch / ##vote no lynch: a vote that nobody is executed
    "kill",       # 杀 / 殺 / kill
    "check",      # 验 / 驗 / 查 / check
    "ask",        # 问 / 問 / ask (nurse: is X police?)
    "save",       # 救 / save; 救自己 = the sender
    "successor",  # 接任 / successor
    "clue",       # 线索 N / 線索 N / clue N; 不要线索 / no clue = number 0
    "status",     # 状态 / 狀態 / status
    "help",       # 帮助 / 幫助 / help
    "exorcise",   # 退治 / 驱魔 / exorcise (human_kill: the humans' day vote)
    "abstain",    # 弃权 / 弃票 / abstain
    "withdraw",   # 退选 / withdraw (human_kill: the sage election)
    "disguise",   # 伪装 / disguise (human_kill: Mamizou)
    "dream",      # 梦 / 入梦 / dream (human_kill: Doremy, up to two targets)
    "take",       # 带走 / take (human_kill: Reimu, Yuuka)
    "clockwise",  # 顺时针 X / clockwise X (human_kill: the sage's speaking order from X)
    "anticlockwise",  # 逆时针 X / anticlockwise X
    "stand_in",   # 替 X / 替死 X / 代替 X / stand in for X (human_kill, 苍天: go out in X's place)
    "cancel_weather",  # 取消天气 / cancel weather (human_kill: Iku cancels today's weather)
    "foresee",    # 预知天气 / 预知 / foresee weather (human_kill: Iku learns tomorrow's weather)
    "suck",       # 吸 / 吸血 / suck (interview_vampire: up to 2 or 3 targets)
    "convert",    # 转化 / 轉化 / 初拥 / convert (interview_vampire); 取消转化 / 不转化 / cancel convert = number 0
    "link",       # 连 / 連 / link (vampire_village: cupid links two lovers)
    "guard",      # 守 / 守护 / guard (vampire_village: the guard)
    "poison",     # 毒 / poison (vampire_village: the witch)
    "charm",      # 吹 / 魅惑 / charm (vampire_village: the piper, up to two targets)
    "shoot",      # 开枪 / 開槍 / shoot (vampire_village: the hunter at death)
    "selfkill",   # 自杀 / 自殺 / 自爆 / selfkill (vampire_village: a vampire kills himself)
)
ORGANISER_VERBS = (
    "penalty",    # 罚分 X 潜水|灌水 / penalty X lurking|flooding -> text "lurking" | "flooding"
    "replace",    # 替换 X 新账号 / replace X NEWNAME -> targets (X,), text NEWNAME
    "extend",     # 延长 30分钟 / extend 30m | 2h -> number in seconds
    "pause",      # 暂停 / pause
    "resume",     # 继续 / 恢复 / resume
    "end",        # 结束游戏 / end
)


@dataclass(frozen=True)
class RosterEntry:
    """One seat of the game: seat number (1-based), forum user name, optional aliases (nicknames)."""

    seat: int
    name: str
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class Roster:
    """The players in seat order. Names are matched across simplified/traditional forms and case."""

    entries: tuple[RosterEntry, ...]

    @classmethod
    def of(cls, names: list[str], aliases: dict[str, list[str]] | None = None) -> Roster:
        """Build a roster from names in seat order (seat 1 first) and an optional alias map."""
        aliases = aliases or {}
        return cls(tuple(RosterEntry(i + 1, n, tuple(aliases.get(n, ()))) for i, n in enumerate(names)))

    def name(self, seat: int) -> str:
        """The user name at ``seat``; raises KeyError for a seat not in the roster."""
        for e in self.entries:
            if e.seat == seat:
                return e.name
        raise KeyError(seat)

    def seat(self, name: str) -> int | None:
        """The seat of the exact user name ``name``, or None."""
        for e in self.entries:
            if e.name == name:
                return e.seat
        return None


@dataclass(frozen=True)
class NameReading:
    """How one written name was read: ``written`` as typed, ``seat`` chosen, ``exact`` False when the
    name was not written exactly (the reply must then say what it was read as); ``how`` says which rule
    read it: "exact", "typo" (one edit), "prefix" (the start of one name: ``lian``), "words" (some of a
    name's words: ``Wile`` for ``Wile E. Coyote``), "spacing" (other spacing or word order: ``Jar Jar
    Binks``), "initials" (``GB`` for ``GlowingBear``), "fragment" (``Fitz`` for ``havingfitz``), "given" (a
    Chinese given name: ``修竹`` for ``沈修竹``)."""

    written: str
    seat: int
    exact: bool = True
    how: str = field(default="exact", compare=False)


@dataclass(frozen=True)
class Command:
    """A command read from a message.

    ``verb``: one of PLAYER_VERBS or ORGANISER_VERBS. ``targets``: seats in the order written.
    ``number``: the clue number (0 = no clue) or, for ``extend``, seconds. ``text``: a free argument
    (``replace``: the substitute account name; ``penalty``: "lurking" or "flooding").
    ``readings``: one per target, in the same order.
    """

    verb: str
    targets: tuple[int, ...] = ()
    number: int | None = None
    text: str | None = None
    readings: tuple[NameReading, ...] = field(default=(), compare=False)


@dataclass(frozen=True)
class ParseError:
    """Why a message could not be read.

    ``code``: "no_command" (no verb found), "unknown_name" (``written`` matches nobody),
    "ambiguous_name" (``written`` could be any of ``candidates``, seats), "missing_target" (the verb
    needs a name), "bad_number" (the verb needs a number, e.g. a clue number), "bad_argument"
    (anything else; ``written`` holds the offending text), "unclear" (private messages only: a command
    inside a frame that makes it no order; ``frame`` is "negation" (我不投张三, don't kill Bob),
    "reported" (李四说他要投张三, Bats says: vote X), "suggestion" (建议投3号, let's vote X, if…),
    "past" (我验了3号, 我投过3号) or "question" (投3号吗?); ``meant`` is the command the words would
    make, for the reply to ask "did you mean …? write …"). ``verb`` is the verb that was recognised, if any.
    """

    code: str
    verb: str | None = None
    written: str | None = None
    candidates: tuple[int, ...] = ()
    frame: str | None = None
    meant: Command | None = None
