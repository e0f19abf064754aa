"""Replaying a game from a transcript: the format organisers who judged by hand can also write.

A transcript (YAML) names the ruleset, parameters, seed, players in seat order, the role draw and,
for every phase after the prologue, the private messages, thread posts and organiser commands it
received; each phase ends at the end of its entry (its deadline). See ``docs/replay.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from forumbot.engine.game import Game, Setup, SetupError
from forumbot.engine.types import Deadline, Message, Step
from forumbot.render import Renderer


class TranscriptError(ValueError):
    """The transcript cannot be replayed; the message says where (phase number, sender) and why."""


Line = tuple[str, str]


class PhaseEntry(BaseModel):
    """One phase: what arrived before its deadline. Each line is ``[sender, text]``."""

    model_config = ConfigDict(extra="forbid")
    phase: str | None = None
    messages: list[Line] = Field(default_factory=list)
    posts: list[Line] = Field(default_factory=list)
    organiser: list[Line] = Field(default_factory=list)


class Transcript(BaseModel):
    """A whole game as inputs. ``roles``: name -> role for the fixed draw (None: seeded draw)."""

    model_config = ConfigDict(extra="forbid")
    ruleset: str
    params: dict[str, Any] = Field(default_factory=dict)
    seed: int | str = 0
    players: list[str]
    roles: dict[str, str] | None = None
    aliases: dict[str, list[str]] = Field(default_factory=dict)
    organisers: list[str] = Field(default_factory=list)
    others: list[str] = Field(default_factory=list)  # accounts that are neither players nor organisers
    locale: str = "zh-Hans"
    markup: str = "markdown"
    phases: list[PhaseEntry] = Field(default_factory=list)

    @field_validator("players")
    @classmethod
    def _players(cls, v: list[str]) -> list[str]:
        if not v:
            raise ValueError("at least one player is needed")
        return [str(x) for x in v]

    def setup(self) -> Setup:
        """The :class:`Setup` this transcript describes."""
        organisers = list(self.organisers)
        for entry in self.phases:
            organisers += [s for s, _ in entry.organiser if s not in organisers]
        return Setup(
            ruleset=self.ruleset, players=tuple(self.players), params=self.params, roles=self.roles,
            seed=self.seed, organisers=tuple(organisers),
            aliases={k: tuple(v) for k, v in self.aliases.items()},
        )


def load_transcript(path: str | Path) -> Transcript:
    """Read and validate a transcript file; raises :class:`TranscriptError` with a clear message."""
    try:
        raw = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise TranscriptError(f"cannot read {path}: {exc.strerror}") from None
    except yaml.YAMLError as exc:
        raise TranscriptError(f"{path} is not valid YAML: {exc}") from None
    return parse_transcript(raw, str(path))


def parse_transcript(raw: Any, where: str = "transcript") -> Transcript:
    """Validate a transcript given as plain data (the YAML's content)."""
    if not isinstance(raw, dict):
        raise TranscriptError(f"{where}: expected a mapping with ruleset, players and phases")
    try:
        return Transcript.model_validate(raw)
    except ValidationError as exc:
        problems = []
        for e in exc.errors():
            loc = list(e["loc"])
            if loc[:1] == ["phases"] and len(loc) > 1 and isinstance(loc[1], int):
                text = f"phase {loc[1] + 1}: {'.'.join(map(str, loc[2:3]))}"
                if len(loc) > 3 and isinstance(loc[3], int):
                    line = _line(raw, loc)
                    text += f" line {loc[3] + 1}{f' {line!r}' if line is not None else ''}: each line is [sender, text]"
                    problems.append(text)
                    continue
            else:
                text = ".".join(map(str, loc))
            problems.append(f"{text}: {e['msg']}")
        raise TranscriptError(f"{where}: " + "; ".join(problems)) from None


def _line(raw: Any, loc: list[Any]) -> Any:
    """The offending line of a transcript, for the error message."""
    try:
        return raw["phases"][loc[1]][loc[2]][loc[3]]
    except (KeyError, IndexError, TypeError):
        return None


@dataclass
class PhaseOutcome:
    """What happened in one phase: who left, and every output while it was current."""

    phase: str
    round: int
    out: list[str] = field(default_factory=list)
    step: Step = field(default_factory=Step)


@dataclass
class ReplayResult:
    """A replayed game: the game object (final state) and the outcome of each phase."""

    game: Game
    phases: list[PhaseOutcome]

    def to_json(self, renderer: Renderer) -> dict[str, Any]:
        """The replay's JSON: ruleset, finished, winner, players, phases (+ ruleset extras)."""
        g = self.game
        summary = g.ruleset.summary()
        scores, ranks = summary.pop("scores", {}), summary.pop("ranks", {})
        summary.pop("winner", None)
        return {
            "ruleset": g.ruleset.id,
            "finished": g.finished,
            "winner": g.winner,
            "players": [
                {"name": p.name, "seat": p.seat, "role": p.role, "alive": p.alive,
                 "score": scores.get(p.seat), "rank": ranks.get(p.seat)}
                for p in g.players
            ],
            "phases": [
                {
                    "phase": ph.phase, "round": ph.round, "out": ph.out,
                    "replies": [{"to": r.to, "text": renderer.render(r.key, r.data)} for r in ph.step.replies],
                    "posts": [renderer.render(p.key, p.data) for p in ph.step.posts],
                }
                for ph in self.phases
            ],
            **{k: v for k, v in summary.items() if k in ("win_index",)},
        }


def replay(t: Transcript) -> ReplayResult:
    """Play the transcript through the engine. Raises :class:`TranscriptError` on a transcript that
    cannot be played (bad setup, a phase that does not match, phases after the end)."""
    try:
        game = Game(t.setup())
        first = game.start()
    except SetupError as exc:
        raise TranscriptError(str(exc)) from None
    outcomes = [PhaseOutcome(game.phase.kind, game.phase.round, step=first)]
    entries = list(t.phases)
    if not entries or entries[0].phase != "prologue":
        _close(game, outcomes)  # the prologue has no commands: the transcript starts after it
    for number, entry in enumerate(entries, start=1):
        if game.finished:
            raise TranscriptError(f"phase {number}: the game is already over; remove this and later phases")
        if entry.phase is not None and entry.phase != game.phase.kind:
            raise TranscriptError(
                f"phase {number}: the transcript says {entry.phase!r} but the game is in a {game.phase.kind!r} phase"
                f" (round {game.phase.round})"
            )
        current = outcomes[-1]
        inputs = [Message(s, x, "pm") for s, x in entry.messages]
        inputs += [Message(s, x, "thread") for s, x in entry.posts]
        inputs += [Message(s, x, "pm") for s, x in entry.organiser]
        for msg in inputs:
            known = {p.name for p in game.players} | set(t.players) | set(game.organisers) | set(t.others)
            if msg.sender not in known:
                raise TranscriptError(
                    f"phase {number}: sender {msg.sender!r} is not a player or an organiser (a typo? accounts that "
                    f"are neither go in `others`); the line: {msg.text!r}"
                )
            _feed(game, current, game.apply(msg))
        if game.paused and not game.finished:
            raise TranscriptError(f"phase {number}: the game is paused when this phase ends; resume it (继续 / resume) "
                                  "in the same entry, as the bot holds the deadline while paused")
        _close(game, outcomes)
    return ReplayResult(game, outcomes)


def _feed(game: Game, outcome: PhaseOutcome, step: Step) -> None:
    outcome.step.extend(step)
    outcome.out += [e.data["name"] for e in step.events if e.kind == "player_out"]


def _close(game: Game, outcomes: list[PhaseOutcome]) -> None:
    if game.finished:
        return
    current = outcomes[-1]
    _feed(game, current, game.apply(Deadline(game.phase.id)))
    if not game.finished:
        outcomes.append(PhaseOutcome(game.phase.kind, game.phase.round))
