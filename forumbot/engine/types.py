"""Plain-data inputs and outputs of the rules engine.

Inputs are what the outside world does to a game, in order: a :class:`Message` (a private message to
the judge or a post in the game thread) or a :class:`Deadline` (the current phase's time is up). Outputs
of one step are a :class:`Step`: :class:`Event` (facts, for the log and the final post),
:class:`Reply` (a private message to one account) and :class:`Post` (a post to the game thread).
Replies and posts carry a template key and plain JSON-able data; text is made later by
:mod:`forumbot.render`, never inside the rules.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Literal

Channel = Literal["pm", "thread"]

#: who won a finished game: a faction id ("killer", "village"...), the list of camps when the rulebook
#: lets several win together (interview_vampire: humans and vampires), or None (nobody: an organiser's
#: end, a draw the ruleset does not name). :meth:`forumbot.engine.ruleset.Ruleset.won` reads both forms.
Winner = str | list[str] | None


@dataclass(frozen=True)
class Message:
    """A message to the judge: ``sender`` is the forum account name, ``channel`` "pm" or "thread"."""

    sender: str
    text: str
    channel: Channel = "pm"


@dataclass(frozen=True)
class Deadline:
    """The deadline of phase ``phase_id`` has passed. A deadline for a phase that is not the current
    one (already closed, or not yet open), or one while the game is paused, changes nothing."""

    phase_id: int


Input = Message | Deadline


def optional(default: Any = None) -> Any:
    """A field of an :class:`Event` subclass that :attr:`Event.data` leaves out while it holds ``default``
    (a key some facts of a kind carry and others do not, e.g. ``thread`` on a refusal read from the thread)."""
    return field(default=default, metadata={"optional": True, "default": default})



@dataclass(frozen=True)
class Event:
    """A fact, for the log, the report and the simulator: one frozen dataclass per kind, subclasses of this
    one (the engine's in :mod:`forumbot.engine.events`, a ruleset's next to its rules), each naming its
    ``kind`` (snake_case) and declaring its fields. :attr:`data` is the fact as JSON-able data."""

    kind: ClassVar[str] = "event"
    #: field name -> the key :attr:`data` writes it under, where they differ (``for`` is a Python keyword;
    #: ``kind`` names the event's class)
    keys: ClassVar[dict[str, str]] = {}

    @property
    def data(self) -> dict[str, Any]:
        """The fields in declaration order (under their :attr:`keys`), without an :func:`optional` field that
        holds its default."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.metadata.get("optional") and value == f.metadata["default"]:
                continue
            out[self.keys.get(f.name, f.name)] = value
        return out


@dataclass(frozen=True)
class Reply:
    """A private message to account ``to``, rendered from template ``key`` with ``data``."""

    to: str
    key: str
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Post:
    """A post to the game thread, rendered from template ``key`` with ``data``."""

    key: str
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class Step:
    """Everything one input produced: events, and the replies and posts in the order made."""

    events: list[Event] = field(default_factory=list)
    outputs: list[Reply | Post] = field(default_factory=list)

    @property
    def replies(self) -> list[Reply]:
        """The private messages, in order."""
        return [o for o in self.outputs if isinstance(o, Reply)]

    @property
    def posts(self) -> list[Post]:
        """The thread posts, in order."""
        return [o for o in self.outputs if isinstance(o, Post)]

    def extend(self, other: Step) -> None:
        """Append ``other``'s events and outputs after this step's."""
        self.events += other.events
        self.outputs += other.outputs


@dataclass(frozen=True)
class Phase:
    """A phase of the game. ``id`` counts every phase opened (0 = prologue) and is what a
    :class:`Deadline` names; ``kind`` is ruleset vocabulary ("prologue", "vote", "kill", "night",
    "runoff", "poll", "election"...); ``round`` is the rulebook's round number (0 for the prologue);
    ``day`` the rulebook's day number."""

    id: int
    kind: str
    round: int = 0
    day: int = 1
