"""What ``forumbot simulate`` says in words: the answer to "is my season balanced?" under the play simulated,
the deaths by cause and the ruleset's own figures named as an organiser reads them, and a progress line for a
run whose output is not a terminal (a log, a pipe, CI)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from forumbot.cli.outcome import camp_name
from forumbot.simulate.run import Rate, Summary

#: players per game when ``forumbot simulate RULESET`` is given no ``--players``: the size each rulebook
#: plays at (docs/<ruleset>.md)
TABLE_SIZES = {
    "sunlight": 19,           # 阳光下的罪恶: "19名游戏者，1名凶手"
    "interview_vampire": 12,  # 夜访吸血鬼: the rulebook's 12–13 players
    "killer_club": 14,        # 杀人游戏: "14 is the standard game" (note 1: 3 killers, 3 police, helper, nurse)
    "vampire_village": 13,    # 吸血鬼村莊: the smallest preset of the roles table (13–18)
    "human_kill": 12,         # 人类杀: the first row of the standard table with every kind of role (12–15)
}

#: a camp win-rate gap (a share: 0.10 is 10 percentage points) under which two camps are called even, and over which one is favoured clearly
EVEN, CLEAR = 0.10, 0.20

#: the ruleset figures of ``Summary.extra`` in words (a mean per game)
EXTRA_WORDS = {
    "win_index": "win index (the share of the goods' ballot points that named the killer; the goods win when it "
                 "reaches win_threshold)",
    "nights": "nights played",
    "criminals": "players who became criminals",
    "conversions": "conversions to vampire",
    "criminals_won": "criminals among the winners",
}

RANDOM_CAVEAT = ("Random play is a floor, not a forecast: every player picks a legal action at random (nobody reads "
                 "anyone, no role uses what it learns), so one camp can win almost every game. Judge balance by the "
                 "default heuristic play.")


def _reasons() -> dict[str, str]:
    """The causes of death as the English report page names them (``report/words.html``'s ``reasons``)."""
    from forumbot.report.html import environment

    words: dict[str, str] = environment("en").get_template("report/words.html").module.reasons  # type: ignore[attr-defined]
    return words


def deaths_line(s: Summary) -> str:
    """The deaths per game by cause, in words: "deaths per game (mean): voted out 1.02, chosen by the victim 0.13"."""
    reasons = _reasons()
    return "deaths per game (mean): " + (", ".join(f"{reasons.get(k, k.replace('_', ' '))} {v:.2f}"
                                                 for k, v in s.deaths.items()) or "none")


def extra_line(s: Summary) -> str | None:
    """The ruleset's own figures (a mean per game), each with what it is; None when it has none."""
    if not s.extra:
        return None
    return "means per game: " + "; ".join(f"{EXTRA_WORDS.get(k, k.replace('_', ' '))} {v:.3g}" for k, v in s.extra.items())


def answer(s: Summary, policy: str, skill: float, players: int, what: str) -> list[str]:
    """The answer to "is it balanced?" for the figures ``s`` of ``what`` (a season file's name or a ruleset id) with
    ``players`` a game, under ``policy`` play (with ``skill`` for heuristic): which camp wins how often, whether
    that is about even (the two leading camps within :data:`EVEN`), leaning (within :data:`CLEAR`) or clearly one
    camp's, how sure the figures are (the widest 95% interval), and for random play the caveat that it is a floor."""
    camps = [(c, r) for c, r in s.camps.items() if r.wins or c != "none"]
    camps.sort(key=lambda cr: cr[1].rate, reverse=True)
    named = [(camp_name(c, "en") if c != "none" else "no camp (a draw)", r) for c, r in camps]
    how = "random play" if policy == "random" else f"heuristic play (the village reads the talk with skill {skill:g})"
    rates = ", ".join(f"{name} {r.rate:.0%} (95% interval {r.low:.0%}–{r.high:.0%})" for name, r in named if r.wins)
    lines = [f"Answer for {what}: in {games_words(s.games, 'simulated ')} of {players} players under {how}, {rates or 'nobody'} "
             "won."]
    playing = [(name, r) for name, r in named if not name.startswith("no camp")]
    if len(playing) >= 2:
        (top, a), (second, b) = playing[0], playing[1]
        verdict = _verdict(top, a, second, b, s.games)
        if len(playing) > 2:
            verdict += "; with more than two camps, compare each camp's rate with its share of the players"
        lines.append(f"Balanced? {verdict[0].upper()}{verdict[1:]}.")
    widest = max((r.high - r.low for _, r in named), default=0.0)
    if widest > 0.08 and not lines[-1].startswith("Balanced? Not sure yet"):  # that line says it already
        lines.append(f"These rates are known only to ±{widest * 50:.0f} percentage points with {games_words(s.games)}: "
                     "more --games narrows the intervals.")
    if policy == "random":
        lines.append(RANDOM_CAVEAT)
    else:
        lines.append("The figures describe the simulated play, not your players: use them to compare parameter choices "
                     "(--param, --sweep) under the same play.")
    return lines


def games_words(n: int, kind: str = "") -> str:
    """``n`` games in words: "1 game", "20 games", "1 simulated game" with ``kind`` "simulated "."""
    return f"{n} {kind}game{'s' * (n != 1)}"


def _verdict(top: str, a: Rate, second: str, b: Rate, games: int) -> str:
    """Whether the leading camp ``top`` (its :class:`~forumbot.simulate.run.Rate` ``a``) and the next one
    (``second``, ``b``) are about even, told only as surely as ``games`` games allow: the gap between them lies
    between ``a.low - b.high`` and ``a.high - b.low`` (their 95% intervals); a verdict is given when that whole
    range is on one side of :data:`EVEN` or :data:`CLEAR`, else the figures are said to be too few to tell."""
    gap, low, high = a.rate - b.rate, a.low - b.high, a.high - b.low
    points = f"{gap * 100:.0f} percentage points ahead of {second}"
    if low > CLEAR:
        return f"not balanced: {top} win clearly more often ({points})"
    if low > EVEN and high > CLEAR:  # surely not even, perhaps not balanced at all
        return (f"leaning towards {top} at least: {top} are {points} here, and with {games_words(games)} the gap is surely over "
                f"{EVEN * 100:.0f} points and perhaps over {CLEAR * 100:.0f}; more --games tell which")
    if low > EVEN:
        return f"leaning towards {top} ({points})"
    farthest = max(-low, high)
    if farthest <= EVEN:
        return f"about even: {top} and {second} win within {EVEN * 100:.0f} percentage points of each other"
    if farthest <= CLEAR:
        return (f"close to even: {top} are {points}, and with {games_words(games)} the gap is surely under "
                f"{CLEAR * 100:.0f} points either way")
    behind = f"{second} {-low * 100:.0f} points ahead" if low < 0 else f"{top} {low * 100:.0f} points ahead"
    return (f"not sure yet: {games_words(games)} {'is' if games == 1 else 'are'} too few to tell. {top} are {points} here, but the true gap could be "
            f"anywhere from {behind} to {top} {high * 100:.0f} points ahead; run more games (--games 1000)")


def shown_params(point: dict[str, Any]) -> str:
    """The parameters of a simulated point as a season file writes them ("votes=3, vote_in_thread=false"); a
    table of its own (``[params.series]``) or a list is left out (its text would be Python's), "default
    parameters" when nothing is left."""
    def word(v: Any) -> str:
        return ("true" if v else "false") if isinstance(v, bool) else str(v)

    return ", ".join(f"{k}={word(v)}" for k, v in point.items() if not isinstance(v, dict | list)) or "default parameters"


class LineProgress:
    """Progress for a run whose output is not a terminal (Rich's bar shows nothing there): a line to ``echo``
    (stderr) when the run begins, every ``every`` seconds or ``step`` of the games, and at the end, e.g.
    "simulate sunlight defaults: 300 of 1000 games (30%), 12 s so far, about 28 s left"."""

    def __init__(self, label: str, total: int, echo: Callable[[str], Any], every: float = 5.0, step: float = 0.1,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.label, self.total, self.echo, self.every, self.step, self.clock = label, total, echo, every, step, clock
        self.done = 0
        self.began = self.last = clock()
        self.next_share = step
        echo(f"simulate {label}: {total} games to play")

    def advance(self, n: int) -> None:
        """``n`` more games are played."""
        self.done += n
        now = self.clock()
        share = self.done / self.total if self.total else 1.0
        if self.done < self.total and share < self.next_share and now - self.last < self.every:
            return
        while self.next_share <= share:
            self.next_share += self.step
        self.last = now
        spent = now - self.began
        left = f", about {spent / share - spent:.0f} s left" if 0 < share < 1 else ""
        self.echo(f"simulate {self.label}: {self.done} of {self.total} games ({share:.0%}), {spent:.0f} s so far{left}")
